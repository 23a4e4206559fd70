// SPDX-License-Identifier: MIT
/* run --copy SRC /dev/mtdN: the copy's destination on raw flash (mtd_run.h). */
#include "core/mtd/mtd_run.h"
#include "core/run/copy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int mtd_sink_init(struct mtd_sink *s, const struct mtd_io *io, uint64_t len, uint64_t erasesize,
		  uint64_t writesize, uint64_t *ret_capacity)
{
	uint64_t good = 0;

	*s = (struct mtd_sink){.io = *io,
			       .len = len,
			       .erasesize = erasesize,
			       .writesize = writesize,
			       .nblocks = len / erasesize};
	if (!s->nblocks || !writesize || erasesize % writesize)
		return -EINVAL;
	s->bad = calloc(s->nblocks, sizeof(*s->bad));
	s->pad = malloc(writesize);
	if (!s->bad || !s->pad) {
		mtd_sink_release(s);
		return -ENOMEM;
	}
	for (uint64_t b = 0; b < s->nblocks; b++) {
		int r = io->isbad(io->ctx, b * erasesize);

		if (r < 0) {
			mtd_sink_release(s);
			return r;
		}
		s->bad[b] = r > 0;
		good += !s->bad[b];
	}
	*ret_capacity = good * erasesize;
	return 0;
}

void mtd_sink_release(struct mtd_sink *s)
{
	if (!s)
		return;
	free(s->bad);
	free(s->pad);
	s->bad = NULL;
	s->pad = NULL;
}

static int sink_begin(void *ctx)
{
	struct mtd_sink *s = ctx;

	s->block = 0;
	s->off = 0;
	return 0;
}

static int sink_write(void *ctx, const char *buf, size_t len)
{
	struct mtd_sink *s = ctx;

	while (len) {
		uint64_t n, at;
		ssize_t w;

		if (!s->off) {
			/* the next good eraseblock, erased as the copy reaches it */
			while (s->block < s->nblocks && s->bad[s->block])
				s->block++;
			if (s->block == s->nblocks)
				return -ENOSPC;
			if (s->io.erase(s->io.ctx, s->block * s->erasesize, s->erasesize) < 0)
				return -EIO;
		}
		n = s->erasesize - s->off;
		if (n > len)
			n = len;
		at = s->block * s->erasesize + s->off;
		if (n % s->writesize) {
			/* flash is written in pages: a short tail is padded as erased flash reads
			 */
			uint64_t whole = n - n % s->writesize;

			if (whole) {
				w = s->io.pwrite(s->io.ctx, buf, (size_t)whole, at);
				if (w != (ssize_t)whole)
					return w < 0 ? (int)w : -EIO;
			}
			memset(s->pad, 0xff, s->writesize);
			memcpy(s->pad, buf + whole, (size_t)(n - whole));
			w = s->io.pwrite(s->io.ctx, s->pad, (size_t)s->writesize, at + whole);
			if (w != (ssize_t)s->writesize)
				return w < 0 ? (int)w : -EIO;
			/* what follows starts on the next page (off stays page-aligned) */
			s->off += whole + s->writesize;
		} else {
			w = s->io.pwrite(s->io.ctx, buf, (size_t)n, at);
			if (w != (ssize_t)n)
				return w < 0 ? (int)w : -EIO;
			s->off += n;
		}
		buf += n;
		len -= (size_t)n;
		if (s->off >= s->erasesize) {
			s->off = 0;
			s->block++;
		}
	}
	return 0;
}

static int sink_end(void *ctx)
{
	(void)ctx;
	return 0; /* MTD writes are done when they return */
}

void mtd_sink_as_copy(struct mtd_sink *s, const char *what, struct run_copy_sink *ret)
{
	*ret = (struct run_copy_sink){s, what, sink_begin, sink_write, sink_end};
}

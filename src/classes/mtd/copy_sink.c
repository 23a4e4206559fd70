// SPDX-License-Identifier: MIT
/* run --copy SRC /dev/mtdN: the copy's destination on raw flash (mtd_run.h). */
#include "classes/mtd/mtd_run.h"
#include "classes/copy/copy.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int mtd_sink_init(struct mtd_sink *s, const struct mtd_io *io, uint64_t len, uint64_t erasesize,
		  uint64_t writesize, uint64_t *ret_capacity)
{
	uint64_t good;
	int r;

	*s = (struct mtd_sink){.io = *io,
			       .len = len,
			       .erasesize = erasesize,
			       .writesize = writesize,
			       .nblocks = len / erasesize};
	if (!s->nblocks || !writesize || erasesize % writesize)
		return -EINVAL;
	s->pad = malloc(writesize);
	if (!s->pad)
		return -ENOMEM;
	r = mtd_bad_map(io, s->nblocks, erasesize, &s->bad, &good);
	if (r < 0) {
		mtd_sink_release(s);
		return r;
	}
	*ret_capacity = good * erasesize;
	return 0;
}

void mtd_sink_release(struct mtd_sink *s)
{
	if (!s)
		return;
	free_all(s->bad, s->pad);
	s->bad = NULL;
	s->pad = NULL;
}

static int sink_begin(void *ctx)
{
	struct mtd_sink *s = ctx;

	s->block = 0;
	s->off = 0;
	s->fill = 0;
	return 0;
}

/* whole pages onto the flash: each good eraseblock erased when reached */
static int emit(struct mtd_sink *s, const char *buf, uint64_t n)
{
	while (n) {
		uint64_t k = s->erasesize - s->off;
		ssize_t w;

		if (!s->off) {
			s->block = mtd_next_good(s->bad, s->nblocks, s->block);
			if (s->block == s->nblocks)
				return -ENOSPC;
			if (s->io.erase(s->io.ctx, s->block * s->erasesize, s->erasesize) < 0)
				return -EIO;
		}
		if (k > n)
			k = n;
		w = s->io.pwrite(s->io.ctx, buf, (size_t)k, s->block * s->erasesize + s->off);
		if (w != (ssize_t)k)
			return w < 0 ? (int)w : -EIO;
		s->off += k;
		if (s->off == s->erasesize) {
			s->off = 0;
			s->block++;
		}
		buf += k;
		n -= k;
	}
	return 0;
}

static int sink_write(void *ctx, const char *buf, size_t len)
{
	struct mtd_sink *s = ctx;
	int r;

	while (len) {
		uint64_t n;

		if (s->fill || len < s->writesize) {
			/* less than a page: held until the page is whole (or the end) */
			n = s->writesize - s->fill;
			if (n > len)
				n = len;
			memcpy(s->pad + s->fill, buf, (size_t)n);
			s->fill += n;
			if (s->fill == s->writesize) {
				s->fill = 0;
				r = emit(s, (const char *)s->pad, s->writesize);
				if (r < 0)
					return r;
			}
		} else {
			n = len - len % s->writesize;
			r = emit(s, buf, n);
			if (r < 0)
				return r;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int sink_end(void *ctx)
{
	struct mtd_sink *s = ctx;

	if (!s->fill)
		return 0; /* MTD writes are done when they return */
	/* the tail padded to its page as erased flash reads */
	memset(s->pad + s->fill, 0xff, (size_t)(s->writesize - s->fill));
	s->fill = 0;
	return emit(s, (const char *)s->pad, s->writesize);
}

void mtd_sink_as_copy(struct mtd_sink *s, const char *what, struct run_copy_sink *ret)
{
	*ret = (struct run_copy_sink){s, what, sink_begin, sink_write, sink_end};
}

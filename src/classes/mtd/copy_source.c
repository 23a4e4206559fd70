// SPDX-License-Identifier: MIT
/* run --copy /dev/mtdN DST: the copy's source on raw flash (mtd_run.h). */
#include "classes/mtd/mtd_run.h"
#include "classes/copy/copy.h"

#include <errno.h>
#include <stdlib.h>

int mtd_bad_map(const struct mtd_io *io, uint64_t nblocks, uint64_t erasesize, bool **ret_bad,
		uint64_t *ret_good)
{
	bool *bad = calloc(nblocks, sizeof(*bad));
	uint64_t good = 0;

	if (!bad)
		return -ENOMEM;
	for (uint64_t b = 0; b < nblocks; b++) {
		int r = io->isbad(io->ctx, b * erasesize);

		if (r < 0) {
			free(bad);
			return r;
		}
		bad[b] = r > 0;
		good += !bad[b];
	}
	*ret_bad = bad;
	*ret_good = good;
	return 0;
}

uint64_t mtd_next_good(const bool *bad, uint64_t nblocks, uint64_t block)
{
	while (block < nblocks && bad[block])
		block++;
	return block;
}

int mtd_source_init(struct mtd_source *s, const struct mtd_io *io, uint64_t len, uint64_t erasesize,
		    uint64_t want, uint64_t *ret_size)
{
	uint64_t good;
	int r;

	*s = (struct mtd_source){
	    .io = *io, .erasesize = erasesize, .nblocks = erasesize ? len / erasesize : 0};
	if (!s->nblocks)
		return -EINVAL;
	r = mtd_bad_map(io, s->nblocks, erasesize, &s->bad, &good);
	if (r < 0)
		return r;
	s->size = want && want < good * erasesize ? want : good * erasesize;
	if (!s->size) {
		mtd_source_release(s);
		return -ENOSPC;
	}
	*ret_size = s->size;
	return 0;
}

void mtd_source_release(struct mtd_source *s)
{
	if (!s)
		return;
	free(s->bad);
	s->bad = NULL;
}

static int source_begin(void *ctx)
{
	struct mtd_source *s = ctx;

	/* /dev/mtdN reads go to the driver each time: no page cache to drop */
	s->block = 0;
	s->off = 0;
	s->done = 0;
	return 0;
}

/* the good eraseblocks in order, a bad one never read (as nanddump skips them) */
static ssize_t source_read(void *ctx, char *buf, size_t len)
{
	struct mtd_source *s = ctx;
	uint64_t k;
	ssize_t n;

	if (s->done == s->size || !len)
		return 0;
	if (!s->off)
		s->block = mtd_next_good(s->bad, s->nblocks, s->block);
	if (s->block == s->nblocks)
		return 0;
	k = s->erasesize - s->off;
	if (k > len)
		k = len;
	if (k > s->size - s->done)
		k = s->size - s->done;
	n = s->io.pread(s->io.ctx, buf, (size_t)k, s->block * s->erasesize + s->off);
	if (n < 0)
		return n;
	if (n == 0)
		return -EIO; /* the region is on the device: a short read is the device's error */
	s->off += (uint64_t)n;
	s->done += (uint64_t)n;
	if (s->off == s->erasesize) {
		s->off = 0;
		s->block++;
	}
	return n;
}

void mtd_source_as_copy(struct mtd_source *s, const char *what, struct run_copy_source *ret)
{
	*ret = (struct run_copy_source){s, what, source_begin, source_read};
}

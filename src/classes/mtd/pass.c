// SPDX-License-Identifier: MIT
/*
 * The passes of usbperf mtd over an eraseblock-aligned region: erase, a
 * sweep of page-aligned write sizes, read (and compare). Bad eraseblocks are
 * asked once (MEMGETBADBLOCK), skipped and counted; a signal stops a pass
 * after the eraseblock in hand.
 */
#include "classes/mtd/mtd.h"
#include "util/clock.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h> /* loff_t: glibc has it in sys/types.h too, musl (the board builds) only here */
#include <mtd/mtd-abi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int fd_isbad(void *ctx, uint64_t off)
{
	loff_t o = (loff_t)off;
	int r = ioctl(*(int *)ctx, MEMGETBADBLOCK, &o);

	if (r < 0)
		return errno == EOPNOTSUPP || errno == ENOTTY ? 0 : -errno;
	return r > 0;
}

static int fd_erase(void *ctx, uint64_t off, uint64_t len)
{
	struct erase_info_user64 e = {.start = off, .length = len};

	return ioctl(*(int *)ctx, MEMERASE64, &e) < 0 ? -errno : 0;
}

static ssize_t fd_pwrite(void *ctx, const void *buf, size_t len, uint64_t off)
{
	ssize_t n = pwrite(*(int *)ctx, buf, len, (off_t)off);

	return n < 0 ? -errno : n;
}

static ssize_t fd_pread(void *ctx, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(*(int *)ctx, buf, len, (off_t)off);

	return n < 0 ? -errno : n;
}

void mtd_io_fd(struct mtd_io *io, int *fd)
{
	*io = (struct mtd_io){fd, fd_isbad, fd_erase, fd_pwrite, fd_pread};
}

int mtd_ecc_read(int fd, struct mtd_ecc *ret)
{
	struct mtd_ecc_stats s;

	if (ioctl(fd, ECCGETSTATS, &s) < 0)
		return -errno;
	*ret = (struct mtd_ecc){true, s.corrected, s.failed, s.badblocks, s.bbtblocks};
	return 0;
}

int mtd_info_check(int fd, const struct mtd_geometry *g, struct strbuf *why)
{
	struct mtd_info_user mi;

	if (ioctl(fd, MEMGETINFO, &mi) < 0) {
		strbuf_addf(why, "MEMGETINFO on mtd%u: %s", g->index, strerror(errno));
		return -errno;
	}
	/* its size is 32 bits: a device past 4 GiB is checked by its sysfs size alone */
	if ((g->size <= UINT32_MAX && mi.size != g->size) || mi.erasesize != g->erasesize ||
	    mi.writesize != g->writesize || mi.oobsize != g->oobsize) {
		strbuf_addf(why,
			    "mtd%u: MEMGETINFO says size %u, eraseblock %u, page %u, OOB %u; sysfs "
			    "says %llu, %llu, %llu, %llu",
			    g->index, mi.size, mi.erasesize, mi.writesize, mi.oobsize,
			    (unsigned long long)g->size, (unsigned long long)g->erasesize,
			    (unsigned long long)g->writesize, (unsigned long long)g->oobsize);
		return -EPROTO;
	}
	return 0;
}

const char *mtd_op_name(enum mtd_op op)
{
	return op == MTD_OP_ERASE ? "erase" : op == MTD_OP_WRITE ? "write" : "read";
}

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void mtd_pattern_fill(uint8_t *buf, size_t len, uint64_t off, unsigned round)
{
	size_t i;

	for (i = 0; i < len; i += 8) {
		uint64_t w = splitmix((off + i) ^ ((uint64_t)round << 56));
		size_t k = len - i < 8 ? len - i : 8;

		memcpy(buf + i, &w, k);
	}
}

/*
 * What a round writes to an eraseblock: the round's pattern (made once,
 * before the clock) with each page's first 8 bytes stamped with its offset,
 * so a page read back from the wrong place does not compare equal.
 */
static void stamp(uint8_t *buf, uint64_t erasesize, uint64_t writesize, uint64_t base,
		  unsigned round)
{
	uint64_t off;

	for (off = 0; off < erasesize; off += writesize) {
		uint64_t w = splitmix((base + off) ^ ((uint64_t)round << 56));
		size_t k = writesize < 8 ? (size_t)writesize : 8;

		memcpy(buf + off, &w, k);
	}
}

static void pass_finish(struct mtd_pass *p, uint64_t t0)
{
	p->seconds += (double)(clock_now_ns() - t0) / 1e9;
	p->mb_s = p->seconds > 0 ? (double)p->bytes / p->seconds / 1e6 : 0;
	p->blocks_per_s = p->seconds > 0 ? (double)p->blocks / p->seconds : 0;
}

static bool stopped(const struct mtd_plan *p)
{
	return p->stop && *p->stop;
}

/* one pass over the good blocks; bad[] marks the bad ones */
static int one_pass(const struct mtd_io *io, const struct mtd_plan *p, const bool *bad,
		    enum mtd_op op, uint64_t io_size, unsigned round, uint8_t *buf, uint8_t *want,
		    struct mtd_pass *ps)
{
	uint64_t nblocks = p->len / p->erasesize, b, off, t0;

	ps->op = mtd_op_name(op);
	ps->io_size = io_size;
	if (op == MTD_OP_WRITE)
		mtd_pattern_fill(buf, p->erasesize, 0, round);
	if (want)
		mtd_pattern_fill(want, p->erasesize, 0, round);
	t0 = clock_now_ns();
	for (b = 0; b < nblocks; b++) {
		uint64_t base = b * p->erasesize;
		bool failed = false;

		if (stopped(p)) {
			ps->interrupted = true;
			break;
		}
		if (bad[b]) {
			ps->bad_skipped++;
			continue;
		}
		if (op == MTD_OP_ERASE) {
			failed = io->erase(io->ctx, base, p->erasesize) < 0;
		} else if (op == MTD_OP_WRITE) {
			stamp(buf, p->erasesize, p->writesize, base, round);
			for (off = 0; off < p->erasesize && !failed; off += io_size)
				failed = io->pwrite(io->ctx, buf + off, io_size, base + off) !=
					 (ssize_t)io_size;
		} else {
			for (off = 0; off < p->erasesize && !failed; off += io_size)
				failed = io->pread(io->ctx, buf + off, io_size, base + off) !=
					 (ssize_t)io_size;
			if (!failed && want) {
				/* the comparison is not the flash's time */
				uint64_t c0 = clock_now_ns();

				stamp(want, p->erasesize, p->writesize, base, round);
				for (off = 0; off < p->erasesize; off += p->writesize)
					ps->mismatches +=
					    memcmp(buf + off, want + off, p->writesize) != 0;
				t0 += clock_now_ns() - c0;
			}
		}
		if (failed) {
			ps->failed++;
			continue;
		}
		ps->bytes += p->erasesize;
		ps->blocks++;
	}
	ps->verified = want != NULL;
	pass_finish(ps, t0);
	return 0;
}

int mtd_passes_run(const struct mtd_io *io, const struct mtd_plan *p, struct mtd_pass *ret,
		   size_t *ret_n)
{
	uint64_t nblocks = p->len / p->erasesize, b, ngood = 0;
	struct mtd_pass erase = {0};
	uint8_t *buf = NULL, *want = NULL;
	bool *bad = NULL;
	size_t n = 0, i;
	unsigned round = 0;
	int r = 0;

	if (!nblocks || p->len % p->erasesize)
		return -EINVAL;
	bad = calloc(nblocks, sizeof(*bad));
	buf = malloc(p->erasesize);
	want = p->verify ? malloc(p->erasesize) : NULL;
	if (!bad || !buf || (p->verify && !want)) {
		r = -ENOMEM;
		goto out;
	}
	for (b = 0; b < nblocks; b++) {
		r = io->isbad(io->ctx, b * p->erasesize);
		if (r < 0)
			goto out;
		bad[b] = r > 0;
		ngood += !bad[b];
	}
	r = 0;
	if (!ngood) {
		r = -EIO;
		goto out;
	}
	for (i = 0; i < p->nwrite_sizes && !stopped(p); i++) {
		struct mtd_pass e = {0}, *w = &ret[1 + i];

		round = (unsigned)i + 1;
		one_pass(io, p, bad, MTD_OP_ERASE, p->erasesize, round, buf, NULL, &e);
		erase.op = e.op;
		erase.io_size = e.io_size;
		erase.bytes += e.bytes;
		erase.blocks += e.blocks;
		erase.failed += e.failed;
		erase.bad_skipped = e.bad_skipped;
		erase.seconds += e.seconds;
		erase.interrupted = e.interrupted;
		n = 1 + i;
		if (e.interrupted)
			break;
		*w = (struct mtd_pass){0};
		one_pass(io, p, bad, MTD_OP_WRITE, p->write_sizes[i], round, buf, NULL, w);
		n = 2 + i;
	}
	if (p->nwrite_sizes) {
		erase.mb_s = erase.seconds > 0 ? (double)erase.bytes / erase.seconds / 1e6 : 0;
		erase.blocks_per_s = erase.seconds > 0 ? (double)erase.blocks / erase.seconds : 0;
		ret[0] = erase;
	}
	/* the read pass compares with the last round written; a stop before it skips it */
	if (!stopped(p) || !p->nwrite_sizes) {
		struct mtd_pass *rd = &ret[n];

		*rd = (struct mtd_pass){0};
		one_pass(io, p, bad, MTD_OP_READ, p->erasesize, round, buf,
			 p->verify && round ? want : NULL, rd);
		n++;
	}
	*ret_n = n;
out:
	free_all(bad, buf, want);
	return r;
}

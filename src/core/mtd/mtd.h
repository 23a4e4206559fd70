/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Raw flash (MTD: NAND, NOR, RAM) for usbperf mtd: the geometry sysfs and
 * MEMGETINFO give, the safety rules that keep erases off a partition in use
 * or holding the bootloader, and the passes (erase, write sweep, read) over
 * an eraseblock-aligned region with bad blocks skipped and counted.
 * Everything returns 0 or -errno; refusals fill a "why" line for the command.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MTD_CHAR_MAJOR 90
#define MTDBLOCK_MAJOR 31
/* default region: the whole device up to this */
#define MTD_DEFAULT_CAP (64ull << 20)
#define MTD_MAX_WRITE_SIZES 16

/* flags as sysfs and MEMGETINFO give them (mtd-abi.h) */
#define MTD_FLAG_WRITEABLE 0x400u

struct mtd_geometry {
	unsigned index; /* N of mtdN */
	char *name;	/* sysfs name, sanitized */
	char *type;	/* "nand", "mlc-nand", "nor", "ram", "rom", "dataflash", "ubi", ... */
	char *parent;	/* "mtd0" when this is a partition of it; NULL for a master */
	uint64_t size, erasesize, writesize, oobsize, subpagesize;
	uint64_t offset; /* in the parent, U64_UNKNOWN-like (UINT64_MAX) when not given */
	uint64_t flags;
	bool writeable; /* MTD_WRITEABLE */
	bool ro_node;	/* the node given is /dev/mtdNro */
	/* the ECC counters sysfs gives (UINT64_MAX when absent) */
	uint64_t ecc_strength, corrected_bits, ecc_failures, bad_blocks, bbt_blocks;
};

void mtd_geometry_release(struct mtd_geometry *g);

/* mtdN from sysfs (/sys/class/mtd/mtdN below the sysroot); -ENOENT, -EINVAL + why */
int mtd_geometry_read(unsigned index, struct mtd_geometry *ret, struct strbuf *why);

/*
 * A node the user named: a character device of major 90 (minor 2N: mtdN,
 * 2N+1: mtdNro) whose mtdN is in sysfs. -EINVAL (not MTD), -ENOENT, with why.
 */
int mtd_node_probe(const char *node, struct mtd_geometry *ret, struct strbuf *why);

/* the name looks like a bootloader's partition (u-boot, spl, env, ...) */
bool mtd_name_is_boot(const char *name);

/*
 * May mtdN be erased and written? 0, or -EPERM (read-only), -EBUSY (mounted,
 * attached to UBI) or -EACCES (a bootloader's name and force_boot is not that
 * exact name), why filled. Reads /proc/self/mountinfo and /sys/class/ubi.
 */
int mtd_may_write(const struct mtd_geometry *g, const char *force_boot, struct strbuf *why);

/*
 * The region measured from offset 0: want bytes (0: the whole device up to
 * MTD_DEFAULT_CAP, rounded down to eraseblocks). -EINVAL + why when want is
 * not a multiple of the eraseblock or past the device.
 */
int mtd_region(const struct mtd_geometry *g, uint64_t want, uint64_t *ret_len, struct strbuf *why);

/*
 * The write sizes: sizes given are checked (a multiple of the page, at most
 * an eraseblock, dividing it: -EINVAL + why); none given: from the page
 * (at least 512 B for NOR/RAM whose page is a byte) by factors of 4, and the
 * eraseblock. ret has room for MTD_MAX_WRITE_SIZES.
 */
int mtd_write_sizes(const struct mtd_geometry *g, const uint64_t *given, size_t ngiven,
		    uint64_t *ret, size_t *ret_n, struct strbuf *why);

/*
 * MEMGETINFO on the open node against what sysfs said (size, eraseblock,
 * page, OOB): 0, -EPROTO + why when they differ (a recorded tree that is not
 * this device's), -errno when the ioctl fails.
 */
int mtd_info_check(int fd, const struct mtd_geometry *g, struct strbuf *why);

/* The flash as the passes see it: the real device, or a fake in tests. */
struct mtd_io {
	void *ctx;
	/* 1 bad, 0 good, -errno */
	int (*isbad)(void *ctx, uint64_t off);
	int (*erase)(void *ctx, uint64_t off, uint64_t len);
	ssize_t (*pwrite)(void *ctx, const void *buf, size_t len, uint64_t off);
	ssize_t (*pread)(void *ctx, void *buf, size_t len, uint64_t off);
};
/* the ops over an open /dev/mtdN (ctx is a pointer to its fd) */
void mtd_io_fd(struct mtd_io *io, int *fd);

struct mtd_ecc {
	bool known;
	uint64_t corrected, failed, badblocks, bbtblocks;
};
/* ECCGETSTATS; -errno (-ENOTTY/-EOPNOTSUPP when the device has none) */
int mtd_ecc_read(int fd, struct mtd_ecc *ret);

enum mtd_op { MTD_OP_ERASE, MTD_OP_WRITE, MTD_OP_READ };
const char *mtd_op_name(enum mtd_op op);

struct mtd_pass {
	const char *op;	  /* "erase", "write", "read" */
	uint64_t io_size; /* bytes per request (the eraseblock for erase) */
	uint64_t bytes, blocks;
	uint64_t bad_skipped; /* bad eraseblocks in the region, not touched */
	uint64_t failed;      /* eraseblocks whose erase/write/read failed */
	uint64_t mismatches;  /* pages that read back differently (read with verify) */
	double seconds, mb_s, blocks_per_s;
	bool verified;
	bool interrupted; /* a signal stopped it after an eraseblock */
};

struct mtd_plan {
	uint64_t len, erasesize, writesize;
	const uint64_t *write_sizes; /* empty: read only */
	size_t nwrite_sizes;
	bool verify;
	volatile int *stop; /* non-zero: stop after the current eraseblock; NULL: never */
};

/*
 * The passes: read only when no write sizes; else for each write size an
 * erase of the region then writes of that size (a pattern, not zeros), and
 * last a read of the region, compared with the last pattern when verify.
 * Erases are summed into one erase pass. ret must have room for
 * nwrite_sizes + 2. 0 (also when stopped: the last pass is marked
 * interrupted), -ENOMEM, or -EIO when no eraseblock could be used.
 */
int mtd_passes_run(const struct mtd_io *io, const struct mtd_plan *p, struct mtd_pass *ret,
		   size_t *ret_n);

/* the byte pattern of a write round at an offset */
void mtd_pattern_fill(uint8_t *buf, size_t len, uint64_t off, unsigned round);

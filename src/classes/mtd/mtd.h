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

/*
 * The name is one boards give a bootloader's partition (u-boot, spl, env,
 * boot0, fsbl1, tf-a, ...: the list and its sources are in safety.c).
 */
bool mtd_name_is_boot(const char *name);

/* What the write rules know of one MTD device (safety.c). */
struct mtd_dev_facts {
	unsigned index;
	char *name, *type;
	char *dir; /* its canonical sysfs directory */
	uint64_t size, offset, erasesize, writesize, oobsize;
	uint64_t flags;	  /* UINT64_MAX: unreadable */
	int parent;	  /* the device (position in the list) it is nested in, -1 */
	int ubi;	  /* the UBI device attached to it, -1 */
	char *mounted_on; /* a JFFS2/UBIFS on it or its mtdblock mounted there; NULL */
};
struct mtd_facts {
	struct mtd_dev_facts *v;
	size_t n;
};
/* Every mtdN below the sysroot, its UBI attachment and mounts; -EBUSY + why without mountinfo */
int mtd_facts_read(struct mtd_facts *ret, struct strbuf *why);
void mtd_facts_release(struct mtd_facts *f);
/*
 * May mtd<index> be erased and written, on these facts? Refused when the
 * node is read-only (ro_node), the device is not in the facts, read-only,
 * or when it or any device sharing flash with it (a partition of it, the
 * master it is a partition of, a partition overlapping it) is mounted,
 * attached to UBI, read-only or named like a bootloader's: a bootloader's
 * name passes only when force_boot is that exact name. force_option: the
 * command has --force-boot (the refusal names it), else it names usbperf
 * mtd's. 0, -EPERM, -ENODEV, -EBUSY or -EACCES with why.
 */
int mtd_write_judge(const struct mtd_facts *f, unsigned index, bool ro_node, const char *force_boot,
		    bool force_option, struct strbuf *why);
/*
 * mtd_write_judge on the facts of the live system: /sys and /proc are the
 * real ones even under --sysroot (the node written is the real one).
 */
int mtd_may_write(const struct mtd_geometry *g, const char *force_boot, bool force_option,
		  struct strbuf *why);

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

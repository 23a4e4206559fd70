/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Raw flash as a class of `usbperf run` (run_class.c): the pieces that do
 * not touch a device, apart so unit tests reach them. A named /dev/mtdN is
 * read (reads only by default); with run's --destructive each write size of
 * the sweep gets an erase pass and a write pass, and the read pass compares
 * what it reads with what was written. Metric rows, per pass:
 *   "erase", "write 2K" ... "write 128K", "read": mb_s (10^6 B/s) and
 *   eraseblocks_per_s; failed_blocks when an eraseblock failed; the read
 *   pass's mismatched_pages when it compared;
 * and per device: "region" bad_blocks (skipped), "ecc" ecc_corrected,
 * ecc_failed and bad_blocks_grown (ECCGETSTATS deltas over the run).
 */
#include "classes/mtd/mtd.h"

#include <stdbool.h>
#include <stdint.h>

struct run_record;
struct measure_class;

/* the class (run/class.h), for --copy's sides of raw flash (classes/copy) */
extern const struct measure_class run_class_mtd;
struct finding_list;

/* quick: the first 16 MiB (a sweep of four write sizes stays short); full: mtd's 64 MiB */
#define MTD_RUN_QUICK_CAP (16ull << 20)

/*
 * run's region of g from offset 0: --size (want, 0 none) held to the device
 * and rounded down to whole eraseblocks, else the device up to the quick or
 * full cap. -EINVAL + why when not one eraseblock is left.
 */
int mtd_run_region(const struct mtd_geometry *g, uint64_t want, bool full, uint64_t *ret_len,
		   struct strbuf *why);

/* one pass over the repeats: the mean rate and its spread, counts summed */
struct mtd_run_acc {
	char name[32]; /* "erase", "write 2K", "read" */
	uint64_t io_size;
	double sum, sumsq, min, max; /* MB/s */
	double blocks_per_s_sum;
	uint64_t n, failed, mismatches;
	bool verified;
};

#define MTD_RUN_MAX_ACC (MTD_MAX_WRITE_SIZES + 2)

/* the passes of one repeat added to acc (by name); *nacc grows up to MTD_RUN_MAX_ACC */
void mtd_run_acc_add(struct mtd_run_acc *acc, size_t *nacc, const struct mtd_pass *p, size_t n);

/*
 * The record's metric rows of device key: each pass of acc, the region's
 * bad eraseblocks, and the ECC deltas when both readings are known.
 */
void mtd_run_add_metrics(struct run_record *rec, const char *key, const struct mtd_run_acc *acc,
			 size_t nacc, uint64_t bad_region, const struct mtd_ecc *before,
			 const struct mtd_ecc *after);

/* the class's findings over the record's "mtd" rows (subject: the device key) */
void mtd_run_findings(const struct run_record *rec, struct finding_list *out);

/* a target that names an MTD device: a character device of major 90, or named mtdN/mtdNro */
bool mtd_run_claims(const char *target, bool is_chr, unsigned major_nr);

/*
 * run --copy SRC /dev/mtdN: the copy written to raw flash as nandwrite does
 * it, from offset 0 of the region: each good eraseblock erased when the copy
 * reaches it, then written with what comes in whole pages (a part page is
 * held until the next write completes it; at the end it is padded with
 * 0xff), bad eraseblocks skipped. Writes return when the flash has the
 * data: there is nothing to sync.
 */
struct run_copy_sink;
struct run_plan_item;

/*
 * MEMGETBADBLOCK over the nblocks eraseblocks of a region, once: *ret_bad (to
 * free) says which are bad, *ret_good how many are not. -ENOMEM, -errno
 */
int mtd_bad_map(const struct mtd_io *io, uint64_t nblocks, uint64_t erasesize, bool **ret_bad,
		uint64_t *ret_good);
/* the first good eraseblock from block on; nblocks when none is left */
uint64_t mtd_next_good(const bool *bad, uint64_t nblocks, uint64_t block);

struct mtd_sink {
	struct mtd_io io;
	uint64_t len, erasesize, writesize;
	bool *bad;		      /* per eraseblock of the region, read once */
	uint64_t nblocks, block, off; /* where the next byte goes */
	uint8_t *pad;		      /* a page being filled: fill bytes so far */
	uint64_t fill;
};

/* MEMGETBADBLOCK over the region; *ret_capacity: its good bytes. -errno */
int mtd_sink_init(struct mtd_sink *s, const struct mtd_io *io, uint64_t len, uint64_t erasesize,
		  uint64_t writesize, uint64_t *ret_capacity);
void mtd_sink_release(struct mtd_sink *s);
/* s as the copy's destination (what: the node, for errors) */
void mtd_sink_as_copy(struct mtd_sink *s, const char *what, struct run_copy_sink *ret);

/* the sink over a prepared, writable MTD plan item; -EINVAL when it is not one */
int mtd_run_copy_sink(const struct run_plan_item *it, struct mtd_sink *s, uint64_t *ret_capacity);

/*
 * run --copy /dev/mtdN DST: the flash read as nanddump reads it, from offset
 * 0 of the region: its good eraseblocks in order, bad ones skipped, up to
 * the size wanted. Read only: nothing is erased or written.
 */
struct run_copy_source;

struct mtd_source {
	struct mtd_io io;
	uint64_t erasesize, nblocks;
	bool *bad;		   /* per eraseblock of the region, read once */
	uint64_t size;		   /* what each copy reads */
	uint64_t block, off, done; /* where the next byte comes from */
};

/*
 * MEMGETBADBLOCK over the region of len bytes; *ret_size: its good bytes, at
 * most want (0: all). -EINVAL no eraseblock, -ENOSPC none good, -errno
 */
int mtd_source_init(struct mtd_source *s, const struct mtd_io *io, uint64_t len, uint64_t erasesize,
		    uint64_t want, uint64_t *ret_size);
void mtd_source_release(struct mtd_source *s);
/* s as the copy's source (what: the node, for errors) */
void mtd_source_as_copy(struct mtd_source *s, const char *what, struct run_copy_source *ret);

/* the source over a prepared MTD plan item (read-only or not); -EINVAL when it is not one */
int mtd_run_copy_source(const struct run_plan_item *it, uint64_t want, struct mtd_source *s,
			uint64_t *ret_size);
/* the read pass's MB/s of the record's device key, NaN if none */
double mtd_run_read_mb_s(const struct run_record *r, const char *key);

/*
 * What writing the flash costs a copy: erase and the best write size
 * together (bytes over erase time + write time), MB/s; NaN when the record
 * has not both. *ret_name: that write pass ("write 16K").
 */
double mtd_run_erase_write_mb_s(const struct run_record *r, const char *key, const char **ret_name);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The schema of usbperf mtd: the device's geometry and region, one row per
 * pass (op, request size, bytes, seconds, MB/s = 10^6 B/s, eraseblocks/s),
 * and the ECC counters before and after with their deltas.
 */
#include "classes/mtd/mtd.h"
#include "model/field.h"

struct mtd_device_view {
	const char *node, *name, *type, *parent;
	uint64_t offset, size, erasesize, writesize, oobsize, subpagesize, eraseblocks;
	bool writeable;
	uint64_t ecc_strength, bad_blocks_device, bbt_blocks;
	uint64_t region_bytes, region_blocks, bad_blocks_region;
	const char *mode; /* "read-only" or "destructive" */
};

struct mtd_ecc_row {
	const char *counter;
	uint64_t before, after, delta;
};

struct mtd_ecc_view {
	struct mtd_ecc_row rows[4];
	size_t n;
};

/* g, v and passes must outlive r */
void mtd_device_describe(const char *node, const struct mtd_geometry *g, uint64_t region,
			 uint64_t bad_region, bool destructive, struct mtd_device_view *v,
			 struct report *r);
void mtd_passes_describe(const struct mtd_pass *p, size_t n, struct report *r);
/* the rows of the counters known before and after; none when ECCGETSTATS failed */
void mtd_ecc_describe(const struct mtd_ecc *before, const struct mtd_ecc *after,
		      struct mtd_ecc_view *v, struct report *r);

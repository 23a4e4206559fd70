// SPDX-License-Identifier: MIT
/* Field tables of usbperf mtd: text, JSON and CSV from one description. */
#include "classes/mtd/fields.h"

#include <stddef.h>

#define T FF_TEXT
#define O (FF_TEXT | FF_OPTIONAL)

static const struct field device_fields[] = {
    FIELD(struct mtd_device_view, node, "node", "node", NULL, FT_STR, 0, T),
    FIELD(struct mtd_device_view, name, "name", "name", NULL, FT_STR, 0, T),
    FIELD(struct mtd_device_view, type, "type", "type", NULL, FT_STR, 0, T),
    FIELD(struct mtd_device_view, parent, "parent", "partition of", NULL, FT_STR, 0, O),
    FIELD(struct mtd_device_view, offset, "offset_bytes", "offset in master", "B", FT_U64, 0, O),
    FIELD(struct mtd_device_view, size, "size_bytes", "size", "B", FT_U64, 0, T),
    FIELD(struct mtd_device_view, erasesize, "eraseblock_bytes", "eraseblock", "B", FT_U64, 0, T),
    FIELD(struct mtd_device_view, writesize, "page_bytes", "page (write size)", "B", FT_U64, 0, T),
    FIELD(struct mtd_device_view, oobsize, "oob_bytes", "OOB per page", "B", FT_U64, 0, T),
    FIELD(struct mtd_device_view, subpagesize, "subpage_bytes", "subpage", "B", FT_U64, 0, O),
    FIELD(struct mtd_device_view, eraseblocks, "eraseblocks", "eraseblocks", NULL, FT_U64, 0, T),
    FIELD(struct mtd_device_view, writeable, "writeable", "writeable", NULL, FT_BOOL, 0, T),
    FIELD(struct mtd_device_view, ecc_strength, "ecc_strength_bits", "ECC strength", "bits", FT_U64,
	  0, O),
    FIELD(struct mtd_device_view, bad_blocks_device, "bad_blocks_device",
	  "bad eraseblocks (device)", NULL, FT_U64, 0, O),
    FIELD(struct mtd_device_view, bbt_blocks, "bbt_blocks", "bad block table blocks", NULL, FT_U64,
	  0, O),
    FIELD(struct mtd_device_view, region_bytes, "region_bytes", "region", "B", FT_U64, 0, T),
    FIELD(struct mtd_device_view, region_blocks, "region_eraseblocks", "region eraseblocks", NULL,
	  FT_U64, 0, T),
    FIELD(struct mtd_device_view, bad_blocks_region, "bad_blocks_region",
	  "bad eraseblocks (region, skipped)", NULL, FT_U64, 0, T),
    FIELD(struct mtd_device_view, mode, "mode", "mode", NULL, FT_STR, 0, T),
};

static const struct field pass_fields[] = {
    FIELD(struct mtd_pass, op, "op", "pass", NULL, FT_STR, 0, T),
    FIELD(struct mtd_pass, io_size, "io_size_bytes", "request", "B", FT_U64, 0, T),
    FIELD(struct mtd_pass, bytes, "bytes", "bytes", "B", FT_U64, 0, T),
    FIELD(struct mtd_pass, blocks, "eraseblocks", "eraseblocks", NULL, FT_U64, 0, T),
    FIELD(struct mtd_pass, seconds, "seconds", "time", "s", FT_DBL, 3, T),
    FIELD(struct mtd_pass, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 2, T),
    FIELD(struct mtd_pass, blocks_per_s, "eraseblocks_per_s", "rate", "eraseblocks/s", FT_DBL, 1,
	  T),
    FIELD(struct mtd_pass, bad_skipped, "bad_skipped", "bad skipped", NULL, FT_U64, 0, T),
    FIELD(struct mtd_pass, failed, "failed", "failed", NULL, FT_U64, 0, T),
    FIELD(struct mtd_pass, verified, "verified", "verified", NULL, FT_BOOL, 0, 0),
    FIELD(struct mtd_pass, mismatches, "mismatched_pages", "mismatched pages", NULL, FT_U64, 0, T),
    FIELD(struct mtd_pass, interrupted, "interrupted", "interrupted", NULL, FT_BOOL, 0, 0),
};

static const struct field ecc_fields[] = {
    FIELD(struct mtd_ecc_row, counter, "counter", "ECC counter", NULL, FT_STR, 0, T),
    FIELD(struct mtd_ecc_row, before, "before", "before", NULL, FT_U64, 0, T),
    FIELD(struct mtd_ecc_row, after, "after", "after", NULL, FT_U64, 0, T),
    FIELD(struct mtd_ecc_row, delta, "delta", "delta", NULL, FT_U64, 0, T),
};

static const struct record_desc device_desc = RECORD_DESC("mtd_device", device_fields);
static const struct record_desc pass_desc = RECORD_DESC("mtd_pass", pass_fields);
static const struct record_desc ecc_desc = RECORD_DESC("mtd_ecc", ecc_fields);

void mtd_device_describe(const char *node, const struct mtd_geometry *g, uint64_t region,
			 uint64_t bad_region, bool destructive, struct mtd_device_view *v,
			 struct report *r)
{
	*v = (struct mtd_device_view){
	    .node = node,
	    .name = g->name,
	    .type = g->type,
	    .parent = g->parent,
	    .offset = g->offset, /* U64_UNKNOWN when sysfs has no offset */
	    .size = g->size,
	    .erasesize = g->erasesize,
	    .writesize = g->writesize,
	    .oobsize = g->oobsize,
	    .subpagesize = g->subpagesize,
	    .eraseblocks = g->size / g->erasesize,
	    .writeable = g->writeable,
	    .ecc_strength = g->ecc_strength,
	    .bad_blocks_device = g->bad_blocks,
	    .bbt_blocks = g->bbt_blocks,
	    .region_bytes = region,
	    .region_blocks = region / g->erasesize,
	    .bad_blocks_region = bad_region,
	    .mode = destructive ? "destructive" : "read-only",
	};
	report_add_object(r, "device", "MTD device", &device_desc, v);
}

void mtd_passes_describe(const struct mtd_pass *p, size_t n, struct report *r)
{
	report_add_table(r, "passes", "Passes (MB/s = 10^6 B/s)", &pass_desc, p, n, sizeof(*p));
}

void mtd_ecc_describe(const struct mtd_ecc *before, const struct mtd_ecc *after,
		      struct mtd_ecc_view *v, struct report *r)
{
	const uint64_t b[4] = {before->corrected, before->failed, before->badblocks,
			       before->bbtblocks};
	const uint64_t a[4] = {after->corrected, after->failed, after->badblocks, after->bbtblocks};
	static const char *const names[4] = {"corrected", "failed", "badblocks", "bbtblocks"};
	size_t i;

	v->n = 0;
	if (!before->known || !after->known)
		return;
	for (i = 0; i < 4; i++)
		v->rows[v->n++] = (struct mtd_ecc_row){names[i], b[i], a[i], a[i] - b[i]};
	report_add_table(r, "ecc", "ECC statistics (ECCGETSTATS)", &ecc_desc, v->rows, v->n,
			 sizeof(v->rows[0]));
}

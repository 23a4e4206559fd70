// SPDX-License-Identifier: MIT
/* Field tables of usbperf mtd: text, JSON and CSV from one description. */
#include "classes/mtd/fields.h"

#include <stddef.h>

#include "classes/mtd/fields.fields.h"

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

/* SPDX-License-Identifier: MIT */
#pragma once
/* The MTD devices of /sys/class/mtd as usbperf list shows them (list.c). */
#include "classes/mtd/mtd.h"
#include "model/field.h"

struct mtd_listed {
	char *node; /* "/dev/mtd0" */
	struct mtd_geometry g;
	uint64_t eraseblocks;
};

struct mtd_listing {
	struct mtd_listed *v;
	size_t n;
};

/* every mtdN (not mtdNro) by index; none is 0 with an empty listing; -ENOMEM */
int mtd_list_probe(struct mtd_listing *ret);
void mtd_listing_release(struct mtd_listing *l);

extern const struct record_desc mtd_list_desc;

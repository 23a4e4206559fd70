// SPDX-License-Identifier: MIT
/*
 * The MTD devices usbperf list shows (and a snapshot records): every mtdN of
 * /sys/class/mtd with its geometry, nothing opened.
 */
#include "classes/mtd/list.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes/mtd/list.fields.h"

static int by_index(const void *a, const void *b)
{
	const struct mtd_listed *x = a, *y = b;

	return x->g.index < y->g.index ? -1 : x->g.index > y->g.index;
}

int mtd_list_probe(struct mtd_listing *ret)
{
	struct name_list l = NAME_LIST_INIT;
	struct mtd_listing out = {0};
	int r = 0;

	*ret = out;
	if (sysroot_list("/sys/class/mtd", &l) < 0)
		return 0; /* no MTD here: nothing to list */
	out.v = calloc(l.n ? l.n : 1, sizeof(*out.v));
	if (!out.v) {
		name_list_release(&l);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l.n; i++) {
		struct mtd_listed *e = &out.v[out.n];
		struct strbuf why = STRBUF_INIT;
		uint64_t idx;

		/* mtd0ro is mtd0 again */
		if (strncmp(l.v[i], "mtd", 3) || parse_u64(l.v[i] + 3, 0, 1u << 20, &idx) < 0)
			continue;
		r = mtd_geometry_read((unsigned)idx, &e->g, &why);
		strbuf_release(&why);
		if (r == -ENOMEM)
			break;
		r = 0;
		if (e->g.type == NULL)
			continue; /* not readable, or a geometry that does not add up */
		if (asprintf(&e->node, "/dev/%s", l.v[i]) < 0) {
			mtd_geometry_release(&e->g);
			r = -ENOMEM;
			break;
		}
		e->eraseblocks = e->g.size / e->g.erasesize;
		out.n++;
	}
	name_list_release(&l);
	if (r < 0) {
		mtd_listing_release(&out);
		return r;
	}
	qsort(out.v, out.n, sizeof(*out.v), by_index);
	*ret = out;
	return 0;
}

void mtd_listing_release(struct mtd_listing *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].node);
		mtd_geometry_release(&l->v[i].g);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

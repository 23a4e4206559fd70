// SPDX-License-Identifier: MIT
/* The class adapters' shared helpers (class_kit.h). */
#include "run/class_kit.h"
#include "run/run_priv.h"
#include "util/xalloc.h"

void *class_item(const struct run_plan_item *it, const struct measure_class *c)
{
	return it->cls == c ? it->state : NULL;
}

struct run_device *class_add_device(struct run_result *r, const struct run_plan_item *it,
				    const char *kind)
{
	struct run_device *d;

	if (run_device_find(r, it->device_key))
		return NULL;
	d = run_record_add_device(&r->rec);
	d->key = xstrdup(it->device_key);
	d->kind = xstrdup(kind);
	d->target = xstrdup(it->path);
	return d;
}

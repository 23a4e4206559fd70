// SPDX-License-Identifier: MIT
/* The class adapters' shared helpers (class_kit.h). */
#include "run/class_kit.h"
#include "run/run_priv.h"
#include "util/parse.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <string.h>

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

enum class_sweep class_block_point(const struct run_metric *m, const char *prefix,
				   enum sweep_role role, struct class_sweep_point *ret)
{
	size_t n = strlen(prefix);
	const char *size = m->name + n;

	if (strncmp(m->name, prefix, n) || *size != ' ' || strchr(size + 1, ' ') ||
	    n >= sizeof(ret->label) || parse_size(size + 1, 1, UINT64_MAX, &ret->x) < 0)
		return CLASS_SWEEP_NONE;
	if (strcmp(m->metric, "mb_s"))
		return CLASS_SWEEP_OTHER;
	memcpy(ret->label, prefix, n + 1);
	ret->axis = NULL; /* a block size */
	ret->role = role;
	return CLASS_SWEEP_POINT;
}

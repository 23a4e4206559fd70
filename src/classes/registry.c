// SPDX-License-Identifier: MIT
/* The table of what `usbperf run` measures (class.h), in the order it measures them. */
#include "run/class.h"
#include "run/pass_sys.h"
#include "model/record.h"
#include "model/vocab.h"
#include "run/run.h"
#include "run/run_priv.h"
#include "util/xalloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* each in its folder's run_class.c */
extern const struct measure_class run_class_disk, run_class_net, run_class_mtd, run_class_copy,
    run_class_video, run_class_hid, run_class_bulk, run_class_gadget, run_class_mtp,
    run_class_i2c, run_class_uvc_sweep;

/*
 * Disks first: their test files are written, measured and removed before
 * the network passes; --copy after them and raw flash, as it reads both
 * sides' figures.
 */
const struct measure_class *const run_classes[] = {
    &run_class_disk,
    &run_class_net,
    &run_class_mtd,
    &run_class_copy,
    &run_class_video,
    &run_class_hid,
    &run_class_bulk,
    &run_class_gadget,
    &run_class_mtp,
    &run_class_i2c,
    &run_class_uvc_sweep,
};
const size_t run_nclasses = sizeof(run_classes) / sizeof(run_classes[0]);

_Static_assert(sizeof(run_classes) / sizeof(run_classes[0]) <= RUN_MAX_CLASSES,
	       "run_result.class_rows has room for RUN_MAX_CLASSES");

static size_t class_index(const struct measure_class *c)
{
	for (size_t i = 0; i < run_nclasses; i++)
		if (run_classes[i] == c)
			return i;
	return run_nclasses;
}

const void *run_class_opts(const struct run_options *o, const struct measure_class *c)
{
	/* none given: every option at its default, zero */
	static const union {
		max_align_t align;
		unsigned char b[RUN_CLASS_OPTS_MAX];
	} none;
	size_t i = class_index(c);

	if (!c || !c->opts_size || c->opts_size > sizeof(none))
		return NULL;
	return o && i < run_nclasses && o->class_opts[i] ? o->class_opts[i] : &none;
}

void *run_class_opts_get(struct run_options *o, const struct measure_class *c)
{
	size_t i = class_index(c);

	if (i == run_nclasses || !c->opts_size)
		return NULL;
	if (!o->class_opts[i]) {
		o->class_opts[i] = calloc(1, c->opts_size);
		if (!o->class_opts[i])
			abort();
	}
	return o->class_opts[i];
}

void run_class_opts_release(struct run_options *o)
{
	for (size_t i = 0; i < run_nclasses; i++) {
		if (!o->class_opts[i])
			continue;
		if (run_classes[i]->opts_release)
			run_classes[i]->opts_release(o->class_opts[i]);
		free(o->class_opts[i]);
		o->class_opts[i] = NULL;
	}
}

const struct measure_class *run_class_find(const char *name)
{
	for (size_t i = 0; name && i < run_nclasses; i++)
		if (!strcmp(run_classes[i]->name, name))
			return run_classes[i];
	return NULL;
}

const struct class_metric *run_class_metric(const struct measure_class *c, const char *key)
{
	for (size_t i = 0; c && key && i < c->nmetrics; i++)
		if (!strcmp(c->metrics[i].key, key))
			return &c->metrics[i];
	/* every class's passes carry the clock and interrupt rows (pass_sys.h) */
	return c ? pass_sys_metric(key) : NULL;
}

const struct class_metric *run_class_metric_of(const char *test, const char *key)
{
	return run_class_metric(run_class_find(test), key);
}

const struct class_metric *run_class_metric_any(const char *key)
{
	for (size_t i = 0; i < run_nclasses; i++) {
		const struct class_metric *m = run_class_metric(run_classes[i], key);

		if (m)
			return m;
	}
	return NULL;
}

/* the model's vocabulary names a class's own metrics through this (model/vocab.h) */
static bool class_vocab(const char *key, struct metric_vocab *ret)
{
	const struct class_metric *m = run_class_metric_any(key);

	if (!m)
		return false;
	*ret = (struct metric_vocab){key, m->label, m->unit};
	return true;
}

__attribute__((constructor)) static void class_vocab_register(void)
{
	metric_vocab_set_lookup(class_vocab);
}

struct run_metric *run_class_add_metric(struct run_record *rec, const struct measure_class *c,
					const char *device_key, const char *pass, const char *key)
{
	const struct class_metric *m = run_class_metric(c, key);

	if (!m)
		abort(); /* a metric the class does not declare: its table is the one truth */
	/* key, not m->key: a per-CPU row ("irq_count_cpu3") shares its entry with the others */
	return run_record_add_metric(rec, device_key, c->name, pass, key, m->unit,
				     m->higher_is_better);
}

void run_record_upgrade_units(struct run_record *r)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		struct run_metric *m = &r->metrics[i];
		const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

		if (!cm || !cm->was_unit || !m->unit || strcmp(m->unit, cm->was_unit) ||
		    !strcmp(cm->unit, cm->was_unit))
			continue;
		free(m->unit);
		m->unit = xstrdup(cm->unit);
	}
}

bool run_metric_unit_was(const char *test, const char *metric, const char *unit, const char *was)
{
	const struct class_metric *cm = run_class_metric_of(test, metric);

	return cm && cm->was_unit && unit && was && !strcmp(cm->unit, unit) &&
	       !strcmp(cm->was_unit, was);
}

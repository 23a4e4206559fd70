// SPDX-License-Identifier: MIT
/*
 * `usbperf run --copy SRC DST` as a class (class.h): both sides measured as
 * disks, then the copy between them at several chunk sizes, and which side
 * (or the copy loop itself) limits it.
 */
#include "core/run/run_priv.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the copy item's state: the sides' plan items and what the copy measured */
struct copy_item {
	size_t src, dst; /* indexes into run_result.plan */
	struct run_copy_row rows[RUN_COPY_CHUNKS];
	size_t n;
};

static const struct class_metric copy_metrics[] = {
    CLASS_METRIC("mb_s", "MB/s", "rate", true),
};

void run_copy_plan(const struct run_options *o, struct run_result *r)
{
	struct copy_item *c = calloc(1, sizeof(*c));
	struct run_plan_item *it;
	struct strbuf t = STRBUF_INIT;

	if (!c)
		abort();
	it = run_plan_add(r, &run_class_disk, o->copy_src, "source", "copy-source", false,
			  "--copy: the side read");
	it->named = true;
	c->src = r->nplan - 1;
	it = run_plan_add(r, &run_class_disk, o->copy_dst, "destination", "copy-destination",
			  false, "--copy: the side written");
	it->named = true;
	c->dst = r->nplan - 1;
	strbuf_addf(&t, "%s -> %s", o->copy_src, o->copy_dst);
	it = run_plan_add(r, &run_class_copy, t.buf, "copy", "copy", false,
			  "--copy: the copy from one to the other, cp's way");
	it->named = true;
	it->state = c;
	strbuf_release(&t);
}

static int copy_measure(const struct run_options *o, struct run_result *r,
			struct run_plan_item *it, char **ret_why)
{
	struct copy_item *c = it->state;
	struct run_device *d;
	int rc;

	/* the sides first: a copy between sides that could not be measured says nothing */
	if (!run_disk_report(&r->plan[c->src]) || !run_disk_report(&r->plan[c->dst]))
		return 0;
	rc = run_copy(o->copy_src, o->copy_dst, o->size ? o->size : RUN_QUICK_SIZE,
		      o->time_s > 0 ? o->time_s : (o->full ? RUN_FULL_TIME_S : RUN_QUICK_TIME_S),
		      o->stop, c->rows, &c->n, ret_why);
	if (rc < 0)
		return rc;
	if (!c->n)
		return 0;
	d = run_record_add_device(&r->rec);
	d->key = xstrdup(it->device_key);
	d->kind = xstrdup("copy");
	d->target = xstrdup(it->path);
	for (size_t i = 0; i < c->n; i++) {
		struct run_row *row;
		struct run_metric *m;
		char sz[24], name[48];

		format_size(c->rows[i].chunk, sz, sizeof(sz));
		snprintf(name, sizeof(name), "copy %s", sz);
		m = run_class_add_metric(&r->rec, &run_class_copy, it->device_key, name, "mb_s");
		m->value = c->rows[i].mb_s;
		m->repeats = 1;
		row = run_add_row(r);
		row->device = it->device_key;
		row->target = o->copy_dst;
		row->pass = m->name; /* owned by the record, which lives as long */
		row->op = "copy";
		row->bs = c->rows[i].chunk;
		row->qd = 1;
		row->mb_s = c->rows[i].mb_s;
		row->mib_s = c->rows[i].mb_s * 1e6 / 1048576.0;
		row->mb_s_sd = row->iops = row->lat_p99_us = row->self_cpu_pct = NAN;
		row->ceiling_mb_s = row->efficiency_pct = NAN;
	}
	return 0;
}

/* which side limits the copy, or the copy loop itself */
static void copy_analyze(struct run_result *res)
{
	for (size_t k = 0; k < res->nplan; k++) {
		const struct run_plan_item *it = &res->plan[k];
		const struct copy_item *c = it->cls == &run_class_copy ? it->state : NULL;
		const struct disk_report *src, *dst;
		const struct disk_row *rd, *wr;
		const struct run_copy_row *best = NULL;
		struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT, fix = STRBUF_INIT;
		const char *side;
		double limit;
		char sz[24];

		if (!c || !(src = run_disk_report(&res->plan[c->src])) ||
		    !(dst = run_disk_report(&res->plan[c->dst])))
			continue;
		rd = run_disk_best_seq(src, "read");
		wr = run_disk_best_seq(dst, "write");
		for (size_t i = 0; i < c->n; i++)
			if (!best || c->rows[i].mb_s > best->mb_s)
				best = &c->rows[i];
		if (!best || !rd || !wr)
			continue;
		limit = rd->mb_s < wr->mb_s ? rd->mb_s : wr->mb_s;
		side = rd->mb_s < wr->mb_s ? "reading the source" : "writing the destination";
		format_size(best->chunk, sz, sizeof(sz));
		strbuf_addf(&ev,
			    "copy %s %.1f MB/s; source %s %s %.1f MB/s; destination %s %s %.1f MB/s",
			    sz, best->mb_s, res->plan[c->src].path, rd->name, rd->mb_s,
			    res->plan[c->dst].path, wr->name, wr->mb_s);
		if (best->mb_s >= 0.7 * limit) {
			strbuf_addf(&msg,
				    "the copy is limited by %s: %.1f MB/s of the %.1f MB/s that side "
				    "allows",
				    side, best->mb_s, limit);
			strbuf_addf(&fix,
				    "a faster %s is what speeds the copy up; use %s chunks or more",
				    rd->mb_s < wr->mb_s ? "source" : "destination", sz);
		} else {
			strbuf_addf(&msg,
				    "the copy (%.1f MB/s) is slower than either side allows (%.1f "
				    "MB/s): the copy loop itself costs",
				    best->mb_s, limit);
			strbuf_addf(&fix,
				    "reading and writing one after the other leaves each device "
				    "idle half the time: larger chunks (%s did best), or a copy that "
				    "overlaps them (two threads, or O_DIRECT with a queue)",
				    sz);
		}
		finding_add(&res->rec.findings, FINDING_INFO, "run.copy_limit", it->device_key,
			    msg.buf, ev.buf, fix.buf);
		strbuf_release(&ev);
		strbuf_release(&msg);
		strbuf_release(&fix);
	}
}

static void copy_release(struct run_plan_item *it)
{
	free(it->state);
	it->state = NULL;
}

static const struct class_headline copy_headline[] = {{"", "mb_s"}};

const struct measure_class run_class_copy = {
    .name = "copy",
    .measure = copy_measure,
    .release = copy_release,
    .analyze = copy_analyze,
    .metrics = copy_metrics,
    .nmetrics = sizeof(copy_metrics) / sizeof(copy_metrics[0]),
    .headline = copy_headline,
    .nheadline = sizeof(copy_headline) / sizeof(copy_headline[0]),
};

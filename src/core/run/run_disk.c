// SPDX-License-Identifier: MIT
/*
 * The disk targets of `usbperf run`. Every target is opened, and so checked
 * against the safety rules, before any of them is measured: a refused
 * operand stops the run before the first byte of I/O on the others.
 */
#include "core/run/run_priv.h"
#include "core/usb/attach.h"
#include "core/usb/topology.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the quick sweep: three block sizes each way, random 4K at QD1 and QD32 */
static size_t build_passes(bool full, bool writes, struct disk_pass_spec *p)
{
	static const uint32_t quick_bs[] = {4096, 65536, 1 << 20};
	static const uint32_t full_bs[] = {4096, 16384, 65536, 131072, 524288, 1 << 20, 4 << 20};
	const uint32_t *bs = full ? full_bs : quick_bs;
	size_t nbs = full ? 7 : 3, n = 0, i;
	int op;
	char sz[24];

	for (op = 0; op < (writes ? 2 : 1); op++) {
		for (i = 0; i < nbs; i++) {
			format_size(bs[i], sz, sizeof(sz));
			snprintf(p[n].name, sizeof(p[n].name), "seq-%s %s", op ? "write" : "read",
				 sz);
			p[n].op = op ? DISK_WRITE : DISK_READ;
			p[n].access = DISK_SEQ;
			p[n].mode = DISK_DIRECT;
			p[n].bs = bs[i];
			p[n].qd = 1;
			p[n++].engine = &disk_engine_psync;
		}
		for (i = 0; i < 2; i++) {
			uint32_t qd = i ? 32 : 1;

			snprintf(p[n].name, sizeof(p[n].name), "rand-%s 4K Q%u",
				 op ? "write" : "read", qd);
			p[n].op = op ? DISK_WRITE : DISK_READ;
			p[n].access = DISK_RAND;
			p[n].mode = DISK_DIRECT;
			p[n].bs = 4096;
			p[n].qd = qd;
			p[n++].engine = qd > 1 ? &disk_engine_io_uring : &disk_engine_psync;
		}
	}
	return n;
}

/* the IRQ lines of the controller a block device hangs off, NULL off USB */
static const char *irq_lines_of(const struct usb_topology *topo, const struct disk_target *t)
{
	struct usb_attach a;
	const char *lines = NULL;
	size_t i;

	if (usb_attach_for_block(t->dev_major, t->dev_minor, &a) < 0)
		return NULL;
	for (i = 0; i < topo->nctl; i++) {
		char prefix[32];

		/* "2-1" hangs off root hub usb2 */
		snprintf(prefix, sizeof(prefix), "%llu-", (unsigned long long)topo->ctl[i].busnum);
		if (!strncmp(a.device, prefix, strlen(prefix)))
			lines = topo->ctl[i].irq;
	}
	usb_attach_release(&a);
	return lines;
}

/* the device a report was measured on: from the USB lookup, else the host */
static void add_device(struct run_result *r, struct run_plan_item *it,
		       const struct disk_report *rep)
{
	struct run_device *d = run_record_add_device(&r->rec);

	if (rep->on_usb) {
		free(it->device_key);
		it->device_key = xstrdup(rep->usb.device);
		d->key = xstrdup(rep->usb.device);
		d->kind = xstrdup(it->read_only ? "usb-storage (read-only)" : "usb-storage");
		run_device_attach(d, &rep->usb);
	} else {
		/* off USB, a named target is known by its path: unique in the run, stable across
		 * runs */
		if (!it->device_key)
			it->device_key = xstrdup(it->path);
		d->key = xstrdup(it->device_key);
		d->kind =
		    xstrdup(it->kind && strncmp(it->kind, "copy-", 5) ? "host-disk" : it->kind);
	}
	d->target = xstrdup(it->path);
}

/* the spread within the passes, from the interval samples pooled over the repeats */
static void sampled(struct run_metric *rm, double mean, double stdev, double min, uint64_t n)
{
	rm->sample_mean = mean;
	rm->sample_stdev = stdev;
	rm->sample_min = min;
	rm->samples = n;
}

static void add_rows(struct run_result *r, const struct run_plan_item *it,
		     const struct disk_report *rep)
{
	static const struct {
		const char *metric, *unit;
		size_t off;
		bool higher;
	} m[] = {
	    {"mb_s", "MB/s", offsetof(struct disk_row, mb_s), true},
	    {"iops", "IOPS", offsetof(struct disk_row, iops), true},
	    {"lat_p99_us", "us", offsetof(struct disk_row, lat_p99_us), false},
	    {"self_cpu_pct", "%", offsetof(struct disk_row, self_cpu_pct), false},
	};
	size_t i, j;

	for (i = 0; i < rep->nrows; i++) {
		const struct disk_row *dr = &rep->rows[i];
		struct run_row *row;

		row = run_add_row(r);
		row->device = it->device_key;
		row->target = it->path;
		row->pass = dr->name;
		row->op = dr->op;
		row->bs = dr->bs;
		row->qd = dr->qd;
		row->mb_s = dr->mb_s;
		row->mb_s_sd = dr->mb_s_sd;
		row->mib_s = dr->mib_s;
		row->iops = dr->iops;
		row->lat_p50_us = dr->lat_p50_us;
		row->lat_p90_us = dr->lat_p90_us;
		row->lat_p99_us = dr->lat_p99_us;
		row->self_cpu_pct = dr->self_cpu_pct;
		row->bw_min_mb_s = dr->bw_min_mb_s;
		row->bw_stdev_mb_s = dr->bw_stdev_mb_s;
		row->bw_samples = dr->bw_samples;
		row->util_pct = dr->util_pct;
		row->ceiling_mb_s = dr->ceiling_mb_s;
		row->efficiency_pct = dr->efficiency_pct;
		for (j = 0; j < sizeof(m) / sizeof(m[0]); j++) {
			struct run_metric *rm =
			    run_record_add_metric(&r->rec, it->device_key, "disk", dr->name,
						  m[j].metric, m[j].unit, m[j].higher);

			rm->value = *(const double *)((const char *)dr + m[j].off);
			rm->repeats = dr->repeats;
			rm->cpu_pressure_pct = dr->cpu_pressure_pct;
			rm->cpu_busy_pct = dr->cpu_busy_pct;
			if (!strcmp(m[j].metric, "mb_s")) {
				rm->stdev = dr->mb_s_sd;
				rm->min = dr->mb_s_min;
				rm->max = dr->mb_s_max;
				sampled(rm, dr->bw_mean_mb_s, dr->bw_stdev_mb_s, dr->bw_min_mb_s,
					dr->bw_samples);
			} else if (!strcmp(m[j].metric, "iops")) {
				rm->stdev = dr->iops_sd;
				sampled(rm, dr->iops_mean, dr->iops_sample_stdev, dr->iops_min,
					dr->bw_samples);
			}
		}
		/* a filesystem without a block device under it has none: no row, not a null */
		if (!isnan(dr->util_pct)) {
			struct run_metric *rm = run_record_add_metric(
			    &r->rec, it->device_key, "disk", dr->name, "util_pct", "%", false);

			rm->value = dr->util_pct;
			rm->repeats = dr->repeats;
			rm->cpu_pressure_pct = dr->cpu_pressure_pct;
			rm->cpu_busy_pct = dr->cpu_busy_pct;
		}
	}
}

/* the controller's interrupts per MB moved, over all passes of a target */
static void add_irq_metric(struct run_result *r, const struct run_plan_item *it,
			   const struct disk_report *rep, uint64_t irqs)
{
	struct run_metric *m;
	double bytes = 0;
	size_t i;

	if (irqs == U64_UNKNOWN)
		return;
	for (i = 0; i < rep->nrows; i++)
		bytes += (double)rep->rows[i].bytes * (double)rep->rows[i].repeats;
	if (bytes <= 0)
		return;
	m = run_record_add_metric(&r->rec, it->device_key, "disk", "all passes", "irq_per_mb",
				  "IRQ/MB", false);
	m->value = (double)irqs / (bytes / 1e6);
	m->repeats = 1;
}

int run_disk_open(const struct run_options *o, struct run_result *r, size_t plan, char **ret_why)
{
	struct run_plan_item *it = &r->plan[plan];
	struct run_target *rt;
	int rc;

	r->open = xgrow(r->open, &r->nopen, sizeof(*r->open));
	rt = &r->open[r->nopen - 1];
	rt->plan = plan;
	rt->t = (struct disk_target){.fd = -1, .fd_buf = -1};
	rt->cfg = (struct disk_config){
	    .passes = r->specs[r->nopen - 1],
	    .repeat = o->repeat ? o->repeat : 1,
	    .size = o->size ? o->size : RUN_QUICK_SIZE,
	    .time_s = o->time_s > 0 ? o->time_s : (o->full ? RUN_FULL_TIME_S : RUN_QUICK_TIME_S),
	    .min_time_s = o->min_time_s >= 0
			      ? o->min_time_s
			      : (o->full ? RUN_FULL_MIN_TIME_S : RUN_QUICK_MIN_TIME_S),
	    .allow_write = o->destructive,
	    .fallback_buffered = true,
	    .stop = o->stop,
	    .progress = o->progress,
	    .progress_ctx = o->progress_ctx,
	};
	rt->cfg.npasses = build_passes(o->full, !it->read_only, rt->cfg.passes);
	rc = disk_target_open(it->path, &rt->cfg, !it->read_only, &rt->t, ret_why);
	if (rc == -EROFS) {
		/* writes refused (a raw device without --destructive): reads are still worth it */
		free(*ret_why);
		*ret_why = NULL;
		rt->cfg.npasses = build_passes(o->full, false, rt->cfg.passes);
		rc = disk_target_open(it->path, &rt->cfg, false, &rt->t, ret_why);
	}
	if (rc < 0) {
		r->nopen--;
		return rc;
	}
	signals_add_cleanup(disk_target_cleanup_path(&rt->t));
	if (rt->t.size < rt->cfg.size)
		rt->cfg.size = rt->t.size;
	return 0;
}

void run_disk_close_all(struct run_result *r)
{
	for (size_t k = 0; k < r->nopen; k++)
		disk_target_close(&r->open[k].t);
	signals_set_cleanup(NULL);
	free(r->open);
	r->open = NULL;
	r->nopen = 0;
}

int run_disk_measure(const struct usb_topology *topo, struct run_result *r, size_t k)
{
	struct run_target *rt = &r->open[k];
	struct run_plan_item *it = &r->plan[rt->plan];
	struct disk_report *rep = &r->disks[r->ndisks];
	const char *irq_lines = irq_lines_of(topo, &rt->t);
	uint64_t irq0, irq1, irqs;
	size_t j;
	int rc;

	irq0 = usb_irq_count(irq_lines);
	rc = disk_run(&rt->t, &rt->cfg, rep);
	irq1 = usb_irq_count(irq_lines);
	irqs = irq0 != U64_UNKNOWN && irq1 != U64_UNKNOWN ? irq1 - irq0 : U64_UNKNOWN;
	/* these point into the target, closed with the run; the rows point into passes, kept */
	rep->path = rep->io_path = rep->fs_type = rep->mount_point = rep->source = NULL;
	if (rc < 0)
		return rc;
	add_device(r, it, rep);
	add_rows(r, it, rep);
	add_irq_metric(r, it, rep, irqs);
	for (j = 0; j < rep->nwarnings; j++)
		run_note(r, "%s: %s", it->path, rep->warnings[j]);
	r->ndisks++;
	return 0;
}

void run_estimate_describe(const struct run_options *o, const struct run_result *r,
			   struct strbuf *out)
{
	struct disk_estimate e = {0};
	size_t i;

	for (i = 0; i < r->nopen; i++)
		disk_estimate_add(&e, &r->open[i].cfg, &r->open[i].t);
	for (i = 0; i < r->nplan; i++)
		if (r->plan[i].net_host)
			e.net_passes += 2; /* TCP each way */
	e.net_pass_s = run_net_pass_seconds(o);
	disk_estimate_describe(&e, out);
}

// SPDX-License-Identifier: MIT
/*
 * Disks as a class of `usbperf run` (run/class.h): USB disks found
 * (a test file on a writable mount, else reads of the raw device), the
 * host's scratch directory when nothing is on USB, or paths named on the
 * command line. Every target is opened, and so checked against the safety
 * rules, before any of them is measured: a refused operand stops the run
 * before the first byte of I/O on the others.
 */
#include "run/class_kit.h"
#include "classes/disk/run_disk.h"
#include "classes/disk/run_opts.h"
#include "run/run_priv.h"
#include "run/pass_sys.h"
#include "platform/sys/safety.h"
#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
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
#include <sys/stat.h>
#include <unistd.h>

/* a disk plan item's state: its passes, the open target, then its report */
struct disk_item {
	struct disk_pass_spec specs[DISK_MAX_PASSES]; /* the report's rows name them */
	struct disk_target t;
	struct disk_config cfg;
	bool open;
	struct disk_report rep;
	bool measured;
	char *irq_lines; /* the controller's, when the topology has none (an MMC host) */
};

static const struct class_metric disk_metrics[] = {
    CLASS_RATE("mb_s", "MB/s", "rate"),
    CLASS_RATE("iops", "IOPS", "IOPS"),
    CLASS_TAIL("lat_p99_us", "us", "p99"),
    CLASS_CPU("self_cpu_pct", "cpu", "usbperf's own"),
    /* the CPU clock through the pass: a drop explains a throughput drop (issue 20.2) */
    CLASS_METRIC("cpu_mhz", "MHz", "clock", true),
    CLASS_CONTEXT("util_pct", "%", "util"),
    CLASS_METRIC("irq_per_mb", "IRQ/MB", "interrupts", false),
    /* on the wire (usbmon): a monitored USB disk pass */
    CLASS_RATE("wire_mb_s", "MB/s", "wire"),
    CLASS_METRIC("urb_size", "B", "URB size", true),
    CLASS_METRIC("inflight_mean", "URBs", "in flight", true),
    CLASS_METRIC("busy_pct", "%", "bus busy", true),
    CLASS_TAIL("urb_lat_p99_us", "us", "URB p99"),
    CLASS_METRIC("usb_errors", "errors", "USB errors", false),
    CLASS_METRIC("protocol_pct", "%", "protocol", false),
    /* the data endpoint's completed URBs by size, as usbmon's buckets (platform/usbmon/usbmon.h) */
    CLASS_DISTRIBUTION("urb_size_bin_0", "URBs", "URBs of 0 B"),
    CLASS_DISTRIBUTION("urb_size_bin_1", "URBs", "URBs of 1 B"),
    CLASS_DISTRIBUTION("urb_size_bin_2", "URBs", "URBs 2-4"),
    CLASS_DISTRIBUTION("urb_size_bin_3", "URBs", "URBs 4-8"),
    CLASS_DISTRIBUTION("urb_size_bin_4", "URBs", "URBs 8-16"),
    CLASS_DISTRIBUTION("urb_size_bin_5", "URBs", "URBs 16-32"),
    CLASS_DISTRIBUTION("urb_size_bin_6", "URBs", "URBs 32-64"),
    CLASS_DISTRIBUTION("urb_size_bin_7", "URBs", "URBs 64-128"),
    CLASS_DISTRIBUTION("urb_size_bin_8", "URBs", "URBs 128-256"),
    CLASS_DISTRIBUTION("urb_size_bin_9", "URBs", "URBs 256-512"),
    CLASS_DISTRIBUTION("urb_size_bin_10", "URBs", "URBs 512-1K"),
    CLASS_DISTRIBUTION("urb_size_bin_11", "URBs", "URBs 1K-2K"),
    CLASS_DISTRIBUTION("urb_size_bin_12", "URBs", "URBs 2K-4K"),
    CLASS_DISTRIBUTION("urb_size_bin_13", "URBs", "URBs 4K-8K"),
    CLASS_DISTRIBUTION("urb_size_bin_14", "URBs", "URBs 8K-16K"),
    CLASS_DISTRIBUTION("urb_size_bin_15", "URBs", "URBs 16K-32K"),
    CLASS_DISTRIBUTION("urb_size_bin_16", "URBs", "URBs 32K-64K"),
    CLASS_DISTRIBUTION("urb_size_bin_17", "URBs", "URBs 64K-128K"),
    CLASS_DISTRIBUTION("urb_size_bin_18", "URBs", "URBs 128K-256K"),
    CLASS_DISTRIBUTION("urb_size_bin_19", "URBs", "URBs 256K-512K"),
    CLASS_DISTRIBUTION("urb_size_bin_20", "URBs", "URBs 512K-1M"),
    CLASS_DISTRIBUTION("urb_size_bin_21", "URBs", "URBs 1M-2M"),
    CLASS_DISTRIBUTION("urb_size_bin_22", "URBs", "URBs 2M-4M"),
    CLASS_DISTRIBUTION("urb_size_bin_23", "URBs", "URBs 4M-8M"),
    CLASS_DISTRIBUTION("urb_size_bin_24", "URBs", "URBs 8M-16M"),
    CLASS_DISTRIBUTION("urb_size_bin_25", "URBs", "URBs 16M-32M"),
    CLASS_DISTRIBUTION("urb_size_bin_26", "URBs", "URBs 32M-64M"),
    CLASS_DISTRIBUTION("urb_size_bin_27", "URBs", "URBs 64M-128M"),
    CLASS_DISTRIBUTION("urb_size_bin_28", "URBs", "URBs 128M-256M"),
    CLASS_DISTRIBUTION("urb_size_bin_29", "URBs", "URBs 256M-512M"),
    CLASS_DISTRIBUTION("urb_size_bin_30", "URBs", "URBs 512M-1G"),
    CLASS_DISTRIBUTION("urb_size_bin_31", "URBs", "URBs 1G-2G"),
    CLASS_DISTRIBUTION("urb_size_bin_32", "URBs", "URBs 2G-4G"),
    CLASS_DISTRIBUTION("urb_size_bin_33", "URBs", "URBs of 4G"),
};

const struct disk_report *run_disk_report(const struct run_plan_item *it)
{
	const struct disk_item *d = class_item(it, &run_class_disk);

	return d && d->measured ? &d->rep : NULL;
}

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

/* the card's own findings (mode, width, wear, alignment) into the record, once */
static void mmc_run_findings(struct run_result *r, const char *card)
{
	struct mmc_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	size_t i, j;

	if (mmc_probe(&t) < 0)
		return;
	mmc_findings(&t, &fl);
	for (i = 0; i < fl.n; i++) {
		const struct finding *f = &fl.v[i];
		bool dup = false;

		if (strcmp(f->subject, card))
			continue;
		for (j = 0; j < r->rec.findings.n; j++)
			dup |= !strcmp(r->rec.findings.v[j].id, f->id) &&
			       !strcmp(r->rec.findings.v[j].subject, f->subject);
		if (!dup)
			finding_add(&r->rec.findings, FINDING_WARN, f->id, f->subject, f->message,
				    f->evidence, f->fix);
	}
	finding_list_release(&fl);
	mmc_topology_release(&t);
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
	} else if (rep->on_mmc) {
		/* an MMC/SD card: known by its card name, its speed the bus mode in use */
		free(it->device_key);
		it->device_key = xstrdup(rep->mmc.card);
		d->key = xstrdup(rep->mmc.card);
		d->kind = xstrdup("mmc");
		d->product = xstrdup(rep->mmc.product);
		d->port_path = NULL;
		d->speed = xstrdup(rep->mmc.timing_name);
		d->driver = xstrdup("mmcblk");
		d->ceiling_mb_s = rep->mmc.ceiling_mb_s;
		mmc_run_findings(r, rep->mmc.card);
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

/* a monitored pass's wire figures: metric rows of their own */
static void add_wire_rows(struct run_result *r, const struct run_plan_item *it,
			  const struct disk_row *dr)
{
	const double v[] = {dr->wire_mb_s,   (double)dr->urb_size, dr->inflight_mean,
			    dr->busy_pct,    dr->urb_lat_p99_us,   (double)dr->usb_errors,
			    dr->protocol_pct};
	static const char *const key[] = {"wire_mb_s",	 "urb_size",	   "inflight_mean",
					  "busy_pct",	 "urb_lat_p99_us", "usb_errors",
					  "protocol_pct"};

	if (!dr->monitored)
		return;
	for (size_t j = 0; j < sizeof(key) / sizeof(key[0]); j++) {
		struct run_metric *rm;

		if (isnan(v[j]))
			continue;
		rm = run_class_add_metric(&r->rec, &run_class_disk, it->device_key, dr->name,
					  key[j]);
		rm->value = v[j];
		rm->repeats = dr->repeats;
	}
	/* the URB size histogram: its non-empty bins */
	for (unsigned k = 0; k < USBMON_SIZE_BUCKETS; k++) {
		struct run_metric *rm;
		char bin[32];

		if (!dr->urb_hist[k])
			continue;
		snprintf(bin, sizeof(bin), "urb_size_bin_%u", k);
		rm = run_class_add_metric(&r->rec, &run_class_disk, it->device_key, dr->name, bin);
		rm->value = (double)dr->urb_hist[k];
		rm->repeats = dr->repeats;
	}
}

/* the spread within the passes, from the interval samples pooled over the repeats */
static void sampled(struct run_metric *rm, double mean, double stdev, double min, uint64_t n)
{
	rm->sample_mean = mean;
	rm->sample_stdev = stdev;
	rm->sample_min = min;
	rm->samples = n;
}

/* the pass's clock and interrupt placement, through the rows every class shares */
static void add_sys_rows(struct run_result *r, const struct run_plan_item *it,
			 const struct disk_row *dr)
{
	struct pass_sys s;

	pass_sys_init(&s);
	if (!isnan(dr->cpu_mhz_mean)) {
		s.clock_min_khz = dr->cpu_mhz_min * 1e3;
		s.clock_mean_khz = dr->cpu_mhz_mean * 1e3;
		s.clock_max_khz = dr->cpu_mhz_max * 1e3;
		s.clock_top_khz = dr->cpu_mhz_mean * 1e3 * 100 / dr->cpu_clock_pct;
		snprintf(s.clock_governor, sizeof(s.clock_governor), "%s", dr->cpu_governor);
	}
	s.irq = dr->irq;
	run_add_pass_sys(&r->rec, &run_class_disk, it->device_key, dr->name, &s, dr->repeats);
}

static void add_rows(struct run_result *r, const struct run_plan_item *it,
		     const struct disk_report *rep)
{
	/*
	 * optional: no row, not a null, when unknown: the clock where there is no
	 * cpufreq, the utilisation of a filesystem without a block device under it
	 */
	static const struct {
		const char *metric;
		size_t off, spread, sd; /* the figure, its spread within the pass, over the repeats */
		bool optional;
	} m[] = {
#define ROW(metric, spread, sd, optional)                                                      \
	{#metric, offsetof(struct disk_row, metric), offsetof(struct disk_row, spread),        \
	 offsetof(struct disk_row, sd), optional}
	    ROW(mb_s, mb_s_spread, mb_s_sd, false),
	    ROW(iops, iops_spread, iops_sd, false),
	    ROW(lat_p99_us, lat_p99_spread_us, lat_p99_sd_us, false),
	    ROW(self_cpu_pct, self_cpu_spread, self_cpu_sd, false),
	    ROW(util_pct, util_spread, util_sd, true),
#undef ROW
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
			double v = *(const double *)((const char *)dr + m[j].off);
			struct run_metric *rm;

			if (m[j].optional && isnan(v))
				continue;
			rm = run_class_add_metric(&r->rec, &run_class_disk, it->device_key, dr->name,
						  m[j].metric);
			rm->value = v;
			rm->repeats = dr->repeats;
			rm->cpu_pressure_pct = dr->cpu_pressure_pct;
			rm->cpu_busy_pct = dr->cpu_busy_pct;
			rm->cpu_wait_pct = dr->cpu_wait_pct;
			rm->cpu_io_pct = dr->cpu_io_pct;
			rm->pass_spread = *(const double *)((const char *)dr + m[j].spread);
			rm->stdev = *(const double *)((const char *)dr + m[j].sd);
			if (!strcmp(m[j].metric, "mb_s")) {
				rm->min = dr->mb_s_min;
				rm->max = dr->mb_s_max;
				if (dr->ceiling_mb_s > 0)
					rm->ceiling = dr->ceiling_mb_s;
				sampled(rm, dr->bw_mean_mb_s, dr->bw_stdev_mb_s, dr->bw_min_mb_s,
					dr->bw_samples);
			} else if (!strcmp(m[j].metric, "iops")) {
				sampled(rm, dr->iops_mean, dr->iops_sample_stdev, dr->iops_min,
					dr->bw_samples);
			}
		}
		add_wire_rows(r, it, dr);
		add_sys_rows(r, it, dr);
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
	m = run_class_add_metric(&r->rec, &run_class_disk, it->device_key, "all passes",
				 "irq_per_mb");
	m->value = (double)irqs / (bytes / 1e6);
	m->repeats = 1;
}

/* a mounted, writable filesystem of this disk (the disk itself or a partition) */
static const struct usb_node *writable_mount(const struct usb_topology *t, const char *disk)
{
	for (size_t i = 0; i < t->nnode; i++) {
		const struct usb_node *n = &t->node[i];

		if (!n->mount_point ||
		    (strcmp(n->name, disk) && !(n->parent_name && !strcmp(n->parent_name, disk))))
			continue;
		if (access(n->mount_point, W_OK) == 0)
			return n;
	}
	return NULL;
}

/* every USB disk: a test file on its writable mount, else reads of the raw device */
static void disk_discover(const struct run_options *o, struct run_result *r)
{
	const struct usb_topology *t = r->topo;
	struct strbuf why = STRBUF_INIT;

	(void)o;
	for (size_t i = 0; i < t->nnode; i++) {
		const struct usb_node *n = &t->node[i], *m;
		struct run_plan_item *it;

		if (strcmp(n->kind, USB_NODE_DISK))
			continue;
		strbuf_reset(&why);
		m = writable_mount(t, n->name);
		if (m) {
			strbuf_addf(&why, "%s is mounted %s on %s: a test file there", m->name,
				    m->fs_type ? m->fs_type : "", m->mount_point);
			it = run_plan_add(r, &run_class_disk, m->mount_point, n->device,
					  "usb-storage", false, why.buf);
		} else {
			strbuf_addf(&why, "%s has no writable mount: reads of the raw device only",
				    n->dev_node);
			it = run_plan_add(r, &run_class_disk, n->dev_node, n->device,
					  "usb-storage", true, why.buf);
		}
		it->on_usb = true;
	}
	strbuf_release(&why);
}

/* nothing on USB: the host's scratch directory characterises this machine */
static void disk_discover_host(const struct run_options *o, struct run_result *r)
{
	struct strbuf why = STRBUF_INIT;

	strbuf_addf(&why, "no USB disk here: the host's %s characterises this machine",
		    disk_run_scratch(o));
	run_plan_add(r, &run_class_disk, disk_run_scratch(o), "host", "host-disk", false, why.buf);
	strbuf_release(&why);
}

/* a path no other class claims: a file, directory or block device to test */
static bool disk_claims(const char *target, const struct stat *st)
{
	(void)target;
	return st != NULL;
}

static void disk_plan_target(const struct run_options *o, struct run_result *r,
			     struct run_plan_item *it)
{
	struct stat st;

	(void)r;
	if (stat(it->path, &st) < 0)
		st.st_mode = 0;
	it->kind = S_ISBLK(st.st_mode) ? "block-device" : "path";
	it->read_only = S_ISBLK(st.st_mode) && !o->destructive;
}

/* a USB disk's passes are watched on the wire (run --no-monitor: not) */
static bool on_usb(const struct disk_target *t)
{
	struct usb_attach a = {0};
	bool r = (t->dev_major || t->dev_minor) &&
		 usb_attach_for_block(t->dev_major, t->dev_minor, &a) == 0;

	usb_attach_release(&a);
	return r;
}

/* a disk pass's progress as run's (ctx: the run's options) */
static void progress_to_run(void *ctx, const struct disk_progress *p)
{
	const struct run_options *o = ctx;
	struct run_progress rp = {
	    .phase = p->phase,
	    .pass = p->spec ? p->spec->name : NULL,
	    .pass_index = p->pass_index,
	    .pass_count = p->pass_count,
	    .done_bytes = p->done_bytes,
	    .total_bytes = p->total_bytes,
	    .rate_Bps = p->rate_Bps,
	};

	o->progress(o->progress_ctx, &rp);
}

/* --repeat's repeats, each with the whole pass's time; else DISK_RUN_REPEATS sharing it */
static void disk_repeats(const struct run_options *o, struct disk_config *cfg)
{
	double time_s = o->time_s > 0 ? o->time_s : (o->full ? RUN_FULL_TIME_S : RUN_QUICK_TIME_S);
	double min_s = disk_run_min_time(o);
	unsigned n = DISK_RUN_REPEATS;

	if (o->repeat) {
		cfg->repeat = o->repeat;
		cfg->time_s = time_s;
		cfg->min_time_s = min_s;
		return;
	}
	while (n > 1 && time_s / n < DISK_MIN_REPEAT_S)
		n--;
	cfg->repeat = n;
	cfg->time_s = time_s / n;
	cfg->min_time_s = min_s / n;
}

static int disk_prepare(const struct run_options *o, struct run_result *r,
			struct run_plan_item *it, char **ret_why)
{
	struct disk_item *d = calloc(1, sizeof(*d));
	int rc;

	(void)r;
	if (!d)
		abort();
	it->state = d;
	d->t = (struct disk_target){.fd = -1, .fd_buf = -1};
	d->cfg = (struct disk_config){
	    .passes = d->specs,
	    .size = o->size ? o->size : RUN_QUICK_SIZE,
	    .allow_write = o->destructive,
	    .fallback_buffered = true,
	    .stop = o->stop,
	    .progress = o->progress ? progress_to_run : NULL,
	    .progress_ctx = (void *)o,
	};
	disk_repeats(o, &d->cfg);
	d->cfg.npasses = build_passes(o->full, !it->read_only, d->specs);
	rc = disk_target_open(it->path, &d->cfg, !it->read_only, &d->t, ret_why);
	if (rc == -EROFS) {
		/* writes refused (a raw device without --destructive): reads are still worth it */
		free(*ret_why);
		*ret_why = NULL;
		d->cfg.npasses = build_passes(o->full, false, d->specs);
		rc = disk_target_open(it->path, &d->cfg, false, &d->t, ret_why);
	}
	if (rc < 0)
		return rc;
	d->open = true;
	signals_add_cleanup(disk_target_cleanup_path(&d->t));
	d->cfg.monitor = !o->no_monitor && on_usb(&d->t);
	if (d->t.size < d->cfg.size)
		d->cfg.size = d->t.size;
	return 0;
}

/* every target closed (created test files removed) once the disks are done */
static void disk_finish(struct run_result *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nplan; i++) {
		struct disk_item *d = class_item(&r->plan[i], &run_class_disk);

		if (!d || !d->open)
			continue;
		disk_target_close(&d->t);
		d->open = false;
		any = true;
	}
	if (any)
		signals_set_cleanup(NULL);
}

static void disk_release(struct run_plan_item *it)
{
	struct disk_item *d = class_item(it, &run_class_disk);

	if (!d)
		return;
	if (d->open)
		disk_target_close(&d->t);
	if (d->measured)
		disk_report_release(&d->rep);
	free_all(d->irq_lines, d);
	it->state = NULL;
}

static int disk_measure(const struct run_options *o, struct run_result *r,
			struct run_plan_item *it, char **ret_why)
{
	struct disk_item *d = class_item(it, &run_class_disk);
	struct disk_report *rep = &d->rep;
	const char *irq_lines = irq_lines_of(r->topo, &d->t);
	uint64_t irq0, irq1, irqs;
	size_t j;
	int rc;

	(void)o;
	/* each pass's placement: off USB too (an MMC host, a PCI disk's); irq_per_mb stays USB's */
	d->cfg.irq_lines = irq_lines;
	if (!irq_lines && irq_lines_of_block(d->t.dev_major, d->t.dev_minor, &d->irq_lines) == 0)
		d->cfg.irq_lines = d->irq_lines;
	irq0 = usb_irq_count(irq_lines);
	rc = disk_run(&d->t, &d->cfg, rep);
	irq1 = usb_irq_count(irq_lines);
	irqs = irq0 != U64_UNKNOWN && irq1 != U64_UNKNOWN ? irq1 - irq0 : U64_UNKNOWN;
	/* these point into the target, closed with the run; the rows point into passes, kept */
	run_disk_note_backing(rep);
	rep->path = rep->io_path = rep->fs_type = rep->mount_point = rep->source = NULL;
	if (rc < 0) {
		struct strbuf w = STRBUF_INIT;

		disk_report_release(rep);
		strbuf_addf(&w, "%s: %s", it->path, strerror(-rc));
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	d->measured = true;
	add_device(r, it, rep);
	add_rows(r, it, rep);
	add_irq_metric(r, it, rep, irqs);
	for (j = 0; j < rep->nwarnings; j++)
		run_note(r, "%s: %s", it->path, rep->warnings[j]);
	return 0;
}

static void disk_run_estimate(const struct run_options *o, const struct run_plan_item *it,
			      struct estimate *e, struct class_estimate *ret)
{
	const struct disk_item *d = class_item(it, &run_class_disk);

	(void)o;
	(void)ret;
	if (d && d->open)
		disk_estimate_add(e, &d->cfg, &d->t);
}

struct disk_report *run_disk_item_add(struct run_result *r, const char *key)
{
	struct run_plan_item *it = run_plan_add(r, &run_class_disk, key, key, "usb-storage", false,
						"a test's");
	struct disk_item *d = calloc(1, sizeof(*d));

	if (!d)
		abort();
	d->measured = true;
	it->state = d;
	return &d->rep;
}

/* an MMC card's findings (platform/mmc), which the disk class adds for the cards it measures */
static const struct class_finding_weight disk_weights[] = {
    {"run.not_a_medium", NULL, 5},
    {"run.above_ceiling", RUN_LIMITER_EMULATION, 10},
    {"run.page_cache", RUN_LIMITER_PAGE_CACHE, 10},
    {"run.cpu_bound", RUN_LIMITER_CPU, 20},
    {"run.bus_bound", RUN_LIMITER_BUS, 30},
    {"run.medium_bound", RUN_LIMITER_MEDIUM, 30},
    {"run.write_slow", NULL, 70},
    {"run.small_blocks", NULL, 75},
    {"mmc.slower_mode", RUN_LIMITER_BUS, 30},
    {"mmc.narrow_bus", RUN_LIMITER_BUS, 30},
    {"mmc.worn", RUN_LIMITER_MEDIUM, 55},
    {"mmc.partition_unaligned", NULL, 65},
};

/* the best sequential read first: the direction a link's ceiling is usually quoted for */
static const struct class_headline disk_headline[] = {
    {"seq-read", "mb_s"},
    {"seq-write", "mb_s"},
    {"", "mb_s"},
};

/* what to run next where a disk's verdict is a target's or the page cache's (verdict_next.c) */
static const char *disk_next_step(const struct run_record *r, const struct run_verdict *v)
{
	if (finding_list_find(&r->findings, "run.not_a_medium", v->device_key))
		return "name the device itself: a USB disk, a card or its mount point ('usbperf "
		       "list' shows them); this target's figures are memory's";
	if (v->limiter && !strcmp(v->limiter, RUN_LIMITER_PAGE_CACHE))
		return "run as root, so usbperf drops the page cache before each read pass, or "
		       "'usbperf disk TARGET --mode direct'; then compare the two runs";
	return NULL;
}

/* report: the sequential passes against their block size ("seq-read 64K"); random ones are rates */
static enum class_sweep disk_sweep_point(const struct run_metric *m, struct class_sweep_point *ret)
{
	enum class_sweep k = class_block_point(m, "seq-read", SWEEP_READ, ret);

	return k != CLASS_SWEEP_NONE ? k : class_block_point(m, "seq-write", SWEEP_WRITE, ret);
}

const struct measure_class run_class_disk = {
    .name = "disk",
    .options = disk_run_options,
    .noptions = DISK_RUN_NOPTIONS,
    .opts_size = sizeof(struct disk_run_opts),
    .what = "USB disks",
    .check_options = disk_run_check_options,
    .discover = disk_discover,
    .discover_host = disk_discover_host,
    .claims = disk_claims,
    .claims_rest = true,
    .plan_target = disk_plan_target,
    .prepare = disk_prepare,
    .estimate = disk_run_estimate,
    .measure = disk_measure,
    .finish = disk_finish,
    .release = disk_release,
    .own_clock_rule = true, /* run.cpu_clock_low, from its rows (run_analyze.c) */
    .analyze = run_disk_analyze,
    .metrics = disk_metrics,
    .nmetrics = sizeof(disk_metrics) / sizeof(disk_metrics[0]),
    .sweep_point = disk_sweep_point,
    .next_step = disk_next_step,
    .finding_weights = disk_weights,
    .nfinding_weights = sizeof(disk_weights) / sizeof(disk_weights[0]),
    .headline = disk_headline,
    .nheadline = sizeof(disk_headline) / sizeof(disk_headline[0]),
};

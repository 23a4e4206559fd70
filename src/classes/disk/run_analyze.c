// SPDX-License-Identifier: MIT
/*
 * Where a disk's bottleneck is, from its figures: the vendor guides'
 * method. Each finding names the figures it rests on and what to change.
 */
#include "run/pass_sys.h"
#include "classes/disk/run_disk.h"
#include "run/run_priv.h"
#include "platform/usb/topology.h"
#include "platform/usbmon/findings.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUS_BOUND_PCT 75.0	/* this close to the ceiling: the link is the limit */
#define FAR_BELOW_PCT 40.0	/* this far below: the medium or the protocol is */
#define SMALL_BLOCK_RATIO 0.25	/* smallest block under a quarter of the best */
#define WRITE_SLOW_RATIO 0.5	/* writes under half the reads */
#define CPU_SATURATED_PCT PASS_CPU_SATURATED_PCT /* usbperf's own CPU, % of one core */
#define GOOD_ENOUGH 0.9		/* "reaches the plateau": 90% of the best */
#define CACHED_PCT 10.0		/* of the region already cached before a read */

/* the fastest sequential pass in one direction */
const struct disk_row *run_disk_best_seq(const struct disk_report *d, const char *op)
{
	const struct disk_row *best = NULL;
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		const struct disk_row *r = &d->rows[i];

		if (strcmp(r->op, op) || strcmp(r->access, "sequential") || isnan(r->mb_s))
			continue;
		if (!best || r->mb_s > best->mb_s)
			best = r;
	}
	return best;
}

/* sequential passes in one direction, smallest and the first to reach the plateau */
static void block_sizes(const struct disk_report *d, const char *op, const struct disk_row *best,
			const struct disk_row **ret_small, const struct disk_row **ret_enough)
{
	size_t i;

	*ret_small = *ret_enough = NULL;
	for (i = 0; i < d->nrows; i++) {
		const struct disk_row *r = &d->rows[i];

		if (strcmp(r->op, op) || strcmp(r->access, "sequential") || isnan(r->mb_s))
			continue;
		if (!*ret_small || r->bs < (*ret_small)->bs)
			*ret_small = r;
		if (r->mb_s >= GOOD_ENOUGH * best->mb_s && (!*ret_enough || r->bs < (*ret_enough)->bs))
			*ret_enough = r;
	}
}

static void efficiency(struct run_result *res, const struct run_device *dev,
		       const struct disk_report *d, const struct disk_row *rd)
{
	struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT;
	double pct;

	if (!rd || isnan(dev->ceiling_mb_s) || dev->ceiling_mb_s <= 0)
		return;
	pct = 100 * rd->mb_s / dev->ceiling_mb_s;
	/* an MMC card's ceiling is its bus mode's (clock x width x DDR), not a USB bulk one */
	strbuf_addf(&ev, "%s %.1f MB/s = %.0f%% of the %.1f MB/s %s %s ceiling (%s)", rd->name,
		    rd->mb_s, pct, dev->ceiling_mb_s, dev->speed, d->on_mmc ? "bus" : "bulk",
		    d->on_mmc ? d->mmc.ceiling_basis : d->usb.ceiling_basis);
	if (pct > 100) {
		finding_add(&res->rec.findings, FINDING_WARN, "run.above_ceiling", dev->key,
			    "a figure above what the link can carry: it is not the bus's (a "
			    "cache, or an emulated link)",
			    ev.buf, "measure with direct I/O on real hardware; drop caches first");
	} else if (pct >= BUS_BOUND_PCT) {
		strbuf_addf(&msg, "bus-bound: reads run at %.0f%% of the %s link's ceiling", pct,
			    dev->speed);
		finding_add(&res->rec.findings, FINDING_INFO, "run.bus_bound", dev->key, msg.buf,
			    ev.buf,
			    "only a faster link raises it: a port and cable for the device's best "
			    "speed (see 'usbperf list')");
	} else if (pct < FAR_BELOW_PCT) {
		strbuf_addf(&msg, "medium- or protocol-bound: reads reach only %.0f%% of the %s "
				  "link's ceiling",
			    pct, dev->speed);
		finding_add(&res->rec.findings, FINDING_WARN, "run.medium_bound", dev->key, msg.buf,
			    ev.buf,
			    dev->driver && !strcmp(dev->driver, "usb-storage")
				    ? "the bus has headroom: Bulk-Only Transport serialises commands "
				      "(UAS queues them) and the flash itself may be slow; compare "
				      "with the field figures in 'usbperf limits'"
				    : "the bus has headroom: the storage medium is the limit");
	}
	strbuf_release(&ev);
	strbuf_release(&msg);
}

static void small_blocks(struct run_result *res, const char *key, const struct disk_report *d,
			 const char *op, const struct disk_row *best, bool medium)
{
	const struct disk_row *small, *enough;
	struct strbuf ev = STRBUF_INIT, fix = STRBUF_INIT;
	char sz[24];

	if (!best)
		return;
	block_sizes(d, op, best, &small, &enough);
	if (!small || small == best || small->mb_s >= SMALL_BLOCK_RATIO * best->mb_s || !enough)
		return;
	strbuf_addf(&ev, "%s %.1f MB/s against %s %.1f MB/s", small->name, small->mb_s, best->name,
		    best->mb_s);
	format_size(enough->bs, sz, sizeof(sz));
	strbuf_addf(&fix, "use %s blocks of %s or more (dd bs=, the application's buffer, the "
			  "filesystem's allocation unit): %s reaches %.0f%% of the best",
		    op, sz, enough->name, 100 * enough->mb_s / best->mb_s);
	finding_add(&res->rec.findings, FINDING_INFO, "run.small_blocks", key,
		    !strcmp(op, "read") ? "small reads are slow: per-command overhead dominates"
		    : medium	    ? "small writes are slow: per-command overhead (on flash, also the "
				      "program unit) dominates"
				    : "small writes are slow: per-command overhead dominates",
		    ev.buf, fix.buf);
	strbuf_release(&ev);
	strbuf_release(&fix);
}

/*
 * What holds the target when it is no storage medium (issue 29.2.3): a loop
 * device (its file's filesystem and the page cache serve it), zram, a RAM
 * disk, tmpfs. Into what, with the fact that shows it; false for a medium.
 */
static bool backing(const struct disk_report *d, struct strbuf *what)
{
	/* a filesystem's device, or the block device itself when that is the target */
	const char *src = d->source ? d->source : d->path;
	const char *dev = src && !strncmp(src, "/dev/", 5) ? src + 5 : NULL;
	struct strbuf path = STRBUF_INIT, file = STRBUF_INIT;

	if (d->fs_type && (!strcmp(d->fs_type, "tmpfs") || !strcmp(d->fs_type, "ramfs"))) {
		strbuf_addf(what, "a %s: files in RAM (filesystem %s)", d->fs_type, d->fs_type);
		return true;
	}
	if (dev && !strncmp(dev, "zram", 4)) {
		strbuf_addf(what, "zram: compressed RAM (%s)", src);
		return true;
	}
	if (dev && !strncmp(dev, "ram", 3) && strspn(dev + 3, "0123456789") == strlen(dev + 3)) {
		strbuf_addf(what, "a RAM disk (%s)", src);
		return true;
	}
	if (!dev || strncmp(dev, "loop", 4) || !dev[4] ||
	    strspn(dev + 4, "0123456789") != strlen(dev + 4))
		return false;
	strbuf_addf(&path, "/sys/block/%s/loop/backing_file", dev);
	if (sysroot_read(path.buf, 4096, &file) == 0) {
		while (file.len && file.buf[file.len - 1] == '\n')
			file.buf[--file.len] = '\0';
		strbuf_addf(what, "a loop device (%s over the file %s: its filesystem and the page "
				  "cache serve it)",
			    src, file.buf);
	} else {
		strbuf_addf(what, "a loop device (%s: a file's filesystem and the page cache serve "
				  "it)",
			    src);
	}
	strbuf_release(&path);
	strbuf_release(&file);
	return true;
}

void run_disk_note_backing(struct disk_report *d)
{
	struct strbuf what = STRBUF_INIT;

	d->not_medium[0] = '\0';
	if (backing(d, &what))
		snprintf(d->not_medium, sizeof(d->not_medium), "%s", what.buf);
	strbuf_release(&what);
}

/* the target is no medium: say so, with the figures, instead of diagnosing one */
static void no_medium(struct run_result *res, const char *key, const char *what,
		      const struct disk_row *rd, const struct disk_row *wr)
{
	struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT;

	strbuf_addf(&msg, "the target is %s, not a storage medium: its figures are the memory's "
			  "and the CPU's, no medium's to diagnose",
		    what);
	strbuf_adds(&ev, "best read ");
	if (rd)
		strbuf_addf(&ev, "%s %.1f MB/s", rd->name, rd->mb_s);
	else
		strbuf_adds(&ev, "none");
	strbuf_adds(&ev, ", best write ");
	if (wr)
		strbuf_addf(&ev, "%s %.1f MB/s", wr->name, wr->mb_s);
	else
		strbuf_adds(&ev, "none");
	finding_add(&res->rec.findings, FINDING_WARN, "run.not_a_medium", key, msg.buf, ev.buf,
		    "measure the device itself: name a USB disk, a card or its mount point "
		    "(usbperf list shows them); to characterise this host, use its own disk");
	strbuf_release(&ev);
	strbuf_release(&msg);
}

static void write_vs_read(struct run_result *res, const char *key, const struct disk_row *rd,
			  const struct disk_row *wr, bool medium)
{
	struct strbuf ev = STRBUF_INIT;

	if (!rd || !wr || wr->mb_s >= WRITE_SLOW_RATIO * rd->mb_s)
		return;
	strbuf_addf(&ev, "best read %s %.1f MB/s, best write %s %.1f MB/s (%.0f%%)", rd->name,
		    rd->mb_s, wr->name, wr->mb_s, 100 * wr->mb_s / rd->mb_s);
	/* a loop device or RAM has no medium to blame: what holds its writes back instead */
	finding_add(&res->rec.findings, FINDING_INFO, "run.write_slow", key,
		    medium ? "reads are fast, writes slow: the medium's write path is the limit, "
			     "not the bus (which carried the reads)"
			   : "reads are fast, writes slow: no medium's, what writes the backing "
			     "file (its filesystem, a throttle on the device) holds them back",
		    ev.buf,
		    medium ? "a faster medium (SLC/pSLC cache, higher-class card or stick); for "
			     "sustained writes expect the post-cache rate"
			   : "measure the device itself (see the finding above); on this target, "
			     "look at what serves its backing file");
	strbuf_release(&ev);
}

static void cpu_bound(struct run_result *res, const char *key, const struct disk_report *d)
{
	struct strbuf ev = STRBUF_INIT;
	struct evidence_groups g = {0};
	size_t i;

	for (i = 0; i < d->nrows; i++) {
		const struct disk_row *r = &d->rows[i];

		if (isnan(r->self_cpu_pct) || r->self_cpu_pct < CPU_SATURATED_PCT)
			continue;
		evidence_add(&g, "", r->name, &r->self_cpu_pct, 1);
	}
	evidence_render(&g, "usbperf used {0} % of one CPU", &ev);
	evidence_release(&g);
	if (ev.len)
		finding_add(&res->rec.findings, FINDING_WARN, "run.cpu_bound", key,
			    "a core was saturated during the transfer: those figures are the "
			    "CPU's limit",
			    ev.buf,
			    "larger blocks or a deeper queue (fewer syscalls per byte); the "
			    "'performance' governor; on a board, check the CPU's max frequency");
	strbuf_release(&ev);
}

/* below this share of the hardware's top, a pass's clock followed the load, not the work */
#define CLOCK_LOW_PCT PASS_CLOCK_LOW_PCT

/* passes that ran with the CPU below its top under a governor that scales (issue 20.2) */
static void clock_low(struct run_result *res, const char *key, const struct disk_report *d)
{
	struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT;
	struct evidence_groups g = {0};
	const char *gov = NULL;
	bool bound = false;

	for (size_t i = 0; i < d->nrows; i++) {
		const struct disk_row *r = &d->rows[i];

		if (!r->cpu_governor[0] || !(r->cpu_clock_pct > 0 && r->cpu_clock_pct < CLOCK_LOW_PCT) ||
		    !strcmp(r->cpu_governor, "performance"))
			continue;
		gov = r->cpu_governor;
		bound = bound || (!isnan(r->self_cpu_pct) && r->self_cpu_pct >= CPU_SATURATED_PCT);
		evidence_add(&g, "", r->name,
			     (double[]){r->cpu_mhz_mean, r->cpu_mhz_min, r->cpu_mhz_max,
					r->cpu_clock_pct},
			     4);
	}
	if (!gov) {
		evidence_release(&g);
		strbuf_release(&ev);
		return;
	}
	/* the clock's ranges over the passes: one clause, not one a pass */
	evidence_render(&g, "{0} MHz mean (lowest {1}, highest {2}), {3} % of the top", &ev);
	evidence_release(&g);
	strbuf_addf(&ev, " (governor %s)", gov);
	strbuf_addf(&msg,
		    "passes ran with the CPU below its top clock under the '%s' governor: I/O "
		    "completions wait on a slow core%s",
		    gov, bound ? ", and a pass that saturated a core was held by that clock" : "");
	finding_add(&res->rec.findings, bound ? FINDING_WARN : FINDING_INFO, "run.cpu_clock_low", key,
		    msg.buf, ev.buf,
		    "usbperf run --governor performance (it puts the governor back after), or raise "
		    "scaling_min_freq; compare the two runs with usbperf compare");
	strbuf_release(&ev);
	strbuf_release(&msg);
}

/* a buffered pass that found its data already cached measured memory, not the device */
static void page_cache(struct run_result *res, const char *key, const struct disk_report *d)
{
	struct strbuf ev = STRBUF_INIT;
	size_t i;

	/* every pass by name: the verdict looks its figure's pass up in it */
	struct evidence_groups g = {.name_all = true};

	for (i = 0; i < d->nrows; i++)
		if (!isnan(d->rows[i].cached_pct) && d->rows[i].cached_pct > CACHED_PCT)
			evidence_add(&g, "", d->rows[i].name, &d->rows[i].cached_pct, 1);
	evidence_render(&g, "{0} % of the region in the page cache before the pass (mincore)",
			&ev);
	evidence_release(&g);
	if (ev.len)
		finding_add(&res->rec.findings, FINDING_WARN, "run.page_cache", key,
			    "figures partly from the page cache: not the device's", ev.buf,
			    "run as root so caches can be dropped (drop_caches), or use direct "
			    "I/O; a region larger than RAM also helps");
	strbuf_release(&ev);
}

/* what the wire said about the monitored passes (platform/usbmon/findings.c) */
static void wire_findings(struct run_result *res, const char *key, const struct disk_report *d)
{
	struct usbmon_device_view dv = {.subject = key, .driver = d->usb.driver,
					.max_sectors_kb = U64_UNKNOWN};
	struct usbmon_pass_view *v = calloc(d->nrows ? d->nrows : 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct disk_row *r = &d->rows[i];

		if (!r->monitored)
			continue;
		v[n++] = (struct usbmon_pass_view){
		    .pass = r->name,
		    .request_bytes = r->bs,
		    .qd = (unsigned)r->qd,
		    .urb_size = r->urb_size,
		    .urbs = r->urbs,
		    .usb_errors = r->usb_errors,
		    .wire_bytes = r->wire_bytes,
		    .bot_commands = r->bot_commands,
		    .protocol_bytes = r->protocol_bytes,
		    .inflight_mean = r->inflight_mean,
		    .inflight_max = r->inflight_max,
		    .data_inflight_max = r->data_inflight_max,
		    .busy_pct = r->busy_pct,
		    .protocol_pct = r->protocol_pct,
		};
	}
	for (size_t i = 0; n && res->topo && i < res->topo->nnode; i++) {
		const struct usb_node *nd = &res->topo->node[i];

		if (nd->device && !strcmp(nd->device, key) && !strcmp(nd->kind, USB_NODE_DISK)) {
			dv.block = nd->name;
			dv.max_sectors_kb = nd->max_sectors_kb;
			break;
		}
	}
	if (n)
		usbmon_findings(&dv, v, n, &res->rec.findings);
	free(v);
}

void run_disk_analyze(struct run_result *res)
{
	for (size_t i = 0; i < res->nplan; i++) {
		const struct disk_report *d = run_disk_report(&res->plan[i]);
		const struct run_device *dev;
		const struct disk_row *rd, *wr;

		if (!d || !(dev = run_device_find(res, res->plan[i].device_key)))
			continue;
		rd = run_disk_best_seq(d, "read");
		wr = run_disk_best_seq(d, "write");
		/* no medium: said first; the other rules then blame no medium's write path */
		if (d->not_medium[0])
			no_medium(res, dev->key, d->not_medium, rd, wr);
		else
			efficiency(res, dev, d, rd);
		small_blocks(res, dev->key, d, "read", rd, !d->not_medium[0]);
		small_blocks(res, dev->key, d, "write", wr, !d->not_medium[0]);
		write_vs_read(res, dev->key, rd, wr, !d->not_medium[0]);
		cpu_bound(res, dev->key, d);
		clock_low(res, dev->key, d);
		page_cache(res, dev->key, d);
		wire_findings(res, dev->key, d);
	}
}

// SPDX-License-Identifier: MIT
/*
 * `usbperf run --copy SRC DST` as a class (class.h): both sides measured as
 * disks, then the copy between them at several chunk sizes, and which side
 * (or the copy loop itself) limits it.
 */
#include "classes/copy/copy.h"
#include "platform/sys/safety.h"
#include "classes/mtd/mtd_run.h"
#include "run/class_kit.h"
#include "classes/disk/run_disk.h"
#include "run/run_priv.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_copy;

/* --copy SRC DST: the copy path, both sides */
struct copy_opts {
	const char *src, *dst;
};

/* the run's --copy (both sides NULL without it) */
static const struct copy_opts *copts(const struct run_options *o)
{
	return run_class_opts(o, &run_class_copy);
}

static int set_copy(void *opts, char *const *words, char **ret_why)
{
	struct copy_opts *c = opts;

	(void)ret_why;
	c->src = words[0];
	c->dst = words[1];
	return 0;
}

static const struct class_option copy_options[] = {
    {"copy", "SRC DST", 2, true,
     "the copy path (e.g. USB disk to eMMC): SRC's reads, DST's\n"
     "writes, and a copy between them at 64K/1M/4M chunks;\n"
     "DST may be /dev/mtdN (raw flash, with --destructive),\n"
     "SRC /dev/mtdN (raw flash, only read)",
     set_copy},
};

/* the copy item's state: the sides' plan items and what the copy measured */
struct copy_item {
	size_t src, dst; /* indexes into run_result.plan */
	struct run_copy_row rows[RUN_COPY_CHUNKS];
	size_t n;
};

static const struct class_metric copy_metrics[] = {
    CLASS_RATE("mb_s", "MB/s", "rate"),
};

/* a side that names raw flash: a source is read, a destination erased and written (mtd_run.h) */
static bool is_mtd(const char *path)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;

	return mtd_run_claims(path, exists && S_ISCHR(st.st_mode), exists ? major(st.st_rdev) : 0);
}

/* both sides the same flash: a copy onto what it reads (mtdN and mtdNro are one device) */
static bool same_node(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return !strcmp(a, b);
	if (S_ISCHR(sa.st_mode) && S_ISCHR(sb.st_mode) && major(sa.st_rdev) == MTD_CHAR_MAJOR &&
	    major(sb.st_rdev) == MTD_CHAR_MAJOR)
		return minor(sa.st_rdev) >> 1 == minor(sb.st_rdev) >> 1;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* "--copy: " before the reason of a side's rule */
static int copy_why(int r, char **ret_why)
{
	struct strbuf why = STRBUF_INIT;

	strbuf_addf(&why, "--copy: %s", *ret_why ? *ret_why : strerror(-r));
	free(*ret_why);
	*ret_why = strbuf_detach(&why);
	return -EINVAL;
}

/* raw flash as the source: read only, so mtd's rules without the write ones */
static int check_mtd_source(const struct run_options *o, char **ret_why)
{
	struct run_options ro = *o;
	int r;

	*ret_why = NULL;
	if (is_mtd(copts(o)->dst) && same_node(copts(o)->src, copts(o)->dst)) {
		reason_set(-EINVAL, ret_why, "--copy: '%s' is both the source and the destination",
			   copts(o)->src);
		return -EINVAL;
	}
	ro.destructive = false;
	r = run_class_mtd.check_target(&ro, copts(o)->src, ret_why);
	return r < 0 ? copy_why(r, ret_why) : 0;
}

/* bytes copied onto raw flash: the size asked, at most what its good eraseblocks hold, whole MiB */
static uint64_t copy_mtd_size(const struct run_options *o, uint64_t cap)
{
	uint64_t size = o->size ? o->size : RUN_QUICK_SIZE;

	/* whole MiB: the source file is written a MiB at a time */
	if (size > cap)
		size = cap;
	return size - size % (1 << 20);
}

/* the refusal of a copy onto flash that holds less than it needs (held: bytes, what holds them) */
static int copy_mtd_too_small(const struct run_options *o, const char *node, uint64_t held,
			      const char *what, char **ret_why)
{
	struct strbuf size = STRBUF_INIT;
	int r;

	if (o->size)
		strbuf_addf(&size, " (--size %llu B)", (unsigned long long)o->size);
	r = reason_set(-EINVAL, ret_why,
		       "--copy to '%s': the copy needs 1 MiB of flash at least; %s %llu B%s", node,
		       what, (unsigned long long)held, size.buf);
	strbuf_release(&size);
	return r;
}

/*
 * The region run would use on the flash (sysfs geometry, nothing opened): a
 * copy that cannot fit is refused before anything is opened or measured
 * (28.9); copy_prepare checks the good eraseblocks once the node is open.
 */
static int check_mtd_room(const struct run_options *o, char **ret_why)
{
	struct strbuf why = STRBUF_INIT;
	struct mtd_geometry g;
	uint64_t len = 0;
	int r = mtd_node_probe(copts(o)->dst, &g, &why);

	if (r == 0) {
		r = mtd_run_region(&g, o->size, o->full, &len, &why);
		mtd_geometry_release(&g);
	}
	if (r < 0) {
		free(*ret_why);
		*ret_why = strbuf_detach(&why);
		return r;
	}
	strbuf_release(&why);
	if (!copy_mtd_size(o, len))
		return copy_mtd_too_small(o, copts(o)->dst, len, "its region holds", ret_why);
	return 0;
}

/* --copy's sides can be used (a DST of raw flash needs --destructive): -EINVAL + why */
static int check_sides(const struct run_options *o, char **ret_why)
{
	uint64_t size = o->size ? o->size : RUN_QUICK_SIZE;
	bool mtd_src = is_mtd(copts(o)->src);
	struct strbuf why = STRBUF_INIT;
	int r;

	if (mtd_src) {
		r = check_mtd_source(o, ret_why);
		if (r < 0)
			return r;
		/* the copy reads at most the flash's region: MTD_DEFAULT_CAP in a full run */
		if (!is_mtd(copts(o)->dst))
			return run_copy_check_dst(
			    copts(o)->dst, size < MTD_DEFAULT_CAP ? size : MTD_DEFAULT_CAP, ret_why);
	} else if (!is_mtd(copts(o)->dst)) {
		return run_copy_check(copts(o)->src, copts(o)->dst, size, ret_why);
	}
	*ret_why = NULL;
	if (!o->destructive) {
		strbuf_addf(&why, "--copy to '%s' erases and writes raw flash: give --destructive",
			    copts(o)->dst);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}
	/* the flash's own rules and room, then room on SRC for a file of at most the flash's cap */
	r = run_class_mtd.check_target(o, copts(o)->dst, ret_why);
	if (r == 0 && !mtd_src)
		r = safety_check_dir(copts(o)->src, size < MTD_DEFAULT_CAP ? size : MTD_DEFAULT_CAP,
				     ret_why);
	return r < 0 ? copy_why(r, ret_why) : check_mtd_room(o, ret_why);
}

static int copy_check_options(const struct run_options *o, char **ret_why)
{
	if (!copts(o)->src)
		return 0;
	if (o->ntargets) {
		*ret_why = xstrdup("--copy SRC DST takes no other targets");
		return -EINVAL;
	}
	return check_sides(o, ret_why);
}

/* --copy SRC DST: both sides as disks (DST raw flash: MTD), and the copy between them; all run measures */
static bool copy_plan_options(const struct run_options *o, struct run_result *r)
{
	struct copy_item *c;
	struct run_plan_item *it;
	struct strbuf t = STRBUF_INIT;

	if (!copts(o)->src)
		return false;
	c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	if (is_mtd(copts(o)->src)) {
		/* raw flash: read as run reads it, never erased or written, --destructive or not */
		it = run_plan_add(r, &run_class_mtd, copts(o)->src, "source", "mtd", false,
				  "--copy: the side read (raw flash, read only)");
		run_class_mtd.plan_target(o, r, it);
		it->read_only = true;
	} else {
		it = run_plan_add(r, &run_class_disk, copts(o)->src, "source", "copy-source", false,
				  "--copy: the side read");
	}
	it->named = true;
	c->src = r->nplan - 1;
	if (is_mtd(copts(o)->dst)) {
		/* raw flash: measured as run measures it, erased and written */
		it = run_plan_add(r, &run_class_mtd, copts(o)->dst, "destination", "mtd", false,
				  "--copy: the side written (raw flash, erased and written)");
		run_class_mtd.plan_target(o, r, it);
	} else {
		it = run_plan_add(r, &run_class_disk, copts(o)->dst, "destination",
				  "copy-destination", false, "--copy: the side written");
	}
	it->named = true;
	c->dst = r->nplan - 1;
	strbuf_addf(&t, "%s -> %s", copts(o)->src, copts(o)->dst);
	it = run_plan_add(r, &run_class_copy, t.buf, "copy", "copy", false,
			  "--copy: the copy from one to the other, cp's way");
	it->named = true;
	it->state = c;
	strbuf_release(&t);
	return true;
}

/* the copy onto raw flash: src (NULL: a file of SRC's), as much as the good eraseblocks hold */
static int copy_to_mtd(const struct run_options *o, const struct run_copy_source *src,
		       const struct run_plan_item *dst, double cap_s, struct copy_item *c,
		       char **ret_why)
{
	struct run_copy_sink sink;
	struct mtd_sink s;
	uint64_t cap = 0, size;
	int rc = mtd_run_copy_sink(dst, &s, &cap);

	if (rc < 0)
		return reason_set(rc, ret_why, "--copy to '%s': %s", dst->path, strerror(-rc));
	size = copy_mtd_size(o, cap);
	if (!size) {
		/* copy_prepare refused this before anything was measured */
		mtd_sink_release(&s);
		return reason_set(-EINVAL, ret_why,
				  "--copy to '%s': its region's good eraseblocks hold less than "
				  "1 MiB",
				  dst->path);
	}
	mtd_sink_as_copy(&s, dst->path, &sink);
	if (src)
		rc = run_copy_from(src, NULL, &sink, cap_s, o->stop, c->rows, &c->n, ret_why);
	else
		rc = run_copy_to(copts(o)->src, &sink, size, cap_s, o->stop, c->rows, &c->n, ret_why);
	signals_set_cleanup(NULL);
	mtd_sink_release(&s);
	return rc;
}

/*
 * Raw flash on either side, opened by its class: what the copy will read or
 * write is known now (the bad-block map), so a copy that cannot be made is
 * refused before the sides are measured, not after (issue 28.9).
 */
static int copy_prepare(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
			char **ret_why)
{
	const struct copy_item *c = it->state;
	const struct run_plan_item *src = &r->plan[c->src], *dst = &r->plan[c->dst];
	uint64_t cap = 0, size = 0;
	int rc;

	if (dst->cls == &run_class_mtd && dst->prepared) {
		struct mtd_sink s;

		rc = mtd_run_copy_sink(dst, &s, &cap);
		if (rc < 0)
			return reason_set(rc, ret_why, "--copy to '%s': %s", dst->path,
					  strerror(-rc));
		mtd_sink_release(&s);
		if (!copy_mtd_size(o, cap))
			return copy_mtd_too_small(
			    o, dst->path, cap, "the good eraseblocks of its region hold", ret_why);
	}
	if (src->cls == &run_class_mtd && src->prepared) {
		struct mtd_source s;

		rc = mtd_run_copy_source(src, o->size ? o->size : RUN_QUICK_SIZE, &s, &size);
		if (rc < 0)
			return reason_set(rc == -ENOSPC ? -EINVAL : rc, ret_why,
					  "--copy from '%s': %s", src->path,
					  rc == -ENOSPC ? "no good eraseblock in its region"
							: strerror(-rc));
		mtd_source_release(&s);
	}
	return 0;
}

/* the copy from raw flash: its good eraseblocks, read only, onto a file of DST's or flash */
static int copy_from_mtd(const struct run_options *o, struct run_result *r,
			 const struct run_plan_item *src, const struct run_plan_item *dst,
			 double cap_s, struct copy_item *c, char **ret_why)
{
	struct run_copy_source source;
	struct mtd_source s;
	uint64_t size = 0, bad = 0;
	int rc = mtd_run_copy_source(src, o->size ? o->size : RUN_QUICK_SIZE, &s, &size);

	if (rc < 0)
		return reason_set(rc, ret_why, "--copy from '%s': %s", src->path,
				  rc == -ENOSPC ? "no good eraseblock in its region"
						: strerror(-rc));
	for (uint64_t b = 0; b < s.nblocks; b++)
		bad += s.bad[b];
	run_note(r,
		 "--copy from %s: %llu B of its good eraseblocks read each time (the region's %llu "
		 "bad eraseblocks skipped), nothing erased or written",
		 src->path, (unsigned long long)size, (unsigned long long)bad);
	mtd_source_as_copy(&s, src->path, &source);
	if (dst->cls == &run_class_mtd)
		rc = copy_to_mtd(o, &source, dst, cap_s, c, ret_why);
	else
		rc = run_copy_from(&source, copts(o)->dst, NULL, cap_s, o->stop, c->rows, &c->n,
				   ret_why);
	mtd_source_release(&s);
	return rc;
}

/* a side of the copy measured: raw flash in the record, a disk with its report */
static bool side_measured(struct run_result *r, const struct run_plan_item *it)
{
	return it->cls == &run_class_mtd ? run_device_find(r, it->device_key) != NULL
					 : run_disk_report(it) != NULL;
}

static int copy_measure(const struct run_options *o, struct run_result *r,
			struct run_plan_item *it, char **ret_why)
{
	struct copy_item *c = it->state;
	const struct run_plan_item *src = &r->plan[c->src], *dst = &r->plan[c->dst];
	double cap_s = o->time_s > 0 ? o->time_s : (o->full ? RUN_FULL_TIME_S : RUN_QUICK_TIME_S);
	int rc;

	/* the sides first: a copy between sides that could not be measured says nothing */
	if (!side_measured(r, src) || !side_measured(r, dst))
		return 0;
	if (src->cls == &run_class_mtd)
		rc = copy_from_mtd(o, r, src, dst, cap_s, c, ret_why);
	else if (dst->cls == &run_class_mtd)
		rc = copy_to_mtd(o, NULL, dst, cap_s, c, ret_why);
	else
		rc = run_copy(copts(o)->src, copts(o)->dst, o->size ? o->size : RUN_QUICK_SIZE, cap_s,
			      o->stop, c->rows, &c->n, ret_why);
	if (rc < 0)
		return rc;
	if (!c->n)
		return 0;
	/* the copy's own device entry: its key ("copy") is the plan's, no side's */
	class_add_device(r, it, "copy");
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
		row->target = copts(o)->dst;
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

/* a copy this much faster than its slower side's own figure: that figure is not to be trusted */
#define COPY_OUTRAN 1.25

/* which side limits the copy, or the copy loop itself */
static void copy_analyze(struct run_result *res)
{
	for (size_t k = 0; k < res->nplan; k++) {
		const struct run_plan_item *it = &res->plan[k];
		const struct copy_item *c = class_item(it, &run_class_copy);
		const struct disk_report *src, *dst = NULL;
		const struct disk_row *rd, *wr = NULL;
		const struct run_copy_row *best = NULL;
		const struct run_plan_item *dit, *sit;
		const char *wr_name = NULL, *rd_name = NULL;
		double wr_mb_s = NAN, rd_mb_s = NAN;
		struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT, fix = STRBUF_INIT;
		const char *side;
		double limit;
		char sz[24];

		if (!c)
			continue;
		sit = &res->plan[c->src];
		dit = &res->plan[c->dst];
		if (sit->cls == &run_class_mtd) {
			/* raw flash read as the copy reads it: its read pass */
			rd_mb_s = mtd_run_read_mb_s(&res->rec, sit->device_key);
			rd_name = "read";
		} else if ((src = run_disk_report(sit)) && (rd = run_disk_best_seq(src, "read"))) {
			rd_mb_s = rd->mb_s;
			rd_name = rd->name;
		}
		if (dit->cls == &run_class_mtd) {
			/* raw flash: the copy erases before it writes, so both times count */
			wr_mb_s = mtd_run_erase_write_mb_s(&res->rec, dit->device_key, &wr_name);
		} else if ((dst = run_disk_report(dit)) && (wr = run_disk_best_seq(dst, "write"))) {
			wr_mb_s = wr->mb_s;
			wr_name = wr->name;
		}
		for (size_t i = 0; i < c->n; i++)
			if (!best || c->rows[i].mb_s > best->mb_s)
				best = &c->rows[i];
		if (!best || !(rd_mb_s > 0) || !(wr_mb_s > 0))
			continue;
		limit = rd_mb_s < wr_mb_s ? rd_mb_s : wr_mb_s;
		side = rd_mb_s < wr_mb_s ? "reading the source" : "writing the destination";
		format_size(best->chunk, sz, sizeof(sz));
		strbuf_addf(&ev,
			    "copy %s %.1f MB/s; source %s %s %.1f MB/s; destination %s %s%s %.1f "
			    "MB/s",
			    sz, best->mb_s, sit->path, rd_name, rd_mb_s, dit->path,
			    dit->cls == &run_class_mtd ? "erase + " : "", wr_name, wr_mb_s);
		if (best->mb_s > COPY_OUTRAN * limit) {
			/* a side cannot be slower than the copy through it: its figure is off */
			strbuf_addf(&msg,
				    "the copy (%.1f MB/s) went faster than %s measured alone (%.1f "
				    "MB/s): that side's passes are too short or too unsteady here to "
				    "say which side limits",
				    best->mb_s, side, limit);
			strbuf_adds(&fix, "a larger --size and --time (or --repeat) give steadier "
					  "figures on both sides");
		} else if (best->mb_s >= 0.7 * limit) {
			strbuf_addf(&msg,
				    "the copy is limited by %s: %.1f MB/s of the %.1f MB/s that side "
				    "allows",
				    side, best->mb_s, limit);
			strbuf_addf(&fix,
				    "a faster %s is what speeds the copy up; use %s chunks or more",
				    rd_mb_s < wr_mb_s ? "source" : "destination", sz);
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

/* the verdict: the copy's own finding says which side limits it */
static const char *copy_limiter_of(const struct run_record *r, const struct run_device *d,
				   struct strbuf *ev)
{
	const struct finding *f = finding_list_find(&r->findings, "run.copy_limit", d->key);

	if (!f)
		return RUN_LIMITER_UNKNOWN;
	strbuf_addf(ev, ": %s", f->message);
	return strstr(f->message, "is limited by") ? RUN_LIMITER_MEDIUM : RUN_LIMITER_UNKNOWN;
}

static const struct class_finding_weight copy_weights[] = {
    {"run.copy_limit", RUN_LIMITER_MEDIUM, 30},
};

static const struct class_headline copy_headline[] = {{"", "mb_s"}};

/* report: the copy against its block size ("copy 1M"), beside the disks' read and write */
static enum class_sweep copy_sweep_point(const struct run_metric *m, struct class_sweep_point *ret)
{
	return class_block_point(m, "copy", SWEEP_THIRD, ret);
}

const struct measure_class run_class_copy = {
    .name = "copy",
    .options = copy_options,
    .noptions = sizeof(copy_options) / sizeof(copy_options[0]),
    .opts_size = sizeof(struct copy_opts),
    .check_options = copy_check_options,
    .plan_options = copy_plan_options,
    .prepare = copy_prepare,
    .measure = copy_measure,
    .release = copy_release,
    .analyze = copy_analyze,
    .metrics = copy_metrics,
    .nmetrics = sizeof(copy_metrics) / sizeof(copy_metrics[0]),
    .sweep_point = copy_sweep_point,
    .limiter_of = copy_limiter_of,
    .finding_weights = copy_weights,
    .nfinding_weights = sizeof(copy_weights) / sizeof(copy_weights[0]),
    .headline = copy_headline,
    .nheadline = sizeof(copy_headline) / sizeof(copy_headline[0]),
};

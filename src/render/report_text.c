// SPDX-License-Identifier: MIT
/* The report on a terminal: per device, sweeps as sparklines and every rate as a bar. */
#include "render/report_text.h"
#include "run/class.h"
#include "platform/usb/speed.h"
#include "render/render.h"
#include "render/spark.h"
#include "render/svg.h"
#include "util/xalloc.h"

#include "util/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAR_WIDTH 16

static const char *s_or(const char *s)
{
	return s ? s : "-";
}

static void runs(struct strbuf *out, const struct report_model *m)
{
	for (size_t i = 0; i < m->nruns; i++) {
		const struct run_record *r = &m->runs[i];

		strbuf_addf(out, "run %zu  %s  %s  %s", i + 1, r->id, s_or(r->started_at),
			    s_or(r->env.hostname));
		if (r->env.board)
			strbuf_addf(out, "  %s", r->env.board);
		strbuf_addf(out, "  kernel %s  governor %s\n", s_or(r->env.kernel),
			    s_or(r->env.governor));
	}
}

static void device_header(struct strbuf *out, const struct rm_device *d)
{
	const struct run_device *f = d->first;
	enum usb_speed s;

	strbuf_addf(out, "\n%s", f->port_path ? f->port_path : f->key);
	if (f->product)
		strbuf_addf(out, "  %s", f->product);
	if (f->vid_pid)
		strbuf_addf(out, "  %s", f->vid_pid);
	if (f->speed)
		strbuf_addf(out, "  %s", usb_speed_parse(f->speed, &s) == 0 ? usb_speed_label(s)
									 : f->speed);
	if (f->driver)
		strbuf_addf(out, "  %s", f->driver);
	strbuf_addf(out, "  %s %s\n", s_or(f->kind), s_or(f->target));
	if (f->controller || f->via)
		strbuf_addf(out, "  attached %s%s%s\n", s_or(f->controller), f->via ? " > " : "",
			    f->via ? f->via : "");
	if (f->capable_speed && f->speed && strcmp(f->capable_speed, f->speed) &&
	    usb_speed_parse(f->capable_speed, &s) == 0)
		strbuf_addf(out, "  capable of %s: running slower than it can\n", usb_speed_label(s));
	if (!isnan(d->ceiling_mb_s)) {
		strbuf_adds(out, "  ");
		ceiling_format(out, d->ceiling_mb_s, "MB/s");
		strbuf_addf(out, "%s%s%s\n", d->ceiling_how ? " (" : "",
			    d->ceiling_how ? d->ceiling_how : "", d->ceiling_how ? ")" : "");
	}
	if (d->ref)
		strbuf_addf(out, "  field reference %s (%s), not a limit\n", d->ref->range,
			    d->ref->what);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the index of block in the sorted, distinct blocks[0..n) */
static size_t block_index(const uint64_t *blocks, size_t n, uint64_t block)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (blocks[mid] < block)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* every series' block sizes, sorted, each once; *ret_n of them, and the range of the figures */
static uint64_t *sweep_blocks(const struct rm_device *d, size_t *ret_n, double *ret_top,
			      double *ret_low)
{
	uint64_t *blocks;
	size_t n = 0, k = 0;

	for (size_t i = 0; i < d->nsweeps; i++)
		n += d->sweeps[i].npts;
	blocks = calloc(n + 1, sizeof(*blocks));
	if (!blocks)
		abort();
	for (size_t i = 0; i < d->nsweeps; i++)
		for (size_t j = 0; j < d->sweeps[i].npts; j++) {
			const struct rm_point *p = &d->sweeps[i].pts[j];

			*ret_top = fmax(*ret_top, p->m->value);
			if (p->m->value > 0)
				*ret_low = fmin(*ret_low, p->m->value);
			blocks[k++] = p->block;
		}
	qsort(blocks, n, sizeof(*blocks), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!*ret_n || blocks[*ret_n - 1] != blocks[i])
			blocks[(*ret_n)++] = blocks[i];
	return blocks;
}

/* each series over the union of the block sizes, all on one scale */
static void sweeps(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		   bool utf8)
{
	uint64_t *blocks;
	double *v, top = 0, low = INFINITY, floor_v = 0;
	size_t nb = 0;
	char lo[24], hi[24];
	const char *unit;
	bool log;

	blocks = sweep_blocks(d, &nb, &top, &low);
	if (!nb) {
		free(blocks);
		return;
	}
	v = calloc(nb, sizeof(*v));
	if (!v)
		abort();
	format_size(blocks[0], lo, sizeof(lo));
	format_size(blocks[nb - 1], hi, sizeof(hi));
	/* as on the page: past a 20x span a log scale, so the small figures still show */
	log = svg_log_axis(low, top);
	unit = d->sweeps[0].unit ? d->sweeps[0].unit : "MB/s";
	strbuf_addf(out, "  %s against %s, %s to %s (one %sscale, ", unit,
		    d->axis ? d->axis : RM_AXIS_BLOCK, lo, hi, log ? "log " : "");
	if (log) {
		floor_v = low / 2;
		metric_format(out, low);
		strbuf_adds(out, " to ");
	} else {
		strbuf_adds(out, "top ");
	}
	metric_format(out, top);
	strbuf_addf(out, " %s)\n", unit);
	for (size_t i = 0; i < d->nsweeps; i++) {
		const struct rm_series *s = &d->sweeps[i];
		const struct rm_point *best = NULL;
		char at[24];

		for (size_t k = 0; k < nb; k++)
			v[k] = NAN;
		/* a series' points are by block size: the last of a size is the one drawn */
		for (size_t j = 0; j < s->npts; j++) {
			v[block_index(blocks, nb, s->pts[j].block)] = s->pts[j].m->value;
			if (!best || s->pts[j].m->value > best->m->value)
				best = &s->pts[j];
		}
		strbuf_adds(out, "    ");
		if (m->nruns > 1)
			strbuf_addf(out, "%zu ", s->run + 1);
		strbuf_addf(out, "%-10s ", s->label);
		for (size_t k = 0; log && k < nb; k++)
			if (!isnan(v[k]))
				v[k] = v[k] > floor_v ? log10(v[k] / floor_v) : 0;
		text_sparkline(out, v, nb, log ? log10(top / floor_v) : top, utf8);
		/* at the point's size: a bulk point's name ("in-64K-q8") has no space */
		format_size(best->block, at, sizeof(at));
		strbuf_adds(out, "  best ");
		metric_format(out, best->m->value);
		strbuf_addf(out, " %s at %s\n", unit, at);
	}
	free_all(v, blocks);
}

static double scale_of(const struct rm_device *d, const struct run_metric *x)
{
	if (!isnan(d->ceiling_mb_s) && report_unit_is(x, "MB/s"))
		return d->ceiling_mb_s;
	if (!isnan(d->ceiling_mb_s) && report_unit_is(x, "Mbit/s"))
		return d->ceiling_mb_s * 8;
	/* no ceiling: the device's best figure of that unit */
	return report_device_top(d, report_unit(x));
}

/* the operations a second of the pass: a disk's IOPS, an I2C pass's messages */
static const struct run_metric *ops_metric(const struct rm_pass *p)
{
	const struct run_metric *o = report_pass_unit(p, "IOPS");

	return o ? o : report_pass_unit(p, "msg/s");
}

/*
 * what a rate other than the link's MB/s and Mbit/s is held against: its own
 * ceiling (I2C's payload at the bus clock), NaN if it has none
 */
static double own_ceiling(const struct run_metric *x)
{
	if (report_unit_is(x, "MB/s") || report_unit_is(x, "Mbit/s") || !(x->ceiling > 0))
		return NAN;
	return x->ceiling;
}

static void rate_row(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		     size_t run, const struct rm_row *row, bool utf8)
{
	const struct run_metric *x = row->x;
	const struct run_metric *iops = ops_metric(row->pass),
				*cpu = report_pass_unit(row->pass, NULL);
	double own = own_ceiling(x);
	bool share = !isnan(own) || (!isnan(d->ceiling_mb_s) && !report_unit_is(x, "IOPS"));
	double scale = !isnan(own) ? own : !isnan(d->ceiling_mb_s) && !share ? NAN : scale_of(d, x);
	struct strbuf fig = STRBUF_INIT;
	size_t cols;

	metric_format(&fig, x->value);
	if (!isnan(x->stdev))
		strbuf_addf(&fig, " %s%.*f", utf8 ? "\u00b1" : "+-", metric_prec(x->value),
			    x->stdev);
	strbuf_addf(&fig, " %s", report_unit(x));
	if (report_unit_is(x, "Mbit/s")) {
		/* a network rate in both units, as the page and `run` show it */
		strbuf_adds(&fig, " = ");
		metric_format(&fig, x->value / 8);
		strbuf_adds(&fig, " MB/s");
	}
	if (m->nruns > 1)
		strbuf_addf(out, "  %-3zu %-18s ", run + 1, x->name);
	else
		strbuf_addf(out, "  %-18s ", x->name);
	/* the UTF-8 ± is two bytes, one column */
	cols = fig.len - (utf8 && !isnan(x->stdev));
	strbuf_pad(out, ' ', cols < 24 ? 24 - cols : 0);
	strbuf_adds(out, fig.buf);
	strbuf_adds(out, "  ");
	if (share && scale > 0 && x->value > scale) {
		/* above the ceiling: a bar of its own kind, not a full bar like a real 100 % */
		for (unsigned k = 0; k < BAR_WIDTH; k++)
			strbuf_adds(out, utf8 ? "\u2592" : "!");
	} else {
		text_bar(out, scale > 0 ? x->value / scale : NAN, BAR_WIDTH, utf8);
	}
	/* above the ceiling it is no share to read: the column says so, in its width */
	if (share && scale > 0 && x->value > scale)
		strbuf_adds(out, "  above");
	else if (share && scale > 0)
		strbuf_addf(out, " %5.0f%%", 100 * x->value / scale);
	else
		strbuf_adds(out, "       ");
	if (iops && iops != x)
		strbuf_addf(out, " %9.0f", iops->value);
	else
		strbuf_adds(out, "          ");
	if (cpu) {
		struct strbuf c = STRBUF_INIT;

		metric_format(&c, cpu->value);
		strbuf_addf(out, " %6s", c.buf);
		strbuf_release(&c);
	}
	if (share && scale > 0 && x->value > scale)
		strbuf_adds(out, "  anomaly: above the ceiling, not the bus's figure");
	while (out->len && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	strbuf_addch(out, '\n');
	strbuf_release(&fig);
}

/* a pass watched on the wire (usbmon): its URB size, in-flight and busy figures under it */
static void wire_row(struct strbuf *out, const struct rm_pass *p)
{
	const struct run_metric *sz = report_pass_metric(p, "urb_size"),
				*w = report_pass_metric(p, "wire_mb_s"),
				*in = report_pass_metric(p, "inflight_mean"),
				*busy = report_pass_metric(p, "busy_pct"),
				*lat = report_pass_metric(p, "urb_lat_p99_us"),
				*err = report_pass_metric(p, "usb_errors");
	size_t nbins = 0;
	char b[24];

	if (!sz)
		return;
	format_size((uint64_t)sz->value, b, sizeof(b));
	strbuf_addf(out, "  %-18s  wire: URB %s", "", b);
	if (in)
		strbuf_addf(out, ", in flight %.2f", in->value);
	if (busy)
		strbuf_addf(out, ", bus busy %.1f %%", busy->value);
	if (w)
		strbuf_addf(out, ", %.1f MB/s", w->value);
	if (lat)
		strbuf_addf(out, ", URB p99 %.0f us", lat->value);
	if (err && err->value > 0)
		strbuf_addf(out, ", %.0f USB errors", err->value);
	strbuf_addch(out, '\n');
	/* the URB size histogram, its non-empty bins in the record's order (by size) */
	for (size_t k = 0; k < p->n; k++) {
		const struct run_metric *y = p->v[k];
		const char *label;

		if (strncmp(y->metric, "urb_size_bin_", 13))
			continue;
		label = metric_vocab(y->metric, y->unit).label;
		if (!strncmp(label, "URBs ", 5))
			label += 5;
		if (!nbins++)
			strbuf_addf(out, "  %-18s  URB sizes:", "");
		else
			strbuf_addch(out, ',');
		strbuf_addf(out, " %s %.0f", label, y->value);
	}
	if (nbins)
		strbuf_addch(out, '\n');
}

/* a row per pass: its headline figure with a bar, IOPS and CPU beside it */
static void rates(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		  bool utf8)
{
	bool ceiling = !isnan(d->ceiling_mb_s);
	const char *ops = "IOPS";

	for (size_t i = 0; i < m->nruns; i++)
		for (size_t j = 0; j < d->nrows[i]; j++) {
			const struct rm_row *row = &d->rows[i][j];

			ceiling = ceiling || !isnan(own_ceiling(row->x));
			if (!report_pass_unit(row->pass, "IOPS") &&
			    report_pass_unit(row->pass, "msg/s"))
				ops = "msg/s";
		}
	strbuf_addf(out, "  %s%-18s %24s  %-*s %6s %9s %6s\n", m->nruns > 1 ? "run " : "", "pass",
		    "figure", BAR_WIDTH, ceiling ? "against ceiling" : "against best",
		    ceiling ? "share" : "", ops, "cpu %");
	/* a pass once, by its headline figure, in the record's order */
	for (size_t i = 0; i < m->nruns; i++)
		for (size_t j = 0; j < d->nrows[i]; j++) {
			rate_row(out, m, d, i, &d->rows[i][j], utf8);
			wire_row(out, d->rows[i][j].pass);
		}
}

/* what limits each device, first: one line per device and run */
static void verdicts(struct strbuf *out, const struct report_model *m)
{
	struct rm_verdict_at at = {0};
	bool any = false;

	while (report_next_verdict(m, &at)) {
		if (!any)
			strbuf_adds(out, "\nverdict: what limits each device\n");
		any = true;
		if (m->nruns > 1)
			strbuf_addf(out, "  run %zu", at.run + 1);
		strbuf_addf(out, "  %s  %s: ", at.where, at.v->limiter);
		text_wrap(out, 6, s_or(at.v->evidence));
		/* an uncertain verdict: what to run next, under the newest run's (29.2.11) */
		if (at.next) {
			strbuf_adds(out, "    next: ");
			text_wrap(out, 10, at.next);
		}
	}
}

static void finding_line(struct strbuf *out, const struct finding *f)
{
	strbuf_addf(out, "    %-4s  %s: ", f->severity, s_or(f->subject));
	text_wrap(out, 10, s_or(f->message));
}

/* the findings of run about key (NULL: about none), under heading when there are any */
static void finding_group(struct strbuf *out, const struct finding_list *fl, const char *key,
			  const char *heading)
{
	bool first = true;

	for (size_t j = 0; j < fl->n; j++) {
		const char *a = fl->v[j].about;

		if (key ? !a || strcmp(a, key) : a != NULL)
			continue;
		if (first)
			strbuf_adds(out, heading);
		first = false;
		finding_line(out, &fl->v[j]);
	}
}

/* the findings about a device, by device and then in the record's order */
static int cmp_about(const void *a, const void *b)
{
	const struct finding *x = *(const struct finding *const *)a;
	const struct finding *y = *(const struct finding *const *)b;
	int c = strcmp(x->about, y->about);

	return c ? c : (x > y) - (x < y);
}

/*
 * The findings about each verdict's device, from findings sorted by what
 * they are about: one pass over them, not one per verdict (a run may have
 * a thousand devices and ten thousand findings).
 */
static void by_verdict(struct strbuf *out, const struct run_record *r)
{
	const struct finding_list *fl = &r->findings;
	const struct finding **v = calloc(fl->n + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		abort();
	for (size_t j = 0; j < fl->n; j++)
		if (fl->v[j].about)
			v[n++] = &fl->v[j];
	qsort(v, n, sizeof(*v), cmp_about);
	for (size_t j = 0; j < r->nverdicts; j++) {
		const char *key = r->verdicts[j].device_key;
		size_t lo = 0, hi = n;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(v[mid]->about, key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || strcmp(v[lo]->about, key))
			continue;
		strbuf_addf(out, "  %s (verdict: %s)\n", key, r->verdicts[j].limiter);
		for (; lo < n && !strcmp(v[lo]->about, key); lo++)
			finding_line(out, v[lo]);
	}
	free(v);
}

/* by device, under its verdict; those about no measured figure last */
static void findings(struct strbuf *out, const struct report_model *m)
{
	for (size_t i = 0; i < m->nruns; i++) {
		const struct run_record *r = &m->runs[i];
		const struct finding_list *fl = &r->findings;
		size_t warn = 0;
		bool grouped = r->nverdicts > 0;

		for (size_t j = 0; j < fl->n; j++) {
			warn += !strcmp(fl->v[j].severity, "warn");
			grouped |= fl->v[j].about != NULL;
		}
		strbuf_addf(out, "\nfindings of run %zu: %zu (%zu warn)\n", i + 1, fl->n, warn);
		if (!grouped) {
			for (size_t j = 0; j < fl->n; j++)
				strbuf_addf(out, "  %-4s  %s: %s\n", fl->v[j].severity,
					    s_or(fl->v[j].subject), s_or(fl->v[j].message));
			continue;
		}
		by_verdict(out, r);
		finding_group(out, fl, FINDING_ABOUT_ALL, "  every measured device\n");
		finding_group(out, fl, NULL, "  not about this run's figures\n");
	}
}

/* the run's caveats, and what it found but did not measure */
static void notes(struct strbuf *out, const struct report_model *m)
{
	for (size_t i = 0; i < m->nruns; i++) {
		const struct run_record *r = &m->runs[i];

		if (r->nnotes)
			strbuf_addf(out, "\nnotes of run %zu\n", i + 1);
		for (size_t j = 0; j < r->nnotes; j++) {
			strbuf_adds(out, "  note: ");
			text_wrap(out, 8, r->notes[j].text);
		}
		if (r->nunmeasured)
			strbuf_addf(out, "\nfound by run %zu, not measured\n", i + 1);
		for (size_t j = 0; j < r->nunmeasured; j++) {
			const struct run_unmeasured *u = &r->unmeasured[j];

			strbuf_addf(out, "  %s", u->key);
			if (u->name)
				strbuf_addf(out, "  %s", u->name);
			if (u->product)
				strbuf_addf(out, "  %s", u->product);
			if (u->vid_pid)
				strbuf_addf(out, "  %s", u->vid_pid);
			if (u->speed)
				strbuf_addf(out, "  %s", u->speed);
			strbuf_addf(out, ": %s\n", u->why);
		}
	}
}

static void comparison(struct strbuf *out, const struct report_model *m,
		       const struct compare_result *cmp)
{
	for (size_t i = 1; cmp && i < m->nruns; i++) {
		const struct compare_result *c = &cmp[i - 1];

		struct strbuf line = STRBUF_INIT;

		strbuf_addf(
		    &line,
		    "run %zu against run 1: %s: %llu worse, %llu better, %llu same, "
		    "%llu noise, %llu spread unknown, %llu contended, %llu missing, %llu new",
		    i + 1, c->result, (unsigned long long)c->worse, (unsigned long long)c->better,
		    (unsigned long long)c->same, (unsigned long long)c->noise,
		    (unsigned long long)c->spread_unknown, (unsigned long long)c->contended,
		    (unsigned long long)c->missing, (unsigned long long)c->added);
		strbuf_addch(out, '\n');
		text_wrap(out, 2, line.buf);
		strbuf_release(&line);
		/* what was not judged: why, and what to run next (compare's own words, 29.2.11) */
		for (size_t j = 0; j < c->nunknowns; j++) {
			const struct compare_unknown *u = &c->unknowns[j];

			strbuf_addf(out, "  not judged: %s %s (%s): ", s_or(u->device_key), u->pass,
				    u->metrics);
			text_wrap(out, 8, s_or(u->why));
			if (u->todo) {
				strbuf_adds(out, "    next: ");
				text_wrap(out, 10, u->todo);
			}
		}
		for (size_t j = 0; j < c->nrows; j++) {
			const struct compare_row *r = &c->rows[j];

			if (r->v != VERDICT_WORSE && r->v != VERDICT_BETTER &&
			    !compare_not_judged(r->v))
				continue;
			strbuf_addf(out, "  %-6s %s %s %s: %.1f -> %.1f %s (%+.1f%%)\n", r->verdict,
				    s_or(r->device_key), r->name, r->metric, r->a, r->b,
				    s_or(r->unit), r->change_pct);
		}
		for (size_t j = 0; j < c->ncaveats; j++)
			strbuf_addf(out, "  caveat: %s %s: %s -> %s\n", c->caveats[j].subject,
				    c->caveats[j].what, s_or(c->caveats[j].a), s_or(c->caveats[j].b));
	}
}

void report_text(struct strbuf *out, const struct report_model *m,
		 const struct compare_result *cmp, bool utf8)
{
	strbuf_addf(out, "usbperf report: %zu run%s (MB/s = 10^6 B/s; bars: share of the bus "
			 "ceiling, else of the best)\n",
		    m->nruns, m->nruns > 1 ? "s" : "");
	runs(out, m);
	verdicts(out, m);
	for (size_t i = 0; i < m->ndevices; i++) {
		const struct rm_device *d = &m->devices[i];

		device_header(out, d);
		for (size_t j = 0; j < m->nruns; j++) {
			if (!d->verdict[j])
				continue;
			strbuf_adds(out, "  verdict");
			if (m->nruns > 1)
				strbuf_addf(out, " of run %zu", j + 1);
			strbuf_addf(out, ": %s: ", d->verdict[j]->limiter);
			text_wrap(out, 4, s_or(d->verdict[j]->evidence));
		}
		sweeps(out, m, d, utf8);
		rates(out, m, d, utf8);
	}
	findings(out, m);
	notes(out, m);
	comparison(out, m, cmp);
}

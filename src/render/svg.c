// SPDX-License-Identifier: MIT
/* Inline SVG charts: throughput against block size, and horizontal bars. */
#include "render/svg.h"

#include "render/render.h"
#include "util/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* viewBox of the sweep chart and its plot area */
#define SW 640
#define SH 340
#define PL 84 /* left: the y labels and the axis title */
#define PR 16
#define PT 16
#define PB 58 /* bottom: the x labels and axis title */
/*
 * Chart text is 13 user units on a desktop and 20 on a phone (html.c's CSS),
 * so that it is at least 11 px wherever the chart is drawn; a label placed
 * against an edge is measured at the larger size, about 0.6 em a character.
 */
#define CHAR_W 12.0
#define TEXT_H 20.0

static const char *const run_colors[REPORT_MAX_RUNS] = {
	"#1f5fa8", "#c8501e", "#2e8b57", "#7b3fa0", "#8c6d1f", "#c0306a", "#2b8a9a", "#555555",
};

void html_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': strbuf_adds(out, "&amp;"); break;
		case '<': strbuf_adds(out, "&lt;"); break;
		case '>': strbuf_adds(out, "&gt;"); break;
		case '"': strbuf_adds(out, "&quot;"); break;
		case '\'': strbuf_adds(out, "&#39;"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

const char *svg_run_color(size_t run)
{
	return run_colors[run % REPORT_MAX_RUNS];
}

struct svg_style svg_series_style(size_t nruns, size_t run, enum sweep_role role)
{
	struct svg_style s = {svg_run_color(run), NULL, SVG_MARK_CIRCLE};
	bool write = role == SWEEP_WRITE, third = role == SWEEP_THIRD;

	/* one run: a colour per role; several: a colour per run, a dash per role */
	if (nruns == 1)
		s.color = svg_run_color(write ? 1 : third ? 2 : 0);
	if (write)
		s.dash = "7 4", s.marker = SVG_MARK_SQUARE;
	else if (third)
		s.dash = "2 3", s.marker = SVG_MARK_DIAMOND;
	return s;
}

void svg_mark_open(struct strbuf *out, enum svg_marker marker, double x, double y, double r,
		   const char *fill, const char *stroke, const char *cls)
{
	const char *c = cls ? cls : "";

	switch (marker) {
	case SVG_MARK_CIRCLE:
		strbuf_addf(out, "<circle class=\"mark%s%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.0f\"",
			    *c ? " " : "", c, x, y, r);
		break;
	case SVG_MARK_SQUARE:
		strbuf_addf(out, "<rect class=\"mark%s%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
				 "height=\"%.0f\"",
			    *c ? " " : "", c, x - r, y - r, 2 * r, 2 * r);
		break;
	case SVG_MARK_DIAMOND:
		strbuf_addf(out, "<path class=\"mark%s%s\" d=\"M%.1f %.1fl%.1f %.1fl%.1f %.1fl%.1f "
				 "%.1fz\"",
			    *c ? " " : "", c, x, y - r - 1, r + 1, r + 1, -r - 1, r + 1, -r - 1,
			    -r - 1);
		break;
	}
	if (fill)
		strbuf_addf(out, " fill=\"%s\"", fill);
	if (stroke)
		strbuf_addf(out, " stroke=\"%s\"", stroke);
	strbuf_adds(out, ">");
}

void svg_mark_close(struct strbuf *out, enum svg_marker marker)
{
	strbuf_adds(out, marker == SVG_MARK_CIRCLE   ? "</circle>"
			 : marker == SVG_MARK_SQUARE ? "</rect>"
						     : "</path>");
}

/* 1, 2, 2.5 or 5 times a power of ten, so that about five steps span max */
static double nice_step(double max)
{
	double raw = max / 5, p, f;

	if (!(raw > 0))
		return 1;
	p = pow(10, floor(log10(raw)));
	f = raw / p;
	return p * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10);
}

static void fmt_num(char *buf, size_t n, double v)
{
	if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, n, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.2f", v);
}

/* the spread to draw: min-max when known, else mean +- stdev, else none */
static bool spread(const struct run_metric *m, double *lo, double *hi)
{
	if (!isnan(m->min) && !isnan(m->max) && m->max > m->min) {
		*lo = m->min, *hi = m->max;
		return true;
	}
	if (!isnan(m->stdev) && m->stdev > 0) {
		*lo = m->value - m->stdev, *hi = m->value + m->stdev;
		return true;
	}
	return false;
}

static void mark_title(struct strbuf *out, const struct report_model *model,
		       const struct run_metric *m)
{
	char v[32];

	strbuf_adds(out, "<title>");
	if (model && model->nruns > 1)
		strbuf_addf(out, "run %zu: ", report_model_run_of(model, m) + 1);
	html_escape(out, m->name);
	fmt_num(v, sizeof(v), m->value);
	strbuf_addf(out, ": %s ", v);
	html_escape(out, m->unit);
	if (!isnan(m->stdev)) {
		fmt_num(v, sizeof(v), m->stdev);
		strbuf_addf(out, " \u00b1%s", v);
	}
	if (!isnan(m->min) && !isnan(m->max)) {
		char lo[32], hi[32];

		fmt_num(lo, sizeof(lo), m->min);
		fmt_num(hi, sizeof(hi), m->max);
		strbuf_addf(out, " (min %s, max %s", lo, hi);
		strbuf_addf(out, ", %llu repeats)", (unsigned long long)m->repeats);
	}
	strbuf_adds(out, "</title>");
}

bool svg_log_axis(double lo, double hi)
{
	return lo > 0 && hi > 0 && hi / lo > SVG_LOG_SPAN;
}

bool svg_impossible(double value, double ceiling)
{
	return !isnan(ceiling) && ceiling > 0 && value > ceiling;
}

struct axes {
	double x0, x1; /* log2 of the block sizes at the plot's edges */
	double ymin, ymax; /* ymin: 0 on a linear axis, a power of ten on a log one */
	bool log;
};

static double px(const struct axes *a, uint64_t block)
{
	return PL + (log2((double)block) - a->x0) / (a->x1 - a->x0) * (SW - PL - PR);
}

static double py(const struct axes *a, double v)
{
	double f;

	if (a->log)
		f = (log10(fmax(v, a->ymin)) - log10(a->ymin)) / (log10(a->ymax) - log10(a->ymin));
	else
		f = v / a->ymax;
	return PT + (1 - f) * (SH - PT - PB);
}

/* the 1, 2 or 5 times a power of ten at or above (up) or at or below v > 0 */
static double log_nice(double v, bool up)
{
	static const double m[] = {1, 2, 5, 10};
	double p = pow(10, floor(log10(v))), r = up ? 10 * p : p;

	for (size_t i = 0; i < 4; i++) {
		if (up && m[i] * p >= v * 0.9999 && m[i] * p < r)
			r = m[i] * p;
		if (!up && m[i] * p <= v * 1.0001)
			r = m[i] * p;
	}
	return r;
}

static void sweep_axes(const struct rm_device *d, struct axes *a)
{
	uint64_t bmin = UINT64_MAX, bmax = 0;
	double top = 0, low = INFINITY, vlo = INFINITY, vhi = 0, lo, hi;

	for (size_t i = 0; i < d->nsweeps; i++) {
		for (size_t j = 0; j < d->sweeps[i].npts; j++) {
			const struct rm_point *p = &d->sweeps[i].pts[j];

			bmin = p->block < bmin ? p->block : bmin;
			bmax = p->block > bmax ? p->block : bmax;
			top = fmax(top, spread(p->m, &lo, &hi) ? hi : p->m->value);
			/* a point's own ceiling (I2C's at its message size) is drawn: room for it
			 */
			if (p->m->ceiling > 0) {
				top = fmax(top, p->m->ceiling);
				low = fmin(low, p->m->ceiling);
			}
			if (p->m->value > 0) {
				vlo = fmin(vlo, p->m->value);
				vhi = fmax(vhi, p->m->value);
				low =
				    fmin(low, spread(p->m, &lo, &hi) && lo > 0 ? lo : p->m->value);
			}
		}
	}
	if (!isnan(d->ceiling_mb_s) && d->ceiling_mb_s > 0) {
		top = fmax(top, d->ceiling_mb_s);
		low = fmin(low, d->ceiling_mb_s);
	}
	if (d->ref && !strcmp(d->ref->kind, "usb-storage"))
		top = fmax(top, d->ref->max_Bps / 1e6);
	/* the measured figures decide: a 4K point at 1/50 of the 1M one is not flattened */
	a->log = svg_log_axis(vlo, vhi);
	if (a->log) {
		a->ymin = log_nice(low, false);
		a->ymax = log_nice(top * 1.05, true);
	} else {
		a->ymin = 0;
		a->ymax = nice_step(top * 1.05) * ceil(top * 1.05 / nice_step(top * 1.05));
	}
	if (!(a->ymax > 0))
		a->ymax = 1;
	/* half a doubling of room either side */
	a->x0 = log2((double)bmin) - 0.5;
	a->x1 = log2((double)bmax) + 0.5;
}

static void y_tick(struct strbuf *out, const struct axes *a, double y)
{
	char v[32];

	fmt_num(v, sizeof(v), y);
	strbuf_addf(out,
		    "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
		    "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    PL, SW - PR, py(a, y), py(a, y), PL - 6, py(a, y) + 5, v);
}

static void y_grid(struct strbuf *out, const struct axes *a, const char *unit)
{
	if (a->log) {
		/* 1, 2 and 5 times each power of ten while there is room, else the powers */
		bool fine = log10(a->ymax / a->ymin) <= 2.5;

		for (double p = pow(10, floor(log10(a->ymin))); p <= a->ymax * 1.0001; p *= 10)
			for (int k = 1; k <= 5; k += k == 1 ? 1 : 3)
				if ((k == 1 || fine) && p * k >= a->ymin * 0.9999 &&
				    p * k <= a->ymax * 1.0001)
					y_tick(out, a, p * k);
	} else {
		double step = nice_step(a->ymax);

		for (double y = 0; y <= a->ymax * 1.0001; y += step)
			y_tick(out, a, y);
	}
	strbuf_addf(out,
		    "<text class=\"axis\" transform=\"translate(20 %d) rotate(-90)\" "
		    "text-anchor=\"middle\">",
		    PT + (SH - PT - PB) / 2);
	html_escape(out, unit);
	if (a->log)
		strbuf_adds(out, ", log scale");
	strbuf_adds(out, "</text>\n");
}

static void x_ticks(struct strbuf *out, const struct axes *a, const char *axis)
{
	char label[24];
	/* a label per doubling while they fit at the phone's size ("128K" is ~48 units) */
	int every = (int)ceil((floor(a->x1) - ceil(a->x0) + 1) * 5 * CHAR_W / (SW - PL - PR));

	if (every < 1)
		every = 1;
	for (double e = ceil(a->x0); e <= a->x1; e += every) {
		uint64_t b = (uint64_t)1 << (int)e;

		format_size(b, label, sizeof(label));
		strbuf_addf(out,
			    "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
			    px(a, b), SH - PB + 22, label);
	}
	strbuf_addf(out, "\n<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s",
		    PL + (SW - PL - PR) / 2, SH - 6, axis ? axis : RM_AXIS_BLOCK);
	if (!axis || !strcmp(axis, RM_AXIS_BLOCK))
		strbuf_adds(out, " (bytes per request, log scale)</text>\n");
	else
		strbuf_adds(out, " (log scale)</text>\n");
}

/* a label's baseline near y, kept inside the plot's top and bottom */
static double label_y(double y)
{
	return fmin(fmax(y, PT + TEXT_H), SH - PB - 6);
}

/* the field reference band (or its "up to" line) and the bus ceiling */
static void limits(struct strbuf *out, const struct rm_device *d, const struct axes *a, bool over)
{
	if (d->ref && !strcmp(d->ref->kind, "usb-storage")) {
		double hi = d->ref->max_Bps / 1e6, lo = d->ref->min_Bps / 1e6;

		if (isnan(lo))
			strbuf_addf(out,
				    "<line class=\"ref\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>",
				    PL, SW - PR, py(a, hi), py(a, hi));
		else
			strbuf_addf(out,
				    "<rect class=\"ref\" x=\"%d\" width=\"%d\" y=\"%.1f\" "
				    "height=\"%.1f\"/>",
				    PL, SW - PR - PL, py(a, hi), py(a, lo) - py(a, hi));
		/* what it is, and that it is no limit, is in the caption */
		strbuf_addf(out, "<text class=\"reflabel\" x=\"%d\" y=\"%.1f\">field reference ",
			    PL + 6, label_y(py(a, hi) + TEXT_H));
		html_escape(out, d->ref->range);
		strbuf_adds(out, "</text>\n");
	}
	if (!isnan(d->ceiling_mb_s) && d->ceiling_mb_s > 0) {
		double y = py(a, d->ceiling_mb_s), ly = label_y(y - 6), ny = ly - TEXT_H - 6;

		strbuf_addf(out,
			    "<line class=\"ceiling\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\">"
			    "<title>",
			    PL, SW - PR, y, y);
		ceiling_format(out, d->ceiling_mb_s, "MB/s");
		if (d->ceiling_how) {
			strbuf_adds(out, " (");
			html_escape(out, d->ceiling_how);
			strbuf_adds(out, ")");
		}
		strbuf_addf(out,
			    "</title></line><text class=\"ceillabel\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">",
			    SW - PR - 4, ly);
		ceiling_format(out, d->ceiling_mb_s, "MB/s");
		strbuf_adds(out, "</text>\n");
		/* a figure above the bus's own ceiling was not carried by that bus */
		if (over)
			strbuf_addf(
			    out,
			    "<text class=\"impossible\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">marks above it: not the bus's figure</text>\n",
			    SW - PR - 4, ny >= PT + TEXT_H ? ny : ly + TEXT_H + 6);
	}
}

static void error_bar(struct strbuf *out, double x, double ylo, double yhi, const char *color)
{
	strbuf_addf(out,
		    "<path class=\"err\" stroke=\"%s\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\"/>",
		    color, x, ylo, yhi, x - 4, ylo, x - 4, yhi);
}

/*
 * Whether two neighbouring points of a series are joined: not across a block
 * size the chart has elsewhere (another run's sweep measured it, this one did
 * not), nor across a wider step than a planned sweep takes (the quick sweep's
 * 16x: 4K, 64K, 1M), which only a pass that did not run leaves.
 */
bool svg_joined(uint64_t a, uint64_t b, const uint64_t *measured, size_t n)
{
	if (!a || b > SVG_JOIN_STEP * a)
		return false;
	for (size_t i = 0; i < n; i++)
		if (measured[i] > a && measured[i] < b)
			return false;
	return true;
}

/* every block size on the chart, for svg_joined(); malloc'ed */
static size_t chart_blocks(const struct rm_device *d, uint64_t **ret)
{
	size_t n = 0;
	uint64_t *v;

	for (size_t i = 0; i < d->nsweeps; i++)
		n += d->sweeps[i].npts;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		abort();
	n = 0;
	for (size_t i = 0; i < d->nsweeps; i++)
		for (size_t j = 0; j < d->sweeps[i].npts; j++)
			v[n++] = d->sweeps[i].pts[j].block;
	*ret = v;
	return n;
}

/* the series' points' own ceilings, when each has one: a thin dashed line in its colour */
static void own_ceiling(struct strbuf *out, const struct rm_series *s, const struct axes *a,
			const char *color)
{
	for (size_t i = 0; i < s->npts; i++)
		if (!(s->pts[i].m->ceiling > 0))
			return;
	if (!s->npts)
		return;
	strbuf_addf(out,
		    "<polyline class=\"own-ceiling\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"1\" stroke-dasharray=\"2 4\" points=\"",
		    color);
	for (size_t i = 0; i < s->npts; i++)
		strbuf_addf(out, "%s%.1f,%.1f", i ? " " : "", px(a, s->pts[i].block),
			    py(a, s->pts[i].m->ceiling));
	strbuf_adds(out, "\"><title>");
	html_escape(out, s->label);
	strbuf_addf(out, ": ceiling %s</title></polyline>\n", s->unit ? s->unit : "");
}

static void series(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		   const struct rm_series *s, const struct axes *a)
{
	struct svg_style st = svg_series_style(m->nruns, s->run, s->role);
	uint64_t *blocks;
	size_t nblocks = chart_blocks(d, &blocks);
	double lo, hi;

	strbuf_addf(out, "<g class=\"series\" data-run=\"%zu\" data-series=\"", s->run + 1);
	html_escape(out, s->label);
	strbuf_adds(out, "\">");
	/* a line through each run of joined points: only measured points are joined */
	for (size_t i = 0; i + 1 < s->npts;) {
		size_t j = i;

		while (j + 1 < s->npts &&
		       svg_joined(s->pts[j].block, s->pts[j + 1].block, blocks, nblocks))
			j++;
		if (j > i) {
			strbuf_addf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"",
				    st.color);
			if (st.dash)
				strbuf_addf(out, " stroke-dasharray=\"%s\"", st.dash);
			strbuf_adds(out, " points=\"");
			for (size_t k = i; k <= j; k++)
				strbuf_addf(out, "%s%.1f,%.1f", k > i ? " " : "",
					    px(a, s->pts[k].block), py(a, s->pts[k].m->value));
			strbuf_adds(out, "\"/>");
		}
		i = j + 1;
	}
	strbuf_adds(out, "\n");
	free(blocks);
	own_ceiling(out, s, a, st.color);
	for (size_t i = 0; i < s->npts; i++) {
		const struct rm_point *p = &s->pts[i];
		double x = px(a, p->block), y = py(a, p->m->value);

		if (spread(p->m, &lo, &hi))
			error_bar(out, x, py(a, lo), py(a, hi), st.color);
		if (svg_impossible(p->m->value, d->ceiling_mb_s)) {
			/* hollow, ringed in the ceiling's red: not a figure of this bus */
			svg_mark_open(out, st.marker, x, y, 6, NULL, st.color, "impossible");
			mark_title(out, m, p->m);
			svg_mark_close(out, st.marker);
			strbuf_addf(out,
				    "<path class=\"impossible-x\" "
				    "d=\"M%.1f %.1fl6 6m0 -6l-6 6\"/>\n",
				    x - 3, y - 3);
			continue;
		}
		/* the series' shape: one point alone still says read, write or copy (29.2.10) */
		svg_mark_open(out, st.marker, x, y, 4, st.color, NULL, NULL);
		mark_title(out, m, p->m);
		svg_mark_close(out, st.marker);
		strbuf_addch(out, '\n');
	}
	strbuf_adds(out, "</g>\n");
}

void svg_sweep_chart(struct strbuf *out, const struct report_model *m,
		     const struct rm_device *d)
{
	struct axes a;
	bool over = false;

	if (!d->nsweeps)
		return;
	sweep_axes(d, &a);
	for (size_t i = 0; i < d->nsweeps; i++)
		for (size_t j = 0; j < d->sweeps[i].npts; j++)
			over =
			    over || svg_impossible(d->sweeps[i].pts[j].m->value, d->ceiling_mb_s);
	strbuf_addf(out,
		    "<svg class=\"chart sweep%s\" viewBox=\"0 0 %d %d\" role=\"img\" "
		    "aria-label=\"throughput against %s\" "
		    "xmlns=\"http://www.w3.org/2000/svg\">\n",
		    a.log ? " log" : "", SW, SH, d->axis ? d->axis : RM_AXIS_BLOCK);
	y_grid(out, &a,
	       !d->sweeps[0].unit || !strcmp(d->sweeps[0].unit, "MB/s") ? "MB/s (10^6 B/s)"
									: d->sweeps[0].unit);
	limits(out, d, &a, over);
	x_ticks(out, &a, d->axis);
	strbuf_addf(out, "<line class=\"frame\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", PL,
		    SW - PR, SH - PB, SH - PB);
	for (size_t i = 0; i < d->nsweeps; i++)
		series(out, m, d, &d->sweeps[i], &a);
	strbuf_adds(out, "</svg>\n");
}

/* ---- horizontal bars ---- */

#define BW 640
#define BR 96 /* right: the figures */
#define ROW 30
/* a capped axis reaches this far past the ceiling */
#define CAP_ROOM 1.3

/* a label's width at the larger (phone) size */
static double text_w(const char *s)
{
	size_t n = 0;

	/* UTF-8: count the characters, not the bytes */
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return (double)n * CHAR_W;
}

void svg_bar_chart(struct strbuf *out, const char *title, const struct svg_bar *bars, size_t n,
		   size_t nruns, const char *unit, double limit, const char *limit_label,
		   double axis_max)
{
	double top = 0, lo, hi, scale, bl = 0, lx, lw, plot;
	bool capped = false;
	int h;
	char v[32];

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		char pre[24] = "";

		if (nruns > 1)
			snprintf(pre, sizeof(pre), "%zu: ", bars[i].run + 1);
		bl = fmax(bl, text_w(pre) + text_w(bars[i].label));
		top = fmax(top, spread(bars[i].m, &lo, &hi) ? hi : bars[i].m->value);
		capped = capped || svg_impossible(bars[i].m->value, limit);
	}
	/* the labels' column: as wide as the longest, within reason */
	bl = fmin(fmax(bl + 14, 120), 300);
	plot = BW - bl - BR;
	if (!isnan(limit))
		top = fmax(top, limit);
	if (!isnan(axis_max))
		top = axis_max;
	/* above the ceiling is not the bus's figure: such bars are cut, the rest keep scale */
	if (capped)
		top = limit * CAP_ROOM;
	if (!(top > 0))
		top = 1;
	scale = plot / top;
	h = (int)n * ROW + 36 + (!isnan(limit) && limit > 0 ? 26 : 0) + (capped ? 32 : 0);
	strbuf_addf(out,
		    "<svg class=\"chart bars\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		    BW, h);
	html_escape(out, title);
	strbuf_adds(out, "\" xmlns=\"http://www.w3.org/2000/svg\">\n");
	for (size_t i = 0; i < n; i++) {
		const struct run_metric *m = bars[i].m;
		const char *color = svg_run_color(nruns > 1 ? bars[i].run : 0);
		double y = 8 + (double)i * ROW, w = fmin(fmax(0, m->value) * scale, plot), end = w;
		bool cut = svg_impossible(m->value, limit);

		strbuf_addf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			    bl - 8, y + 19);
		if (nruns > 1)
			strbuf_addf(out, "%zu: ", bars[i].run + 1);
		html_escape(out, bars[i].label);
		strbuf_addf(out,
			    "</text><rect%s x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			    "fill=\"%s\">",
			    cut ? " class=\"impossible\"" : "", bl, y + 4, w, ROW - 8, color);
		mark_title(out, NULL, m);
		strbuf_adds(out, "</rect>");
		if (cut) {
			/* the cut end: a zigzag across the bar */
			strbuf_addf(out, "<path class=\"cut\" d=\"M%.1f %.1fl-6 5l6 5l-6 5l6 5\"/>",
				    bl + w - 3, y + 3);
		} else if (spread(m, &lo, &hi) && hi * scale <= plot) {
			strbuf_addf(out,
				    "<path class=\"err\" stroke=\"#222\" "
				    "d=\"M%.1f %.1fH%.1fM%.1f %.1fv10M%.1f %.1fv10\"/>",
				    bl + lo * scale, y + 15, bl + hi * scale, bl + lo * scale,
				    y + 10, bl + hi * scale, y + 10);
			end = fmax(w, hi * scale);
		}
		fmt_num(v, sizeof(v), m->value);
		strbuf_addf(out, "<text class=\"val%s\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			    cut ? " impossible" : "", bl + end + 6, y + 19, v);
	}
	if (!isnan(limit) && limit > 0) {
		/* the label left of the line, or right of it when there is no room */
		lx = bl + limit * scale;
		lw = text_w(limit_label);
		strbuf_addf(out,
			    "<line class=\"ceiling\" x1=\"%.1f\" x2=\"%.1f\" y1=\"4\" y2=\"%d\"/>"
			    "<text class=\"ceillabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">",
			    lx, lx, (int)n * ROW + 12,
			    lx - lw - 4 >= 0 ? lx - 4 : fmin(lx + 4, BW - lw), (int)n * ROW + 30,
			    lx - lw - 4 >= 0 ? "end" : "start");
		html_escape(out, limit_label);
		strbuf_adds(out, "</text>\n");
	}
	if (capped)
		strbuf_addf(out,
			    "<text class=\"impossible\" x=\"%d\" y=\"%d\" text-anchor=\"end\">"
			    "cut bars: above the ceiling, not the bus's figure</text>\n",
			    BW - 4, h - 32);
	strbuf_addf(out, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		    bl + plot / 2, h - 6);
	html_escape(out, unit);
	strbuf_adds(out, "</text></svg>\n");
}

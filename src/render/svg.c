// SPDX-License-Identifier: MIT
/* Inline SVG charts: throughput against block size, and horizontal bars. */
#include "render/svg.h"

#include "util/parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* viewBox of the sweep chart and its plot area */
#define SW 640
#define SH 320
#define PL 64  /* left: the y labels */
#define PR 16
#define PT 16
#define PB 44 /* bottom: the x labels and axis title */

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

struct svg_style svg_series_style(size_t nruns, size_t run, const char *label)
{
	struct svg_style s = {svg_run_color(run), NULL};
	bool write = !strcmp(label, "seq-write"), copy = !strcmp(label, "copy");

	/* one run: a colour per direction; several: a colour per run, a dash per direction */
	if (nruns == 1)
		s.color = svg_run_color(write ? 1 : copy ? 2 : 0);
	if (write)
		s.dash = "7 4";
	else if (copy)
		s.dash = "2 3";
	return s;
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

struct axes {
	double x0, x1; /* log2 of the block sizes at the plot's edges */
	double ymax;
};

static double px(const struct axes *a, uint64_t block)
{
	return PL + (log2((double)block) - a->x0) / (a->x1 - a->x0) * (SW - PL - PR);
}

static double py(const struct axes *a, double v)
{
	return PT + (1 - v / a->ymax) * (SH - PT - PB);
}

static void sweep_axes(const struct rm_device *d, struct axes *a)
{
	uint64_t bmin = UINT64_MAX, bmax = 0;
	double top = 0, lo, hi;

	for (size_t i = 0; i < d->nsweeps; i++) {
		for (size_t j = 0; j < d->sweeps[i].npts; j++) {
			const struct rm_point *p = &d->sweeps[i].pts[j];

			bmin = p->block < bmin ? p->block : bmin;
			bmax = p->block > bmax ? p->block : bmax;
			top = fmax(top, spread(p->m, &lo, &hi) ? hi : p->m->value);
		}
	}
	if (!isnan(d->ceiling_mb_s))
		top = fmax(top, d->ceiling_mb_s);
	if (d->ref && !strcmp(d->ref->kind, "usb-storage"))
		top = fmax(top, d->ref->max_Bps / 1e6);
	a->ymax = nice_step(top * 1.05) * ceil(top * 1.05 / nice_step(top * 1.05));
	if (!(a->ymax > 0))
		a->ymax = 1;
	/* half a doubling of room either side */
	a->x0 = log2((double)bmin) - 0.5;
	a->x1 = log2((double)bmax) + 0.5;
}

static void y_grid(struct strbuf *out, const struct axes *a, const char *unit)
{
	double step = nice_step(a->ymax);
	char v[32];

	for (double y = 0; y <= a->ymax * 1.0001; y += step) {
		fmt_num(v, sizeof(v), y);
		strbuf_addf(out,
			    "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			    PL, SW - PR, py(a, y), py(a, y), PL - 6, py(a, y) + 4, v);
	}
	strbuf_addf(out,
		    "<text class=\"axis\" transform=\"translate(14 %d) rotate(-90)\" "
		    "text-anchor=\"middle\">",
		    PT + (SH - PT - PB) / 2);
	html_escape(out, unit);
	strbuf_adds(out, "</text>\n");
}

static void x_ticks(struct strbuf *out, const struct axes *a)
{
	char label[24];

	for (double e = ceil(a->x0); e <= a->x1; e++) {
		uint64_t b = (uint64_t)1 << (int)e;

		format_size(b, label, sizeof(label));
		strbuf_addf(out,
			    "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
			    px(a, b), SH - PB + 16, label);
	}
	strbuf_addf(out,
		    "\n<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">block size "
		    "(bytes per request, log scale)</text>\n",
		    PL + (SW - PL - PR) / 2, SH - 6);
}

/* the field reference band (or its "up to" line) and the bus ceiling */
static void limits(struct strbuf *out, const struct rm_device *d, const struct axes *a)
{
	char v[32];

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
				    PL, SW - PL - PR, py(a, hi), py(a, lo) - py(a, hi));
		strbuf_addf(out, "<text class=\"reflabel\" x=\"%d\" y=\"%.1f\">field reference ",
			    PL + 6, py(a, hi) + 12);
		html_escape(out, d->ref->range);
		strbuf_adds(out, " (");
		html_escape(out, d->ref->what);
		strbuf_adds(out, "), not a limit</text>\n");
	}
	if (!isnan(d->ceiling_mb_s) && d->ceiling_mb_s > 0) {
		snprintf(v, sizeof(v), "%.1f", d->ceiling_mb_s);
		strbuf_addf(out,
			    "<line class=\"ceiling\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"ceillabel\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">"
			    "bus ceiling %s MB/s",
			    PL, SW - PR, py(a, d->ceiling_mb_s), py(a, d->ceiling_mb_s), SW - PR - 4,
			    py(a, d->ceiling_mb_s) - 5, v);
		if (d->ceiling_how) {
			strbuf_adds(out, " (");
			html_escape(out, d->ceiling_how);
			strbuf_adds(out, ")");
		}
		strbuf_adds(out, "</text>\n");
	}
}

static void error_bar(struct strbuf *out, double x, double ylo, double yhi, const char *color)
{
	strbuf_addf(out,
		    "<path class=\"err\" stroke=\"%s\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\"/>",
		    color, x, ylo, yhi, x - 4, ylo, x - 4, yhi);
}

static void series(struct strbuf *out, const struct report_model *m, const struct rm_series *s,
		   const struct axes *a)
{
	struct svg_style st = svg_series_style(m->nruns, s->run, s->label);
	double lo, hi;

	strbuf_addf(out, "<g class=\"series\" data-run=\"%zu\" data-series=\"", s->run + 1);
	html_escape(out, s->label);
	strbuf_addf(out, "\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", st.color);
	if (st.dash)
		strbuf_addf(out, " stroke-dasharray=\"%s\"", st.dash);
	strbuf_adds(out, " points=\"");
	for (size_t i = 0; i < s->npts; i++)
		strbuf_addf(out, "%s%.1f,%.1f", i ? " " : "", px(a, s->pts[i].block),
			    py(a, s->pts[i].m->value));
	strbuf_adds(out, "\"/>\n");
	for (size_t i = 0; i < s->npts; i++) {
		const struct rm_point *p = &s->pts[i];
		double x = px(a, p->block);

		if (spread(p->m, &lo, &hi))
			error_bar(out, x, py(a, lo), py(a, hi), st.color);
		strbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">", x,
			    py(a, p->m->value), st.color);
		mark_title(out, m, p->m);
		strbuf_adds(out, "</circle>\n");
	}
	strbuf_adds(out, "</g>\n");
}

void svg_sweep_chart(struct strbuf *out, const struct report_model *m,
		     const struct rm_device *d)
{
	struct axes a;

	if (!d->nsweeps)
		return;
	sweep_axes(d, &a);
	strbuf_addf(out,
		    "<svg class=\"chart sweep\" viewBox=\"0 0 %d %d\" role=\"img\" "
		    "aria-label=\"throughput against block size\" "
		    "xmlns=\"http://www.w3.org/2000/svg\">\n",
		    SW, SH);
	y_grid(out, &a, "MB/s (10^6 B/s)");
	limits(out, d, &a);
	x_ticks(out, &a);
	strbuf_addf(out, "<line class=\"frame\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", PL,
		    SW - PR, SH - PB, SH - PB);
	for (size_t i = 0; i < d->nsweeps; i++)
		series(out, m, &d->sweeps[i], &a);
	strbuf_adds(out, "</svg>\n");
}

/* ---- horizontal bars ---- */

#define BW 640
#define BL 190 /* left: the labels */
#define BR 70  /* right: the figures */
#define ROW 22

void svg_bar_chart(struct strbuf *out, const char *title, const struct svg_bar *bars, size_t n,
		   size_t nruns, const char *unit, double limit, const char *limit_label,
		   double axis_max)
{
	int h = (int)n * ROW + 44;
	double top = 0, lo, hi, scale;
	char v[32];

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		top = fmax(top, spread(bars[i].m, &lo, &hi) ? hi : bars[i].m->value);
	if (!isnan(limit))
		top = fmax(top, limit);
	if (!isnan(axis_max))
		top = axis_max;
	if (!(top > 0))
		top = 1;
	scale = (BW - BL - BR) / top;
	strbuf_addf(out,
		    "<svg class=\"chart bars\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		    BW, h);
	html_escape(out, title);
	strbuf_adds(out, "\" xmlns=\"http://www.w3.org/2000/svg\">\n");
	for (size_t i = 0; i < n; i++) {
		const struct run_metric *m = bars[i].m;
		const char *color = svg_run_color(nruns > 1 ? bars[i].run : 0);
		double y = 8 + (double)i * ROW, w = fmax(0, m->value) * scale;

		strbuf_addf(out, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			    BL - 8, y + 14);
		if (nruns > 1)
			strbuf_addf(out, "%zu: ", bars[i].run + 1);
		html_escape(out, bars[i].label);
		strbuf_addf(out,
			    "</text><rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			    "fill=\"%s\">",
			    BL, y + 2, w, ROW - 6, color);
		mark_title(out, NULL, m);
		strbuf_adds(out, "</rect>");
		if (spread(m, &lo, &hi))
			strbuf_addf(out,
				    "<path class=\"err\" stroke=\"#222\" "
				    "d=\"M%.1f %.1fH%.1fM%.1f %.1fv8M%.1f %.1fv8\"/>",
				    BL + lo * scale, y + 10, BL + hi * scale, BL + lo * scale, y + 6,
				    BL + hi * scale, y + 6);
		fmt_num(v, sizeof(v), m->value);
		strbuf_addf(out, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			    BL + fmax(w, spread(m, &lo, &hi) ? hi * scale : 0) + 6, y + 14, v);
	}
	if (!isnan(limit) && limit > 0) {
		strbuf_addf(out,
			    "<line class=\"ceiling\" x1=\"%.1f\" x2=\"%.1f\" y1=\"4\" y2=\"%d\"/>"
			    "<text class=\"ceillabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">",
			    BL + limit * scale, BL + limit * scale, h - 30, BL + limit * scale,
			    h - 18);
		html_escape(out, limit_label);
		strbuf_adds(out, "</text>\n");
	}
	strbuf_addf(out, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", BL +
		    (BW - BL - BR) / 2, h - 4);
	html_escape(out, unit);
	strbuf_adds(out, "</text></svg>\n");
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Inline SVG charts for the HTML report: drawn from the report model, sized
 * by a viewBox so they scale to a phone and to paper, with a <title> on
 * every mark (a tooltip, no script) and the figures also in the tables next
 * to them. Colours and dashes come from svg_style() so the HTML legend
 * matches.
 */
#include "report/model.h"
#include "util/strbuf.h"

/* text made safe for HTML and SVG: & < > " ' escaped */
void html_escape(struct strbuf *out, const char *s);

/* how a series is drawn: its colour and dash (NULL: solid) */
/* a series' look: its colour, its line's dash, and its marks' shape, so that one
   point alone (a sweep of one block size) still says read, write or copy */
enum svg_marker { SVG_MARK_CIRCLE, SVG_MARK_SQUARE, SVG_MARK_DIAMOND };
struct svg_style {
	const char *color;
	const char *dash;
	enum svg_marker marker;
};
/* a mark of a point: the series' shape, class "mark" (and cls), a tooltip to follow */
void svg_mark_open(struct strbuf *out, enum svg_marker marker, double x, double y, double r,
		   const char *fill, const char *stroke, const char *cls);
void svg_mark_close(struct strbuf *out, enum svg_marker marker);
struct svg_style svg_series_style(size_t nruns, size_t run, enum sweep_role role);
const char *svg_run_color(size_t run);

/*
 * Throughput against block size (log2 axis) for one device: a line per
 * series, min-max error bars, the bus ceiling as a dashed line and the field
 * reference as a band. Nothing when the device has no sweep.
 */
void svg_sweep_chart(struct strbuf *out, const struct report_model *m,
		     const struct rm_device *d);

/* one horizontal bar: a figure with its spread */
struct svg_bar {
	const char *label; /* "rand-read 4K Q1" */
	size_t run;
	const struct run_metric *m;
};

/*
 * Horizontal bars of one unit with min-max whiskers; limit (NaN: none) is
 * drawn as a dashed line with limit_label; axis_max NaN: from the data.
 */
void svg_bar_chart(struct strbuf *out, const char *title, const struct svg_bar *bars, size_t n,
		   size_t nruns, const char *unit, double limit, const char *limit_label,
		   double axis_max);

/* figures spanning more than this factor get a log axis */
#define SVG_LOG_SPAN 20.0
/* whether values from lo to hi (both > 0) are drawn on a log axis */
bool svg_log_axis(double lo, double hi);
/* a figure above its bus ceiling (NaN: none): drawn as not the bus's figure */
bool svg_impossible(double value, double ceiling);
/* the widest step between block sizes that a sweep's line joins */
#define SVG_JOIN_STEP 16
/* whether a series' neighbouring points at blocks a < b are joined by a line */
bool svg_joined(uint64_t a, uint64_t b, const uint64_t *measured, size_t n);

// SPDX-License-Identifier: MIT
/*
 * The fleet view as a page: a table per board of its devices' headline
 * figures, each with its latest value against its link ceiling, compare's
 * verdict against its first in the range, and a trend: the figure over the
 * runs, its spread as a band, a mark where the kernel changed. Self-contained,
 * no script; a narrow screen scrolls the table, not the page.
 */
#include "render/fleet_html.h"
#include "render/html_priv.h"
#include "render/svg.h"
#include "util/utctime.h"
#include "version.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define TREND_W 240
#define TREND_H 56
#define TREND_PAD 6

static const char fleet_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:8px;"
	"color:#222}h1{font-size:20px;margin:4px 0}h2{font-size:16px;margin:18px 0 6px}"
	".mut{color:#666}.scroll{overflow-x:auto}table{border-collapse:collapse;min-width:100%}"
	"th,td{padding:3px 6px;border-bottom:1px solid #ddd;text-align:left;vertical-align:middle;"
	"white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".worse{color:#b00020;font-weight:600}.better{color:#1b5e20}.anom{color:#b00020}"
	".unk{color:#8a6d00}svg text{font:9px sans-serif;fill:#555}";

static const char *verdict_class(const struct fleet_row *r)
{
	if (!strcmp(r->verdict, "worse"))
		return "worse";
	if (!strcmp(r->verdict, "better"))
		return "better";
	return compare_not_judged(r->v) && r->runs > 1 ? "unk" : "";
}

static void trend_range(const struct fleet_row *r, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < r->runs; i++) {
		double v = r->points[i].value, sd = r->points[i].stdev;

		sd = isnan(sd) ? 0 : sd;
		*lo = fmin(*lo, v - sd);
		*hi = fmax(*hi, v + sd);
	}
	if (*hi <= *lo) {
		*hi += fabs(*hi) * 0.05 + 1;
		*lo -= fabs(*lo) * 0.05 + 1;
	}
}

/*
 * Where each run stands on the x axis, 0 to 1: by its start time, so a gap
 * of weeks shows as one; by its place in the row where the times cannot be
 * read or are all one
 */
static void trend_x(const struct fleet_row *r, double *x)
{
	time_t t0 = 0, t1 = 0, t;
	bool timed = true;

	for (size_t i = 0; timed && i < r->runs; i++) {
		timed = r->points[i].started_at && utc_time_parse(r->points[i].started_at, &t) == 0;
		t0 = i == 0 || t < t0 ? t : t0;
		t1 = i == 0 || t > t1 ? t : t1;
	}
	for (size_t i = 0; i < r->runs; i++) {
		if (timed && t1 > t0 && utc_time_parse(r->points[i].started_at, &t) == 0)
			x[i] = (double)(t - t0) / (double)(t1 - t0);
		else
			x[i] = r->runs > 1 ? (double)i / (double)(r->runs - 1) : 0.5;
	}
}

/* the series: a band of ±spread, the line, a dot a run (its title: run, date, kernel) */
static void trend(struct strbuf *out, const struct fleet_row *r)
{
	double lo, hi, w = TREND_W - 2 * TREND_PAD, h = TREND_H - 2 * TREND_PAD - 10;
	double *xs = calloc(r->runs ? r->runs : 1, sizeof(*xs));
	size_t n = r->runs;

	if (!xs)
		abort();
	trend_x(r, xs);
	trend_range(r, &lo, &hi);
#define X(i) (TREND_PAD + w * xs[i])
#define Y(v) (TREND_PAD + 10 + h * (hi - (v)) / (hi - lo))
	strbuf_addf(out, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
		    TREND_W, TREND_H, TREND_W, TREND_H);
	/* the band: along its top edge, then back along its bottom one */
	strbuf_adds(out, "<polygon fill=\"#cfe0f5\" points=\"");
	for (size_t k = 0; k < 2 * n; k++) {
		size_t i = k < n ? k : 2 * n - 1 - k;
		double sd = isnan(r->points[i].stdev) ? 0 : r->points[i].stdev;

		strbuf_addf(out, "%.1f,%.1f ", X(i), Y(r->points[i].value + (k < n ? sd : -sd)));
	}
	strbuf_adds(out, "\"/><polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "%.1f,%.1f ", X(i), Y(r->points[i].value));
	strbuf_adds(out, "\"/>");
	for (size_t i = 0; i < n; i++) {
		const struct fleet_point *p = &r->points[i];

		/* the kernel changed here: a mark, and the new one named */
		if (i && p->kernel && r->points[i - 1].kernel &&
		    strcmp(p->kernel, r->points[i - 1].kernel)) {
			strbuf_addf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"10\" y2=\"%d\" "
					 "stroke=\"#999\" stroke-dasharray=\"2,2\"/><text x=\"%.1f\" "
					 "y=\"8\">",
				    X(i), X(i), TREND_H - TREND_PAD, X(i) > TREND_W / 2 ? X(i) - 60 : X(i) + 2);
			html_esc(out, p->kernel);
			strbuf_adds(out, "</text>");
		}
		strbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#1f5fa8\"><title>",
			    X(i), Y(p->value));
		html_esc(out, p->run);
		strbuf_adds(out, " ");
		html_esc(out, p->started_at);
		strbuf_adds(out, " kernel ");
		html_esc(out, p->kernel);
		strbuf_adds(out, ": ");
		html_num(out, p->value, html_prec(p->value));
		strbuf_adds(out, "</title></circle>");
	}
#undef X
#undef Y
	free(xs);
	strbuf_adds(out, "</svg>");
}

static void row(struct strbuf *out, const struct fleet_row *r)
{
	strbuf_adds(out, "<tr><td>");
	html_esc(out, r->device);
	strbuf_adds(out, "</td><td>");
	html_esc(out, r->pass);
	strbuf_adds(out, " <span class=\"mut\">");
	html_esc(out, r->metric);
	strbuf_adds(out, "</span></td><td class=\"n\">");
	html_num(out, r->latest, html_prec(r->latest));
	if (!isnan(r->latest_sd)) {
		strbuf_adds(out, " \u00b1");
		html_num(out, r->latest_sd, html_prec(r->latest));
	}
	strbuf_adds(out, " ");
	html_esc(out, r->unit);
	strbuf_adds(out, "</td><td class=\"n\">");
	if (!isnan(r->share_pct) && r->share_pct > 100)
		strbuf_addf(out, "<span class=\"anom\">above its %.1f ceiling: anomaly</span>",
			    r->ceiling);
	else if (!isnan(r->share_pct))
		strbuf_addf(out, "%.0f %% of %.1f", r->share_pct, r->ceiling);
	else
		strbuf_adds(out, "-");
	strbuf_adds(out, "</td><td class=\"n\">");
	html_num(out, r->first, html_prec(r->first));
	if (!isnan(r->change_pct))
		strbuf_addf(out, " (%+.1f %%)", r->change_pct);
	strbuf_addf(out, "</td><td class=\"%s\">", verdict_class(r));
	html_esc(out, r->verdict);
	strbuf_addf(out, "</td><td class=\"n\">%llu</td><td>", (unsigned long long)r->runs);
	trend(out, r);
	strbuf_adds(out, "</td></tr>\n");
}

static void board_table(struct strbuf *out, const struct fleet *f, size_t from, size_t to)
{
	const struct fleet_row *first = &f->rows[from];
	size_t worse = 0;

	for (size_t i = from; i < to; i++)
		worse += !strcmp(f->rows[i].verdict, "worse");
	strbuf_adds(out, "<h2>");
	html_esc(out, first->board);
	strbuf_addf(out, " <span class=\"mut\">%zu figure%s, ", to - from, to - from == 1 ? "" : "s");
	strbuf_addf(out, "%s%zu worse%s", worse ? "</span><span class=\"worse\">" : "", worse,
		    worse ? "</span><span class=\"mut\">" : "");
	html_opt(out, ", machine ", first->machine, "");
	strbuf_adds(out, "</span></h2><div class=\"scroll\"><table><thead><tr><th>device</th>"
			 "<th>pass</th><th>latest</th><th>ceiling</th><th>first (change)</th>"
			 "<th>verdict</th><th>runs</th><th>trend</th></tr></thead><tbody>\n");
	for (size_t i = from; i < to; i++)
		row(out, &f->rows[i]);
	strbuf_adds(out, "</tbody></table></div>\n");
}

void html_fleet(struct strbuf *out, const struct fleet_page *p)
{
	const struct fleet *f = p->fleet;

	strbuf_addf(out, HTML_DOC_START "usbperf fleet: %zu boards</title><style>%s</style></head><body>\n"
			 "<header><h1>usbperf fleet</h1><p class=\"mut\">%zu board%s, %zu device%s",
		    f->boards, fleet_css, f->boards, f->boards == 1 ? "" : "s", f->devices,
		    f->devices == 1 ? "" : "s");
	html_opt(out, " of board ", p->board, "");
	html_opt(out, " \u00b7 since ", p->since, "");
	html_opt(out, " \u00b7 until ", p->until, "");
	strbuf_adds(out, " \u00b7 generated ");
	html_esc(out, p->generated_at);
	strbuf_adds(out, " by usbperf " USBPERF_VERSION " \u00b7 each figure's latest run against its "
			 "first in the range (compare's verdict), its ceiling, and its runs: the "
			 "band is its spread, a dashed line a new kernel \u00b7 MB/s = 10<sup>6"
			 "</sup> B/s</p></header>\n");
	if (!f->nrows)
		strbuf_adds(out, "<p>No run in the history matches: no board to show.</p>\n");
	for (size_t i = 0; i < f->nrows;) {
		size_t j = i + 1;

		while (j < f->nrows && !strcmp(f->rows[j].board, f->rows[i].board))
			j++;
		board_table(out, f, i, j);
		i = j;
	}
	strbuf_adds(out, "</body></html>\n");
}

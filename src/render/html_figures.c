// SPDX-License-Identifier: MIT
/*
 * The report's table of figures for a device: one row per pass and run, one
 * column per metric, each figure with its spread and its share of what it
 * is held against (its own ceiling, else the link's).
 */
#include "run/class.h"
#include "render/html_priv.h"
#include "render/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a histogram's bin: drawn as its own chart, not a column of figures */
static bool is_distribution(const struct run_metric *x)
{
	const struct class_metric *cm = run_class_metric_of(x->test, x->metric);

	return cm && cm->distribution;
}

size_t html_bin_bars(const struct report_model *m, const struct rm_device *d, const char *test,
		     const char *pass, const char *prefix, unsigned maxbins, struct svg_bar *bars,
		     size_t cap)
{
	const struct rm_pass *p[REPORT_MAX_RUNS] = {0};
	size_t n = 0;

	/* the pass of each run once; each bin is then a look in it */
	for (size_t r = 0; r < m->nruns; r++)
		if (d->dev[r])
			p[r] = report_model_pass(m, r, d->dev[r]->key, pass);
	for (unsigned b = 0; b < maxbins; b++) {
		const struct class_metric *cm;
		char key[64];

		snprintf(key, sizeof(key), "%s%u", prefix, b);
		cm = run_class_metric_of(test, key);
		for (size_t r = 0; cm && r < m->nruns; r++) {
			const struct run_metric *x = report_pass_metric(p[r], key);

			if (x && n < cap)
				bars[n++] = (struct svg_bar){cm->label, r, x};
		}
	}
	return n;
}

/* the metric keys a device has in any run, in the order they first appear */

static size_t metric_columns(const struct report_model *m, const struct rm_device *d,
			     const struct run_metric ***ret)
{
	const struct run_metric **cols = NULL;
	size_t n = 0;

	for (size_t i = 0; i < m->nruns; i++) {
		for (size_t j = 0; d->dev[i] && j < m->runs[i].nmetrics; j++) {
			const struct run_metric *x = &m->runs[i].metrics[j];
			bool seen = false;

			if (strcmp(x->device_key, d->dev[i]->key) || is_distribution(x))
				continue;
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(cols[k]->metric, x->metric) &&
				       report_same_unit(cols[k], x);
			if (seen)
				continue;
			cols = realloc(cols, (n + 1) * sizeof(*cols));
			if (!cols)
				abort();
			cols[n++] = x;
		}
	}
	*ret = cols;
	return n;
}

static bool has_ceiling_share(const struct rm_device *d, const struct run_metric *col)
{
	return col->ceiling > 0 ||
	       (!isnan(d->ceiling_mb_s) && d->ceiling_mb_s > 0 &&
		(report_unit_is(col, "MB/s") || report_unit_is(col, "Mbit/s")));
}

/* what x is held against: its own ceiling (a camera's nominal rate), else the link's */
static double ceiling_of(const struct rm_device *d, const struct run_metric *x)
{
	if (x->ceiling > 0)
		return x->ceiling;
	if (report_unit_is(x, "MB/s") || report_unit_is(x, "Mbit/s"))
		return d->ceiling_mb_s * (report_unit_is(x, "Mbit/s") ? 8 : 1);
	return NAN;
}

static void figure_cell(struct strbuf *out, const struct rm_device *d,
			const struct run_metric *x, const struct run_metric *col)
{
	int p;

	strbuf_addf(out, "<td class=\"n\" data-metric=\"%s\">", col->metric);
	if (!x) {
		strbuf_adds(out, "</td>");
		if (has_ceiling_share(d, col))
			strbuf_adds(out, "<td></td>");
		return;
	}
	p = html_prec(x->value);
	html_num(out, x->value, p);
	if (!isnan(x->stdev)) {
		strbuf_adds(out, "<small> \u00b1");
		html_num(out, x->stdev, p);
		strbuf_adds(out, "</small>");
	}
	if (report_unit_is(x, "Mbit/s")) {
		/* a network rate in both units, as `run` prints it */
		strbuf_adds(out, "<br><small class=\"mut\">");
		html_num(out, x->value / 8, html_prec(x->value / 8));
		strbuf_adds(out, " MB/s</small>");
	}
	if (!isnan(x->min) && !isnan(x->max) && x->max > x->min) {
		strbuf_adds(out, "<br><small class=\"mut\">");
		html_num(out, x->min, p);
		strbuf_adds(out, "\u2013");
		html_num(out, x->max, p);
		strbuf_adds(out, "</small>");
	}
	strbuf_adds(out, "</td>");
	if (has_ceiling_share(d, col)) {
		double c = ceiling_of(d, x);

		if (!(c > 0))
			strbuf_adds(out, "<td></td>");
		else if (svg_impossible(x->value, c))
			strbuf_adds(out, "<td class=\"n impossible\">anomaly<br><small>above the "
					 "ceiling: not the bus's figure</small></td>");
		else
			strbuf_addf(out, "<td class=\"n\">%.0f%%</td>", 100 * x->value / c);
	}
}

/* one row per pass and run, one column per metric: every figure kept for it */
void html_figures_table(struct strbuf *out, const struct report_model *m,
			const struct rm_device *d)
{
	const struct run_metric **cols;
	size_t ncols = metric_columns(m, d, &cols);

	strbuf_adds(out, "<div class=\"scroll\"><table class=\"figures\"><tr>");
	if (m->nruns > 1)
		strbuf_adds(out, "<th>run</th>");
	strbuf_adds(out, "<th>pass</th>");
	for (size_t k = 0; k < ncols; k++) {
		struct metric_vocab v = metric_vocab(cols[k]->metric, cols[k]->unit);

		strbuf_adds(out, "<th class=\"n\" data-metric=\"");
		html_esc(out, cols[k]->metric);
		strbuf_adds(out, "\">");
		html_esc(out, v.label);
		strbuf_adds(out, "<br><small>");
		if (v.unit)
			html_esc(out, v.unit);
		strbuf_adds(out, "</small></th>");
		if (has_ceiling_share(d, cols[k]))
			strbuf_adds(out, "<th class=\"n\">of<br><small>ceiling</small></th>");
	}
	strbuf_adds(out, "<th class=\"n\">repeats</th></tr>\n");
	for (size_t i = 0; i < m->nruns; i++) {
		const struct run_record *r = &m->runs[i];

		for (size_t j = 0; d->dev[i] && j < r->nmetrics; j++) {
			const struct run_metric *x = &r->metrics[j];
			const struct rm_pass *p;

			if (strcmp(x->device_key, d->dev[i]->key))
				continue;
			/* a row per pass: at its first metric (the index keeps the record's order) */
			p = report_model_pass(m, i, x->device_key, x->name);
			if (!p || !p->n || p->v[0] != x)
				continue;
			strbuf_adds(out, "<tr>");
			if (m->nruns > 1)
				strbuf_addf(out, "<td>%zu</td>", i + 1);
			html_td(out, x->name);
			for (size_t k = 0; k < ncols; k++)
				figure_cell(out, d, report_pass_metric(p, cols[k]->metric), cols[k]);
			strbuf_addf(out, "<td class=\"n\">%llu</td></tr>\n",
				    (unsigned long long)x->repeats);
		}
	}
	strbuf_adds(out, "</table></div>\n");
	free(cols);
}


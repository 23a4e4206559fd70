// SPDX-License-Identifier: MIT
/*
 * The video class's section of the HTML report (class.h's html_section):
 * per mode, the nominal frame rate next to the achieved one, and how the
 * frame intervals spread around the nominal interval. The generic charts
 * cannot draw these: a rate held against its mode, and a histogram.
 */
#include "classes/video/html_section.h"
#include "run/class.h"
#include "render/html_priv.h"
#include "render/svg.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_video(const struct run_metric *x, const char *key, const char *metric)
{
	return x->device_key && !strcmp(x->device_key, key) && x->test &&
	       !strcmp(x->test, "video") && !strcmp(x->metric, metric);
}

/* labels and stand-in metrics the bars point at, freed together */
struct store {
	char **labels;
	size_t nlabels;
	struct run_metric *nominal;
	size_t nnominal;
};

static const char *keep(struct store *s, const char *a, const char *b)
{
	char *l;
	size_t n = s->nlabels;

	if (asprintf(&l, "%s%s", a, b) < 0)
		abort();
	s->labels = xgrow(s->labels, &n, sizeof(*s->labels));
	s->labels[s->nlabels++] = l;
	return l;
}

static void fps_chart(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		      struct store *st, size_t nfps)
{
	struct svg_bar *bars = calloc(2 * nfps + 1, sizeof(*bars));
	size_t n = 0;

	if (!bars)
		abort();
	st->nominal = calloc(nfps + 1, sizeof(*st->nominal));
	if (!st->nominal)
		abort();
	for (size_t r = 0; r < m->nruns; r++) {
		const struct run_record *rec = &m->runs[r];

		if (!d->dev[r])
			continue;
		for (size_t i = 0; i < rec->nmetrics; i++) {
			const struct run_metric *x = &rec->metrics[i];
			struct run_metric *nom;

			if (!is_video(x, d->dev[r]->key, "fps"))
				continue;
			if (x->ceiling > 0) {
				/* the mode's promise, drawn as a bar of its own without spread */
				nom = &st->nominal[st->nnominal++];
				*nom = *x;
				nom->value = x->ceiling;
				nom->stdev = nom->min = nom->max = NAN;
				bars[n++] = (struct svg_bar){keep(st, x->name, " nominal"), r, nom};
			}
			bars[n++] = (struct svg_bar){keep(st, x->name, " achieved"), r, x};
		}
	}
	strbuf_adds(out, "<figure><h3>Frame rate: nominal and achieved, per mode</h3>"
			 "<div class=\"scroll\">");
	svg_bar_chart(out, "frame rate", bars, n, m->nruns, "frames/s", NAN, NULL, NAN);
	strbuf_adds(out, "</div><figcaption>Achieved: good frames per second from the driver's "
			 "buffer timestamps over the pass.</figcaption></figure>\n");
	free(bars);
}

/* one chart per mode: how many intervals fell in each bin, each run in its colour */
static void interval_chart(struct strbuf *out, const struct report_model *m,
			   const struct rm_device *d, const char *mode)
{
	struct svg_bar bars[REPORT_MAX_RUNS * 16];
	size_t n = html_bin_bars(m, d, "video", mode, "interval_bin_", 16, bars,
				 sizeof(bars) / sizeof(bars[0]));

	if (!n)
		return;
	strbuf_adds(out, "<figure><h3>Frame intervals, ");
	html_esc(out, mode);
	strbuf_adds(out, "</h3><div class=\"scroll\">");
	svg_bar_chart(out, "frame intervals", bars, n, m->nruns, "intervals", NAN, NULL, NAN);
	strbuf_adds(out, "</div><figcaption>Intervals between good frames in multiples of the "
			 "mode's nominal interval: all near 1x is a steady stream; counts at 2x "
			 "and more are frames that never came.</figcaption></figure>\n");
}

void video_html_section(struct strbuf *out, const struct report_model *m,
			const struct rm_device *d)
{
	struct store st = {0};
	const char **modes = NULL;
	size_t nfps = 0, nmodes = 0;

	for (size_t r = 0; r < m->nruns; r++) {
		const struct run_record *rec = &m->runs[r];

		for (size_t i = 0; d->dev[r] && i < rec->nmetrics; i++) {
			const struct run_metric *x = &rec->metrics[i];
			size_t k;

			if (!is_video(x, d->dev[r]->key, "fps"))
				continue;
			nfps++;
			for (k = 0; k < nmodes && strcmp(modes[k], x->name); k++)
				;
			if (k == nmodes) {
				size_t n = nmodes;

				modes = xgrow(modes, &n, sizeof(*modes));
				modes[nmodes++] = x->name;
			}
		}
	}
	if (!nfps)
		return;
	fps_chart(out, m, d, &st, nfps);
	for (size_t k = 0; k < nmodes; k++)
		interval_chart(out, m, d, modes[k]);
	for (size_t i = 0; i < st.nlabels; i++)
		free(st.labels[i]);
	free_all(st.labels, st.nominal, modes);
}

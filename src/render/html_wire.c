// SPDX-License-Identifier: MIT
/*
 * The report's URB size histograms (usbmon, --monitor and run's monitored
 * passes): per pass, how many URBs of each power-of-two size the data
 * endpoint completed, each run in its colour. Folded away under the device
 * (a disk has a pass per block size): opened, they show whether the requests
 * went on the wire whole or split at a cap.
 */
#include "run/class.h"
#include "render/html_priv.h"
#include "render/svg.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIN_PREFIX "urb_size_bin_"
#define MAX_BINS 40

static bool is_bin(const struct run_metric *x, const char *key)
{
	return x->device_key && !strcmp(x->device_key, key) && x->metric &&
	       !strncmp(x->metric, BIN_PREFIX, strlen(BIN_PREFIX));
}

/* one pass's bins, every run's, smallest size first */
static void pass_chart(struct strbuf *out, const struct report_model *m, const struct rm_device *d,
		       const char *test, const char *pass)
{
	struct svg_bar bars[REPORT_MAX_RUNS * MAX_BINS];
	size_t n = html_bin_bars(m, d, test, pass, BIN_PREFIX, MAX_BINS, bars,
				 sizeof(bars) / sizeof(bars[0]));

	if (!n)
		return;
	strbuf_adds(out, "<figure><h4>");
	html_esc(out, pass);
	strbuf_adds(out, "</h4><div class=\"scroll\">");
	svg_bar_chart(out, "URB sizes", bars, n, m->nruns, "URBs", NAN, NULL, NAN);
	strbuf_adds(out, "</div></figure>\n");
}

void html_wire_section(struct strbuf *out, const struct report_model *m, const struct rm_device *d)
{
	struct {
		const char *pass, *test;
	} *p = NULL;
	size_t np = 0;

	for (size_t r = 0; r < m->nruns; r++) {
		const struct run_record *rec = &m->runs[r];

		for (size_t i = 0; d->dev[r] && i < rec->nmetrics; i++) {
			const struct run_metric *x = &rec->metrics[i];
			size_t k;

			if (!is_bin(x, d->dev[r]->key) || !x->name || !x->test)
				continue;
			for (k = 0; k < np && strcmp(p[k].pass, x->name); k++)
				;
			if (k < np)
				continue;
			p = xgrow(p, &np, sizeof(*p));
			p[np - 1].pass = x->name;
			p[np - 1].test = x->test;
		}
	}
	if (np) {
		strbuf_addf(
		    out, "<details><summary>URB sizes on the wire (usbmon), %zu pass%s</summary>\n",
		    np, np == 1 ? "" : "es");
		for (size_t k = 0; k < np; k++)
			pass_chart(out, m, d, p[k].test, p[k].pass);
		strbuf_adds(out,
			    "<p class=\"note\">The data endpoint's completed URBs by size, "
			    "powers of two: one bar at the request's size is a request that went "
			    "on the wire whole; bars at a smaller size are requests split at a "
			    "cap (max_sectors_kb, the driver's).</p></details>\n");
	}
	free(p);
}

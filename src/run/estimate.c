// SPDX-License-Identifier: MIT
/* How long a run takes, said before it starts (estimate.h). */
#include "run/estimate.h"
#include "util/strbuf.h"

#include <math.h>
#include <string.h>

void estimate_add_other(struct estimate *e, const char *what, unsigned passes, double pass_s)
{
	size_t k;

	if (!passes)
		return;
	for (k = 0; k < e->nother; k++)
		if (!strcmp(e->other[k].what, what))
			break;
	if (k == e->nother) {
		if (e->nother == ESTIMATE_OTHERS)
			return;
		e->other[e->nother++] = (struct estimate_other){what, 0, 0};
	}
	e->other[k].passes += passes;
	if (pass_s > e->other[k].pass_s)
		e->other[k].pass_s = pass_s;
}

static void add_duration(struct strbuf *out, double s)
{
	if (s < 10)
		strbuf_addf(out, "%g s", round(s * 10) / 10);
	else if (s < 90)
		strbuf_addf(out, "%.0f s", s);
	else if (s < 5400)
		strbuf_addf(out, "%.0f min", s / 60);
	else
		strbuf_addf(out, "%.1f h", s / 3600);
}

void estimate_describe(const struct estimate *e, struct strbuf *out)
{
	double fixed = 0;
	size_t k;

	for (k = 0; k < e->nother; k++)
		fixed += e->other[k].passes * e->other[k].pass_s;
	if (!e->passes && !fixed)
		return;
	if (e->floor_s == e->cap_s) {
		strbuf_adds(out, "about ");
		add_duration(out, e->cap_s + fixed);
	} else {
		if (e->floor_s + fixed > 0) {
			strbuf_adds(out, "at least ");
			add_duration(out, e->floor_s + fixed);
			strbuf_adds(out, ", ");
		}
		strbuf_adds(out, "at most ");
		add_duration(out, e->cap_s + fixed);
	}
	strbuf_adds(out, ":");
	if (e->passes) {
		strbuf_addf(out, " %u %s pass%s of ", e->passes, e->what,
			    e->passes == 1 ? "" : "es");
		if (e->pass_floor_s == e->pass_cap_s)
			strbuf_addf(out, "%g s", e->pass_cap_s);
		else if (e->pass_floor_s > 0)
			strbuf_addf(out, "%g to %g s", e->pass_floor_s, e->pass_cap_s);
		else
			strbuf_addf(out, "up to %g s", e->pass_cap_s);
	}
	for (k = 0; k < e->nother; k++)
		strbuf_addf(out, "%s %u %s pass%s of %g s", e->passes || k ? "," : "",
			    e->other[k].passes, e->other[k].what,
			    e->other[k].passes == 1 ? "" : "es", e->other[k].pass_s);
	if (e->layout_bytes)
		strbuf_addf(out, ", after writing %llu MiB of test data once",
			    (unsigned long long)(e->layout_bytes >> 20));
}

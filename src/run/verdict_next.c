// SPDX-License-Identifier: MIT
/*
 * What to run next where a verdict is uncertain (issue 29.2.11): said with
 * the verdict, from its limiter and the findings about the device; nothing
 * is stored, so a run from the history gets it too.
 */
#include "model/record.h"
#include "run/class.h"

#include <string.h>

/* the device's classes' own advice, the first that has one (class.h's next_step) */
static const char *class_next(const struct run_record *r, const struct run_verdict *v)
{
	const char *seen = NULL, *s;

	for (size_t i = 0; v->device_key && i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];
		const struct measure_class *c;

		if (!m->device_key || !m->test || strcmp(m->device_key, v->device_key) ||
		    (seen && !strcmp(seen, m->test)))
			continue;
		seen = m->test;
		c = run_class_find(m->test);
		if (c && c->next_step && (s = c->next_step(r, v)))
			return s;
	}
	return NULL;
}

const char *run_verdict_next(const struct run_record *r, const struct run_verdict *v)
{
	const char *l = v->limiter ? v->limiter : "";
	const char *own = class_next(r, v);

	if (own)
		return own;
	if (!strcmp(l, RUN_LIMITER_EMULATION))
		return "measure on real hardware, with direct I/O: an emulated link or a cache "
		       "moved this figure";
	if (!strcmp(l, RUN_LIMITER_CPU))
		return "'usbperf run --governor performance', or larger blocks ('usbperf run "
		       "--full' sweeps them); compare the two runs";
	if (strcmp(l, RUN_LIMITER_UNKNOWN))
		return NULL;
	if (run_verdict_says(v, "no throughput figure"))
		return "see the notes for why nothing was measured; 'usbperf list' shows what "
		       "usbperf found";
	if (run_verdict_says(v, "no link ceiling") || run_verdict_says(v, "no endpoint ceiling"))
		return "nothing here sets a ceiling: hold it against an earlier run ('usbperf "
		       "compare BASELINE last'), or against criteria ('usbperf check')";
	return "'usbperf run --full --repeat 3' (every block size, each pass's spread) and "
	       "'usbperf monitor' on its bus during a pass, to see whether the link is busy";
}

bool run_verdict_says(const struct run_verdict *v, const char *what)
{
	return v->evidence && strstr(v->evidence, what);
}

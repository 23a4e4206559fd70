// SPDX-License-Identifier: MIT
/*
 * What to run next where a verdict is uncertain (issue 29.2.11): said with
 * the verdict, from its limiter and the findings about the device; nothing
 * is stored, so a run from the history gets it too.
 */
#include "model/record.h"

#include <string.h>

static bool has_finding(const struct run_record *r, const char *id, const char *key)
{
	for (size_t i = 0; i < r->findings.n; i++)
		if (r->findings.v[i].id && !strcmp(r->findings.v[i].id, id) &&
		    r->findings.v[i].subject && !strcmp(r->findings.v[i].subject, key))
			return true;
	return false;
}

static bool says(const struct run_verdict *v, const char *what)
{
	return v->evidence && strstr(v->evidence, what);
}

const char *run_verdict_next(const struct run_record *r, const struct run_verdict *v)
{
	const char *l = v->limiter ? v->limiter : "";

	if (has_finding(r, "run.not_a_medium", v->device_key))
		return "name the device itself: a USB disk, a card or its mount point ('usbperf "
		       "list' shows them); this target's figures are memory's";
	if (!strcmp(l, RUN_LIMITER_PAGE_CACHE))
		return "run as root, so usbperf drops the page cache before each read pass, or "
		       "'usbperf disk TARGET --mode direct'; then compare the two runs";
	if (!strcmp(l, RUN_LIMITER_EMULATION))
		return "measure on real hardware, with direct I/O: an emulated link or a cache "
		       "moved this figure";
	if (!strcmp(l, RUN_LIMITER_CPU))
		return "'usbperf run --governor performance', or larger blocks ('usbperf run "
		       "--full' sweeps them); compare the two runs";
	if (strcmp(l, RUN_LIMITER_UNKNOWN))
		return NULL;
	if (says(v, "no throughput figure"))
		return "see the notes for why nothing was measured; 'usbperf list' shows what "
		       "usbperf found";
	if (says(v, "no link ceiling") || says(v, "no endpoint ceiling"))
		return "nothing here sets a ceiling: hold it against an earlier run ('usbperf "
		       "compare BASELINE last'), or against criteria ('usbperf check')";
	if (says(v, "adapter, the network or the peer"))
		return "'usbperf net client' against another peer, and 'usbperf list' for the "
		       "adapter's speed and driver";
	return "'usbperf run --full --repeat 3' (every block size, each pass's spread) and "
	       "'usbperf monitor' on its bus during a pass, to see whether the link is busy";
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: criteria files (hand-written JSON from a board farm)
 * through criteria_parse, the strict reader. A refusal says why on one
 * line; what is accepted holds the promises check.c relies on (a metric, a
 * bound, min <= max, device and name set), and evaluates against a small
 * run, with JUnit and LAVA rendered from the result, without a crash.
 */
#include "check/check.h"
#include "render/junit.h"
#include "render/lava.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sample(struct run_record *r)
{
	struct run_device *d;
	struct run_metric *m;

	memset(r, 0, sizeof(*r));
	r->id = strdup("20261130T051200Z-3f2a");
	d = run_record_add_device(r);
	d->key = strdup("2-1");
	d->kind = strdup("usb-storage");
	d->vid_pid = strdup("0781:5583");
	d->ceiling_mb_s = 400;
	m = run_record_add_metric(r, "2-1", "disk", "seq-read 1M", "mb_s", "MB/s", true);
	m->value = 182.4, m->stdev = 1.1, m->min = 181.2, m->max = 183.5;
	m = run_record_add_metric(r, "2-1", "disk", "rand-read 4K", "lat_p99_us", "us", false);
	m->value = 812.5;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct criteria c;
	struct run_record r;
	struct check_result res;

	if (criteria_parse((const char *)data, size, &c, &err) < 0) {
		if (!err.len || strchr(err.buf, '\n'))
			abort();
		strbuf_release(&err);
		return 0;
	}
	if (c.n == 0)
		abort();
	for (size_t i = 0; i < c.n; i++) {
		const struct criterion *k = &c.v[i];

		if (!k->metric || !k->device || !k->name)
			abort();
		if (isnan(k->min) && isnan(k->max) && isnan(k->min_ceiling_pct))
			abort();
		if (!isnan(k->min) && !isnan(k->max) && k->min > k->max)
			abort();
	}
	sample(&r);
	{
		struct check_input in = {.runs = &r, .nruns = 1, .criteria = &c};

		if (check_evaluate(&in, &res) == 0) {
			if (res.checked != res.passed + res.failed + res.missing)
				abort();
			render_junit(&res, false, &out);
			render_junit(&res, true, &out);
			render_lava(&res, &out);
			check_result_release(&res);
		}
	}
	run_record_release(&r);
	criteria_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	return 0;
}

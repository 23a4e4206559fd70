// SPDX-License-Identifier: MIT
/*
 * check: criteria files refused with the exact message, metrics
 * matched by key, port, VID:PID, serial, kind and glob, every kind of
 * bound, missing and optional criteria, baselines; and the JUnit and LAVA
 * writers: escaping, sanitized ids, counts.
 */
#include "unit.h"
#include "check/check.h"
#include "render/junit.h"
#include "render/lava.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR "{\"usbperf_criteria\": 1, \"criteria\": "

/* ---- parsing ---- */

static const struct {
	const char *doc, *err;
} bad_docs[] = {
    {"", "empty file"},
    {"null", "a JSON null where an object {...} is expected"},
    {"null\n", "a JSON null where an object {...} is expected"},
    {"[]", "a JSON array [...] where an object {...} is expected"},
    {"{\"criteria\": []}", "not a criteria file (no \"usbperf_criteria\": 1 at the top)"},
    {"{\"usbperf_criteria\": \"1\", \"criteria\": []}",
     "not a criteria file (no \"usbperf_criteria\": 1 at the top)"},
    {"{\"usbperf_criteria\": 2, \"criteria\": []}", "criteria format 2, this usbperf reads 1"},
    {"{\"usbperf_criteria\": 1}", "no 'criteria' array"},
    {"{\"usbperf_criteria\": 1, \"criteria\": {}}", "no 'criteria' array"},
    {HDR "[]}", "'criteria' is empty: a gate that checks nothing"},
    {HDR "[], \"extra\": 1}", "unknown key 'extra'"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1}]} x",
     "not JSON: more after the document, at line 1, column 69 (byte 68)"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1,}]}",
     "not JSON: unexpected character at line 1, column 66 (byte 65)"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1}, 3]}", "criteria[1]: not an object"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1}, {\"metric\": \"mb_s\", \"min\": 1}, "
	 "{\"metric\": \"mb_s\", \"mni\": 3}]}",
     "criteria[2]: unknown key 'mni'"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": \"30\"}]}", "criteria[0]: 'min' is not a number"},
    {HDR "[{\"metric\": \"mb_s\", \"max\": true}]}", "criteria[0]: 'max' is not a number"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": NaN}]}", "criteria[0]: 'min' is not a finite number"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1}, {\"metric\": \"mb_s\"}]}",
     "criteria[1]: needs one of 'min', 'max', 'min_ceiling_pct'"},
    {HDR "[{\"min\": 1}]}", "criteria[0]: no 'metric'"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 50, \"max\": 20}]}",
     "criteria[0]: 'min' 50 is greater than 'max' 20"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1, \"of\": \"median\"}]}",
     "criteria[0]: 'of' is not \"mean\", \"min\" or \"max\""},
    {HDR "[{\"metric\": \"mb_s\", \"min_ceiling_pct\": 0}]}",
     "criteria[0]: 'min_ceiling_pct' 0 is not above 0 and at most 100"},
    {HDR "[{\"metric\": \"mb_s\", \"min_ceiling_pct\": 101}]}",
     "criteria[0]: 'min_ceiling_pct' 101 is not above 0 and at most 100"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1, \"optional\": 1}]}",
     "criteria[0]: 'optional' is not true or false"},
    {HDR "[{\"metric\": \"\", \"min\": 1}]}", "criteria[0]: 'metric' is empty"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1, \"device\": null}]}",
     "criteria[0]: 'device' is null"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1, \"name\": \"a\\u0001b\"}]}",
     "criteria[0]: 'name' contains a control character"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1, \"id\": \"a\"}, {\"metric\": \"iops\", \"min\": "
	 "1, \"id\": \"a\"}]}",
     "criteria[1]: id 'a' is already criteria[0]'s"},
    {HDR "[{\"metric\": \"mb_s\", \"min\": 1, \"unit\": [\"MB/s\"]}]}",
     "criteria[0]: 'unit' is not a string"},
};

static void test_parse_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_docs); i++) {
		struct criteria c = {.n = 12345};
		struct strbuf err = STRBUF_INIT;
		int r = criteria_parse(bad_docs[i].doc, strlen(bad_docs[i].doc), &c, &err);

		if (r != -EINVAL || strcmp(err.buf, bad_docs[i].err))
			fail_msg("%s: r=%d, err '%s', wanted '%s'", bad_docs[i].doc, r, err.buf,
				 bad_docs[i].err);
		assert_int_equal(c.n, 12345); /* untouched */
		strbuf_release(&err);
	}
}

static void test_parse_too_large(void **state)
{
	size_t n = CRITERIA_MAX_BYTES + 1;
	char *big = malloc(n);
	struct strbuf err = STRBUF_INIT;
	struct criteria c;

	(void)state;
	assert_non_null(big);
	memset(big, ' ', n);
	assert_int_equal(criteria_parse(big, n, &c, &err), -EINVAL);
	assert_string_equal(err.buf, "larger than 1 MiB");
	free(big);
	strbuf_release(&err);
}

static void test_parse_ok(void **state)
{
	static const char doc[] =
	    "{\"usbperf_criteria\": 1, \"description\": \"rock5b gate\", \"criteria\": [\n"
	    " {\"device\": \"2-1\", \"test\": \"disk\", \"name\": \"seq-read 1M\", \"metric\": "
	    "\"mb_s\", \"min\": 30},\n"
	    " {\"device\": \"0781:5583\", \"name\": \"rand-read 4K*\", \"metric\": \"lat_p99_us\", "
	    "\"max\": 2000, \"unit\": \"us\", \"description\": \"p99\"},\n"
	    " {\"metric\": \"mb_s\", \"min_ceiling_pct\": 50.5, \"of\": \"min\", \"optional\": "
	    "true, "
	    "\"id\": \"half\"}]}\n";
	struct strbuf err = STRBUF_INIT;
	struct criteria c;

	(void)state;
	assert_int_equal(criteria_parse(doc, strlen(doc), &c, &err), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].device, "2-1");
	assert_string_equal(c.v[0].test, "disk");
	assert_near(c.v[0].min, 30, 0);
	assert_nan(c.v[0].max);
	assert_int_equal(c.v[0].of, OF_MEAN);
	assert_false(c.v[0].optional);
	assert_string_equal(c.v[1].unit, "us");
	assert_null(c.v[1].test);
	assert_near(c.v[1].max, 2000, 0);
	assert_string_equal(c.v[2].device, "*"); /* defaults */
	assert_string_equal(c.v[2].name, "*");
	assert_string_equal(c.v[2].id, "half");
	assert_near(c.v[2].min_ceiling_pct, 50.5, 0);
	assert_int_equal(c.v[2].of, OF_MIN);
	assert_true(c.v[2].optional);
	assert_int_equal(c.v[2].index, 2);
	criteria_release(&c);
	strbuf_release(&err);
}

/* ---- a run to check ---- */

static struct run_metric *metric(struct run_record *r, const char *dev, const char *name,
				 const char *what, const char *unit, double v, double sd,
				 double min, double max)
{
	struct run_metric *m = run_record_add_metric(r, dev, "disk", name, what, unit,
						     strcmp(what, "lat_p99_us") != 0);

	m->value = v, m->stdev = sd, m->min = min, m->max = max;
	m->repeats = isnan(sd) ? 1 : 3;
	return m;
}

static void sample(struct run_record *r, const char *id)
{
	struct run_device *d;

	memset(r, 0, sizeof(*r));
	r->id = strdup(id);
	r->started_at = strdup("2026-11-30T05:12:00Z");
	r->env.hostname = strdup("rock5b & <co>");
	r->env.kernel = strdup("6.1.75");
	d = run_record_add_device(r);
	d->key = strdup("2-1");
	/* what run calls a raw disk it only reads: a usb-storage all the same */
	d->kind = strdup("usb-storage (read-only)");
	d->vid_pid = strdup("0781:5583");
	d->serial = strdup("4C5300012309");
	d->port_path = strdup("2-1");
	d->product = strdup("Ultra \"Fit\" <3>");
	d->ceiling_mb_s = 400;
	d = run_record_add_device(r);
	d->key = strdup("host");
	d->kind = strdup("host-disk");
	metric(r, "2-1", "seq-read 1M", "mb_s", "MB/s", 182.4, 1.1, 181.2, 183.5);
	metric(r, "2-1", "rand-read 4K", "lat_p99_us", "us", 812.5, 15.2, 799, 829);
	metric(r, "2-1", "rand-read 4K QD32", "lat_p99_us", "us", 2400, NAN, NAN, NAN);
	metric(r, "host", "seq-read 1M", "mb_s", "MB/s", 1450, NAN, NAN, NAN);
}

static void parse_one(const char *crit, struct criteria *c)
{
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_addf(&doc, HDR "[%s]}", crit);
	if (criteria_parse(doc.buf, doc.len, c, &err) < 0)
		fail_msg("%s: %s", crit, err.buf);
	strbuf_release(&doc);
	strbuf_release(&err);
}

/* ---- matching ---- */

static const struct {
	const char *crit;
	bool m[4]; /* each metric of sample() */
} matching[] = {
    {"\"device\": \"2-1\", \"metric\": \"mb_s\"", {1, 0, 0, 0}},
    {"\"device\": \"0781:5583\", \"metric\": \"lat_p99_us\"", {0, 1, 1, 0}},
    {"\"device\": \"0781:5583\", \"name\": \"rand-read 4K\", \"metric\": \"lat_p99_us\"",
     {0, 1, 0, 0}},
    {"\"device\": \"0781:5583\", \"name\": \"rand-read 4K*\", \"metric\": \"lat_p99_us\"",
     {0, 1, 1, 0}},
    {"\"device\": \"4c5300012309\", \"metric\": \"lat_p99_us\"", {0, 1, 1, 0}}, /* any case */
    {"\"device\": \"usb-storage\", \"metric\": \"mb_s\"", {1, 0, 0, 0}},
    {"\"device\": \"host-disk\", \"metric\": \"mb_s\"", {0, 0, 0, 1}},
    {"\"device\": \"usb-storage (read-only)\", \"metric\": \"mb_s\"", {1, 0, 0, 0}},
    {"\"device\": \"usb\", \"metric\": \"mb_s\"", {0, 0, 0, 0}}, /* no partial kinds */
    {"\"device\": \"host\", \"metric\": \"mb_s\"", {0, 0, 0, 1}},
    {"\"device\": \"*\", \"metric\": \"mb_s\"", {1, 0, 0, 1}},
    {"\"metric\": \"mb_s\"", {1, 0, 0, 1}},
    {"\"metric\": \"mb_s\", \"test\": \"disk\"", {1, 0, 0, 1}},
    {"\"metric\": \"mb_s\", \"test\": \"net\"", {0, 0, 0, 0}},
    {"\"metric\": \"mb_s\", \"name\": \"seq-*\"", {1, 0, 0, 1}},
    {"\"metric\": \"mb_s\", \"name\": \"seq-read 4K\"", {0, 0, 0, 0}},
    {"\"metric\": \"mb\"", {0, 0, 0, 0}}, /* metric is exact */
    {"\"device\": \"2-2\", \"metric\": \"mb_s\"", {0, 0, 0, 0}},
    {"\"device\": \"0781\", \"metric\": \"mb_s\"", {0, 0, 0, 0}}, /* no partial ids */
};

static void test_matching(void **state)
{
	struct run_record r;

	(void)state;
	sample(&r, "r1");
	for (size_t i = 0; i < ARRAY_SIZE(matching); i++) {
		struct strbuf crit = STRBUF_INIT;
		struct criteria c;

		strbuf_addf(&crit, "{%s, \"min\": 0}", matching[i].crit);
		parse_one(crit.buf, &c);
		for (size_t j = 0; j < r.nmetrics; j++)
			if (criterion_matches(&c.v[0], &r, &r.metrics[j]) != matching[i].m[j])
				fail_msg("{%s}: metric %zu %s", matching[i].crit, j,
					 matching[i].m[j] ? "not matched" : "matched");
		criteria_release(&c);
		strbuf_release(&crit);
	}
	run_record_release(&r);
}

/* ---- evaluation: one criterion, its rows ---- */

static const struct {
	const char *crit;
	const char *want; /* "result|criterion|note" of each row, "; " between rows */
	int exit_fail;	  /* the result fails */
} evals[] = {
    {"{\"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 30}",
     "pass|>= 30 MB/s|-", 0},
    {"{\"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 200}",
     "fail|>= 200 MB/s|182.4 MB/s below the minimum 200 MB/s", 1},
    {"{\"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 30, "
     "\"max\": 100}",
     "fail|>= 30 MB/s, <= 100 MB/s|182.4 MB/s above the maximum 100 MB/s", 1},
    {"{\"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 182, "
     "\"of\": \"min\"}",
     "fail|min >= 182 MB/s|181.2 MB/s below the minimum 182 MB/s", 1},
    {"{\"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"max\": 183, "
     "\"of\": \"max\"}",
     "fail|max <= 183 MB/s|183.5 MB/s above the maximum 183 MB/s", 1},
    {"{\"device\": \"host\", \"metric\": \"mb_s\", \"min\": 1000, \"of\": \"min\"}",
     "pass|min >= 1000 MB/s|min of the repeats unknown: mean used", 0},
    {"{\"device\": \"2-1\", \"metric\": \"mb_s\", \"min\": 30, \"unit\": \"MiB/s\"}",
     "fail|>= 30 MiB/s|unit is 'MB/s', the criterion wants 'MiB/s'", 1},
    {"{\"device\": \"2-1\", \"metric\": \"mb_s\", \"min\": 30, \"unit\": \"MB/s\"}",
     "pass|>= 30 MB/s|-", 0},
    {"{\"device\": \"2-1\", \"metric\": \"mb_s\", \"min_ceiling_pct\": 40}",
     "pass|>= 40% of ceiling 400.0 MB/s|45.6 % of the ceiling", 0},
    {"{\"device\": \"2-1\", \"metric\": \"mb_s\", \"min_ceiling_pct\": 50}",
     "fail|>= 50% of ceiling 400.0 MB/s|45.6 % of the ceiling, below 50 %", 1},
    {"{\"device\": \"host\", \"metric\": \"mb_s\", \"min_ceiling_pct\": 50}",
     "fail|>= 50% of ceiling|no ceiling: device 'host' has no known link ceiling", 1},
    {"{\"device\": \"2-1\", \"metric\": \"lat_p99_us\", \"min_ceiling_pct\": 50}",
     "fail|>= 50% of ceiling|min_ceiling_pct needs a figure with a ceiling (a MB/s rate, a "
     "network's or a camera's), this one is in 'us' and has none; fail|>= 50% of "
     "ceiling|min_ceiling_pct needs a figure with a ceiling (a MB/s rate, a network's or a "
     "camera's), this one is in 'us' and has none",
     1},
    {"{\"device\": \"0781:5583\", \"name\": \"rand-read 4K*\", \"metric\": \"lat_p99_us\", "
     "\"max\": 2000, \"unit\": \"us\"}",
     "pass|<= 2000 us|-; fail|<= 2000 us|2400 us above the maximum 2000 us", 1},
    {"{\"device\": \"2-2\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 30}",
     "missing|>= 30|no metric matches", 1},
    {"{\"device\": \"2-2\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 30, "
     "\"optional\": true}",
     "skipped|>= 30|no metric matches (optional)", 0},
};

static void rows_text(const struct check_result *res, enum check_source src, struct strbuf *sb)
{
	for (size_t i = 0; i < res->nrows; i++) {
		const struct check_row *r = &res->rows[i];

		if (r->source != src)
			continue;
		strbuf_addf(sb, "%s%s|%s|%s", sb->len ? "; " : "", r->result,
			    r->criterion ? r->criterion : "-", r->note ? r->note : "-");
	}
}

static void test_evaluate(void **state)
{
	struct run_record r;

	(void)state;
	sample(&r, "r1");
	for (size_t i = 0; i < ARRAY_SIZE(evals); i++) {
		struct strbuf got = STRBUF_INIT;
		struct check_result res;
		struct criteria c;
		struct check_input in = {.runs = &r, .nruns = 1, .criteria = &c};

		parse_one(evals[i].crit, &c);
		assert_int_equal(check_evaluate(&in, &res), 0);
		rows_text(&res, SOURCE_CRITERION, &got);
		if (strcmp(got.buf, evals[i].want))
			fail_msg("%s:\n got  %s\n want %s", evals[i].crit, got.buf, evals[i].want);
		if ((strcmp(res.result, "fail") == 0) != (evals[i].exit_fail != 0))
			fail_msg("%s: result %s", evals[i].crit, res.result);
		/* every metric has a row: checked, or measured */
		assert_int_equal(res.checked + res.skipped + res.measured, res.nrows);
		check_result_release(&res);
		criteria_release(&c);
		strbuf_release(&got);
	}
	run_record_release(&r);
}

/* a figure with its own ceiling (a camera's nominal rate) is held against it, in its unit */
static void test_own_ceiling(void **state)
{
	static const struct {
		double pct;
		const char *want;
	} cases[] = {
	    {99, "fail|>= 99% of ceiling 30.00 frames/s|97.0 % of the ceiling, below 99 %"},
	    {95, "pass|>= 95% of ceiling 30.00 frames/s|97.0 % of the ceiling"},
	};
	struct run_record r = {0};
	struct run_metric *m;
	struct run_device *d;

	(void)state;
	d = run_record_add_device(&r);
	d->key = strdup("1-1");
	d->ceiling_mb_s = 40; /* the link's, in MB/s: not what frames per second are held to */
	m = run_record_add_metric(&r, "1-1", "video", "YUYV 640x480 @30", "fps", "frames/s", true);
	m->value = 29.1;
	m->ceiling = 30;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf crit = STRBUF_INIT, got = STRBUF_INIT;
		struct check_result res;
		struct criteria c;
		struct check_input in = {.runs = &r, .nruns = 1, .criteria = &c};

		strbuf_addf(&crit, "{\"metric\": \"fps\", \"min_ceiling_pct\": %g}", cases[i].pct);
		parse_one(crit.buf, &c);
		assert_int_equal(check_evaluate(&in, &res), 0);
		rows_text(&res, SOURCE_CRITERION, &got);
		assert_string_equal(got.buf, cases[i].want);
		check_result_release(&res);
		criteria_release(&c);
		strbuf_release(&crit);
		strbuf_release(&got);
	}
	run_record_release(&r);
}

static void test_counts_and_ids(void **state)
{
	struct run_record r[2];
	struct criteria c;
	struct check_result res;
	struct check_input in = {.runs = r, .nruns = 2, .criteria = &c};

	(void)state;
	sample(&r[0], "r1");
	sample(&r[1], "r2");
	r[1].metrics[0].value = 20; /* r2's seq-read fails */
	parse_one("{\"id\": \"seq\", \"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": "
		  "\"mb_s\", \"min\": 30}, {\"id\": \"lat\", \"name\": \"rand-read*\", \"metric\": "
		  "\"lat_p99_us\", \"max\": 3000}, {\"device\": \"9-9\", \"metric\": \"iops\", "
		  "\"min\": 1, \"optional\": true}",
		  &c);
	assert_int_equal(check_evaluate(&in, &res), 0);
	/* per run: seq, lat x2, host measured, optional skipped */
	assert_int_equal(res.nrows, 10);
	assert_int_equal(res.checked, 6);
	assert_int_equal(res.passed, 5);
	assert_int_equal(res.failed, 1);
	assert_int_equal(res.skipped, 2);
	assert_int_equal(res.measured, 2);
	assert_string_equal(res.result, "fail");
	assert_string_equal(res.rows[0].case_id, "seq"); /* one match: the id alone */
	assert_string_equal(res.rows[1].case_id, "lat.2-1.disk.rand-read 4K.lat_p99_us");
	assert_string_equal(res.rows[3].case_id, "host.disk.seq-read 1M.mb_s");
	assert_string_equal(res.rows[3].result, "measured");
	assert_string_equal(res.rows[4].case_id, "9-9.iops");
	assert_string_equal(res.rows[5].run_id, "r2");
	assert_string_equal(res.rows[5].result, "fail");
	check_result_release(&res);
	criteria_release(&c);
	run_record_release(&r[0]);
	run_record_release(&r[1]);
}

static void test_baseline(void **state)
{
	struct run_record base, run;
	struct check_result res;
	struct check_input in = {.runs = &run,
				 .nruns = 1,
				 .baseline_run = &base,
				 .baseline = "nightly",
				 .threshold_pct = 5};
	struct strbuf got = STRBUF_INIT;

	(void)state;
	sample(&base, "b");
	sample(&run, "r");
	run.metrics[0].value = 150; /* -17.8%, far beyond 2 sd: worse */
	run.metrics[1].value = 830; /* latency +2.2%: same */
	free(run.metrics[2].unit);  /* units differ: cannot compare */
	run.metrics[2].unit = strdup("ms");
	run.nmetrics--; /* host seq-read: not in the run */
	assert_int_equal(check_evaluate(&in, &res), 0);
	rows_text(&res, SOURCE_BASELINE, &got);
	assert_string_equal(got.buf,
			    "fail|baseline nightly: -17.8%|worse: baseline 182.40, beyond 5% and "
			    "the spread; "
			    "pass|baseline nightly: +2.2%|same: baseline 812.50; "
			    "fail|baseline nightly|unknown: baseline 2400.00 (units differ); "
			    "missing|baseline nightly|in the baseline, not in this run");
	assert_string_equal(res.rows[0].case_id, "2-1.disk.seq-read 1M.mb_s.baseline");
	assert_int_equal(res.failed, 2);
	assert_int_equal(res.missing, 1);
	assert_string_equal(res.result, "fail");
	check_result_release(&res);
	/* the run against itself passes */
	in.runs = &base;
	assert_int_equal(check_evaluate(&in, &res), 0);
	assert_string_equal(res.result, "pass");
	assert_int_equal(res.checked, 4);
	check_result_release(&res);
	strbuf_release(&got);
	run_record_release(&base);
	/* the run's strings were shortened by one metric: free it too */
	run.nmetrics++;
	run_record_release(&run);
}

/* 14.2: one pass each side, not sampled: past the threshold is not judged, and says so */
static void test_baseline_spread_unknown(void **state)
{
	struct run_record base, run;
	struct check_result res;
	struct criteria c;
	struct check_input in = {.runs = &run,
				 .nruns = 1,
				 .baseline_run = &base,
				 .baseline = "nightly",
				 .threshold_pct = 5};
	struct strbuf got = STRBUF_INIT;

	(void)state;
	sample(&base, "b");
	sample(&run, "r");
	run.metrics[3].value = 1200; /* host seq-read 1M, one repeat: -17.2% */
	assert_int_equal(check_evaluate(&in, &res), 0);
	rows_text(&res, SOURCE_BASELINE, &got);
	assert_non_null(strstr(got.buf,
			       "skipped|baseline nightly: -17.2%|spread unknown: baseline "
			       "1450.00, beyond 5% but not judged (A the baseline, B this run: "
			       "A: one pass, too short or not sampled for a spread within it; "
			       "B: one pass, too short or not sampled for a spread within it): "
			       "rerun both with --repeat 3, or longer passes (--min-time)"));
	assert_int_equal(res.failed, 0);
	assert_int_equal(res.skipped, 1);
	assert_string_equal(res.result, "pass");
	check_result_release(&res);
	/* sampled in the run only: the baseline's spread is the one missing */
	run.metrics[3].samples = 30;
	run.metrics[3].sample_mean = 1200;
	run.metrics[3].sample_stdev = 10;
	strbuf_reset(&got);
	assert_int_equal(check_evaluate(&in, &res), 0);
	rows_text(&res, SOURCE_BASELINE, &got);
	assert_non_null(strstr(got.buf, "B this run: A: one pass, too short or not sampled for a "
					"spread within it): rerun both with --repeat 3"));
	assert_null(strstr(got.buf, "; B:"));
	check_result_release(&res);
	/* sampled in both, steady: -17.2% is a regression, the check fails */
	base.metrics[3].samples = 30;
	base.metrics[3].sample_mean = 1450;
	base.metrics[3].sample_stdev = 12;
	assert_int_equal(check_evaluate(&in, &res), 0);
	assert_int_equal(res.failed, 1);
	assert_int_equal(res.skipped, 0);
	assert_string_equal(res.result, "fail");
	check_result_release(&res);
	/* a criterion against a fixed limit is judged as ever, whatever the spread */
	run.metrics[3].samples = 0;
	run.metrics[3].sample_mean = run.metrics[3].sample_stdev = NAN;
	parse_one("{\"device\": \"host\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", "
		  "\"min\": 1300}",
		  &c);
	in.criteria = &c;
	assert_int_equal(check_evaluate(&in, &res), 0);
	assert_int_equal(res.failed, 1);
	assert_int_equal(res.skipped, 1);
	assert_string_equal(res.result, "fail");
	check_result_release(&res);
	criteria_release(&c);
	strbuf_release(&got);
	run_record_release(&base);
	run_record_release(&run);
}

/* ---- writers ---- */

static const struct {
	const char *in, *want;
} escapes[] = {
    {"plain", "plain"},
    {"a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&apos;f"},
    {"tab\there\nnl\rcr", "tab&#9;here&#10;nl&#13;cr"},
    {"bell\x07 del\x7f", "bell? del?"},
    {"caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80"},
    {"bad \xff\xfe lead", "bad ?? lead"},
    {"cut \xc3", "cut ?"},
    {"overlong \xc0\xaf", "overlong ??"},
    {"surrogate \xed\xa0\x80", "surrogate ???"},
    {"nonchar \xef\xbf\xbe", "nonchar ???"},
    {"", ""},
};

static void test_xml_escape(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(escapes); i++) {
		struct strbuf sb = STRBUF_INIT;

		xml_escape(&sb, escapes[i].in);
		if (strcmp(sb.buf, escapes[i].want))
			fail_msg("'%s': '%s', wanted '%s'", escapes[i].in, sb.buf, escapes[i].want);
		strbuf_release(&sb);
	}
}

static const struct {
	const char *in;
	bool units;
	const char *want;
} sanitized[] = {
    {"2-1.disk.seq-read 1M.mb_s", false, "2-1.disk.seq-read_1M.mb_s"},
    {"a  b\tc", false, "a_b_c"},
    {"x=1 RESULT=pass>", false, "x_1_RESULT_pass_"},
    {"dir/name", false, "dir_name"},
    {"20261130T051200Z:host+1", false, "20261130T051200Z_host_1"},
    {"caf\xc3\xa9", false, "caf_"},
    {"", false, "_"},
    {"MB/s", true, "MB/s"},
    {"%", true, "%"},
    {"us", true, "us"},
    {"MB /s>", true, "MB_/s_"},
    {"a=b", true, "a_b"},
};

static void test_lava_sanitize(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char long_id[300];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sanitized); i++) {
		strbuf_reset(&sb);
		lava_sanitize(sanitized[i].in, sanitized[i].units, &sb);
		if (strcmp(sb.buf, sanitized[i].want))
			fail_msg("'%s': '%s', wanted '%s'", sanitized[i].in, sb.buf,
				 sanitized[i].want);
	}
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	strbuf_reset(&sb);
	lava_sanitize(long_id, false, &sb);
	assert_int_equal(sb.len, LAVA_ID_MAX);
	strbuf_release(&sb);
}

/*
 * Issue 29.2.2: the checks are the pass/fail test cases; a figure nothing was
 * asked of is a measurement, "unknown" (measured, not judged), in its unit; a
 * CPU number is none.
 */
static void test_lava_render(void **state)
{
	struct run_record r;
	struct criteria c;
	struct check_result res;
	struct check_input in = {.runs = &r, .nruns = 1, .criteria = &c};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	sample(&r, "20261130T051200Z-3f2a");
	metric(&r, "2-1", "seq-read 1M", "irq_share_cpu", "CPU", 1, NAN, NAN, NAN);
	metric(&r, "2-1", "seq-read 1M", "self_cpu_pct", UNIT_PCT_ONE_CPU, 12.5, NAN, NAN, NAN);
	/* two criteria on one metric: one id, told apart by ".2" */
	parse_one("{\"device\": \"2-1\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": "
		  "30}, {\"device\": \"usb-storage\", \"name\": \"seq-read 1M\", \"metric\": "
		  "\"mb_s\", \"max\": 100}, {\"id\": \"gone\", \"device\": \"3-1\", \"metric\": "
		  "\"mb_s\", \"min\": 1}, {\"device\": \"3-1\", \"metric\": \"iops\", \"min\": 1, "
		  "\"optional\": true}",
		  &c);
	assert_int_equal(check_evaluate(&in, &res), 0);
	render_lava(&res, &out);
	assert_string_equal(
	    out.buf,
	    "<LAVA_SIGNAL_TESTSET START 20261130T051200Z-3f2a>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.seq-read_1M.mb_s RESULT=pass "
	    "MEASUREMENT=182.4 UNITS=MB/s>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.seq-read_1M.mb_s.2 RESULT=fail "
	    "MEASUREMENT=182.4 UNITS=MB/s>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.rand-read_4K.lat_p99_us RESULT=unknown "
	    "MEASUREMENT=812.5 UNITS=us>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.rand-read_4K_QD32.lat_p99_us "
	    "RESULT=unknown MEASUREMENT=2400 UNITS=us>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=host.disk.seq-read_1M.mb_s RESULT=unknown "
	    "MEASUREMENT=1450 UNITS=MB/s>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.seq-read_1M.self_cpu_pct RESULT=unknown "
	    "MEASUREMENT=12.5 UNITS=%_of_one_CPU>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=gone RESULT=fail>\n"
	    "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=3-1.iops RESULT=skip>\n"
	    "<LAVA_SIGNAL_TESTSET STOP>\n");
	assert_null(strstr(out.buf, "irq_share_cpu"));
	check_result_release(&res);
	criteria_release(&c);
	/* no criteria: the measurements alone, none of them passing or failing */
	strbuf_reset(&out);
	in.criteria = NULL;
	assert_int_equal(check_evaluate(&in, &res), 0);
	render_lava(&res, &out);
	assert_null(strstr(out.buf, "RESULT=pass"));
	assert_null(strstr(out.buf, "RESULT=fail"));
	assert_null(strstr(out.buf, "UNITS=CPU"));
	assert_non_null(strstr(out.buf, "TEST_CASE_ID=host.disk.seq-read_1M.mb_s RESULT=unknown "
					"MEASUREMENT=1450 UNITS=MB/s>\n"));
	check_result_release(&res);
	run_record_release(&r);
	strbuf_release(&out);
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_junit_render(void **state)
{
	struct run_record r;
	struct criteria c;
	struct check_result res;
	struct check_input in = {.runs = &r, .nruns = 1, .criteria = &c};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	sample(&r, "r1");
	free(r.metrics[0].device_key);
	free(r.devices[0].key);
	r.devices[0].key = strdup("2-1<&>\"");
	r.metrics[0].device_key = strdup("2-1<&>\"");
	parse_one("{\"id\": \"seq<1>\", \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": "
		  "1000}, {\"device\": \"9-9\", \"metric\": \"iops\", \"min\": 1}, {\"device\": "
		  "\"9-9\", \"metric\": \"x\", \"min\": 1, \"optional\": true}",
		  &c);
	assert_int_equal(check_evaluate(&in, &res), 0);
	render_junit(&res, false, &out);
	/* four checks; the two metrics nothing was asked of are counted, not cases */
	assert_non_null(strstr(out.buf, "<testsuites name=\"usbperf check\" tests=\"4\" "
					"failures=\"2\" errors=\"0\" skipped=\"1\">\n"));
	assert_non_null(strstr(out.buf, "<property name=\"measured_not_checked\" value=\"2\"/>"));
	assert_non_null(strstr(out.buf, "<testsuite name=\"r1\" tests=\"4\" failures=\"2\" "
					"errors=\"0\" skipped=\"1\" hostname=\"rock5b &amp; "
					"&lt;co&gt;\" timestamp=\"2026-11-30T05:12:00\">"));
	assert_non_null(strstr(out.buf,
			       "<testcase classname=\"usbperf.2-1&lt;&amp;&gt;&quot;.disk\" "
			       "name=\"seq-read 1M mb_s [seq&lt;1&gt;]\" time=\"0\">\n"
			       "      <failure message=\"&gt;= 1000 MB/s: 182.4 MB/s below the "
			       "minimum 1000 MB/s\" type=\"criterion\"/>"));
	assert_non_null(strstr(out.buf, "type=\"missing\""));
	assert_non_null(strstr(out.buf, "<skipped message="));
	assert_int_equal(count_of(out.buf, "<testcase "), 4);
	assert_int_equal(count_of(out.buf, "<failure "), 2);
	/* nothing unescaped from the untrusted strings */
	assert_null(strstr(out.buf, "<co>"));
	assert_null(strstr(out.buf, "2-1<"));
	check_result_release(&res);
	criteria_release(&c);
	run_record_release(&r);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_errors),  cmocka_unit_test(test_parse_too_large),
	    cmocka_unit_test(test_parse_ok),	  cmocka_unit_test(test_matching),
	    cmocka_unit_test(test_evaluate), cmocka_unit_test(test_own_ceiling),	  cmocka_unit_test(test_counts_and_ids),
	    cmocka_unit_test(test_baseline),	  cmocka_unit_test(test_xml_escape),
	    cmocka_unit_test(test_lava_sanitize), cmocka_unit_test(test_lava_render),
	    cmocka_unit_test(test_junit_render),  cmocka_unit_test(test_baseline_spread_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

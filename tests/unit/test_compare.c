// SPDX-License-Identifier: MIT
/* core/run/compare: noise-aware verdicts, and metrics matched across two runs. */
#include "unit.h"
#include "core/run/compare.h"
#include "run_sample.h"

#include <string.h>

#define X NAN /* unknown */

static const struct {
	const char *what;
	double a, sd_a, b, sd_b;
	bool higher;
	double threshold;
	enum compare_verdict want;
	double change;
} verdicts[] = {
	{"equal", 100, 1, 100, 1, true, 5, VERDICT_SAME, 0},
	{"within the threshold", 100, 0, 104, 0, true, 5, VERDICT_SAME, 4},
	{"at the threshold is not beyond it", 100, 0, 95, 0, true, 5, VERDICT_SAME, -5},
	{"beyond, neither spread known: spread unknown, not worse", 100, X, 90, X, true, 5,
	 VERDICT_SPREAD_UNKNOWN, -10},
	{"beyond, neither spread known: spread unknown, not better", 100, X, 110, X, true, 5,
	 VERDICT_SPREAD_UNKNOWN, 10},
	{"within the threshold, no spread: same", 100, X, 104, X, true, 5, VERDICT_SAME, 4},
	{"beyond, zero spreads (steady repeats): worse", 100, 0, 90, 0, true, 5, VERDICT_WORSE,
	 -10},
	{"beyond the threshold, within 2 sd", 100, 5, 90, 5, true, 5, VERDICT_NOISE, -10},
	{"just within 2 sqrt(sa^2+sb^2)", 100, 3, 90, 4, true, 5, VERDICT_NOISE, -10},
	{"just beyond 2 sqrt(sa^2+sb^2)", 100, 3, 89.9, 4, true, 5, VERDICT_WORSE, -10.1},
	{"A's spread unknown: not judged on B's", 100, X, 90, 3.6, true, 5, VERDICT_SPREAD_UNKNOWN,
	 -10},
	{"B's spread unknown: not judged on A's", 100, 0.5, 80, X, true, 5, VERDICT_SPREAD_UNKNOWN,
	 -20},
	{"beyond the spread, within the threshold", 100, 0.1, 103, 0.1, true, 5, VERDICT_SAME, 3},
	{"lower is better: latency up", 50, 1, 80, 1, false, 5, VERDICT_WORSE, 60},
	{"lower is better: latency down", 50, 1, 20, 1, false, 5, VERDICT_BETTER, -60},
	{"threshold 0: any real change", 100, 0, 100.5, 0, true, 0, VERDICT_BETTER, 0.5},
	{"threshold 50", 100, 0, 60, 0, true, 50, VERDICT_SAME, -40},
	{"from zero: any change counts", 0, 0, 3, 0, false, 5, VERDICT_WORSE, X},
	{"from zero, no spread: spread unknown", 0, X, 3, X, false, 5, VERDICT_SPREAD_UNKNOWN, X},
	{"zero to zero", 0, X, 0, X, true, 5, VERDICT_SAME, 0},
	{"negative reference", -10, 0, -12, 0, true, 5, VERDICT_WORSE, -20},
	{"A unknown", X, X, 5, X, true, 5, VERDICT_UNKNOWN, X},
	{"B unknown", 5, X, X, X, true, 5, VERDICT_UNKNOWN, X},
};

static void test_verdicts(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++) {
		double change = 12345;
		enum compare_verdict v =
			compare_metric(verdicts[i].a, verdicts[i].sd_a, verdicts[i].b,
				       verdicts[i].sd_b, verdicts[i].higher, verdicts[i].threshold,
				       &change);
		double want = verdicts[i].change;

		if (v != verdicts[i].want)
			fail_msg("%s: %s, wanted %s", verdicts[i].what, compare_verdict_name(v),
				 compare_verdict_name(verdicts[i].want));
		if (isnan(want) ? !isnan(change) : fabs(change - want) > 1e-9)
			fail_msg("%s: change %g%%, wanted %g%%", verdicts[i].what, change, want);
	}
}

/* where each side's spread comes from (compare.h's noise model), branch by branch */
static const struct {
	const char *what;
	double stdev;
	uint64_t repeats;
	double sample_stdev;
	uint64_t samples;
	double want;
	const char *from;
} spreads[] = {
	{"repeats", 2, 3, X, 0, 2, "repeats"},
	{"repeats first, samples too", 2, 3, 9, 50, 2, "repeats"},
	{"steady repeats: 0 is a spread", 0, 5, X, 0, 0, "repeats"},
	{"repeats unknown, stdev given (an import)", 1.5, U64_UNKNOWN, X, 0, 1.5, "repeats"},
	{"one repeat: the samples", X, 1, 3, 5, 3, "samples"},
	{"one repeat with a stdev of 0: still the samples", 0, 1, 3, 20, 3, "samples"},
	{"repeats without a stdev: the samples", X, 2, 4, 12, 4, "samples"},
	{"too few samples", X, 1, 3, COMPARE_MIN_SAMPLES - 1, X, NULL},
	{"not sampled", X, 1, X, 0, X, NULL},
	{"samples without a stdev", X, 1, X, 10, X, NULL},
	{"samples unknown", X, 1, 3, U64_UNKNOWN, X, NULL},
	{"steady enough: a quarter of the mean", X, 1, 25, 10, 25, "samples"},
	{"swung more than a quarter of the mean", X, 1, 25.5, 10, X, NULL},
	{"unsteady samples, repeats known: the repeats", 4, 3, 60, 10, 4, "repeats"},
};

static void test_spread(void **state)
{
	struct run_metric u;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(spreads); i++) {
		struct run_metric m = {.stdev = spreads[i].stdev,
				       .repeats = spreads[i].repeats,
				       .sample_mean = 100,
				       .sample_stdev = spreads[i].sample_stdev,
				       .samples = spreads[i].samples};
		const char *from = "unset";
		double sd = compare_spread(&m, &from);

		if (isnan(spreads[i].want) ? !isnan(sd) : sd != spreads[i].want)
			fail_msg("%s: spread %g, wanted %g", spreads[i].what, sd, spreads[i].want);
		if (!sample_str_eq(from, spreads[i].from))
			fail_msg("%s: from %s, wanted %s", spreads[i].what,
				 from ? from : "(unknown)",
				 spreads[i].from ? spreads[i].from : "(unknown)");
	}
	assert_nan(compare_spread(&(struct run_metric){.stdev = X, .samples = 0}, NULL));
	/* the CPUs contended while the pass ran: neither samples nor repeats say enough */
	u = (struct run_metric){.stdev = X, .repeats = 1, .sample_mean = 100, .sample_stdev = 3,
				.samples = 10, .cpu_pressure_pct = COMPARE_MAX_CPU_PRESSURE_PCT};
	assert_true(compare_spread(&u, NULL) == 3); /* at the limit: still judged */
	u.cpu_pressure_pct = X;			    /* no PSI: no gate */
	assert_true(compare_spread(&u, NULL) == 3);
	u.cpu_pressure_pct = 40;
	assert_nan(compare_spread(&u, NULL));
	u.stdev = 2, u.repeats = 3;
	assert_nan(compare_spread(&u, NULL));
	/* the CPUs kept busy: the figure is the CPU's, its samples say nothing of the next run */
	u = (struct run_metric){.stdev = X, .repeats = 1, .sample_mean = 100, .sample_stdev = 3,
				.samples = 10, .cpu_pressure_pct = X, .cpu_busy_pct = 88};
	assert_nan(compare_spread(&u, NULL));
	u.cpu_busy_pct = COMPARE_MAX_CPU_BUSY_PCT;
	assert_true(compare_spread(&u, NULL) == 3);
	u.cpu_busy_pct = 88, u.stdev = 2, u.repeats = 3; /* repeats still tell */
	assert_true(compare_spread(&u, NULL) == 2);
	/* no sample mean: steadiness against the value; neither: unknown */
	u = (struct run_metric){.stdev = X, .repeats = 1, .value = 40, .sample_mean = X};
	u.sample_stdev = 8, u.samples = 10;
	assert_true(compare_spread(&u, NULL) == 8);
	u.value = X;
	assert_nan(compare_spread(&u, NULL));
}

static struct run_metric *metric(struct run_record *r, const char *dev, const char *name,
				 const char *what, double v, double sd)
{
	struct run_metric *m = run_record_add_metric(r, dev, "disk", name, what, "MB/s", true);

	m->value = v;
	m->stdev = sd;
	m->repeats = 3;
	return m;
}

static const struct compare_row *row(const struct compare_result *c, const char *name,
				     const char *what)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name) && !strcmp(c->rows[i].metric, what))
			return &c->rows[i];
	fail_msg("no row %s %s", name, what);
	return NULL;
}

static bool has_caveat(const struct compare_result *c, const char *subject, const char *what,
		       const char *a, const char *b)
{
	for (size_t i = 0; i < c->ncaveats; i++) {
		const struct compare_caveat *v = &c->caveats[i];

		if (!strcmp(v->subject, subject) && !strcmp(v->what, what) &&
		    sample_str_eq(v->a, a) && sample_str_eq(v->b, b))
			return true;
	}
	return false;
}

/*
 * B: the stick moved from port 2-1 to 2-2 (same VID:PID and serial) and
 * now links at high speed on a new kernel; one metric gone, one new, a
 * unit changed, a second stick without serial matched by its port.
 */
static void build_pair(struct run_record *a, struct run_record *b)
{
	struct run_device *d;

	sample_run(a, "A", "2026-11-30T05:12:00Z");
	sample_run(b, "B", "2026-12-01T05:12:00Z");
	free(b->env.kernel);
	b->env.kernel = strdup("6.6.0");
	b->env.governor = strdup("performance");
	free(b->devices[0].key), free(b->devices[0].port_path), free(b->devices[0].speed);
	b->devices[0].key = strdup("2-2");
	b->devices[0].port_path = strdup("2-2");
	b->devices[0].speed = strdup("high");
	for (size_t i = 0; i < b->nmetrics; i++)
		if (!strcmp(b->metrics[i].device_key, "2-1")) {
			free(b->metrics[i].device_key);
			b->metrics[i].device_key = strdup("2-2");
		}
	b->metrics[0].value = 20; /* seq-read 1M mb_s: 33.3 -> 20: worse */
	b->metrics[1].value = 50000; /* latency p99 down: better */
	free(b->metrics[2].unit);
	b->metrics[2].unit = strdup("kIOPS");
	for (int i = 0; i < 2; i++) {
		struct run_record *r = i ? b : a;

		d = run_record_add_device(r);
		d->key = strdup("1-3");
		d->vid_pid = strdup("0951:1666");
		d->port_path = strdup("1-3");
		metric(r, "1-3", "seq-write 1M", "mb_s", 10, 0.5);
		metric(r, "1-3", i ? "seq-write 4K" : "seq-read 4K", "mb_s", 5, 0.1);
	}
}

static void test_match(void **state)
{
	struct run_record a, b;
	struct compare_result c;
	const struct compare_row *r;

	(void)state;
	build_pair(&a, &b);
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.nrows, 6);
	/* rows in A's order, then B's new ones */
	assert_string_equal(c.rows[0].name, "seq-read 1M");
	assert_string_equal(c.rows[5].name, "seq-write 4K");
	r = row(&c, "seq-read 1M", "mb_s");
	assert_string_equal(r->verdict, "worse");
	assert_string_equal(r->device_key, "2-2");
	assert_string_equal(r->device_id, "0781:5583 4C530001230914114453");
	assert_near(r->change_pct, (20 - 100.0 / 3) / (100.0 / 3) * 100, 1e-9);
	/* one pass each, a latency (not sampled): down 58%, but by how much it moves alone? */
	assert_string_equal(row(&c, "seq-read 1M", "lat_p99_us")->verdict, "spread unknown");
	assert_string_equal(row(&c, "rand-read 4K", "iops")->verdict, "unknown");
	assert_string_equal(row(&c, "seq-write 1M", "mb_s")->verdict, "same");
	assert_string_equal(row(&c, "seq-write 1M", "mb_s")->device_id, "port 1-3");
	assert_string_equal(row(&c, "seq-read 4K", "mb_s")->verdict, "missing");
	assert_nan(row(&c, "seq-read 4K", "mb_s")->b);
	assert_string_equal(row(&c, "seq-write 4K", "mb_s")->verdict, "new");
	assert_nan(row(&c, "seq-write 4K", "mb_s")->a);
	assert_int_equal(c.worse, 1);
	assert_int_equal(c.better, 0);
	assert_int_equal(c.spread_unknown, 1);
	assert_int_equal(c.same, 1);
	assert_int_equal(c.unknown, 1);
	assert_int_equal(c.missing, 1);
	assert_int_equal(c.added, 1);
	assert_string_equal(c.result, "regression");
	/* what may explain it */
	assert_true(has_caveat(&c, "env", "kernel", "6.1.0-rk3588", "6.6.0"));
	assert_true(has_caveat(&c, "env", "governor", NULL, "performance"));
	assert_true(has_caveat(&c, "0781:5583 4C530001230914114453", "speed", "super", "high"));
	assert_true(has_caveat(&c, "0781:5583 4C530001230914114453", "port_path", "2-1", "2-2"));
	assert_true(has_caveat(&c, "host", "unit of disk rand-read 4K iops", "IOPS", "kIOPS"));
	assert_int_equal(c.ncaveats, 5);
	compare_result_release(&c);
	compare_result_release(NULL);
	run_record_release(&a);
	run_record_release(&b);
}

static void test_identical_and_empty(void **state)
{
	struct run_record a, b = {0};
	struct compare_result c;

	(void)state;
	sample_run(&a, "A", "2026-11-30T05:12:00Z");
	assert_int_equal(run_compare(&a, &a, COMPARE_DEFAULT_THRESHOLD_PCT, &c), 0);
	assert_int_equal(c.nrows, a.nmetrics);
	assert_int_equal(c.same, a.nmetrics);
	assert_int_equal(c.ncaveats, 0);
	assert_string_equal(c.result, "ok");
	compare_result_release(&c);
	/* B measured nothing: every metric missing, not a regression */
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.missing, a.nmetrics);
	assert_string_equal(c.result, "ok");
	assert_true(has_caveat(&c, "host", "device", "host", NULL));
	compare_result_release(&c);
	run_record_release(&a);
}

/* one repeat each side, as run does by default: the spread from the rate samples */
static struct run_metric *one_pass(struct run_record *r, const char *name, const char *what,
				   double v, double sample_sd, uint64_t samples)
{
	struct run_metric *m =
	    run_record_add_metric(r, "host", "disk", name, what,
				  strcmp(what, "mb_s") ? "us" : "MB/s", !strcmp(what, "mb_s"));

	m->value = m->min = m->max = v;
	m->repeats = 1;
	if (samples) {
		m->sample_mean = v;
		m->sample_stdev = sample_sd;
		m->sample_min = v - 2 * sample_sd;
		m->samples = samples;
	}
	return m;
}

static void one_pass_pair(struct run_record *a, struct run_record *b, double b_write)
{
	struct run_record *r[] = {a, b};

	for (int i = 0; i < 2; i++) {
		memset(r[i], 0, sizeof(*r[i]));
		r[i]->id = strdup(i ? "B" : "A");
		r[i]->findings = (struct finding_list)FINDING_LIST_INIT;
		run_record_add_device(r[i])->key = strdup("host");
	}
	/* -8%: past 5%, within 2 x sqrt(4^2 + 4^2) = 11.3 */
	one_pass(a, "seq-read 1M", "mb_s", 100, 4, 20);
	one_pass(b, "seq-read 1M", "mb_s", 92, 4, 20);
	/* b_write against 100, spread 2 each side: 2 x sqrt(8) = 5.7 */
	one_pass(a, "seq-write 1M", "mb_s", 100, 2, 20);
	one_pass(b, "seq-write 1M", "mb_s", b_write, 2, 20);
	/* +30%, one pass, not sampled */
	one_pass(a, "seq-read 1M", "lat_p99_us", 100, X, 0);
	one_pass(b, "seq-read 1M", "lat_p99_us", 130, X, 0);
	/* +8%, but only 4 samples in B: too few to know its spread */
	one_pass(a, "seq-read 4K", "mb_s", 50, 0.5, 20);
	one_pass(b, "seq-read 4K", "mb_s", 54, 0.5, COMPARE_MIN_SAMPLES - 1);
}

static void test_one_pass_runs(void **state)
{
	struct run_record a, b;
	struct compare_result c;
	const struct compare_row *r;

	(void)state;
	/* a 20% drop in writes is beyond the sampled noise: a regression */
	one_pass_pair(&a, &b, 80);
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	r = row(&c, "seq-read 1M", "mb_s");
	assert_string_equal(r->verdict, "noise");
	assert_true(r->a_stdev == 4 && r->b_stdev == 4);
	assert_string_equal(r->a_spread, "samples");
	assert_string_equal(r->b_spread, "samples");
	assert_string_equal(row(&c, "seq-write 1M", "mb_s")->verdict, "worse");
	r = row(&c, "seq-read 1M", "lat_p99_us");
	assert_string_equal(r->verdict, "spread unknown");
	assert_null(r->a_spread);
	assert_nan(r->b_stdev);
	r = row(&c, "seq-read 4K", "mb_s");
	assert_string_equal(r->verdict, "spread unknown");
	assert_string_equal(r->a_spread, "samples");
	assert_null(r->b_spread);
	assert_int_equal(c.noise, 1);
	assert_int_equal(c.worse, 1);
	assert_int_equal(c.spread_unknown, 2);
	assert_string_equal(c.result, "regression");
	compare_result_release(&c);
	run_record_release(&a);
	run_record_release(&b);
	/* 3% less: the same; then nothing is worse, and what could not be judged says so */
	one_pass_pair(&a, &b, 97);
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_string_equal(row(&c, "seq-write 1M", "mb_s")->verdict, "same");
	assert_int_equal(c.worse, 0);
	assert_int_equal(c.spread_unknown, 2);
	assert_string_equal(c.result, "spread unknown");
	compare_result_release(&c);
	run_record_release(&a);
	run_record_release(&b);
	/* 6% and 8% less with steady rates (spread 0.5): beyond both */
	one_pass_pair(&a, &b, 94);
	for (size_t i = 0; i < a.nmetrics; i++)
		a.metrics[i].sample_stdev = b.metrics[i].sample_stdev = 0.5;
	a.metrics[2].samples = b.metrics[2].samples = 0; /* the latency stays unsampled */
	a.metrics[2].sample_mean = b.metrics[2].sample_mean = X;
	a.metrics[2].sample_stdev = b.metrics[2].sample_stdev = X;
	a.metrics[2].sample_min = b.metrics[2].sample_min = X;
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_string_equal(row(&c, "seq-write 1M", "mb_s")->verdict, "worse");
	assert_string_equal(row(&c, "seq-read 1M", "mb_s")->verdict, "worse");
	compare_result_release(&c);
	run_record_release(&a);
	run_record_release(&b);
}

/* the summary names the new count, in text and JSON */
static void test_describe(void **state)
{
	struct run_record a, b;
	struct compare_result c;
	struct report rep = {.command = "compare"};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	one_pass_pair(&a, &b, 97);
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	compare_describe(&c, &rep);
	assert_int_equal(render_json(&rep, &out), 0);
	assert_non_null(strstr(out.buf, "\"result\": \"spread unknown\""));
	assert_non_null(strstr(out.buf, "\"spread_unknown\": 2"));
	assert_non_null(strstr(out.buf, "\"verdict\": \"spread unknown\""));
	assert_non_null(strstr(out.buf, "\"a_spread\": \"samples\""));
	strbuf_reset(&out);
	assert_int_equal(render_text(&rep, &out), 0);
	assert_non_null(strstr(out.buf, "spread unknown"));
	strbuf_release(&out);
	compare_result_release(&c);
	run_record_release(&a);
	run_record_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_one_pass_runs),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_identical_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

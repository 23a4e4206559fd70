// SPDX-License-Identifier: MIT
/* run/compare: noise-aware verdicts, and metrics matched across two runs. */
#include "unit.h"
#include "render/render.h"
#include "run/compare.h"
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

/*
 * The noise model (compare.h), branch by branch: what one side's evidence
 * gives as its spread, where from, why not, and how contention moves it (S:
 * as its kind says: a rate or a % shrinks, a latency grows). Every field a
 * run records is spelled out: a 0 is a figure.
 */
enum kind { RATE, LATENCY, CPU, OTHER };
#define S 99 /* the kind's scale */
static const struct {
	const char *what;
	enum kind kind;
	double value, stdev;
	uint64_t repeats;
	double pass, sample_sd;
	uint64_t samples;
	double pressure, busy, wait, io;
	double want;
	const char *from;
	enum spread_why why;
	enum compare_scale scale;
} spreads[] = {
	/* the spread itself */
	{"repeats", RATE, 100, 2, 3, X, X, 0, X, X, X, X, 2, "repeats", SPREAD_KNOWN, S},
	{"repeats with batches: their mean's spread", RATE, 100, 3, 3, 1, X, 0, X, X, 0, 1,
	 3 / 1.7320508075688772, "repeats", SPREAD_KNOWN, S},
	{"three repeats that agree by chance: no surer than the passes", RATE, 100, 0.1, 3, 2, X,
	 0, X, X, 0, 1, 2, "repeats", SPREAD_KNOWN, S},
	{"steady repeats: 0 is a spread", RATE, 100, 0, 5, X, X, 0, X, X, X, X, 0, "repeats",
	 SPREAD_KNOWN, S},
	{"an import: repeats unknown, stdev given", RATE, 100, 1.5, U64_UNKNOWN, 4, X, 0, X, X, X,
	 X, 1.5, "repeats", SPREAD_KNOWN, S},
	{"one pass: its batches", RATE, 100, X, 1, 1.5, 30, 29, 0, 5, 0, 2, 1.5, "pass",
	 SPREAD_KNOWN, S},
	{"one pass, a stdev of 0 from one repeat: still the batches", RATE, 100, 0, 1, 1.5, X, 0,
	 X, X, X, X, 1.5, "pass", SPREAD_KNOWN, S},
	{"a tail's batches (a p99): COMPARE_TAIL_FLOOR of it at least", LATENCY, 1900, X, 1, 40, X,
	 0, 0, 5, 1, 2, 1900 * COMPARE_TAIL_FLOOR, "pass", SPREAD_KNOWN, S},
	{"a tail's batches, wider than that", LATENCY, 1900, X, 1, 400, X, 0, 0, 5, 1, 2, 400,
	 "pass", SPREAD_KNOWN, S},
	{"a tail's repeats: the same floor", LATENCY, 1900, 30, 3, X, X, 0, 0, 5, 1, 2,
	 1900 * COMPARE_TAIL_FLOOR, "repeats", SPREAD_KNOWN, S},
	{"a tail under a millisecond, repeats that agree: COMPARE_SHORT_TAIL_FLOOR", LATENCY, 55, 3,
	 3, 2, X, 0, 0, 5, 1, 2, 55 * COMPARE_SHORT_TAIL_FLOOR, "repeats", SPREAD_KNOWN, S},
	{"... its batches alike", LATENCY, 95, X, 1, 5, X, 0, 0, 5, 1, 2,
	 95 * COMPARE_SHORT_TAIL_FLOOR, "pass", SPREAD_KNOWN, S},
	{"CPU use's batches: a point at least", CPU, 3, X, 1, 0.2, X, 0, 0, 5, 1, 2, 1, "pass",
	 SPREAD_KNOWN, S},
	{"CPU use's batches: a tenth of it at least", CPU, 40, X, 1, 0.5, X, 0, 0, 5, 1, 2, 4,
	 "pass", SPREAD_KNOWN, S},
	{"CPU use's batches, wider than that", CPU, 40, X, 1, 6, X, 0, 0, 5, 1, 2, 6, "pass",
	 SPREAD_KNOWN, S},
	{"CPU use with others' 190 % of a CPU beside it: not from one pass", CPU, 10, X, 1, 0.5, X,
	 0, 17, 200, 6, 5, X, NULL, SPREAD_SHARED, S},
	{"... nor from its repeats (they agreed in runs +307 % apart)", CPU, 10, 2, 3, 0.5, X, 0, 17,
	 200, 6, 5, X, NULL, SPREAD_SHARED, S},
	{"CPU use with repeats, others' 40 % beside it: judged", CPU, 10, 2, 3, 0.5, X, 0, 17, 50,
	 6, 5, 2 / 1.7320508075688772 > 1 ? 2 / 1.7320508075688772 : 1, "repeats", SPREAD_KNOWN, S},
	{"a tail with others' 180 % of a CPU beside it: not from one pass", LATENCY, 1900, X, 1, 40,
	 X, 0, 56, 200, 3, 20, X, NULL, SPREAD_TAIL_SHARED, S},
	{"... nor from its repeats (+138 % between unchanged runs whose repeats agreed)", LATENCY,
	 1900, 30, 3, 40, X, 0, 56, 200, 3, 20, X, NULL, SPREAD_TAIL_SHARED, S},
	{"a tail beside others' 40 % of a CPU: judged", LATENCY, 1900, X, 1, 40, X, 0, 20, 60, 3,
	 20, 1900 * COMPARE_TAIL_FLOOR, "pass", SPREAD_KNOWN, S},
	{"no batches (an older run): steady samples", RATE, 100, X, 1, X, 3, 5, X, X, X, X, 3,
	 "samples", SPREAD_KNOWN, S},
	{"steady enough: a quarter of the mean", RATE, 100, X, 1, X, 25, 10, X, X, X, X, 25,
	 "samples", SPREAD_KNOWN, S},
	{"samples that swung more than a quarter of the mean", RATE, 100, X, 1, X, 25.5, 10, X, X,
	 X, X, X, NULL, SPREAD_UNSTEADY, S},
	{"too few samples", RATE, 100, X, 1, X, 3, COMPARE_MIN_SAMPLES - 1, X, X, X, X, X, NULL,
	 SPREAD_ONE_PASS, S},
	{"one pass, neither batches nor samples", LATENCY, 1900, X, 1, X, X, 0, X, X, X, X, X, NULL,
	 SPREAD_ONE_PASS, S},
	/* leaning on the CPU: the pass's own evidence */
	{"two CPU hogs beside a throttled disk (PSI 100 %): its thread did not wait: judged", RATE,
	 42, X, 1, 0.8, 20, 29, 100, 200, 3, 20, 0.8, "pass", SPREAD_KNOWN, S},
	{"its thread waited at the limit: judged", RATE, 42, X, 1, 0.8, X, 0, 100, 200,
	 COMPARE_MAX_CPU_WAIT_PCT, 20, 0.8, "pass", SPREAD_KNOWN, S},
	{"a rate whose thread waited 20 %: past what can be weighed, unknown", RATE, 42, X, 1, 0.8,
	 X, 0, 100, 200, 20, 20, X, NULL, SPREAD_CPU_WAIT, SCALE_NONE},
	{"a rate whose thread waited 12 %: weighed in", RATE, 42, X, 1, 0.8, X, 0, 100,
	 200, 12, 20, 0.8, "pass", SPREAD_CPU_WAIT, S},
	{"a rate whose thread waited 15 %: weighed in", RATE, 42, X, 1, 0.8, X, 0, 100, 200,
	 COMPARE_MAX_WEIGHED_WAIT_PCT, 20, 0.8, "pass", SPREAD_CPU_WAIT, S},
	{"a rate whose thread waited 60 %: the waits are the pass, unknown", RATE, 42, X, 1, 0.8, X,
	 0, 100, 200, 60, 20, X, NULL, SPREAD_CPU_WAIT, SCALE_NONE},
	{"a contended rate with repeats: the same", RATE, 42, 1, 3, 0.8, X, 0, 100, 200, 12,
	 20, 0.8, "repeats", SPREAD_CPU_WAIT, S},
	{"a contended rate without a spread", RATE, 42, X, 1, X, X, 0, 100, 200, 12, 20, X, NULL,
	 SPREAD_CPU_WAIT, S},
	{"a latency whose thread waited 20 %: either way, unknown", LATENCY, 1900, X, 1, 40, X, 0,
	 100, 200, 20, 20, X, NULL, SPREAD_CPU_WAIT, S},
	{"CPU use whose thread waited 20 %: either way, unknown", CPU, 3, 0.1, 3, 0.2, X, 0, 100,
	 200, 20, 20, X, NULL, SPREAD_CPU_WAIT, S},
	{"a figure no wait can be weighed for (IRQs per MB), contended: unknown", OTHER, 3, 0.1, 3,
	 0.2, X, 0, 100, 200, 20, 20, X, NULL, SPREAD_CPU_WAIT, SCALE_NONE},
	{"... uncontended: judged", OTHER, 3, 0.1, 3, 0.2, X, 0, 100, 200, 5, 20,
	 0.1 / 1.7320508075688772 > 0.2 ? 0.1 / 1.7320508075688772 : 0.2, "repeats", SPREAD_KNOWN,
	 SCALE_NONE},
	{"quiet, the I/O took 88 % of a CPU (a loop device in RAM): not from one pass", RATE, 2800,
	 X, 1, 10, 50, 29, 0.1, 95, 0, 88, X, NULL, SPREAD_CPU_BOUND, S},
	{"... from its repeats, COMPARE_CPU_BOUND_FLOOR of it at least (they share the placement)",
	 RATE, 2800, 60, 3, 10, 50, 29, 0.1, 95, 0, 88, 2800 * COMPARE_CPU_BOUND_FLOOR, "repeats",
	 SPREAD_KNOWN, S},
	{"... repeats wider than that, as they are", RATE, 2800, 400, 3, 10, 50, 29, 0.1, 95, 0, 88,
	 400, "repeats", SPREAD_KNOWN, S},
	{"quiet, the I/O at 50 % of a CPU: judged", RATE, 2800, X, 1, 10, X, 0, 0.1, 95, 0, 50, 10,
	 "pass", SPREAD_KNOWN, S},
	{"contended, its thread did not wait, the I/O at 88 % of a CPU: not from one pass", RATE,
	 524, X, 1, 8, X, 0, 60, 200, 2, 88, X, NULL, SPREAD_CPU_BOUND, S},
	{"... contended, its thread waited 12 %: the CPU's figure beside others' 112 %, repeats or "
	 "not", RATE, 524, 20, 3, 8, X, 0, 60, 200, 12, 88, X, NULL, SPREAD_CPU_SHARED, S},
	{"... its thread waited 12 % beside others' 30 %: its repeats as they are (compare_sides "
	 "weighs the waits), floored", RATE, 524, 20, 3, 8, X, 0, 60, 118, 12, 88,
	 524 * COMPARE_CPU_BOUND_FLOOR, "repeats", SPREAD_KNOWN, S},
	{"... contended, its thread waited 60 %: the waits are the pass, unknown", RATE, 524, 20, 3,
	 8, X, 0, 60, 200, 60, 88, X, NULL, SPREAD_CPU_WAIT, SCALE_NONE},
	{"... its repeats beside others' 112 % of a CPU: unknown", RATE, 524, 20, 3, 8, X, 0, 60,
	 200, 2, 88, X, NULL, SPREAD_CPU_SHARED, S},
	{"... its repeats beside others' 30 % of a CPU: judged, floored", RATE, 524, 20, 3, 8, X, 0,
	 20, 118, 2, 88, 524 * COMPARE_CPU_BOUND_FLOOR, "repeats", SPREAD_KNOWN, S},
	{"contended, its thread did not wait, the I/O at 30 % of a CPU: judged", RATE, 42, X, 1, 0.8,
	 X, 0, 60, 200, 2, 30, 0.8, "pass", SPREAD_KNOWN, S},
	{"no I/O CPU known: the machine's busy time stands in", RATE, 2800, X, 1, 10, X, 0, 0, 88, 0,
	 X, X, NULL, SPREAD_CPU_BOUND, S},
	/* older runs: no evidence of their own, the machine's load as before */
	{"older run, contended: unknown, repeats or not", RATE, 42, 1, 3, X, 3, 20, 40, 200, X, X,
	 X, NULL, SPREAD_CONTENDED, S},
	{"older run, PSI at the limit: judged", RATE, 42, X, 1, X, 3, 20, COMPARE_MAX_CPU_PRESSURE_PCT,
	 10, X, X, 3, "samples", SPREAD_KNOWN, S},
	{"older run, no PSI: no gate", RATE, 42, X, 1, X, 3, 20, X, X, X, X, 3, "samples",
	 SPREAD_KNOWN, S},
	{"older run, busy 88 %: its samples say nothing of the next run", RATE, 42, X, 1, X, 3, 20,
	 X, 88, X, X, X, NULL, SPREAD_CPU_BOUND, S},
	{"older run, busy 88 %, repeats: they tell, floored", RATE, 42, 2, 3, X, 3, 20, X, 88, X, X,
	 42 * COMPARE_CPU_BOUND_FLOOR, "repeats", SPREAD_KNOWN, S},
};

static struct run_metric spread_metric(size_t i)
{
	static const char *const key[] = {[RATE] = "mb_s", [LATENCY] = "lat_p99_us",
					  [CPU] = "self_cpu_pct", [OTHER] = "irq_per_mb"};
	static const char *const unit[] = {[RATE] = "MB/s", [LATENCY] = "us", [CPU] = "%",
					   [OTHER] = "IRQ/MB"};

	return (struct run_metric){.test = "disk",
				   .metric = (char *)key[spreads[i].kind],
				   .unit = (char *)unit[spreads[i].kind],
				   .higher_is_better = spreads[i].kind == RATE,
				   .value = spreads[i].value,
				   .stdev = spreads[i].stdev,
				   .repeats = spreads[i].repeats,
				   .pass_spread = spreads[i].pass,
				   .sample_mean = spreads[i].value,
				   .sample_stdev = spreads[i].sample_sd,
				   .samples = spreads[i].samples,
				   .cpu_pressure_pct = spreads[i].pressure,
				   .cpu_busy_pct = spreads[i].busy,
				   .cpu_wait_pct = spreads[i].wait,
				   .cpu_io_pct = spreads[i].io,
				   .ceiling = X};
}

static bool same_double(double a, double b)
{
	return isnan(a) ? isnan(b) : isinf(a) ? a == b : fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

static void test_spread(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(spreads); i++) {
		struct run_metric m = spread_metric(i);
		enum compare_scale scale = spreads[i].kind == RATE ? SCALE_RATE : SCALE_NONE;
		struct compare_side s;
		const char *from = "unset";
		enum spread_why why;

		print_message("spread: %s\n", spreads[i].what);
		compare_side_of(&m, &s);
		if (!same_double(s.sd, spreads[i].want))
			fail_msg("%s: spread %g, wanted %g", spreads[i].what, s.sd, spreads[i].want);
		if (!sample_str_eq(s.from, spreads[i].from))
			fail_msg("%s: from %s, wanted %s", spreads[i].what,
				 s.from ? s.from : "(unknown)",
				 spreads[i].from ? spreads[i].from : "(unknown)");
		if (s.why != spreads[i].why)
			fail_msg("%s: why %d, wanted %d", spreads[i].what, s.why, spreads[i].why);
		if (s.scale != (spreads[i].scale == S ? scale : spreads[i].scale))
			fail_msg("%s: scale %d", spreads[i].what, s.scale);
		if (!same_double(s.wait, isnan(m.cpu_wait_pct) ? 0 : m.cpu_wait_pct / 100))
			fail_msg("%s: wait %g", spreads[i].what, s.wait);
		assert_true(same_double(compare_spread(&m, &from, &why), s.sd));
		assert_true(from == s.from && why == s.why);
		assert_true(same_double(compare_spread(&m, NULL, NULL), s.sd));
	}
}

/* a side: value, spread, its I/O thread's wait share (0 to 1) */
struct side_case {
	double v, sd, wait;
	enum spread_why why; /* with sd unknown: why */
};

/* judged as measured and as if the waits cost twice their share: a verdict holds at both */
static const struct {
	const char *what;
	struct side_case a, b;
	enum compare_scale scale;
	bool higher;
	enum compare_verdict want;
} sides[] = {
    {"no waits: compare_metric's verdict",
     {40, 1, 0, SPREAD_KNOWN},
     {30, 1, 0, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_WORSE},
    {"B waited 5 %: 30 might be 33.3; still worse",
     {42, 1, 0, SPREAD_KNOWN},
     {30, 1, 0.05, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_WORSE},
    {"B waited 15 %: 30 might be 55: contended",
     {42, 1, 0, SPREAD_KNOWN},
     {30, 1, 0.15, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_CONTENDED},
    {"A waited, B did not, a drop: waits only deepen it",
     {42, 1, 0.15, SPREAD_KNOWN},
     {30, 1, 0, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_WORSE},
    {"A waited 15 %, B did not, a rise: may be what A lost",
     {30, 1, 0.15, SPREAD_KNOWN},
     {42, 1, 0, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_CONTENDED},
    {"a rise beyond what A's 5 % may have cost",
     {30, 1, 0.05, SPREAD_KNOWN},
     {42, 1, 0, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_BETTER},
    {"both waited alike (two hogs in both runs): a 25 % drop is a drop",
     {42, 0.8, 0.1, SPREAD_KNOWN},
     {31.5, 0.6, 0.09, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_WORSE},
    {"both waited alike, unchanged: the same",
     {42, 0.8, 0.1, SPREAD_KNOWN},
     {41, 0.8, 0.11, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_SAME},
    {"waits that differ turn 'same' into noise",
     {42, 2, 0, SPREAD_KNOWN},
     {40, 2, 0.04, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_NOISE},
    {"waits of half the pass or more: no bound, contended",
     {42, 1, 0.5, SPREAD_KNOWN},
     {30, 1, 0.6, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_CONTENDED},
    {"... one side without bound, the drop only deeper for it",
     {42, 1, 0.6, SPREAD_KNOWN},
     {30, 1, 0, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_WORSE},
    {"B waited 15 %: 31.5 might be 57; contended",
     {42, 0.8, 0, SPREAD_KNOWN},
     {31.5, 0.6, 0.15, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_CONTENDED},
    {"a latency: waits weigh nothing here (its side is unknown instead)",
     {100, 5, 0, SPREAD_KNOWN},
     {150, 5, 0.05, SPREAD_KNOWN},
     SCALE_NONE,
     false,
     VERDICT_WORSE},
    {"no scale: waits change nothing here",
     {40, 1, 0.3, SPREAD_KNOWN},
     {30, 1, 0.3, SPREAD_KNOWN},
     SCALE_NONE,
     true,
     VERDICT_WORSE},
    {"a spread unknown",
     {42, X, 0.2, SPREAD_KNOWN},
     {30, 1, 0.2, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_SPREAD_UNKNOWN},
    {"a spread unknown for other work beside it: contended",
     {42, X, 0.2, SPREAD_SHARED},
     {30, 1, 0.2, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_CONTENDED},
    {"... for one pass on A, other work on B: contended",
     {42, X, 0, SPREAD_ONE_PASS},
     {30, X, 0.2, SPREAD_CPU_SHARED},
     SCALE_RATE,
     true,
     VERDICT_CONTENDED},
    {"... one pass on A, a CPU-bound one on B, no other work: spread unknown",
     {42, X, 0, SPREAD_ONE_PASS},
     {30, X, 0, SPREAD_CPU_BOUND},
     SCALE_RATE,
     true,
     VERDICT_SPREAD_UNKNOWN},
    {"a value unknown",
     {X, 1, 0.2, SPREAD_KNOWN},
     {30, 1, 0, SPREAD_KNOWN},
     SCALE_RATE,
     true,
     VERDICT_UNKNOWN},
};

static void side_of(const struct side_case *c, enum compare_scale scale, struct compare_side *s)
{
	*s = (struct compare_side){
	    .value = c->v, .sd = c->sd, .wait = c->wait, .why = c->why, .scale = scale};
}

static void test_sides(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sides); i++) {
		struct compare_side a, b;
		double change = 12345, want;
		enum compare_verdict v;

		side_of(&sides[i].a, sides[i].scale, &a);
		side_of(&sides[i].b, sides[i].scale, &b);
		v = compare_sides(&a, &b, sides[i].higher, 5, &change);
		if (v != sides[i].want)
			fail_msg("%s: %s, wanted %s", sides[i].what, compare_verdict_name(v),
				 compare_verdict_name(sides[i].want));
		/* the change is the measured one, whatever the ranges */
		want = (b.value - a.value) / fabs(a.value) * 100;
		assert_true(same_double(change, want));
	}
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
	/* B measured nothing: every metric missing, nothing compared, never "ok" */
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.missing, a.nmetrics);
	assert_int_equal(c.compared, 0);
	assert_string_equal(c.result, COMPARE_NOTHING);
	assert_true(has_caveat(&c, "host", "device", "host", NULL));
	compare_result_release(&c);
	/* another device, another test: nothing in common */
	sample_run(&b, "B", "2026-12-01T05:12:00Z");
	for (size_t i = 0; i < b.nmetrics; i++) {
		free(b.metrics[i].test);
		b.metrics[i].test = strdup("net");
	}
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.compared, 0);
	assert_int_equal(c.missing, a.nmetrics);
	assert_int_equal(c.added, b.nmetrics);
	assert_string_equal(c.result, COMPARE_NOTHING);
	compare_result_release(&c);
	/* one metric in common is something to compare */
	free(b.metrics[0].test);
	b.metrics[0].test = strdup("disk");
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.compared, 1);
	assert_string_equal(c.result, "ok");
	compare_result_release(&c);
	run_record_release(&b);
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

/* the device's busy share is the pass's context (CLASS_CONTEXT): kept, never compared */
static void test_context_not_compared(void **state)
{
	struct run_record a, b;
	struct compare_result c;

	(void)state;
	one_pass_pair(&a, &b, 100);
	for (int i = 0; i < 2; i++) {
		struct run_metric *m =
		    one_pass(i ? &b : &a, "rand-read 4K Q32", "util_pct", i ? 63 : 20, 0.5, 20);

		free(m->unit);
		m->unit = strdup("%");
	}
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	for (size_t i = 0; i < c.nrows; i++)
		assert_string_not_equal(c.rows[i].metric, "util_pct");
	assert_int_equal(c.worse, 0);
	compare_result_release(&c);
	run_record_release(&b);
	run_record_release(&a);
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

/* a pass judged as contended: why, each side, and what to do, once per pass */
static void test_unknown_why(void **state)
{
	struct run_record a, b;
	struct compare_result c;
	const struct compare_row *r;

	(void)state;
	one_pass_pair(&a, &b, 97);
	for (size_t i = 0; i < b.nmetrics; i++)
		if (!strcmp(b.metrics[i].name, "seq-read 1M")) {
			b.metrics[i].cpu_wait_pct = 63;
			b.metrics[i].pass_spread = 1;
		}
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	/* the rate -8%: within what 63 % of waits may have cost it */
	r = row(&c, "seq-read 1M", "mb_s");
	assert_string_equal(r->verdict, "contended");
	assert_null(strstr(r->why, "A: "));
	assert_non_null(strstr(r->why, "B: its I/O thread waited for a CPU 63 % of the pass"));
	assert_non_null(strstr(r->todo, "quieter machine"));
	r = row(&c, "seq-read 4K", "mb_s");
	assert_string_equal(r->verdict, "spread unknown");
	assert_string_equal(r->why, "B: one pass, too short or not sampled for a spread within it");
	assert_non_null(strstr(r->todo, "--repeat 3"));
	/* the latency: A's one pass, B's waits; the 4K pass for another reason */
	r = row(&c, "seq-read 1M", "lat_p99_us");
	assert_string_equal(r->verdict, "contended");
	assert_non_null(strstr(r->why, "A: one pass"));
	assert_non_null(strstr(r->why, "; B: its I/O thread waited"));
	assert_non_null(strstr(r->todo, "quieter machine"));
	assert_int_equal(c.nunknowns, 3);
	assert_string_equal(c.unknowns[0].pass, "seq-read 1M");
	assert_string_equal(c.unknowns[0].metrics, "mb_s");
	assert_string_equal(c.unknowns[1].metrics, "lat_p99_us");
	assert_string_equal(c.unknowns[2].pass, "seq-read 4K");
	assert_string_equal(c.unknowns[0].verdict, "contended");
	assert_string_equal(c.unknowns[2].verdict, "spread unknown");
	assert_int_equal(c.contended, 2);
	assert_int_equal(c.spread_unknown, 1);
	/* a spread unknown is the one a rerun with repeats settles: the result says it first */
	assert_string_equal(c.result, "spread unknown");
	/* one reason for several metrics of a pass: one entry, the metrics listed */
	compare_result_release(&c);
	for (int i = 0; i < 2; i++) {
		struct run_metric *m = run_record_add_metric(i ? &b : &a, "host", "disk",
							     "seq-read 1M", "iops", "IOPS", true);

		m->value = i ? 92 * 0.954 : 100 * 0.954;
		m->repeats = 1;
		m->pass_spread = 1;
		m->cpu_wait_pct = i ? 63 : X;
	}
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.nunknowns, 3);
	assert_string_equal(c.unknowns[0].metrics, "mb_s, iops");
	assert_non_null(strstr(c.unknowns[0].why, "more than can be bounded"));
	assert_non_null(strstr(c.unknowns[1].why, "which moves this figure either way"));
	assert_null(row(&c, "seq-write 1M", "mb_s")->why);
	compare_result_release(&c);
	/* every pass of B beside other work: nothing left for want of a spread */
	for (size_t i = 0; i < b.nmetrics; i++)
		b.metrics[i].cpu_wait_pct = 63, b.metrics[i].pass_spread = 1;
	assert_int_equal(run_compare(&a, &b, 5, &c), 0);
	assert_int_equal(c.spread_unknown, 0);
	assert_true(c.contended >= 3);
	assert_string_equal(c.result, "contended");
	assert_non_null(strstr(c.unknowns[0].todo, "quieter machine"));
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
	/* why and what next: sentences under their pass, wrapped, not 400-column cells */
	assert_non_null(strstr(out.buf, "\n    why: B: one pass"));
	assert_non_null(strstr(out.buf, "\n    next: rerun both with --repeat 3"));
	for (const char *l = out.buf; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		assert_true(strcspn(l, "\n") <= 100);
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
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_one_pass_runs),
		cmocka_unit_test(test_context_not_compared),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_identical_and_empty),
		cmocka_unit_test(test_unknown_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Two runs side by side: every metric of A (the reference: an older run or
 * a baseline) matched with B's by (device identity, test, name, metric),
 * with a verdict that only counts a difference when it is beyond both the
 * measured spread and a relative threshold. Pure: no I/O, no printing.
 *
 * A device is the same device in both runs when VID:PID and serial match
 * (it may have moved to another port), else when the port path matches,
 * else by its key ("host").
 *
 * The noise model. Each side's spread is the standard deviation of one
 * measurement of the figure, taken from (compare_spread):
 *   1. the repeats, when the pass was repeated (repeats > 1, stdev known):
 *      how far the figure itself moved from pass to pass;
 *   2. else the rate sampled within the pass, when it has at least
 *      COMPARE_MIN_SAMPLES samples and held steady (their standard
 *      deviation at most COMPARE_MAX_SAMPLE_CV of their mean): that
 *      standard deviation. Not divided by sqrt(samples): interval samples
 *      are correlated, and what changes between two runs (cache state,
 *      placement on the medium, clocks) is not in one pass's own error; the
 *      spread of the rate over the pass is the cautious stand-in for the
 *      spread of a pass. A rate that swung more than that within its pass
 *      (a throttle's or a cache's bursts, a busy CPU) says how bursty its
 *      intervals were, not how far the next pass will land: on a loaded
 *      2-core host, unthrottled loop-device passes with 23-95% swings came
 *      out 2-4x apart from run to run, beyond 2 of those spreads;
 *   3. else unknown (one pass, not sampled or not steady: latencies,
 *      older runs).
 * Whatever the source, the spread is unknown when the CPUs were contended
 * while the pass ran (its cpu_pressure_pct, PSI "some", over
 * COMPARE_MAX_CPU_PRESSURE_PCT): another program's load comes and goes
 * between runs, and a figure that leans on the CPU (a loop device in RAM
 * went from 26 to 4 GB/s, steady within each pass, under a load of 5 on 2
 * cores) moves with it, which neither its samples nor its repeats show. A
 * quiet machine measures about 0.02% during usbperf's own passes.
 * And the samples give no spread for a pass that kept the CPUs busy past
 * COMPARE_MAX_CPU_BUSY_PCT of one CPU (its cpu_busy_pct): that figure is
 * the CPU's, steady within the pass, and moves with the clock and with
 * where the work lands from run to run (a loop device in RAM, random 4K at
 * QD1, steady to 2-8% within each pass, 150 to 189 MB/s over 8 runs on a
 * quiet 2-core machine, 88% of a CPU busy). Repeats still give one.
 * A difference counts (better or worse) only when it is beyond the
 * threshold AND beyond COMPARE_SPREAD_K x sqrt(sd_a^2 + sd_b^2). Beyond the
 * threshold and within that it is noise. Beyond the threshold with either
 * spread unknown it is "spread unknown": the change may be noise or not, so
 * it is no regression (compare exits 0 on it; check --baseline does not
 * fail on it) and it says so. Within the threshold it is the same whatever
 * the spread.
 */
#include "core/run/record.h"
#include "core/sys/cpustat.h"
#include "render/field.h"

enum compare_verdict {
	VERDICT_SAME,  /* within the threshold */
	VERDICT_NOISE, /* beyond the threshold, within the spread of both runs */
	VERDICT_BETTER,
	VERDICT_WORSE,		/* a regression */
	VERDICT_UNKNOWN,	/* a value is unknown, or the units differ */
	VERDICT_MISSING,	/* in A, not in B */
	VERDICT_NEW,		/* in B, not in A */
	VERDICT_SPREAD_UNKNOWN, /* beyond the threshold, a side's spread unknown */
};

const char *compare_verdict_name(enum compare_verdict v);

#define COMPARE_DEFAULT_THRESHOLD_PCT 5.0
/* how many standard deviations of the difference count as noise */
#define COMPARE_SPREAD_K 2.0
/* fewer interval samples than this say too little about a pass's spread */
#define COMPARE_MIN_SAMPLES 5
/* a pass during which some task waited for a CPU more than this share of the time gives none */
#define COMPARE_MAX_CPU_PRESSURE_PCT CPU_CONTENDED_PCT
/* a pass that kept the machine's CPUs busy past this (% of one CPU) gives none from its samples */
#define COMPARE_MAX_CPU_BUSY_PCT 50.0
/* a pass whose sampled rate swung more than this (stdev / mean) gives no spread */
#define COMPARE_MAX_SAMPLE_CV 0.25

/*
 * One side's spread (the noise model above), NaN when unknown; *ret_from
 * (may be NULL): "repeats", "samples" or NULL.
 */
double compare_spread(const struct run_metric *m, const char **ret_from);

/*
 * One figure. change_pct = (b - a) / |a| * 100 (NaN when a is 0 or
 * unknown). sd_a, sd_b: each side's spread, NaN unknown (the noise model
 * above).
 */
enum compare_verdict compare_metric(double a, double sd_a, double b, double sd_b,
				    bool higher_is_better, double threshold_pct,
				    double *ret_change_pct);

/* strings borrowed from the two records: they must outlive the result */
struct compare_row {
	const char *device_key; /* B's key (A's for a missing metric) */
	const char *test, *name, *metric, *unit;
	double a, a_stdev, b, b_stdev;	 /* *_stdev: the side's spread (compare_spread) */
	const char *a_spread, *b_spread; /* where from: "repeats", "samples", NULL unknown */
	double change_pct;
	const char *verdict;
	char *device_id; /* the identity they were matched by */
	bool higher_is_better;
};

/* something that differs between the runs and may explain a difference */
struct compare_caveat {
	char *subject; /* "env", or the device */
	char *what;    /* "kernel", "speed", "unit of seq-read 1M mb_s" */
	char *a, *b;   /* NULL: not there */
};

struct compare_result {
	const char *a_id, *b_id; /* borrowed */
	const char *baseline;	 /* the caller's: the name A was found by, or NULL */
	double threshold_pct;
	uint64_t better, worse, same, noise, spread_unknown, unknown, missing, added;
	/*
	 * "regression" when any metric is worse; else "spread unknown" when a
	 * change beyond the threshold could not be judged; else "ok"
	 */
	const char *result;
	struct compare_row *rows;
	size_t nrows;
	struct compare_caveat *caveats;
	size_t ncaveats;
};

/* 0 or -ENOMEM; rows in A's order, then B's new metrics in B's order */
int run_compare(const struct run_record *a, const struct run_record *b, double threshold_pct,
		struct compare_result *ret);
void compare_result_release(struct compare_result *c);

extern const struct record_desc compare_summary_desc; /* struct compare_result */
extern const struct record_desc compare_row_desc;
extern const struct record_desc compare_caveat_desc;
/* summary, then the metrics table (CSV renders it), then the caveats */
void compare_describe(const struct compare_result *c, struct report *out);

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
 */
#include "core/run/record.h"
#include "render/field.h"

enum compare_verdict {
	VERDICT_SAME,	 /* within the threshold */
	VERDICT_NOISE,	 /* beyond the threshold, within the spread of the repeats */
	VERDICT_BETTER,
	VERDICT_WORSE,	 /* a regression */
	VERDICT_UNKNOWN, /* a value is unknown, or the units differ */
	VERDICT_MISSING, /* in A, not in B */
	VERDICT_NEW,	 /* in B, not in A */
};

const char *compare_verdict_name(enum compare_verdict v);

#define COMPARE_DEFAULT_THRESHOLD_PCT 5.0
/* how many standard deviations of the difference count as noise */
#define COMPARE_SPREAD_K 2.0

/*
 * One figure. change_pct = (b - a) / |a| * 100 (NaN when a is 0 or
 * unknown). Spreads: the difference is noise when |b - a| <= k *
 * sqrt(sd_a^2 + sd_b^2); an unknown stdev (one repeat) is taken to be the
 * other run's, and when neither is known only the threshold applies.
 */
enum compare_verdict compare_metric(double a, double sd_a, double b, double sd_b,
				    bool higher_is_better, double threshold_pct,
				    double *ret_change_pct);

/* strings borrowed from the two records: they must outlive the result */
struct compare_row {
	const char *device_key; /* B's key (A's for a missing metric) */
	const char *test, *name, *metric, *unit;
	double a, a_stdev, b, b_stdev;
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
	uint64_t better, worse, same, noise, unknown, missing, added;
	const char *result; /* "regression" when any metric is worse, else "ok" */
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

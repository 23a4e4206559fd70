/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * `usbperf check`: runs held against criteria (criteria.h) and/or a
 * baseline run, one row per check. Pure: no I/O, no printing; the rows go
 * to the field tables (text, JSON, CSV), to JUnit (render/junit.h) and to
 * LAVA signals (render/lava.h).
 *
 * For each run, metric by metric in the run's order:
 *   - a row per criterion that matches it (pass or fail);
 *   - with a baseline, a row for its compare verdict (run_compare):
 *     "worse" fails, "unknown" (units differ, a value unknown) fails too;
 *     "spread unknown" (past the threshold, a side's spread unknown:
 *     compare.h) is "skipped", with a note that says so: not judged, so
 *     neither passed nor failed;
 *   - a metric no criterion and no baseline covers still gets a row,
 *     "measured": it was measured, nothing was asked of it.
 * Then a row per criterion that matched nothing: "missing" (a failure: a
 * gate must not pass because the device was not plugged in), or "skipped"
 * when the criterion is optional; and a "missing" row per metric of the
 * baseline that the run lacks.
 */
#include "check/criteria.h"
#include "model/record.h"
#include "model/field.h"

#include <stdint.h>

enum check_status {
	CHECK_PASS,
	CHECK_FAIL,
	CHECK_MISSING,	/* a criterion or a baseline metric matched nothing: fails */
	CHECK_SKIPPED,	/* an optional criterion matched nothing */
	CHECK_MEASURED, /* a metric nothing was asked of */
};

const char *check_status_name(enum check_status s);

enum check_source { SOURCE_NONE, SOURCE_CRITERION, SOURCE_BASELINE };

/* strings marked borrowed point into the runs, the criteria or the baseline */
struct check_row {
	const char *run_id;			       /* borrowed */
	const char *device_key, *test, *name, *metric; /* borrowed; NULL unknown */
	const char *unit;			       /* borrowed */
	double value;	 /* the statistic compared (of); NaN unknown or missing */
	double stdev;	 /* the spread of the repeats */
	const char *of;	 /* "mean", "min", "max": what value is */
	char *criterion; /* ">= 30 MB/s", "baseline nightly (20261130T...): -12.1%"; NULL none */
	const char *result;
	char *note;    /* why it failed, or a caveat ("min unknown: mean used"); NULL none */
	char *case_id; /* the criterion's id, or device.test.name.metric: for JUnit/LAVA */
	enum check_status status;
	enum check_source source;
	size_t run_index;
	size_t criterion_index;	  /* criteria[i] when source is SOURCE_CRITERION */
	const char *criterion_id; /* its "id", borrowed; NULL none */
};

struct check_result {
	const struct run_record *runs; /* borrowed */
	size_t nruns;
	uint64_t runs_n; /* nruns, for the field table */
	uint64_t ncriteria;
	const char *baseline;	 /* the name, borrowed; NULL none */
	const char *baseline_id; /* its run, borrowed */
	double threshold_pct;
	uint64_t checked; /* passed + failed + missing */
	uint64_t passed, failed, missing, skipped, measured;
	const char *result; /* "pass" or "fail" */
	struct check_row *rows;
	size_t nrows;
};

#define CHECK_MAX_ROWS 1000000

struct check_input {
	const struct run_record *runs;
	size_t nruns;
	const struct criteria *criteria;       /* NULL: none */
	const struct run_record *baseline_run; /* NULL: none */
	const char *baseline;		       /* its name */
	double threshold_pct;
};

/*
 * Evaluate. 0, -ENOMEM, or -E2BIG beyond CHECK_MAX_ROWS rows; ret untouched
 * on failure. Everything in in must outlive the result.
 */
int check_evaluate(const struct check_input *in, struct check_result *ret);
void check_result_release(struct check_result *c);
/*
 * A "measured" row that is a measurement to hand on as one (LAVA, JUnit): a
 * figure its class compares, not a CPU number, a count of interrupts or a
 * histogram bin kept to explain the figures (class.h's distribution)
 */
bool check_row_is_measurement(const struct check_row *r);
/* a row that becomes a JUnit or LAVA test case: a check, or with measurements a measurement */
bool check_row_is_case(const struct check_row *r, bool measurements);
/* the run a row belongs to */
const struct run_record *check_row_run(const struct check_result *c, const struct check_row *r);

/* does criterion c select metric m of run r (device, test, name glob, metric) */
bool criterion_matches(const struct criterion *c, const struct run_record *r,
		       const struct run_metric *m);

extern const struct record_desc check_summary_desc; /* struct check_result */
extern const struct record_desc check_row_desc;
/* the summary, then the rows (CSV renders them) */
void check_describe(const struct check_result *c, struct report *out);

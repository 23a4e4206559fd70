/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The fleet view (report --fleet): many boards' runs in one table. A row is
 * one board's series of one headline figure of one device (the figures a
 * class's verdict rests on, else its rates): its latest value against its
 * first in the range (compare's judgement of the two), its link ceiling,
 * and the series itself for a trend.
 */
#include "model/field.h"
#include "run/compare.h"
#include "store/store.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* one point of a row's series, and its row's names (for the JSON's flat table) */
struct fleet_point {
	const char *board, *device, *pass, *metric; /* the row's */
	const char *run, *started_at, *kernel;
	double value, stdev; /* stdev: the figure's spread as compare takes it (NaN unknown) */
};

struct fleet_row {
	char *board;	     /* "rock5b-03 (Radxa ROCK 5B)" */
	const char *machine; /* its machine hash, NULL unknown */
	char *device; /* "2-2 0781:5583": its latest port, and what it is */
	const char *test, *pass, *metric, *unit;
	const char *first_run, *latest_run, *kernel; /* kernel: the latest run's */
	double first, latest, latest_sd, change_pct, ceiling, share_pct;
	uint64_t runs;
	enum compare_verdict v;
	const char *verdict; /* compare's, or "one run" */
	bool higher_is_better;
	char *trend; /* set by the renderer (a sparkline): NULL until then */
	struct fleet_point *points; /* into fleet.points: runs of them */
};

struct fleet {
	struct fleet_row *rows;
	size_t nrows;
	struct fleet_point *points;
	size_t npoints;
	struct store_point *src; /* what the rows point into */
	size_t nsrc;
	size_t boards, devices; /* how many of each the rows hold */
};

/* the metric keys a fleet view asks the history for (store_points), NULL-ended */
const char *const *fleet_metric_keys(void);
/*
 * The rows of pts (store_points' order: oldest run first), judged at
 * threshold_pct. Takes pts (freed by fleet_release). -ENOMEM.
 */
int fleet_build(struct store_point *pts, size_t n, double threshold_pct, struct fleet *ret);
void fleet_release(struct fleet *f);

extern const struct record_desc fleet_row_desc;
extern const struct record_desc fleet_point_desc;

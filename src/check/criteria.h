/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Pass/fail criteria for `usbperf check`: a JSON file a board-farm engineer
 * writes once per board (docs/criteria.md has the format, every key and the
 * matching rules):
 *
 *   {"usbperf_criteria": 1,
 *    "criteria": [{"device": "2-1", "test": "disk", "name": "seq-read 1M",
 *                  "metric": "mb_s", "min": 30}]}
 *
 * Reading is strict, as for export files: an unknown key, a wrong type or a
 * contradiction (min > max) is an error naming its place
 * ("criteria[2]: unknown key 'mni'"), because a gate that silently ignores
 * a typo passes everything. Pure: no I/O, no printing.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

#define CRITERIA_FORMAT 1
/* limits on what a file may ask us to hold */
#define CRITERIA_MAX_BYTES (1u << 20)
#define CRITERIA_MAX 1000
#define CRITERIA_MAX_STRING 256

/* which statistic of the repeats is compared */
enum criterion_of { OF_MEAN, OF_MIN, OF_MAX };

const char *criterion_of_name(enum criterion_of of);

struct criterion {
	char *id;		/* the test case id, NULL: made from what it matched */
	char *device;		/* key, port path, VID:PID, serial or kind; "*" any */
	char *test;		/* NULL: any */
	char *name;		/* fnmatch(3) glob over the pass name; "*" any */
	char *metric;		/* exact */
	char *unit;		/* NULL: not checked; else the metric's unit must be this */
	double min, max;	/* NaN: not set */
	double min_ceiling_pct; /* NaN: not set; MB/s as % of the device's ceiling */
	enum criterion_of of;
	bool optional; /* matching nothing is skipped, not missing */
	size_t index;  /* criteria[index] in the file */
};

struct criteria {
	struct criterion *v;
	size_t n;
};

/*
 * Parse and validate a criteria document. 0, or -EINVAL with the first
 * problem in err (one line, "criteria[2]: ..."), or -ENOMEM; ret untouched
 * on failure. *ret: criteria_release().
 */
int criteria_parse(const char *buf, size_t len, struct criteria *ret, struct strbuf *err);
void criteria_release(struct criteria *c);

/* SPDX-License-Identifier: MIT */
#pragma once
/* The disk class's own options of `usbperf run` (class.h class_option): --scratch, --min-time. */
#include "run/class.h"

#include <stdbool.h>

/* a disk pass: this many repeats back to back that share --time and --min-time, without
 * --repeat, as long as each keeps DISK_MIN_REPEAT_S: each figure then has a spread from the
 * run itself (its CPU share and its p99 as well as its rate), which compare needs to judge a
 * figure measured beside other work (compare.h); with --repeat N each has the whole of them */
#define DISK_RUN_REPEATS 3
#define DISK_MIN_REPEAT_S 0.25
/* the floor of a disk pass: twice the 0.5 s the run warns under, 10 bandwidth samples */
#define DISK_QUICK_MIN_TIME_S 1.0
#define DISK_FULL_MIN_TIME_S 2.0

/* what they fill: run_class_opts(o, &run_class_disk), zero when none was given */
struct disk_run_opts {
	const char *scratch; /* NULL: /var/tmp */
	double min_time_s;
	bool min_time_set;
};

#define DISK_RUN_NOPTIONS 2
extern const struct class_option disk_run_options[DISK_RUN_NOPTIONS];

/* --scratch: the host's test directory when there is no USB disk (default /var/tmp) */
const char *disk_run_scratch(const struct run_options *o);
/* --min-time's floor per disk pass, else the default of --quick or --full */
double disk_run_min_time(const struct run_options *o);
/* --scratch a directory the run may write in: -EINVAL with *ret_why if not */
int disk_run_check_options(const struct run_options *o, char **ret_why);

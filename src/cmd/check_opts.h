/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The pass/fail options of `usbperf check`, shared with any command that
 * gates runs (`usbperf report` will take the same):
 *
 *   its option table (cmd/opt/) lists OPT_ENTRIES_CHECK and OPT_ENTRY_DB;
 *   struct check_opts co = CHECK_OPTS_INIT;
 *   ... in the command's parse_table() handler: r = check_option(c, arg, &co);
 *       0 taken, -ENOENT not ours, -EINVAL bad (logged: exit 2);
 *   ... then check_opts_validate(&co) (exit 2), check_sources_load() (exit
 *       db_exit_status()), check_evaluate() (check/check.h) over the
 *       runs, check_write_junit() and check_emit_lava() (exit 3 on failure).
 */
#include "cmd/common.h"
#include "cmd/opt/shared.h"
#include "check/check.h"
#include "run/compare.h"

struct check_opts {
	const char *criteria; /* file */
	const char *baseline; /* name */
	const char *junit;    /* file */
	double threshold_pct;
	bool lava;
};

#define CHECK_OPTS_INIT {.threshold_pct = COMPARE_DEFAULT_THRESHOLD_PCT}

/* as parse_table() wants: 0 taken, -ENOENT not one of these, -EINVAL bad (logged) */
int check_option(int c, const char *arg, struct check_opts *o);
/* --threshold PCT ("5" or "5%"), --baseline NAME, shared with compare; -EINVAL logged */
int threshold_option(const char *arg, double *ret);
int baseline_option(const char *arg, const char **ret);
/*
 * After parsing: a source is given (when need_source: check needs one,
 * report does not), --junit can be written; -1 logged.
 */
int check_opts_validate(const struct check_opts *o, const char *cmd, bool need_source);
/* any of these options given */
bool check_opts_any(const struct check_opts *o);

/* what the runs are held against */
struct check_sources {
	struct criteria criteria; /* n == 0: none */
	struct run_record baseline_run;
	bool has_baseline;
};

/*
 * Read and validate --criteria, load --baseline's run from the history at
 * db (NULL: the default). One line logged on failure; -errno for
 * db_exit_status() (a bad criteria file is -EINVAL: exit 2).
 */
int check_sources_load(const struct check_opts *o, const char *db, struct check_sources *ret);
void check_sources_release(struct check_sources *s);
/* the input check_evaluate() takes, borrowing from s and runs */
struct check_input check_sources_input(const struct check_opts *o, const struct check_sources *s,
				       const struct run_record *runs, size_t nruns);

/* check_evaluate() of the runs against s; one line logged on failure */
int check_sources_evaluate(const struct check_opts *o, const struct check_sources *s,
			   const struct run_record *runs, size_t nruns, struct check_result *ret);

/* JUnit to o->junit (atomically) when given; 0 or -errno (logged) */
int check_write_junit(const struct check_opts *o, const struct check_result *c);

/*
 * Before any work: --output, --junit and --html (either may be NULL) are
 * refused when one is the same file as an input: the criteria file, a RUN
 * file, or the history at db when it is read (a RUN from it, or
 * --baseline). 0, or -EEXIST / -ENOMEM logged (exit 2 / 3).
 */
int check_refuse_outputs(const struct check_opts *o, const char *db, char *const *runs,
			 size_t nruns, const char *output, const char *html);
/* LAVA signals to stdout; 0 or -errno (logged) */
int check_emit_lava(const struct check_result *c);
/*
 * JUnit's test cases are the checks; with no criteria and no baseline
 * (report --junit alone) they are the measurements instead
 */
bool check_cases_are_measurements(const struct check_opts *o);
/*
 * Whether the table is written too: always without --lava or with
 * --output; with --lava on stdout, in text and without -q (never JSON or
 * CSV mixed with the signals)
 */
bool lava_table(const struct global_opts *g, bool lava);

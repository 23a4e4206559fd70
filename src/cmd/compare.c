// SPDX-License-Identifier: MIT
/* usbperf compare: two runs metric by metric, with a verdict each; exit 1 on a regression. */
#include "cmd/check_opts.h"
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/runs_arg.h"
#include "cmd/opt/tables.h"
#include "run/compare.h"
#include "run/record_json.h"
#include "util/parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void usage_compare(void)
{
	printf("usage: usbperf compare [A B] [options]\n"
	       "       usbperf compare RUN --baseline NAME [options]\n"
	       "\n"
	       "Every metric of run A (the reference) next to the same metric of run B, with\n"
	       "the change and a verdict: 'same' within --threshold; past it, 'better' or\n"
	       "'worse' only when the difference is also beyond 2 standard deviations of\n"
	       "the difference, else 'noise'. A side's spread comes from its repeats (2 or\n"
	       "more), else from within its pass: batches of ~170 ms, robust to a throttle's\n"
	       "or a cache's bursts. A figure is judged on its pass's own evidence of leaning\n"
	       "on the CPU, not the machine's load: the share of the pass its I/O thread\n"
	       "waited for a CPU may have cost it nothing to 3 times that, and a verdict\n"
	       "stands only if it holds both ways. Without a spread, a change past the\n"
	       "threshold is 'spread unknown' (rerun with --repeat 3); where other work on\n"
	       "the CPUs could explain it (a figure that leans on the CPU, measured beside\n"
	       "that work, or waits that may have cost it the change) it is 'contended'\n"
	       "(rerun on a quieter machine). Neither is a regression; the comparison says\n"
	       "why and what to do. Also 'unknown' (a value unknown, units differ),\n"
	       "'missing' (only in A) and 'new' (only in B).\n"
	       "A device is the same in both runs when VID:PID and serial match, else its\n"
	       "port path. What differs in the environment (host, board, kernel, preemption,\n"
	       "governor, usbperf version) and in each device's port, speed, driver and\n"
	       "target is listed as caveats. With --baseline the baseline's run is A and RUN\n"
	       "is B. With no run, B is the newest and A the one before. The same run twice\n"
	       "('compare last last') or runs that share no device or metric are nothing to\n"
	       "compare: exit 2.\n"
	       "\n" RUNS_ARG_HELP "\n");
	opt_usage(stdout, compare_options);
	printf("\n"
	       "Exit: 0 no metric is worse (also spread unknown or contended), 1 a regression\n"
	       "(a metric is worse), 2 bad input, no such run, A and B the same run, or runs\n"
	       "that share no device or metric (nothing to compare), 3 the database could not\n"
	       "be read.\n");
}

struct compare_opts {
	const char *db, *baseline, *board;
	const char *a, *b;
	double threshold;
};

static int compare_option(int c, const char *arg, void *ctx)
{
	struct compare_opts *o = ctx;

	switch (c) {
	case OPT_BASELINE:
		return baseline_option(arg, &o->baseline);
	case OPT_THRESHOLD:
		return threshold_option(arg, &o->threshold);
	case OPT_DB:
		return db_option(arg, &o->db);
	case OPT_BOARD:
		return board_option(arg, &o->board);
	}
	return -ENOENT;
}

static int positional(int argc, char **argv, struct compare_opts *o)
{
	int want = o->baseline ? 1 : 2;

	if (argc == optind && !o->baseline)
		return 0; /* the two newest */
	if (argc - optind < want) {
		log_error(o->baseline ? "compare: which run? (usbperf compare RUN --baseline NAME)"
				      : "compare: two runs needed (usbperf compare A B, or RUN "
					"--baseline NAME)");
		return -1;
	}
	if (argc - optind > want) {
		log_error("compare: unexpected argument '%s' (see 'usbperf compare -h')",
			  argv[optind + want]);
		return -1;
	}
	o->a = want == 2 ? argv[optind] : NULL;
	o->b = argv[argc - 1];
	return 0;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct compare_opts *o)
{
	int r;

	r = parse_table(argc, argv, g, "compare", compare_options, usage_compare, compare_option, o);
	if (r != 0)
		return r;
	return positional(argc, argv, o);
}

/* With no run: "last~1" and "last", once the history (of --board) is known to hold two */
static int newest_two(const struct compare_opts *o)
{
	struct store_filter f = {.board = o->board, .limit = 2};
	struct run_summary *v = NULL;
	struct store *s;
	size_t n = 0;
	int r = db_open(o->db, DB_READ, &s);

	if (r < 0)
		return r;
	r = store_list_runs(s, &f, &v, &n);
	if (r < 0)
		db_failed(s, r);
	else if (n < 2 && o->board)
		log_error("compare needs two runs; the history holds %zu of board '%s'", n,
			  o->board);
	else if (n < 2)
		log_error("compare needs two runs; the history holds %zu", n);
	run_summaries_free(v, n);
	store_close(s);
	return r < 0 ? r : n < 2 ? -EINVAL : 0;
}

/* The baseline's run id as A's operand; *ret: free() */
static int baseline_run(const struct compare_opts *o, char **ret)
{
	struct store *s;
	int r = db_open(o->db, DB_READ, &s);

	if (r < 0)
		return r;
	r = store_baseline_get(s, o->baseline, ret);
	if (r == -ENOENT)
		log_error("no baseline '%s' (see 'usbperf baseline')", o->baseline);
	else if (r < 0)
		db_failed(s, r);
	store_close(s);
	return r;
}

/*
 * A from the baseline or the first operand, B from the last; each a run in
 * the history or a file (runs_load). *ret: run_records_free(*ret, 2).
 */
static int load_pair(const struct compare_opts *o, struct run_record **ret)
{
	char *args[2] = {(char *)(o->a ? o->a : "last~1"), (char *)(o->b ? o->b : STORE_RUN_LAST)};
	char *base_id = NULL;
	int r = 0;

	if (o->baseline)
		r = baseline_run(o, &base_id);
	else if (!o->b)
		r = newest_two(o);
	if (r < 0)
		return r;
	if (base_id)
		args[0] = base_id;
	runs_scope_board(o->board);
	r = runs_load_n(o->db, args, 2, "compare", ret);
	free(base_id);
	return r;
}

/* -o over a run file or the history read */
static int refuse_output(const struct compare_opts *o, const char *output)
{
	char *const args[2] = {(char *)(o->a ? o->a : ""), (char *)(o->b ? o->b : "")};

	return runs_refuse_output(o->db, args, 2, output);
}

void schema_compare(struct report *r)
{
	static const struct compare_result none;

	compare_describe(&none, r);
}

/*
 * A run against itself measures nothing: a gate that said "ok" there would
 * pass whatever the device did (`compare last last`, a baseline set on the
 * run it is then compared with)
 */
static bool same_run(const struct compare_opts *o, const struct run_record *ab)
{
	if (!ab[0].id || !ab[1].id || strcmp(ab[0].id, ab[1].id))
		return false;
	if (o->baseline)
		log_error("compare: '%s' is the run of baseline '%s' (%s): nothing to compare",
			  o->b, o->baseline, ab[1].id);
	else
		log_error("compare: '%s' and '%s' are the same run (%s): nothing to compare",
			  o->a ? o->a : "last~1", o->b ? o->b : "last", ab[0].id);
	return true;
}

int cmd_compare(int argc, char **argv, struct global_opts *g)
{
	struct compare_opts o = {.threshold = COMPARE_DEFAULT_THRESHOLD_PCT};
	struct report rep = {.command = "compare"};
	struct run_record *ab;
	struct compare_result c;
	int r;

	r = parse_args(argc, argv, g, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 || refuse_output(&o, g->output) < 0)
		return EXIT_USAGE;
	r = load_pair(&o, &ab);
	if (r < 0)
		return r == -ENOMEM ? EXIT_RUNTIME : db_exit_status(r);
	if (same_run(&o, ab)) {
		run_records_free(ab, 2);
		return EXIT_USAGE;
	}
	r = run_compare(&ab[0], &ab[1], o.threshold, &c);
	if (r == 0 && !c.compared) {
		log_error("compare: runs '%s' and '%s' share no device or metric: nothing to compare",
			  ab[0].id, ab[1].id);
		compare_result_release(&c);
		r = EXIT_USAGE;
	} else if (r == 0) {
		c.baseline = o.baseline;
		compare_describe(&c, &rep);
		r = emit_report(g, &rep) < 0 ? EXIT_RUNTIME : c.worse ? EXIT_FAIL : EXIT_OK;
		compare_result_release(&c);
	} else {
		log_error("cannot compare: %s", strerror(-r));
		r = EXIT_RUNTIME;
	}
	run_records_free(ab, 2);
	return r;
}

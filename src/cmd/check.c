// SPDX-License-Identifier: MIT
/* usbperf check: runs against criteria and/or a baseline; exit 1 when a check fails. */
#include "cmd/check_opts.h"
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/runs_arg.h"
#include "cmd/opt/tables.h"
#include "run/record_json.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void usage_check(void)
{
	printf("usage: usbperf check RUN... --criteria FILE [options]\n"
	       "       usbperf check RUN... --baseline NAME [options]\n"
	       "\n"
	       "Hold runs against pass/fail criteria, for CI and board farms. Each RUN is\n"
	       "checked; one row per check: the value, the criterion ('>= 30 MB/s',\n"
	       "'baseline nightly: -12.1%%') and the result:\n"
	       "  pass, fail     the value meets the criterion or not; with --baseline, a\n"
	       "                 metric 'worse' than the baseline (see 'usbperf compare -h')\n"
	       "                 fails, and so does one that cannot be compared (units differ)\n"
	       "  missing        a criterion matched no metric, or a baseline metric is not\n"
	       "                 in the run: a failure, so a gate does not pass because the\n"
	       "                 device was not plugged in\n"
	       "  skipped        an \"optional\" criterion matched nothing; or, with\n"
	       "                 --baseline, a change past the threshold whose spread is\n"
	       "                 unknown (one pass, its rate not sampled or unsteady, or the\n"
	       "                 CPUs contended): not judged\n"
	       "  measured       a metric nothing was asked of (not a check)\n"
	       "The criteria file is JSON; its format, every key and the matching rules are\n"
	       "in docs/criteria.md. For example, the 1M sequential read of the device at\n"
	       "port 2-1 at least 30 MB/s:\n"
	       "  {\"usbperf_criteria\": 1, \"criteria\": [{\"device\": \"2-1\",\n"
	       "   \"name\": \"seq-read 1M\", \"metric\": \"mb_s\", \"min\": 30}]}\n"
	       "\n" RUNS_ARG_HELP "\n");
	opt_usage(stdout, check_options);
	printf("\n"
	       "Exit: 0 every check passed, 1 a check failed or is missing, 2 bad input (bad\n"
	       "criteria file, no such run or baseline), 3 a runtime error (the database or\n"
	       "--junit could not be read or written).\n");
}

struct cmd_check_opts {
	struct check_opts co;
	const char *db;
	bool all;
};

static int check_cmd_option(int c, const char *arg, void *ctx)
{
	struct cmd_check_opts *o = ctx;
	int r = check_option(c, arg, &o->co);

	if (r != -ENOENT)
		return r;
	if (c == CHECK_O_ALL) {
		o->all = true;
		return 0;
	}
	return c == OPT_DB ? db_option(arg, &o->db) : -ENOENT;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct cmd_check_opts *o)
{
	int r;

	r = parse_table(argc, argv, g, "check", check_options, usage_check, check_cmd_option, o);
	if (r != 0)
		return r;
	if (optind >= argc) {
		log_error("check: which runs? (usbperf check RUN... --criteria FILE)");
		return -1;
	}
	return check_opts_validate(&o->co, "check", true);
}

/* the result to stdout, --output, --junit: the exit status */
static int emit(const struct global_opts *g, const struct cmd_check_opts *o,
		const struct check_result *res)
{
	const struct check_opts *co = &o->co;
	struct report rep = {.command = "check"};
	int status = res->failed || res->missing ? EXIT_FAIL : EXIT_OK;
	struct check_result shown = *res;

	/* on a terminal the checks; the metrics nothing was asked of are counted */
	if (g->format == FORMAT_TEXT && !o->all) {
		shown.rows = malloc((res->nrows + 1) * sizeof(*shown.rows));
		if (!shown.rows)
			return EXIT_RUNTIME;
		shown.nrows = 0;
		for (size_t i = 0; i < res->nrows; i++)
			if (res->rows[i].status != CHECK_MEASURED)
				shown.rows[shown.nrows++] = res->rows[i];
	}
	check_describe(&shown, &rep);
	if (check_write_junit(co, res) < 0)
		status = EXIT_RUNTIME;
	/* with --lava the table is for whoever reads the job's log: before the signals, in text */
	if (lava_table(g, co->lava) && emit_report(g, &rep) < 0)
		status = EXIT_RUNTIME;
	if (co->lava && check_emit_lava(res) < 0)
		status = EXIT_RUNTIME;
	if (shown.rows != res->rows)
		free(shown.rows);
	return status;
}

void schema_check(struct report *r)
{
	static const struct check_result none;

	check_describe(&none, r);
}

int cmd_check(int argc, char **argv, struct global_opts *g)
{
	struct cmd_check_opts o = {.co = CHECK_OPTS_INIT};
	struct check_sources src;
	struct check_result res;
	struct run_record *runs;
	size_t nruns;
	int r;

	r = parse_args(argc, argv, g, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 ||
	    check_refuse_outputs(&o.co, o.db, argv + optind, (size_t)(argc - optind), g->output,
				 NULL) < 0)
		return EXIT_USAGE;
	r = check_sources_load(&o.co, o.db, &src);
	if (r < 0)
		return db_exit_status(r);
	r = runs_load(o.db, argv + optind, (size_t)(argc - optind), &runs, &nruns);
	if (r < 0) {
		check_sources_release(&src);
		return db_exit_status(r);
	}
	r = check_sources_evaluate(&o.co, &src, runs, nruns, &res);
	if (r == 0) {
		r = emit(g, &o, &res);
		check_result_release(&res);
	} else {
		r = EXIT_RUNTIME;
	}
	run_records_free(runs, nruns);
	check_sources_release(&src);
	return r;
}

// SPDX-License-Identifier: MIT
/* usbperf report: runs as a self-contained HTML page, or as text with bars and sparklines. */
#include "cmd/report_fleet.h"
#include "cmd/check_opts.h"
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/runs_arg.h"
#include "cmd/opt/tables.h"
#include "report/model.h"
#include "run/compare.h"
#include "run/record_json.h"
#include "render/html.h"
#include "render/report_text.h"
#include "render/spark.h"
#include "util/parse.h"
#include "util/utctime.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void usage_report(void)
{
	printf("usage: usbperf report [RUN...] [--html FILE] [options]\n"
	       "       usbperf report --fleet [--since DATE] [--board NAME] [--html FILE] [options]\n"
	       "\n"
	       "With --fleet: every board of the history in one view (a farm's): per board\n"
	       "and device, each headline figure's latest run against its first in the\n"
	       "range, its ceiling, the verdict and a trend; text, json, csv or --html.\n"
	       "\n"
	       "Runs as people look at them. With --html: one self-contained page (inline\n"
	       "CSS and SVG, no script, nothing fetched) that opens offline in any browser,\n"
	       "prints, and reads on a phone: the setup, the topology with speeds and\n"
	       "drivers, per device throughput against block size (an MTP device's against\n"
	       "file size, or the device's buffer size for run --mtp-buffers; raw flash's\n"
	       "write rate against the write size) with the bus\n"
	       "ceiling and the field reference band drawn in, repeat spread as error bars,\n"
	       "the other rates and CPU use, the findings, and with two or more runs every metric\n"
	       "against the first run (as 'usbperf compare' judges it). Without --html, or\n"
	       "with -o: the same on the terminal, with sparklines and bars (Unicode when the\n"
	       "locale is UTF-8). At most %d runs; the newest when none is given.\n"
	       "\n"
	       "With --criteria or --baseline the runs are also checked as 'usbperf check'\n"
	       "does it: a Checks section in the page, --junit and --lava as there, and\n"
	       "exit 1 when a check fails; the checks are the test cases. --junit alone gives\n"
	       "every measurement (not a CPU number or a histogram bin) as a passing test\n"
	       "case with its value and unit, --lava as a case with the result unknown\n"
	       "(measured, not judged).\n"
	       "\n"
	       RUNS_ARG_HELP
	       "\n",
	       REPORT_MAX_RUNS);
	opt_usage(stdout, report_options);
	printf("\n"
	       "Exit: 0 written (and every check passed), 1 a check failed or is missing, 2 bad\n"
	       "input or no such run, 3 a file could not be written.\n");
}

struct report_opts {
	const char *db, *html;
	struct check_opts co;
	char **runs;
	size_t nruns;
	bool fleet;
	struct fleet_opts fo;
	char since[UTC_TIME_LEN + 1], until[UTC_TIME_LEN + 1];
};

#include "cmd/report.opts.h"

static int report_option(int c, const char *arg, void *ctx)
{
	struct report_opts *o = ctx;
	int r = check_option(c, arg, &o->co);

	if (r != -ENOENT)
		return r;
	switch (c) {
	case REPORT_O_HTML:
		if (!*arg) {
			log_error("invalid --html '': a file name is needed");
			return -EINVAL;
		}
		o->html = arg;
		return 0;
	case OPT_DB:
		return db_option(arg, &o->db);
	case REPORT_O_SINCE:
		o->fo.since = o->since;
		return db_date_option("--since", arg, false, o->since);
	case REPORT_O_UNTIL:
		o->fo.until = o->until;
		return db_date_option("--until", arg, true, o->until);
	case OPT_BOARD:
		return board_option(arg, &o->fo.board);
	}
	return -ENOENT;
}

/* --fleet reads the history alone: no RUN, no checks; its options only with it */
static int fleet_args(int argc, struct report_opts *o)
{
	if (!o->fleet) {
		if (o->fo.since || o->fo.until || o->fo.board) {
			log_error("report: --since, --until and --board go with --fleet");
			return -1;
		}
		return 0;
	}
	if (optind < argc) {
		log_error("report --fleet: takes no RUN (it reads every run of the history in the "
			  "range)");
		return -1;
	}
	if (check_opts_any(&o->co)) {
		log_error("report --fleet: --criteria, --baseline, --junit and --lava are for runs "
			  "(usbperf report RUN...)");
		return -1;
	}
	o->fo.db = o->db;
	o->fo.html = o->html;
	o->fo.threshold_pct = o->co.threshold_pct;
	return 0;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct report_opts *o)
{
	static char *newest[] = {(char *)STORE_RUN_LAST};
	int r;

	r = parse_bound(argc, argv, g, "report", report_options, usage_report, report_binds,
			report_option, o);
	if (r == 0)
		r = fleet_args(argc, o);
	if (r != 0)
		return r;
	if (o->fleet)
		return check_format(g, "report --fleet", FMT_ALL);
	if (check_format(g, "report", FMT_TEXT) < 0)
		return -1;
	if ((size_t)(argc - optind) > REPORT_MAX_RUNS) {
		log_error("report: at most %d runs at a time, %d given", REPORT_MAX_RUNS,
			  argc - optind);
		return -1;
	}
	o->runs = optind < argc ? argv + optind : newest;
	o->nruns = optind < argc ? (size_t)(argc - optind) : 1;
	return check_opts_validate(&o->co, "report", false);
}

/* run 0 against each later run, as compare does it */
static int compare_all(const struct run_record *v, size_t n, double threshold,
		       struct compare_result **ret)
{
	struct compare_result *c;
	size_t i;
	int r;

	*ret = NULL;
	if (n < 2)
		return 0;
	c = calloc(n - 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		r = run_compare(&v[0], &v[i], threshold, &c[i - 1]);
		if (r < 0) {
			while (--i > 0)
				compare_result_release(&c[i - 1]);
			free(c);
			return r;
		}
	}
	*ret = c;
	return 0;
}

static int write_html(const char *path, const struct report_model *m,
		      const struct compare_result *cmp, const struct check_result *checks)
{
	char now[UTC_TIME_LEN + 1];
	struct strbuf out = STRBUF_INIT;
	struct html_input in = {
		.model = m, .cmp = cmp, .generated_at = now, .checks = checks};
	int r;

	utc_time_format(time(NULL), now);
	html_report(&out, &in);
	r = write_file_atomic(path, out.buf, out.len);
	strbuf_release(&out);
	return r;
}

/* the runs held against --criteria/--baseline; 0, 1 none asked, or -errno (logged) */
static int run_checks(const struct report_opts *o, const struct run_record *v, size_t n,
		      struct check_sources *src, struct check_result *ret)
{
	int r;

	if (!check_opts_any(&o->co))
		return 1;
	r = check_sources_load(&o->co, o->db, src);
	if (r < 0)
		return r;
	r = check_sources_evaluate(&o->co, src, v, n, ret);
	if (r < 0)
		check_sources_release(src);
	return r;
}

/* every output asked for; the exit status */
static int emit_all(const struct global_opts *g, const struct report_opts *o,
		    const struct report_model *m, const struct compare_result *cmp,
		    const struct check_result *checks)
{
	int status = checks && (checks->failed || checks->missing) ? EXIT_FAIL : EXIT_OK;

	if (o->html && write_html(o->html, m, cmp, checks) < 0)
		status = EXIT_RUNTIME;
	if (checks && check_write_junit(&o->co, checks) < 0)
		status = EXIT_RUNTIME;
	/* the text when the page does not take its place, or to --output; before the signals */
	if ((!o->html && lava_table(g, o->co.lava)) || g->output) {
		struct strbuf out = STRBUF_INIT;

		report_text(&out, m, cmp, text_utf8());
		if (emit_text(g, out.buf, out.len) < 0)
			status = EXIT_RUNTIME;
		strbuf_release(&out);
	}
	if (o->co.lava && check_emit_lava(checks) < 0)
		status = EXIT_RUNTIME;
	return status;
}

int cmd_report(int argc, char **argv, struct global_opts *g)
{
	struct report_opts o = {.co = CHECK_OPTS_INIT};
	struct compare_result *cmp = NULL;
	struct check_sources src;
	struct check_result checks;
	struct run_record *v = NULL;
	struct report_model m;
	size_t n = 0;
	int r, status, has_checks;

	r = parse_args(argc, argv, g, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (o.fleet) {
		if (check_output(g) < 0 || check_writable("--html", o.html) < 0 ||
		    db_refuse_output_db(o.db, g->output) < 0 || db_refuse_output_db(o.db, o.html) < 0)
			return EXIT_USAGE;
		return report_fleet(g, &o.fo);
	}
	if (check_output(g) < 0 || check_writable("--html", o.html) < 0 ||
	    check_refuse_outputs(&o.co, o.db, o.runs, o.nruns, g->output, o.html) < 0)
		return EXIT_USAGE;
	r = runs_load(o.db, o.runs, o.nruns, &v, &n);
	if (r < 0)
		return db_exit_status(r);
	if (n > REPORT_MAX_RUNS) {
		log_error("report: at most %d runs at a time, the files hold %zu", REPORT_MAX_RUNS,
			  n);
		run_records_free(v, n);
		return EXIT_USAGE;
	}
	has_checks = run_checks(&o, v, n, &src, &checks);
	if (has_checks < 0) {
		run_records_free(v, n);
		return has_checks == -ENOMEM ? EXIT_RUNTIME : db_exit_status(has_checks);
	}
	r = report_model_build(v, n, &m);
	if (r == 0) {
		r = compare_all(v, n, o.co.threshold_pct, &cmp);
		if (r < 0)
			report_model_release(&m);
	}
	if (r < 0) {
		log_error("cannot build the report: %s", strerror(-r));
		status = EXIT_RUNTIME;
	} else {
		status = emit_all(g, &o, &m, cmp, has_checks == 0 ? &checks : NULL);
		for (size_t i = 0; cmp && i + 1 < n; i++)
			compare_result_release(&cmp[i]);
		free(cmp);
		report_model_release(&m);
	}
	if (has_checks == 0) {
		check_result_release(&checks);
		check_sources_release(&src);
	}
	run_records_free(v, n);
	return status;
}

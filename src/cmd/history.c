// SPDX-License-Identifier: MIT
/* usbperf history: the runs in the history, newest first; --check its integrity. */
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "util/parse.h"
#include "util/utctime.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void usage_history(void)
{
	printf("usage: usbperf history [options]\n"
	       "\n"
	       "The runs in the history, newest first: id, date, host, board, kernel, what\n"
	       "was measured (VID:PID@port), how many metrics and findings, and the baselines\n"
	       "that point at each. An id prefix is enough for 'show' and 'compare'.\n"
	       "\n");
	opt_usage(stdout, history_options);
	printf("\n"
	       "Exit: 0 ok, 1 --check found damage, 2 bad input, 3 the database could not be\n"
	       "read (--check: a table or column is missing).\n");
}

struct history_opts {
	const char *db;
	char since[UTC_TIME_LEN + 1], until[UTC_TIME_LEN + 1];
	struct store_filter f;
	bool check;
};

#include "cmd/history.opts.h"

static int history_option(int c, const char *arg, void *ctx)
{
	struct history_opts *o = ctx;

	switch (c) {
	case HISTORY_O_DEVICE:
		if (!*arg || strlen(arg) > 256) {
			log_error("invalid --device '%s': 1 to 256 characters", arg);
			return -EINVAL;
		}
		o->f.device = arg;
		return 0;
	case HISTORY_O_SINCE:
		o->f.since = o->since;
		return db_date_option("--since", arg, false, o->since);
	case HISTORY_O_UNTIL:
		o->f.until = o->until;
		return db_date_option("--until", arg, true, o->until);
	case OPT_BOARD:
		return board_option(arg, &o->f.board);
	case OPT_DB:
		return db_option(arg, &o->db);
	}
	return -ENOENT;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct history_opts *o)
{
	int r;

	r = parse_bound(argc, argv, g, "history", history_options, usage_history, history_binds,
			history_option, o);
	if (r != 0)
		return r;
	if (optind < argc) {
		log_error("history: unexpected argument '%s' (see 'usbperf history -h')",
			  argv[optind]);
		return -1;
	}
	if (o->check && (o->f.device || o->f.since || o->f.until || o->f.limit || o->f.board)) {
		log_error("history: --check takes no filters");
		return -1;
	}
	if (o->check && check_format(g, "history --check", FMT_TEXT | FMT_JSON) < 0)
		return -1;
	return 0;
}

static int check(struct store *s, const struct global_opts *g)
{
	struct report rep = {.command = "history"};
	struct store_stats st;
	int r = store_check(s, &st);

	if (r < 0)
		return db_failed(s, r);
	report_add_object(&rep, "database", NULL, &store_stats_desc, &st);
	r = emit_report(g, &rep) < 0 ? EXIT_RUNTIME : st.ok ? EXIT_OK : EXIT_FAIL;
	/* a table or column missing: every command that reads it would fail */
	if (!st.schema_ok) {
		log_error("the history '%s' lacks what schema version %d has: %s", store_path(s),
			  store_schema_version(), st.schema);
		r = EXIT_RUNTIME;
	}
	store_stats_release(&st);
	return r;
}

static int list(struct store *s, const char *db, const struct store_filter *f,
		const struct global_opts *g)
{
	static char *const none[] = {"no runs in the history", "no run matches the filters"};
	struct report rep = {.command = "history"};
	bool filtered = f->device || f->since || f->until || f->board;
	struct strbuf dir = STRBUF_INIT, waiting = STRBUF_INIT;
	char *warn[2];
	struct run_summary *v;
	size_t n, npending = db_pending_count(s, db);
	int r = store_list_runs(s, f, &v, &n);

	if (r < 0)
		return db_failed(s, r);
	report_add_table(&rep, "runs", NULL, &run_summary_desc, v, n, sizeof(*v));
	if (n == 0)
		warn[rep.nwarnings++] = none[filtered];
	/* runs measured while the history was locked: not lost, not in it yet either */
	if (npending && db_pending_dir(db, &dir) == 0) {
		strbuf_addf(&waiting,
			    "%zu run%s not saved into this history wait in '%s': "
			    "'usbperf import FILE' adds each",
			    npending, npending == 1 ? "" : "s", dir.buf);
		warn[rep.nwarnings++] = waiting.buf;
	}
	rep.warnings = warn;
	r = emit_report(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
	run_summaries_free(v, n);
	strbuf_release(&dir);
	strbuf_release(&waiting);
	return r;
}

void schema_history(struct report *r)
{
	/* the runs; or --check's database */
	report_add_table(r, "runs", NULL, &run_summary_desc, NULL, 0, 0);
	report_add_object(r, "database", NULL, &store_stats_desc, NULL);
}

int cmd_history(int argc, char **argv, struct global_opts *g)
{
	struct history_opts o = {0};
	struct store *s;
	int r;

	r = parse_args(argc, argv, g, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 || db_refuse_output_db(o.db, g->output) < 0)
		return EXIT_USAGE;
	r = db_open(o.db, DB_READ, &s);
	if (r < 0)
		return db_exit_status(r);
	r = o.check ? check(s, g) : list(s, o.db, &o.f, g);
	store_close(s);
	return r;
}

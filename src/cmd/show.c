// SPDX-License-Identifier: MIT
/* usbperf show RUN: one run from the history, as it was reported. */
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "cmd/runs_arg.h"
#include "model/record_fields.h"
#include "run/record_json.h"
#include "render/verdict_text.h"

#include <stdio.h>
#include <string.h>

void usage_show(void)
{
	printf("usage: usbperf show [RUN] [options]\n"
	       "\n"
	       "One run from the history: where it ran (host, board, kernel, preemption,\n"
	       "governor, usbperf version), the devices it measured, every metric with its\n"
	       "unit, repeats and spread, and its findings; the newest run when no RUN is\n"
	       "given. First, the verdict: what limits each device; the findings are\n"
	       "grouped under it, and the run's notes and the devices it found but did not\n"
	       "measure (with why) are shown too.\n"
	       "\n" RUNS_ARG_HELP "\n");
	opt_usage(stdout, show_options);
	printf("\n"
	       "Exit: 0 ok, 2 bad input or no such run, 3 the database could not be read.\n");
}

static int parse_args(int argc, char **argv, struct global_opts *g, const char **ret_db,
		      const char **ret_run)
{
	int r = db_parse_args(argc, argv, g, "show", show_options, usage_show, ret_db);

	if (r != 0)
		return r;
	if (optind + 1 < argc) {
		log_error("show: unexpected argument '%s' (one run at a time)", argv[optind + 1]);
		return -1;
	}
	*ret_run = optind < argc ? argv[optind] : STORE_RUN_LAST;
	return 0;
}

static int emit_json(const struct global_opts *g, const struct run_record *r)
{
	struct strbuf out = STRBUF_INIT;
	struct json_object *o;
	int ret = run_record_to_json(r, &o);

	if (ret < 0) {
		log_error("cannot render the run: %s", strerror(-ret));
		return ret;
	}
	strbuf_addf(&out, "%s\n",
		    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_SPACED |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
	ret = emit_text(g, out.buf, out.len);
	json_object_put(o);
	strbuf_release(&out);
	return ret;
}

void schema_show(struct report *r)
{
	r->shape = REPORT_SHAPE_RECORD;
	run_record_schema(r);
}

int cmd_show(int argc, char **argv, struct global_opts *g)
{
	struct report rep = {.command = "show"};
	const char *db = NULL, *run = NULL;
	struct run_record *r;
	int ret;

	ret = parse_args(argc, argv, g, &db, &run);
	if (ret != 0)
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 || runs_refuse_output(db, (char *const *)&run, 1, g->output) < 0)
		return EXIT_USAGE;
	ret = runs_load_n(db, (char *const *)&run, 1, "show", &r);
	if (ret < 0)
		return db_exit_status(ret);
	if (g->format == FORMAT_JSON) {
		ret = emit_json(g, r);
	} else if (g->format == FORMAT_TEXT) {
		struct strbuf out = STRBUF_INIT;

		/* the verdicts first, the findings under them, the notes last */
		run_record_describe(r, false, &rep);
		ret = render_run_text(r, &rep, &out);
		if (ret == 0)
			ret = emit_text(g, out.buf, out.len);
		strbuf_release(&out);
	} else {
		run_record_describe(r, g->format == FORMAT_CSV, &rep);
		ret = emit_report(g, &rep);
	}
	run_records_free(r, 1);
	return ret < 0 ? EXIT_RUNTIME : EXIT_OK;
}

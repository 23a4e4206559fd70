// SPDX-License-Identifier: MIT
/* usbperf export: runs from the history as one JSON document, for 'usbperf import'. */
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "cmd/runs_arg.h"
#include "model/record_fields.h"
#include "run/record_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void usage_export(void)
{
	printf("usage: usbperf export [RUN...] [options]\n"
	       "\n"
	       "Write runs from the history as one JSON document (every run: environment,\n"
	       "devices, metrics, findings), all of them oldest first when no RUN is given.\n"
	       "'usbperf import' adds them to another history: a board farm pools its results\n"
	       "this way. Format: {\"usbperf_export\": 1, \"usbperf\": VERSION, \"runs\": [...]},\n"
	       "each run as 'usbperf show --format json' prints it. A run named twice goes\n"
	       "once.\n"
	       "\n" RUNS_ARG_HELP "\n");
	opt_usage(stdout, export_options);
	printf("\n"
	       "Exit: 0 ok, 2 bad input or no such run, 3 the database could not be read or\n"
	       "the file written.\n");
}

#define JSON_FLAGS                                                                               \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

static int parse_args(int argc, char **argv, struct global_opts *g, const char **ret_db)
{
	/* --format csv is refused by the command table's format mask (main.c) */
	return db_parse_args(argc, argv, g, "export", export_options, usage_export, ret_db);
}

/* the runs an earlier record of v[0..i) does not already carry */
static bool seen(const struct run_record *v, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(v[j].id, v[i].id))
			return true;
	return false;
}

static int add_record(struct json_object *runs, const struct run_record *rec)
{
	struct json_object *o;
	int r = run_record_to_json(rec, &o);

	if (r == 0)
		json_object_array_add(runs, o);
	return r;
}

/* the runs the operands name, every one loaded before anything is written */
static int build_from_args(const char *db, char **args, size_t nargs, struct strbuf *out)
{
	struct json_object *doc, *runs;
	struct run_record *v;
	size_t n;
	int r = runs_load(db, args, nargs, &v, &n);

	if (r < 0)
		return r;
	r = run_export_new(&doc, &runs);
	for (size_t i = 0; r == 0 && i < n; i++)
		if (!seen(v, i))
			r = add_record(runs, &v[i]);
	if (r == 0)
		strbuf_addf(out, "%s\n", json_object_to_json_string_ext(doc, JSON_FLAGS));
	if (r == -ENOMEM)
		log_error("out of memory");
	json_object_put(doc);
	run_records_free(v, n);
	return r;
}

static int all_runs(struct store *s, char ***ret, size_t *ret_n)
{
	const struct store_filter f = {.oldest_first = true};
	struct run_summary *v;
	size_t n;
	char **ids;
	int r = store_list_runs(s, &f, &v, &n);

	if (r < 0) {
		db_failed(s, r);
		return r;
	}
	ids = calloc(n ? n : 1, sizeof(*ids));
	if (!ids) {
		run_summaries_free(v, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		ids[i] = v[i].id; /* taken over */
		v[i].id = NULL;
	}
	run_summaries_free(v, n);
	*ret = ids;
	*ret_n = n;
	return 0;
}

static int build_document(struct store *s, char **ids, size_t n, struct strbuf *out)
{
	struct json_object *doc, *runs;
	int r = run_export_new(&doc, &runs);

	for (size_t i = 0; r == 0 && i < n; i++) {
		struct run_record rec;

		/* by its exact id: an old history may hold a run named like "last" */
		r = store_load_run_id(s, ids[i], &rec);
		if (r < 0) {
			db_failed(s, r);
			break;
		}
		r = add_record(runs, &rec);
		run_record_release(&rec);
	}
	if (r == 0)
		strbuf_addf(out, "%s\n", json_object_to_json_string_ext(doc, JSON_FLAGS));
	json_object_put(doc);
	return r;
}

void schema_export(struct report *r)
{
	r->shape = REPORT_SHAPE_EXPORT;
	run_record_schema(r);
}

int cmd_export(int argc, char **argv, struct global_opts *g)
{
	struct strbuf out = STRBUF_INIT;
	const char *db = NULL;
	struct store *s;
	char **ids = NULL;
	size_t n = 0;
	int r, status = EXIT_OK;

	r = parse_args(argc, argv, g, &db);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 ||
	    runs_refuse_output(db, argv + optind, (size_t)(argc - optind), g->output) < 0)
		return EXIT_USAGE;
	if (optind < argc) {
		r = build_from_args(db, argv + optind, (size_t)(argc - optind), &out);
		if (r < 0)
			status = r == -ENOMEM ? EXIT_RUNTIME : db_exit_status(r);
		else if (emit_text(g, out.buf, out.len) < 0)
			status = EXIT_RUNTIME;
		strbuf_release(&out);
		return status;
	}
	r = db_open(db, DB_READ, &s);
	if (r < 0)
		return db_exit_status(r);
	/* runs never change once saved: loading them one by one is consistent */
	r = all_runs(s, &ids, &n);
	if (r < 0)
		status = db_exit_status(r);
	else if ((r = build_document(s, ids, n, &out)) < 0)
		status = r == -ENOMEM ? EXIT_RUNTIME : db_exit_status(r);
	store_close(s);
	if (status == EXIT_OK && emit_text(g, out.buf, out.len) < 0)
		status = EXIT_RUNTIME;
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	strbuf_release(&out);
	return status;
}

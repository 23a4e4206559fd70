// SPDX-License-Identifier: MIT
/* usbperf import FILE: add the runs of an export file to the history. */
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "cmd/runs_arg.h"
#include "run/record_json.h"
#include "util/signals.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void usage_import(void)
{
	printf("usage: usbperf import FILE [options]\n"
	       "\n"
	       "Add the runs of FILE to the history, creating it if needed: an export\n"
	       "('usbperf export'), or one run as 'run -F json' or 'show -F json' wrote it;\n"
	       "'-' reads stdin. Runs whose id is already there are skipped,\n"
	       "so importing the same file twice, or overlapping files from several boards,\n"
	       "is harmless. The whole file is checked first: if any run in it is malformed,\n"
	       "or has an id a RUN operand reads as something else ('last', 'last~N', a name\n"
	       "ending in .json: it could never be named), nothing is imported and the error\n"
	       "says where. Each run is saved in one transaction: an import that is\n"
	       "interrupted leaves whole runs only.\n"
	       "\n");
	opt_usage(stdout, import_options);
	printf("\n"
	       "Exit: 0 ok, 2 bad input (nothing imported), 3 the database could not be\n"
	       "written (the runs before the failure are in it), 128+N stopped by signal N.\n");
}

struct import_summary {
	const char *file;
	uint64_t runs, imported, skipped;
};

#include "cmd/import.fields.h"

static int parse_args(int argc, char **argv, struct global_opts *g, const char **ret_db,
		      const char **ret_file)
{
	int r = db_parse_args(argc, argv, g, "import", import_options, usage_import, ret_db);

	if (r != 0)
		return r;
	if (optind != argc - 1) {
		log_error(optind >= argc ? "import: which file? (see 'usbperf import -h')"
					 : "import: one file at a time");
		return -1;
	}
	*ret_file = argv[optind];
	return 0;
}

static int save_all(struct store *s, const struct run_record *v, size_t n,
		    struct import_summary *sum)
{
	for (size_t i = 0; i < n && !signal_stop; i++) {
		int r = store_save_run(s, &v[i]);

		if (r == -EEXIST) {
			sum->skipped++;
		} else if (r < 0) {
			log_error("cannot save run '%s': %s", v[i].id, store_errmsg(s));
			return r;
		} else {
			sum->imported++;
		}
	}
	return 0;
}

/* a run whose id names something else could be stored, never named again (runs_arg.h) */
static int refuse_reserved(const char *file, const struct run_record *v, size_t n)
{
	const char *why;

	for (size_t i = 0; i < n; i++) {
		if (!runs_arg_id_reserved(v[i].id, &why))
			continue;
		log_error("invalid run file '%s': the run id '%s' is reserved: %s", file, v[i].id,
			  why);
		return -EINVAL;
	}
	return 0;
}

/* -o onto the file imported or the history: refused */
static int refuse_outputs(const char *db, const char *file, const char *output)
{
	struct inputs in = {0};
	int r = 0;

	if (output)
		r = db_inputs_add_db(&in, db);
	if (r == 0 && output)
		r = inputs_add(&in, file, "the run file being read");
	return inputs_check_output(&in, r, "--output", output);
}

void schema_import(struct report *r)
{
	report_add_object(r, "import", NULL, &summary_desc, NULL);
}

int cmd_import(int argc, char **argv, struct global_opts *g)
{
	struct report rep = {.command = "import"};
	struct import_summary sum = {0};
	const char *db = NULL, *file = NULL;
	struct run_record *v = NULL;
	struct store *s;
	size_t n = 0;
	int r, status;

	r = parse_args(argc, argv, g, &db, &file);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 || refuse_outputs(db, file, g->output) < 0)
		return EXIT_USAGE;
	/* a bad file is refused before the history is even created */
	r = runs_load_file(file, &v, &n);
	if (r < 0)
		return r == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	if (refuse_reserved(file, v, n) < 0) {
		run_records_free(v, n);
		return EXIT_USAGE;
	}
	r = db_open(db, DB_CREATE, &s);
	if (r < 0) {
		run_records_free(v, n);
		return db_exit_status(r);
	}
	sum.file = file;
	sum.runs = n;
	status = save_all(s, v, n, &sum) < 0 ? EXIT_RUNTIME : EXIT_OK;
	store_close(s);
	run_records_free(v, n);
	if (signal_stop && status == EXIT_OK)
		status = 128 + signal_stop;
	report_add_object(&rep, "import", NULL, &summary_desc, &sum);
	if (emit_report(g, &rep) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	return status;
}

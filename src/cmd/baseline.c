// SPDX-License-Identifier: MIT
/* usbperf baseline: name a run to compare later runs against. */
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "run/record_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void usage_baseline(void)
{
	printf("usage: usbperf baseline [NAME [RUN]] [options]\n"
	       "\n"
	       "Without arguments, list the baselines. 'baseline NAME RUN' points NAME at RUN\n"
	       "(an id, a unique prefix or 'last'), moving it if it exists; 'baseline NAME'\n"
	       "shows it. 'usbperf compare RUN --baseline NAME' then compares RUN against\n"
	       "it, e.g. in CI after a kernel update. Names are 1 to 64 letters, digits or\n"
	       "._:+-.\n"
	       "\n");
	opt_usage(stdout, baseline_options);
	printf("\n"
	       "Exit: 0 ok, 2 bad input or no such run or baseline, 3 the database could not\n"
	       "be read or written.\n");
}

struct baseline_opts {
	const char *db, *name, *run, *delete;
};

static int check_name(const char *name)
{
	if (run_id_valid(name))
		return 0;
	log_error("invalid baseline name '%s': 1 to %d letters, digits or ._:+- (not starting "
		  "with -)",
		  name, RUN_ID_MAX);
	return -EINVAL;
}

static int positional(int argc, char **argv, struct baseline_opts *o)
{
	int n = argc - optind;

	if (n > 2 || (o->delete && n)) {
		log_error("baseline: unexpected argument '%s' (see 'usbperf baseline -h')",
			  argv[optind + (o->delete ? 0 : 2)]);
		return -1;
	}
	o->name = n > 0 ? argv[optind] : NULL;
	o->run = n > 1 ? argv[optind + 1] : NULL;
	if ((o->name && check_name(o->name) < 0) || (o->delete && check_name(o->delete) < 0))
		return -1;
	return 0;
}

static int baseline_cmd_option(int c, const char *arg, void *ctx)
{
	struct baseline_opts *o = ctx;

	if (c == BASELINE_O_DELETE) {
		o->delete = arg;
		return 0;
	}
	return c == OPT_DB ? db_option(arg, &o->db) : -ENOENT;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct baseline_opts *o)
{
	int r;

	r = parse_table(argc, argv, g, "baseline", baseline_options, usage_baseline, baseline_cmd_option,
			  o);
	if (r != 0)
		return r;
	return positional(argc, argv, o);
}

/* the baselines, or only the one named */
static int list(struct store *s, const char *only, const struct global_opts *g)
{
	static char *const none = "no baselines: 'usbperf baseline NAME RUN' sets one";
	struct report rep = {.command = "baseline"};
	struct store_baseline *v;
	size_t n, first = 0;
	int r = store_list_baselines(s, &v, &n);

	if (r < 0)
		return db_failed(s, r);
	while (only && first < n && strcmp(v[first].name, only))
		first++;
	if (only && first == n) {
		log_error("no baseline '%s' (see 'usbperf baseline')", only);
		store_baselines_free(v, n);
		return EXIT_USAGE;
	}
	report_add_table(&rep, "baselines", NULL, &store_baseline_desc, v + first,
			 only ? 1 : n, sizeof(*v));
	if (n == 0) {
		rep.warnings = &none;
		rep.nwarnings = 1;
	}
	r = emit_report(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
	store_baselines_free(v, n);
	return r;
}

static int set(struct store *s, const struct baseline_opts *o, const char *id,
	       const struct global_opts *g)
{
	int r = store_baseline_set(s, o->name, id);

	if (r < 0) {
		log_error("cannot set baseline '%s': %s", o->name, store_errmsg(s));
		return EXIT_RUNTIME;
	}
	return list(s, o->name, g);
}

void schema_baseline(struct report *r)
{
	report_add_table(r, "baselines", NULL, &store_baseline_desc, NULL, 0, 0);
}

/*
 * What a change names is found in the history read as it is (read only,
 * an older schema migrated in memory): a run or baseline that is not
 * there, or a file that is no history (an empty one too), is refused
 * before the history is opened for writing, which would create or migrate
 * its schema. *ret_id: the run's id when setting.
 */
static int precheck(const struct baseline_opts *o, char **ret_id)
{
	struct store *s;
	char *id = NULL;
	int r = db_open(o->db, DB_READ, &s);

	if (r < 0)
		return db_exit_status(r);
	if (o->run) {
		r = db_resolve_run(s, o->run, &id);
	} else {
		r = store_baseline_get(s, o->delete, &id);
		if (r == -ENOENT)
			log_error("no baseline '%s' (see 'usbperf baseline')", o->delete);
		else if (r < 0)
			db_failed(s, r);
		free(id);
		id = NULL;
	}
	store_close(s);
	if (r < 0)
		return db_exit_status(r);
	*ret_id = id;
	return EXIT_OK;
}

static int change(const struct baseline_opts *o, const struct global_opts *g)
{
	struct store *s;
	char *id = NULL;
	int r = precheck(o, &id);

	if (r != EXIT_OK)
		return r;
	r = db_open(o->db, DB_WRITE, &s);
	if (r < 0) {
		free(id);
		return db_exit_status(r);
	}
	if (o->delete) {
		r = store_baseline_delete(s, o->delete);
		if (r == -ENOENT)
			log_error("no baseline '%s' (see 'usbperf baseline')", o->delete);
		else if (r < 0)
			log_error("cannot delete baseline '%s': %s", o->delete, store_errmsg(s));
		r = r == 0 ? EXIT_OK : db_exit_status(r);
	} else {
		r = set(s, o, id, g);
	}
	store_close(s);
	free(id);
	return r;
}

int cmd_baseline(int argc, char **argv, struct global_opts *g)
{
	struct baseline_opts o = {0};
	struct store *s;
	int r;

	r = parse_args(argc, argv, g, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 || db_refuse_output_db(o.db, g->output) < 0)
		return EXIT_USAGE;
	/* only setting and deleting write */
	if (o.delete || o.run)
		return change(&o, g);
	r = db_open(o.db, DB_READ, &s);
	if (r < 0)
		return db_exit_status(r);
	r = list(s, o.name, g);
	store_close(s);
	return r;
}

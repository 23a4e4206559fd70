// SPDX-License-Identifier: MIT
/* The pass/fail options: --criteria, --baseline, --threshold, --junit, --lava (check_opts.h). */
#include "cmd/check_opts.h"
#include "cmd/db.h"
#include "cmd/runs_arg.h"
#include "run/record_json.h"
#include "render/junit.h"
#include "render/lava.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int threshold_option(const char *arg, double *ret)
{
	/* "5" or "5%" */
	char *copy = strdup(arg);
	size_t n;
	int r;

	if (!copy)
		return -ENOMEM;
	n = strlen(copy);
	if (n && copy[n - 1] == '%')
		copy[n - 1] = '\0';
	r = parse_double(copy, 0, 1000, ret);
	free(copy);
	if (r < 0)
		log_error("invalid --threshold '%s': a percentage from 0 to 1000", arg);
	return r;
}

int baseline_option(const char *arg, const char **ret)
{
	if (!run_id_valid(arg)) {
		log_error("invalid --baseline '%s': not a baseline name", arg);
		return -EINVAL;
	}
	*ret = arg;
	return 0;
}

static int path_option(const char *name, const char *arg, const char **ret)
{
	if (!*arg) {
		log_error("invalid %s '': empty path", name);
		return -EINVAL;
	}
	*ret = arg;
	return 0;
}

int check_option(int c, const char *arg, struct check_opts *o)
{
	switch (c) {
	case OPT_CRITERIA:
		return path_option("--criteria", arg, &o->criteria);
	case OPT_BASELINE:
		return baseline_option(arg, &o->baseline);
	case OPT_THRESHOLD:
		return threshold_option(arg, &o->threshold_pct);
	case OPT_JUNIT:
		return path_option("--junit", arg, &o->junit);
	case OPT_LAVA:
		o->lava = true;
		return 0;
	}
	return -ENOENT;
}

int check_opts_validate(const struct check_opts *o, const char *cmd, bool need_source)
{
	if (need_source && !o->criteria && !o->baseline) {
		log_error("%s: what should the runs pass? (--criteria FILE and/or --baseline NAME)",
			  cmd);
		return -1;
	}
	/* refused before any work, as --output is */
	return check_writable("--junit", o->junit) < 0 ? -1 : 0;
}

bool check_opts_any(const struct check_opts *o)
{
	return o->criteria || o->baseline || o->junit || o->lava;
}

static int parse_criteria(const char *buf, size_t len, void *ctx, struct strbuf *err)
{
	return criteria_parse(buf, len, ctx, err);
}

static int load_criteria(const char *file, struct criteria *ret)
{
	return load_input("criteria", file, CRITERIA_MAX_BYTES, parse_criteria, ret);
}

static int load_baseline(const char *name, const char *db, struct run_record *ret)
{
	struct store *s;
	char *id = NULL;
	int r = db_open(db, DB_READ, &s);

	if (r < 0)
		return r;
	r = store_baseline_get(s, name, &id);
	if (r == -ENOENT)
		log_error("no baseline '%s' (see 'usbperf baseline')", name);
	else if (r < 0)
		db_failed(s, r);
	if (r == 0)
		r = db_load_run(s, id, ret);
	free(id);
	store_close(s);
	return r;
}

int check_sources_load(const struct check_opts *o, const char *db, struct check_sources *ret)
{
	struct check_sources s = {0};
	int r = 0;

	if (o->criteria)
		r = load_criteria(o->criteria, &s.criteria);
	if (r == 0 && o->baseline) {
		r = load_baseline(o->baseline, db, &s.baseline_run);
		s.has_baseline = r == 0;
	}
	if (r < 0) {
		check_sources_release(&s);
		return r;
	}
	*ret = s;
	return 0;
}

void check_sources_release(struct check_sources *s)
{
	if (!s)
		return;
	criteria_release(&s->criteria);
	if (s->has_baseline)
		run_record_release(&s->baseline_run);
	s->has_baseline = false;
}

struct check_input check_sources_input(const struct check_opts *o, const struct check_sources *s,
				       const struct run_record *runs, size_t nruns)
{
	return (struct check_input){
	    .runs = runs,
	    .nruns = nruns,
	    .criteria = s->criteria.n ? &s->criteria : NULL,
	    .baseline_run = s->has_baseline ? &s->baseline_run : NULL,
	    .baseline = o->baseline,
	    .threshold_pct = o->threshold_pct,
	};
}

static int add_inputs(struct inputs *in, const struct check_opts *o, const char *db,
		      char *const *runs, size_t nruns)
{
	bool reads_db = o->baseline != NULL;
	int r = inputs_add(in, o->criteria, "the criteria file being read");

	for (size_t i = 0; r == 0 && i < nruns; i++) {
		if (!runs_arg_is_file(runs[i]))
			reads_db = true;
		else if (strcmp(runs[i], "-"))
			r = inputs_add(in, runs[i], "the run file being read");
	}
	if (r == 0 && reads_db)
		r = db_inputs_add_db(in, db);
	return r;
}

int check_refuse_outputs(const struct check_opts *o, const char *db, char *const *runs,
			 size_t nruns, const char *output, const char *html)
{
	const char *opts[] = {"--output", "--junit", "--html"};
	const char *outs[] = {output, o->junit, html};
	struct inputs in = {0};
	int r = add_inputs(&in, o, db, runs, nruns);

	if (r < 0)
		log_error("out of memory");
	if (r == 0)
		r = refuse_output_over(&in, "--output", output);
	if (r == 0)
		r = refuse_output_over(&in, "--junit", o->junit);
	if (r == 0)
		r = refuse_output_over(&in, "--html", html);
	inputs_release(&in);
	return r ? r : refuse_outputs_clash(opts, outs, 3);
}

int check_write_junit(const struct check_opts *o, const struct check_result *c)
{
	struct strbuf out = STRBUF_INIT;
	int r;

	if (!o->junit)
		return 0;
	render_junit(c, check_cases_are_measurements(o), &out);
	r = write_file_atomic(o->junit, out.buf, out.len);
	strbuf_release(&out);
	return r;
}

bool check_cases_are_measurements(const struct check_opts *o)
{
	return !o->criteria && !o->baseline;
}

int check_emit_lava(const struct check_result *c)
{
	struct global_opts stdout_only = {.format = FORMAT_TEXT};
	struct strbuf out = STRBUF_INIT;
	int r;

	render_lava(c, &out);
	r = emit_text(&stdout_only, out.buf, out.len);
	strbuf_release(&out);
	return r;
}

int check_sources_evaluate(const struct check_opts *o, const struct check_sources *s,
			   const struct run_record *runs, size_t nruns, struct check_result *ret)
{
	struct check_input in = check_sources_input(o, s, runs, nruns);
	int r = check_evaluate(&in, ret);

	if (r < 0)
		log_error("cannot check: %s",
			  r == -E2BIG ? "more than a million checks" : strerror(-r));
	return r;
}

bool lava_table(const struct global_opts *g, bool lava)
{
	if (!lava || g->output)
		return true;
	/* on stdout beside the signals: a human table, never JSON or CSV mixed with them */
	return g->format == FORMAT_TEXT && !g->quiet;
}

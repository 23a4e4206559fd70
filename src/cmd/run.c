// SPDX-License-Identifier: MIT
/* usbperf run: discover, measure each device the right way, find the bottleneck. */
#include "cmd/commands.h"
#include "cmd/common.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "platform/sys/governor.h"
#include "run/record_json.h"
#include "model/record_fields.h"
#include "run/class.h"
#include "run/run.h"
#include "render/verdict_text.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS 32
/* run's own options: at most this many (its table, cmd/opt/run.c) */
#define RUN_OWN_MAX 24

static const struct cmd_opt *run_table(void);

void usage_run(void)
{
	printf("usage: usbperf run [TARGET...] [options]\n"
	       "\n"
	       "The main job: find the USB devices (as 'usbperf list' does), measure each the\n"
	       "right way, put every figure next to the ceiling of its link, and say where the\n"
	       "bottleneck is and what to change. With no TARGET: every USB disk (a test file\n"
	       "on a writable mounted filesystem, else reads of the raw device), every camera\n"
	       "(V4L2 capture node, its default mode); with nothing on USB, the host's scratch\n"
	       "directory and loopback. TARGET: a directory, a file usbperf created, a block\n"
	       "device (reads only, unless --destructive), net:HOST, /dev/videoN, or\n"
	       "/dev/mtdN: raw flash, read over its first 16 MiB (--full 64 MiB, --size); with\n"
	       "--destructive erased, written at each write size (page to eraseblock), read\n"
	       "back and compared, refused if read-only, mounted, attached to UBI or named\n"
	       "like a bootloader's. With no TARGET, MTD devices are named, not measured.\n"
	       "\n"
	       "The output opens with the verdict: for each device, what limits it (bus,\n"
	       "medium, host CPU, host controller, hub, page cache, emulation, a camera's\n"
	       "mode's rate or the camera itself, or not determined) and the figure that\n"
	       "shows it. The findings follow grouped under each device, those about no\n"
	       "measured figure last; then the notes.\n"
	       "\n");
	opt_usage(stdout, run_table());
	printf("\n"
	       "Exit: 0 ran (findings do not fail it), 2 bad input, 3 nothing could be measured.\n");
}

static void progress(void *ctx, const struct run_progress *p)
{
	const char *target = ctx;

	if (!strcmp(p->phase, "layout"))
		fprintf(stderr, "\r\033[K%s: layout %3.0f%%", target,
			100.0 * (double)p->done_bytes / (double)p->total_bytes);
	else
		fprintf(stderr, "\r\033[K%s: [%u/%u] %s  %.1f MB/s", target, p->pass_index,
			p->pass_count, p->pass ? p->pass : "", p->rate_Bps / 1e6);
	fflush(stderr);
}

/* what the option handler fills in */
struct run_args {
	struct run_options *o;
	const char **db;
	bool *no_save;
	int argc;
	char **argv;
	const char **governor;	/* --governor */
};

/* the options the classes own (class.h), in one list: getopt's val is RUN_O_CLASS + index */
#define MAX_CLASS_OPTIONS 32
static struct {
	const struct measure_class *c;
	const struct class_option *opt;
} class_opt[MAX_CLASS_OPTIONS];
static size_t nclass_opt;

static void class_opts_collect(void)
{
	nclass_opt = 0;
	for (size_t k = 0; k < run_nclasses; k++)
		for (size_t i = 0; i < run_classes[k]->noptions; i++) {
			if (nclass_opt == MAX_CLASS_OPTIONS)
				abort(); /* a bigger table: a build-time matter */
			class_opt[nclass_opt].c = run_classes[k];
			class_opt[nclass_opt++].opt = &run_classes[k]->options[i];
		}
}

/* the words of the classes' path options (--copy SRC DST): -o may not be one of them */
static struct {
	const char *path;
	char what[48]; /* "--copy's SRC" */
} class_paths[4];
static size_t nclass_paths;

static void class_path_add(const struct class_option *co, unsigned i, const char *path)
{
	const char *w = co->args ? co->args : "";
	int len;

	if (nclass_paths == sizeof(class_paths) / sizeof(class_paths[0]))
		abort(); /* more path words than any option takes: a build-time matter */
	/* the i-th word of its args ("SRC DST") names it */
	for (unsigned k = 0; k < i && strchr(w, ' '); k++)
		w = strchr(w, ' ') + 1;
	len = (int)strcspn(w, " ");
	snprintf(class_paths[nclass_paths].what, sizeof(class_paths[0].what), "--%s's %.*s",
		 co->name, len, w);
	class_paths[nclass_paths++].path = path;
}

/* --NAME WORDS of a class: its words handed to its set hook */
static int class_option(struct run_args *a, size_t k, const char *arg)
{
	const struct class_option *co = class_opt[k].opt;
	char *words[2] = {(char *)arg, NULL};
	char *why = NULL;
	int r;

	/* a second word is the next argument, never an option */
	if (co->nargs == 2) {
		if (optind >= a->argc || a->argv[optind][0] == '-') {
			log_error("run: --%s needs two words: --%s %s", co->name, co->name,
				  co->args);
			return -EINVAL;
		}
		words[1] = a->argv[optind++];
	}
	for (unsigned i = 0; co->paths && i < co->nargs; i++)
		class_path_add(co, i, words[i]);
	r = co->set(run_class_opts_get(a->o, class_opt[k].c), words, &why);
	if (r < 0)
		log_error("%s", why ? why : strerror(-r));
	free(why);
	return r < 0 ? -EINVAL : 0;
}

static int run_option(int c, const char *arg, void *ctx)
{
	struct run_args *a = ctx;
	struct run_options *o = a->o;
	uint64_t n;

	switch (c) {
	case RUN_O_QUICK:
		o->full = false;
		return 0;
	case RUN_O_FULL:
		o->full = true;
		return 0;
	case RUN_O_DESTRUCTIVE:
		o->destructive = true;
		return 0;
	case RUN_O_NO_MONITOR:
		o->no_monitor = true;
		return 0;
	case RUN_O_SIZE:
		if (parse_size(arg, 1 << 20, 1ull << 40, &o->size) < 0) {
			log_error("invalid --size '%s': expected a size from 1M to 1T", arg);
			return -EINVAL;
		}
		return 0;
	case RUN_O_TIME:
		if (parse_duration(arg, 0.1, 3600, &o->time_s) < 0) {
			log_error("invalid --time '%s': expected a duration from 0.1s to 1h", arg);
			return -EINVAL;
		}
		return 0;
	case RUN_O_REPEAT:
		if (parse_u64(arg, 1, 100, &n) < 0) {
			log_error("invalid --repeat '%s': expected 1 to 100", arg);
			return -EINVAL;
		}
		o->repeat = (unsigned)n;
		return 0;
	case RUN_O_NICE: {
		double v;

		if (parse_double(arg, -20, 19, &v) < 0 || v != (int)v) {
			log_error("invalid --nice '%s': expected a whole number from -20 to 19", arg);
			return -EINVAL;
		}
		o->nice = (int)v;
		o->nice_set = true;
		return 0;
	}
	case RUN_O_GOVERNOR:
		if (!*arg || strchr(arg, '/') || strlen(arg) >= 32) {
			log_error("invalid --governor '%s': expected a cpufreq governor name, e.g. "
				  "performance",
				  arg);
			return -EINVAL;
		}
		*a->governor = arg;
		return 0;
	case RUN_O_NO_SAVE:
		*a->no_save = true;
		return 0;
	case RUN_O_SYSROOT:
		return open_sysroot(arg) < 0 ? -EINVAL : 0;
	case OPT_DB:
		return db_option(arg, a->db);
	}
	if (c >= RUN_O_CLASS && (size_t)(c - RUN_O_CLASS) < nclass_opt)
		return class_option(a, (size_t)(c - RUN_O_CLASS), arg);
	return -ENOENT;
}

/*
 * run's table and the classes' options after it, under their heading: what
 * -h lists and getopt takes (a class option's key is RUN_O_CLASS + its index)
 */
static const struct cmd_opt *run_table(void)
{
	static struct cmd_opt all[RUN_OWN_MAX + 2 + MAX_CLASS_OPTIONS];
	size_t n = 0;

	if (all[0].name)
		return all;
	class_opts_collect();
	for (const struct cmd_opt *t = run_options; t->name || t->help; t++) {
		if (n == RUN_OWN_MAX)
			abort(); /* a longer table: raise RUN_OWN_MAX */
		all[n++] = *t;
	}
	all[n++] = (struct cmd_opt)OPT_TEXT("the device classes' own options:");
	for (size_t k = 0; k < nclass_opt; k++) {
		const struct class_option *co = class_opt[k].opt;

		all[n++] = (struct cmd_opt){.name = co->name, .key = RUN_O_CLASS + (int)k,
					    .arg = co->args, .help = co->help};
	}
	all[n] = (struct cmd_opt)OPT_END;
	return all;
}

static int parse_args(int argc, char **argv, struct global_opts *g, struct run_options *o,
		      const char **ret_db, bool *ret_no_save, const char **ret_governor)
{
	struct run_args a = {o, ret_db, ret_no_save, argc, argv, ret_governor};
	int r = parse_table(argc, argv, g, "run", run_table(), usage_run, run_option, &a);

	if (r != 0)
		return r;
	if (argc - optind > MAX_TARGETS) {
		log_error("run: at most %d targets", MAX_TARGETS);
		return -1;
	}
	o->targets = argv + optind;
	o->ntargets = (size_t)(argc - optind);
	return 0;
}

/* all: every section the JSON may hold, each class's too (the schema) */
static void describe(const struct run_result *res, enum output_format f, bool all,
		     struct report *rep)
{
	const struct run_record *rec = &res->rec;

	/* what limits each device: the first thing a reader sees (text: render_run_text) */
	if (f == FORMAT_JSON)
		report_add_table(rep, "verdicts", NULL, &run_verdict_desc, rec->verdicts,
				 rec->nverdicts, sizeof(*rec->verdicts));
	report_add_object(rep, "run", NULL, &run_record_desc, &res->rec);
	report_add_table(rep, "plan", "what was measured, and why", &run_plan_desc, res->plan,
			 res->nplan, sizeof(*res->plan));
	report_add_table(rep, "devices", "devices", &run_device_desc, res->rec.devices,
			 res->rec.ndevices, sizeof(*res->rec.devices));
	report_add_table(rep, "unmeasured", "found, not measured", &run_unmeasured_desc,
			 rec->unmeasured, rec->nunmeasured, sizeof(*rec->unmeasured));
	report_add_table(rep, "results", "results (MB/s = 10^6 B/s)", &run_row_desc, res->rows,
			 res->nrows, sizeof(*res->rows));
	/* a class whose passes are not throughput rows has its own table (run/class.h) */
	for (size_t k = 0; k < run_nclasses; k++) {
		const struct measure_class *c = run_classes[k];

		if (c->row_desc && (res->class_rows[k].n || all))
			report_add_table(rep, c->row_key, c->row_title, c->row_desc,
					 res->class_rows[k].v, res->class_rows[k].n, c->row_size);
	}
	/* the per-metric view is what the history stores: for machines, not for reading */
	if (f == FORMAT_JSON)
		report_add_table(rep, "metrics", NULL, &run_metric_desc, res->rec.metrics,
				 res->rec.nmetrics, sizeof(*res->rec.metrics));
	report_add_table(rep, "findings", "findings", &finding_desc, res->rec.findings.v,
			 res->rec.findings.n, sizeof(*res->rec.findings.v));
	if (f == FORMAT_JSON)
		report_add_table(rep, "notes", NULL, &run_note_desc, rec->notes, rec->nnotes,
				 sizeof(*rec->notes));
}

void schema_run(struct report *r)
{
	static struct run_result none;

	describe(&none, FORMAT_JSON, true, r);
}

/* the notes as the report's warnings too, as JSON readers of run found them before */
static char **note_texts(const struct run_record *rec)
{
	char **v = calloc(rec->nnotes + 1, sizeof(*v));

	if (!v)
		abort();
	for (size_t i = 0; i < rec->nnotes; i++)
		v[i] = rec->notes[i].text;
	return v;
}

/* text: the verdicts first, the findings under them, the notes last (render/verdict_text.h) */
static int emit_run(const struct global_opts *g, const struct run_result *res,
		    const struct report *rep)
{
	struct strbuf out = STRBUF_INIT;
	int ret;

	if (g->format != FORMAT_TEXT)
		return emit_report(g, rep);
	ret = render_run_text(&res->rec, rep, &out);
	if (ret == 0)
		ret = emit_text(g, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

/* the command line as run, for the record */
/* the command line as the record keeps it: a server history's password never in it */
static char *joined(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	strbuf_adds(&sb, "usbperf");
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		const char *uri = argv[i][0] == '-' && eq ? eq + 1 : argv[i];
		char *shown = store_display_name(uri);

		strbuf_addf(&sb, " %.*s%s", (int)(uri - argv[i]), argv[i], shown ? shown : uri);
		free(shown);
	}
	return strbuf_detach(&sb);
}

/*
 * keep the run in the history; its id is how 'show' and 'compare' name it.
 * A history that cannot take it (locked, full) gets it later: db_save_run()
 * keeps it in a file for 'import'.
 */
static int save(const char *db_path, struct store **db, const struct run_result *res,
		const struct global_opts *g)
{
	struct strbuf err = STRBUF_INIT;
	int r = run_record_validate(&res->rec, &err);

	if (r < 0)
		log_error("run: not saved: %s", err.buf);
	else
		r = db_save_run(db_path, db, &res->rec, g->quiet);
	strbuf_release(&err);
	return r;
}

/* -o must not replace what the run measures or keeps: a target, a class's paths (--copy), the history */
static int check_output_inputs(const struct global_opts *g, const struct run_options *o,
			       const char *db_path, bool no_save)
{
	struct inputs in = {0};
	size_t i;
	int r = 0;

	if (!g->output)
		return 0;
	for (i = 0; r == 0 && i < o->ntargets; i++)
		r = inputs_add(&in, o->targets[i], "a target of the run");
	for (i = 0; r == 0 && i < nclass_paths; i++)
		r = inputs_add(&in, class_paths[i].path, class_paths[i].what);
	if (r == 0 && !no_save)
		r = db_inputs_add_db(&in, db_path);
	return inputs_check_output(&in, r, "--output", g->output);
}

static int run_cmd(int argc, char **argv, struct global_opts *g, struct run_options *opts,
		   struct governor_saved *gov_saved)
{
	const char *governor = NULL;
	struct run_options o = *opts;
	struct run_result res;
	struct report rep = {.command = "run"};
	struct store *db = NULL;
	const char *db_path = NULL;
	bool no_save = false;
	char *why = NULL, *cmdline, **notes;
	int r, status;

	r = parse_args(argc, argv, g, &o, &db_path, &no_save, &governor);
	/* the classes' options, whatever happens next: the caller frees them */
	memcpy(opts->class_opts, o.class_opts, sizeof(o.class_opts));
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output(g) < 0 || check_output_inputs(g, &o, db_path, no_save) < 0)
		return EXIT_USAGE;
	if (governor) {
		/* before anything is probed, so the record's facts show the clock it ran at */
		r = governor_switch(governor, gov_saved, &why);
		if (r < 0) {
			log_error("run: --governor %s: %s", governor, why ? why : strerror(-r));
			free(why);
			return EXIT_USAGE;
		}
		if (!g->quiet && gov_saved->n)
			fprintf(stderr,
				"usbperf: cpufreq governor '%s' for this run on %zu polic%s (was "
				"'%s' on %s); put back at the end\n",
				governor, gov_saved->n, gov_saved->n == 1 ? "y" : "ies",
				gov_saved->before[0], gov_saved->name[0]);
	}
	cmdline = joined(argc, argv);
	o.command_line = cmdline;
	if (g->progress) {
		o.progress = progress;
		o.progress_ctx = "run";
	}
	/* every operand is checked, and every target opened, before the first byte of I/O */
	r = run_prepare(&o, &res, &why);
	free(cmdline);
	if (r < 0) {
		log_error("run: %s", why ? why : strerror(-r));
		free(why);
		return EXIT_USAGE;
	}
	/* then the history: checked before anything is measured, created only to save */
	if (!no_save) {
		r = db_prepare_save(db_path, &db);
		if (r < 0) {
			run_result_release(&res);
			return db_exit_status(r);
		}
	}
	if (!g->quiet) {
		/* how long, before it starts: on stderr, so JSON on stdout stays clean */
		struct strbuf est = STRBUF_INIT;

		run_estimate_describe(&o, &res, &est);
		if (est.len)
			fprintf(stderr, "usbperf: %s\n", est.buf);
		strbuf_release(&est);
	}
	r = run_measure(&o, &res, &why);
	if (g->progress)
		fputs("\r\033[K", stderr);
	if (r < 0) {
		log_error("run: %s", why ? why : strerror(-r));
		free(why);
		store_close(db);
		run_result_release(&res);
		return EXIT_RUNTIME;
	}
	describe(&res, g->format, false, &rep);
	notes = note_texts(&res.rec);
	rep.warnings = notes;
	rep.nwarnings = res.rec.nnotes;
	status = res.rec.nmetrics ? EXIT_OK : EXIT_RUNTIME;
	if (emit_run(g, &res, &rep) < 0)
		status = EXIT_RUNTIME;
	free(notes);
	if (!res.rec.nmetrics)
		log_error("run: nothing could be measured (see the report's warnings)");
	else if (!no_save && !signal_stop && save(db_path, &db, &res, g) < 0)
		status = EXIT_RUNTIME;
	if (signal_stop)
		status = 128 + signal_stop;
	store_close(db);
	run_result_release(&res);
	return status;
}

int cmd_run(int argc, char **argv, struct global_opts *g)
{
	struct run_options o = {.stop = &signal_stop};
	struct governor_saved gov = {0};
	int status;

	nclass_paths = 0;
	status = run_cmd(argc, argv, g, &o, &gov);

	/* every way out of the run comes here, a signal's too (it ends the run, not the process) */
	if (gov.n && governor_restore(&gov)) {
		log_error("run: could not put every cpufreq governor back (see "
			  "/sys/devices/system/cpu/cpufreq/policy*/scaling_governor)");
		if (status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	run_class_opts_release(&o);
	return status;
}

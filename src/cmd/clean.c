// SPDX-License-Identifier: MIT
/* usbperf clean: what a killed usbperf left behind, removed; only that (util/leftovers.h). */
#include "cmd/commands.h"
#include "cmd/db.h"
#include "cmd/opt/tables.h"
#include "util/leftovers.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void usage_clean(void)
{
	printf("usage: usbperf clean [options]\n"
	       "\n"
	       "Remove what a usbperf that was killed (SIGKILL, a power cut) left behind, and\n"
	       "only that. Each test file usbperf creates, and each output it writes aside, is\n"
	       "recorded while it exists in $XDG_STATE_HOME/usbperf/leftovers (else\n"
	       "~/.local/state/usbperf/leftovers); it is removed once its process is gone, and\n"
	       "only when it is still the file recorded: the same inode, a regular file of\n"
	       "yours with one link, named as usbperf names them. Anything else is listed and\n"
	       "left. 'run', 'disk' and every command that writes a file do this first on\n"
	       "their own. The history's -wal and -shm are SQLite's: the history is opened,\n"
	       "which replays what they hold, and closed, and SQLite removes them (unless\n"
	       "another process has it open). Runs that could not be saved (the history was\n"
	       "locked) are listed, never removed: 'usbperf import FILE' adds each.\n"
	       "\n");
	opt_usage(stdout, clean_options);
	printf("\n"
	       "Exit: 0 done (what was left is listed with why), 2 bad input, 3 the history\n"
	       "could not be opened.\n");
}

struct clean_row {
	const char *what;
	char *path;
	const char *action;
};

#include "cmd/clean.fields.h"

void schema_clean(struct report *r)
{
	report_add_table(r, "left", NULL, &clean_desc, NULL, 0, 0);
}

struct rows {
	struct clean_row *v;
	size_t n;
};

static void add(struct rows *r, const char *what, const char *path, const char *action)
{
	struct clean_row *g = realloc(r->v, (r->n + 1) * sizeof(*g));
	char *p = strdup(path);

	if (!g || !p) {
		free(p);
		if (g)
			r->v = g;
		return;
	}
	r->v = g;
	g[r->n++] = (struct clean_row){what, p, action};
}

static bool beside(const char *path, const char *suffix)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	bool r;

	strbuf_addf(&p, "%s%s", path, suffix);
	r = lstat(p.buf, &st) == 0;
	strbuf_release(&p);
	return r;
}

/* the history's -wal and -shm: replayed and removed by SQLite; the exit status */
static int recover(const char *db, struct rows *rows)
{
	char *dflt = NULL;
	const char *path = db;
	int r = 0;

	if (!db && store_default_path(&dflt) < 0)
		return EXIT_OK; /* no home: no default history to look at */
	if (!db)
		path = dflt;
	if (!beside(path, "-wal") && !beside(path, "-shm")) {
		struct store *s;

		/* nothing of SQLite's to recover; a --db that is no history is still said */
		if (db && (r = db_open(db, DB_READ, &s)) == 0)
			store_close(s);
	} else {
		r = store_recover(path);
		if (r < 0)
			log_error("cannot recover the history '%s': %s", path,
				  r == -EBADMSG	  ? "not a usbperf history database"
				  : r == -EUCLEAN ? "database disk image is malformed"
						  : strerror(-r));
		else
			add(rows, "history", path,
			    beside(path, "-wal")
				? "its -wal replayed; kept: the history is open elsewhere"
				: "its -wal replayed, -wal and -shm removed by SQLite");
	}
	free(dflt);
	return r < 0 ? db_exit_status(r) : EXIT_OK;
}

/* runs that wait in files: listed, with whether the history has taken them since */
static void pending(const char *db, struct rows *rows)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT, why = STRBUF_INIT;
	struct store *s = NULL;
	struct dirent *e;
	DIR *d;

	if (db_pending_dir(db, &dir) < 0 || !(d = opendir(dir.buf))) {
		strbuf_release(&dir);
		return;
	}
	/* read only; a history that cannot be read counts none as imported */
	if (db_open_quiet(db, DB_READ, &s, &why) < 0)
		s = NULL;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir.buf, e->d_name);
		add(rows, "run not saved", p.buf,
		    s && db_pending_in_history(s, e->d_name)
			? "kept: imported since, yours to remove"
			: "kept: 'usbperf import' adds it");
	}
	closedir(d);
	store_close(s);
	strbuf_release(&dir);
	strbuf_release(&p);
	strbuf_release(&why);
}

int cmd_clean(int argc, char **argv, struct global_opts *g)
{
	static char *const none = "nothing left behind";
	struct report rep = {.command = "clean"};
	struct rows rows = {0};
	struct leftover *v = NULL;
	const char *db = NULL;
	size_t n = 0;
	int r, status = EXIT_OK;

	r = db_parse_args(argc, argv, g, "clean", clean_options, usage_clean, &db);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (optind < argc) {
		log_error("clean: unexpected argument '%s' (see 'usbperf clean -h')", argv[optind]);
		return EXIT_USAGE;
	}
	if (check_output(g) < 0 || db_refuse_output_db(db, g->output) < 0)
		return EXIT_USAGE;
	r = leftovers_sweep(&v, &n);
	if (r < 0) {
		struct strbuf dir = STRBUF_INIT;

		leftovers_dir(&dir);
		log_error("cannot read '%s': %s", dir.buf, strerror(-r));
		strbuf_release(&dir);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n; i++)
		add(&rows, "file left", v[i].path, v[i].why);
	leftovers_free(v, n);
	status = recover(db, &rows);
	pending(db, &rows);
	report_add_table(&rep, "left", NULL, &clean_desc, rows.v, rows.n, sizeof(*rows.v));
	if (!rows.n) {
		rep.warnings = &none;
		rep.nwarnings = 1;
	}
	if (emit_report(g, &rep) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	for (size_t i = 0; i < rows.n; i++)
		free(rows.v[i].path);
	free(rows.v);
	return status;
}

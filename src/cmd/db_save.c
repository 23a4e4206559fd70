// SPDX-License-Identifier: MIT
/*
 * `run`'s save, and what happens when the history cannot take the run: the
 * run is kept as an export file that `usbperf import` takes (db.h).
 */
#include "cmd/db.h"
#include "run/record_json.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/xdg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PENDING_SUFFIX ".pending"

int db_pending_dir(const char *db, struct strbuf *ret)
{
	char *dflt = NULL;
	int r;

	db = db_given(db);

	/* a server's history has no directory of ours: this machine's state directory */
	if (store_is_server(db))
		return xdg_path("XDG_STATE_HOME", ".local/state", "pending", ret);
	r = db ? 0 : store_default_path(&dflt);

	if (r == 0)
		strbuf_addf(ret, "%s%s", db ? db : dflt, PENDING_SUFFIX);
	free(dflt);
	return r;
}

/* dir made (0700) or there already: a directory of ours, not a link planted there */
static int own_dir(const char *dir)
{
	struct stat st;
	int r = xdg_make_parents(dir);

	if (r == 0 && mkdir(dir, 0700) < 0 && errno != EEXIST)
		r = -errno;
	if (r < 0)
		return r;
	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return st.st_uid == geteuid() ? 0 : -EPERM;
}

/* the run as an export of one, in dir/ID.json: new (O_EXCL), whole on disk, or not there */
static int write_pending(const char *dir, const char *doc, const char *id, struct strbuf *ret)
{
	int r = own_dir(dir), fd;

	strbuf_reset(ret);
	strbuf_addf(ret, "%s/%s.json", dir, id);
	if (r < 0)
		return r;
	fd = open(ret->buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	r = fd_write_all(fd, doc, strlen(doc));
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlink(ret->buf);
	return r;
}

/*
 * Beside the history (H.pending/ID.json), where `history` points at it;
 * when that cannot be written (the disk beside the history is full, or
 * read-only now), under $XDG_STATE_HOME/usbperf/pending.
 */
static int keep(const char *db, const struct run_record *rec, struct strbuf *ret_path)
{
	struct strbuf dir = STRBUF_INIT;
	struct json_object *doc, *runs, *o;
	const char *text;
	int r = run_export_new(&doc, &runs);

	if (r < 0)
		return r;
	r = run_record_to_json(rec, &o);
	if (r < 0) {
		json_object_put(doc);
		return r;
	}
	json_object_array_add(runs, o);
	text =
	    json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE);
	r = db_pending_dir(db, &dir);
	if (r == 0)
		r = write_pending(dir.buf, text, rec->id, ret_path);
	if (r < 0 && r != -EEXIST) {
		strbuf_reset(&dir);
		if (xdg_path("XDG_STATE_HOME", ".local/state", "pending", &dir) == 0)
			r = write_pending(dir.buf, text, rec->id, ret_path);
	}
	json_object_put(doc);
	strbuf_release(&dir);
	return r;
}

static int try_save(const char *db, struct store **s, const struct run_record *rec,
		    struct strbuf *why)
{
	int r;

	if (!*s) {
		r = db_open_quiet(db, DB_CREATE, s, why);
		if (r < 0)
			return r;
	}
	r = store_save_run(*s, rec);
	if (r == -EBUSY)
		strbuf_addf(why, "the history '%s' is locked by another process", store_path(*s));
	else if (r < 0)
		strbuf_addf(why, "cannot write the history '%s': %s", store_path(*s),
			    store_errmsg(*s));
	return r;
}

int db_save_run(const char *db, struct store **s, const struct run_record *rec, bool quiet)
{
	struct strbuf why = STRBUF_INIT, kept = STRBUF_INIT;
	char *shown;
	int r, k;

	db = db_given(db);
	r = try_save(db, s, rec, &why);

	if (r == 0) {
		if (!quiet)
			fprintf(stderr,
				"usbperf: run %s saved: 'usbperf show %s', 'usbperf compare'\n",
				rec->id, rec->id);
		return 0;
	}
	/* nothing measured is lost: the run waits in a file for 'import' */
	k = keep(db, rec, &kept);
	shown = db ? store_display_name(db) : NULL;
	if (k == 0)
		log_error("run %s not saved: %s; kept in '%s' ('usbperf import %s%s%s' adds it)",
			  rec->id, why.buf, kept.buf, kept.buf, db ? " --db " : "",
			  shown ? shown : "");
	else
		log_error("run %s not saved: %s; nor kept aside: cannot create '%s': %s", rec->id,
			  why.buf, kept.buf, strerror(-k));
	free(shown);
	strbuf_release(&why);
	strbuf_release(&kept);
	return r;
}

bool db_pending_in_history(struct store *s, const char *name)
{
	size_t n = strlen(name);
	char *id, *found = NULL;
	bool in;

	if (n < 6 || strcmp(name + n - 5, ".json") || !(id = strndup(name, n - 5)))
		return false;
	/* imported since: its run is in the history by that very id */
	in = run_id_valid(id) && store_resolve_run(s, id, &found) == 0 && !strcmp(found, id);
	free_all(found, id);
	return in;
}

size_t db_pending_count(struct store *s, const char *db)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *e;
	size_t count = 0;
	DIR *d;

	db = db_given(db);

	if (db_pending_dir(db, &dir) < 0 || !(d = opendir(dir.buf))) {
		strbuf_release(&dir);
		return 0;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 5 && !strcmp(e->d_name + n - 5, ".json") &&
		    !db_pending_in_history(s, e->d_name))
			count++;
	}
	closedir(d);
	strbuf_release(&dir);
	return count;
}

// SPDX-License-Identifier: MIT
/* Opening the history: where it lives, checking it is ours, migrating it. */
#include "store/store_priv.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers shared by the store's files ---- */

int store_err(struct store *s, int rc)
{
	int sys = s && s->db ? sqlite3_system_errno(s->db) : 0;

	if (s && s->db && rc != SQLITE_OK) {
		strbuf_reset(&s->errmsg);
		strbuf_adds(&s->errmsg, sqlite3_errmsg(s->db));
	}
	switch (rc & 0xff) {
	case SQLITE_OK:
		return 0;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return -EBADMSG;
	case SQLITE_CONSTRAINT:
		/* a run id stored twice; anything else breaks the schema's rules */
		if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
			return -EEXIST;
		return -EINVAL;
	case SQLITE_CANTOPEN:
		return sys ? -sys : -EACCES;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	}
	return sys ? -sys : -EIO;
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **ret)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, ret, NULL);

	return rc == SQLITE_OK ? 0 : store_err(s, rc);
}

int store_exec(struct store *s, const char *sql)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_err(s, rc);
}

int store_step(struct store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_err(s, rc);
}

char *store_column_strdup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	char *d;

	if (!t)
		return NULL;
	d = strdup((const char *)t);
	if (!d)
		abort();
	return d;
}

const char *store_errmsg(const struct store *s)
{
	return s && s->errmsg.len ? s->errmsg.buf : "no error";
}

/* ---- where it lives ---- */

static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	/* "/" is what init and service managers leave root: not a home to write into */
	if (home && home[0] == '/' && home[1])
		return home;
	pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/' && pw->pw_dir[1])
		return pw->pw_dir;
	return geteuid() == 0 ? "/root" : NULL;
}

int store_default_path(char **ret)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home;
	struct strbuf p = STRBUF_INIT;

	/* the XDG spec: a relative XDG_DATA_HOME is invalid and ignored */
	if (xdg && xdg[0] == '/') {
		strbuf_addf(&p, "%s/usbperf/history.db", xdg);
	} else {
		home = home_dir();
		if (!home)
			return -ENOENT;
		strbuf_addf(&p, "%s/.local/share/usbperf/history.db", home);
	}
	*ret = strbuf_detach(&p);
	return 0;
}

/* the missing directories above path, mode 0700: a history names serials and hosts */
static int make_parents(const char *path)
{
	char *p = strdup(path);
	struct stat sb;
	int r = 0;

	if (!p)
		return -ENOMEM;
	for (char *slash = strchr(p + 1, '/'); slash && r == 0; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			r = -errno;
		else if (stat(p, &sb) < 0)
			r = -errno;
		else if (!S_ISDIR(sb.st_mode))
			r = -ENOTDIR;
		*slash = '/';
	}
	free(p);
	return r;
}

/* ---- opening ---- */

int store_query_int(struct store *s, const char *sql, int64_t *ret)
{
	sqlite3_stmt *st;
	int r = store_prepare(s, sql, &st);

	if (r < 0)
		return r;
	r = store_step(s, st);
	if (r > 0)
		*ret = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return r < 0 ? r : 0;
}

/* ours, a new empty file, or refused before anything is written to it */
static int check_identity(struct store *s)
{
	int64_t app = 0, version = 0, objects = 0;
	int r;

	/* one read transaction: another process may be creating the schema right now */
	r = store_exec(s, "BEGIN");
	if (r < 0)
		return r;
	r = store_query_int(s, "PRAGMA application_id", &app);
	if (r == 0)
		r = store_query_int(s, "PRAGMA user_version", &version);
	if (r == 0)
		r = store_query_int(s, "SELECT count(*) FROM sqlite_master", &objects);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (r < 0)
		return r;
	if (app != STORE_APPLICATION_ID && (app != 0 || objects != 0))
		return -EBADMSG;
	if (version > store_schema_version())
		return -EPROTONOSUPPORT;
	return 0;
}

/*
 * The switch to WAL of a new file takes an exclusive lock for which SQLite
 * does not call the busy handler: two processes creating the history at
 * once would see "database is locked". Wait as the busy timeout would.
 */
static int set_wal(struct store *s)
{
	for (int waited_ms = 0;; waited_ms += 5) {
		int r = store_exec(s, "PRAGMA journal_mode = WAL");

		if (r != -EBUSY || waited_ms >= STORE_BUSY_TIMEOUT_MS)
			return r;
		usleep(5000);
	}
}

static int configure(struct store *s)
{
	int r;

	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	r = check_identity(s);
	/*
	 * WAL: a reader never blocks the writer, and a process killed mid-write
	 * leaves uncommitted frames that the next opener ignores. NORMAL sync is
	 * safe in WAL mode: a power cut can only lose the last commits.
	 */
	if (r == 0)
		r = set_wal(s);
	if (r == 0)
		r = store_exec(s, "PRAGMA synchronous = NORMAL");
	if (r == 0)
		r = store_exec(s, "PRAGMA foreign_keys = ON");
	return r;
}

int store_open_flags(const char *path, unsigned flags, struct store **ret)
{
	int oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	struct store *s;
	struct stat sb;
	int r, rc;

	if (!path || !*path)
		return -EINVAL;
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode))
			return -EISDIR;
	} else if (errno != ENOENT || flags & STORE_OPEN_EXISTING) {
		return -errno;
	} else {
		r = make_parents(path);
		if (r < 0)
			return r;
		oflags |= SQLITE_OPEN_CREATE;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return -ENOMEM;
	}
	strbuf_init(&s->errmsg);
	rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
	r = rc == SQLITE_OK ? configure(s) : store_err(s, rc);
	if (r == 0)
		r = store_migrate(s, store_migrations, store_nmigrations);
	if (r < 0) {
		store_close(s);
		return r;
	}
	*ret = s;
	return 0;
}

int store_open(const char *path, struct store **ret)
{
	return store_open_flags(path, 0, ret);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close_v2(s->db);
	strbuf_release(&s->errmsg);
	free(s->path);
	free(s);
}

/* ---- checking ---- */

static char *pragma_text(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	char *t = NULL;

	if (store_prepare(s, sql, &st) < 0)
		return NULL;
	if (store_step(s, st) > 0)
		t = store_column_strdup(st, 0);
	sqlite3_finalize(st);
	return t;
}

/*
 * A damaged file makes SQLite fail the statement itself (-EBADMSG): that
 * is a finding of the check, noted, not a reason to stop checking.
 */
static int damage(struct store *s, int r, struct strbuf *problems)
{
	if (r != -EBADMSG)
		return r;
	if (problems->len)
		strbuf_adds(problems, "; ");
	strbuf_adds(problems, store_errmsg(s));
	return 0;
}

static int count_rows(struct store *s, const char *table, uint64_t *ret, struct strbuf *problems)
{
	char sql[64];
	int64_t n = 0;
	int r;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	r = store_query_int(s, sql, &n);
	*ret = r == 0 ? (uint64_t)n : U64_UNKNOWN;
	return r == 0 ? 0 : damage(s, r, problems);
}

/* every row of a check pragma, "; "-joined; none means no problem */
static int check_rows(struct store *s, const char *sql, bool skip_ok, struct strbuf *out)
{
	sqlite3_stmt *st;
	int r = store_prepare(s, sql, &st);

	while (r == 0 && (r = store_step(s, st)) > 0) {
		int ncol = sqlite3_column_count(st);
		const char *t = (const char *)sqlite3_column_text(st, 0);

		r = 0;
		if (skip_ok && ncol == 1 && t && !strcmp(t, "ok"))
			continue;
		if (out->len)
			strbuf_adds(out, "; ");
		for (int c = 0; c < ncol; c++) {
			t = (const char *)sqlite3_column_text(st, c);
			strbuf_addf(out, "%s%s", c ? " " : "", t ? t : "-");
		}
	}
	sqlite3_finalize(st);
	return r < 0 ? damage(s, r, out) : 0;
}

int store_check(struct store *s, struct store_stats *ret)
{
	static const char *const tables[] = {"runs", "devices", "metrics", "findings", "baselines"};
	struct store_stats st = {.path = s->path};
	uint64_t *counts[] = {&st.runs, &st.devices, &st.metrics, &st.findings, &st.baselines};
	struct strbuf problems = STRBUF_INIT;
	int64_t version = 0;
	int r;

	r = store_query_int(s, "PRAGMA user_version", &version);
	if (r == 0)
		r = check_rows(s, "PRAGMA integrity_check", true, &problems);
	if (r == 0)
		r = check_rows(s, "PRAGMA foreign_key_check", false, &problems);
	for (size_t i = 0; r == 0 && i < sizeof(tables) / sizeof(tables[0]); i++)
		r = count_rows(s, tables[i], counts[i], &problems);
	if (r < 0) {
		strbuf_release(&problems);
		return r;
	}
	st.schema_version = (uint64_t)version;
	st.journal_mode = pragma_text(s, "PRAGMA journal_mode");
	st.ok = problems.len == 0;
	if (st.ok)
		strbuf_adds(&problems, "ok");
	for (size_t i = 0; i < problems.len; i++) /* SQLite's report has lines: one field */
		if ((unsigned char)problems.buf[i] < 0x20)
			problems.buf[i] = ' ';
	st.integrity = strbuf_detach(&problems);
	*ret = st;
	return 0;
}

void store_stats_release(struct store_stats *st)
{
	free(st->journal_mode);
	free(st->integrity);
	st->journal_mode = st->integrity = NULL;
}

#define S struct store_stats
static const struct field stats_fields[] = {
	FIELD(S, path, "path", "database", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, schema_version, "schema_version", "schema version", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, journal_mode, "journal_mode", "journal", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, integrity, "integrity", "integrity", NULL, FT_STR, 0, FF_TEXT),
	FIELD(S, ok, "ok", "ok", NULL, FT_BOOL, 0, 0),
	FIELD(S, runs, "runs", "runs", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, devices, "devices", "devices", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, metrics, "metrics", "metrics", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, findings, "findings", "findings", NULL, FT_U64, 0, FF_TEXT),
	FIELD(S, baselines, "baselines", "baselines", NULL, FT_U64, 0, FF_TEXT),
};
#undef S
const struct record_desc store_stats_desc = RECORD_DESC("store_stats", stats_fields);

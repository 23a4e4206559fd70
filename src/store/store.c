// SPDX-License-Identifier: MIT
/* Opening the history: where it lives, checking it is ours, migrating it. */
#include "store/store_priv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/xdg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers shared by the store's files ---- */

int store_err(struct store *s, int r)
{
	if (s && s->conn && r < 0) {
		strbuf_reset(&s->errmsg);
		strbuf_adds(&s->errmsg, sql_errmsg(s->conn));
	}
	return r;
}

int store_prepare(struct store *s, const char *sql, struct sql_stmt **ret)
{
	return store_err(s, sql_prepare(s->conn, sql, ret));
}

int store_exec(struct store *s, const char *sql)
{
	return store_err(s, sql_exec(s->conn, sql));
}

int store_begin(struct store *s, enum sql_tx tx)
{
	return store_err(s, sql_begin(s->conn, tx));
}

int store_commit(struct store *s)
{
	return store_err(s, sql_commit(s->conn));
}

int store_step(struct store *s, struct sql_stmt *st)
{
	return store_err(s, sql_step(st));
}

char *store_column_strdup(struct sql_stmt *st, int col)
{
	const char *t = sql_column_text(st, col);
	char *d;

	if (!t)
		return NULL;
	d = strdup(t);
	if (!d)
		abort();
	return d;
}

const char *store_errmsg(const struct store *s)
{
	return s && s->errmsg.len ? s->errmsg.buf : "no error";
}

const char *store_path(const struct store *s)
{
	return s->path;
}

/* ---- where it lives ---- */

bool store_is_server(const char *path)
{
	return path && sql_backend_for(path)->server;
}

char *store_display_name(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at, *colon, *q, *p;

	if (!store_is_server(path))
		return strdup(path);
	/* scheme://user:PASSWORD@host: the password as "***" */
	p = strstr(path, "://") + 3;
	at = strchr(p, '@');
	q = strpbrk(p, "/?");
	colon = strchr(p, ':');
	if (at && (!q || at < q) && colon && colon < at) {
		strbuf_add(&sb, path, (size_t)(colon + 1 - path));
		strbuf_adds(&sb, "***");
		p = at;
	} else {
		strbuf_add(&sb, path, (size_t)(p - path));
	}
	/* and a password=... parameter */
	while (*p) {
		const char *pw = strstr(p, "password=");

		if (!pw || (pw != p && pw[-1] != '?' && pw[-1] != '&')) {
			size_t n = pw ? (size_t)(pw + 9 - p) : strlen(p);

			strbuf_add(&sb, p, n);
			p += n;
			continue;
		}
		strbuf_add(&sb, p, (size_t)(pw + 9 - p));
		strbuf_adds(&sb, "***");
		p = pw + 9 + strcspn(pw + 9, "&");
	}
	return strbuf_detach(&sb);
}

int store_default_path(char **ret)
{
	struct strbuf p = STRBUF_INIT;
	int r = xdg_path("XDG_DATA_HOME", ".local/share", "history.db", &p);

	if (r < 0)
		return r;
	*ret = strbuf_detach(&p);
	return 0;
}

/* ---- opening ---- */

int store_query_int(struct store *s, const char *sql, int64_t *ret)
{
	return store_err(s, sql_query_int(s->conn, sql, ret));
}

int store_version(struct store *s, int64_t *ret)
{
	int64_t objects;
	bool ours;

	return store_err(s, sql_identity(s->conn, STORE_APPLICATION_ID, &ours, ret, &objects));
}

/*
 * Ours, or refused before anything is written to it. *ret_version: the
 * schema's version, 0 for a new empty file (write mode makes it ours).
 */
static int check_identity(struct store *s, int64_t *ret_version)
{
	int64_t version = 0, objects = 0;
	bool ours = false;
	int r;

	/* one read transaction: another process may be creating the schema right now */
	r = store_begin(s, SQL_TX_READ);
	if (r < 0)
		return r;
	r = store_err(s, sql_identity(s->conn, STORE_APPLICATION_ID, &ours, &version, &objects));
	sql_commit(s->conn);
	if (r < 0)
		return r;
	if (!ours && objects != 0)
		return -EBADMSG;
	if (version > store_schema_version())
		return -EPROTONOSUPPORT;
	*ret_version = ours ? version : 0;
	return 0;
}

static int configure_write(struct store *s)
{
	int64_t version = 0;
	int r;

	r = check_identity(s, &version);
	/* a server's database has no file to be there or not: no schema is no history yet */
	if (r == 0 && version == 0 && s->server && s->existing)
		r = -ENOENT;
	/* ours: the back end may write now (SQLite: WAL, synchronous NORMAL) */
	if (r == 0)
		r = store_err(s, sql_setup_writer(s->conn));
	if (r == 0)
		r = store_migrate(s, store_migrations, store_nmigrations);
	return r;
}

/* an older schema, read: copied (SQLite: into memory) and migrated there, the file untouched */
static int migrate_in_memory(struct store *s)
{
	int r = store_err(s, sql_copy_private(s->conn));

	if (r < 0)
		return r;
	return store_migrate(s, store_migrations, store_nmigrations);
}

static int configure_read(struct store *s)
{
	int64_t version = 0;
	int r;

	r = check_identity(s, &version);
	if (r == 0 && version == 0) /* an empty file is no history: nothing is made of it */
		r = s->server ? -ENOENT : -EBADMSG;
	if (r == 0 && version < store_schema_version())
		r = migrate_in_memory(s);
	if (r == 0)
		r = store_err(s, sql_setup_reader(s->conn));
	return r;
}

int store_open_flags(const char *path, unsigned flags, struct store **ret)
{
	bool read = flags & STORE_OPEN_READ;
	enum sql_open mode = SQL_OPEN_CREATE;
	const struct sql_backend *b;
	struct sql_conn *conn;
	struct store *s;
	int r;

	if (!path || !*path)
		return -EINVAL;
	if (read)
		mode = SQL_OPEN_READ;
	else if (flags & STORE_OPEN_EXISTING)
		mode = SQL_OPEN_WRITE;
	b = sql_backend_for(path);
	r = b->open(path, mode, &conn);
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = store_display_name(path))) {
		free(s);
		sql_close(conn);
		return -ENOMEM;
	}
	s->conn = conn;
	strbuf_init(&s->errmsg);
	s->server = b->server;
	s->existing = flags & STORE_OPEN_EXISTING;
	r = read ? configure_read(s) : configure_write(s);
	if (r < 0) {
		store_close(s);
		return r;
	}
	*ret = s;
	return 0;
}

const char *store_open_error(const char *path)
{
	const struct sql_backend *b = sql_backend_for(path);

	return b->open_error ? b->open_error() : "";
}

int store_open(const char *path, struct store **ret)
{
	return store_open_flags(path, 0, ret);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sql_close(s->conn);
	strbuf_release(&s->errmsg);
	free_all(s->board, s->path, s);
}

int store_recover(const char *path)
{
	struct store s = {.path = (char *)path, .errmsg = STRBUF_INIT};
	int64_t version = 0;
	int r;

	if (store_is_server(path))
		return 0; /* a server recovers its own */
	r = sql_backend_for(path)->open(path, SQL_OPEN_WRITE, &s.conn);
	if (r < 0)
		return r;
	r = check_identity(&s, &version);
	if (r == 0 && version == 0)
		r = -EBADMSG; /* an empty file: nothing of SQLite's to recover */
	if (r == 0)
		r = store_err(&s, sql_checkpoint(s.conn));
	sql_close(s.conn);
	strbuf_release(&s.errmsg);
	return r;
}

/* ---- checking ---- */

static char *pragma_text(struct store *s, const char *sql)
{
	struct sql_stmt *st = NULL;
	char *t = NULL;

	if (store_prepare(s, sql, &st) < 0)
		return NULL;
	if (store_step(s, st) > 0)
		t = store_column_strdup(st, 0);
	sql_finalize(st);
	return t;
}

/*
 * A damaged file makes SQLite fail the statement itself (-EUCLEAN): that
 * is a finding of the check, noted, not a reason to stop checking.
 */
static int damage(struct store *s, int r, struct strbuf *problems)
{
	if (r != -EUCLEAN && r != -EBADMSG)
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
	struct sql_stmt *st = NULL;
	int r = store_prepare(s, sql, &st);

	while (r == 0 && (r = store_step(s, st)) > 0) {
		int ncol = sql_column_count(st);
		const char *t = sql_column_text(st, 0);

		r = 0;
		if (skip_ok && ncol == 1 && t && !strcmp(t, "ok"))
			continue;
		if (out->len)
			strbuf_adds(out, "; ");
		for (int c = 0; c < ncol; c++) {
			t = sql_column_text(st, c);
			strbuf_addf(out, "%s%s", c ? " " : "", t ? t : "-");
		}
	}
	sql_finalize(st);
	return r < 0 ? damage(s, r, out) : 0;
}

/* read as immutable, SQLite reports the journal mode "delete": the back end reads the file's */
static char *journal_mode(struct store *s)
{
	char *t = NULL;
	int r = sql_file_journal_mode(s->conn, &t);

	if (r == -EOPNOTSUPP && !sql_file_checks(s->conn))
		return strdup(sql_backend(s->conn)); /* a server's: its own write-ahead log */
	if (r == -EOPNOTSUPP)
		return pragma_text(s, "PRAGMA journal_mode");
	return r == 0 ? t : NULL;
}

int store_quick_check(struct store *s)
{
	struct strbuf problems = STRBUF_INIT;
	int r;

	if (!sql_file_checks(s->conn))
		return 0; /* a server keeps its own pages whole */
	r = check_rows(s, "PRAGMA quick_check", true, &problems);

	if (r == 0 && problems.len) {
		/* SQLite's own words for a damaged file: what every command prints for one */
		strbuf_reset(&s->errmsg);
		strbuf_adds(&s->errmsg, sql_strerror(s->conn, -EUCLEAN));
		r = -EUCLEAN;
	}
	strbuf_release(&problems);
	return r;
}

/* SQLite's report has lines: one field */
static char *one_line(struct strbuf *sb)
{
	for (size_t i = 0; i < sb->len; i++)
		if ((unsigned char)sb->buf[i] < 0x20)
			sb->buf[i] = ' ';
	return strbuf_detach(sb);
}

int store_check(struct store *s, struct store_stats *ret)
{
	static const char *const tables[] = {"runs", "devices", "metrics", "findings", "baselines"};
	struct store_stats st = {.path = s->path};
	uint64_t *counts[] = {&st.runs, &st.devices, &st.metrics, &st.findings, &st.baselines};
	struct strbuf problems = STRBUF_INIT, missing = STRBUF_INIT;
	int64_t version = 0;
	int r;

	r = store_version(s, &version);
	if (r == 0)
		r = store_schema_missing(s, &missing);
	if (r == 0 && sql_file_checks(s->conn))
		r = check_rows(s, "PRAGMA integrity_check", true, &problems);
	if (r == 0 && sql_file_checks(s->conn))
		r = check_rows(s, "PRAGMA foreign_key_check", false, &problems);
	for (size_t i = 0; r == 0 && i < sizeof(tables) / sizeof(tables[0]); i++) {
		*counts[i] = U64_UNKNOWN;
		if (store_has_table(s, tables[i]))
			r = count_rows(s, tables[i], counts[i], &problems);
	}
	if (r < 0) {
		strbuf_release(&problems);
		strbuf_release(&missing);
		return r;
	}
	st.schema_version = (uint64_t)version;
	st.journal_mode = journal_mode(s);
	st.schema_ok = missing.len == 0;
	st.ok = problems.len == 0 && st.schema_ok;
	if (!problems.len)
		strbuf_adds(&problems, sql_file_checks(s->conn) ? "ok" : "ok (the server checks its own)");
	if (!missing.len)
		strbuf_adds(&missing, "ok");
	st.integrity = one_line(&problems);
	st.schema = one_line(&missing);
	*ret = st;
	return 0;
}

void store_stats_release(struct store_stats *st)
{
	free_all(st->journal_mode, st->integrity, st->schema);
	st->journal_mode = st->integrity = st->schema = NULL;
}

#include "store/store.fields.h"

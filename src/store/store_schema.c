// SPDX-License-Identifier: MIT
/*
 * Is the schema whole? The migrations say what a history of this version
 * holds: they are applied to an empty scratch database (SQLite's is in
 * memory), and every table, column and index of that reference must be in
 * the history, which may be of another back end (asked through sql.h's
 * has_object and has_column). A table or
 * column dropped by hand (or by a tool) would otherwise pass SQLite's own
 * checks and fail every command that reads the history later.
 */
#include "store/sqlite/sql_sqlite.h"
#include "store/store_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the current schema, built from the migrations, in a store of its own */
static int reference(struct store *s, struct store *ret)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	strbuf_init(&ret->errmsg);
	(void)s;
	r = sql_sqlite_open_memory(&ret->conn);
	if (r < 0)
		return r;
	return store_migrate(ret, store_migrations, store_nmigrations);
}

static void reference_release(struct store *ref)
{
	sql_close(ref->conn);
	strbuf_release(&ref->errmsg);
}

static void note(struct strbuf *missing, const char *kind, const char *a, const char *b)
{
	strbuf_addf(missing, "%s%s '%s%s%s'", missing->len ? ", " : "", kind, a, b ? "." : "",
		    b ? b : "");
}

/* the columns of table in the reference, each looked for in the history */
static int columns(struct store *s, struct store *ref, const char *table, struct strbuf *missing)
{
	struct sql_stmt *st = NULL;
	int r = store_prepare(ref, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", &st);

	if (r < 0)
		return r;
	sql_bind_text(st, 1, table);
	while ((r = store_step(ref, st)) > 0) {
		const char *col = sql_column_text(st, 0);

		r = store_err(s, sql_has_column(s->conn, table, col));
		if (r < 0)
			break;
		if (r == 0)
			note(missing, "column", table, col);
	}
	sql_finalize(st);
	return r;
}

static int compare(struct store *s, struct store *ref, struct strbuf *missing)
{
	struct sql_stmt *st = NULL;
	int r = store_prepare(ref,
			      "SELECT type, name FROM sqlite_master WHERE type IN"
			      " ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY"
			      " type DESC, rowid",
			      &st);

	if (r < 0)
		return r;
	while ((r = store_step(ref, st)) > 0) {
		const char *type = sql_column_text(st, 0);
		const char *name = sql_column_text(st, 1);

		r = store_err(s, sql_has_object(s->conn, type, name));
		if (r == 0)
			note(missing, type, name, NULL);
		else if (r > 0 && !strcmp(type, "table"))
			r = columns(s, ref, name, missing);
		if (r < 0)
			break;
	}
	sql_finalize(st);
	return r;
}

int store_schema_missing(struct store *s, struct strbuf *missing)
{
	struct store ref;
	int64_t version = 0;
	int r = reference(s, &ref);

	if (r == 0)
		r = store_version(s, &version);
	if (r == 0 && version != store_schema_version())
		strbuf_addf(missing, "%sschema version %lld, not %d", missing->len ? ", " : "",
			    (long long)version, store_schema_version());
	if (r == 0)
		r = compare(s, &ref, missing);
	if (r < 0 && ref.errmsg.len && !s->errmsg.len)
		strbuf_adds(&s->errmsg, ref.errmsg.buf);
	reference_release(&ref);
	return r;
}

bool store_has_table(struct store *s, const char *table)
{
	return sql_has_object(s->conn, "table", table) > 0;
}

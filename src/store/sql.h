/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The store's one way to a database: a connection and its statements,
 * behind a table of operations per back end (as fio's ioengine_ops). The
 * store writes SQL with '?' parameters numbered from 1 ('?' or '?N'); a back
 * end whose server numbers them otherwise (libpq: $1, $2 ...) translates.
 * Every function that acts returns 0 or a negative errno, the back end's
 * codes already mapped (the list in store.h); sql_errmsg() has the back
 * end's words for the last failure.
 *
 * Opening is back end specific: a back end has its own idea of where a
 * database is (struct sql_backend, one folder each: sqlite/, postgres/,
 * listed in backends.c). Past that, the operations split in two:
 *   - every back end: exec .. errmsg below;
 *   - a file back end's own (SQLite's): the ops marked "optional". A back
 *     end without the thing leaves the op NULL, and the wrapper answers
 *     as the op's comment says (mostly -EOPNOTSUPP), so that the store can
 *     ask without knowing which back end it has.
 *
 * What SQL does not say alike is the dialect's ops (identity, version,
 * translate_ddl, has_object/has_column, setup_reader, can_insert): the
 * store sends no PRAGMA but SQLite's own file checks, and only to a back
 * end with file_checks. Its SQL is what both take: LIKE ... ESCAPE, a
 * LIMIT of INT64_MAX for none, CAST(?N AS TEXT) where a parameter is only
 * tested for NULL, INSERT ... ON CONFLICT. The migrations are written in
 * SQLite's words; PostgreSQL's translate_ddl says them as BIGINT, an
 * identity key, DOUBLE PRECISION and TEXT COLLATE "C" (a run id's prefix
 * is found by byte order). Writers are one at a time on both:
 * sql_begin(SQL_TX_WRITE) is SQLite's BEGIN IMMEDIATE, PostgreSQL's BEGIN
 * and an advisory lock.
 *
 * Left in sql_sqlite.c, as SQLite file matters rather than SQL: the path
 * checks before SQLite opens a name (FIFOs, devices, kernel files, its
 * 511-byte limit, a writable directory for the -wal), the creation of the
 * parent directories, the immutable read-only open under SQLite's shared
 * lock, WAL with synchronous NORMAL, the busy timeout, the checkpoint that
 * clears a killed writer's -wal, the in-memory copy of an older schema for
 * reading, and the mapping of SQLite's result codes to errno values.
 */
#include <stdbool.h>
#include <stdint.h>

struct sql_conn;
struct sql_stmt;

/* how a history is opened, whatever the back end */
enum sql_open {
	SQL_OPEN_READ,	 /* never creating, migrating or writing a byte */
	SQL_OPEN_WRITE,	 /* read-write; it must be there */
	SQL_OPEN_CREATE, /* read-write, made when missing */
};

/* a back end as the store finds it by a history's name (backends.c) */
struct sql_backend {
	const char *name; /* "sqlite", "postgresql" */
	/* the names it opens ("postgresql://"), NULL-ended; NULL: any other (a file) */
	const char *const *prefixes;
	bool server; /* a database server's: nothing of it on this machine's disk */
	/* errors as store.h lists them for store_open() */
	int (*open)(const char *name, enum sql_open mode, struct sql_conn **ret);
	/* why its last open failed, in its words; NULL: the errno says it */
	const char *(*open_error)(void);
};

/* the back end of a history's name: the first whose prefix it has, else the files' */
const struct sql_backend *sql_backend_for(const char *name);

/* sql_step(): a row to read, or the statement is done */
enum { SQL_DONE = 0, SQL_ROW = 1 };

enum sql_tx {
	SQL_TX_READ,  /* a snapshot to read in (SQLite: BEGIN, deferred) */
	SQL_TX_WRITE, /* will write: the write lock now (SQLite: BEGIN IMMEDIATE) */
};

struct sql_ops {
	const char *name;
	void (*close)(struct sql_conn *c);
	/* statements without rows or parameters, ';'-separated (a migration) */
	int (*exec)(struct sql_conn *c, const char *sql);
	int (*prepare)(struct sql_conn *c, const char *sql, struct sql_stmt **ret);
	int (*bind_text)(struct sql_stmt *st, int idx, const char *v);
	int (*bind_int64)(struct sql_stmt *st, int idx, int64_t v);
	int (*bind_double)(struct sql_stmt *st, int idx, double v);
	int (*bind_null)(struct sql_stmt *st, int idx);
	int (*step)(struct sql_stmt *st);
	const char *(*column_text)(struct sql_stmt *st, int col);
	int64_t (*column_int64)(struct sql_stmt *st, int col);
	double (*column_double)(struct sql_stmt *st, int col);
	bool (*column_is_null)(struct sql_stmt *st, int col);
	int (*column_count)(struct sql_stmt *st);
	int (*reset)(struct sql_stmt *st);
	void (*finalize)(struct sql_stmt *st);
	int (*begin)(struct sql_conn *c, enum sql_tx tx);
	int (*commit)(struct sql_conn *c);
	int (*rollback)(struct sql_conn *c);
	int64_t (*changes)(struct sql_conn *c);
	int64_t (*last_insert_id)(struct sql_conn *c);
	const char *(*errmsg)(struct sql_conn *c);
	/* the back end's words for an errno it maps to (the store's messages) */
	const char *(*strerror)(struct sql_conn *c, int err);

	/* ---- the dialect: what SQL does not say alike on every back end ---- */
	/*
	 * What the database is: *ret_ours when it is marked as app_id's (SQLite:
	 * PRAGMA application_id; PostgreSQL: its migrations table), its schema
	 * version (0: none) and how many tables and indexes it holds (0: empty,
	 * ours to make)
	 */
	int (*identity)(struct sql_conn *c, int64_t app_id, bool *ret_ours, int64_t *ret_version,
			int64_t *ret_objects);
	/* in a migration's transaction, after its statements: the schema is at version now */
	int (*set_version)(struct sql_conn *c, int version);
	/*
	 * A migration's statements, written in SQLite's words, as this back
	 * end takes them (allocated; NULL on ENOMEM). NULL op: as written.
	 */
	char *(*translate_ddl)(const char *sql);
	/* 1 when the table or index (type "table", "index") is there, 0 when not, or -errno */
	int (*has_object)(struct sql_conn *c, const char *type, const char *name);
	int (*has_column)(struct sql_conn *c, const char *table, const char *column);
	/* a reader's connection: nothing it sends may write (SQLite: query_only) */
	int (*setup_reader)(struct sql_conn *c);
	/* the back end checks the stored bytes itself (SQLite's integrity_check), else the server does */
	bool file_checks;
	/*
	 * 1 when this connection may add rows to every one of tables (NULL-ended),
	 * 0 when not, -errno; NULL op: whatever opened it read-write may
	 * (SQLite: the file's permissions, checked at open)
	 */
	int (*can_insert)(struct sql_conn *c, const char *const *tables);

	/* ---- optional: a file back end's own ---- */
	/*
	 * Go on with a private writable copy of the database, which nothing
	 * writes back (SQLite: a copy in memory), so that an older schema
	 * can be migrated for reading; what holds the file stays held.
	 */
	int (*copy_private)(struct sql_conn *c);
	/* before the first write, once the database is known to be ours (SQLite: WAL) */
	int (*setup_writer)(struct sql_conn *c);
	/* write back and drop what a killed writer left beside the file (SQLite's -wal) */
	int (*checkpoint)(struct sql_conn *c);
	/*
	 * The journal mode as the file says it, when the connection cannot
	 * tell (SQLite's immutable open says "delete"); -EOPNOTSUPP: ask
	 * with PRAGMA journal_mode
	 */
	int (*file_journal_mode)(struct sql_conn *c, char **ret);
};

/* NULL-safe */
void sql_close(struct sql_conn *c);
int sql_exec(struct sql_conn *c, const char *sql);
/*
 * One statement, its parameters '?' or '?N' from 1. *ret is NULL on
 * failure, so that sql_finalize() may follow either way.
 */
int sql_prepare(struct sql_conn *c, const char *sql, struct sql_stmt **ret);
/* v is not copied: it must stay until the statement is stepped, reset or finalized */
int sql_bind_text(struct sql_stmt *st, int idx, const char *v);
int sql_bind_int64(struct sql_stmt *st, int idx, int64_t v);
int sql_bind_double(struct sql_stmt *st, int idx, double v);
int sql_bind_null(struct sql_stmt *st, int idx);
/* SQL_ROW, SQL_DONE or -errno */
int sql_step(struct sql_stmt *st);
/* columns from 0, of the current row. Text: NULL for SQL NULL, valid until the next step */
const char *sql_column_text(struct sql_stmt *st, int col);
int64_t sql_column_int64(struct sql_stmt *st, int col);
double sql_column_double(struct sql_stmt *st, int col);
bool sql_column_is_null(struct sql_stmt *st, int col);
int sql_column_count(struct sql_stmt *st);
/* ready to step again from the start; the parameters stay bound */
int sql_reset(struct sql_stmt *st);
/* NULL-safe */
void sql_finalize(struct sql_stmt *st);
int sql_begin(struct sql_conn *c, enum sql_tx tx);
int sql_commit(struct sql_conn *c);
int sql_rollback(struct sql_conn *c);
/* rows the last INSERT, UPDATE or DELETE changed */
int64_t sql_changes(struct sql_conn *c);
/* the key the last INSERT made (SQLite's rowid; PostgreSQL: lastval() or RETURNING) */
int64_t sql_last_insert_id(struct sql_conn *c);
const char *sql_errmsg(struct sql_conn *c);
const char *sql_strerror(struct sql_conn *c, int err);

/*
 * For back ends and the store alike, on the calls above: the first column
 * of the first row of sql as an integer (*ret untouched without a row);
 * whether sql, its ?1 and ?2 (b NULL: none) bound to a and b, has a row (1,
 * 0, or -errno)
 */
int sql_query_int(struct sql_conn *c, const char *sql, int64_t *ret);
int sql_exists(struct sql_conn *c, const char *sql, const char *a, const char *b);

/* the dialect's ops (above) */
int sql_identity(struct sql_conn *c, int64_t app_id, bool *ret_ours, int64_t *ret_version,
		 int64_t *ret_objects);
int sql_set_version(struct sql_conn *c, int version);
/* sql as the back end takes it, allocated (the caller frees), NULL on ENOMEM */
char *sql_translate_ddl(struct sql_conn *c, const char *sql);
int sql_has_object(struct sql_conn *c, const char *type, const char *name);
int sql_has_column(struct sql_conn *c, const char *table, const char *column);
int sql_setup_reader(struct sql_conn *c);
bool sql_file_checks(struct sql_conn *c);
int sql_can_insert(struct sql_conn *c, const char *const *tables);
/* the back end's name: "sqlite", "postgresql" */
const char *sql_backend(struct sql_conn *c);

/* the optional ops: -EOPNOTSUPP without them, except where said */
int sql_copy_private(struct sql_conn *c);
/* 0 without the op: nothing to set up */
int sql_setup_writer(struct sql_conn *c);
int sql_checkpoint(struct sql_conn *c);
int sql_file_journal_mode(struct sql_conn *c, char **ret);

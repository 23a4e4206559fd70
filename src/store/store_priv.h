/* SPDX-License-Identifier: MIT */
#pragma once
/* Inside the store: the connection, statement helpers and the migrations. */
#include "store/store.h"

#include <sqlite3.h>

/* 'uspf': tells a usbperf history from any other SQLite file (schema_v1 sets it) */
#define STORE_APPLICATION_ID 1970499686
#define STORE_BUSY_TIMEOUT_MS 10000

struct store {
	sqlite3 *db;
	char *path;
	/* read mode: holds SQLite's shared lock while the file is read as immutable */
	int lock_fd;
	bool immutable;
	/* SQLite's words for the last failure, kept: a ROLLBACK would replace them */
	struct strbuf errmsg;
};

/* SQLite's result code as a negative errno (store.h lists them); keeps the message */
int store_err(struct store *s, int rc);
/* prepare one statement; logs nothing, returns -errno */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **ret);
/* a statement without rows or parameters (BEGIN, COMMIT, ...) */
int store_exec(struct store *s, const char *sql);
/* SQLITE_ROW -> 1, SQLITE_DONE -> 0, else -errno */
int store_step(struct store *s, sqlite3_stmt *st);
/* the first column of the first row of sql ("PRAGMA user_version"); *ret untouched without a row */
int store_query_int(struct store *s, const char *sql, int64_t *ret);
/* a column as a new string (NULL for SQL NULL); aborts on ENOMEM like record.c */
char *store_column_strdup(sqlite3_stmt *st, int col);

struct migration {
	int version;
	const char *sql;
};

extern const struct migration store_migrations[];
extern const size_t store_nmigrations;

/*
 * Bring the database up to the last of m[0..n): each migration in its own
 * transaction, with user_version and a row in the migrations table, so a
 * failed or interrupted one leaves the previous version whole.
 */
int store_migrate(struct store *s, const struct migration *m, size_t n);

/*
 * What the history lacks of the current schema (store_schema.c): ", "-joined
 * to missing ("table 'verdicts', column 'metrics.ceiling'"), nothing when
 * whole; -errno when it cannot be read.
 */
int store_schema_missing(struct store *s, struct strbuf *missing);
bool store_has_table(struct store *s, const char *table);

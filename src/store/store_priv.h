/* SPDX-License-Identifier: MIT */
#pragma once
/* Inside the store: its connection (sql.h), statement helpers and the migrations. */
#include "store/sql.h"
#include "store/store.h"

/* 'uspf': tells a usbperf history from any other SQLite file (schema_v1 sets it) */
#define STORE_APPLICATION_ID 1970499686

struct store {
	struct sql_conn *conn;
	char *path; /* as shown: a server URI's password masked */
	bool server;   /* a database server's (PostgreSQL), not a file */
	bool existing; /* STORE_OPEN_EXISTING */
	char *board;   /* store_scope_board(): "last" among its runs */
	/* the back end's words for the last failure, kept: a ROLLBACK would replace them */
	struct strbuf errmsg;
};

/* r, and when it is a failure (< 0) the back end's words for it kept as store_errmsg() */
int store_err(struct store *s, int r);
/* the calls of sql.h through store_err(): logs nothing, returns -errno */
int store_prepare(struct store *s, const char *sql, struct sql_stmt **ret);
/* a statement without rows or parameters (PRAGMA ..., a migration) */
int store_exec(struct store *s, const char *sql);
int store_begin(struct store *s, enum sql_tx tx);
int store_commit(struct store *s);
/* SQL_ROW (1), SQL_DONE (0), else -errno */
int store_step(struct store *s, struct sql_stmt *st);
/* the first column of the first row of sql ("PRAGMA user_version"); *ret untouched without a row */
int store_query_int(struct store *s, const char *sql, int64_t *ret);
/* the schema version the history is at (0: none yet) */
int store_version(struct store *s, int64_t *ret);
/*
 * The SQL that matches a run r of a board (store_filter.board) with the
 * board's LIKE pattern as ?P and the board itself, lowercase, as ?E
 */
#define STORE_BOARD_SQL(P, E)                                                                    \
	"(CAST(?" P " AS TEXT) IS NULL OR lower(r.hostname) LIKE ?" P " ESCAPE '\\'"             \
	" OR lower(r.board) LIKE ?" P " ESCAPE '\\' OR r.machine = ?" E ")"
/* "%s%": s lowercase (ASCII), its '%', '_' and '\\' plain characters (allocated) */
char *store_like_pattern(const char *s);
/* the columns of d's fields, ", "-joined ("first": no comma before), each table.COLUMN */
void store_add_columns(struct strbuf *sql, const struct record_desc *d, bool first,
		       const char *table);
/* d's fields of rec from the row's columns from first on (NULL: unknown); the next column */
int store_read_fields(struct sql_stmt *st, int first, const struct record_desc *d, void *rec);
/* v bound to st's parameter idx, or SQL NULL for NULL (v must outlive the statement) */
void store_bind_opt_text(struct sql_stmt *st, int idx, const char *v);
/* a board as STORE_BOARD_SQL matches it: its LIKE pattern, and itself lowercase */
struct store_board {
	char *pattern, *exact; /* both NULL: any board */
};
/* board (NULL: any) into b, bound to st's ?p and ?e; released after the statement */
void store_board_bind(struct store_board *b, const char *board, struct sql_stmt *st, int p,
		      int e);
void store_board_release(struct store_board *b);
/* a column as a new string (NULL for SQL NULL); aborts on ENOMEM like record.c */
char *store_column_strdup(struct sql_stmt *st, int col);

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

// SPDX-License-Identifier: MIT
/*
 * The PostgreSQL back end: struct sql_ops on libpq. The store writes its SQL
 * in SQLite's words where they are portable; here '?N' becomes '$N', each
 * parameter goes with the type it was bound as, results come back as text
 * and are read as numbers where asked, SQLSTATEs become errno values, and
 * the migrations' DDL is said in PostgreSQL's words (translate_ddl).
 */
#include "store/sql_backend.h"
#include "store/postgres/libpq_dl.h"
#include "store/postgres/sql_pg.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_MAX_PARAMS 64
/* 'uspf' as the store's application id: one writer at a time, as SQLite has it */
#define PG_WRITE_LOCK 1970499686
/* the type of a parameter (catalog/pg_type.h): unknown lets the server infer it */
#define PG_OID_UNKNOWN 0
#define PG_OID_INT8 20
#define PG_OID_FLOAT8 701

struct pg_conn {
	struct sql_conn base;
	PGconn *pg;
	struct strbuf err;
	int64_t changes;
};

struct pg_param {
	char *v; /* NULL: SQL NULL */
	unsigned type;
};

struct pg_stmt {
	struct sql_stmt base;
	char *sql; /* '?N' as '$N' */
	int nparams;
	struct pg_param p[PG_MAX_PARAMS];
	PGresult *res;
	int row;
};

static const struct sql_ops pg_ops;
static char open_error[256];

static struct pg_conn *conn_of(struct sql_conn *c)
{
	return container_of(c, struct pg_conn, base);
}

static struct pg_stmt *stmt_of(struct sql_stmt *st)
{
	return container_of(st, struct pg_stmt, base);
}

/* the first line of libpq's words, "ERROR:  " and the trailing newline gone */
static void set_err(struct pg_conn *pc, const char *msg)
{
	size_t n;

	if (!strncmp(msg, "ERROR:  ", 8))
		msg += 8;
	n = strcspn(msg, "\n");
	strbuf_reset(&pc->err);
	strbuf_add(&pc->err, msg, n);
}

/* a SQLSTATE as a negative errno (store.h lists them) */
static int state_err(const char *state)
{
	static const struct {
		const char *state;
		int err;
	} map[] = {
	    {"23505", -EEXIST}, {"23", -EINVAL},     {"40001", -EBUSY},	 {"40P01", -EBUSY},
	    {"55P03", -EBUSY},	{"25006", -EROFS},   {"42501", -EACCES}, {"28", -EKEYREJECTED},
	    {"53100", -ENOSPC}, {"53200", -ENOMEM},  {"3D000", -ENXIO}, {"42P01", -EBADMSG},
	    {"42703", -EBADMSG}, {"57P", -ECONNRESET}, {"08", -ECONNRESET},
	};

	for (size_t i = 0; state && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(state, map[i].state, strlen(map[i].state)))
			return map[i].err;
	return -EIO;
}

/* a result that failed: its errno, its words kept; the result cleared */
static int result_err(struct pg_conn *pc, PGresult *res)
{
	const char *state = res ? pq.PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? pq.PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	int r = pq.PQstatus(pc->pg) == CONNECTION_BAD ? -ECONNRESET : state_err(state);

	set_err(pc, msg ? msg : pq.PQerrorMessage(pc->pg));
	pq.PQclear(res);
	return r;
}

/* ---- statements ---- */

/* sql with SQLite's '?' and '?N' as '$N', outside quotes; *ret_n the highest */
static char *dollar_params(const char *sql, int *ret_n)
{
	struct strbuf out = STRBUF_INIT;
	char quote = 0;
	int n = 0;

	for (const char *c = sql; *c; c++) {
		if (quote) {
			quote = *c == quote ? 0 : quote;
			strbuf_addch(&out, *c);
		} else if (*c == '\'' || *c == '"') {
			quote = *c;
			strbuf_addch(&out, *c);
		} else if (*c == '?') {
			char *end;
			long k = strtol(c + 1, &end, 10);

			if (end == c + 1)
				k = n + 1; /* a bare '?': one more than the highest so far */
			else
				c = end - 1;
			n = k > n ? (int)k : n;
			strbuf_addf(&out, "$%ld", k);
		} else {
			strbuf_addch(&out, *c);
		}
	}
	*ret_n = n;
	return strbuf_detach(&out);
}

static int pg_prepare(struct sql_conn *c, const char *sql, struct sql_stmt **ret)
{
	struct pg_stmt *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->sql = dollar_params(sql, &st->nparams);
	if (st->nparams > PG_MAX_PARAMS) {
		free_all(st->sql, st);
		set_err(conn_of(c), "too many parameters");
		return -EINVAL;
	}
	st->base.conn = c;
	st->row = -1;
	*ret = &st->base;
	return 0;
}

static int bind(struct sql_stmt *s, int idx, const char *v, unsigned type)
{
	struct pg_stmt *st = stmt_of(s);
	char *dup = NULL;

	if (idx < 1 || idx > st->nparams)
		return -ERANGE;
	if (v && !(dup = strdup(v)))
		return -ENOMEM;
	free(st->p[idx - 1].v);
	st->p[idx - 1] = (struct pg_param){dup, type};
	return 0;
}

static int pg_bind_text(struct sql_stmt *st, int idx, const char *v)
{
	return bind(st, idx, v, PG_OID_UNKNOWN);
}

static int pg_bind_int64(struct sql_stmt *st, int idx, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return bind(st, idx, buf, PG_OID_INT8);
}

static int pg_bind_double(struct sql_stmt *st, int idx, double v)
{
	char buf[40];

	if (isnan(v))
		snprintf(buf, sizeof(buf), "NaN");
	else if (isinf(v))
		snprintf(buf, sizeof(buf), "%sInfinity", v < 0 ? "-" : "");
	else
		snprintf(buf, sizeof(buf), "%.17g", v);
	return bind(st, idx, buf, PG_OID_FLOAT8);
}

static int pg_bind_null(struct sql_stmt *st, int idx)
{
	return bind(st, idx, NULL, PG_OID_UNKNOWN);
}

/* the statement sent, its result kept: SQL_ROW, SQL_DONE or -errno */
static int run(struct pg_stmt *st)
{
	struct pg_conn *pc = conn_of(st->base.conn);
	const char *values[PG_MAX_PARAMS];
	Oid types[PG_MAX_PARAMS];
	PGresult *res;

	for (int i = 0; i < st->nparams; i++) {
		values[i] = st->p[i].v;
		types[i] = st->p[i].type;
	}
	res = pq.PQexecParams(pc->pg, st->sql, st->nparams, types, values, NULL, NULL, 0);
	switch (pq.PQresultStatus(res)) {
	case PGRES_TUPLES_OK:
		st->res = res;
		st->row = 0;
		return pq.PQntuples(res) > 0 ? SQL_ROW : SQL_DONE;
	case PGRES_COMMAND_OK:
		pc->changes = strtoll(pq.PQcmdTuples(res), NULL, 10);
		st->res = res;
		st->row = 0;
		return SQL_DONE;
	default:
		return result_err(pc, res);
	}
}

static int pg_step(struct sql_stmt *s)
{
	struct pg_stmt *st = stmt_of(s);

	if (!st->res)
		return run(st);
	if (st->row < pq.PQntuples(st->res))
		st->row++;
	return st->row < pq.PQntuples(st->res) ? SQL_ROW : SQL_DONE;
}

static const char *pg_column_text(struct sql_stmt *s, int col)
{
	struct pg_stmt *st = stmt_of(s);

	if (!st->res || st->row >= pq.PQntuples(st->res) || col >= pq.PQnfields(st->res) ||
	    pq.PQgetisnull(st->res, st->row, col))
		return NULL;
	return pq.PQgetvalue(st->res, st->row, col);
}

static int64_t pg_column_int64(struct sql_stmt *st, int col)
{
	const char *t = pg_column_text(st, col);

	return t ? strtoll(t, NULL, 10) : 0;
}

static double pg_column_double(struct sql_stmt *st, int col)
{
	const char *t = pg_column_text(st, col);

	return t ? strtod(t, NULL) : 0;
}

static bool pg_column_is_null(struct sql_stmt *st, int col)
{
	return pg_column_text(st, col) == NULL;
}

static int pg_column_count(struct sql_stmt *s)
{
	struct pg_stmt *st = stmt_of(s);

	return st->res ? pq.PQnfields(st->res) : 0;
}

static int pg_reset(struct sql_stmt *s)
{
	struct pg_stmt *st = stmt_of(s);

	pq.PQclear(st->res);
	st->res = NULL;
	st->row = -1;
	return 0;
}

static void pg_finalize(struct sql_stmt *s)
{
	struct pg_stmt *st = stmt_of(s);

	pg_reset(s);
	for (int i = 0; i < PG_MAX_PARAMS; i++)
		free(st->p[i].v);
	free_all(st->sql, st);
}

/* ---- the connection ---- */

static void pg_close(struct sql_conn *c)
{
	struct pg_conn *pc = conn_of(c);

	pq.PQfinish(pc->pg);
	strbuf_release(&pc->err);
	free(pc);
}

static int pg_exec(struct sql_conn *c, const char *sql)
{
	struct pg_conn *pc = conn_of(c);
	PGresult *res = pq.PQexec(pc->pg, sql);
	ExecStatusType s = pq.PQresultStatus(res);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		return result_err(pc, res);
	pq.PQclear(res);
	return 0;
}

static int pg_begin(struct sql_conn *c, enum sql_tx tx)
{
	char sql[96];

	if (tx == SQL_TX_READ)
		return pg_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ");
	/* the write lock now, held to COMMIT or ROLLBACK: SQLite's BEGIN IMMEDIATE */
	snprintf(sql, sizeof(sql), "BEGIN; SELECT pg_advisory_xact_lock(%d)", PG_WRITE_LOCK);
	return pg_exec(c, sql);
}

static int pg_commit(struct sql_conn *c)
{
	return pg_exec(c, "COMMIT");
}

static int pg_rollback(struct sql_conn *c)
{
	return pg_exec(c, "ROLLBACK");
}

static int64_t pg_changes(struct sql_conn *c)
{
	return conn_of(c)->changes;
}

static int64_t pg_last_insert_id(struct sql_conn *c)
{
	int64_t id = 0;

	sql_query_int(c, "SELECT lastval()", &id);
	return id;
}

static const char *pg_errmsg(struct sql_conn *c)
{
	struct pg_conn *pc = conn_of(c);

	return pc->err.len ? pc->err.buf : "no error";
}

static const char *pg_strerror(struct sql_conn *c, int err)
{
	(void)c;
	return strerror(-err);
}

/* ---- the dialect ---- */

static int pg_has_object(struct sql_conn *c, const char *type, const char *name)
{
	if (!strcmp(type, "index"))
		return sql_exists(c, "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema()"
				 " AND indexname = ?1",
			      name, NULL);
	return sql_exists(c, "SELECT 1 FROM information_schema.tables WHERE table_schema ="
			 " current_schema() AND table_name = ?1",
		      name, NULL);
}

static int pg_has_column(struct sql_conn *c, const char *table, const char *column)
{
	return sql_exists(c, "SELECT 1 FROM information_schema.columns WHERE table_schema ="
			 " current_schema() AND table_name = ?1 AND column_name = ?2",
		      table, column);
}

/*
 * Ours when the migrations table usbperf makes is there, with its column;
 * the version is its highest row. app_id is SQLite's mark: PostgreSQL has
 * no place for it, the lock of writers (PG_WRITE_LOCK) is the same number.
 */
static int pg_identity(struct sql_conn *c, int64_t app_id, bool *ret_ours, int64_t *ret_version,
		       int64_t *ret_objects)
{
	int r = sql_query_int(c,
			  "SELECT count(*) FROM pg_class k JOIN pg_namespace n ON n.oid ="
			  " k.relnamespace WHERE n.nspname = current_schema()"
			  " AND k.relkind IN ('r', 'p', 'i', 'v', 'm', 'S')",
			  ret_objects);

	(void)app_id;
	*ret_ours = false;
	*ret_version = 0;
	if (r == 0)
		r = pg_has_column(c, "migrations", "usbperf_version");
	if (r > 0) {
		*ret_ours = true;
		r = sql_query_int(c, "SELECT coalesce(max(version), 0) FROM migrations", ret_version);
	}
	return r < 0 ? r : 0;
}

static int pg_set_version(struct sql_conn *c, int version)
{
	/* the migrations table's row, which the store has written, is the version */
	(void)c;
	(void)version;
	return 0;
}

static bool word_at(const char *s, const char *at, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(at, w, n) && (at == s || !(at[-1] == '_' || (at[-1] >= 'A' && at[-1] <= 'Z') ||
						 (at[-1] >= 'a' && at[-1] <= 'z'))) &&
	       !(at[n] == '_' || (at[n] >= 'A' && at[n] <= 'Z') || (at[n] >= 'a' && at[n] <= 'z'));
}

/*
 * A migration in PostgreSQL's words: no PRAGMA (SQLite's marks); the run's
 * INTEGER PRIMARY KEY numbered by the server; every INTEGER 64 bits and
 * every REAL a double, as SQLite's are; TEXT compared byte by byte, as
 * SQLite compares it (a run id's prefix, the order of ids). The types are
 * SQLite's capitals, so a column named "text" is left alone.
 */
static char *pg_translate_ddl(const char *sql)
{
	static const struct {
		const char *from, *to;
	} words[] = {
	    {"INTEGER PRIMARY KEY", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"},
	    {"INTEGER", "BIGINT"},
	    {"REAL", "DOUBLE PRECISION"},
	    {"TEXT", "TEXT COLLATE \"C\""},
	};
	struct strbuf out = STRBUF_INIT;
	const char *c = sql;

	while (*c) {
		size_t i;

		if (word_at(sql, c, "PRAGMA")) {
			c += strcspn(c, ";");
			c += *c == ';';
			c += *c == '\n';
			continue;
		}
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (word_at(sql, c, words[i].from))
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			strbuf_adds(&out, words[i].to);
			c += strlen(words[i].from);
		} else if (*c == '"') { /* a quoted name: as it is */
			size_t n = strcspn(c + 1, "\"") + 1;

			strbuf_add(&out, c, n + (c[n] == '"'));
			c += n + (c[n] == '"');
		} else {
			strbuf_addch(&out, *c++);
		}
	}
	return strbuf_detach(&out);
}

static int pg_can_insert(struct sql_conn *c, const char *const *tables)
{
	int r = 1;

	for (size_t i = 0; r == 1 && tables[i]; i++)
		r = sql_exists(c,
		    "SELECT 1 WHERE has_table_privilege(current_user, CAST(?1 AS TEXT), 'INSERT')",
		    tables[i], NULL);
	return r;
}

static int pg_setup_reader(struct sql_conn *c)
{
	return pg_exec(c, "SET default_transaction_read_only = on");
}

static const struct sql_ops pg_ops = {
    .name = "postgresql",
    .close = pg_close,
    .exec = pg_exec,
    .prepare = pg_prepare,
    .bind_text = pg_bind_text,
    .bind_int64 = pg_bind_int64,
    .bind_double = pg_bind_double,
    .bind_null = pg_bind_null,
    .step = pg_step,
    .column_text = pg_column_text,
    .column_int64 = pg_column_int64,
    .column_double = pg_column_double,
    .column_is_null = pg_column_is_null,
    .column_count = pg_column_count,
    .reset = pg_reset,
    .finalize = pg_finalize,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .changes = pg_changes,
    .last_insert_id = pg_last_insert_id,
    .errmsg = pg_errmsg,
    .strerror = pg_strerror,
    .identity = pg_identity,
    .set_version = pg_set_version,
    .translate_ddl = pg_translate_ddl,
    .has_object = pg_has_object,
    .has_column = pg_has_column,
    .setup_reader = pg_setup_reader,
    .file_checks = false,
    .can_insert = pg_can_insert,
};

/* ---- opening ---- */

/* why a connection failed, from libpq's words: the errno store.h says for it */
static int connect_err(PGconn *pg)
{
	const char *msg = pq.PQerrorMessage(pg);

	if (pq.PQconnectionNeedsPassword(pg) || strstr(msg, "authentication failed") ||
	    strstr(msg, "no pg_hba.conf entry") || strstr(msg, "permission denied"))
		return -EKEYREJECTED;
	if (strstr(msg, "does not exist") && strstr(msg, "database"))
		return -ENXIO;
	return -ECONNREFUSED;
}

int sql_pg_open(const char *uri, enum sql_open mode, struct sql_conn **ret)
{
	/* defaults first: what the URI says after them wins (expand_dbname) */
	static const char *const keys[] = {"connect_timeout", "fallback_application_name",
					   "client_encoding", "dbname", NULL};
	const char *values[] = {"10", "usbperf", "UTF8", uri, NULL};
	struct pg_conn *pc;
	const char *msg;
	int r;

	open_error[0] = '\0';
	r = pq_load(open_error, sizeof(open_error));
	if (r < 0)
		return r;
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	pc->base.ops = &pg_ops;
	strbuf_init(&pc->err);
	pc->pg = pq.PQconnectdbParams(keys, values, 1);
	if (!pc->pg) {
		pg_close(&pc->base);
		return -ENOMEM;
	}
	if (pq.PQstatus(pc->pg) != CONNECTION_OK) {
		r = connect_err(pc->pg);
		msg = pq.PQerrorMessage(pc->pg);
		/* libpq's first line names host and port, never the password */
		snprintf(open_error, sizeof(open_error), "%.*s", (int)strcspn(msg, "\n"), msg);
		pg_close(&pc->base);
		return r;
	}
	r = pg_exec(&pc->base, "SET client_min_messages = warning");
	if (r == 0 && mode == SQL_OPEN_READ)
		r = pg_setup_reader(&pc->base);
	if (r < 0) {
		snprintf(open_error, sizeof(open_error), "%s", pc->err.buf);
		pg_close(&pc->base);
		return r;
	}
	*ret = &pc->base;
	return 0;
}

const char *sql_pg_open_error(void)
{
	return open_error;
}

// SPDX-License-Identifier: MIT
/* The connection's calls, each to its back end's op. */
#include "store/sql_backend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void sql_close(struct sql_conn *c)
{
	if (c)
		c->ops->close(c);
}

int sql_exec(struct sql_conn *c, const char *sql)
{
	return c->ops->exec(c, sql);
}

int sql_prepare(struct sql_conn *c, const char *sql, struct sql_stmt **ret)
{
	*ret = NULL;
	return c->ops->prepare(c, sql, ret);
}

int sql_bind_text(struct sql_stmt *st, int idx, const char *v)
{
	return st->conn->ops->bind_text(st, idx, v);
}

int sql_bind_int64(struct sql_stmt *st, int idx, int64_t v)
{
	return st->conn->ops->bind_int64(st, idx, v);
}

int sql_bind_double(struct sql_stmt *st, int idx, double v)
{
	return st->conn->ops->bind_double(st, idx, v);
}

int sql_bind_null(struct sql_stmt *st, int idx)
{
	return st->conn->ops->bind_null(st, idx);
}

int sql_step(struct sql_stmt *st)
{
	return st->conn->ops->step(st);
}

const char *sql_column_text(struct sql_stmt *st, int col)
{
	return st->conn->ops->column_text(st, col);
}

int64_t sql_column_int64(struct sql_stmt *st, int col)
{
	return st->conn->ops->column_int64(st, col);
}

double sql_column_double(struct sql_stmt *st, int col)
{
	return st->conn->ops->column_double(st, col);
}

bool sql_column_is_null(struct sql_stmt *st, int col)
{
	return st->conn->ops->column_is_null(st, col);
}

int sql_column_count(struct sql_stmt *st)
{
	return st->conn->ops->column_count(st);
}

int sql_reset(struct sql_stmt *st)
{
	return st->conn->ops->reset(st);
}

void sql_finalize(struct sql_stmt *st)
{
	if (st)
		st->conn->ops->finalize(st);
}

int sql_begin(struct sql_conn *c, enum sql_tx tx)
{
	return c->ops->begin(c, tx);
}

int sql_commit(struct sql_conn *c)
{
	return c->ops->commit(c);
}

int sql_rollback(struct sql_conn *c)
{
	return c->ops->rollback(c);
}

int64_t sql_changes(struct sql_conn *c)
{
	return c->ops->changes(c);
}

int64_t sql_last_insert_id(struct sql_conn *c)
{
	return c->ops->last_insert_id(c);
}

const char *sql_errmsg(struct sql_conn *c)
{
	return c->ops->errmsg(c);
}

const char *sql_strerror(struct sql_conn *c, int err)
{
	return c->ops->strerror(c, err);
}

int sql_copy_private(struct sql_conn *c)
{
	return c->ops->copy_private ? c->ops->copy_private(c) : -EOPNOTSUPP;
}

int sql_setup_writer(struct sql_conn *c)
{
	return c->ops->setup_writer ? c->ops->setup_writer(c) : 0;
}

int sql_checkpoint(struct sql_conn *c)
{
	return c->ops->checkpoint ? c->ops->checkpoint(c) : -EOPNOTSUPP;
}

int sql_file_journal_mode(struct sql_conn *c, char **ret)
{
	return c->ops->file_journal_mode ? c->ops->file_journal_mode(c, ret) : -EOPNOTSUPP;
}

int sql_identity(struct sql_conn *c, int64_t app_id, bool *ret_ours, int64_t *ret_version,
		 int64_t *ret_objects)
{
	return c->ops->identity(c, app_id, ret_ours, ret_version, ret_objects);
}

int sql_set_version(struct sql_conn *c, int version)
{
	return c->ops->set_version(c, version);
}

char *sql_translate_ddl(struct sql_conn *c, const char *sql)
{
	return c->ops->translate_ddl ? c->ops->translate_ddl(sql) : strdup(sql);
}

int sql_has_object(struct sql_conn *c, const char *type, const char *name)
{
	return c->ops->has_object(c, type, name);
}

int sql_has_column(struct sql_conn *c, const char *table, const char *column)
{
	return c->ops->has_column(c, table, column);
}

int sql_setup_reader(struct sql_conn *c)
{
	return c->ops->setup_reader(c);
}

bool sql_file_checks(struct sql_conn *c)
{
	return c->ops->file_checks;
}

const char *sql_backend(struct sql_conn *c)
{
	return c->ops->name;
}

int sql_can_insert(struct sql_conn *c, const char *const *tables)
{
	return c->ops->can_insert ? c->ops->can_insert(c, tables) : 1;
}

int sql_query_int(struct sql_conn *c, const char *sql, int64_t *ret)
{
	struct sql_stmt *st = NULL;
	int r = sql_prepare(c, sql, &st);

	if (r < 0)
		return r;
	r = sql_step(st);
	if (r == SQL_ROW)
		*ret = sql_column_int64(st, 0);
	sql_finalize(st);
	return r < 0 ? r : 0;
}

int sql_exists(struct sql_conn *c, const char *sql, const char *a, const char *b)
{
	struct sql_stmt *st = NULL;
	int r = sql_prepare(c, sql, &st);

	if (r < 0)
		return r;
	r = sql_bind_text(st, 1, a);
	if (r == 0 && b)
		r = sql_bind_text(st, 2, b);
	if (r == 0)
		r = sql_step(st);
	sql_finalize(st);
	return r;
}

// SPDX-License-Identifier: MIT
/*
 * Saving and loading whole runs. The statements are built from the field
 * tables (column names only: values are always bound), so a field added to
 * a table is stored without touching this file, once a migration adds its
 * column.
 */
#include "model/record_fields.h"
#include "run/record_json.h"
#include "store/store_priv.h"
#include "util/parse.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void store_add_columns(struct strbuf *sql, const struct record_desc *d, bool first,
		       const char *table)
{
	for (size_t i = 0; i < d->nfields; i++)
		strbuf_addf(sql, "%s%s%s\"%s\"", first && !i ? "" : ", ", table ? table : "",
			    table ? "." : "", FIELD_COLUMN(&d->fields[i]));
}

static void add_placeholders(struct strbuf *sql, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_adds(sql, i ? ", ?" : "?");
}

/* a field's value bound to a statement's parameter: the visitor's context */
struct bind_ctx {
	struct sql_stmt *st;
	int idx;
};

static int bind_null(void *ctx, const struct field *f)
{
	struct bind_ctx *b = ctx;

	(void)f;
	return sql_bind_null(b->st, b->idx);
}

static int bind_str(void *ctx, const struct field *f, const char *v)
{
	struct bind_ctx *b = ctx;

	(void)f;
	return sql_bind_text(b->st, b->idx, v);
}

static int bind_u64(void *ctx, const struct field *f, uint64_t v)
{
	struct bind_ctx *b = ctx;

	(void)f;
	return sql_bind_int64(b->st, b->idx, (int64_t)v); /* validated to fit */
}

static int bind_i64(void *ctx, const struct field *f, int64_t v)
{
	struct bind_ctx *b = ctx;

	(void)f;
	return sql_bind_int64(b->st, b->idx, v);
}

static int bind_dbl(void *ctx, const struct field *f, double v)
{
	struct bind_ctx *b = ctx;

	(void)f;
	return sql_bind_double(b->st, b->idx, v);
}

static int bind_bool(void *ctx, const struct field *f, bool v)
{
	struct bind_ctx *b = ctx;

	(void)f;
	return sql_bind_int64(b->st, b->idx, v);
}

static int bind_field(struct sql_stmt *st, int idx, const struct field *f, const void *rec)
{
	static const struct field_visitor bind = {
	    .unknown = bind_null,
	    .str = bind_str,
	    .u64 = bind_u64,
	    .i64 = bind_i64,
	    .dbl = bind_dbl,
	    .boolean = bind_bool,
	};
	struct bind_ctx b = {st, idx};

	return field_visit(f, rec, &bind, &b);
}

/* the fields of rec to parameters first.. ; returns the next index */
static int bind_fields(struct sql_stmt *st, int first, const struct record_desc *d, const void *rec)
{
	for (size_t i = 0; i < d->nfields; i++)
		if (bind_field(st, first + (int)i, &d->fields[i], rec) < 0)
			return -ENOMEM;
	return first + (int)d->nfields;
}

/* a result column read by kind: the source field_fill reads from */
struct column_ctx {
	struct sql_stmt *st;
	int col;
};

static char *column_str(void *ctx, const struct field *f)
{
	struct column_ctx *c = ctx;

	(void)f;
	return store_column_strdup(c->st, c->col);
}

static int64_t column_i64(void *ctx, const struct field *f)
{
	struct column_ctx *c = ctx;

	(void)f;
	return sql_column_int64(c->st, c->col);
}

static double column_dbl(void *ctx, const struct field *f)
{
	struct column_ctx *c = ctx;

	(void)f;
	return sql_column_double(c->st, c->col);
}

static void read_field(struct sql_stmt *st, int col, const struct field *f, void *rec)
{
	static const struct field_source column = {column_str, column_i64, column_dbl};
	struct column_ctx c = {st, col};

	if (sql_column_is_null(st, col))
		return; /* the record was set to unknown */
	field_fill(f, rec, &column, &c);
}

int store_read_fields(struct sql_stmt *st, int first, const struct record_desc *d, void *rec)
{
	fields_set_unknown(d, rec);
	for (size_t i = 0; i < d->nfields; i++)
		read_field(st, first + (int)i, &d->fields[i], rec);
	return first + (int)d->nfields;
}

/* ---- saving ---- */

static int insert_run(struct store *s, const struct run_record *r, int64_t *ret_pk)
{
	struct strbuf sql = STRBUF_INIT;
	struct sql_stmt *st = NULL;
	int ret;

	strbuf_adds(&sql, "INSERT INTO runs (");
	store_add_columns(&sql, &run_info_desc, true, NULL);
	store_add_columns(&sql, &run_env_desc, false, NULL);
	strbuf_adds(&sql, ") VALUES (");
	add_placeholders(&sql, run_info_desc.nfields + run_env_desc.nfields);
	strbuf_adds(&sql, ")");
	ret = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (ret < 0)
		return ret;
	ret = bind_fields(st, 1, &run_info_desc, r);
	if (ret > 0)
		ret = bind_fields(st, ret, &run_env_desc, &r->env);
	if (ret > 0)
		ret = store_step(s, st);
	sql_finalize(st);
	if (ret < 0)
		return ret;
	*ret_pk = sql_last_insert_id(s->conn);
	return 0;
}

/* n records of one per-run table, in order (seq) */
static int insert_rows(struct store *s, const char *table, const struct record_desc *d, int64_t pk,
		       const void *v, size_t n, size_t stride)
{
	struct strbuf sql = STRBUF_INIT;
	struct sql_stmt *st = NULL;
	int ret;

	strbuf_addf(&sql, "INSERT INTO %s (run, seq, ", table);
	store_add_columns(&sql, d, true, NULL);
	strbuf_adds(&sql, ") VALUES (?, ?, ");
	add_placeholders(&sql, d->nfields);
	strbuf_adds(&sql, ")");
	ret = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		sql_reset(st);
		sql_bind_int64(st, 1, pk);
		sql_bind_int64(st, 2, (int64_t)i);
		ret = bind_fields(st, 3, d, (const char *)v + i * stride);
		if (ret > 0)
			ret = store_step(s, st);
	}
	sql_finalize(st);
	return ret;
}

int store_check_writable(struct store *s)
{
	static const char *const tables[] = {"runs",	 "devices", "metrics",	  "findings",
					     "verdicts", "notes",   "unmeasured", NULL};
	int r = store_err(s, sql_can_insert(s->conn, tables));

	if (r == 0) {
		strbuf_reset(&s->errmsg);
		strbuf_adds(&s->errmsg, "this role may not add runs to it (INSERT on its tables)");
		return -EACCES;
	}
	return r < 0 ? r : 0;
}

int store_save_run(struct store *s, const struct run_record *r)
{
	int64_t pk;
	int ret;

	/* whatever is stored can be exported and imported again */
	ret = run_record_validate(r, NULL);
	if (ret < 0)
		return ret;
	if (store_run_id_reserved(r->id)) {
		strbuf_reset(&s->errmsg);
		strbuf_addf(&s->errmsg, "the id '%s' is reserved", r->id);
		return -EINVAL;
	}
	ret = store_begin(s, SQL_TX_WRITE);
	if (ret < 0)
		return ret;
	ret = insert_run(s, r, &pk);
	if (ret == 0)
		ret = insert_rows(s, "devices", &run_device_desc, pk, r->devices, r->ndevices,
				  sizeof(*r->devices));
	if (ret == 0)
		ret = insert_rows(s, "metrics", &run_metric_desc, pk, r->metrics, r->nmetrics,
				  sizeof(*r->metrics));
	if (ret == 0)
		ret = insert_rows(s, "findings", &finding_desc, pk, r->findings.v, r->findings.n,
				  sizeof(*r->findings.v));
	if (ret == 0)
		ret = insert_rows(s, "verdicts", &run_verdict_desc, pk, r->verdicts, r->nverdicts,
				  sizeof(*r->verdicts));
	if (ret == 0)
		ret = insert_rows(s, "notes", &run_note_desc, pk, r->notes, r->nnotes,
				  sizeof(*r->notes));
	if (ret == 0)
		ret = insert_rows(s, "unmeasured", &run_unmeasured_desc, pk, r->unmeasured,
				  r->nunmeasured, sizeof(*r->unmeasured));
	if (ret == 0)
		ret = store_commit(s);
	if (ret < 0)
		sql_rollback(s->conn);
	return ret;
}

/* ---- loading ---- */

/* "last~N": the Nth run before the newest, as `history` lists them ("last" is "last~0") */
static int resolve_last(struct store *s, uint64_t back, char **ret_id)
{
	struct store_board board = {0};
	struct sql_stmt *st = NULL;
	int r = store_prepare(s,
			      "SELECT id FROM runs r WHERE " STORE_BOARD_SQL("1", "2")
			      " ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET ?3",
			      &st);

	if (r < 0)
		return r;
	store_board_bind(&board, s->board, st, 1, 2);
	sql_bind_int64(st, 3, back > INT64_MAX ? INT64_MAX : (int64_t)back);
	r = store_step(s, st);
	if (r > 0)
		*ret_id = store_column_strdup(st, 0);
	sql_finalize(st);
	store_board_release(&board);
	return r < 0 ? r : r == 0 ? -ENOENT : 0;
}

int store_scope_board(struct store *s, const char *board)
{
	free(s->board);
	s->board = board ? strdup(board) : NULL;
	return board && !s->board ? -ENOMEM : 0;
}

int store_run_last_offset(const char *arg, uint64_t *ret)
{
	size_t n = strlen(STORE_RUN_LAST);

	if (strncmp(arg, STORE_RUN_LAST, n))
		return -EINVAL;
	if (!arg[n]) {
		*ret = 0;
		return 0;
	}
	if (arg[n] != '~' || arg[n + 1] < '0' || arg[n + 1] > '9')
		return -EINVAL;
	return parse_u64(arg + n + 1, 0, INT64_MAX, ret);
}

bool store_run_id_reserved(const char *id)
{
	uint64_t back;

	return store_run_last_offset(id, &back) == 0;
}

int store_count_runs(struct store *s, uint64_t *ret)
{
	int64_t n;
	int r = store_query_int(s, "SELECT count(*) FROM runs", &n);

	if (r == 0)
		*ret = (uint64_t)n;
	return r;
}

int store_resolve_run(struct store *s, const char *id_or_prefix, char **ret_id)
{
	struct strbuf end = STRBUF_INIT;
	struct sql_stmt *st = NULL;
	char *first = NULL;
	int ret;

	uint64_t back;

	if (store_run_last_offset(id_or_prefix, &back) == 0)
		return resolve_last(s, back, ret_id);
	if (!run_id_valid(id_or_prefix))
		return -ENOENT;
	/*
	 * ids are made of characters below 0x7f: every id that starts with
	 * the prefix sorts between it and prefix + "\x7f", and the id's index
	 * finds them. An exact id sorts first.
	 */
	strbuf_addf(&end, "%s\x7f", id_or_prefix);
	ret = store_prepare(s, "SELECT id FROM runs WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 2",
			    &st);
	if (ret < 0)
		goto out;
	sql_bind_text(st, 1, id_or_prefix);
	sql_bind_text(st, 2, end.buf);
	ret = store_step(s, st);
	if (ret == 0)
		ret = -ENOENT;
	if (ret > 0) {
		first = store_column_strdup(st, 0);
		ret = strcmp(first, id_or_prefix) ? store_step(s, st) : 0;
		if (ret > 0) /* a second id with that prefix */
			ret = -EINVAL;
	}
	sql_finalize(st);
	if (ret == 0) {
		*ret_id = first;
		first = NULL;
	}
out:
	free(first);
	strbuf_release(&end);
	return ret;
}

static int load_run_row(struct store *s, const char *id, struct run_record *r, int64_t *ret_pk)
{
	struct strbuf sql = STRBUF_INIT;
	struct sql_stmt *st = NULL;
	int ret;

	strbuf_adds(&sql, "SELECT pk, ");
	store_add_columns(&sql, &run_info_desc, true, NULL);
	store_add_columns(&sql, &run_env_desc, false, NULL);
	strbuf_adds(&sql, " FROM runs WHERE id = ?");
	ret = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (ret < 0)
		return ret;
	sql_bind_text(st, 1, id);
	ret = store_step(s, st);
	if (ret > 0) {
		*ret_pk = sql_column_int64(st, 0);
		store_read_fields(st, store_read_fields(st, 1, &run_info_desc, r), &run_env_desc, &r->env);
		ret = 0;
	} else if (ret == 0) {
		ret = -ENOENT;
	}
	sql_finalize(st);
	return ret;
}

enum part { PART_DEVICES, PART_METRICS, PART_FINDINGS, PART_VERDICTS, PART_NOTES, PART_UNMEASURED };

/* the next record of a part, to read a row into */
static void *add_part(struct run_record *r, enum part p, struct finding *tmp)
{
	if (p == PART_DEVICES)
		return run_record_add_device(r);
	if (p == PART_METRICS)
		return run_record_add_metric(r, NULL, NULL, NULL, NULL, NULL, false);
	if (p == PART_VERDICTS)
		return run_record_add_verdict(r);
	if (p == PART_NOTES) {
		r->notes = xgrow(r->notes, &r->nnotes, sizeof(*r->notes));
		return &r->notes[r->nnotes - 1];
	}
	if (p == PART_UNMEASURED)
		return run_record_add_unmeasured(r);
	return tmp;
}

/* a finding is read aside, then added: the list keeps severity as a static string */
static void add_finding(struct run_record *r, struct finding *t)
{
	finding_add(&r->findings, strcmp(t->severity ? t->severity : "", "warn") ? FINDING_INFO
										     : FINDING_WARN,
		    t->id, t->subject, t->message, t->evidence, t->fix);
	finding_set_about(&r->findings.v[r->findings.n - 1], t->about);
	free((char *)t->severity);
	free(t->id), free(t->subject), free(t->message), free(t->evidence), free(t->fix);
	free(t->about);
}

static int load_part(struct store *s, int64_t pk, enum part p, struct run_record *r)
{
	static const char *const tables[] = {"devices",	 "metrics", "findings",
					     "verdicts", "notes",   "unmeasured"};
	const struct record_desc *descs[] = {&run_device_desc, &run_metric_desc,
					     &finding_desc,    &run_verdict_desc,
					     &run_note_desc,   &run_unmeasured_desc};
	struct strbuf sql = STRBUF_INIT;
	struct finding tmp;
	struct sql_stmt *st = NULL;
	int ret;

	strbuf_adds(&sql, "SELECT ");
	store_add_columns(&sql, descs[p], true, NULL);
	strbuf_addf(&sql, " FROM %s WHERE run = ? ORDER BY seq", tables[p]);
	ret = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (ret < 0)
		return ret;
	sql_bind_int64(st, 1, pk);
	while ((ret = store_step(s, st)) > 0) {
		store_read_fields(st, 0, descs[p], add_part(r, p, &tmp));
		if (p == PART_FINDINGS)
			add_finding(r, &tmp);
	}
	sql_finalize(st);
	return ret;
}

/* the run named by id_or_prefix (exact: only by its id) */
static int load_run(struct store *s, const char *id_or_prefix, bool exact, struct run_record *ret)
{
	struct run_record r = {.findings = FINDING_LIST_INIT};
	int64_t pk = 0;
	char *id = NULL;
	int rc;

	/* one read transaction: the run as one snapshot */
	rc = store_begin(s, SQL_TX_READ);
	if (rc < 0)
		return rc;
	if (exact)
		rc = (id = strdup(id_or_prefix)) ? 0 : -ENOMEM;
	else
		rc = store_resolve_run(s, id_or_prefix, &id);
	if (rc == 0)
		rc = load_run_row(s, id, &r, &pk);
	if (rc == 0)
		rc = load_part(s, pk, PART_DEVICES, &r);
	if (rc == 0)
		rc = load_part(s, pk, PART_METRICS, &r);
	if (rc == 0)
		rc = load_part(s, pk, PART_FINDINGS, &r);
	for (enum part p = PART_VERDICTS; rc == 0 && p <= PART_UNMEASURED; p++)
		rc = load_part(s, pk, p, &r);
	sql_commit(s->conn);
	free(id);
	if (rc < 0) {
		run_record_release(&r);
		return rc;
	}
	*ret = r;
	return 0;
}

int store_load_run(struct store *s, const char *id_or_prefix, struct run_record *ret)
{
	return load_run(s, id_or_prefix, false, ret);
}

int store_load_run_id(struct store *s, const char *id, struct run_record *ret)
{
	return load_run(s, id, true, ret);
}

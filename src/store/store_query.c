// SPDX-License-Identifier: MIT
/* Listing runs and naming baselines. */
#include "run/record_json.h"
#include "store/store_priv.h"
#include "util/strbuf.h"
#include "util/utctime.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Filters are parameters too: a NULL one matches everything. Devices match
 * by substring, case-insensitive (VID:PID is lowercase hex in sysfs, a
 * user may type it in capitals): LIKE, which SQLite and PostgreSQL both
 * have, with '%', '_' and '\\' typed by a user escaped (like_pattern). A
 * parameter tested for NULL is cast: PostgreSQL infers no type from IS NULL.
 */
#define LIST_SQL(order)                                                                          \
	"SELECT r.pk, r.id, r.started_at, r.duration_s, r.hostname, r.board, r.kernel,"          \
	" (SELECT count(*) FROM metrics m WHERE m.run = r.pk),"                                  \
	" (SELECT count(*) FROM findings f WHERE f.run = r.pk),"                                 \
	" (SELECT count(*) FROM findings f WHERE f.run = r.pk AND f.severity = 'warn')"          \
	" FROM runs r"                                                                           \
	" WHERE (CAST(?1 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM devices d WHERE d.run = r.pk AND"           \
	"  (lower(d.vid_pid) LIKE ?1 ESCAPE '\\' OR lower(d.serial) LIKE ?1 ESCAPE '\\'"           \
	"   OR lower(d.port_path) LIKE ?1 ESCAPE '\\')))"                                       \
	" AND (CAST(?2 AS TEXT) IS NULL OR r.started_at >= ?2)"                                   \
	" AND (CAST(?3 AS TEXT) IS NULL OR r.started_at < ?3)"                                   \
	" AND " STORE_BOARD_SQL("5", "6")                                                        \
	" ORDER BY r.started_at " order ", r.id " order " LIMIT ?4"

static char *lower(const char *s)
{
	char *l = strdup(s);

	if (!l)
		abort();
	for (char *c = l; *c; c++)
		*c = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
	return l;
}

char *store_like_pattern(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '%');
	for (; *s; s++) {
		if (strchr("%_\\", *s))
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s);
	}
	strbuf_addch(&sb, '%');
	return strbuf_detach(&sb);
}

void store_bind_opt_text(struct sql_stmt *st, int idx, const char *v)
{
	if (v)
		sql_bind_text(st, idx, v);
	else
		sql_bind_null(st, idx);
}

void store_board_bind(struct store_board *b, const char *board, struct sql_stmt *st, int p,
		      int e)
{
	b->pattern = board ? store_like_pattern(board) : NULL;
	/* the pattern's middle, unescaped: for a machine hash, matched whole */
	b->exact = board ? lower(board) : NULL;
	store_bind_opt_text(st, p, b->pattern);
	store_bind_opt_text(st, e, b->exact);
}

void store_board_release(struct store_board *b)
{
	free_all(b->pattern, b->exact);
	b->pattern = b->exact = NULL;
}

/* a listed run's pk, and where its summary is: found by pk (bsearch) */
struct pk_at {
	int64_t pk;
	size_t at;
};

static int by_pk(const void *a, const void *b)
{
	int64_t x = ((const struct pk_at *)a)->pk, y = ((const struct pk_at *)b)->pk;

	return x < y ? -1 : x > y;
}

/*
 * Each listed run's devices ("0781:5583@2-1", "host", in the run's order:
 * an FF_LIST) and baseline names, two queries for all of them (a farm's
 * 10,000 runs: not 20,000 round trips to a server): the rows of the pks
 * from the lowest listed to the highest, those of runs not listed passed by.
 */
static int add_parts(struct store *s, struct run_summary *v, struct pk_at *pks, size_t n)
{
	static const char *const sql[] = {
	    "SELECT run, \"key\", vid_pid, port_path FROM devices WHERE run >= ?1 AND run <= ?2"
	    " ORDER BY run, seq",
	    "SELECT run, name, NULL, NULL FROM baselines WHERE run >= ?1 AND run <= ?2"
	    " ORDER BY run, name",
	};
	struct strbuf *sb = calloc(n ? n : 1, sizeof(*sb));
	int r = 0;

	if (!sb)
		abort();
	if (n)
		qsort(pks, n, sizeof(*pks), by_pk);
	for (size_t part = 0; n && r == 0 && part < 2; part++) {
		struct sql_stmt *st = NULL;

		for (size_t i = 0; i < n; i++)
			strbuf_reset(&sb[i]);
		r = store_prepare(s, sql[part], &st);
		if (r == 0) {
			sql_bind_int64(st, 1, pks[0].pk);
			sql_bind_int64(st, 2, pks[n - 1].pk);
		}
		while (r == 0 && (r = store_step(s, st)) > 0) {
			struct pk_at key = {sql_column_int64(st, 0), 0}, *at;
			const char *name = sql_column_text(st, 1), *vid = sql_column_text(st, 2);
			const char *port = sql_column_text(st, 3);
			struct strbuf *out;

			r = 0;
			at = bsearch(&key, pks, n, sizeof(*pks), by_pk);
			if (!at)
				continue;
			out = &sb[at->at];
			if (out->len)
				strbuf_addch(out, FIELD_LIST_SEP);
			if (vid)
				strbuf_addf(out, "%s@%s", vid, port ? port : name);
			else
				strbuf_adds(out, name ? name : "");
		}
		sql_finalize(st);
		for (size_t i = 0; r == 0 && i < n; i++) {
			char **to = part ? &v[i].baselines : &v[i].devices;

			*to = sb[i].len ? strbuf_detach(&sb[i]) : NULL;
		}
	}
	for (size_t i = 0; i < n; i++)
		strbuf_release(&sb[i]);
	free(sb);
	return r;
}

struct list_stmts {
	struct sql_stmt *runs;
	char *pattern; /* the device filter, bound to runs */
	struct store_board board;
};

static void read_summary(struct list_stmts *q, struct run_summary *v, int64_t *ret_pk)
{
	struct sql_stmt *st = q->runs;

	v->id = store_column_strdup(st, 1);
	v->started_at = store_column_strdup(st, 2);
	v->duration_s = sql_column_is_null(st, 3) ? NAN : sql_column_double(st, 3);
	v->hostname = store_column_strdup(st, 4);
	v->board = store_column_strdup(st, 5);
	v->kernel = store_column_strdup(st, 6);
	v->nmetrics = (uint64_t)sql_column_int64(st, 7);
	v->nfindings = (uint64_t)sql_column_int64(st, 8);
	v->nwarnings = (uint64_t)sql_column_int64(st, 9);
	*ret_pk = sql_column_int64(st, 0);
}

static int prepare_list(struct store *s, const struct store_filter *f, struct list_stmts *q)
{
	int r;

	r = store_prepare(s, f->oldest_first ? LIST_SQL("ASC") : LIST_SQL("DESC"), &q->runs);
	if (r < 0)
		return r;
	q->pattern = f->device ? store_like_pattern(f->device) : NULL;
	store_bind_opt_text(q->runs, 1, q->pattern);
	store_bind_opt_text(q->runs, 2, f->since);
	store_bind_opt_text(q->runs, 3, f->until);
	store_board_bind(&q->board, f->board, q->runs, 5, 6);
	/* no limit: the most there could be (PostgreSQL takes no negative LIMIT) */
	sql_bind_int64(q->runs, 4, f->limit && f->limit <= INT64_MAX ? (int64_t)f->limit : INT64_MAX);
	return 0;
}

int store_list_runs(struct store *s, const struct store_filter *f, struct run_summary **ret,
		    size_t *ret_n)
{
	static const struct store_filter all;
	struct list_stmts q = {0};
	struct run_summary *v = NULL;
	struct pk_at *pks = NULL;
	size_t n = 0, npks = 0;
	int r;

	r = store_begin(s, SQL_TX_READ);
	if (r < 0)
		return r;
	r = prepare_list(s, f ? f : &all, &q);
	while (r == 0 && (r = store_step(s, q.runs)) > 0) {
		v = xgrow(v, &n, sizeof(*v));
		pks = xgrow(pks, &npks, sizeof(*pks));
		read_summary(&q, &v[n - 1], &pks[npks - 1].pk);
		pks[npks - 1].at = n - 1;
		r = 0;
	}
	sql_finalize(q.runs);
	if (r == 0)
		r = add_parts(s, v, pks, n);
	free_all(pks, q.pattern);
	store_board_release(&q.board);
	sql_commit(s->conn);
	if (r < 0) {
		run_summaries_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void run_summaries_free(struct run_summary *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].id), free(v[i].started_at), free(v[i].hostname), free(v[i].board);
		free(v[i].kernel), free(v[i].devices), free(v[i].baselines);
	}
	free(v);
}

#include "store/store_query.fields.h"

/* ---- baselines ---- */

int store_baseline_set(struct store *s, const char *name, const char *id_or_prefix)
{
	char now[UTC_TIME_LEN + 1];
	struct sql_stmt *st = NULL;
	char *id = NULL;
	int r;

	if (!run_id_valid(name))
		return -EINVAL;
	r = store_begin(s, SQL_TX_WRITE);
	if (r < 0)
		return r;
	r = store_resolve_run(s, id_or_prefix, &id);
	if (r == 0)
		r = store_prepare(s, "INSERT INTO baselines (name, run, set_at)"
				     " VALUES (?1, (SELECT pk FROM runs WHERE id = ?2), ?3)"
				     " ON CONFLICT (name) DO UPDATE SET run = excluded.run,"
				     " set_at = excluded.set_at", &st);
	if (r == 0) {
		utc_time_format(time(NULL), now);
		sql_bind_text(st, 1, name);
		sql_bind_text(st, 2, id);
		sql_bind_text(st, 3, now);
		r = store_step(s, st);
		sql_finalize(st);
	}
	if (r == 0)
		r = store_commit(s);
	if (r < 0)
		sql_rollback(s->conn);
	free(id);
	return r;
}

int store_baseline_get(struct store *s, const char *name, char **ret_run_id)
{
	struct sql_stmt *st = NULL;
	int r;

	r = store_prepare(s, "SELECT r.id FROM baselines b JOIN runs r ON r.pk = b.run"
			     " WHERE b.name = ?", &st);
	if (r < 0)
		return r;
	sql_bind_text(st, 1, name);
	r = store_step(s, st);
	if (r > 0)
		*ret_run_id = store_column_strdup(st, 0);
	sql_finalize(st);
	return r > 0 ? 0 : r == 0 ? -ENOENT : r;
}

int store_baseline_delete(struct store *s, const char *name)
{
	struct sql_stmt *st = NULL;
	int r;

	r = store_prepare(s, "DELETE FROM baselines WHERE name = ?", &st);
	if (r < 0)
		return r;
	sql_bind_text(st, 1, name);
	r = store_step(s, st);
	sql_finalize(st);
	if (r == 0 && sql_changes(s->conn) == 0)
		r = -ENOENT;
	return r;
}

int store_list_baselines(struct store *s, struct store_baseline **ret, size_t *ret_n)
{
	struct store_baseline *v = NULL;
	struct sql_stmt *st = NULL;
	size_t n = 0;
	int r;

	r = store_prepare(s, "SELECT b.name, r.id, b.set_at, r.started_at, r.board, r.kernel"
			     " FROM baselines b JOIN runs r ON r.pk = b.run ORDER BY b.name", &st);
	if (r < 0)
		return r;
	while ((r = store_step(s, st)) > 0) {
		v = xgrow(v, &n, sizeof(*v));
		v[n - 1] = (struct store_baseline){
			store_column_strdup(st, 0), store_column_strdup(st, 1),
			store_column_strdup(st, 2), store_column_strdup(st, 3),
			store_column_strdup(st, 4), store_column_strdup(st, 5),
		};
	}
	sql_finalize(st);
	if (r < 0) {
		store_baselines_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void store_baselines_free(struct store_baseline *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].name), free(v[i].run_id), free(v[i].set_at);
		free(v[i].started_at), free(v[i].board), free(v[i].kernel);
	}
	free(v);
}


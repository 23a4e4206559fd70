// SPDX-License-Identifier: MIT
/* Figures across runs in one query: the fleet view's (store.h store_points). */
#include "model/record_fields.h"
#include "store/store_priv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a metric key as a SQL literal: keys are [a-z0-9_] (the vocabulary's), anything else refused */
static int add_key(struct strbuf *sql, const char *key, bool first)
{
	if (!*key || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(key))
		return -EINVAL;
	strbuf_addf(sql, "%s'%s'", first ? "" : ", ", key);
	return 0;
}

static int build_sql(const char *const *metrics, size_t n, struct strbuf *sql)
{
	int r = 0;

	strbuf_adds(sql, "SELECT r.id, r.started_at, r.kernel, d.vid_pid, d.serial, d.product, d.ceiling_mb_s, ");
	store_add_columns(sql, &run_env_desc, true, "r");
	store_add_columns(sql, &run_metric_desc, false, "m");
	strbuf_adds(sql, " FROM runs r JOIN metrics m ON m.run = r.pk LEFT JOIN devices d ON"
			 " d.run = r.pk AND d.\"key\" = m.device_key"
			 " WHERE (CAST(?1 AS TEXT) IS NULL OR r.started_at >= ?1)"
			 " AND (CAST(?2 AS TEXT) IS NULL OR r.started_at < ?2)"
			 " AND " STORE_BOARD_SQL("3", "4") " AND m.metric IN (");
	for (size_t i = 0; r == 0 && i < n; i++)
		r = add_key(sql, metrics[i], i == 0);
	strbuf_adds(sql, ") ORDER BY r.started_at, r.id, m.seq");
	return n ? r : -EINVAL;
}

int store_points(struct store *s, const struct store_filter *f, const char *const *metrics,
		 size_t n, struct store_point **ret, size_t *ret_n)
{
	struct strbuf sql = STRBUF_INIT;
	struct store_point *v = NULL;
	struct store_board board = {0};
	struct sql_stmt *st = NULL;
	size_t nv = 0;
	int r = build_sql(metrics, n, &sql);

	if (r == 0)
		r = store_begin(s, SQL_TX_READ);
	if (r == 0) {
		r = store_prepare(s, sql.buf, &st);
		if (r == 0) {
			store_bind_opt_text(st, 1, f->since);
			store_bind_opt_text(st, 2, f->until);
			store_board_bind(&board, f->board, st, 3, 4);
		}
		while (r == 0 && (r = store_step(s, st)) > 0) {
			struct store_point *p;
			int col;

			v = xgrow(v, &nv, sizeof(*v));
			p = &v[nv - 1];
			p->run_id = store_column_strdup(st, 0);
			p->started_at = store_column_strdup(st, 1);
			p->kernel = store_column_strdup(st, 2);
			p->vid_pid = store_column_strdup(st, 3);
			p->serial = store_column_strdup(st, 4);
			p->product = store_column_strdup(st, 5);
			p->ceiling_mb_s = sql_column_is_null(st, 6) ? NAN : sql_column_double(st, 6);
			col = store_read_fields(st, 7, &run_env_desc, &p->env);
			store_read_fields(st, col, &run_metric_desc, &p->m);
			r = 0;
		}
		sql_finalize(st);
		sql_commit(s->conn);
	}
	strbuf_release(&sql);
	store_board_release(&board);
	if (r < 0) {
		store_points_free(v, nv);
		return r;
	}
	*ret = v;
	*ret_n = nv;
	return 0;
}

void store_points_free(struct store_point *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free_all(v[i].run_id, v[i].started_at, v[i].kernel, v[i].vid_pid, v[i].serial,
			 v[i].product);
		run_env_release(&v[i].env);
		run_metric_release(&v[i].m);
	}
	free(v);
}

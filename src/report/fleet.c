// SPDX-License-Identifier: MIT
/* The fleet view's rows from the history's figures (fleet.h). */
#include "report/fleet.h"
#include "run/class.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLEET_MAX_KEYS 64

/* ---- which figures ---- */

static void add_key(const char **keys, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(keys[i], key))
			return;
	if (*n + 1 < FLEET_MAX_KEYS)
		keys[(*n)++] = key;
}

const char *const *fleet_metric_keys(void)
{
	static const char *keys[FLEET_MAX_KEYS];
	static size_t n;

	if (n)
		return keys;
	for (size_t i = 0; i < run_nclasses; i++) {
		const struct measure_class *c = run_classes[i];

		for (size_t k = 0; k < c->nheadline; k++)
			add_key(keys, &n, c->headline[k].metric);
		for (size_t k = 0; k < c->nmetrics; k++)
			if (c->metrics[k].rate)
				add_key(keys, &n, c->metrics[k].key);
	}
	keys[n] = NULL;
	return keys;
}

/* a figure the fleet shows: what a verdict rests on (class.h headline), else a rate */
static bool headline(const struct run_metric *m)
{
	const struct measure_class *c = run_class_find(m->test);
	const struct class_metric *cm;

	if (c && c->nheadline) {
		for (size_t k = 0; k < c->nheadline; k++)
			if (!strcmp(m->metric, c->headline[k].metric) && m->name &&
			    !strncmp(m->name, c->headline[k].prefix, strlen(c->headline[k].prefix)))
				return true;
		return false;
	}
	cm = c ? run_class_metric(c, m->metric) : run_class_metric_any(m->metric);
	return cm && cm->rate;
}

/* ---- grouping ---- */

/* the board a run was made on: its machine hash, else its hostname */
static const char *board_key(const struct store_point *p)
{
	return p->env.machine ? p->env.machine : p->env.hostname ? p->env.hostname : "";
}

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* the device whatever its port: VID:PID and serial, as compare matches them; else its key */
static int device_cmp(const struct store_point *a, const struct store_point *b)
{
	int c;

	if (a->vid_pid && b->vid_pid) {
		c = strcmp(a->vid_pid, b->vid_pid);
		return c ? c : strcmp0(a->serial, b->serial);
	}
	if (a->vid_pid || b->vid_pid)
		return a->vid_pid ? 1 : -1;
	return strcmp0(a->m.device_key, b->m.device_key);
}

/* board, device, pass, metric, then time: a row's points together, oldest first */
static int by_series(const void *x, const void *y, void *ctx)
{
	const struct store_point *v = ctx;
	const struct store_point *a = &v[*(const size_t *)x], *b = &v[*(const size_t *)y];
	int c = strcmp0(board_key(a), board_key(b));

	if (!c)
		c = device_cmp(a, b);
	if (!c)
		c = strcmp0(a->m.test, b->m.test);
	if (!c)
		c = strcmp0(a->m.name, b->m.name);
	if (!c)
		c = strcmp0(a->m.metric, b->m.metric);
	if (!c)
		c = strcmp0(a->started_at, b->started_at);
	return c ? c : strcmp0(a->run_id, b->run_id);
}

static bool same_series(const struct store_point *a, const struct store_point *b)
{
	return !strcmp0(board_key(a), board_key(b)) && !device_cmp(a, b) &&
	       !strcmp0(a->m.test, b->m.test) && !strcmp0(a->m.name, b->m.name) &&
	       !strcmp0(a->m.metric, b->m.metric);
}

/* "2-2 0781:5583": where it was last, and what it is */
static char *device_label(const struct store_point *p)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, p->m.device_key ? p->m.device_key : "?");
	if (p->vid_pid)
		strbuf_addf(&sb, " %s", p->vid_pid);
	return strbuf_detach(&sb);
}

static char *board_label(const struct store_point *p)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, p->env.hostname ? p->env.hostname : "?");
	if (p->env.board)
		strbuf_addf(&sb, " (%s)", p->env.board);
	return strbuf_detach(&sb);
}

/* the row of the series idx[0..n) of v, its points from pts on */
static void make_row(struct fleet_row *row, const struct store_point *v, const size_t *idx,
		     size_t n, struct fleet_point *pts, double threshold_pct)
{
	const struct store_point *first = &v[idx[0]], *last = &v[idx[n - 1]];
	struct compare_side a, b;
	/* a figure's own ceiling, else (a run from before those) its link's for a rate in MB/s */
	double ceiling = !isnan(last->m.ceiling) ? last->m.ceiling
			 : last->m.unit && !strcmp(last->m.unit, "MB/s") ? last->ceiling_mb_s
									 : NAN;

	*row = (struct fleet_row){
	    .board = board_label(last),
	    .machine = last->env.machine,
	    .device = device_label(last),
	    .test = last->m.test,
	    .pass = last->m.name,
	    .metric = last->m.metric,
	    .unit = last->m.unit,
	    .first_run = first->run_id,
	    .latest_run = last->run_id,
	    .kernel = last->kernel,
	    .first = first->m.value,
	    .latest = last->m.value,
	    .latest_sd = compare_spread(&last->m, NULL, NULL),
	    .change_pct = NAN,
	    .ceiling = ceiling,
	    .share_pct = ceiling > 0 ? last->m.value / ceiling * 100 : NAN,
	    .runs = n,
	    .verdict = "one run",
	    .higher_is_better = last->m.higher_is_better,
	    .points = pts,
	};
	for (size_t i = 0; i < n; i++) {
		const struct store_point *p = &v[idx[i]];

		pts[i] = (struct fleet_point){row->board, row->device, row->pass, row->metric,
					      p->run_id, p->started_at, p->kernel, p->m.value,
					      compare_spread(&p->m, NULL, NULL)};
	}
	if (n < 2)
		return;
	compare_side_of(&first->m, &a);
	compare_side_of(&last->m, &b);
	row->v = compare_sides(&a, &b, row->higher_is_better, threshold_pct, &row->change_pct);
	row->verdict = compare_verdict_name(row->v);
}

/* the headline figures of v, their indexes in series order; *ret_n how many */
static size_t *series_order(const struct store_point *v, size_t n, size_t *ret_n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx)), k = 0;

	if (!idx)
		abort();
	for (size_t i = 0; i < n; i++)
		if (headline(&v[i].m) && !isnan(v[i].m.value))
			idx[k++] = i;
	qsort_r(idx, k, sizeof(*idx), by_series, (void *)v);
	*ret_n = k;
	return idx;
}

static size_t count_distinct(const struct fleet *f, bool boards)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nrows; i++) {
		const struct fleet_row *r = &f->rows[i], *p = i ? &f->rows[i - 1] : NULL;

		if (!p || strcmp(p->board, r->board) || (!boards && strcmp0(p->device, r->device)))
			n++;
	}
	return n;
}

int fleet_build(struct store_point *pts, size_t n, double threshold_pct, struct fleet *ret)
{
	struct fleet f = {.src = pts, .nsrc = n};
	size_t k, *idx = series_order(pts, n, &k);

	f.points = calloc(k ? k : 1, sizeof(*f.points));
	if (!f.points)
		abort();
	for (size_t i = 0; i < k;) {
		size_t j = i + 1;

		while (j < k && same_series(&pts[idx[i]], &pts[idx[j]]))
			j++;
		f.rows = xgrow(f.rows, &f.nrows, sizeof(*f.rows));
		make_row(&f.rows[f.nrows - 1], pts, idx + i, j - i, f.points + f.npoints,
			 threshold_pct);
		f.npoints += j - i;
		i = j;
	}
	free(idx);
	f.boards = count_distinct(&f, true);
	f.devices = count_distinct(&f, false);
	*ret = f;
	return 0;
}

void fleet_release(struct fleet *f)
{
	for (size_t i = 0; i < f->nrows; i++)
		free_all(f->rows[i].board, f->rows[i].device, f->rows[i].trend);
	free_all(f->rows, f->points);
	store_points_free(f->src, f->nsrc);
	memset(f, 0, sizeof(*f));
}

/* ---- the field tables: text, JSON, CSV ---- */

#include "report/fleet.fields.h"


// SPDX-License-Identifier: MIT
/*
 * The report model's indexes: a run's metrics grouped into passes, each
 * device's rows and best figure per unit. A run may hold 100,000 metrics
 * (RUN_MAX_METRICS): everything here is sorted once and searched in log time,
 * so that a renderer never scans a run's metrics once per metric.
 */
#include "report/model_priv.h"
#include "run/class.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- passes ---- */

static int cmp_pass_order(const void *a, const void *b)
{
	const struct run_metric *x = *(const struct run_metric *const *)a;
	const struct run_metric *y = *(const struct run_metric *const *)b;
	int c = strcmp(x->device_key, y->device_key);

	if (!c)
		c = strcmp(x->name, y->name);
	/* within a pass, the record's order */
	return c ? c : (x > y) - (x < y);
}

static int cmp_pass_key(const char *key, const char *name, const struct rm_pass *p)
{
	int c = strcmp(key, p->device_key);

	return c ? c : strcmp(name, p->name);
}

const struct rm_pass *report_model_pass(const struct report_model *m, size_t run,
					const char *device_key, const char *name)
{
	size_t lo = 0, hi = run < m->nruns ? m->npasses[run] : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_pass_key(device_key, name, &m->passes[run][mid]);

		if (!c)
			return &m->passes[run][mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct run_metric *report_pass_metric(const struct rm_pass *p, const char *metric)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (!strcmp(p->v[i]->metric, metric))
			return p->v[i];
	return NULL;
}

const struct run_metric *report_pass_unit(const struct rm_pass *p, const char *unit)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (unit ? report_unit_is(p->v[i], unit) : report_is_cpu(p->v[i]))
			return p->v[i];
	return NULL;
}

/* the first of class c's rates the pass has, in the class's order */
static const struct run_metric *pass_headline(const struct rm_pass *p,
					      const struct measure_class *c)
{
	for (size_t i = 0; c && i < c->nmetrics; i++) {
		const struct run_metric *h;

		if (!c->metrics[i].rate)
			continue;
		h = report_pass_metric(p, c->metrics[i].key);
		if (h)
			return h;
	}
	return NULL;
}

/*
 * Mark the metrics that head their pass. A pass is one class's as a rule;
 * the headline is looked up once per class seen in it (a few), not per
 * metric.
 */
static void mark_headlines(const struct rm_pass *p, const struct run_metric *base, bool *head)
{
	struct {
		const struct measure_class *c;
		const struct run_metric *h;
	} seen[8];
	size_t nseen = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct measure_class *c = run_class_find(p->v[i]->test);
		const struct run_metric *h = NULL;
		size_t k;

		for (k = 0; k < nseen && seen[k].c != c; k++)
			;
		if (k < nseen) {
			h = seen[k].h;
		} else {
			h = pass_headline(p, c);
			if (nseen < sizeof(seen) / sizeof(seen[0]))
				seen[nseen++] = (typeof(seen[0])){c, h};
		}
		if (h == p->v[i])
			head[p->v[i] - base] = true;
	}
}

/* run's metrics grouped into passes; *ret_head[i]: metric i heads its pass; *ret_pass_of[i] */
int model_index_passes(struct report_model *m, size_t run, bool **ret_head, size_t **ret_pass_of)
{
	const struct run_record *r = &m->runs[run];
	const struct run_metric **v = calloc(r->nmetrics + 1, sizeof(*v));
	struct rm_pass *p = calloc(r->nmetrics + 1, sizeof(*p));
	size_t *pass_of = calloc(r->nmetrics + 1, sizeof(*pass_of)), np = 0;
	bool *head = calloc(r->nmetrics + 1, sizeof(*head));

	if (!v || !p || !pass_of || !head) {
		free(v), free(p), free(pass_of), free(head);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->nmetrics; i++)
		v[i] = &r->metrics[i];
	qsort(v, r->nmetrics, sizeof(*v), cmp_pass_order);
	for (size_t i = 0; i < r->nmetrics; i++) {
		if (!np || strcmp(p[np - 1].device_key, v[i]->device_key) ||
		    strcmp(p[np - 1].name, v[i]->name))
			p[np++] = (struct rm_pass){v[i]->device_key, v[i]->name, &v[i], 0};
		p[np - 1].n++;
		pass_of[v[i] - r->metrics] = np - 1;
	}
	for (size_t i = 0; i < np; i++)
		mark_headlines(&p[i], r->metrics, head);
	m->sorted[run] = v;
	m->passes[run] = p;
	m->npasses[run] = np;
	*ret_head = head;
	*ret_pass_of = pass_of;
	return 0;
}

/* ---- a device by its key in a run ---- */

static int cmp_key(const void *a, const void *b)
{
	const struct rm_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	/* the same key twice: the first device, as a scan would find */
	return c ? c : (x->dev > y->dev) - (x->dev < y->dev);
}

int model_index_keys(struct report_model *m, size_t run)
{
	struct rm_key *k = calloc(m->ndevices + 1, sizeof(*k));
	size_t n = 0;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < m->ndevices; i++)
		if (m->devices[i].dev[run])
			k[n++] = (struct rm_key){m->devices[i].dev[run]->key, i};
	qsort(k, n, sizeof(*k), cmp_key);
	m->keys[run] = k;
	m->nkeys[run] = n;
	return 0;
}

struct rm_device *model_device_of(struct report_model *m, size_t run, const char *key)
{
	size_t lo = 0, hi = m->nkeys[run];

	/* the first entry with this key: the lowest device index */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->keys[run][mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nkeys[run] && !strcmp(m->keys[run][lo].key, key))
		return &m->devices[m->keys[run][lo].dev];
	return NULL;
}

/* ---- rows and the best figure of each unit ---- */

int model_add_row(struct rm_device *d, size_t run, const struct run_metric *x,
		  const struct rm_pass *p)
{
	size_t n = d->nrows[run];

	/* doubled when full: a run of 100,000 rows is not copied 100,000 times */
	if (!(n & (n - 1))) {
		struct rm_row *g = realloc(d->rows[run], (n ? 2 * n : 1) * sizeof(*g));

		if (!g)
			return -ENOMEM;
		d->rows[run] = g;
	}
	d->rows[run][d->nrows[run]++] = (struct rm_row){x, p};
	return 0;
}

int model_add_top(struct rm_device *d, const struct run_metric *x)
{
	size_t n = d->ntops;

	if (!(n & (n - 1))) {
		struct rm_top *g = realloc(d->tops, (n ? 2 * n : 1) * sizeof(*g));

		if (!g)
			return -ENOMEM;
		d->tops = g;
	}
	d->tops[d->ntops++] = (struct rm_top){report_unit(x), x->value};
	return 0;
}

static int cmp_top(const void *a, const void *b)
{
	return strcmp(((const struct rm_top *)a)->unit, ((const struct rm_top *)b)->unit);
}

/* one entry per unit, its best figure: as fmax() from 0 over the device's metrics */
void model_reduce_tops(struct rm_device *d)
{
	size_t n = 0;

	if (!d->ntops)
		return; /* a device without figures: no array, and qsort's may not be NULL */
	qsort(d->tops, d->ntops, sizeof(*d->tops), cmp_top);
	for (size_t i = 0; i < d->ntops; i++) {
		struct rm_top t = d->tops[i];

		/* compacted in place: t is read before its slot may be written */
		if (!n || strcmp(d->tops[n - 1].unit, t.unit))
			d->tops[n++] = (struct rm_top){t.unit, 0};
		d->tops[n - 1].top = fmax(d->tops[n - 1].top, t.top);
	}
	d->ntops = n;
}

double report_device_top(const struct rm_device *d, const char *unit)
{
	size_t lo = 0, hi = d->ntops;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(unit, d->tops[mid].unit);

		if (!c)
			return d->tops[mid].top;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

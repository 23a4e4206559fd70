// SPDX-License-Identifier: MIT
/* The report model: runs taken apart into per-device sweeps, rates and CPU use. */
#include "report/model_priv.h"
#include "run/class.h"
#include "platform/usb/speed.h"
#include "util/parse.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t report_model_run_of(const struct report_model *m, const struct run_metric *x)
{
	for (size_t i = 0; i < m->nruns; i++)
		if (x >= m->runs[i].metrics && x < m->runs[i].metrics + m->runs[i].nmetrics)
			return i;
	return 0;
}

bool report_next_verdict(const struct report_model *m, struct rm_verdict_at *at)
{
	for (size_t pos = at->pos; pos < m->ndevices * m->nruns; pos++) {
		const struct rm_device *d = &m->devices[pos / m->nruns];
		size_t i = pos % m->nruns;
		const struct run_verdict *v = d->verdict[i];

		if (!v)
			continue;
		*at = (struct rm_verdict_at){
		    .device = pos / m->nruns,
		    .run = i,
		    .v = v,
		    .where = d->dev[i]->port_path ? d->dev[i]->port_path : d->dev[i]->key,
		    .next = i + 1 == m->nruns ? run_verdict_next(&m->runs[i], v) : NULL,
		    .pos = pos + 1,
		};
		return true;
	}
	return false;
}

const char *report_unit(const struct run_metric *m)
{
	return m->unit ? m->unit : "";
}

bool report_unit_is(const struct run_metric *m, const char *unit)
{
	return !strcmp(report_unit(m), unit);
}

bool report_same_unit(const struct run_metric *a, const struct run_metric *b)
{
	return !strcmp(report_unit(a), report_unit(b));
}

const char *report_cpu_use(const struct run_metric *m)
{
	const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

	return cm ? cm->cpu_use : NULL;
}

bool report_is_cpu(const struct run_metric *m)
{
	return report_cpu_use(m) != NULL;
}

/*
 * a figure worth a bar: what its class declares a throughput or a rate
 * (class.h), not a latency, a count or a clock
 */
static bool is_rate(const struct run_metric *m)
{
	const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

	return cm && cm->rate;
}

static struct rm_device *device_for(struct report_model *m, size_t run,
				    const struct run_device *d)
{
	char *id = run_device_identity(d);
	struct rm_device *v;

	for (size_t i = 0; i < m->ndevices; i++) {
		if (!strcmp(m->devices[i].identity, id) && !m->devices[i].dev[run]) {
			free(id);
			m->devices[i].dev[run] = d;
			m->devices[i].verdict[run] = run_record_verdict(&m->runs[run], d->key);
			return &m->devices[i];
		}
	}
	v = realloc(m->devices, (m->ndevices + 1) * sizeof(*v));
	if (!v) {
		free(id);
		return NULL;
	}
	m->devices = v;
	v = &v[m->ndevices++];
	memset(v, 0, sizeof(*v));
	v->identity = id;
	v->dev[run] = d;
	v->verdict[run] = run_record_verdict(&m->runs[run], d->key);
	v->first = d;
	v->ceiling_mb_s = NAN;
	return v;
}

static void set_limits(struct rm_device *d)
{
	const struct run_device *f = d->first;
	enum usb_speed s = USB_SPEED_UNKNOWN;
	struct usb_ceiling c;

	d->ceiling_mb_s = f->ceiling_mb_s;
	if (!f->speed || usb_speed_parse(f->speed, &s) < 0)
		return;
	if (usb_bulk_ceiling(s, &c) == 0)
		d->ceiling_how = c.derivation;
	/* the reference is for the class: "usb-storage (read-only)" is a usb-storage */
	if (f->kind) {
		char *base = strndup(f->kind, run_kind_base_len(f->kind));

		if (!base)
			abort();
		d->ref = usb_field_ref_for(s, base, f->driver);
		free(base);
	}
}

static int push_ptr(const struct run_metric ***v, size_t *n, const struct run_metric *x)
{
	const struct run_metric **g;

	/* doubled when full: 100,000 rates are not copied 100,000 times */
	if (*n & (*n - 1))
		g = *v;
	else if (!(g = realloc(*v, (*n ? 2 * *n : 1) * sizeof(**v))))
		return -ENOMEM;
	g[(*n)++] = x;
	*v = g;
	return 0;
}

/*
 * A sweep's point, gathered first: the series are made at the end, by one
 * sort (a search for the series of each point, or an insertion in order,
 * would be quadratic in a run of many points).
 */
struct pending_point {
	size_t dev, run, seq;
	struct class_sweep_point p;
	const struct run_metric *m;
};

struct build {
	struct report_model *m;
	struct pending_point *pts;
	size_t npts;
};

static int add_point(struct build *b, struct rm_device *d, size_t run, const struct run_metric *m,
		     const struct class_sweep_point *sp)
{
	const char *axis = sp->axis ? sp->axis : RM_AXIS_BLOCK;
	struct pending_point *p;

	/* one axis a device: a point against another is drawn as a rate */
	if (d->axis && strcmp(d->axis, axis))
		return push_ptr(&d->rates, &d->nrates, m);
	d->axis = axis;
	if (!(b->npts & (b->npts - 1))) {
		p = realloc(b->pts, (b->npts ? 2 * b->npts : 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		b->pts = p;
	}
	p = &b->pts[b->npts];
	*p = (struct pending_point){(size_t)(d - b->m->devices), run, b->npts, *sp, m};
	b->npts++;
	return 0;
}

static int add_metric(struct build *b, size_t run, const struct run_metric *m)
{
	struct rm_device *d = model_device_of(b->m, run, m->device_key);
	const struct measure_class *c;
	struct class_sweep_point p = {0};
	int r;

	if (!d)
		return 0; /* validated records do not get here */
	r = model_add_top(d, m);
	if (r < 0)
		return r;
	if (report_is_cpu(m))
		return push_ptr(&d->cpu, &d->ncpu, m);
	if (!is_rate(m))
		return 0;
	/* its class says whether it is a sweep's point: a rate without one gets its bar */
	c = run_class_find(m->test);
	if (c && c->sweep_point) {
		switch (c->sweep_point(m, &p)) {
		case CLASS_SWEEP_POINT:
			return add_point(b, d, run, m, &p);
		case CLASS_SWEEP_OTHER:
			return 0;
		case CLASS_SWEEP_NONE:
			break;
		}
	}
	return push_ptr(&d->rates, &d->nrates, m);
}

/* by device, run and label; in the order they came within */
static int cmp_series(const void *a, const void *b)
{
	const struct pending_point *x = a, *y = b;
	int c = (x->dev > y->dev) - (x->dev < y->dev);

	if (!c)
		c = (x->run > y->run) - (x->run < y->run);
	if (!c)
		c = strcmp(x->p.label, y->p.label);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* a series' points by block size; those of one size in the order they came */
static int cmp_block(const void *a, const void *b)
{
	const struct pending_point *x = a, *y = b;
	int c = (x->p.x > y->p.x) - (x->p.x < y->p.x);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

struct group {
	size_t dev, first_seq, start, n;
};

/* the device's series in the order of their first points, as they would have been made */
static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	int c = (x->dev > y->dev) - (x->dev < y->dev);

	return c ? c : (x->first_seq > y->first_seq) - (x->first_seq < y->first_seq);
}

static int make_series(struct rm_device *d, const struct pending_point *p, size_t n)
{
	struct rm_series *s = &d->sweeps[d->nsweeps];

	*s = (struct rm_series){.run = p[0].run, .unit = p[0].m->unit, .role = p[0].p.role};
	s->label = strdup(p[0].p.label);
	s->pts = calloc(n, sizeof(*s->pts));
	if (!s->label || !s->pts) {
		free_all(s->label, s->pts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		s->pts[i] = (struct rm_point){p[i].p.x, p[i].m};
	s->npts = n;
	d->nsweeps++;
	return 0;
}

static int finish_sweeps(struct build *b)
{
	struct group *g = calloc(b->npts + 1, sizeof(*g));
	size_t ng = 0;
	int r = 0;

	if (!g)
		return -ENOMEM;
	if (b->npts) /* none: no array, and qsort's may not be NULL */
		qsort(b->pts, b->npts, sizeof(*b->pts), cmp_series);
	for (size_t i = 0; i < b->npts; i++) {
		const struct pending_point *p = &b->pts[i];

		if (!ng || g[ng - 1].dev != p->dev || b->pts[g[ng - 1].start].run != p->run ||
		    strcmp(b->pts[g[ng - 1].start].p.label, p->p.label))
			g[ng++] = (struct group){p->dev, p->seq, i, 0};
		g[ng - 1].n++;
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	for (size_t i = 0; i < ng && r == 0; i++) {
		struct rm_device *d = &b->m->devices[g[i].dev];
		size_t k = i;

		/* the device's series are the groups from here on with its index */
		while (!d->sweeps && k < ng && g[k].dev == g[i].dev)
			k++;
		if (!d->sweeps && !(d->sweeps = calloc(k - i, sizeof(*d->sweeps))))
			r = -ENOMEM;
		qsort(b->pts + g[i].start, g[i].n, sizeof(*b->pts), cmp_block);
		if (r == 0)
			r = make_series(d, b->pts + g[i].start, g[i].n);
	}
	free(g);
	return r;
}

/* run's metrics: to the devices' sweeps, rates and CPU use, and their rows in order */
static int add_run(struct build *b, size_t run)
{
	const struct run_record *rec = &b->m->runs[run];
	size_t *pass_of = NULL;
	bool *head = NULL;
	int r = model_index_keys(b->m, run);

	if (r == 0)
		r = model_index_passes(b->m, run, &head, &pass_of);
	for (size_t j = 0; j < rec->nmetrics && r == 0; j++) {
		const struct run_metric *x = &rec->metrics[j];
		struct rm_device *d;

		r = add_metric(b, run, x);
		if (r < 0 || !head[j] || !(d = model_device_of(b->m, run, x->device_key)))
			continue;
		r = model_add_row(d, run, x, &b->m->passes[run][pass_of[j]]);
	}
	free_all(head, pass_of);
	return r;
}

int report_model_build(const struct run_record *runs, size_t nruns, struct report_model *ret)
{
	struct report_model m = {.runs = runs, .nruns = nruns};
	struct build b = {.m = &m};
	int r = 0;

	if (nruns == 0 || nruns > REPORT_MAX_RUNS)
		return -EINVAL;
	for (size_t i = 0; i < nruns && r == 0; i++)
		for (size_t j = 0; j < runs[i].ndevices && r == 0; j++)
			if (!device_for(&m, i, &runs[i].devices[j]))
				r = -ENOMEM;
	for (size_t i = 0; i < m.ndevices; i++)
		set_limits(&m.devices[i]);
	for (size_t i = 0; i < nruns && r == 0; i++)
		r = add_run(&b, i);
	if (r == 0)
		r = finish_sweeps(&b);
	for (size_t i = 0; i < m.ndevices && r == 0; i++)
		model_reduce_tops(&m.devices[i]);
	free(b.pts);
	if (r < 0) {
		report_model_release(&m);
		return r;
	}
	*ret = m;
	return 0;
}

void report_model_release(struct report_model *m)
{
	for (size_t i = 0; i < m->ndevices; i++) {
		struct rm_device *d = &m->devices[i];

		for (size_t j = 0; j < d->nsweeps; j++)
			free_all(d->sweeps[j].label, d->sweeps[j].pts);
		free_all(d->sweeps, d->rates, d->cpu, d->identity, d->tops);
		for (size_t j = 0; j < REPORT_MAX_RUNS; j++)
			free(d->rows[j]);
	}
	for (size_t j = 0; j < REPORT_MAX_RUNS; j++) {
		free_all(m->passes[j], m->sorted[j], m->keys[j]);
		m->passes[j] = NULL;
		m->sorted[j] = NULL;
		m->keys[j] = NULL;
		m->npasses[j] = m->nkeys[j] = 0;
	}
	free(m->devices);
	m->devices = NULL;
	m->ndevices = 0;
}

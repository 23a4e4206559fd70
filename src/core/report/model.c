// SPDX-License-Identifier: MIT
/* The report model: runs taken apart into per-device sweeps, rates and CPU use. */
#include "core/report/model.h"
#include "core/run/class.h"
#include "core/usb/speed.h"
#include "util/parse.h"

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

/*
 * usbperf bulk's points, "in-64K-q8": direction, transfer size, transfers
 * in flight; the series is the direction at that depth ("in q8").
 */
static bool bulk_sweep_name(const char *name, char *ret_label, size_t label_size,
			    uint64_t *ret_block)
{
	static const char *const dirs[] = {"in-", "out-", "both-"};
	const char *size, *q;
	char sz[24];
	uint64_t block, depth;
	size_t d;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (!strncmp(name, dirs[d], strlen(dirs[d])))
			break;
	if (d == sizeof(dirs) / sizeof(dirs[0]))
		return false;
	size = name + strlen(dirs[d]);
	q = strstr(size, "-q");
	if (!q || (size_t)(q - size) >= sizeof(sz) || parse_u64(q + 2, 1, 65535, &depth) < 0)
		return false;
	memcpy(sz, size, (size_t)(q - size));
	sz[q - size] = '\0';
	if (parse_size(sz, 1, UINT64_MAX, &block) < 0)
		return false;
	if (snprintf(ret_label, label_size, "%.*s q%llu", (int)(strlen(dirs[d]) - 1), dirs[d],
		     (unsigned long long)depth) >= (int)label_size)
		return false;
	*ret_block = block;
	return true;
}

bool report_sweep_name(const char *name, char *ret_label, size_t label_size,
		       uint64_t *ret_block)
{
	const char *sp = strchr(name, ' ');
	size_t n;
	uint64_t block;

	if (!sp)
		return bulk_sweep_name(name, ret_label, label_size, ret_block);
	if (strchr(sp + 1, ' '))
		return false;
	n = (size_t)(sp - name);
	if (!((n == 8 && !strncmp(name, "seq-read", 8)) || (n == 9 && !strncmp(name, "seq-write", 9)) ||
	      (n == 4 && !strncmp(name, "copy", 4))))
		return false;
	if (n >= label_size || parse_size(sp + 1, 1, UINT64_MAX, &block) < 0)
		return false;
	memcpy(ret_label, name, n);
	ret_label[n] = '\0';
	*ret_block = block;
	return true;
}

bool report_mtp_sweep_name(const char *name, char *ret_label, size_t label_size,
			   uint64_t *ret_x, const char **ret_axis)
{
	char dir[8], size[16], buf[16], x[16], extra;
	uint64_t v;
	int n = sscanf(name, "%7s %15s %15s %15s %c", dir, size, buf, x, &extra);

	if ((strcmp(dir, "send") && strcmp(dir, "get")) || (n != 2 && n != 4) ||
	    parse_size(size, 1, UINT64_MAX, &v) < 0)
		return false;
	if (n == 2) {
		*ret_axis = RM_AXIS_FILE;
		*ret_x = v;
		return snprintf(ret_label, label_size, "%s", dir) < (int)label_size;
	}
	if (strcmp(buf, "buf") || parse_size(x, 1, UINT64_MAX, ret_x) < 0)
		return false;
	*ret_axis = RM_AXIS_BUFFER;
	return snprintf(ret_label, label_size, "%s %s", dir, size) < (int)label_size;
}

const struct run_metric *report_find_metric(const struct run_record *r, const char *device_key,
					    const char *name, const char *metric)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];

		if (!strcmp(m->device_key, device_key) && !strcmp(m->name, name) &&
		    !strcmp(m->metric, metric))
			return m;
	}
	return NULL;
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
	const struct run_metric **g = realloc(*v, (*n + 1) * sizeof(**v));

	if (!g)
		return -ENOMEM;
	g[(*n)++] = x;
	*v = g;
	return 0;
}

static struct rm_series *series_for(struct rm_device *d, size_t run, const char *label,
				    const char *unit)
{
	struct rm_series *v;

	for (size_t i = 0; i < d->nsweeps; i++)
		if (d->sweeps[i].run == run && !strcmp(d->sweeps[i].label, label))
			return &d->sweeps[i];
	v = realloc(d->sweeps, (d->nsweeps + 1) * sizeof(*v));
	if (!v)
		return NULL;
	d->sweeps = v;
	v = &v[d->nsweeps++];
	*v = (struct rm_series){.run = run, .label = NULL, .unit = unit};
	v->label = strdup(label);
	return v->label ? v : NULL;
}

static int add_point(struct rm_device *d, size_t run, const struct run_metric *m,
		     const char *label, uint64_t block, const char *axis)
{
	struct rm_series *s;
	struct rm_point *p;
	size_t i;

	/* one axis a device: a point against another is drawn as a rate */
	if (d->axis && strcmp(d->axis, axis))
		return push_ptr(&d->rates, &d->nrates, m);
	d->axis = axis;
	s = series_for(d, run, label, m->unit);
	if (!s)
		return -ENOMEM;
	p = realloc(s->pts, (s->npts + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	s->pts = p;
	for (i = s->npts; i > 0 && p[i - 1].block > block; i--)
		p[i] = p[i - 1];
	p[i] = (struct rm_point){block, m};
	s->npts++;
	return 0;
}

static struct rm_device *device_of(struct report_model *m, size_t run, const char *key)
{
	for (size_t i = 0; i < m->ndevices; i++) {
		const struct run_device *d = m->devices[i].dev[run];

		if (d && !strcmp(d->key, key))
			return &m->devices[i];
	}
	return NULL;
}

static int add_metric(struct report_model *model, size_t run, const struct run_metric *m)
{
	struct rm_device *d = device_of(model, run, m->device_key);
	const struct measure_class *c;
	struct class_sweep_point p;

	if (!d)
		return 0; /* validated records do not get here */
	if (report_is_cpu(m))
		return push_ptr(&d->cpu, &d->ncpu, m);
	if (!is_rate(m))
		return 0;
	c = run_class_find(m->test);
	if (c && c->sweep_point) {
		switch (c->sweep_point(m, &p)) {
		case CLASS_SWEEP_POINT:
			return add_point(d, run, m, p.label, p.x, p.axis);
		case CLASS_SWEEP_OTHER:
			return 0;
		case CLASS_SWEEP_NONE:
			return push_ptr(&d->rates, &d->nrates, m);
		}
	}
	if (report_sweep_name(m->name, p.label, sizeof(p.label), &p.x))
		/* the sweep's IOPS are its MB/s over the block size: not drawn again */
		return strcmp(m->metric, "mb_s")
			   ? 0
			   : add_point(d, run, m, p.label, p.x, RM_AXIS_BLOCK);
	return push_ptr(&d->rates, &d->nrates, m);
}

int report_model_build(const struct run_record *runs, size_t nruns, struct report_model *ret)
{
	struct report_model m = {.runs = runs, .nruns = nruns};
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
		for (size_t j = 0; j < runs[i].nmetrics && r == 0; j++)
			r = add_metric(&m, i, &runs[i].metrics[j]);
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

		for (size_t j = 0; j < d->nsweeps; j++) {
			free(d->sweeps[j].label);
			free(d->sweeps[j].pts);
		}
		free(d->sweeps);
		free(d->rates);
		free(d->cpu);
		free(d->identity);
	}
	free(m->devices);
	m->devices = NULL;
	m->ndevices = 0;
}

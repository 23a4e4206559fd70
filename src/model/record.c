// SPDX-License-Identifier: MIT
#include "model/record.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct run_device *run_record_add_device(struct run_record *r)
{
	struct run_device *d;

	r->devices = xgrow(r->devices, &r->ndevices, sizeof(*r->devices));
	d = &r->devices[r->ndevices - 1];
	d->ceiling_mb_s = NAN;
	return d;
}

struct run_verdict *run_record_add_verdict(struct run_record *r)
{
	struct run_verdict *v;

	r->verdicts = xgrow(r->verdicts, &r->nverdicts, sizeof(*r->verdicts));
	v = &r->verdicts[r->nverdicts - 1];
	v->share_pct = NAN;
	return v;
}

void run_record_add_note(struct run_record *r, const char *text)
{
	char *t = xstrdup(text);

	/* one line, as the record keeps strings: an error text may carry a newline */
	for (char *p = t; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	r->notes = xgrow(r->notes, &r->nnotes, sizeof(*r->notes));
	r->notes[r->nnotes - 1].text = t;
}

struct run_unmeasured *run_record_add_unmeasured(struct run_record *r)
{
	r->unmeasured = xgrow(r->unmeasured, &r->nunmeasured, sizeof(*r->unmeasured));
	return &r->unmeasured[r->nunmeasured - 1];
}

const struct run_verdict *run_record_verdict(const struct run_record *r, const char *device_key)
{
	for (size_t i = 0; device_key && i < r->nverdicts; i++)
		if (r->verdicts[i].device_key && !strcmp(r->verdicts[i].device_key, device_key))
			return &r->verdicts[i];
	return NULL;
}

struct run_metric *run_record_add_metric(struct run_record *r, const char *device_key,
					 const char *test, const char *name, const char *metric,
					 const char *unit, bool higher_is_better)
{
	struct run_metric *m;

	r->metrics = xgrow(r->metrics, &r->nmetrics, sizeof(*r->metrics));
	m = &r->metrics[r->nmetrics - 1];
	m->device_key = xstrdup(device_key);
	m->test = xstrdup(test);
	m->name = xstrdup(name);
	m->metric = xstrdup(metric);
	m->unit = xstrdup(unit);
	m->value = m->stdev = m->min = m->max = NAN;
	m->sample_mean = m->sample_stdev = m->sample_min = NAN;
	m->samples = 0;
	m->cpu_pressure_pct = m->cpu_busy_pct = m->ceiling = NAN;
	m->pass_spread = m->cpu_wait_pct = m->cpu_io_pct = NAN;
	m->higher_is_better = higher_is_better;
	return m;
}

const struct run_metric *run_record_metric(const struct run_record *r, const char *device_key,
					   const char *test, const char *name, const char *metric)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];

		if (m->device_key && !strcmp(m->device_key, device_key) && m->test &&
		    !strcmp(m->test, test) && (!name || (m->name && !strcmp(m->name, name))) &&
		    !strcmp(m->metric, metric))
			return m;
	}
	return NULL;
}

void run_env_release(struct run_env *e)
{
	free_all(e->hostname, e->board, e->kernel, e->kernel_build, e->preempt, e->governor,
		 e->usbperf_version, e->machine);
}

void run_metric_release(struct run_metric *m)
{
	free(m->device_key), free(m->test), free(m->name), free(m->metric), free(m->unit);
}

void run_record_release(struct run_record *r)
{
	size_t i;

	if (!r)
		return;
	free_all(r->id, r->started_at, r->command_line);
	run_env_release(&r->env);
	for (i = 0; i < r->ndevices; i++) {
		struct run_device *d = &r->devices[i];

		free(d->key), free(d->kind), free(d->target), free(d->vid_pid), free(d->serial);
		free(d->product), free(d->port_path), free(d->speed), free(d->driver);
		free(d->capable_speed), free(d->controller), free(d->via);
	}
	free(r->devices);
	for (i = 0; i < r->nmetrics; i++)
		run_metric_release(&r->metrics[i]);
	free(r->metrics);
	finding_list_release(&r->findings);
	for (i = 0; i < r->nverdicts; i++) {
		struct run_verdict *v = &r->verdicts[i];

		free(v->device_key), free(v->limiter), free(v->evidence);
	}
	free(r->verdicts);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i].text);
	free(r->notes);
	for (i = 0; i < r->nunmeasured; i++) {
		struct run_unmeasured *u = &r->unmeasured[i];

		free(u->key), free(u->kind), free(u->name), free(u->vid_pid), free(u->product);
		free(u->speed), free(u->controller), free(u->via), free(u->why);
	}
	free(r->unmeasured);
	memset(r, 0, sizeof(*r));
}

char *run_device_identity(const struct run_device *d)
{
	struct strbuf sb = STRBUF_INIT;

	if (d->vid_pid && d->serial)
		strbuf_addf(&sb, "%s %s", d->vid_pid, d->serial);
	else if (d->port_path)
		strbuf_addf(&sb, "port %s", d->port_path);
	else
		strbuf_adds(&sb, d->key ? d->key : "?");
	return strbuf_detach(&sb);
}

size_t run_kind_base_len(const char *kind)
{
	const char *q = strstr(kind, " (");

	return q ? (size_t)(q - kind) : strlen(kind);
}

bool run_kind_is(const char *kind, const char *base)
{
	size_t n;

	if (!kind || !base)
		return false;
	if (!strcmp(kind, base))
		return true;
	n = run_kind_base_len(kind);
	return strlen(base) == n && !strncmp(kind, base, n);
}

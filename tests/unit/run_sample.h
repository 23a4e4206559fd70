/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A rich run record for the record_json and store tests: every field type,
 * unknowns of each kind (NULL, NaN, U64_UNKNOWN), a double that %.15g
 * cannot hold, UTF-8, and a deep comparison of two records.
 */
#include "model/record_fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *sample_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static inline void sample_run(struct run_record *r, const char *id, const char *started_at)
{
	struct run_device *d;
	struct run_metric *m;

	memset(r, 0, sizeof(*r));
	r->id = sample_dup(id);
	r->started_at = sample_dup(started_at);
	r->duration_s = 63.25;
	r->command_line = sample_dup("usbperf run --quick /media/usb");
	r->env.hostname = sample_dup("rock5b");
	r->env.board = sample_dup("Radxa ROCK 5B");
	r->env.kernel = sample_dup("6.1.0-rk3588");
	r->env.kernel_build = sample_dup("#1 SMP PREEMPT Tue Nov 3 2026");
	r->env.preempt = sample_dup("PREEMPT");
	r->env.governor = NULL; /* no cpufreq */
	r->env.usbperf_version = sample_dup("0.1.0");

	d = run_record_add_device(r);
	d->key = sample_dup("2-1");
	d->kind = sample_dup("usb-storage");
	d->target = sample_dup("/media/usb");
	d->vid_pid = sample_dup("0781:5583");
	d->serial = sample_dup("4C530001230914114453");
	d->product = sample_dup("Ultra Fit \u2122");
	d->port_path = sample_dup("2-1");
	d->speed = sample_dup("super");
	d->driver = sample_dup("uas");
	d->ceiling_mb_s = 484.848;
	d->capable_speed = sample_dup("super");
	d->controller = sample_dup("xhci_hcd 0000:00:14.0");
	d->via = sample_dup("2 05e3:0610 super");
	d = run_record_add_device(r);
	d->key = sample_dup("host");
	d->kind = sample_dup("host-disk");

	m = run_record_add_metric(r, "2-1", "disk", "seq-read 1M", "mb_s", "MB/s", true);
	m->value = 1.0 / 3.0 * 100; /* 16 digits */
	m->stdev = 0.1 + 0.2;	    /* 17 */
	m->min = 33.0;
	m->max = 33.5;
	m->repeats = 3;
	m->sample_mean = 33.25; /* the rate sampled within the passes */
	m->sample_stdev = 1.0 / 7.0;
	m->sample_min = 29.5;
	m->samples = 24;
	m->ceiling = 53.248; /* high-speed bulk */
	m->pass_spread = 0.75; /* from the pass's batches */
	m->cpu_wait_pct = 2.5;
	m->cpu_io_pct = 12.125;
	m = run_record_add_metric(r, "2-1", "disk", "seq-read 1M", "lat_p99_us", "us", false);
	m->value = 119275.5;
	m->repeats = 1; /* stdev, min, max unknown */
	m = run_record_add_metric(r, "host", "disk", "rand-read 4K", "iops", "IOPS", true);
	m->value = 8832;
	m->stdev = 0;
	m->min = 8832;
	m->max = 8832;
	m->repeats = U64_UNKNOWN;

	finding_add(&r->findings, FINDING_WARN, "usb.storage_without_uas", "2-1",
		    "mass storage runs on usb-storage", "interface 2-1:1.0 offers UAS", "load uas");
	finding_add(&r->findings, FINDING_INFO, "cpu.governor", "policy0", "governor is ondemand",
		    NULL, NULL);
	finding_set_about(&r->findings.v[0], "2-1");

	{
		struct run_verdict *v = run_record_add_verdict(r);
		struct run_unmeasured *u;

		v->device_key = sample_dup("2-1");
		v->limiter = sample_dup(RUN_LIMITER_BUS);
		v->evidence = sample_dup("seq-read 1M 33.3 MB/s is 79 % of high-speed bulk's "
					 "53.2 MB/s ceiling");
		v->share_pct = 100.0 / 3.0;
		v = run_record_add_verdict(r);
		v->device_key = sample_dup("host");
		v->limiter = sample_dup(RUN_LIMITER_UNKNOWN); /* share unknown */
		run_record_add_note(r, "passes lasted under 0.5 s (shortest 30 ms)");
		u = run_record_add_unmeasured(r);
		u->key = sample_dup("2-2");
		u->kind = sample_dup("usb-net");
		u->name = sample_dup("eth1");
		u->why = sample_dup("a network interface: measured with --peer HOST");
	}
}

static inline bool sample_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* field by field through the tables: what a new field adds is compared too */
static inline bool sample_fields_eq(const struct record_desc *d, const void *a, const void *b)
{
	for (size_t i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];
		const void *pa = (const char *)a + f->offset, *pb = (const char *)b + f->offset;
		bool eq = true;

		switch (f->type) {
		case FT_STR:
			eq = sample_str_eq(*(const char *const *)pa, *(const char *const *)pb);
			break;
		case FT_DBL: {
			double x = *(const double *)pa, y = *(const double *)pb;

			eq = (isnan(x) && isnan(y)) || x == y;
			break;
		}
		case FT_U64:
		case FT_SIZE:
			eq = *(const uint64_t *)pa == *(const uint64_t *)pb;
			break;
		case FT_INT:
			eq = *(const int64_t *)pa == *(const int64_t *)pb;
			break;
		case FT_BOOL:
			eq = *(const bool *)pa == *(const bool *)pb;
			break;
		}
		if (!eq) {
			fprintf(stderr, "%s.%s differs\n", d->name, f->key);
			return false;
		}
	}
	return true;
}

static inline bool sample_runs_eq(const struct run_record *a, const struct run_record *b)
{
	if (!sample_fields_eq(&run_info_desc, a, b) ||
	    !sample_fields_eq(&run_env_desc, &a->env, &b->env))
		return false;
	if (a->ndevices != b->ndevices || a->nmetrics != b->nmetrics ||
	    a->findings.n != b->findings.n || a->nverdicts != b->nverdicts ||
	    a->nnotes != b->nnotes || a->nunmeasured != b->nunmeasured)
		return false;
	for (size_t i = 0; i < a->nverdicts; i++)
		if (!sample_fields_eq(&run_verdict_desc, &a->verdicts[i], &b->verdicts[i]))
			return false;
	for (size_t i = 0; i < a->nnotes; i++)
		if (!sample_fields_eq(&run_note_desc, &a->notes[i], &b->notes[i]))
			return false;
	for (size_t i = 0; i < a->nunmeasured; i++)
		if (!sample_fields_eq(&run_unmeasured_desc, &a->unmeasured[i], &b->unmeasured[i]))
			return false;
	for (size_t i = 0; i < a->ndevices; i++)
		if (!sample_fields_eq(&run_device_desc, &a->devices[i], &b->devices[i]))
			return false;
	for (size_t i = 0; i < a->nmetrics; i++)
		if (!sample_fields_eq(&run_metric_desc, &a->metrics[i], &b->metrics[i]))
			return false;
	for (size_t i = 0; i < a->findings.n; i++)
		if (!sample_fields_eq(&finding_desc, &a->findings.v[i], &b->findings.v[i]))
			return false;
	return true;
}

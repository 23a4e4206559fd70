// SPDX-License-Identifier: MIT
/* What the machine did around one pass: see passwatch.h. */
#include "platform/sys/passwatch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void finish(struct pass_sys *s);

static void sample_cpu(struct passwatch *w)
{
	int cpu = irq_thread_cpu(w->tid);

	if (cpu >= 0 && cpu < IRQWATCH_MAX_CPUS) {
		w->cpu_hits[cpu]++;
		w->cpu_samples++;
	}
}

static void *watch(void *arg)
{
	struct passwatch *w = arg;
	struct timespec ts = {.tv_sec = 0, .tv_nsec = PASSWATCH_INTERVAL_MS * 1000000L};

	while (!atomic_load(&w->stop)) {
		nanosleep(&ts, NULL);
		if (atomic_load(&w->stop))
			break;
		freqwatch_sample(&w->fw);
		sample_cpu(w);
	}
	return NULL;
}

int passwatch_start(struct passwatch *w, const char *irq_lines)
{
	int r;

	memset(w, 0, sizeof(*w));
	atomic_init(&w->stop, false);
	w->tid = gettid();
	if (irq_lines && *irq_lines) {
		w->lines = strdup(irq_lines);
		if (!w->lines)
			return -ENOMEM;
	}
	r = freqwatch_open(&w->fw, PASSWATCH_INTERVAL_MS);
	if (r < 0)
		return r;
	sample_cpu(w);
	(void)irq_snapshot_take(w->lines, &w->before);
	r = pthread_create(&w->thread, NULL, watch, w);
	if (r)
		return -r;
	w->running = true;
	return 0;
}

/* the pass's clock: the policy furthest below its top under a scaling governor, else the first */
static void clock_of(const struct freqwatch *fw, struct pass_sys *s)
{
	double pct;
	const struct freq_policy_use *p = freqwatch_slowest(fw, &pct);

	if (!p && fw->npol && fw->pol[0].samples)
		p = &fw->pol[0];
	if (!p)
		return;
	s->clock_min_khz = (double)p->min_khz;
	s->clock_mean_khz = p->mean_khz;
	s->clock_max_khz = (double)p->max_seen_khz;
	s->clock_top_khz = p->max_khz ? (double)p->max_khz : NAN;
	/* a policy without a readable governor still has a clock: "?" keeps it known */
	snprintf(s->clock_governor, sizeof(s->clock_governor), "%s",
		 p->governor[0] ? p->governor : "?");
}

void passwatch_stop(struct passwatch *w, double seconds, struct pass_sys *ret)
{
	struct irq_snapshot after;
	int64_t io_cpu = IRQ_CPU_UNKNOWN;
	uint64_t top = 0;

	if (w->running) {
		atomic_store(&w->stop, true);
		pthread_join(w->thread, NULL);
		w->running = false;
	}
	sample_cpu(w);
	freqwatch_stop(&w->fw);
	(void)irq_snapshot_take(w->lines, &after);
	pass_sys_init(ret);
	clock_of(&w->fw, ret);
	ret->clock_seconds = seconds;
	for (int c = 0; c < IRQWATCH_MAX_CPUS; c++)
		if (w->cpu_hits[c] > top) {
			top = w->cpu_hits[c];
			io_cpu = c;
		}
	irq_use_between(&w->before, &after, io_cpu,
			w->cpu_samples ? 100.0 * (double)top / (double)w->cpu_samples : NAN,
			&ret->irq);
	finish(ret);
	free(w->lines);
	w->lines = NULL;
}

/* governor names for the field tables: a handful per machine, kept for the process's life */
static const char *intern(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char names[8][32];
	static size_t n;
	const char *r = NULL;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n && !r; i++)
		if (!strcmp(names[i], name))
			r = names[i];
	if (!r && n < sizeof(names) / sizeof(names[0])) {
		snprintf(names[n], sizeof(names[0]), "%s", name);
		r = names[n++];
	}
	pthread_mutex_unlock(&lock);
	return r ? r : "?";
}

/* the MHz columns from the kHz the watch and the folding keep */
static void finish(struct pass_sys *s)
{
	if (!pass_sys_clock(s, &s->cpu_mhz_min, &s->cpu_mhz, &s->cpu_mhz_max, &s->cpu_clock_pct)) {
		s->cpu_mhz_min = s->cpu_mhz = s->cpu_mhz_max = s->cpu_clock_pct = NAN;
		s->governor = NULL;
		return;
	}
	s->governor = intern(s->clock_governor);
}

void pass_sys_init(struct pass_sys *s)
{
	memset(s, 0, sizeof(*s));
	s->clock_min_khz = s->clock_mean_khz = s->clock_max_khz = s->clock_top_khz = NAN;
	irq_use_unknown(&s->irq);
	finish(s);
}

void pass_sys_fold(struct pass_sys *sum, const struct pass_sys *o)
{
	double t;

	irq_use_fold(&sum->irq, &o->irq);
	if (isnan(o->clock_mean_khz))
		return;
	if (isnan(sum->clock_mean_khz)) {
		struct irq_use irq = sum->irq;

		*sum = *o;
		sum->irq = irq;
		finish(sum);
		return;
	}
	if (o->clock_min_khz < sum->clock_min_khz)
		sum->clock_min_khz = o->clock_min_khz;
	if (o->clock_max_khz > sum->clock_max_khz)
		sum->clock_max_khz = o->clock_max_khz;
	/* the mean weighed by each repeat's time (equal weights if the times are not known) */
	t = sum->clock_seconds + o->clock_seconds;
	sum->clock_mean_khz = t > 0 ? (sum->clock_mean_khz * sum->clock_seconds +
				       o->clock_mean_khz * o->clock_seconds) /
					  t
				    : (sum->clock_mean_khz + o->clock_mean_khz) / 2;
	sum->clock_seconds = t;
	finish(sum);
}

bool pass_sys_clock(const struct pass_sys *s, double *ret_min, double *ret_mean, double *ret_max,
		    double *ret_pct)
{
	if (isnan(s->clock_mean_khz))
		return false;
	*ret_min = s->clock_min_khz / 1e3;
	*ret_mean = s->clock_mean_khz / 1e3;
	*ret_max = s->clock_max_khz / 1e3;
	*ret_pct = 100.0 * s->clock_mean_khz / s->clock_top_khz; /* NaN top: NaN */
	return true;
}

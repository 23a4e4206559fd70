// SPDX-License-Identifier: MIT
/* The CPU clock during a pass: see freqwatch.h. */
#include "platform/sys/freqwatch.h"
#include "platform/sys/cpufreq.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static bool read_khz(const char *path, uint64_t *ret)
{
	struct strbuf v = STRBUF_INIT;
	bool ok = sysroot_read_attr(path, &v) == 0 && parse_u64(v.buf, 1, 100000000, ret) == 0;

	strbuf_release(&v);
	return ok;
}

void freqwatch_sample(struct freqwatch *w)
{
	for (size_t i = 0; i < w->npol; i++) {
		struct freq_policy_use *p = &w->pol[i];
		uint64_t khz;

		if (!read_khz(w->cur_path[i], &khz))
			continue;
		if (!p->samples || khz < p->min_khz)
			p->min_khz = khz;
		if (khz > p->max_seen_khz)
			p->max_seen_khz = khz;
		w->sum[i] += khz;
		p->samples++;
	}
}

static void *watch(void *arg)
{
	struct freqwatch *w = arg;
	struct timespec ts = {.tv_sec = w->interval_ms / 1000,
			      .tv_nsec = (long)(w->interval_ms % 1000) * 1000000L};

	while (!atomic_load(&w->stop)) {
		nanosleep(&ts, NULL);
		if (!atomic_load(&w->stop))
			freqwatch_sample(w);
	}
	return NULL;
}

int freqwatch_open(struct freqwatch *w, unsigned interval_ms)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	memset(w, 0, sizeof(*w));
	w->interval_ms = interval_ms ? interval_ms : 100;
	atomic_init(&w->stop, false);
	if (sysroot_list(CPUFREQ_ROOT, &l) < 0)
		return 0; /* no cpufreq: nothing scales, nothing to watch */
	for (size_t i = 0; i < l.n && w->npol < FREQWATCH_MAX_POLICIES; i++) {
		struct freq_policy_use *u = &w->pol[w->npol];
		uint64_t khz;

		if (strncmp(l.v[i], "policy", 6) || strlen(l.v[i]) >= sizeof(u->name))
			continue;
		/* scaling_cur_freq for everyone; cpuinfo_cur_freq is root's and the hardware's */
		snprintf(w->cur_path[w->npol], sizeof(w->cur_path[0]), CPUFREQ_ROOT "/%s/%s", l.v[i],
			 "scaling_cur_freq");
		if (!read_khz(w->cur_path[w->npol], &khz))
			snprintf(w->cur_path[w->npol], sizeof(w->cur_path[0]), CPUFREQ_ROOT "/%s/%s",
				 l.v[i], "cpuinfo_cur_freq");
		snprintf(u->name, sizeof(u->name), "%s", l.v[i]);
		strbuf_reset(&p);
		strbuf_addf(&p, CPUFREQ_ROOT "/%s/scaling_governor", l.v[i]);
		if (sysroot_read_attr(p.buf, &v) == 0)
			snprintf(u->governor, sizeof(u->governor), "%s", v.buf);
		strbuf_reset(&p);
		strbuf_addf(&p, CPUFREQ_ROOT "/%s/cpuinfo_max_freq", l.v[i]);
		if (!read_khz(p.buf, &u->max_khz))
			u->max_khz = 0;
		w->npol++;
	}
	name_list_release(&l);
	strbuf_release(&p);
	strbuf_release(&v);
	freqwatch_sample(w);
	return 0;
}

int freqwatch_start(struct freqwatch *w, unsigned interval_ms)
{
	int r = freqwatch_open(w, interval_ms);

	if (r < 0 || !w->npol)
		return r;
	r = pthread_create(&w->thread, NULL, watch, w);
	if (r)
		return -r;
	w->running = true;
	return 0;
}

void freqwatch_stop(struct freqwatch *w)
{
	if (w->running) {
		atomic_store(&w->stop, true);
		pthread_join(w->thread, NULL);
		w->running = false;
	}
	freqwatch_sample(w);
	for (size_t i = 0; i < w->npol; i++)
		w->pol[i].mean_khz =
		    w->pol[i].samples ? (double)w->sum[i] / (double)w->pol[i].samples : 0;
}

const struct freq_policy_use *freqwatch_slowest(const struct freqwatch *w, double *ret_pct)
{
	const struct freq_policy_use *worst = NULL;
	double worst_pct = 100;

	for (size_t i = 0; i < w->npol; i++) {
		const struct freq_policy_use *p = &w->pol[i];
		double pct;

		if (!p->samples || !p->max_khz || !strcmp(p->governor, "performance"))
			continue;
		pct = 100.0 * p->mean_khz / (double)p->max_khz;
		if (pct < worst_pct) {
			worst = p;
			worst_pct = pct;
		}
	}
	if (worst)
		*ret_pct = worst_pct;
	return worst;
}

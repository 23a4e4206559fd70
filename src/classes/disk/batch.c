// SPDX-License-Identifier: MIT
#include "classes/disk/batch.h"
#include "classes/disk/iostat.h"
#include "platform/sys/cpustat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* shorter batches than this hold too few requests of a slow device to say anything */
#define BATCH_MIN_NS 50000000ULL /* 50 ms */

void disk_batches_release(struct disk_batches *b)
{
	if (!b)
		return;
	free(b->v);
	memset(b, 0, sizeof(*b));
}

uint64_t batch_len_ns(uint64_t min_ns, uint64_t limit_ns)
{
	uint64_t floor = min_ns && min_ns < limit_ns ? min_ns : limit_ns / 2;
	/*
	 * one batch more than the fewest that give a spread: a batch ends at the
	 * first completion past its length, and a pass of slow or bursty
	 * completions (a throttle beside busy CPUs) overran one in five and
	 * ended with four, no spread
	 */
	uint64_t len = floor / (BATCH_MIN_COUNT + 1);

	return len > BATCH_MIN_NS ? len : BATCH_MIN_NS;
}

int batch_clock_init(struct batch_clock *c, struct disk_batches *out, uint64_t len_ns,
		     unsigned dev_major, unsigned dev_minor)
{
	memset(c, 0, sizeof(*c));
	c->lat = malloc(sizeof(*c->lat));
	if (!c->lat)
		return -ENOMEM;
	hist_init(c->lat);
	c->out = out;
	c->first = out->n;
	c->len_ns = len_ns;
	c->dev_major = dev_major;
	c->dev_minor = dev_minor;
	return 0;
}

void batch_clock_begin(struct batch_clock *c, uint64_t now_ns)
{
	c->t0 = now_ns;
	c->self0 = cpu_self_s();
	c->ticks_ok = iostat_io_ticks(c->dev_major, c->dev_minor, &c->ticks0) == 0;
}

/* this pass's batches two by two into one: the p99 of a pair is taken as the larger */
static void halve(struct batch_clock *c)
{
	struct disk_batch *b = c->out->v + c->first;
	size_t n = c->out->n - c->first, i;

	for (i = 0; i < n / 2; i++) {
		struct disk_batch x = b[2 * i], y = b[2 * i + 1];

		b[i] = (struct disk_batch){x.seconds + y.seconds, x.bytes + y.bytes, x.ios + y.ios,
					   x.self_s + y.self_s, x.busy_ms + y.busy_ms,
					   fmax(x.lat_p99_ns, y.lat_p99_ns)};
	}
	if (n % 2)
		b[i++] = b[n - 1];
	c->out->n = c->first + i;
	c->len_ns *= 2;
}

static void close_batch(struct batch_clock *c, uint64_t now_ns, uint64_t bytes, uint64_t ios)
{
	struct disk_batch *v, *b;
	double self = cpu_self_s();
	uint64_t ticks;

	if (c->out->n - c->first >= BATCH_MAX)
		halve(c);
	v = realloc(c->out->v, (c->out->n + 1) * sizeof(*v));
	if (!v)
		abort();
	c->out->v = v;
	b = &v[c->out->n++];
	b->seconds = (double)(now_ns - c->t0) / 1e9;
	b->bytes = bytes - c->bytes0;
	b->ios = ios - c->ios0;
	b->self_s = self - c->self0;
	b->busy_ms = NAN;
	if (c->ticks_ok && iostat_io_ticks(c->dev_major, c->dev_minor, &ticks) == 0 &&
	    ticks >= c->ticks0) {
		b->busy_ms = (double)(ticks - c->ticks0);
		c->ticks0 = ticks;
	} else {
		c->ticks_ok = false;
	}
	b->lat_p99_ns = hist_quantile(c->lat, 0.99);
	hist_init(c->lat);
	c->t0 = now_ns;
	c->bytes0 = bytes;
	c->ios0 = ios;
	c->self0 = self;
}

void batch_clock_tick(struct batch_clock *c, uint64_t now_ns, uint64_t bytes, uint64_t ios)
{
	if (now_ns - c->t0 >= c->len_ns && ios > c->ios0)
		close_batch(c, now_ns, bytes, ios);
}

void batch_clock_stop(struct batch_clock *c, uint64_t now_ns, uint64_t bytes, uint64_t ios)
{
	if (c->lat && ios > c->ios0 && now_ns - c->t0 >= c->len_ns / 2)
		close_batch(c, now_ns, bytes, ios);
	free(c->lat);
	c->lat = NULL;
}

void batch_spreads_of(const struct disk_batch *b, size_t n, double mb_s, double iops,
		      double lat_p99_us, double self_cpu_pct, double util_pct,
		      struct batch_spreads *ret)
{
	double *x = malloc((n ? n : 1) * 5 * sizeof(*x));
	double *rate = x, *io = x + n, *p99 = x + 2 * n, *cpu = x + 3 * n, *util = x + 4 * n;
	size_t i;

	if (!x)
		abort();
	for (i = 0; i < n; i++) {
		double s = b[i].seconds > 0 ? b[i].seconds : NAN;

		rate[i] = (double)b[i].bytes / s / 1e6;
		io[i] = (double)b[i].ios / s;
		p99[i] = b[i].lat_p99_ns / 1e3;
		cpu[i] = 100 * b[i].self_s / s;
		/* the same cap as the whole pass's (iostat_util_pct): jiffies overshoot */
		util[i] = isnan(b[i].busy_ms) ? NAN : fmin(100, b[i].busy_ms / 10 / s);
	}
	*ret = (struct batch_spreads){
	    .mb_s = batch_spread(rate, n, mb_s),
	    .iops = batch_spread(io, n, iops),
	    .lat_p99_us = batch_spread(p99, n, lat_p99_us),
	    .self_cpu_pct = batch_spread(cpu, n, self_cpu_pct),
	    .util_pct = batch_spread(util, n, util_pct),
	};
	free(x);
}

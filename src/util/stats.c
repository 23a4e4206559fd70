// SPDX-License-Identifier: MIT
#include "util/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void summarize(const double *v, size_t n, struct summary *ret)
{
	struct summary s = {.n = n, .mean = NAN, .stdev = NAN, .min = NAN, .max = NAN};
	double m2 = 0, mean = 0;
	size_t i;

	if (n == 0) {
		*ret = s;
		return;
	}
	s.min = s.max = v[0];
	/* Welford: stable for values with large magnitude and small spread */
	for (i = 0; i < n; i++) {
		double d = v[i] - mean;
		mean += d / (double)(i + 1);
		m2 += d * (v[i] - mean);
		if (v[i] < s.min)
			s.min = v[i];
		if (v[i] > s.max)
			s.max = v[i];
	}
	s.mean = mean;
	s.stdev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
	*ret = s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median_sort(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 1 / Phi^-1(3/4): the MAD of a normal sample times this is its standard deviation */
#define MAD_TO_SD 1.4826

double batch_spread(const double *x, size_t n, double whole)
{
	double *v, med, mad, se;
	size_t i;

	if (n < BATCH_MIN_COUNT || !isfinite(whole))
		return NAN;
	v = malloc(n * sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < n && isfinite(x[i]); i++)
		v[i] = x[i];
	if (i < n) {
		free(v);
		return NAN;
	}
	med = median_sort(v, n);
	for (i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	mad = median_sort(v, n);
	free(v);
	se = MAD_TO_SD * mad / sqrt((double)n);
	return sqrt(se * se + (whole - med) * (whole - med));
}

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_index(uint64_t ns)
{
	unsigned msb, shift;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	if (msb >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	/* keep the top HIST_SUB_BITS + 1 bits: ns >> shift is in [HIST_SUB, 2 * HIST_SUB) */
	shift = msb - HIST_SUB_BITS;
	return shift * HIST_SUB + (unsigned)(ns >> shift);
}

uint64_t hist_bucket_value(unsigned idx)
{
	unsigned shift, sub;

	if (idx < HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	sub = idx - shift * HIST_SUB;
	/* the middle of the bucket: at most half a bucket (0.4%) from any value in it */
	return ((uint64_t)sub << shift) + ((1ULL << shift) >> 1);
}

void hist_record(struct histogram *h, uint64_t ns)
{
	h->bucket[hist_index(ns)]++;
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double hist_quantile(const struct histogram *h, double q)
{
	uint64_t rank, seen = 0;
	unsigned i;
	uint64_t v;

	if (!h->count)
		return NAN;
	if (q <= 0)
		return (double)h->min;
	if (q >= 1)
		return (double)h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	v = hist_bucket_value(i);
	/* the bucket midpoint may lie outside what was actually seen */
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return (double)v;
}

double hist_mean(const struct histogram *h)
{
	return h->count ? (double)(h->sum / h->count) : NAN;
}

void sampler_init(struct rate_sampler *s, uint64_t t0_ns)
{
	memset(s, 0, sizeof(*s));
	s->t0 = s->last = t0_ns;
	s->width = SAMPLER_BASE_NS;
}

/* twice as wide, half as many: slot i holds what slots 2i and 2i + 1 held */
static void sampler_halve(struct rate_sampler *s)
{
	size_t i;

	for (i = 0; i < SAMPLER_SLOTS / 2; i++)
		s->slot[i] = s->slot[2 * i] + s->slot[2 * i + 1];
	memset(s->slot + SAMPLER_SLOTS / 2, 0, SAMPLER_SLOTS / 2 * sizeof(s->slot[0]));
	s->n = (s->n + 1) / 2;
	s->width *= 2;
}

void sampler_add(struct rate_sampler *s, uint64_t now_ns, uint64_t bytes)
{
	uint64_t dt = now_ns > s->t0 ? now_ns - s->t0 : 0;
	uint64_t idx = dt / s->width;

	while (idx >= SAMPLER_SLOTS) {
		sampler_halve(s);
		idx = dt / s->width;
	}
	s->slot[idx] += bytes;
	if (idx + 1 > s->n)
		s->n = (size_t)idx + 1;
	if (now_ns > s->last)
		s->last = now_ns;
}

size_t sampler_rates(const struct rate_sampler *s, uint64_t end_ns, double *ret, size_t max,
		     uint64_t *ret_interval_ns)
{
	uint64_t len = end_ns > s->t0 ? end_ns - s->t0 : 0;
	uint64_t iv = s->width > SAMPLE_INTERVAL_NS ? s->width : SAMPLE_INTERVAL_NS;
	size_t n, i, k, per;

	/* a short pass: halve the interval until it holds enough of them (or one slot) */
	while (iv > s->width && len / iv < SAMPLE_MIN_COUNT)
		iv /= 2;
	per = (size_t)(iv / s->width);
	n = (size_t)(len / iv);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		uint64_t sum = 0;

		for (k = i * per; k < (i + 1) * per && k < s->n; k++)
			sum += s->slot[k];
		ret[i] = (double)sum / ((double)iv / 1e9);
	}
	*ret_interval_ns = iv;
	return n;
}

// SPDX-License-Identifier: MIT
#include "util/stats.h"

#include <math.h>
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

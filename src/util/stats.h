/* SPDX-License-Identifier: MIT */
#pragma once
#include <stddef.h>
#include <stdint.h>

/* Summary of repeated measurements. Sample standard deviation (n - 1). */
struct summary {
	size_t n;
	double mean;
	double stdev;
	double min;
	double max;
};

/* NaN fields for n == 0; stdev 0 for n == 1. */
void summarize(const double *v, size_t n, struct summary *ret);

/* The median of v (n > 0; NaN for n == 0); v is left sorted. */
double median_sort(double *v, size_t n);

/*
 * The spread of a figure measured over a whole pass (a standard deviation,
 * in the figure's unit): what the next pass's figure may differ by, read
 * from the same figure taken over each of the pass's n batches (stretches of
 * about the same length, classes/disk/batch.h). Made for bursty passes: a
 * throttle that meters in slices, a cache that fills, a start-up ramp,
 * where the standard deviation of the batches says how uneven the pass was
 * rather than how well its figure is known. Two parts:
 *   - the batches' own scatter, robustly: 1.4826 x their median absolute
 *     deviation (the standard deviation of a normal sample, deaf to a few
 *     outlying batches), over sqrt(n) as the standard error of a mean;
 *   - how far the whole pass's figure lies from the median batch: what its
 *     uneven stretches (a ramp, a burst) added to it, which the next pass
 *     need not repeat; counted whole.
 * spread = sqrt((1.4826 MAD / sqrt(n))^2 + (whole - median)^2). NaN with
 * fewer than BATCH_MIN_COUNT batches or any value not finite.
 */
#define BATCH_MIN_COUNT 5u
double batch_spread(const double *x, size_t n, double whole);

/*
 * Log-linear latency histogram in nanoseconds: exact below 2^HIST_SUB_BITS ns,
 * then 2^HIST_SUB_BITS buckets per power of two, so a reported percentile is
 * within 1/2^HIST_SUB_BITS (0.8%) of the true value. Fixed size, no
 * allocation: recording is a shift and an increment on the I/O hot path.
 */
#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 44 /* ~4.9 hours in ns; larger values are clamped */
#define HIST_BUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)

struct histogram {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	long double sum;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct histogram *h);
void hist_record(struct histogram *h, uint64_t ns);
void hist_merge(struct histogram *dst, const struct histogram *src);
/* Value at quantile q in [0, 1] (nearest rank); NaN if empty. */
double hist_quantile(const struct histogram *h, double q);
double hist_mean(const struct histogram *h);
/* Exposed for tests: bucket index and the value a bucket reports. */
unsigned hist_index(uint64_t ns);
uint64_t hist_bucket_value(unsigned idx);

/*
 * Rate samples over fixed intervals, fio's bandwidth samples: the bytes that
 * complete are counted into fine slots from the start of a pass, and at the
 * end the slots are summed into intervals of SAMPLE_INTERVAL_NS, or shorter
 * for a short pass so that it still has SAMPLE_MIN_COUNT of them (a spread
 * from fewer is not worth computing). Only whole intervals are kept: the
 * tail after the last one is left out, as it would be a partial rate.
 * Fixed size: when a long pass fills the slots, neighbours are merged and
 * the slot width doubles, so intervals are wider than 100 ms only past
 * SAMPLER_SLOTS x 50 ms (51 s), and each pass still has over 500 of them.
 */
#define SAMPLE_INTERVAL_NS 100000000ULL /* 100 ms */
#define SAMPLE_MIN_COUNT 5u
#define SAMPLER_BASE_NS (SAMPLE_INTERVAL_NS / 64) /* 1.5625 ms: 100 ms / 2^k exactly */
#define SAMPLER_SLOTS 1024u

struct rate_sampler {
	uint64_t t0;		      /* ns, the start of the pass */
	uint64_t width;		      /* ns per slot */
	uint64_t last;		      /* ns, the last completion added */
	size_t n;		      /* slots in use */
	uint64_t slot[SAMPLER_SLOTS]; /* bytes completed in each slot */
};

void sampler_init(struct rate_sampler *s, uint64_t t0_ns);
/* bytes that completed at now_ns (>= t0_ns) */
void sampler_add(struct rate_sampler *s, uint64_t now_ns, uint64_t bytes);
/*
 * The rates in bytes/s of the whole intervals up to end_ns, into ret (at
 * most max); returns how many, and the interval in *ret_interval_ns.
 */
size_t sampler_rates(const struct rate_sampler *s, uint64_t end_ns, double *ret, size_t max,
		     uint64_t *ret_interval_ns);

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

// SPDX-License-Identifier: MIT
/* util/stats: summaries of repeats and the log-linear latency histogram. */
#include "unit.h"
#include "util/stats.h"

#include <stdlib.h>
#include <string.h>

/* A bucket reports its midpoint: at most half a bucket, 1/256 of the value, away. */
#define HIST_REL_ERR (1.0 / (2 * HIST_SUB))

struct summary_case {
	const char *what;
	double v[8];
	size_t n;
	double mean, stdev, min, max;
};

static void test_summarize(void **state)
{
	static const struct summary_case cases[] = {
		{"one value", {3.5}, 1, 3.5, 0, 3.5, 3.5},
		{"textbook", {2, 4, 4, 4, 5, 5, 7, 9}, 8, 5, 2.1380899352993950, 2, 9},
		{"two", {-1, 1}, 2, 0, 1.4142135623730951, -1, 1},
		{"unsorted", {5, -3, 10, 2}, 4, 3.5, 5.4467115461227307, -3, 10},
		{"constant", {7, 7, 7}, 3, 7, 0, 7, 7},
		/* large offset, small spread: naive sum-of-squares loses this */
		{"offset", {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}, 4, 1e9 + 10, 5.4772255750516612,
		 1e9 + 4, 1e9 + 16},
	};
	struct summary s;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct summary_case *c = &cases[i];

		memset(&s, 0xff, sizeof(s));
		summarize(c->v, c->n, &s);
		print_message("summarize: %s\n", c->what);
		assert_int_equal(s.n, c->n);
		assert_near(s.mean, c->mean, 1e-9 * fabs(c->mean) + 1e-12);
		assert_near(s.stdev, c->stdev, 1e-9);
		assert_true(s.min == c->min);
		assert_true(s.max == c->max);
	}
}

static void test_summarize_empty(void **state)
{
	struct summary s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.n = 99;
	summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_nan(s.mean);
	assert_nan(s.stdev);
	assert_nan(s.min);
	assert_nan(s.max);
}

static struct histogram *hist_new(void)
{
	struct histogram *h = malloc(sizeof(*h));

	assert_non_null(h);
	memset(h, 0xa5, sizeof(*h)); /* hist_init must clear every byte that matters */
	hist_init(h);
	return h;
}

static void test_hist_exact_below_sub(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v < HIST_SUB; v++) {
		assert_int_equal(hist_index(v), v);
		assert_int_equal(hist_bucket_value((unsigned)v), v);
	}
	assert_int_equal(hist_index(HIST_SUB), HIST_SUB);
}

static void test_hist_bucket_roundtrip(void **state)
{
	unsigned i;

	(void)state;
	/* every bucket's reported value lies in that bucket */
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t v = hist_bucket_value(i);

		if (hist_index(v) != i)
			fail_msg("bucket %u reports %llu, which maps to bucket %u", i,
				 (unsigned long long)v, hist_index(v));
		if (i && v <= hist_bucket_value(i - 1))
			fail_msg("bucket values not increasing at %u", i);
	}
}

static void check_value(uint64_t v, unsigned *prev_idx)
{
	unsigned idx = hist_index(v);
	double rep;

	if (idx >= HIST_BUCKETS)
		fail_msg("hist_index(%llu) = %u, past the last bucket", (unsigned long long)v, idx);
	rep = (double)hist_bucket_value(idx);
	if (fabs(rep - (double)v) > HIST_REL_ERR * (double)v)
		fail_msg("%llu is reported as %.0f: %.3f%% off", (unsigned long long)v, rep,
			 100 * fabs(rep - (double)v) / (double)v);
	if (idx < *prev_idx)
		fail_msg("hist_index not monotonic at %llu: %u after %u", (unsigned long long)v,
			 idx, *prev_idx);
	*prev_idx = idx;
}

static void test_hist_accuracy_whole_range(void **state)
{
	const uint64_t top = (1ULL << HIST_MAX_BITS) - 1;
	unsigned prev = 0, k;
	uint64_t v;

	(void)state;
	/* a geometric walk through the whole range, about 2000 steps per decade */
	for (v = 1; v <= top; v = v + 1 + v / 1000)
		check_value(v, &prev);
	check_value(top, &prev);
	/* and each power of two's edges */
	for (k = 1; k < HIST_MAX_BITS; k++) {
		prev = 0;
		check_value((1ULL << k) - 1, &prev);
		check_value(1ULL << k, &prev);
		check_value((1ULL << k) + 1, &prev);
		if (k > HIST_SUB_BITS)
			assert_true(hist_index(1ULL << k) > hist_index((1ULL << k) - 1));
	}
	assert_int_equal(hist_index(top), HIST_BUCKETS - 1);
	/* past the range: clamped into the last bucket, never past the array */
	assert_int_equal(hist_index(1ULL << HIST_MAX_BITS), HIST_BUCKETS - 1);
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
}

static void test_hist_quantiles_uniform(void **state)
{
	static const struct {
		double q, want, tol;
	} cases[] = {
		{0.0, 1, 0},
		{0.10, 10000, 100},
		{0.50, 50000, 500},
		{0.90, 90000, 900},
		{0.99, 99000, 990},
		{0.999, 99900, 999},
		{1.0, 100000, 0},
	};
	struct histogram *h = hist_new();
	uint64_t v;
	size_t i;

	(void)state;
	for (v = 1; v <= 100000; v++)
		hist_record(h, v);
	assert_int_equal(h->count, 100000);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100000);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		double got = hist_quantile(h, cases[i].q);

		if (fabs(got - cases[i].want) > cases[i].tol)
			fail_msg("quantile %g = %.1f, expected %.0f +- %.0f", cases[i].q, got,
				 cases[i].want, cases[i].tol);
	}
	assert_near(hist_mean(h), 50000.5, 1e-9);
	free(h);
}

static void test_hist_quantiles_small(void **state)
{
	/* exact region: nearest rank with no bucket rounding */
	static const struct {
		double q, want;
	} cases[] = {
		{0.01, 10}, {0.25, 10}, {0.26, 20}, {0.50, 20},
		{0.51, 30}, {0.75, 30}, {0.76, 40}, {0.999, 40},
	};
	struct histogram *h = hist_new();
	size_t i;

	(void)state;
	hist_record(h, 40);
	hist_record(h, 10);
	hist_record(h, 30);
	hist_record(h, 20);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (hist_quantile(h, cases[i].q) != cases[i].want)
			fail_msg("quantile %g = %g, expected %g", cases[i].q,
				 hist_quantile(h, cases[i].q), cases[i].want);
	assert_near(hist_mean(h), 25, 0);
	free(h);
}

static void test_hist_single_and_empty(void **state)
{
	struct histogram *h = hist_new();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_nan(hist_quantile(h, 0.5));
	assert_nan(hist_mean(h));
	/* 1000 sits in a bucket whose midpoint is 1002: clamped to what was seen */
	hist_record(h, 1000);
	assert_true(hist_bucket_value(hist_index(1000)) != 1000);
	assert_near(hist_quantile(h, 0.0), 1000, 0);
	assert_near(hist_quantile(h, 0.5), 1000, 0);
	assert_near(hist_quantile(h, 0.99), 1000, 0);
	assert_near(hist_quantile(h, 1.0), 1000, 0);
	/* values past the range land in the last bucket but keep an exact max */
	hist_record(h, UINT64_MAX);
	assert_int_equal(h->bucket[HIST_BUCKETS - 1], 1);
	assert_true(hist_quantile(h, 1.0) == (double)UINT64_MAX);
	free(h);
}

static void test_hist_merge(void **state)
{
	struct histogram *all = hist_new(), *odd = hist_new(), *even = hist_new();
	struct histogram *empty = hist_new(), *copy = hist_new();
	uint64_t v;

	(void)state;
	for (v = 3; v <= 200000; v += 7) {
		hist_record(all, v * 13);
		hist_record(v % 2 ? odd : even, v * 13);
	}
	memcpy(copy, odd, sizeof(*copy));
	hist_merge(odd, empty);
	assert_memory_equal(odd, copy, sizeof(*copy));

	hist_merge(odd, even);
	assert_int_equal(odd->count, all->count);
	assert_int_equal(odd->min, all->min);
	assert_int_equal(odd->max, all->max);
	assert_true(odd->sum == all->sum);
	assert_memory_equal(odd->bucket, all->bucket, sizeof(all->bucket));
	assert_near(hist_quantile(odd, 0.5), hist_quantile(all, 0.5), 0);

	/* into an empty histogram: min must come from src, not the UINT64_MAX start */
	hist_merge(empty, even);
	assert_int_equal(empty->count, even->count);
	assert_int_equal(empty->min, even->min);
	assert_int_equal(empty->max, even->max);
	assert_memory_equal(empty->bucket, even->bucket, sizeof(even->bucket));
	free(all);
	free(odd);
	free(even);
	free(empty);
	free(copy);
}

/* a fake clock: 1 ms steps from T0, each completing bytes_at(ms) */
#define T0 5000000000ULL
#define MS 1000000ULL

static struct rate_sampler *sampler_new(void)
{
	struct rate_sampler *s = malloc(sizeof(*s));

	assert_non_null(s);
	sampler_init(s, T0);
	return s;
}

static void test_sampler_steady(void **state)
{
	/* 1 MB every ms for 1 s: ten 100 ms samples of exactly 1000 MB/s */
	struct rate_sampler *s = sampler_new();
	double r[SAMPLER_SLOTS];
	uint64_t iv, t;
	size_t n, i;

	(void)state;
	for (t = 1; t <= 1000; t++)
		sampler_add(s, T0 + t * MS - 1, 1000000);
	n = sampler_rates(s, T0 + 1000 * MS, r, SAMPLER_SLOTS, &iv);
	assert_int_equal(iv, SAMPLE_INTERVAL_NS);
	assert_int_equal(n, 10);
	for (i = 0; i < n; i++)
		assert_near(r[i], 1e9, 1e-3);
	free(s);
}

static void test_sampler_varying(void **state)
{
	/* 100 ms at 200 MB/s, 100 ms at 600 MB/s, and so on for 1 s: min 200, mean 400 */
	struct rate_sampler *s = sampler_new();
	double r[SAMPLER_SLOTS];
	struct summary sum;
	uint64_t iv, t;
	size_t n;

	(void)state;
	for (t = 0; t < 1000; t++)
		sampler_add(s, T0 + t * MS, (t / 100) % 2 ? 600000 : 200000);
	/* the last completion at 999 ms: a 0.999 s pass has nine whole intervals */
	n = sampler_rates(s, s->last, r, SAMPLER_SLOTS, &iv);
	assert_int_equal(iv, SAMPLE_INTERVAL_NS);
	assert_int_equal(n, 9);
	summarize(r, n, &sum);
	assert_near(sum.min, 200e6, 1e-3);
	assert_near(sum.max, 600e6, 1e-3);
	/* 5 x 200 and 4 x 600: mean 377.8, sample stdev 210.8 MB/s */
	assert_near(sum.mean, (5 * 200e6 + 4 * 600e6) / 9, 1);
	assert_near(sum.stdev, 210.8185e6, 1e3);
	free(s);
}

static void test_sampler_short_pass(void **state)
{
	/* a 30 ms pass still gets its five samples: the interval shrinks by halves */
	struct rate_sampler *s = sampler_new();
	double r[SAMPLER_SLOTS];
	uint64_t iv, t;
	size_t n, i;

	(void)state;
	for (t = 0; t < 300; t++) /* every 0.1 ms, 10 kB: 100 MB/s */
		sampler_add(s, T0 + t * MS / 10, 10000);
	n = sampler_rates(s, T0 + 30 * MS, r, SAMPLER_SLOTS, &iv);
	assert_true(n >= SAMPLE_MIN_COUNT);
	assert_int_equal(iv, SAMPLE_INTERVAL_NS / 32); /* 3.125 ms: 30 / 6.25 is only 4 */
	assert_int_equal(n, 9);
	for (i = 0; i < n; i++)
		assert_near(r[i], 100e6, 100e6 * 0.04); /* 31 or 32 adds of 10 kB per 3.125 ms */
	free(s);
}

static void test_sampler_long_pass(void **state)
{
	/* 200 s at a steady 50 MB/s: the slots merge, rates stay right, intervals widen */
	struct rate_sampler *s = sampler_new();
	double *r = calloc(SAMPLER_SLOTS, sizeof(*r));
	struct summary sum;
	uint64_t iv, t;
	size_t n;

	(void)state;
	assert_non_null(r);
	for (t = 1; t <= 200000; t++)
		sampler_add(s, T0 + t * MS - 1, 50000);
	n = sampler_rates(s, T0 + 200000 * MS, r, SAMPLER_SLOTS, &iv);
	assert_true(iv > SAMPLE_INTERVAL_NS);
	assert_true(s->width * SAMPLER_SLOTS >= 200000 * MS);
	assert_int_equal(n, 200000 * MS / iv);
	assert_true(n >= SAMPLER_SLOTS / 4);
	summarize(r, n, &sum);
	assert_near(sum.min, 50e6, 1);
	assert_near(sum.max, 50e6, 1);
	free(r);
	free(s);
}

static void test_sampler_empty_and_tail(void **state)
{
	struct rate_sampler *s = sampler_new();
	double r[SAMPLER_SLOTS];
	uint64_t iv;

	(void)state;
	/* nothing completed, no time passed: no sample */
	assert_int_equal(sampler_rates(s, T0, r, SAMPLER_SLOTS, &iv), 0);
	/* a stall is a sample of 0, not a gap */
	sampler_add(s, T0 + 10 * MS, 1000000);
	sampler_add(s, T0 + 450 * MS, 1000000);
	assert_int_equal(sampler_rates(s, T0 + 500 * MS, r, SAMPLER_SLOTS, &iv), 5);
	assert_int_equal(iv, SAMPLE_INTERVAL_NS);
	assert_near(r[0], 10e6, 1e-6);
	assert_near(r[1], 0, 0);
	assert_near(r[4], 10e6, 1e-6);
	/* what completes after the last whole interval is not a sample of its own */
	sampler_add(s, T0 + 520 * MS, 1000000);
	assert_int_equal(sampler_rates(s, T0 + 520 * MS, r, SAMPLER_SLOTS, &iv), 5);
	/* max bounds what is written */
	assert_int_equal(sampler_rates(s, T0 + 500 * MS, r, 2, &iv), 2);
	free(s);
}

/*
 * The spread of a whole pass's figure from its batches (stats.h): robust
 * scatter over sqrt(n), and the whole's distance from the median batch.
 */
static void test_batch_spread(void **state)
{
	static const struct {
		const char *what;
		double x[10];
		size_t n;
		double whole, want;
	} cases[] = {
		{"a steady throttle: the batches agree", {41.9, 41.9, 41.9, 41.9, 41.9, 41.9}, 6, 41.9,
		 0},
		{"a throttle's start burst: the whole above the median batch",
		 {62, 41.9, 41.9, 41.9, 41.9, 41.9, 41.9, 41.9}, 8, 44.4, 2.5},
		{"scatter: 1.4826 MAD / sqrt(n)", {9, 10, 11, 10, 10, 9, 11}, 7, 10,
		 1.4826 / 2.6457513110645906},
		{"one wild batch barely moves it", {10, 10, 11, 9, 1000}, 5, 10,
		 1.4826 / 2.2360679774997898},
		{"... unless it moved the whole", {10, 10, 10, 10, 100}, 5, 28, 18},
		{"an even count: medians of the middle two", {1, 2, 3, 4, 5, 6}, 6, 3.5,
		 1.4826 * 1.5 / 2.4494897427831779},
		{"both parts", {9, 10, 11, 10, 10, 9, 11}, 7, 11,
		 1.1463047936740036 /* sqrt((1.4826 / sqrt(7))^2 + 1^2) */},
		{"fewer than BATCH_MIN_COUNT", {10, 10, 10, 10}, BATCH_MIN_COUNT - 1, 10, NAN},
		{"a batch not known", {10, 10, NAN, 10, 10}, 5, 10, NAN},
		{"the whole not known", {10, 10, 10, 10, 10}, 5, NAN, NAN},
		{"an infinite batch", {10, 10, INFINITY, 10, 10}, 5, 10, NAN},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double got = batch_spread(cases[i].x, cases[i].n, cases[i].whole);

		print_message("batch_spread: %s\n", cases[i].what);
		if (isnan(cases[i].want))
			assert_nan(got);
		else
			assert_near(got, cases[i].want, 1e-9);
	}
	/* the batches are the caller's: left as they were */
	{
		double x[] = {3, 1, 2, 5, 4};

		assert_near(batch_spread(x, 5, 3), 1.4826 / 2.2360679774997898, 1e-12);
		assert_true(x[0] == 3 && x[1] == 1 && x[4] == 4);
		assert_true(median_sort(x, 5) == 3 && x[0] == 1 && x[4] == 5);
		assert_nan(median_sort(x, 0));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_summarize_empty),
		cmocka_unit_test(test_batch_spread),
		cmocka_unit_test(test_hist_exact_below_sub),
		cmocka_unit_test(test_hist_bucket_roundtrip),
		cmocka_unit_test(test_hist_accuracy_whole_range),
		cmocka_unit_test(test_hist_quantiles_uniform),
		cmocka_unit_test(test_hist_quantiles_small),
		cmocka_unit_test(test_hist_single_and_empty),
		cmocka_unit_test(test_hist_merge),
		cmocka_unit_test(test_sampler_steady),
		cmocka_unit_test(test_sampler_varying),
		cmocka_unit_test(test_sampler_short_pass),
		cmocka_unit_test(test_sampler_long_pass),
		cmocka_unit_test(test_sampler_empty_and_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/* classes/disk/batch: a pass cut into batches, and each figure's spread from them. */
#include "unit.h"
#include "classes/disk/batch.h"

#include <string.h>

#define MS 1000000ULL

static void test_len(void **state)
{
	static const struct {
		const char *what;
		uint64_t min_ns, limit_ns, want;
	} cases[] = {
		{"run's default: 1 s to 3 s", 1000 * MS, 3000 * MS, 1000 * MS / 6},
		{"--full: 2 s to 5 s", 2000 * MS, 5000 * MS, 2000 * MS / 6},
		{"no floor: half the cap is the shortest counted on", 0, 3000 * MS, 250 * MS},
		{"a floor past the cap: the cap's half", 5000 * MS, 3000 * MS, 250 * MS},
		{"a short pass: never under 50 ms", 100 * MS, 200 * MS, 50 * MS},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		print_message("batch_len_ns: %s\n", cases[i].what);
		assert_int_equal(batch_len_ns(cases[i].min_ns, cases[i].limit_ns), cases[i].want);
	}
}

/*
 * A throttled 1 MiB reader: a completion every 25 ms (40 MiB/s), the first
 * at once (a fresh slice's burst), over 1 s in batches of 200 ms: each ends at
 * the first completion past its length, so it counts whole requests
 */
static void test_clock(void **state)
{
	struct disk_batches out = {0};
	struct batch_clock c;
	uint64_t t0 = 5000 * MS, now = t0, bytes = 0, ios = 0;

	(void)state;
	assert_int_equal(batch_clock_init(&c, &out, 200 * MS, 0, 0), 0);
	batch_clock_begin(&c, t0);
	for (int i = 0; i <= 40; i++) {
		now = t0 + (uint64_t)i * 25 * MS;
		bytes += 1 << 20, ios++;
		batch_clock_record(&c, i == 0 ? 1 * MS : 25 * MS);
		batch_clock_tick(&c, now, bytes, ios);
	}
	batch_clock_stop(&c, now, bytes, ios);
	assert_null(c.lat);
	/* 200 ms each: at 200, 400, 600, 800 and 1000 ms: 9 requests, then 8 each */
	assert_int_equal(out.n, 5);
	assert_int_equal(out.v[0].ios, 9);
	assert_near(out.v[0].seconds, 0.2, 1e-12);
	for (size_t i = 1; i < out.n; i++) {
		assert_int_equal(out.v[i].ios, 8);
		assert_int_equal(out.v[i].bytes, 8u << 20);
		assert_near(out.v[i].seconds, 0.2, 1e-12);
		assert_near(out.v[i].lat_p99_ns, 25 * MS, 25 * MS / 256.0);
	}
	/* no device (0:0): its busy time is not known */
	assert_nan(out.v[0].busy_ms);
	assert_true(out.v[0].self_s >= 0);
	/* a second pass appends; a tail under half a batch is left out */
	assert_int_equal(batch_clock_init(&c, &out, 200 * MS, 0, 0), 0);
	batch_clock_begin(&c, now);
	batch_clock_record(&c, 50 * MS);
	batch_clock_tick(&c, now + 90 * MS, 1, 1); /* each pass counts from 0 */
	batch_clock_stop(&c, now + 90 * MS, 1, 1);
	assert_int_equal(out.n, 5);
	/* ... one of half a batch is kept */
	assert_int_equal(batch_clock_init(&c, &out, 200 * MS, 0, 0), 0);
	batch_clock_begin(&c, now);
	batch_clock_record(&c, 50 * MS);
	batch_clock_stop(&c, now + 100 * MS, 1, 1);
	assert_int_equal(out.n, 6);
	assert_int_equal(out.v[5].bytes, 1);
	/* ... and none without a completion */
	assert_int_equal(batch_clock_init(&c, &out, 200 * MS, 0, 0), 0);
	batch_clock_begin(&c, now);
	batch_clock_stop(&c, now + 300 * MS, 0, 0);
	assert_int_equal(out.n, 6);
	disk_batches_release(&out);
	assert_null(out.v);
	disk_batches_release(NULL);
}

/* a long pass: past BATCH_MAX batches, neighbours merge and batches get twice as long */
static void test_clock_long(void **state)
{
	struct disk_batches out = {0};
	struct batch_clock c;
	uint64_t t0 = 0, bytes = 0, ios = 0;
	size_t i;

	(void)state;
	assert_int_equal(batch_clock_init(&c, &out, 10 * MS, 0, 0), 0);
	batch_clock_begin(&c, t0);
	for (i = 1; i <= 2 * BATCH_MAX + 10; i++) {
		bytes += 4096, ios++;
		batch_clock_record(&c, (i % 2 ? 1 : 3) * MS);
		batch_clock_tick(&c, t0 + i * 10 * MS, bytes, ios);
	}
	batch_clock_stop(&c, t0 + (i - 1) * 10 * MS, bytes, ios);
	assert_true(out.n <= BATCH_MAX);
	assert_true(out.n >= BATCH_MAX / 2);
	assert_int_equal(c.len_ns, 40 * MS);
	/* every request counted once, but for a tail under half a batch (2 of 10 ms) */
	{
		uint64_t sum = 0;
		double secs = 0;

		for (i = 0; i < out.n; i++)
			sum += out.v[i].ios, secs += out.v[i].seconds;
		assert_true(sum <= ios && ios - sum < 2);
		assert_near(secs, (double)sum * 0.01, 1e-9);
	}
	/* a merged pair keeps the larger p99 */
	assert_near(out.v[0].lat_p99_ns, 3 * MS, 3 * MS / 256.0);
	disk_batches_release(&out);
}

/* each figure against the whole pass's, in its unit */
static void test_spreads_of(void **state)
{
	struct disk_batch b[6];
	struct batch_spreads sp;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(b); i++)
		b[i] = (struct disk_batch){.seconds = 0.2,
					   .bytes = 8u << 20,
					   .ios = 8,
					   .self_s = 0.001,
					   .busy_ms = 20,
					   .lat_p99_ns = 25e6};
	b[0].bytes = 10u << 20, b[0].ios = 10; /* the start's burst */
	/* the whole pass: its rate above the steady batches', the rest as they are */
	batch_spreads_of(b, ARRAY_SIZE(b), 43.0, 41.0, 25000, 0.5, 10, &sp);
	assert_near(sp.mb_s, 43.0 - 8 * 1048576 / 0.2 / 1e6, 1e-9);
	assert_near(sp.iops, 1, 1e-9);
	assert_near(sp.lat_p99_us, 0, 1e-9);
	assert_near(sp.self_cpu_pct, 0, 1e-9);
	assert_near(sp.util_pct, 0, 1e-9);
	/* the device's busy time unknown in a batch: its utilisation's spread too */
	b[3].busy_ms = NAN;
	batch_spreads_of(b, ARRAY_SIZE(b), 43.0, 41.0, 25000, 0.5, 10, &sp);
	assert_nan(sp.util_pct);
	assert_false(isnan(sp.mb_s));
	/* too few batches: nothing */
	batch_spreads_of(b, BATCH_MIN_COUNT - 1, 43.0, 41.0, 25000, 0.5, 10, &sp);
	assert_nan(sp.mb_s);
	assert_nan(sp.lat_p99_us);
	batch_spreads_of(NULL, 0, 43.0, 41.0, 25000, 0.5, 10, &sp);
	assert_nan(sp.iops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_len),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_clock_long),
		cmocka_unit_test(test_spreads_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

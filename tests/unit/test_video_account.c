// SPDX-License-Identifier: MIT
/* Frame accounting on synthetic buffer sequences: rates, drops, intervals, payload. */
#include "classes/video/video.h"
#include "unit.h"

#include <errno.h>
#include <math.h>
#include <linux/videodev2.h>

#define NS_30FPS 33333333ULL /* 1/30 s, as a kernel at 30 fps stamps it (to the ns) */

struct feed {
	struct video_acct a;
	struct video_stats st;
};

static void add(struct video_acct *a, uint32_t seq, uint64_t ts, uint32_t flags, uint32_t bytes,
		uint64_t wall)
{
	struct video_sample s = {
	    .sequence = seq, .ts_ns = ts, .flags = flags, .bytesused = bytes, .wall_ns = wall};

	assert_int_equal(video_acct_add(a, &s), 0);
}

/* n buffers from sequence seq0, every interval ns apart, bytes each */
static void steady(struct video_acct *a, uint32_t seq0, size_t n, uint64_t interval, uint32_t bytes)
{
	size_t i;

	for (i = 0; i < n; i++)
		add(a, seq0 + (uint32_t)i, 1000000000ULL + i * interval, 0, bytes,
		    5000000000ULL + i * interval);
}

static void test_steady_30fps(void **state)
{
	struct video_acct a;
	struct video_stats st;

	(void)state;
	video_acct_init(&a);
	steady(&a, 0, 301, NS_30FPS, 115200); /* 320x180 YUYV */
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.buffers, 301);
	assert_int_equal(st.frames, 301);
	assert_int_equal(st.dropped, 0);
	assert_near(st.drop_pct, 0, 1e-12);
	assert_near(st.span_s, 300 * 33333333e-9, 1e-9);
	assert_near(st.fps, 30.0, 1e-5);
	assert_near(st.fps_wall, 30.0, 1e-5);
	assert_near(st.ival_p50_us, 33333.333, 1e-3);
	assert_near(st.ival_p99_us, 33333.333, 1e-3);
	assert_near(st.ival_max_us, 33333.333, 1e-3);
	assert_near(st.jitter_us, 0, 1e-6);
	/* every interval in the 0.9-1.1x bin */
	assert_int_equal(st.hist[2], 300);
	assert_int_equal(
	    st.hist[0] + st.hist[1] + st.hist[3] + st.hist[4] + st.hist[5] + st.hist[6], 0);
	assert_near(st.bytes_min, 115200, 0);
	assert_near(st.bytes_max, 115200, 0);
	assert_near(st.bytes_mean, 115200, 0);
	/* 300 frames of 115200 B in 10 s */
	assert_near(st.mb_s, 300 * 115200 / (300 * 33333333e-9) / 1e6, 1e-9);
	video_acct_release(&a);
}

/* sequence 10, 11, 12 never returned: 3 lost, one interval of 4 periods */
static void test_sequence_gap(void **state)
{
	struct video_acct a;
	struct video_stats st;
	uint32_t seq;

	(void)state;
	video_acct_init(&a);
	for (seq = 0; seq < 100; seq++)
		if (seq < 10 || seq > 12)
			add(&a, seq, seq * NS_30FPS, 0, 1000, seq * NS_30FPS);
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.buffers, 97);
	assert_int_equal(st.frames, 97);
	assert_int_equal(st.lost, 3);
	assert_int_equal(st.errors, 0);
	assert_int_equal(st.dropped, 3);
	assert_near(st.drop_pct, 3.0, 1e-9); /* 3 of 97 + 3 */
	/* 96 frames after the first over 99 periods */
	assert_near(st.fps, 96.0 / (99 * 33333333e-9), 1e-6);
	/* the device's clock still ran at 30 fps: the frames were lost after it */
	assert_near(st.fps_sequence, 30.0, 1e-5);
	assert_near(st.ival_max_us, 4 * 33333.333, 1e-3);
	/* 96 intervals: the 99th percentile (nearest rank 96) is the gap, the median is not */
	assert_near(st.ival_p99_us, 4 * 33333.333, 1e-3);
	assert_near(st.ival_p50_us, 33333.333, 1e-3);
	assert_int_equal(st.hist[6], 1); /* >= 3.5x: the gap */
	assert_int_equal(st.hist[2], 95);
	video_acct_release(&a);
}

/* 5 buffers of 100 flagged V4L2_BUF_FLAG_ERROR: returned, counted as dropped, no payload */
static void test_error_flagged(void **state)
{
	struct video_acct a;
	struct video_stats st;
	uint32_t seq;

	(void)state;
	video_acct_init(&a);
	for (seq = 0; seq < 100; seq++)
		add(&a, seq, seq * NS_30FPS, seq % 20 == 7 ? V4L2_BUF_FLAG_ERROR : 0,
		    seq % 20 == 7 ? 99999 : 2000, seq * NS_30FPS);
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.buffers, 100);
	assert_int_equal(st.errors, 5);
	assert_int_equal(st.frames, 95);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.dropped, 5);
	assert_near(st.drop_pct, 5.0, 1e-9);
	assert_near(st.bytes_max, 2000, 0); /* the corrupt buffers' bytes do not count */
	assert_int_equal(st.bytes, 95 * 2000);
	assert_near(st.fps, 99.0 * 95 / 100 / (99 * 33333333e-9), 1e-6);
	video_acct_release(&a);
}

/* intervals alternating 1 ms early and late: jitter 1 ms, p99 the late one */
static void test_jitter(void **state)
{
	struct video_acct a;
	struct video_stats st;
	uint64_t ts = 0;
	uint32_t seq;
	size_t n = 200; /* intervals */

	(void)state;
	video_acct_init(&a);
	add(&a, 0, ts, 0, 500, ts);
	for (seq = 1; seq <= n; seq++) {
		ts += seq % 2 ? NS_30FPS - 1000000 : NS_30FPS + 1000000;
		add(&a, seq, ts, 0, 500 + seq, ts + (seq % 3) * 100000);
	}
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.dropped, 0);
	assert_near(st.ival_mean_us, 33333.333, 1e-3);
	/* sample stdev of +-1000 us, n = 200 */
	assert_near(st.jitter_us, 1000.0 * sqrt(200.0 / 199.0), 1e-6);
	assert_near(st.ival_p50_us, 32333.333, 1e-3);
	assert_near(st.ival_p99_us, 34333.333, 1e-3);
	assert_near(st.ival_max_us, 34333.333, 1e-3);
	assert_near(st.ival_min_us, 32333.333, 1e-3);
	assert_near(st.fps, 30.0, 1e-5);
	assert_near(st.bytes_min, 500, 0);
	assert_near(st.bytes_max, 700, 0);
	/* 0.97x and 1.03x: all in the 0.9-1.1x bin */
	assert_int_equal(st.hist[2], 200);
	video_acct_release(&a);
}

/* one frame: counted, no rate, no interval */
static void test_single_frame(void **state)
{
	struct video_acct a;
	struct video_stats st;

	(void)state;
	video_acct_init(&a);
	add(&a, 42, 123456789, 0, 4096, 987654321);
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.buffers, 1);
	assert_int_equal(st.frames, 1);
	assert_int_equal(st.dropped, 0);
	assert_near(st.drop_pct, 0, 0);
	assert_nan(st.fps);
	assert_nan(st.fps_wall);
	assert_nan(st.span_s);
	assert_nan(st.ival_p50_us);
	assert_nan(st.jitter_us);
	assert_nan(st.mb_s);
	assert_near(st.bytes_mean, 4096, 0);
	video_acct_release(&a);
}

/* nothing dequeued: no division by zero, no drop share */
static void test_empty(void **state)
{
	struct video_acct a;
	struct video_stats st;

	(void)state;
	video_acct_init(&a);
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.buffers, 0);
	assert_int_equal(st.dropped, 0);
	assert_nan(st.drop_pct);
	assert_nan(st.fps);
	assert_nan(st.bytes_mean);
	video_acct_release(&a);
}

/* the 32-bit sequence wraps: one step, no loss; a gap across the wrap still counts */
static void test_sequence_wrap(void **state)
{
	struct video_acct a;
	struct video_stats st;

	(void)state;
	video_acct_init(&a);
	steady(&a, 0xfffffffdu, 6, NS_30FPS, 100); /* ...fd fe ff 0 1 2 */
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.seq_resets, 0);
	assert_int_equal(st.dropped, 0);
	video_acct_release(&a);

	video_acct_init(&a);
	add(&a, 0xfffffffeu, 0, 0, 1, 0);
	add(&a, 1, 3 * NS_30FPS, 0, 1, 3 * NS_30FPS); /* ff and 0 missing */
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.lost, 2);
	video_acct_release(&a);

	/* a restart (sequence back to 0 mid-stream) is not 4 billion lost frames */
	video_acct_init(&a);
	steady(&a, 1000, 5, NS_30FPS, 1);
	add(&a, 0, 5 * NS_30FPS + 1000000000ULL, 0, 1, 0);
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.seq_resets, 1);
	assert_nan(st.fps_sequence);
	video_acct_release(&a);
}

/* the wall clock and the driver's clock disagree: both are reported, each its own */
static void test_wall_vs_driver(void **state)
{
	struct video_acct a;
	struct video_stats st;
	uint32_t i;

	(void)state;
	video_acct_init(&a);
	for (i = 0; i < 61; i++)
		add(&a, i, i * NS_30FPS, 0, 10, i * NS_30FPS / 2);
	video_acct_finish(&a, 0, &st);
	assert_near(st.fps, 30.0, 1e-5);
	assert_near(st.fps_wall, 60.0, 1e-4);
	/* no nominal rate: the median interval is the histogram's unit */
	assert_near(st.hist_unit_us, 33333.333, 1e-3);
	assert_int_equal(st.hist[2], 60);
	video_acct_release(&a);
}

/* a 2x interval (one frame late by a period, none missing in the sequence) lands in 1.5-2.5x */
static void test_histogram_late(void **state)
{
	struct video_acct a;
	struct video_stats st;
	uint64_t ts = 0;
	uint32_t i;

	(void)state;
	video_acct_init(&a);
	for (i = 0; i < 50; i++) {
		ts += i == 25 ? 2 * NS_30FPS : NS_30FPS;
		add(&a, i, ts, 0, 10, ts);
	}
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.hist[4], 1);
	assert_int_equal(st.hist[2], 48);
	video_acct_release(&a);
}

/*
 * The rate sampled over half-second windows: a steady stream has 20 equal
 * samples in 10 s; 5 frames lost in one window pull that window's rate down.
 */
static void test_fps_samples(void **state)
{
	struct video_acct a;
	struct video_stats st;
	uint32_t seq;

	(void)state;
	video_acct_init(&a);
	steady(&a, 0, 301, NS_30FPS, 1000);
	video_acct_finish(&a, 30.0, &st);
	/* 300 intervals, 15 to a window of 0.5 s (the 15th reaches 499999995 ns: 16) */
	assert_int_equal(st.fps_samples, 300 / 16);
	assert_near(st.fps_sample_mean, 30.0, 1e-5);
	assert_near(st.fps_sample_stdev, 0, 1e-6);
	assert_near(st.fps_sample_min, 30.0, 1e-5);
	video_acct_release(&a);

	video_acct_init(&a);
	for (seq = 0; seq < 301; seq++)
		if (seq < 100 || seq >= 105)
			add(&a, seq, seq * NS_30FPS, 0, 1000, seq * NS_30FPS);
	video_acct_finish(&a, 30.0, &st);
	assert_true(st.fps_samples >= 15);
	assert_true(st.fps_sample_min < 25); /* the window with the gap */
	assert_true(st.fps_sample_stdev > 1);
	video_acct_release(&a);

	/* one interval: no spread to speak of */
	video_acct_init(&a);
	steady(&a, 0, 2, NS_30FPS, 1000);
	video_acct_finish(&a, 30.0, &st);
	assert_int_equal(st.fps_samples, 0);
	assert_true(isnan(st.fps_sample_stdev));
	video_acct_release(&a);
}

static void test_fourcc(void **state)
{
	char s[5];
	uint32_t f;

	(void)state;
	assert_int_equal(video_fourcc_parse("YUYV", &f), 0);
	assert_int_equal(f, V4L2_PIX_FMT_YUYV);
	video_fourcc_str(V4L2_PIX_FMT_MJPEG, s);
	assert_string_equal(s, "MJPG");
	assert_int_equal(video_fourcc_parse("Y8", &f), 0);
	video_fourcc_str(f, s);
	assert_string_equal(s, "Y8");
	assert_int_equal(video_fourcc_parse("TOOLONG", &f), -EINVAL);
	assert_int_equal(video_fourcc_parse("", &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_steady_30fps),   cmocka_unit_test(test_sequence_gap),
	    cmocka_unit_test(test_error_flagged),  cmocka_unit_test(test_jitter),
	    cmocka_unit_test(test_single_frame),   cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_sequence_wrap),  cmocka_unit_test(test_wall_vs_driver),
	    cmocka_unit_test(test_histogram_late), cmocka_unit_test(test_fourcc),
	    cmocka_unit_test(test_fps_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

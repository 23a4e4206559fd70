// SPDX-License-Identifier: MIT
/* classes/mtp: the file pattern, the space a run needs, the summaries, the findings, the rows. */
#include "unit.h"
#include "classes/mtp/fields.h"
#include "classes/mtp/mtp.h"

#include <stdlib.h>
#include <string.h>

/* a chunk anywhere in the stream is the same bytes, however the stream is cut */
static void test_pattern_cuts(void **state)
{
	static const size_t cuts[][3] = {{0, 1, 4096}, {7, 8, 9}, {3, 4093, 4100},
					 {8, 16, 24},  {1, 2, 3}, {4095, 4096, 4097}};
	const size_t len = 8192;
	unsigned char *whole = malloc(len), *parts = malloc(len);

	(void)state;
	mtp_pattern_fill(42, 0, whole, len);
	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		size_t from = 0;

		memset(parts, 0, len);
		for (size_t k = 0; k <= 3; k++) {
			size_t to = k < 3 ? cuts[i][k] : len;

			mtp_pattern_fill(42, from, parts + from, to - from);
			from = to;
		}
		print_message("pattern cut at %zu %zu %zu\n", cuts[i][0], cuts[i][1], cuts[i][2]);
		assert_memory_equal(whole, parts, len);
		assert_int_equal(mtp_pattern_mismatch(42, 0, parts, len), -1);
		assert_int_equal(mtp_pattern_mismatch(42, 100, parts + 100, len - 100), -1);
	}
	free(whole);
	free(parts);
}

/* not zeros, not a repeating block, not the same file for another seed */
static void test_pattern_content(void **state)
{
	unsigned char a[8192], b[4096], zero[4096] = {0};
	size_t zeros = 0;

	(void)state;
	mtp_pattern_fill(1, 0, a, sizeof(a));
	mtp_pattern_fill(2, 0, b, sizeof(b));
	assert_memory_not_equal(a, zero, 4096);
	assert_memory_not_equal(a, a + 4096, 4096);
	assert_memory_not_equal(a, b, 4096);
	for (size_t i = 0; i < sizeof(a); i++)
		zeros += !a[i];
	/* about 1 in 256 bytes zero for well-mixed bytes: far from a sparse file */
	assert_true(zeros < 100);
}

static void test_pattern_mismatch_offset(void **state)
{
	static const size_t at[] = {0, 1, 7, 8, 4095, 4096, 9999};
	unsigned char buf[10000];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		mtp_pattern_fill(7, 5000, buf, sizeof(buf));
		buf[at[i]] ^= 0x01;
		assert_int_equal(mtp_pattern_mismatch(7, 5000, buf, sizeof(buf)), (int64_t)at[i]);
		/* the right bytes at the wrong offset do not pass */
		buf[at[i]] ^= 0x01;
		assert_true(mtp_pattern_mismatch(7, 5001, buf, sizeof(buf)) >= 0);
	}
}

static void test_space_needed(void **state)
{
	static const struct {
		uint64_t sizes[3];
		size_t n;
		uint64_t objects, object_size, need;
	} cases[] = {
	    /* one file on the device at a time: the largest */
	    {{1 << 20, 16 << 20, 256 << 20}, 3, 200, 4096, (256 << 20) + MTP_SPACE_MARGIN},
	    {{256 << 20, 1 << 20}, 2, 0, 4096, (256 << 20) + MTP_SPACE_MARGIN},
	    /* the objects all at once, when they outweigh the largest file */
	    {{1 << 20}, 1, 1000, 4096, 1000 * 4096 + MTP_SPACE_MARGIN},
	    {{0}, 0, 0, 4096, MTP_SPACE_MARGIN},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(mtp_space_needed(cases[i].sizes, cases[i].n, cases[i].objects,
						  cases[i].object_size),
				 cases[i].need);
}

static void test_size_summary(void **state)
{
	struct mtp_size_result r = {
	    .bytes = 16000000, .n = 2, .send_s = {1, 2}, .get_s = {0.5, 0.5}};

	(void)state;
	mtp_size_finish(&r);
	assert_int_equal(r.send_mb_s.n, 2);
	assert_near(r.send_mb_s.mean, 12.0, 1e-9);
	assert_near(r.send_mb_s.stdev, 5.656854249492381, 1e-9);
	assert_near(r.send_mb_s.min, 8.0, 1e-9);
	assert_near(r.send_mb_s.max, 16.0, 1e-9);
	assert_near(r.get_mb_s.mean, 32.0, 1e-9);
	assert_near(r.get_mb_s.stdev, 0.0, 1e-9);
	r.n = 0;
	mtp_size_finish(&r);
	assert_nan(r.send_mb_s.mean);
}

static void test_objects_summary(void **state)
{
	struct mtp_objects_result r = {
	    .count = 200, .size = 4096, .sent = 200, .send_s = 4.0, .list_s = 0.5, .delete_s = 2.0};
	struct mtp_objects_row row;

	(void)state;
	mtp_objects_finish(&r);
	assert_near(r.send_per_s, 50.0, 1e-9);
	assert_near(r.list_per_s, 400.0, 1e-9);
	assert_near(r.delete_per_s, 100.0, 1e-9);
	assert_near(r.send_mb_s, 200 * 4096 / 4.0 / 1e6, 1e-12);
	mtp_objects_row_from(&r, &row);
	assert_int_equal(row.objects, 200);
	assert_int_equal(row.size, 4096);
	/* interrupted before the list: no list or delete rate */
	r = (struct mtp_objects_result){.count = 200, .size = 4096, .sent = 20, .send_s = 1.0};
	mtp_objects_finish(&r);
	assert_near(r.send_per_s, 20.0, 1e-9);
	assert_nan(r.list_per_s);
	assert_nan(r.delete_per_s);
}

static void test_size_row(void **state)
{
	struct mtp_size_result r = {
	    .bytes = 16 << 20, .n = 1, .send_s = {2}, .get_s = {1}, .verified = true};
	struct mtp_size_row row;

	(void)state;
	mtp_size_finish(&r);
	assert_int_equal(mtp_size_row_from(&r, 53.248, &row), 0);
	assert_string_equal(row.pass, "16M");
	assert_int_equal(row.repeats, 1);
	assert_near(row.send_mb_s, 16.777216 / 2, 1e-9);
	assert_near(row.get_s, 1.0, 1e-12);
	assert_near(row.ceiling_mb_s, 53.248, 1e-12);
	assert_true(row.verified);
	mtp_size_row_release(&row);
	assert_int_equal(mtp_size_row_from(&r, 0, &row), 0);
	assert_nan(row.ceiling_mb_s);
	mtp_size_row_release(&row);
}

static bool has(const struct finding_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id))
			return true;
	return false;
}

static void test_findings(void **state)
{
	/* 40 MB/s send, 42 get against high speed's 53.248 */
	struct mtp_size_result fast = {
	    .bytes = 16000000, .n = 1, .send_s = {0.4}, .get_s = {16.0 / 42}, .verified = true};
	struct mtp_size_result slow = {
	    .bytes = 16000000, .n = 1, .send_s = {4.0}, .get_s = {2.0}, .verified = true};
	/* 4 KiB objects at 100/s: 0.41 MB/s */
	struct mtp_objects_result objs = {.count = 100, .size = 4096, .sent = 100, .send_s = 1.0};
	static const struct {
		const char *what;
		enum usb_speed speed;
		double ceiling;
		bool slow, objects;
		bool full, below, overhead;
	} cases[] = {
	    {"fast high speed, no objects", USB_SPEED_HIGH, 53.248, false, false, false, false,
	     false},
	    {"fast, small objects slow", USB_SPEED_HIGH, 53.248, false, true, false, false, true},
	    {"8 MB/s at high speed", USB_SPEED_HIGH, 53.248, true, false, false, true, false},
	    {"full speed", USB_SPEED_FULL, 1.216, true, false, true, false, false},
	    {"ceiling unknown", USB_SPEED_UNKNOWN, 0, true, false, false, false, false},
	};

	(void)state;
	mtp_size_finish(&fast);
	mtp_size_finish(&slow);
	mtp_objects_finish(&objs);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct finding_list l = FINDING_LIST_INIT;
		struct mtp_analysis a = {
		    .device = "1-1",
		    .speed = cases[i].speed,
		    .ceiling_mb_s = cases[i].ceiling,
		    .sizes = cases[i].slow ? &slow : &fast,
		    .nsizes = 1,
		    .objects = cases[i].objects ? &objs : NULL,
		};

		print_message("findings: %s\n", cases[i].what);
		mtp_findings(&a, &l);
		assert_int_equal(has(&l, "mtp.full_speed_link"), cases[i].full);
		assert_int_equal(has(&l, "mtp.far_below_ceiling"), cases[i].below);
		assert_int_equal(has(&l, "mtp.object_overhead"), cases[i].overhead);
		assert_int_equal(l.n, cases[i].full + cases[i].below + cases[i].overhead);
		finding_list_release(&l);
	}
}

/* the sweep's finding: a size 20 % faster with the largest buffers, not below, not across sizes */
static void test_sweep_findings(void **state)
{
	struct mtp_sweep_row rows[] = {
	    {.buffer = 16384, .pass = "4M", .send_mb_s = 7.5, .get_mb_s = 12.8},
	    {.buffer = 16384, .pass = "16M", .send_mb_s = 8.0, .get_mb_s = 12.0},
	    {.buffer = 65536, .pass = "4M", .send_mb_s = 8.0, .get_mb_s = 13.0},
	    {.buffer = 262144, .pass = "4M", .send_mb_s = 16.2, .get_mb_s = 19.1},
	    {.buffer = 262144, .pass = "16M", .send_mb_s = 8.8, .get_mb_s = 13.1},
	};
	struct finding_list fl = FINDING_LIST_INIT;

	(void)state;
	mtp_sweep_findings(rows, 5, "3-1", &fl);
	/* 4M: 7.5 -> 16.2 send (+116 %); 16M: +10 % send, +9 % get: not one */
	assert_int_equal(fl.n, 1);
	assert_string_equal(fl.v[0].id, "mtp.small_buffers");
	assert_string_equal(fl.v[0].subject, "3-1");
	assert_non_null(strstr(fl.v[0].message, "4M files go 7.5/12.8 MB/s"));
	assert_non_null(strstr(fl.v[0].message, "with 262144 B (+116%)"));
	finding_list_release(&fl);
	/* one buffer size: nothing to compare */
	mtp_sweep_findings(rows, 1, "3-1", &fl);
	assert_int_equal(fl.n, 0);
	finding_list_release(&fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pattern_cuts),
	    cmocka_unit_test(test_pattern_content),
	    cmocka_unit_test(test_pattern_mismatch_offset),
	    cmocka_unit_test(test_space_needed),
	    cmocka_unit_test(test_size_summary),
	    cmocka_unit_test(test_objects_summary),
	    cmocka_unit_test(test_size_row),
	    cmocka_unit_test(test_findings),
	    cmocka_unit_test(test_sweep_findings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

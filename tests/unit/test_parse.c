// SPDX-License-Identifier: MIT
/* util/parse: the one strict parser for numbers from users, files and the wire. */
#include "unit.h"
#include "util/parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U64MAX UINT64_MAX
#define KI (1ULL << 10)
#define MI (1ULL << 20)
#define GI (1ULL << 30)
#define TI (1ULL << 40)
#define SENTINEL 0xdeadbeefcafef00dULL

struct u64_case {
	const char *in;
	uint64_t min, max;
	int ret;
	uint64_t want;
};

static const struct u64_case u64_cases[] = {
	{"0", 0, U64MAX, 0, 0},
	{"42", 0, U64MAX, 0, 42},
	{"007", 0, U64MAX, 0, 7},
	{"18446744073709551615", 0, U64MAX, 0, U64MAX},
	{"18446744073709551616", 0, U64MAX, -ERANGE, 0},
	{"99999999999999999999999", 0, U64MAX, -ERANGE, 0},
	{"10", 10, 20, 0, 10},
	{"20", 10, 20, 0, 20},
	{"9", 10, 20, -ERANGE, 0},
	{"21", 10, 20, -ERANGE, 0},
	{"", 0, U64MAX, -EINVAL, 0},
	{" 1", 0, U64MAX, -EINVAL, 0},
	{"\t1", 0, U64MAX, -EINVAL, 0},
	{"-1", 0, U64MAX, -EINVAL, 0},
	{"+1", 0, U64MAX, -EINVAL, 0},
	{"1 ", 0, U64MAX, -EINVAL, 0},
	{"1\n", 0, U64MAX, -EINVAL, 0},
	{"1a", 0, U64MAX, -EINVAL, 0},
	{"0x10", 0, U64MAX, -EINVAL, 0},
	{"1.0", 0, U64MAX, -EINVAL, 0},
	{"abc", 0, U64MAX, -EINVAL, 0},
	{"1K", 0, U64MAX, -EINVAL, 0}, /* suffixes are parse_size's business */
};

static void test_parse_u64(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(u64_cases); i++) {
		const struct u64_case *c = &u64_cases[i];
		uint64_t v = SENTINEL;
		int r = parse_u64(c->in, c->min, c->max, &v);
		uint64_t want = c->ret ? SENTINEL : c->want;

		if (r != c->ret || v != want)
			fail_msg("parse_u64(\"%s\", %llu, %llu) = %d, %llu; expected %d, %llu",
				 c->in, (unsigned long long)c->min, (unsigned long long)c->max, r,
				 (unsigned long long)v, c->ret, (unsigned long long)want);
	}
	assert_int_equal(parse_u64(NULL, 0, 1, NULL), -EINVAL);
}

static void test_parse_hex(void **state)
{
	static const struct {
		const char *s;
		uint64_t max;
		int ret;
		uint64_t want;
	} cases[] = {
		{"0781", 0xffff, 0, 0x781}, {"08", 0xff, 0, 8}, {"0xFF", 0xff, 0, 0xff},
		{"ffff", 0xffff, 0, 0xffff}, {"10000", 0xffff, -ERANGE, 0}, {"", 0xff, -EINVAL, 0},
		{"0x", 0xff, -EINVAL, 0},     {" 8", 0xff, -EINVAL, 0},	    {"8\n", 0xff, -EINVAL, 0},
		{"-1", 0xff, -EINVAL, 0},     {"g", 0xff, -EINVAL, 0},
		{"ffffffffffffffff", UINT64_MAX, 0, UINT64_MAX},
		{"10000000000000000", UINT64_MAX, -ERANGE, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 12345;
		int r = parse_hex(cases[i].s, cases[i].max, &v);

		if (r != cases[i].ret)
			fail_msg("parse_hex(\"%s\") = %d, expected %d", cases[i].s, r, cases[i].ret);
		assert_int_equal(v, r == 0 ? cases[i].want : 12345);
	}
}

static void test_parse_devnum(void **state)
{
	static const struct {
		const char *s;
		int ret;
		unsigned maj, min;
	} cases[] = {
		{"8:16", 0, 8, 16},	   {"259:0", 0, 259, 0}, {"4095:1048575", 0, 4095, 1048575},
		{"4096:0", -EINVAL, 0, 0}, {"8:", -EINVAL, 0, 0}, {":1", -EINVAL, 0, 0},
		{"8", -EINVAL, 0, 0},	   {"8:1x", -EINVAL, 0, 0}, {"-8:1", -EINVAL, 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned maj = 77, min = 77;
		int r = parse_devnum(cases[i].s, &maj, &min);

		if (r != cases[i].ret)
			fail_msg("parse_devnum(\"%s\") = %d, expected %d", cases[i].s, r, cases[i].ret);
		assert_int_equal(maj, r == 0 ? cases[i].maj : 77);
		assert_int_equal(min, r == 0 ? cases[i].min : 77);
	}
	assert_int_equal(parse_devnum(NULL, &(unsigned){0}, &(unsigned){0}), -EINVAL);
}

static void test_parse_size(void **state)
{
	static const struct u64_case cases[] = {
		{"0", 0, U64MAX, 0, 0},
		{"512", 0, U64MAX, 0, 512},
		{"7B", 0, U64MAX, 0, 7},
		{"7b", 0, U64MAX, 0, 7},
		/* binary: single letters in either case, and the KiB forms */
		{"4K", 0, U64MAX, 0, 4 * KI},
		{"4k", 0, U64MAX, 0, 4 * KI},
		{"4KiB", 0, U64MAX, 0, 4 * KI},
		{"1M", 0, U64MAX, 0, MI},
		{"1m", 0, U64MAX, 0, MI},
		{"3MiB", 0, U64MAX, 0, 3 * MI},
		{"2G", 0, U64MAX, 0, 2 * GI},
		{"2g", 0, U64MAX, 0, 2 * GI},
		{"1GiB", 0, U64MAX, 0, GI},
		{"1T", 0, U64MAX, 0, TI},
		{"5t", 0, U64MAX, 0, 5 * TI},
		{"2TiB", 0, U64MAX, 0, 2 * TI},
		/* decimal: the two-letter forms, exact case */
		{"1KB", 0, U64MAX, 0, 1000},
		{"64MB", 0, U64MAX, 0, 64000000},
		{"3GB", 0, U64MAX, 0, 3000000000ULL},
		{"2TB", 0, U64MAX, 0, 2000000000000ULL},
		{"4kb", 0, U64MAX, -EINVAL, 0},
		{"4kib", 0, U64MAX, -EINVAL, 0},
		{"4KIB", 0, U64MAX, -EINVAL, 0},
		/* junk */
		{"", 0, U64MAX, -EINVAL, 0},
		{" 4K", 0, U64MAX, -EINVAL, 0},
		{"-4K", 0, U64MAX, -EINVAL, 0},
		{"+4K", 0, U64MAX, -EINVAL, 0},
		{"4K ", 0, U64MAX, -EINVAL, 0},
		{"4 K", 0, U64MAX, -EINVAL, 0},
		{"K", 0, U64MAX, -EINVAL, 0},
		{"4x", 0, U64MAX, -EINVAL, 0},
		{"4KK", 0, U64MAX, -EINVAL, 0},
		{"4KB4", 0, U64MAX, -EINVAL, 0},
		{"4.5K", 0, U64MAX, -EINVAL, 0},
		{"0x10", 0, U64MAX, -EINVAL, 0},
		{"1e3", 0, U64MAX, -EINVAL, 0},
		{"4P", 0, U64MAX, -EINVAL, 0},
		/* overflow: of the number, and of number * suffix */
		{"18446744073709551615", 0, U64MAX, 0, U64MAX},
		{"18446744073709551616", 0, U64MAX, -ERANGE, 0},
		{"16777215T", 0, U64MAX, 0, 16777215ULL * TI},
		{"16777216T", 0, U64MAX, -ERANGE, 0},
		{"18446744073709551615K", 0, U64MAX, -ERANGE, 0},
		{"18446744073709552TB", 0, U64MAX, -ERANGE, 0},
		{"0T", 0, U64MAX, 0, 0},
		/* range, applied after the suffix */
		{"512", 512, 64 * MI, 0, 512},
		{"511", 512, 64 * MI, -ERANGE, 0},
		{"64M", 512, 64 * MI, 0, 64 * MI},
		{"65M", 512, 64 * MI, -ERANGE, 0},
		{"67108865", 512, 64 * MI, -ERANGE, 0},
		{"1G", 512, 64 * MI, -ERANGE, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct u64_case *c = &cases[i];
		uint64_t v = SENTINEL;
		int r = parse_size(c->in, c->min, c->max, &v);
		uint64_t want = c->ret ? SENTINEL : c->want;

		if (r != c->ret || v != want)
			fail_msg("parse_size(\"%s\", %llu, %llu) = %d, %llu; expected %d, %llu",
				 c->in, (unsigned long long)c->min, (unsigned long long)c->max, r,
				 (unsigned long long)v, c->ret, (unsigned long long)want);
	}
	assert_int_equal(parse_size(NULL, 0, 1, NULL), -EINVAL);
}

struct dbl_case {
	const char *in;
	double min, max;
	int ret;
	double want;
};

static void check_dbl_cases(const char *fn, int (*parse)(const char *, double, double, double *),
			    const struct dbl_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct dbl_case *c = &cases[i];
		double v = -12345.0;
		int r = parse(c->in, c->min, c->max, &v);
		double want = c->ret ? -12345.0 : c->want;

		if (r != c->ret || fabs(v - want) > 1e-9 * fabs(want))
			fail_msg("%s(\"%s\", %g, %g) = %d, %.17g; expected %d, %.17g", fn, c->in,
				 c->min, c->max, r, v, c->ret, want);
	}
}

static void test_parse_double(void **state)
{
	static const struct dbl_case cases[] = {
		{"0", 0, 1e9, 0, 0},
		{"1.5", 0, 1e9, 0, 1.5},
		{".5", 0, 1e9, 0, 0.5},
		{"5.", 0, 1e9, 0, 5},
		{"1e3", 0, 1e9, 0, 1000},
		{"2.5", 2.5, 2.5, 0, 2.5},
		{"2.4", 2.5, 3, -ERANGE, 0},
		{"3.01", 2.5, 3, -ERANGE, 0},
		{"1e400", 0, 1e9, -ERANGE, 0},
		{"", 0, 1e9, -EINVAL, 0},
		{".", 0, 1e9, -EINVAL, 0},
		{" 1", 0, 1e9, -EINVAL, 0},
		{"-1", -10, 10, -EINVAL, 0},
		{"+1", 0, 1e9, -EINVAL, 0},
		{"1 ", 0, 1e9, -EINVAL, 0},
		{"1.5x", 0, 1e9, -EINVAL, 0},
		{"inf", 0, 1e9, -EINVAL, 0},
		{"nan", 0, 1e9, -EINVAL, 0},
		{"e3", 0, 1e9, -EINVAL, 0},
	};

	(void)state;
	check_dbl_cases("parse_double", parse_double, cases, ARRAY_SIZE(cases));
}

/* parse.c promises to reject hex ("rejects inf, nan, hex"); strtod takes "0x10" as 16 */
static void test_parse_double_rejects_hex(void **state)
{
	static const struct dbl_case cases[] = {
		{"0x10", 0, 1e9, -EINVAL, 0},
		{"0x1p3", 0, 1e9, -EINVAL, 0},
	};

	(void)state;
	check_dbl_cases("parse_double", parse_double, cases, ARRAY_SIZE(cases));
}

static void test_parse_duration(void **state)
{
	static const struct dbl_case cases[] = {
		{"5", 0, 86400, 0, 5},
		{"5s", 0, 86400, 0, 5},
		{"250ms", 0, 86400, 0, 0.25},
		{"2m", 0, 86400, 0, 120},
		{"2min", 0, 86400, 0, 120},
		{"1h", 0, 86400, 0, 3600},
		{"1.5", 0, 86400, 0, 1.5},
		{"0.5s", 0, 86400, 0, 0.5},
		{"1.5m", 0, 86400, 0, 90},
		{".5h", 0, 86400, 0, 1800},
		{"1500ms", 0, 86400, 0, 1.5},
		{"24h", 0, 86400, 0, 86400},
		{"", 0, 86400, -EINVAL, 0},
		{"5x", 0, 86400, -EINVAL, 0},
		{"-1", 0, 86400, -EINVAL, 0},
		{"+1", 0, 86400, -EINVAL, 0},
		{" 5", 0, 86400, -EINVAL, 0},
		{"5 s", 0, 86400, -EINVAL, 0},
		{"5S", 0, 86400, -EINVAL, 0},
		{"5sec", 0, 86400, -EINVAL, 0},
		{"s", 0, 86400, -EINVAL, 0},
		{"ms", 0, 86400, -EINVAL, 0},
		{".", 0, 86400, -EINVAL, 0},
		{"1.2.3", 0, 86400, -EINVAL, 0},
		{"1e3", 0, 86400, -EINVAL, 0},
		{"inf", 0, 86400, -EINVAL, 0},
		/* range is checked on the value in seconds, after the unit */
		{"5ms", 0.01, 86400, -ERANGE, 0},
		{"10ms", 0.01, 86400, 0, 0.01},
		{"25h", 0.01, 86400, -ERANGE, 0},
		{"1441m", 0.01, 86400, -ERANGE, 0},
	};

	(void)state;
	check_dbl_cases("parse_duration", parse_duration, cases, ARRAY_SIZE(cases));
	assert_int_equal(parse_duration(NULL, 0, 1, NULL), -EINVAL);
}

struct list_case {
	const char *in;
	uint64_t min, max;
	size_t max_items;
	int ret;
	size_t n;
	uint64_t want[4];
};

static void test_parse_size_list(void **state)
{
	static const struct list_case cases[] = {
		{"4K", 512, 64 * MI, 8, 0, 1, {4 * KI}},
		{"4K,16K,1M", 512, 64 * MI, 8, 0, 3, {4 * KI, 16 * KI, MI}},
		{"1MB,512,1m", 512, 64 * MI, 8, 0, 3, {1000000, 512, MI}},
		{"4K,8K,16K,32K", 512, 64 * MI, 4, 0, 4, {4 * KI, 8 * KI, 16 * KI, 32 * KI}},
		{"4K,8K,16K,32K,64K", 512, 64 * MI, 4, -E2BIG, 0, {0}},
		{"4K", 512, 64 * MI, 0, -E2BIG, 0, {0}},
		{"", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{",", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{"4K,,8K", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{"4K,", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{",4K", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{"4K, 8K", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{"4K,x", 512, 64 * MI, 8, -EINVAL, 0, {0}},
		{"256,4K", 512, 64 * MI, 8, -ERANGE, 0, {0}},
		{"4K,128M", 512, 64 * MI, 8, -ERANGE, 0, {0}},
		{"00000000000000000000000000000000000000000000000000000000000000000001", 0, 8, 8,
		 -EINVAL, 0, {0}},
	};
	uint64_t *const sentinel_items = (uint64_t *)(uintptr_t)0x1234;
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct list_case *c = &cases[i];
		uint64_t *items = sentinel_items;
		size_t n = 777;
		int r = parse_size_list(c->in, c->min, c->max, c->max_items, &items, &n);

		if (r != c->ret)
			fail_msg("parse_size_list(\"%s\", max_items %zu) = %d, expected %d", c->in,
				 c->max_items, r, c->ret);
		if (r < 0) {
			if (items != sentinel_items || n != 777)
				fail_msg("parse_size_list(\"%s\") failed but changed its outputs",
					 c->in);
			continue;
		}
		if (n != c->n)
			fail_msg("parse_size_list(\"%s\"): %zu items, expected %zu", c->in, n,
				 c->n);
		for (j = 0; j < n; j++)
			if (items[j] != c->want[j])
				fail_msg("parse_size_list(\"%s\")[%zu] = %llu, expected %llu",
					 c->in, j, (unsigned long long)items[j],
					 (unsigned long long)c->want[j]);
		free(items);
	}
	assert_int_equal(parse_size_list(NULL, 0, 1, 1, NULL, NULL), -EINVAL);
}

static void test_format_size(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{0, "0"},
		{1, "1"},
		{512, "512"},
		{1023, "1023"},
		{1024, "1K"},
		{1536, "1536"},
		{4096, "4K"},
		{MI + KI, "1025K"},
		{MI, "1M"},
		{64 * MI, "64M"},
		{3 * GI, "3G"},
		{TI, "1T"},
		{1ULL << 50, "1024T"},
		{1000000, "1000000"},
		{U64MAX, "18446744073709551615"},
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t back = 0;

		memset(buf, 'x', sizeof(buf));
		format_size(cases[i].v, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want))
			fail_msg("format_size(%llu) = \"%s\", expected \"%s\"",
				 (unsigned long long)cases[i].v, buf, cases[i].want);
		/* what is printed parses back to the same size */
		assert_int_equal(parse_size(buf, 0, U64MAX, &back), 0);
		assert_int_equal(back, cases[i].v);
	}
	/* a short buffer truncates but stays NUL-terminated */
	memset(buf, 'x', sizeof(buf));
	format_size(64 * MI, buf, 2);
	assert_string_equal(buf, "6");
	assert_int_equal(buf[2], 'x');
}

static void test_sanitize_string(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"", ""},
		{"abc", "abc"},
		{"abc\n", "abc"},
		{"abc\r\n", "abc"},
		{"abc\n\n", "abc"},
		{"\n", ""},
		{"a\tb", "a?b"},
		{"a\nb\n", "a?b"},
		{"\x1b[31mred", "?[31mred"},
		{"del\x7f", "del?"},
		{"\x01\x1f ok", "?? ok"},
		{"caf\xc3\xa9", "caf\xc3\xa9"}, /* UTF-8 is not a control character */
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		sanitize_string(buf);
		if (strcmp(buf, cases[i].want))
			fail_msg("sanitize_string(case %zu) = \"%s\", expected \"%s\"", i, buf,
				 cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_hex),
		cmocka_unit_test(test_parse_devnum),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_parse_double_rejects_hex),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_parse_size_list),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_sanitize_string),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/* platform/sys/cpustat: the aggregate line of /proc/stat and CPU use between two samples. */
#include "unit.h"
#include "platform/sys/cpustat.h"
#include "util/sysroot.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

struct parse_case {
	const char *what;
	const char *text;
	int ret;
	struct cpu_times want;
};

static const struct parse_case parse_cases[] = {
	{"linux 5.x, 10 columns",
	 "cpu  10132153 290696 3084719 46828483 16683 0 25195 0 175628 0\n"
	 "cpu0 1393280 32966 572056 13343292 6130 0 17875 0 23933 0\n"
	 "intr 199292797 43 0 0\nctxt 4096\nbtime 1700000000\n",
	 0,
	 {10132153, 290696, 3084719, 46828483, 16683, 0, 25195, 0}},
	{"8 columns (2.6.11)", "cpu  1 2 3 4 5 6 7 8\n", 0, {1, 2, 3, 4, 5, 6, 7, 8}},
	{"7 columns (2.6.0)", "cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n", 0,
	 {1, 2, 3, 4, 5, 6, 7, 0}},
	{"4 columns (2.4)", "cpu  100 20 30 4000\ncpu0 100 20 30 4000\n", 0,
	 {100, 20, 30, 4000, 0, 0, 0, 0}},
	{"no newline", "cpu 1 2 3 4", 0, {1, 2, 3, 4, 0, 0, 0, 0}},
	{"trailing space", "cpu 1 2 3 4 \n", 0, {1, 2, 3, 4, 0, 0, 0, 0}},
	{"largest value", "cpu 18446744073709551615 0 0 0\n", 0, {UINT64_MAX, 0, 0, 0, 0, 0, 0, 0}},
	{"empty", "", -EINVAL, {0}},
	{"three columns", "cpu  1 2 3\n", -EINVAL, {0}},
	{"no columns", "cpu \n", -EINVAL, {0}},
	{"bare cpu", "cpu\n", -EINVAL, {0}},
	{"per-cpu line only", "cpu0 1 2 3 4\n", -EINVAL, {0}},
	{"upper case", "CPU 1 2 3 4\n", -EINVAL, {0}},
	{"tab separator", "cpu\t1 2 3 4\n", -EINVAL, {0}},
	{"letters", "cpu  a b c d\n", -EINVAL, {0}},
	{"negative", "cpu  1 2 -3 4\n", -EINVAL, {0}},
	{"junk in a number", "cpu  1 2 3 4x 5\n", -EINVAL, {0}},
	{"overflow", "cpu  1 2 3 18446744073709551616\n", -EINVAL, {0}},
	{"huge token", "cpu  1 2 3 0000000000000000000000000000000000000004\n", -EINVAL, {0}},
	{"garbage", "\x01\x02\xff garbage\n", -EINVAL, {0}},
};

static void test_cpustat_parse(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];
		struct cpu_times t, sentinel;
		int r;

		memset(&sentinel, 0x77, sizeof(sentinel));
		t = sentinel;
		r = cpustat_parse(c->text, &t);
		if (r != c->ret)
			fail_msg("%s: cpustat_parse = %d, expected %d", c->what, r, c->ret);
		if (r < 0 && memcmp(&t, &sentinel, sizeof(t)))
			fail_msg("%s: failed but wrote its output", c->what);
		if (r == 0 && memcmp(&t, &c->want, sizeof(t)))
			fail_msg("%s: got %llu %llu %llu %llu %llu %llu %llu %llu", c->what,
				 (unsigned long long)t.user, (unsigned long long)t.nice,
				 (unsigned long long)t.system, (unsigned long long)t.idle,
				 (unsigned long long)t.iowait, (unsigned long long)t.irq,
				 (unsigned long long)t.softirq, (unsigned long long)t.steal);
	}
}

struct use_case {
	const char *what;
	struct cpu_sample a, b;
	double user, sys, iowait, irq, self_s, self_pct, pressure, wait; /* NaN: unknown */
	double busy_jiffies, wall_s; /* busy_pct: 100 x busy_jiffies / (CLK_TCK x wall_s) */
};

static void test_cpu_use_between(void **state)
{
	const struct use_case cases[] = {
		{"from zero",
		 {{0}, 1.0, 0.5, 10.0, 0, 0},
		 {{10, 10, 20, 40, 10, 3, 7, 0}, 2.0, 1.0, 12.0, 0.5, 0.25},
		 20, 20, 10, 10, 1.5, 75, 25, 12.5, 50, 2},
		{"steal counts in the total; no PSI",
		 {{0}, 0, 0, 0, NAN, NAN},
		 {{10, 10, 20, 40, 10, 3, 7, 100}, 0, 0.25, 0.5, NAN, NAN},
		 10, 10, 5, 5, 0.25, 50, NAN, NAN, 50, 0.5},
		{"from a baseline",
		 {{1000, 0, 500, 8000, 100, 0, 0, 0}, 3.0, 1.0, 100, 10, 7.0},
		 {{1050, 0, 525, 8400, 125, 0, 0, 0}, 3.5, 1.5, 104, 13, 7.1},
		 10, 5, 5, 0, 1.0, 25, 75, 2.5, 75, 4},
		{"idle only", 
		 {{5, 5, 5, 5, 0, 0, 0, 0}, 0, 0, 1, 3, 0.5},
		 {{5, 5, 5, 1005, 0, 0, 0, 0}, 0, 0, 2, 3, 0.5},
		 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
		{"no time passed",
		 {{7, 7, 7, 7, 7, 7, 7, 7}, 1, 1, 5, 1, 1},
		 {{7, 7, 7, 7, 7, 7, 7, 7}, 1, 1, 5, 1, 1},
		 NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, NAN, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct use_case *c = &cases[i];
		struct cpu_use u;

		memset(&u, 0x55, sizeof(u));
		cpu_use_between(&c->a, &c->b, &u);
		print_message("cpu_use_between: %s\n", c->what);
#define CHECK(field, want)                                                                     \
	do {                                                                                   \
		if (isnan(want))                                                               \
			assert_nan(u.field);                                                   \
		else                                                                           \
			assert_near(u.field, want, 1e-12);                                     \
	} while (0)
		CHECK(user_pct, c->user);
		CHECK(pressure_pct, c->pressure);
		CHECK(wait_pct, c->wait);
		CHECK(busy_pct, c->wall_s > 0 ? 100.0 * c->busy_jiffies /
						     ((double)sysconf(_SC_CLK_TCK) * c->wall_s)
					       : NAN);
		CHECK(sys_pct, c->sys);
		CHECK(iowait_pct, c->iowait);
		CHECK(irq_pct, c->irq);
		CHECK(self_s, c->self_s);
		CHECK(self_pct, c->self_pct);
		/* the kernel's jiffies (system, irq, softirq) and our own user time */
		CHECK(io_pct, c->wall_s > 0 ? 100.0 *
						  ((double)(c->b.sys.system + c->b.sys.irq +
							    c->b.sys.softirq - c->a.sys.system -
							    c->a.sys.irq - c->a.sys.softirq) /
						       (double)sysconf(_SC_CLK_TCK) +
						   c->b.self_user_s - c->a.self_user_s) /
						  c->wall_s
					    : NAN);
#undef CHECK
	}
}

/* /proc/pressure/cpu: the "some" line's total, in seconds; anything else refused */
static void test_psi_parse(void **state)
{
	double s = -1;

	(void)state;
	assert_int_equal(psi_parse_some("some avg10=1.14 avg60=28.73 avg300=53.92 total=5363138467\n"
					"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
					&s),
			 0);
	assert_near(s, 5363.138467, 1e-9);
	assert_int_equal(psi_parse_some("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &s), 0);
	assert_near(s, 0, 0);
	s = -1;
	assert_int_equal(psi_parse_some("full avg10=0.00 total=12\n", &s), -EINVAL);
	assert_int_equal(psi_parse_some("some avg10=0.00\nfull total=12\n", &s), -EINVAL);
	assert_int_equal(psi_parse_some("some total=\n", &s), -EINVAL);
	assert_int_equal(psi_parse_some("some total=99999999999999999999999\n", &s), -EINVAL);
	assert_near(s, -1, 0);
}

/* /proc/thread-self/schedstat: "run_ns delay_ns timeslices", the delay in seconds */
static void test_schedstat_parse(void **state)
{
	double s = -1;

	(void)state;
	assert_int_equal(schedstat_parse_delay("5846042 13255426 12\n", &s), 0);
	assert_near(s, 0.013255426, 1e-15);
	assert_int_equal(schedstat_parse_delay("0 0 0\n", &s), 0);
	assert_near(s, 0, 0);
	assert_int_equal(schedstat_parse_delay("18446744073709551615 7", &s), 0);
	assert_near(s, 7e-9, 1e-20);
	s = -1;
	assert_int_equal(schedstat_parse_delay("5846042\n", &s), -EINVAL);
	assert_int_equal(schedstat_parse_delay("", &s), -EINVAL);
	assert_int_equal(schedstat_parse_delay("1 -2 3\n", &s), -EINVAL);
	assert_int_equal(schedstat_parse_delay("1 2x 3\n", &s), -EINVAL);
	assert_int_equal(schedstat_parse_delay("1 99999999999999999999999 3\n", &s), -EINVAL);
	assert_near(s, -1, 0);
}

static void test_sample_take(void **state)
{
	struct cpu_sample a, b, sentinel;
	struct cpu_use u;
	volatile double x = 0;
	int i;

	(void)state;
	sysroot_set(NULL);
	assert_int_equal(cpu_sample_take(&a), 0);
	for (i = 0; i < 2000000; i++) /* burn a little of our own CPU */
		x += i * 0.5;
	assert_true(x > 0);
	assert_int_equal(cpu_sample_take(&b), 0);
	assert_true(a.sys.idle > 0 || a.sys.user > 0);
	assert_true(b.wall_s > a.wall_s);
	assert_true(b.self_user_s + b.self_sys_s >= a.self_user_s + a.self_sys_s);
	cpu_use_between(&a, &b, &u);
	assert_true(u.self_s >= 0);
	/* this thread's schedstat, where the kernel keeps one: a delay that only grows */
	if (access("/proc/thread-self/schedstat", R_OK) == 0) {
		assert_true(a.self_wait_s >= 0 && b.self_wait_s >= a.self_wait_s);
		assert_true(u.wait_pct >= 0 && u.wait_pct <= 100);
	}
	assert_true(u.io_pct >= 0);

	/* no /proc/stat under the root: an error, and the output left alone */
	sysroot_set("/nonexistent-usbperf-root");
	memset(&sentinel, 0x33, sizeof(sentinel));
	a = sentinel;
	assert_int_equal(cpu_sample_take(&a), -ENOENT);
	assert_memory_equal(&a, &sentinel, sizeof(a));
	sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpustat_parse),
		cmocka_unit_test(test_cpu_use_between),
		cmocka_unit_test(test_psi_parse),
		cmocka_unit_test(test_schedstat_parse),
		cmocka_unit_test(test_sample_take),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

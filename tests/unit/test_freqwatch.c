// SPDX-License-Identifier: MIT
/*
 * The CPU clock during a pass, on a fake sysroot whose frequency file
 * changes while the watch runs: min, mean and max follow it, and a policy
 * that ran below its top under a scaling governor is the slowest.
 */
#include "unit.h"
#include "platform/sys/freqwatch.h"
#include "platform/sys/governor.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define POL "/sys/devices/system/cpu/cpufreq"

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "mkdir -p '%s%s'", root, rel);
	assert_int_equal(system(p), 0);
}

static void test_changing_clock(void **state)
{
	struct freqwatch w;
	const struct freq_policy_use *slow;
	double pct = 0;
	char cmd[128];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/usbperf-freqwatch.XXXXXX");
	assert_non_null(mkdtemp(root));
	mkdirs(POL "/policy0");
	mkdirs(POL "/policy4");
	put(POL "/policy0/scaling_cur_freq", "408000\n");
	put(POL "/policy0/scaling_governor", "schedutil\n");
	put(POL "/policy0/cpuinfo_max_freq", "1800000\n");
	put(POL "/policy4/scaling_cur_freq", "2208000\n");
	put(POL "/policy4/scaling_governor", "performance\n");
	put(POL "/policy4/cpuinfo_max_freq", "2208000\n");
	sysroot_set(root);
	assert_int_equal(freqwatch_start(&w, 5), 0);
	assert_int_equal(w.npol, 2);
	usleep(60 * 1000);
	/* the governor raises the clock mid-pass */
	put(POL "/policy0/scaling_cur_freq", "1416000\n");
	usleep(60 * 1000);
	freqwatch_stop(&w);
	assert_string_equal(w.pol[0].name, "policy0");
	assert_string_equal(w.pol[0].governor, "schedutil");
	assert_int_equal(w.pol[0].max_khz, 1800000);
	assert_true(w.pol[0].samples >= 4);
	assert_int_equal(w.pol[0].min_khz, 408000);
	assert_int_equal(w.pol[0].max_seen_khz, 1416000);
	assert_true(w.pol[0].mean_khz > 408000 && w.pol[0].mean_khz < 1416000);
	assert_int_equal(w.pol[1].min_khz, 2208000);
	slow = freqwatch_slowest(&w, &pct);
	assert_non_null(slow);
	assert_string_equal(slow->name, "policy0");
	assert_true(pct > 22 && pct < 79);
	/* the performance governor at its top is never the slow one */
	put(POL "/policy0/scaling_governor", "performance\n");
	assert_int_equal(freqwatch_start(&w, 5), 0);
	freqwatch_stop(&w);
	assert_null(freqwatch_slowest(&w, &pct));
	sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* no cpufreq (a VM): no policies, no thread, nothing slow */
static void test_no_cpufreq(void **state)
{
	struct freqwatch w;
	double pct;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/usbperf-freqwatch.XXXXXX");
	assert_non_null(mkdtemp(root));
	sysroot_set(root);
	assert_int_equal(freqwatch_start(&w, 5), 0);
	assert_int_equal(w.npol, 0);
	freqwatch_stop(&w);
	assert_null(freqwatch_slowest(&w, &pct));
	sysroot_set(NULL);
	rmdir(root);
}

static void get(const char *rel, char *buf, size_t len)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* run --governor: all switched, each put back; a governor one policy lacks switches none */
static void test_governor(void **state)
{
	struct governor_saved gs;
	char *why = NULL, b[64], cmd[128];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/usbperf-freqwatch.XXXXXX");
	assert_non_null(mkdtemp(root));
	sysroot_set(root);
	assert_int_equal(governor_switch("performance", &gs, &why), -ENOENT);
	assert_non_null(strstr(why, "no cpufreq here"));
	free(why);
	why = NULL;
	mkdirs(POL "/policy0");
	mkdirs(POL "/policy4");
	put(POL "/policy0/scaling_governor", "schedutil\n");
	put(POL "/policy0/scaling_available_governors",
	    "ondemand userspace powersave performance schedutil\n");
	put(POL "/policy4/scaling_governor", "ondemand\n");
	put(POL "/policy4/scaling_available_governors", "ondemand performance\n");
	assert_int_equal(governor_switch("powersave", &gs, &why), -EINVAL);
	assert_non_null(strstr(why, "policy4 does not offer the governor 'powersave'"));
	free(why);
	why = NULL;
	get(POL "/policy0/scaling_governor", b, sizeof(b));
	assert_string_equal(b, "schedutil"); /* refused before any switch */
	assert_int_equal(governor_switch("performance", &gs, &why), 0);
	assert_int_equal(gs.n, 2);
	get(POL "/policy0/scaling_governor", b, sizeof(b));
	assert_string_equal(b, "performance");
	get(POL "/policy4/scaling_governor", b, sizeof(b));
	assert_string_equal(b, "performance");
	assert_int_equal(governor_restore(&gs), 0);
	get(POL "/policy0/scaling_governor", b, sizeof(b));
	assert_string_equal(b, "schedutil");
	get(POL "/policy4/scaling_governor", b, sizeof(b));
	assert_string_equal(b, "ondemand");
	assert_int_equal(governor_restore(&gs), 0); /* idempotent */
	sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_changing_clock),
	    cmocka_unit_test(test_no_cpufreq),
	    cmocka_unit_test(test_governor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

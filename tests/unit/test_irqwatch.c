// SPDX-License-Identifier: MIT
/*
 * Interrupt placement (issue 20.3): the three /proc files of a 4-CPU board
 * before and after a pass (tests/fixtures/irq, the deltas in its README),
 * taken through a sysroot whose files change during a passwatch; parsers
 * fed broken text; the lines of a device; the findings' thresholds over the
 * record's rows.
 */
#include "unit.h"
#include "model/findings.h"
#include "run/class.h"
#include "run/pass_sys.h"
#include "model/record.h"
#include "run/run.h"
#include "platform/sys/irqwatch.h"
#include "platform/sys/passwatch.h"
#include "platform/sys/sysinfo.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *fixture(const char *name)
{
	const char *dir = getenv("USBPERF_FIXTURES");
	char path[512];
	struct strbuf sb = STRBUF_INIT;
	FILE *f;
	char buf[4096];
	size_t n;

	snprintf(path, sizeof(path), "%s/irq/%s", dir ? dir : "tests/fixtures", name);
	f = fopen(path, "re");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	return strbuf_detach(&sb);
}

static void parse_all(const char *when, const char *lines, struct irq_snapshot *s)
{
	char name[64], *t;

	memset(s, 0, sizeof(*s));
	snprintf(name, sizeof(name), "interrupts.%s", when);
	t = fixture(name);
	assert_int_equal(irq_parse_interrupts(t, lines, s), 0);
	free(t);
	snprintf(name, sizeof(name), "stat.%s", when);
	t = fixture(name);
	assert_int_equal(irq_parse_stat(t, s), 0);
	free(t);
	snprintf(name, sizeof(name), "softirqs.%s", when);
	t = fixture(name);
	assert_int_equal(irq_parse_softirqs(t, s), 0);
	free(t);
}

static void test_deltas(void **state)
{
	struct irq_snapshot a, b;
	struct irq_use u;
	char *per;

	(void)state;
	parse_all("before", "48", &a);
	parse_all("after", "48", &b);
	assert_true(a.have_lines && a.have_stat);
	assert_int_equal(a.ncpu, 4);
	irq_use_between(&a, &b, 0, 90, &u);
	assert_int_equal(u.count, 25000);
	assert_int_equal(u.per_cpu[0], 25000);
	assert_int_equal(u.per_cpu[1], 0);
	assert_int_equal(u.irq_cpu, 0);
	assert_near(u.irq_cpu_pct, 100, 1e-9);
	assert_int_equal(u.busy_cpu, 0);
	assert_near(u.busy_share_pct, 70, 1e-9);
	assert_near(u.others_busy_pct, 10, 1e-9);
	assert_int_equal(u.busy_softirq, 15000);
	assert_int_equal(u.io_cpu, 0);
	per = irq_use_per_cpu(&u);
	assert_string_equal(per, "cpu0 25000");
	free(per);

	/* two lines: usb3's 7 on CPU1 join in */
	parse_all("before", "48,49", &a);
	parse_all("after", "48,49", &b);
	irq_use_between(&a, &b, IRQ_CPU_UNKNOWN, NAN, &u);
	assert_int_equal(u.count, 25007);
	assert_int_equal(u.per_cpu[1], 7);
	assert_int_equal(u.io_cpu, IRQ_CPU_UNKNOWN);
	per = irq_use_per_cpu(&u);
	assert_string_equal(per, "cpu0 25000, cpu1 7");
	free(per);

	/* no line known: the counts are unknown, the CPU shares are still there */
	parse_all("before", NULL, &a);
	parse_all("after", NULL, &b);
	irq_use_between(&a, &b, IRQ_CPU_UNKNOWN, NAN, &u);
	assert_true(u.count == IRQ_UNKNOWN);
	assert_int_equal(u.irq_cpu, IRQ_CPU_UNKNOWN);
	assert_null(irq_use_per_cpu(&u));
	assert_near(u.busy_share_pct, 70, 1e-9);
}

static void test_fold(void **state)
{
	struct irq_snapshot a, b;
	struct irq_use one, sum;

	(void)state;
	parse_all("before", "48,49", &a);
	parse_all("after", "48,49", &b);
	irq_use_between(&a, &b, 2, 60, &one);
	irq_use_unknown(&sum);
	irq_use_fold(&sum, &one);
	irq_use_fold(&sum, &one);
	assert_int_equal(sum.count, 50014);
	assert_int_equal(sum.per_cpu[1], 14);
	assert_int_equal(sum.irq_cpu, 0);
	assert_near(sum.busy_share_pct, 70, 1e-9);
	assert_int_equal(sum.io_cpu, 2);
}

/* text that is not the file, or is cut short: refused or partial, never a crash or a made-up count
 */
static void test_broken(void **state)
{
	static const char *const bad[] = {
	    "", "\n", "garbage\n 48: 1 2\n", "CPU0 CPUx\n 48: 1 2\n", "CPU99999999999999999999\n",
	};
	struct irq_snapshot s;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&s, 0, sizeof(s));
		assert_true(irq_parse_interrupts(bad[i], "48", &s) < 0);
		assert_false(s.have_lines);
	}
	/* a row cut short keeps what it has; a count past the columns is not one */
	memset(&s, 0, sizeof(s));
	assert_int_equal(
	    irq_parse_interrupts("  CPU0 CPU1\n 48: 5\n 49: 1 2 3 GIC\n 4", "48,49", &s), 0);
	assert_int_equal(s.line[0], 6);
	assert_int_equal(s.line[1], 2);
	/* a CPU above the kept ones is left out, not written past the arrays */
	memset(&s, 0, sizeof(s));
	assert_int_equal(irq_parse_interrupts("CPU0 CPU200\n48: 1 2\n", "48", &s), 0);
	assert_int_equal(s.ncpu, 1);
	assert_int_equal(s.line[0], 1);
	memset(&s, 0, sizeof(s));
	assert_true(irq_parse_stat("cpu 1 2 3\n", &s) < 0);
	assert_true(irq_parse_stat("cpu0 1 2 3\n", &s) < 0);
	assert_int_equal(irq_parse_stat("cpu  1 2 3 4 5 6 7\ncpu1 1 2 3 4 5 6 7\n", &s), 0);
	assert_int_equal(s.ncpu, 2);
	assert_int_equal(s.intr_ticks[1], 13);
	assert_int_equal(s.total_ticks[1], 28);
}

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_fixture(const char *rel, const char *name)
{
	char *t = fixture(name);

	put(rel, t);
	free(t);
}

static void mkdirs(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "mkdir -p '%s%s'", root, rel);
	assert_int_equal(system(p), 0);
}

/* a pass on a fake board: the files change between start and stop, the clock with them */
static void test_passwatch(void **state)
{
	struct passwatch w;
	struct pass_sys s;
	char cmd[128], *lines = NULL;
	double lo, mean, hi, pct;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/usbperf-irqwatch.XXXXXX");
	assert_non_null(mkdtemp(root));
	mkdirs("/proc");
	mkdirs("/sys/devices/system/cpu/cpufreq/policy0");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "408000\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "ondemand\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq", "1416000\n");
	put_fixture("/proc/interrupts", "interrupts.before");
	put_fixture("/proc/stat", "stat.before");
	put_fixture("/proc/softirqs", "softirqs.before");
	sysroot_set(root);
	/* the line of root hub usb1, by its name: a platform xHCI has no irq attribute */
	assert_int_equal(irq_lines_of_device(NULL, "usb1", &lines), 0);
	assert_string_equal(lines, "48");
	assert_int_equal(passwatch_start(&w, lines), 0);
	put_fixture("/proc/interrupts", "interrupts.after");
	put_fixture("/proc/stat", "stat.after");
	put_fixture("/proc/softirqs", "softirqs.after");
	usleep(250 * 1000);
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "1416000\n");
	usleep(250 * 1000);
	passwatch_stop(&w, 0.5, &s);
	sysroot_set(NULL);
	assert_int_equal(s.irq.count, 25000);
	assert_int_equal(s.irq.irq_cpu, 0);
	assert_near(s.irq.busy_share_pct, 70, 1e-9);
	/* the real /proc of this very thread: some CPU, whichever it was */
	assert_true(s.irq.io_cpu >= 0);
	assert_true(pass_sys_clock(&s, &lo, &mean, &hi, &pct));
	assert_near(lo, 408, 1e-9);
	assert_near(hi, 1416, 1e-9);
	assert_true(mean > 408 && mean < 1416);
	assert_string_equal(s.clock_governor, "ondemand");
	free(lines);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* the lines from sysfs: a PCI controller's msi_irqs, found from a device below it */
static void test_lines_sysfs(void **state)
{
	char cmd[128], *lines = NULL;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/usbperf-irqwatch.XXXXXX");
	assert_non_null(mkdtemp(root));
	mkdirs("/proc");
	mkdirs("/sys/devices/pci0000:00/0000:00:14.0/msi_irqs");
	mkdirs("/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1");
	put("/sys/devices/pci0000:00/0000:00:14.0/msi_irqs/125", "msi\n");
	put("/sys/devices/pci0000:00/0000:00:14.0/msi_irqs/126", "msi\n");
	put("/sys/devices/pci0000:00/0000:00:14.0/irq", "16\n");
	put("/proc/interrupts", "  CPU0\n125: 1 PCI-MSI xhci_hcd\n");
	sysroot_set(root);
	assert_int_equal(
	    irq_lines_of_device("/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1", "usb2", &lines),
	    0);
	sysroot_set(NULL);
	/* MSI first: with MSI on, the legacy irq attribute names a line nobody raises */
	assert_string_equal(lines, "125,126");
	free(lines);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* one device's pass with these placement rows */
static void build(struct run_result *r, struct sysinfo_facts *si, double share, double others,
		  double irq_cpu, double io_cpu, double count)
{
	static const char *const keys[] = {
	    "irq_share_pct", "irq_others_busy_pct", "irq_share_cpu", "irq_cpu",
	    "io_cpu",	     "irq_count",	    "irq_cpu_pct"};
	double v[] = {share, others, 0, irq_cpu, io_cpu, count, 100};
	struct run_device *d;

	memset(r, 0, sizeof(*r));
	memset(si, 0, sizeof(*si));
	si->ncpus_online = 4;
	r->si = si;
	d = run_record_add_device(&r->rec);
	d->key = strdup("1-1");
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		struct run_metric *m = run_record_add_metric(&r->rec, "1-1", "disk", "seq-read 1M",
							     keys[i], "%", false);

		m->value = v[i];
	}
}

static const struct finding *find(const struct run_result *r, const char *id)
{
	for (size_t i = 0; i < r->rec.findings.n; i++)
		if (!strcmp(r->rec.findings.v[i].id, id))
			return &r->rec.findings.v[i];
	return NULL;
}

static void test_findings(void **state)
{
	static const struct {
		double share, others, irq_cpu, io_cpu, count;
		bool saturated, same;
	} t[] = {
	    {70, 10, 0, 1, 25000, true, false},
	    {60, 30, 0, 1, 25000, true, false},	   /* both bounds are in */
	    {59.9, 10, 0, 1, 25000, false, false}, /* below the share */
	    {80, 30.1, 0, 1, 25000, false, false}, /* the others were busy too: no idle core */
	    {20, 10, 2, 2, 25000, false, true},	   /* the I/O thread on the interrupts' core */
	    {20, 10, 2, 2, 99, false, false},	   /* too few interrupts to say */
	    {20, NAN, 2, 2, 25000, false, false},  /* one CPU: nowhere else */
	    {20, 10, NAN, 2, NAN, false, false},   /* no line known */
	};
	struct sysinfo_facts si;
	struct run_result r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		const struct finding *f;

		build(&r, &si, t[i].share, t[i].others, t[i].irq_cpu, t[i].io_cpu, t[i].count);
		run_pass_sys_findings(&r);
		f = find(&r, "run.irq_saturated");
		if (t[i].saturated != (f != NULL))
			fail_msg("case %zu: run.irq_saturated %s", i, f ? "found" : "missing");
		if (f) {
			assert_string_equal(f->severity, "warn");
			/* CPUs 1-3 of 4: the mask without CPU 0 */
			assert_non_null(strstr(f->fix, "echo e > /proc/irq/N/smp_affinity"));
			assert_non_null(strstr(f->fix, "irqbalance"));
			assert_non_null(strstr(f->evidence, "CPU 0"));
		}
		f = find(&r, "run.irq_same_cpu");
		if (t[i].same != (f != NULL))
			fail_msg("case %zu: run.irq_same_cpu %s", i, f ? "found" : "missing");
		if (f) {
			assert_non_null(strstr(f->fix, "echo b > /proc/irq/N/smp_affinity"));
			assert_non_null(strstr(f->fix, "taskset -c 0,1,3 usbperf"));
		}
		r.si = NULL; /* the test's, not the run's to free */
		run_result_release(&r);
	}
}

/* the clock rule for a class other than disk, from its rows and the run's governor */
static void test_clock_findings(void **state)
{
	static const struct {
		const char *test, *governor;
		double pct, self_cpu;
		const char *severity; /* NULL: no finding */
	} t[] = {
	    {"net", "schedutil", 50, 20, "info"},
	    {"net", "schedutil", 50, 90, "warn"}, /* CPU-bound at a low clock */
	    {"video", "ondemand", 89.9, NAN, "info"},
	    {"net", "schedutil", 90, 90, NULL},	  /* at 90 % of the top: not low */
	    {"net", "performance", 50, 90, NULL}, /* the governor does not scale */
	    {"bulk", NULL, 50, 90, NULL},	  /* no cpufreq */
	    {"disk", "schedutil", 50, 90, NULL},  /* disk's own rule reads its rows */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct run_result r;
		struct run_device *d;
		struct run_metric *m;
		const struct finding *f;

		memset(&r, 0, sizeof(r));
		r.rec.env.governor = t[i].governor ? strdup(t[i].governor) : NULL;
		d = run_record_add_device(&r.rec);
		d->key = strdup("1-2");
		m = run_record_add_metric(&r.rec, "1-2", t[i].test, "tcp send", "cpu_clock_pct",
					  "%", true);
		m->value = t[i].pct;
		m = run_record_add_metric(&r.rec, "1-2", t[i].test, "tcp send", "cpu_mhz", "MHz",
					  true);
		m->value = 14.16 * t[i].pct;
		if (!isnan(t[i].self_cpu)) {
			m = run_record_add_metric(&r.rec, "1-2", t[i].test, "tcp send",
						  "self_cpu_pct", "%", false);
			m->value = t[i].self_cpu;
		}
		run_pass_sys_findings(&r);
		f = find(&r, "run.cpu_clock_low");
		if (!t[i].severity != !f)
			fail_msg("case %zu: run.cpu_clock_low %s", i, f ? "found" : "missing");
		if (f) {
			assert_string_equal(f->severity, t[i].severity);
			assert_non_null(strstr(f->fix, "--governor performance"));
			assert_non_null(strstr(f->evidence, t[i].test));
		}
		run_result_release(&r);
	}
}

/* every class's rows: the shared vocabulary, per-CPU counts kept and never compared */
static void test_rows(void **state)
{
	struct irq_snapshot a, b;
	struct pass_sys s;
	struct run_record rec;
	const struct class_metric *cm;
	size_t n = 0;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	pass_sys_init(&s);
	parse_all("before", "48,49", &a);
	parse_all("after", "48,49", &b);
	irq_use_between(&a, &b, 0, 100, &s.irq);
	s.clock_mean_khz = s.clock_min_khz = s.clock_max_khz = 1008000;
	s.clock_top_khz = 2016000;
	snprintf(s.clock_governor, sizeof(s.clock_governor), "schedutil");
	run_add_pass_sys(&rec, run_class_find("net"), "1-2", "tcp send", &s, 1);
	for (size_t i = 0; i < rec.nmetrics; i++) {
		const struct run_metric *m = &rec.metrics[i];

		assert_string_equal(m->test, "net");
		if (!strcmp(m->metric, "cpu_clock_pct"))
			assert_near(m->value, 50, 1e-9);
		if (!strcmp(m->metric, "irq_count_cpu1")) {
			assert_near(m->value, 7, 1e-9);
			n++;
		}
		if (!strcmp(m->metric, "irq_count_cpu0")) {
			assert_near(m->value, 25000, 1e-9);
			n++;
		}
		assert_false(!strcmp(m->metric, "irq_count_cpu2")); /* no count: no row */
	}
	assert_int_equal(n, 2);
	cm = run_class_metric_of("video", "irq_count_cpu12");
	assert_non_null(cm);
	assert_true(cm->distribution);
	assert_string_equal(cm->label, "controller IRQs on CPU 12");
	assert_string_equal(cm->key, "irq_count_cpu12");
	cm = run_class_metric_of("hid", "irq_share_pct");
	assert_non_null(cm);
	assert_true(cm->distribution); /* context: never compared */
	cm = run_class_metric_of("mtp", "cpu_mhz");
	assert_non_null(cm);
	assert_false(cm->distribution);
	assert_null(run_class_metric_of("bulk", "irq_count_cpu"));
	assert_null(run_class_metric_of("bulk", "irq_count_cpux"));
	run_record_release(&rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_deltas),	   cmocka_unit_test(test_fold),
	    cmocka_unit_test(test_broken),	   cmocka_unit_test(test_passwatch),
	    cmocka_unit_test(test_lines_sysfs),	   cmocka_unit_test(test_findings),
	    cmocka_unit_test(test_clock_findings), cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

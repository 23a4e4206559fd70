// SPDX-License-Identifier: MIT
/* run_analyze: every bottleneck finding, triggered and not, from made-up figures. */
#include "unit.h"

#include "run/pass_sys.h"
#include "classes/disk/run_disk.h"
#include "run/run_priv.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

struct pass {
	const char *op, *access;
	uint32_t bs;
	double mb_s, cpu;
};

/* one device with these passes; ceiling NaN: not on USB */
static void build(struct run_result *r, const struct pass *p, size_t n, double ceiling,
		  const char *driver)
{
	struct run_device *d;
	struct disk_report *rep;
	size_t i;

	memset(r, 0, sizeof(*r));
	rep = run_disk_item_add(r, "2-1");
	rep->rows = calloc(n, sizeof(*rep->rows));
	rep->nrows = n;
	rep->usb.ceiling_basis = "test basis";
	for (i = 0; i < n; i++) {
		struct disk_row *row = &rep->rows[i];

		row->name = p[i].op[0] == 'r' ? (p[i].bs == 4096 ? "seq-read 4K" : "seq-read 1M")
					      : (p[i].bs == 4096 ? "seq-write 4K" : "seq-write 1M");
		row->op = p[i].op;
		row->access = p[i].access;
		row->bs = p[i].bs;
		row->mb_s = p[i].mb_s;
		row->self_cpu_pct = p[i].cpu;
		row->cached_pct = NAN;
	}
	d = run_record_add_device(&r->rec);
	d->key = strdup("2-1");
	d->speed = strdup("high");
	d->driver = driver ? strdup(driver) : NULL;
	d->ceiling_mb_s = ceiling;
}

/* the report build() made */
static struct disk_report *rep_of(struct run_result *r)
{
	return (struct disk_report *)run_disk_report(&r->plan[0]);
}

static void release(struct run_result *r)
{
	free(rep_of(r)->rows);
	rep_of(r)->rows = NULL;
	rep_of(r)->nrows = 0;
	rep_of(r)->usb.ceiling_basis = NULL;
	run_result_release(r);
}

static bool has(const struct run_result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->rec.findings.n; i++)
		if (!strcmp(r->rec.findings.v[i].id, id))
			return true;
	return false;
}

#define R(bs, v) {"read", "sequential", bs, v, 20}
#define W(bs, v) {"write", "sequential", bs, v, 20}

static void test_findings(void **state)
{
	static const struct {
		const char *what;
		struct pass p[4];
		size_t n;
		double ceiling;
		const char *driver, *id;
		bool want;
	} cases[] = {
		{"reads at 85% of HS", {R(4096, 30), R(1 << 20, 45.3)}, 2, 53.248, "uas", "run.bus_bound", true},
		{"reads at 60%: neither", {R(4096, 30), R(1 << 20, 32)}, 2, 53.248, "uas", "run.bus_bound", false},
		{"reads at 60%: not medium", {R(4096, 30), R(1 << 20, 32)}, 2, 53.248, "uas", "run.medium_bound", false},
		{"reads at 20%", {R(4096, 30), R(1 << 20, 100)}, 2, 484.8, "usb-storage", "run.medium_bound", true},
		{"off USB: no ceiling findings", {R(4096, 30), R(1 << 20, 100)}, 2, NAN, NULL, "run.medium_bound", false},
		{"above the ceiling", {R(4096, 30), R(1 << 20, 60)}, 2, 53.248, "uas", "run.above_ceiling", true},
		{"4K at 10% of 1M", {R(4096, 4), R(1 << 20, 40)}, 2, NAN, NULL, "run.small_blocks", true},
		{"4K at 50% of 1M", {R(4096, 20), R(1 << 20, 40)}, 2, NAN, NULL, "run.small_blocks", false},
		{"writes at 25% of reads", {R(4096, 30), R(1 << 20, 40), W(4096, 8), W(1 << 20, 10)}, 4, NAN, NULL, "run.write_slow", true},
		{"writes at 75% of reads", {R(4096, 30), R(1 << 20, 40), W(4096, 28), W(1 << 20, 30)}, 4, NAN, NULL, "run.write_slow", false},
		{"no writes: no write finding", {R(4096, 30), R(1 << 20, 40)}, 2, NAN, NULL, "run.write_slow", false},
		{"a core at 95%", {{"read", "sequential", 4096, 30, 95}, R(1 << 20, 40)}, 2, NAN, NULL, "run.cpu_bound", true},
		{"cores at 20%", {R(4096, 30), R(1 << 20, 40)}, 2, NAN, NULL, "run.cpu_bound", false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run_result r;

		build(&r, cases[i].p, cases[i].n, cases[i].ceiling, cases[i].driver);
		run_analyze(&r);
		if (has(&r, cases[i].id) != cases[i].want)
			fail_msg("%s: %s %s", cases[i].what, cases[i].id,
				 cases[i].want ? "missing" : "raised");
		release(&r);
	}
}

static void test_page_cache(void **state)
{
	struct pass p[] = {R(4096, 30), R(1 << 20, 40)};
	struct run_result r;

	(void)state;
	build(&r, p, 2, NAN, NULL);
	run_analyze(&r);
	assert_false(has(&r, "run.page_cache"));
	release(&r);
	build(&r, p, 2, NAN, NULL);
	rep_of(&r)->rows[1].cached_pct = 80;
	run_analyze(&r);
	assert_true(has(&r, "run.page_cache"));
	release(&r);
}

/* a pass below the CPU's top under a scaling governor: said, and held by it when a core saturated */
static void test_clock_low(void **state)
{
	struct pass p[] = {R(4096, 4), R(1 << 20, 40)};
	struct run_result r;
	struct disk_row *rows;

	(void)state;
	build(&r, p, 2, NAN, NULL);
	rows = rep_of(&r)->rows;
	for (int i = 0; i < 2; i++) {
		rows[i].cpu_mhz_min = 408;
		rows[i].cpu_mhz_mean = 600;
		rows[i].cpu_mhz_max = 1008;
		rows[i].cpu_clock_pct = 33.3;
		snprintf(rows[i].cpu_governor, sizeof(rows[i].cpu_governor), "schedutil");
	}
	rows[0].self_cpu_pct = 99;
	run_analyze(&r);
	assert_true(has(&r, "run.cpu_clock_low"));
	for (size_t i = 0; i < r.rec.findings.n; i++)
		if (!strcmp(r.rec.findings.v[i].id, "run.cpu_clock_low")) {
			assert_string_equal(r.rec.findings.v[i].severity, "warn");
			assert_non_null(strstr(r.rec.findings.v[i].evidence,
					       "600 MHz mean (lowest 408, highest 1008), 33 % of the top"));
			assert_non_null(strstr(r.rec.findings.v[i].fix, "--governor performance"));
		}
	release(&r);
	/* at the top, or under the performance governor: nothing */
	build(&r, p, 2, NAN, NULL);
	rows = rep_of(&r)->rows;
	for (int i = 0; i < 2; i++) {
		rows[i].cpu_clock_pct = 33.3;
		snprintf(rows[i].cpu_governor, sizeof(rows[i].cpu_governor), "performance");
	}
	run_analyze(&r);
	assert_false(has(&r, "run.cpu_clock_low"));
	release(&r);
}

/* the small-block fix names the first block size that reaches the plateau */
static void test_small_block_advice(void **state)
{
	struct pass p[] = {R(4096, 4), R(65536, 38), R(1 << 20, 40)};
	struct run_result r;

	(void)state;
	build(&r, p, 3, NAN, NULL);
	rep_of(&r)->rows[1].name = "seq-read 64K";
	run_analyze(&r);
	assert_int_equal(r.rec.findings.n, 1);
	assert_non_null(strstr(r.rec.findings.v[0].fix, "read blocks of 64K or more"));
	assert_non_null(strstr(r.rec.findings.v[0].evidence, "seq-read 4K 4.0 MB/s against seq-read 1M 40.0 MB/s"));
	release(&r);
}

/* ---- verdicts, on sample records ---- */

struct vcase {
	const char *what;
	const char *speed, *capable, *via, *controller;
	double ceiling, read_mb_s, cpu;
	const char *page_cache; /* a run.page_cache finding's evidence, or NULL */
	const char *limiter, *evidence;
};

static void sample_device(struct run_record *r, const struct vcase *c)
{
	struct run_device *d;
	struct run_metric *m;

	memset(r, 0, sizeof(*r));
	r->id = strdup("20261201T000000Z-000001");
	d = run_record_add_device(r);
	d->key = strdup("2-1");
	d->kind = strdup("usb-storage");
	d->port_path = strdup("2-1");
	d->speed = c->speed ? strdup(c->speed) : NULL;
	d->capable_speed = c->capable ? strdup(c->capable) : NULL;
	d->via = c->via ? strdup(c->via) : NULL;
	d->controller = c->controller ? strdup(c->controller) : NULL;
	d->ceiling_mb_s = c->ceiling;
	m = run_record_add_metric(r, "2-1", "disk", "seq-read 64K", "mb_s", "MB/s", true);
	m->value = c->read_mb_s / 2;
	m = run_record_add_metric(r, "2-1", "disk", "seq-read 1M", "mb_s", "MB/s", true);
	m->value = c->read_mb_s;
	m = run_record_add_metric(r, "2-1", "disk", "seq-read 1M", "self_cpu_pct", "%", false);
	m->value = c->cpu;
	m = run_record_add_metric(r, "2-1", "disk", "seq-write 1M", "mb_s", "MB/s", true);
	m->value = c->read_mb_s * 3; /* writes never carry the verdict when reads exist */
	if (c->page_cache)
		finding_add(&r->findings, FINDING_WARN, "run.page_cache", "2-1",
			    "figures partly from the page cache", c->page_cache, NULL);
}

/* an MMC card's share is of its bus mode's ceiling, not of a USB bulk one */
static void test_verdict_mmc(void **state)
{
	static const struct vcase c = {"mmc: SDR104", "sdr104", NULL, NULL, NULL, 104, 90, 20, NULL,
					"bus", NULL};
	struct run_record r;

	(void)state;
	sample_device(&r, &c);
	free(r.devices[0].kind);
	r.devices[0].kind = strdup("mmc");
	free(r.devices[0].port_path);
	r.devices[0].port_path = NULL;
	run_verdicts(&r);
	assert_int_equal(r.nverdicts, 1);
	if (!strstr(r.verdicts[0].evidence, "bus's 104.0 MB/s ceiling") ||
	    strstr(r.verdicts[0].evidence, "bulk"))
		fail_msg("mmc: got '%s: %s'", r.verdicts[0].limiter, r.verdicts[0].evidence);
	run_record_release(&r);
}

/*
 * CPU figures above what the machine's CPUs can give (a 1-vCPU TCG guest saw
 * usbperf at 135 % of one CPU): the run says its CPU time and wall clock
 * disagree, and the verdict claims no CPU limit from them
 */
static void test_cpu_time_above_wall(void **state)
{
	static const struct {
		unsigned ncpus;
		const char *metric, *unit;
		double value;
		bool finding;
	} t[] = {
	    {1, "self_cpu_pct", UNIT_PCT_ONE_CPU, 99.0, false},
	    {1, "self_cpu_pct", UNIT_PCT_ONE_CPU, 102.4, false}, /* within the tick's slack */
	    {1, "self_cpu_pct", UNIT_PCT_ONE_CPU, 135.7, true},
	    {1, "cpu_busy_pct", UNIT_PCT_ONE_CPU, 110.0, true},
	    {1, "peer_cpu_pct", UNIT_PCT_ONE_CPU, 300.0, false}, /* another machine's */
	    {1, "irq_share_pct", "% of IRQs", 300.0, false},	    /* not a CPU's time */
	    {2, "self_cpu_pct", UNIT_PCT_ONE_CPU, 135.7, false},  /* two threads on two CPUs */
	    {2, "self_cpu_pct", UNIT_PCT_ONE_CPU, 210.0, true},
	};
	static const struct vcase c = {"host CPU", "super", "super", NULL, "xhci_hcd 0000:00:14.0",
				       484.848, 300, 97, NULL, "host CPU", NULL};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct run_result res;
		struct run_metric *m;
		const struct finding *f;

		memset(&res, 0, sizeof(res));
		sample_device(&res.rec, &c);
		m = run_record_add_metric(&res.rec, "2-1", "disk", "seq-read 1M", t[i].metric,
					  t[i].unit, false);
		m->value = t[i].value;
		run_cpu_time_findings(&res, t[i].ncpus);
		f = finding_list_find(&res.rec.findings, "run.cpu_time_above_wall", "2-1");
		if (!f != !t[i].finding)
			fail_msg("case %zu (%s %.1f on %u): finding %s", i, t[i].metric, t[i].value,
				 t[i].ncpus, f ? "raised" : "missing");
		if (f) {
			assert_string_equal(f->severity, "warn");
			assert_non_null(strstr(f->evidence, t[i].metric));
			assert_non_null(strstr(f->message, t[i].ncpus == 1 ? "1 CPU can give" : "2 CPUs can give"));
		}
		/* usbperf at 97 % of a core: the CPU's figure, unless the clocks disagree */
		run_verdicts(&res.rec);
		assert_int_equal(res.rec.nverdicts, 1);
		if (!strcmp(res.rec.verdicts[0].limiter, "host CPU") == t[i].finding)
			fail_msg("case %zu: verdict '%s: %s'", i, res.rec.verdicts[0].limiter,
				 res.rec.verdicts[0].evidence);
		run_result_release(&res);
	}
}

static void test_verdicts(void **state)
{
	static const struct vcase cases[] = {
		{"bus: 79 % of high speed", "high", "high", NULL, "xhci_hcd 0000:00:14.0", 53.248, 41.9, 20, NULL,
		 "bus", "seq-read 1M 41.90 MB/s is 79 % of high-speed bulk's 53.2 MB/s ceiling"},
		{"bus, and the device could go faster", "high", "super", NULL, "xhci_hcd 0000:00:14.0", 53.248, 45, 20, NULL,
		 "bus", "is 85 % of high-speed bulk's 53.2 MB/s ceiling; the device can do super: a faster port and cable would raise it"},
		{"hub: a high-speed hub above a SuperSpeed device", "high", "super", "2-1 05e3:0610 high", "xhci_hcd 0000:00:14.0", 53.248, 45, 20, NULL,
		 "hub", "the device can do super, the hub above it (2-1 05e3:0610 high) links slower"},
		{"host controller: EHCI under a SuperSpeed device", "high", "super", NULL, "ehci-pci 0000:00:1d.0", 53.248, 45, 20, NULL,
		 "host controller", "its controller (ehci-pci 0000:00:1d.0) is USB 2.0 only"},
		{"medium: 21 % of SuperSpeed", "super", "super", NULL, "xhci_hcd 0000:00:14.0", 484.848, 100, 20, NULL,
		 "medium", "seq-read 1M 100.0 MB/s is 21 % of super-speed bulk's 484.8 MB/s ceiling: the bus has headroom"},
		{"host CPU: a core at 97 %", "super", "super", NULL, "xhci_hcd 0000:00:14.0", 484.848, 300, 97, NULL,
		 "host CPU", "seq-read 1M 300.0 MB/s with usbperf at 97 % of a core"},
		/* 29.2.4: above its ceiling no share is said, an anomaly is */
		{"emulation: 195 times full speed's ceiling", "full", "full", NULL, "xhci_hcd 0000:00:14.0", 1.216, 237.07, 20, NULL,
		 "emulation", "is above full-speed bulk's 1.2 MB/s ceiling: an anomaly, not the bus's figure"},
		{"page cache: the best read was cached", "full", "full", NULL, "xhci_hcd 0000:00:14.0", 1.216, 237.07, 20,
		 "seq-read 1M: 80% of the region in the page cache before the pass (mincore)",
		 "page cache", "seq-read 1M 237.1 MB/s came partly from the page cache"},
		{"page cache of another pass: not this verdict", "high", "high", NULL, NULL, 53.248, 41.9, 20,
		 "seq-read 4K: 80% of the region in the page cache before the pass (mincore)", "bus", "79 %"},
		{"not determined: 60 %, neither near nor far", "high", "high", NULL, NULL, 53.248, 32, 20, NULL,
		 "not determined", "is 60 % of high-speed bulk's 53.2 MB/s ceiling: neither near the ceiling nor far below it"},
		{"not determined: off USB", NULL, NULL, NULL, NULL, NAN, 2545.8, 12, NULL,
		 "not determined", "seq-read 1M 2546 MB/s: no link ceiling to hold it against (not on USB)"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run_record r;

		sample_device(&r, &cases[i]);
		run_verdicts(&r);
		assert_int_equal(r.nverdicts, 1);
		assert_string_equal(r.verdicts[0].device_key, "2-1");
		if (strcmp(r.verdicts[0].limiter, cases[i].limiter) ||
		    !strstr(r.verdicts[0].evidence, cases[i].evidence))
			fail_msg("%s: got '%s: %s'", cases[i].what, r.verdicts[0].limiter,
				 r.verdicts[0].evidence);
		if (!isnan(cases[i].ceiling))
			assert_true(fabs(r.verdicts[0].share_pct -
					 100 * cases[i].read_mb_s / cases[i].ceiling) < 1e-9);
		else
			assert_true(isnan(r.verdicts[0].share_pct));
		run_record_release(&r);
	}
}

/* a device with no figure, and a network device, both get a verdict */
static void test_verdict_without_figures(void **state)
{
	struct run_record r;
	struct run_metric *m;
	struct run_device *d;

	(void)state;
	memset(&r, 0, sizeof(r));
	d = run_record_add_device(&r);
	d->key = strdup("host");
	d = run_record_add_device(&r);
	d->key = strdup("3-1");
	d->speed = strdup("high");
	d->ceiling_mb_s = 53.248;
	m = run_record_add_metric(&r, "3-1", "net", "tcp send", "mbit_s", "Mbit/s", true);
	m->value = 100;
	run_verdicts(&r);
	assert_int_equal(r.nverdicts, 2);
	assert_string_equal(r.verdicts[0].limiter, "not determined");
	assert_string_equal(r.verdicts[0].evidence, "no throughput figure was measured");
	assert_string_equal(r.verdicts[1].limiter, "not determined");
	assert_non_null(strstr(r.verdicts[1].evidence, "tcp send 100.0 Mbit/s (12.50 MB/s) is 23 % of "
							"high-speed bulk's 53.2 MB/s ceiling: far below"));
	run_record_release(&r);
}

/*
 * Findings by device, the one that states the verdict first; the CPU's for
 * every device after; what bears on no figure (usbfs_memory_mb without a
 * libusb test, a device that was not measured) last.
 */
static void test_findings_order(void **state)
{
	static const struct vcase bus = {"", "high", "super", NULL, "xhci_hcd 0000:00:14.0", 53.248, 45, 20, NULL, "", ""};
	static const char *const want[][2] = {
		{"usb.speed_below_capability", "2-1"},
		{"usb.storage_without_uas", "2-1"},
		{"run.small_blocks", "2-1"},
		{"cpu.governor", "*"},
		{"usb.autosuspend", NULL},
		{"usbcore.usbfs_memory_mb", NULL},
	};
	struct run_record r;

	(void)state;
	sample_device(&r, &bus);
	finding_add(&r.findings, FINDING_WARN, "usbcore.usbfs_memory_mb", "usbcore", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_INFO, "run.small_blocks", "2-1", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "cpu.governor", "policy0", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "usb.autosuspend", "1-4", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "usb.storage_without_uas", "2-1", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "usb.speed_below_capability", "2-1", "m", NULL, NULL);
	run_verdicts(&r);
	run_findings_order(&r, NULL);
	assert_int_equal(r.findings.n, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct finding *f = &r.findings.v[i];

		if (strcmp(f->id, want[i][0]) || (want[i][1] ? !f->about || strcmp(f->about, want[i][1]) : f->about != NULL))
			fail_msg("[%zu]: want %s about %s, got %s about %s", i, want[i][0],
				 want[i][1] ? want[i][1] : "(none)", f->id, f->about ? f->about : "(none)");
	}
	run_record_release(&r);
}

/* a class's own findings weigh by its table (class.h's finding_weights): an MMC card's */
static void test_findings_order_class(void **state)
{
	static const struct vcase c = {"", "sdr104", NULL, NULL, NULL, 104, 90, 20, NULL, "", ""};
	static const char *const want[] = {"mmc.slower_mode", "mmc.worn", "mmc.partition_unaligned",
					   "other.unweighed"};
	struct run_record r;

	(void)state;
	sample_device(&r, &c);
	free(r.devices[0].kind);
	r.devices[0].kind = strdup("mmc");
	finding_add(&r.findings, FINDING_WARN, "other.unweighed", "2-1", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_INFO, "mmc.partition_unaligned", "2-1", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "mmc.worn", "2-1", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "mmc.slower_mode", "2-1", "m", NULL, NULL);
	run_verdicts(&r);
	assert_string_equal(r.verdicts[0].limiter, "bus");
	run_findings_order(&r, NULL);
	assert_int_equal(r.findings.n, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (strcmp(r.findings.v[i].id, want[i]))
			fail_msg("[%zu]: want %s, got %s", i, want[i], r.findings.v[i].id);
	run_record_release(&r);
}

/* a copy device at 30 MB/s, and its run.copy_limit finding when limit is given */
static void copy_record(struct run_record *r, const char *limit)
{
	struct run_device *d;
	struct run_metric *m;

	memset(r, 0, sizeof(*r));
	d = run_record_add_device(r);
	d->key = strdup("copy");
	d->kind = strdup("copy");
	d->ceiling_mb_s = NAN;
	m = run_record_add_metric(r, "copy", "copy", "copy 1M", "mb_s", "MB/s", true);
	m->value = 30;
	if (limit)
		finding_add(&r->findings, FINDING_INFO, "run.copy_limit", "copy", limit, NULL, NULL);
}

/* a class's limiter hook (copy's): its own finding names the slower side */
static void test_verdict_copy(void **state)
{
	struct run_record r;

	(void)state;
	copy_record(&r, "the copy is limited by reading /dev/sdb");
	run_verdicts(&r);
	assert_string_equal(r.verdicts[0].limiter, RUN_LIMITER_MEDIUM);
	assert_string_equal(r.verdicts[0].evidence,
			    "copy 1M 30.00 MB/s: the copy is limited by reading /dev/sdb");
	run_record_release(&r);
	/* without it: not determined, the figure said */
	copy_record(&r, NULL);
	run_verdicts(&r);
	assert_string_equal(r.verdicts[0].limiter, RUN_LIMITER_UNKNOWN);
	assert_string_equal(r.verdicts[0].evidence, "copy 1M 30.00 MB/s");
	run_record_release(&r);
}

/* a hub above the device: its findings are the device's */
static void test_findings_about_hub(void **state)
{
	static const struct vcase c = {"", "high", "high", NULL, NULL, 53.248, 45, 20, NULL, "", ""};
	struct run_record r;

	(void)state;
	sample_device(&r, &c);
	free(r.devices[0].port_path);
	r.devices[0].port_path = strdup("2-1.4");
	finding_add(&r.findings, FINDING_WARN, "usb.speed_below_capability", "2-1", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "usb.storage_bot", "2-1.4:1.0", "m", NULL, NULL);
	finding_add(&r.findings, FINDING_WARN, "usb.autosuspend", "2-1.5", "m", NULL, NULL);
	run_findings_order(&r, NULL);
	assert_string_equal(r.findings.v[0].about, "2-1");
	assert_string_equal(r.findings.v[1].about, "2-1");
	assert_null(r.findings.v[2].about);
	run_record_release(&r);
}

/* what to run next: the device's class's own advice first (class.h's next_step), else the general */
static void test_verdict_next(void **state)
{
	static const struct {
		const char *test, *limiter, *evidence, *finding, *want;
	} cases[] = {
	    {"disk", RUN_LIMITER_PAGE_CACHE, "", NULL, "drops the page cache before each read pass"},
	    {"disk", RUN_LIMITER_MEDIUM, "", "run.not_a_medium", "name the device itself"},
	    {"disk", RUN_LIMITER_MEDIUM, "", NULL, NULL},
	    {"net", RUN_LIMITER_UNKNOWN, "the adapter, the network or the peer", NULL,
	     "'usbperf net client' against another peer"},
	    {"net", RUN_LIMITER_UNKNOWN, "no link ceiling", NULL, "nothing here sets a ceiling"},
	    {"video", RUN_LIMITER_EMULATION, "", NULL, "measure on real hardware"},
	    /* another class's advice is not this device's */
	    {"video", RUN_LIMITER_PAGE_CACHE, "", NULL, NULL},
	    {"video", RUN_LIMITER_UNKNOWN, "the adapter, the network or the peer", NULL,
	     "'usbperf run --full --repeat 3'"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run_record r;
		struct run_verdict v = {.device_key = "2-1",
					.limiter = (char *)cases[i].limiter,
					.evidence = (char *)cases[i].evidence};
		const char *next;

		memset(&r, 0, sizeof(r));
		run_record_add_device(&r)->key = strdup("2-1");
		run_record_add_metric(&r, "2-1", cases[i].test, "pass", "mb_s", "MB/s", true);
		if (cases[i].finding)
			finding_add(&r.findings, FINDING_WARN, cases[i].finding, "2-1", "m", NULL,
				    NULL);
		next = run_verdict_next(&r, &v);
		if (cases[i].want ? !next || !strstr(next, cases[i].want) : next != NULL)
			fail_msg("%s, %s: '%s'", cases[i].test, cases[i].limiter,
				 next ? next : "(none)");
		run_record_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_verdict_mmc),
		cmocka_unit_test(test_cpu_time_above_wall),
		cmocka_unit_test(test_verdict_without_figures),
		cmocka_unit_test(test_findings_order),
		cmocka_unit_test(test_findings_order_class),
		cmocka_unit_test(test_verdict_copy),
		cmocka_unit_test(test_verdict_next),
		cmocka_unit_test(test_findings_about_hub),
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_small_block_advice),
		cmocka_unit_test(test_clock_low),
		cmocka_unit_test(test_page_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

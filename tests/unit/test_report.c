// SPDX-License-Identifier: MIT
/* report/model and the renderers it feeds: sweeps, matching, bars, the HTML tree. */
#include "unit.h"
#include "report/model.h"
#include "run/class.h"
#include "run/run.h"
#include "render/html.h"
#include "render/spark.h"
#include "render/svg.h"
#include "render/report_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what a pass's class says of it as a sweep's point (its sweep_point hook), by its test */
static bool sweep_of(const char *test, const char *name, struct class_sweep_point *ret)
{
	const struct measure_class *c = run_class_find(test);
	struct run_metric m = {.test = (char *)test, .name = (char *)name, .metric = "mb_s"};

	memset(ret, 0, sizeof(*ret));
	return c && c->sweep_point && c->sweep_point(&m, ret) == CLASS_SWEEP_POINT;
}

/* the classes' block-size sweeps: disk's sequential passes, copy's, bulk's points */
static void test_sweep_name(void **state)
{
	static const struct {
		const char *test, *name, *label;
		uint64_t block;
		enum sweep_role role;
	} cases[] = {
		{"disk", "seq-read 4K", "seq-read", 4096, SWEEP_READ},
		{"disk", "seq-write 1M", "seq-write", 1 << 20, SWEEP_WRITE},
		{"copy", "copy 64K", "copy", 65536, SWEEP_THIRD},
		{"disk", "seq-read 512", "seq-read", 512, SWEEP_READ},
		{"disk", "rand-read 4K Q1", NULL, 0, 0},
		{"disk", "rand-read 4K", NULL, 0, 0},
		{"net", "tcp send", NULL, 0, 0},
		{"disk", "seq-read", NULL, 0, 0},
		{"disk", "seq-read 4Q", NULL, 0, 0},
		{"disk", "seq-readx 4K", NULL, 0, 0},
		{"disk", "all passes", NULL, 0, 0},
		{"disk", "copy 64K", NULL, 0, 0}, /* a pass is its own class's point */
		/* usbperf bulk's points: the direction at its depth, against the transfer size */
		{"bulk", "in-64K-q8", "in q8", 65536, SWEEP_PLAIN},
		{"bulk", "out-1M-q32", "out q32", 1 << 20, SWEEP_PLAIN},
		{"bulk", "both-4K-q1", "both q1", 4096, SWEEP_PLAIN},
		{"bulk", "in-64K", NULL, 0, 0},
		{"bulk", "in-64K-q", NULL, 0, 0},
		{"bulk", "up-64K-q8", NULL, 0, 0},
		{"bulk", "iso-in-64K-q8", NULL, 0, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct class_sweep_point p;
		bool ok = sweep_of(cases[i].test, cases[i].name, &p);

		if (ok != !!cases[i].label)
			fail_msg("'%s': %s", cases[i].name, ok ? "taken" : "refused");
		if (ok && (strcmp(p.label, cases[i].label) || p.x != cases[i].block ||
			   p.axis || p.role != cases[i].role))
			fail_msg("'%s': got %s %llu %d", cases[i].name, p.label,
				 (unsigned long long)p.x, (int)p.role);
	}
}

static char *dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct run_device *device(struct run_record *r, const char *key, const char *port,
				 const char *serial, const char *speed, const char *driver)
{
	struct run_device *d = run_record_add_device(r);

	d->key = dup(key);
	d->kind = dup(port ? "usb-storage" : "host-disk");
	d->target = dup("/media/usb");
	d->port_path = dup(port);
	d->vid_pid = dup(port ? "0781:5583" : NULL);
	d->serial = dup(serial);
	d->speed = dup(speed);
	d->driver = dup(driver);
	d->product = dup(port ? "Stick <b>&\"" : NULL);
	d->ceiling_mb_s = !speed ? NAN : !strcmp(speed, "high") ? 53.248 : 484.848;
	return d;
}

static void metric(struct run_record *r, const char *key, const char *name, const char *metric,
		   const char *unit, double v, double lo, double hi)
{
	struct run_metric *m = run_record_add_metric(r, key, "disk", name, metric, unit, true);

	m->value = v;
	m->min = lo;
	m->max = hi;
	m->stdev = isnan(lo) ? NAN : (hi - lo) / 2;
	m->repeats = isnan(lo) ? 1 : 3;
}

static void two_runs(struct run_record *r)
{
	struct run_device *d;

	memset(r, 0, 2 * sizeof(*r));
	for (int i = 0; i < 2; i++) {
		r[i].id = dup(i ? "b" : "a");
		r[i].env.hostname = dup("board");
	}
	/* the same stick, moved from 2-1 (UAS) to 1-1.4.1 behind two hubs (BOT) */
	device(&r[0], "2-1", "2-1", "S1", "super", "uas");
	device(&r[0], "host", NULL, NULL, NULL, NULL);
	metric(&r[0], "2-1", "seq-read 1M", "mb_s", "MB/s", 300, 290, 310);
	metric(&r[0], "2-1", "seq-read 4K", "mb_s", "MB/s", 20, NAN, NAN);
	metric(&r[0], "2-1", "seq-read 4K", "iops", "IOPS", 4883, NAN, NAN);
	metric(&r[0], "2-1", "seq-read 64K", "mb_s", "MB/s", 150, 140, 160);
	metric(&r[0], "2-1", "seq-read 64K", "self_cpu_pct", "% of one CPU", 12, NAN, NAN);
	/* the controller's IRQs all on one CPU: a share of interrupts, not CPU use (29.2.1) */
	metric(&r[0], "2-1", "seq-read 64K", "irq_cpu_pct", "% of IRQs", 100, NAN, NAN);
	metric(&r[0], "2-1", "seq-read 64K", "irq_share_pct", "% of one CPU", 40, NAN, NAN);
	metric(&r[0], "2-1", "rand-read 4K Q1", "iops", "IOPS", 2000, 1900, 2100);
	metric(&r[0], "2-1", "seq-read 64K", "lat_p99_us", "us", 900, NAN, NAN);
	metric(&r[0], "host", "seq-read 1M", "mb_s", "MB/s", 1500, NAN, NAN);
	d = device(&r[1], "1-1.4.1", "1-1.4.1", "S1", "high", "usb-storage");
	d->capable_speed = dup("super");
	d->controller = dup("ehci-pci 0000:00:1d.0");
	d->via = dup("1-1 8087:0024 high > 1-1.4 05e3:0608 high");
	d = device(&r[1], "1-1.2", "1-1.2", "S2", "high", "uas");
	free(d->kind);
	d->kind = dup("usb-storage (read-only)"); /* what run says of a raw device */
	metric(&r[1], "1-1.4.1", "seq-write 1M", "mb_s", "MB/s", 30, 29, 31);
	metric(&r[1], "1-1.4.1", "seq-read 1M", "mb_s", "MB/s", 35, NAN, NAN);
	/* one pass, its rate sampled: a spread compare can judge (compare.h) */
	r[1].metrics[r[1].nmetrics - 1].samples = 20;
	r[1].metrics[r[1].nmetrics - 1].sample_mean = 35;
	r[1].metrics[r[1].nmetrics - 1].sample_stdev = 2;
}

static void test_model(void **state)
{
	struct run_record r[2];
	struct report_model m;
	const struct rm_device *d;

	(void)state;
	two_runs(r);
	assert_int_equal(report_model_build(r, 0, &m), -EINVAL);
	assert_int_equal(report_model_build(r, REPORT_MAX_RUNS + 1, &m), -EINVAL);
	assert_int_equal(report_model_build(r, 2, &m), 0);
	/* the stick once, by VID:PID and serial; the host; the second stick */
	assert_int_equal(m.ndevices, 3);
	d = &m.devices[0];
	assert_string_equal(d->identity, "0781:5583 S1");
	assert_ptr_equal(d->dev[0], &r[0].devices[0]);
	assert_ptr_equal(d->dev[1], &r[1].devices[0]);
	assert_ptr_equal(d->first, &r[0].devices[0]);
	assert_true(d->ceiling_mb_s == 484.848);
	assert_non_null(d->ceiling_how);
	assert_non_null(d->ref);
	assert_string_equal(d->ref->range, "up to ~350 MB/s"); /* SuperSpeed with UAS */
	/* run 0 seq-read, sorted by block; run 1 seq-write and seq-read */
	assert_int_equal(d->nsweeps, 3);
	assert_int_equal(d->sweeps[0].run, 0);
	assert_string_equal(d->sweeps[0].label, "seq-read");
	assert_int_equal(d->sweeps[0].npts, 3);
	assert_int_equal(d->sweeps[0].pts[0].block, 4096);
	assert_int_equal(d->sweeps[0].pts[1].block, 65536);
	assert_int_equal(d->sweeps[0].pts[2].block, 1 << 20);
	assert_true(d->sweeps[0].pts[2].m->value == 300);
	assert_int_equal(d->sweeps[1].run, 1);
	assert_string_equal(d->sweeps[1].label, "seq-write");
	/* the random IOPS are a rate; the sweep's IOPS are not drawn twice */
	assert_int_equal(d->nrates, 1);
	assert_string_equal(d->rates[0]->name, "rand-read 4K Q1");
	assert_int_equal(d->ncpu, 1);
	assert_string_equal(d->cpu[0]->metric, "self_cpu_pct");
	assert_string_equal(report_cpu_use(d->cpu[0]), "usbperf's own");
	assert_int_equal(report_model_run_of(&m, d->sweeps[1].pts[0].m), 1);
	assert_null(m.devices[1].dev[1]); /* the host only in run 0 */
	assert_true(isnan(m.devices[1].ceiling_mb_s));
	assert_null(m.devices[1].ref);
	/* a high-speed disk on uas, read-only, still gets the USB 2.0 disk reference */
	assert_non_null(m.devices[2].ref);
	assert_string_equal(m.devices[2].ref->range, "25-35 MB/s");
	report_model_release(&m);
	run_record_release(&r[0]);
	run_record_release(&r[1]);
}

/* the model's indexes: passes, rows in the record's order, the best figure of each unit */
static void test_model_index(void **state)
{
	struct run_record r[2];
	struct report_model m;
	const struct rm_device *d;
	const struct rm_pass *p;

	(void)state;
	two_runs(r);
	assert_int_equal(report_model_build(r, 2, &m), 0);
	d = &m.devices[0];
	p = report_model_pass(&m, 0, "2-1", "seq-read 64K");
	assert_non_null(p);
	/* mb_s, self_cpu_pct, irq_cpu_pct, irq_share_pct, lat_p99_us: the record's order */
	assert_int_equal(p->n, 5);
	assert_string_equal(p->v[0]->metric, "mb_s");
	assert_string_equal(p->v[4]->metric, "lat_p99_us");
	assert_ptr_equal(report_pass_metric(p, "lat_p99_us"), &r[0].metrics[8]);
	assert_null(report_pass_metric(p, "iops"));
	/* its CPU use: self_cpu_pct, not the IRQ share that is also in % of one CPU */
	assert_ptr_equal(report_pass_unit(p, NULL), &r[0].metrics[4]);
	assert_ptr_equal(report_pass_unit(p, "% of IRQs"), &r[0].metrics[5]);
	assert_null(report_pass_unit(p, "%"));
	assert_null(report_model_pass(&m, 0, "2-1", "seq-read 2M"));
	assert_null(report_model_pass(&m, 1, "2-1", "seq-read 64K")); /* another run's key */
	assert_null(report_model_pass(&m, 5, "2-1", "seq-read 64K"));
	/* a row per pass in run 0, by its headline (MB/s before IOPS), in the record's order */
	assert_int_equal(d->nrows[0], 4);
	assert_string_equal(d->rows[0][0].x->name, "seq-read 1M");
	assert_string_equal(d->rows[0][1].x->name, "seq-read 4K");
	assert_string_equal(d->rows[0][1].x->metric, "mb_s");
	assert_string_equal(d->rows[0][2].x->name, "seq-read 64K");
	assert_string_equal(d->rows[0][3].x->metric, "iops");
	assert_ptr_equal(d->rows[0][3].pass, report_model_pass(&m, 0, "2-1", "rand-read 4K Q1"));
	assert_int_equal(d->nrows[1], 2); /* seq-write 1M, seq-read 1M of 1-1.4.1 */
	/* the best of each unit across the runs, 0 for a unit it never had */
	assert_true(report_device_top(d, "MB/s") == 300);
	assert_true(report_device_top(d, "IOPS") == 4883);
	assert_true(report_device_top(d, "us") == 900);
	assert_true(report_device_top(d, "Mbit/s") == 0);
	assert_true(report_device_top(&m.devices[1], "MB/s") == 1500);
	report_model_release(&m);
	run_record_release(&r[0]);
	run_record_release(&r[1]);
}

/* MTP's passes: against the file size, and against the device's buffers for a sweep */
#define MTP_AXIS_FILE "file size"
#define MTP_AXIS_BUFFER "device buffer size"
static void test_mtp_axes(void **state)
{
	static const struct {
		const char *name, *label, *axis;
		uint64_t x;
	} cases[] = {
		{"send 16M", "send", MTP_AXIS_FILE, 16 << 20},
		{"get 1M", "get", MTP_AXIS_FILE, 1 << 20},
		{"send 4M buf 16K", "send 4M", MTP_AXIS_BUFFER, 16384},
		{"get 4M buf 256K", "get 4M", MTP_AXIS_BUFFER, 262144},
		{"send 4M buf", NULL, NULL, 0},
		{"send 4M cache 16K", NULL, NULL, 0},
		{"send 4M buf 16K x", NULL, NULL, 0},
		{"put 16M", NULL, NULL, 0},
		{"send", NULL, NULL, 0},
		{"send 4Q", NULL, NULL, 0},
	};
	struct run_record r[2];
	struct report_model m;
	struct run_metric *x;
	struct strbuf out = STRBUF_INIT;
	const struct rm_device *d;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct class_sweep_point p;
		bool ok = sweep_of("mtp", cases[i].name, &p);

		if (ok != !!cases[i].label)
			fail_msg("'%s': %s", cases[i].name, ok ? "taken" : "refused");
		if (ok && (strcmp(p.label, cases[i].label) || p.x != cases[i].x ||
			   strcmp(p.axis, cases[i].axis)))
			fail_msg("'%s': got %s %llu %s", cases[i].name, p.label,
				 (unsigned long long)p.x, p.axis);
	}
	memset(r, 0, sizeof(r));
	r[0].id = dup("a");
	device(&r[0], "mtp:1-1", "1-1", "P1", "high", NULL);
	device(&r[0], "mtp:1-2", "1-2", "P2", "high", NULL);
	/* a disk's name under the mtp test is no block sweep; an MTP name under disk is none */
	for (int i = 0; i < 3; i++) {
		static const char *const sz[] = {"16M", "1M", "256M"};
		char n[32];

		snprintf(n, sizeof(n), "send %s", sz[i]);
		x = run_record_add_metric(&r[0], "mtp:1-1", "mtp", n, "mb_s", "MB/s", true);
		x->value = 10 + i;
	}
	x = run_record_add_metric(&r[0], "mtp:1-1", "mtp", "seq-read 1M", "mb_s", "MB/s", true);
	x->value = 1;
	x = run_record_add_metric(&r[0], "mtp:1-2", "mtp", "send 4M buf 256K", "mb_s", "MB/s", true);
	x->value = 16;
	x = run_record_add_metric(&r[0], "mtp:1-2", "mtp", "send 4M buf 16K", "mb_s", "MB/s", true);
	x->value = 7.5;
	/* a file-size point on a device already against its buffers: a rate */
	x = run_record_add_metric(&r[0], "mtp:1-2", "mtp", "get 4M", "mb_s", "MB/s", true);
	x->value = 9;
	/* a bulk point's name has no space: the text report names its size all the same */
	device(&r[0], "2-1", "2-1", "B1", "high", NULL);
	x = run_record_add_metric(&r[0], "2-1", "bulk", "in-64K-q8", "mb_s", "MB/s", true);
	x->value = 40;
	assert_int_equal(report_model_build(r, 1, &m), 0);
	d = &m.devices[0];
	assert_string_equal(d->axis, MTP_AXIS_FILE);
	assert_int_equal(d->nsweeps, 1);
	assert_string_equal(d->sweeps[0].label, "send");
	assert_int_equal(d->sweeps[0].npts, 3);
	assert_int_equal(d->sweeps[0].pts[0].block, 1 << 20);
	assert_int_equal(d->sweeps[0].pts[2].block, 256 << 20);
	assert_int_equal(d->nrates, 1);
	assert_string_equal(d->rates[0]->name, "seq-read 1M");
	d = &m.devices[1];
	assert_string_equal(d->axis, MTP_AXIS_BUFFER);
	assert_int_equal(d->nsweeps, 1);
	assert_string_equal(d->sweeps[0].label, "send 4M");
	assert_int_equal(d->sweeps[0].npts, 2);
	assert_int_equal(d->sweeps[0].pts[0].block, 16384);
	assert_int_equal(d->nrates, 1);
	assert_string_equal(d->rates[0]->name, "get 4M");
	report_text(&out, &m, NULL, false);
	if (!strstr(out.buf, "MB/s against file size, 1M to 256M") ||
	    !strstr(out.buf, "MB/s against device buffer size, 16K to 256K") ||
	    !strstr(out.buf, "best 16.00 MB/s at 256K") || !strstr(out.buf, "best 40.00 MB/s at 64K"))
		fail_msg("%s", out.buf);
	strbuf_release(&out);
	report_model_release(&m);
	run_record_release(&r[0]);
}

static void test_bars(void **state)
{
	static const struct {
		double frac;
		unsigned width;
		bool utf8;
		const char *want;
	} cases[] = {
		{0.5, 4, false, "##  "},
		{1.7, 3, false, "###"},
		{NAN, 2, false, "  "},
		{-1, 2, true, "  "},
		{1, 2, true, "\u2588\u2588"},
		{0.5625, 2, true, "\u2588\u258f"}, /* 9 eighths of 16 */
		{0.001, 3, true, "\u258f  "},	   /* above zero: a sliver */
		{0, 3, true, "   "},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT;

		text_bar(&sb, cases[i].frac, cases[i].width, cases[i].utf8);
		if (strcmp(sb.buf, cases[i].want))
			fail_msg("case %zu: '%s', wanted '%s'", i, sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

static void test_sparkline(void **state)
{
	double v[] = {0, 50, NAN, 100, 200};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	text_sparkline(&sb, v, 5, 100, false);
	assert_string_equal(sb.buf, ".= ##");
	strbuf_reset(&sb);
	text_sparkline(&sb, v, 4, 0, true); /* scaled to its own top, 100 */
	assert_string_equal(sb.buf, "\u2581\u2585 \u2588");
	strbuf_release(&sb);
	setenv("LC_ALL", "", 1);
	setenv("LC_CTYPE", "en_GB.UTF-8", 1);
	assert_true(text_utf8());
	setenv("LC_ALL", "C", 1);
	assert_false(text_utf8());
	unsetenv("LC_ALL");
	unsetenv("LC_CTYPE");
	setenv("LANG", "de_DE.utf8", 1);
	assert_true(text_utf8());
}

static void test_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	html_escape(&sb, "<script>a&b\"c'</script>");
	assert_string_equal(sb.buf, "&lt;script&gt;a&amp;b&quot;c&#39;&lt;/script&gt;");
	strbuf_release(&sb);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* the page: balanced lists, the hubs on the way, escaped strings, the sections */
static void test_html(void **state)
{
	struct run_record r[2];
	struct report_model m;
	struct compare_result c;
	struct strbuf sb = STRBUF_INIT;
	struct html_input in = {.model = &m, .cmp = &c, .generated_at = "2026-11-30T08:00:00Z"};
	const char *hub, *leaf, *sib;

	(void)state;
	two_runs(r);
	assert_int_equal(report_model_build(r, 2, &m), 0);
	assert_int_equal(run_compare(&r[0], &r[1], 5, &c), 0);
	html_report(&sb, &in);
	assert_int_equal(count(sb.buf, "<ul"), count(sb.buf, "</ul>"));
	assert_int_equal(count(sb.buf, "<li>"), count(sb.buf, "</li>"));
	assert_int_equal(count(sb.buf, "<section"), count(sb.buf, "</section>"));
	for (const char *id = "summary\0setup\0topology\0device-1\0device-2\0device-3\0findings\0comparison\0";
	     *id; id += strlen(id) + 1) {
		char want[64];

		snprintf(want, sizeof(want), "<section id=\"%s\"", id);
		if (!strstr(sb.buf, want) && !strstr(sb.buf, strstr(want, "id=")))
			fail_msg("no section %s", id);
	}
	/* 1-1 and 1-1.4 are hubs seen only in the paths, 1-1.2 sorts before 1-1.4 */
	hub = strstr(sb.buf, "<b>1-1</b> <span class=\"mut\">hub <code>8087:0024</code>");
	assert_non_null(hub);
	sib = strstr(hub, "<b>1-1.2</b>");
	leaf = strstr(hub, "<b>1-1.4.1</b>");
	assert_non_null(sib);
	assert_non_null(strstr(hub, "<b>1-1.4</b> <span class=\"mut\">hub <code>05e3:0608</code> "
				    "<span class=\"tag\">high-speed (480M)</span> (not measured)"));
	assert_non_null(strstr(sb.buf, "USB bus <b>1</b> <span class=\"mut\">ehci-pci 0000:00:1d.0"));
	assert_non_null(strstr(sb.buf, "<span class=\"tag sev-warn\">capable of SuperSpeed"));
	assert_non_null(leaf);
	assert_true(sib < leaf);
	/* untrusted strings never reach the page raw */
	assert_null(strstr(sb.buf, "<b>&\""));
	assert_non_null(strstr(sb.buf, "Stick &lt;b&gt;&amp;&quot;"));
	/* the ceiling, the field reference, a point's figures, the verdict */
	assert_non_null(strstr(sb.buf, "bus ceiling 484.8 MB/s"));
	assert_non_null(strstr(sb.buf, "field reference up to ~350 MB/s"));
	assert_non_null(strstr(sb.buf, "seq-read 1M: 300 MB/s \u00b110 (min 290, max 310, 3 repeats)"));
	assert_non_null(strstr(sb.buf, "<tr class=\"v-worse\">"));
	/* one CPU chart, one quantity, labelled; each pass once (29.2.1) */
	assert_int_equal(count(sb.buf, "<h3>CPU use during each pass"), 1);
	assert_non_null(strstr(sb.buf, "<h3>CPU use during each pass: usbperf&#39;s own</h3>") ?
			    strstr(sb.buf, "<h3>CPU use during each pass: usbperf&#39;s own</h3>") :
			    strstr(sb.buf, "<h3>CPU use during each pass: usbperf's own</h3>"));
	{
		const char *cpu = strstr(sb.buf, "<h3>CPU use during each pass"),
			   *end = strstr(cpu, "</figure>");
		size_t bars = 0;

		for (const char *p = cpu; (p = strstr(p, "<rect")) && p < end; p++)
			bars++;
		assert_int_equal(bars, 1);
		assert_non_null(strstr(cpu, ">% of one CPU</text>"));
	}
	/* self-contained: no script, nothing fetched */
	assert_null(strstr(sb.buf, "<script"));
	assert_null(strstr(sb.buf, "src="));
	assert_null(strstr(sb.buf, "<link"));
	assert_int_equal(count(sb.buf, "http"), count(sb.buf, "xmlns=\"http://www.w3.org/2000/svg\""));

	strbuf_reset(&sb);
	report_text(&sb, &m, &c, false);
	assert_non_null(strstr(sb.buf, "bus ceiling 484.8 MB/s"));
	assert_non_null(strstr(sb.buf, "run 2 against run 1: regression"));

	/* 4K, 64K, 1M of run 1's seq-read on one scale: 20, 150, 300 of 300 */
	if (!strstr(sb.buf, "1 seq-read   .=#  best 300.0 MB/s at 1M"))
		fail_msg("no sparkline in:\n%s", sb.buf);
	/* run 2 alone: where its stick hangs, and that it could go faster */
	report_model_release(&m);
	assert_int_equal(report_model_build(&r[1], 1, &m), 0);
	strbuf_reset(&sb);
	report_text(&sb, &m, NULL, false);
	assert_non_null(strstr(sb.buf, "  attached ehci-pci 0000:00:1d.0 > 1-1 8087:0024 high > 1-1.4 "
				       "05e3:0608 high\n"
				       "  capable of SuperSpeed Gen 1 (5G): running slower than it can\n"));
	strbuf_release(&sb);
	compare_result_release(&c);
	report_model_release(&m);
	run_record_release(&r[0]);
	run_record_release(&r[1]);
}

/*
 * The verdict first in both reports, findings grouped under it, those about
 * no measured figure last; notes; the device found and not measured placed
 * in the topology with why.
 */
static void test_verdicts(void **state)
{
	struct run_record r[2];
	struct report_model m;
	struct strbuf sb = STRBUF_INIT;
	struct html_input in = {.model = &m, .generated_at = "2026-11-30T08:00:00Z"};
	struct run_unmeasured *u;
	const char *v, *glance, *dev, *unrelated, *slow;

	(void)state;
	two_runs(r);
	/* 1-1.4.1 at 85 % of high speed, capable of super, behind high-speed hubs */
	for (size_t i = 0; i < r[1].nmetrics; i++)
		if (!strcmp(r[1].metrics[i].name, "seq-read 1M"))
			r[1].metrics[i].value = 45;
	finding_add(&r[1].findings, FINDING_WARN, "usbcore.usbfs_memory_mb", "usbcore",
		    "usbfs memory is 16 MB", NULL, NULL);
	finding_add(&r[1].findings, FINDING_WARN, "usb.speed_below_capability", "1-1.4.1",
		    "runs at high speed, capable of super", NULL, NULL);
	run_verdicts(&r[1]);
	run_findings_order(&r[1], NULL);
	run_record_add_note(&r[1], "passes lasted under 0.5 s (shortest 30 ms)");
	u = run_record_add_unmeasured(&r[1]);
	u->key = dup("1-1.3");
	u->kind = dup("usb-net");
	u->name = dup("eth1");
	u->why = dup("a network interface: measured only with --peer HOST");
	assert_int_equal(report_model_build(&r[1], 1, &m), 0);

	report_text(&sb, &m, NULL, false);
	/* wrapped at 100 columns; the uncertain one says what to run next (29.2.8, 29.2.11) */
	v = strstr(sb.buf,
		   "verdict: what limits each device\n  1-1.4.1  hub: seq-read 1M 45.00 MB/s "
		   "is 85 % of high-speed bulk's 53.2 MB/s ceiling; the device\n      can do super, "
		   "the hub above it (1-1 8087:0024 high) links slower\n"
		   "  1-1.2  not determined: no throughput figure was measured\n"
		   "    next: see the notes for why nothing was measured; 'usbperf list' shows what "
		   "usbperf found\n");
	dev = strstr(sb.buf, "\n1-1.4.1  Stick");
	if (!v || !dev || v > dev)
		fail_msg("no verdict before the devices in:\n%s", sb.buf);
	slow = strstr(sb.buf, "  1-1.4.1 (verdict: hub)\n    warn  1-1.4.1: runs at high speed");
	unrelated =
	    strstr(sb.buf, "  not about this run's figures\n    warn  usbcore: usbfs memory");
	if (!slow || !unrelated || unrelated < slow)
		fail_msg("findings not grouped in:\n%s", sb.buf);
	assert_non_null(strstr(sb.buf, "  note: passes lasted under 0.5 s (shortest 30 ms)\n"));
	assert_non_null(
	    strstr(sb.buf, "  1-1.3  eth1: a network interface: measured only with --peer HOST\n"));

	strbuf_reset(&sb);
	html_report(&sb, &in);
	glance = strstr(sb.buf, "<section id=\"summary\">");
	v = strstr(sb.buf,
		   "<li class=\"verdict\" data-limiter=\"hub\"><a href=\"#device-1\">1-1.4.1</a> "
		   "<b>hub</b>: seq-read 1M 45.00 MB/s is 85 % of high-speed bulk&#39;s");
	if (!v)
		v = strstr(
		    sb.buf,
		    "<li class=\"verdict\" data-limiter=\"hub\"><a href=\"#device-1\">1-1.4.1</a> "
		    "<b>hub</b>: seq-read 1M 45.00 MB/s is 85 % of high-speed bulk");
	assert_non_null(glance);
	assert_non_null(v);
	assert_true(glance < v && v < strstr(sb.buf, "<table class=\"glance\">"));
	assert_non_null(
	    strstr(sb.buf, "<li class=\"note\"><span class=\"mut\">note:</span> passes lasted"));
	slow =
	    strstr(sb.buf, "<div class=\"fgroup\" data-group=\"device\" data-device=\"1-1.4.1\">");
	unrelated =
	    strstr(sb.buf, "<div class=\"fgroup\" data-group=\"unrelated\"><h4>not about this "
			   "run&#39;s figures</h4>");
	if (!unrelated)
		unrelated =
		    strstr(sb.buf, "<div class=\"fgroup\" data-group=\"unrelated\"><h4>not about "
				   "this run");
	assert_non_null(slow);
	assert_non_null(unrelated);
	assert_true(slow < unrelated);
	/* the unmeasured device in the tree, under its hub, with why */
	assert_non_null(strstr(sb.buf,
			       "<span class=\"unmeasured\"><b>1-1.3</b>  <code>eth1</code> "
			       "<span class=\"mut\">not measured: a network interface: measured "
			       "only with --peer HOST</span>"));
	assert_int_equal(count(sb.buf, "<ul"), count(sb.buf, "</ul>"));
	assert_int_equal(count(sb.buf, "<li>") + count(sb.buf, "<li "), count(sb.buf, "</li>"));
	strbuf_release(&sb);
	report_model_release(&m);
	run_record_release(&r[0]);
	run_record_release(&r[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_name),	cmocka_unit_test(test_model),
	    cmocka_unit_test(test_model_index), cmocka_unit_test(test_mtp_axes),
	    cmocka_unit_test(test_bars),	cmocka_unit_test(test_sparkline),
	    cmocka_unit_test(test_escape),	cmocka_unit_test(test_html),
	    cmocka_unit_test(test_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

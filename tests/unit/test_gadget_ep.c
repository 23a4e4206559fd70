// SPDX-License-Identifier: MIT
/*
 * classes/gadget: the endpoints up reports for each function (as the Linux 6.1
 * function drivers declare them at the gadget's speed), their ceilings from
 * the limits calculators, the text they are shown in; --max-power checked
 * before anything is made; a missing attribute named with the release that
 * added it. The tree is a temporary directory; a small fake kernel creates
 * an attribute on write, except the one it "lacks".
 */
#include "unit.h"
#include "fixture.h"
#include "classes/gadget/build.h"
#include "classes/gadget/endpoints.h"
#include "platform/usb/limits.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CFS "/sys/kernel/config/usb_gadget"

static char root[] = "/tmp/test_gadget_ep.XXXXXX";

/* ---- endpoints, per profile and speed ---- */

struct want_ep {
	const char *type, *dir;
	unsigned mp;
	double interval_us; /* 0: bulk (NaN) */
	unsigned mult, maxburst;
	double ceiling; /* B/s; 0: bulk ceiling of the speed; -1: NaN */
};

static void check_eps(const char *arg, enum usb_speed s, const struct want_ep *w, size_t n)
{
	struct gadget_built_fn fn = {0};
	struct gadget_spec spec;
	char *why = NULL;
	size_t i;

	gadget_spec_init(&spec);
	if (gadget_spec_add(&spec, arg, &why) < 0)
		fail_msg("%s: %s", arg, why);
	assert_int_equal(gadget_fn_endpoints(&spec.fns[0], NULL, s, &fn), 0);
	if (fn.neps != n)
		fail_msg("%s at %s: %zu endpoints, expected %zu", arg, usb_speed_name(s), fn.neps,
			 n);
	for (i = 0; i < n; i++) {
		const struct gadget_ep *e = &fn.eps[i];

		if (strcmp(e->type, w[i].type) || strcmp(e->dir, w[i].dir) ||
		    e->max_packet != w[i].mp || e->mult != w[i].mult ||
		    e->maxburst != w[i].maxburst)
			fail_msg("%s at %s, ep %zu: %s %s %llu B x%llu burst %llu, expected %s %s "
				 "%u B x%u burst %u",
				 arg, usb_speed_name(s), i, e->type, e->dir,
				 (unsigned long long)e->max_packet, (unsigned long long)e->mult,
				 (unsigned long long)e->maxburst, w[i].type, w[i].dir, w[i].mp,
				 w[i].mult, w[i].maxburst);
		if (w[i].interval_us)
			assert_near(e->interval_us, w[i].interval_us, 1e-9);
		else
			assert_nan(e->interval_us);
		if (w[i].ceiling < 0)
			assert_nan(e->ceiling_Bps);
		else
			assert_near(e->ceiling_Bps,
				    w[i].ceiling ? w[i].ceiling : usb_bulk_payload_Bps(s), 1e-6);
		free(e->ceiling_basis);
	}
	free(fn.eps);
	free(fn.ep_note);
	gadget_spec_release(&spec);
}

#define CHECK(arg, speed, ...)                                                                     \
	do {                                                                                       \
		const struct want_ep w_[] = {__VA_ARGS__};                                         \
		check_eps(arg, speed, w_, ARRAY_SIZE(w_));                                         \
	} while (0)

#define BULK_IN(mp, burst)                                                                         \
	{                                                                                          \
		"bulk", "in", mp, 0, 1, burst, 0                                                   \
	}
#define BULK_OUT(mp, burst)                                                                        \
	{                                                                                          \
		"bulk", "out", mp, 0, 1, burst, 0                                                  \
	}

static void test_endpoints(void **state)
{
	(void)state;
	/* f_hid: report_length as wMaxPacketSize, bInterval 10 (ms) at full speed, 4 above */
	CHECK("hid", USB_SPEED_HIGH, {"interrupt", "in", 8, 1000, 1, 0, 8000},
	      {"interrupt", "out", 8, 1000, 1, 0, 8000});
	CHECK("hid:preset=mouse", USB_SPEED_FULL, {"interrupt", "in", 4, 10000, 1, 0, 400},
	      {"interrupt", "out", 4, 10000, 1, 0, 400});
	CHECK("hid:preset=vendor64,no_out_endpoint=1", USB_SPEED_SS,
	      {"interrupt", "in", 64, 1000, 1, 0, 64000});
	CHECK("hid:preset=vendor512,interval=1,no_out_endpoint=1", USB_SPEED_HIGH,
	      {"interrupt", "in", 512, 125, 1, 0, 512 * 8000});
	/* 1024 B at full speed: f_hid declares it, USB 2.0 allows 64: no ceiling */
	CHECK("hid:preset=vendor1024,no_out_endpoint=1", USB_SPEED_FULL,
	      {"interrupt", "in", 1024, 10000, 1, 0, -1});
	/* 2048 fills wMaxPacketSize bits 12:11 at high speed: 0 B, two per microframe */
	CHECK("hid:report_length=2048,no_out_endpoint=1", USB_SPEED_HIGH,
	      {"interrupt", "in", 0, 1000, 2, 0, -1});
	/* CDC: a 16 B (rndis 8 B) notification every 32 ms, then the bulk pair */
	CHECK("ncm", USB_SPEED_HIGH, {"interrupt", "in", 16, 32000, 1, 0, 500}, BULK_IN(512, 0),
	      BULK_OUT(512, 0));
	CHECK("ncm", USB_SPEED_SS, {"interrupt", "in", 16, 32000, 1, 0, 500}, BULK_IN(1024, 15),
	      BULK_OUT(1024, 15));
	CHECK("ecm", USB_SPEED_SS, {"interrupt", "in", 16, 32000, 1, 0, 500}, BULK_IN(1024, 0),
	      BULK_OUT(1024, 0));
	CHECK("rndis", USB_SPEED_FULL, {"interrupt", "in", 8, 32000, 1, 0, 250}, BULK_IN(64, 0),
	      BULK_OUT(64, 0));
	CHECK("msc:removable=1", USB_SPEED_SS, BULK_IN(1024, 15), BULK_OUT(1024, 15));
	CHECK("msc:removable=1", USB_SPEED_HIGH, BULK_IN(512, 0), BULK_OUT(512, 0));
	CHECK("loopback", USB_SPEED_SS, BULK_IN(1024, 0), BULK_OUT(1024, 0));
	/* low speed has no bulk transfers: no ceiling rather than 0 */
	CHECK("loopback", USB_SPEED_LOW, {"bulk", "in", 64, 0, 1, 0, -1},
	      {"bulk", "out", 64, 0, 1, 0, -1});
	/* SourceSink: the 6.1 defaults, isoc_interval 4 and isoc_maxpacket 1024 */
	CHECK("sourcesink", USB_SPEED_HIGH, BULK_IN(512, 0), BULK_OUT(512, 0),
	      {"isochronous", "in", 1024, 1000, 1, 0, 1024000},
	      {"isochronous", "out", 1024, 1000, 1, 0, 1024000});
	CHECK("sourcesink", USB_SPEED_FULL, BULK_IN(64, 0), BULK_OUT(64, 0),
	      {"isochronous", "in", 1023, 8000, 1, 0, 1023 / 8e-3},
	      {"isochronous", "out", 1023, 8000, 1, 0, 1023 / 8e-3});
	CHECK("sourcesink:isoc_maxpacket=1024,isoc_mult=2,isoc_maxburst=3,isoc_interval=1",
	      USB_SPEED_SS, BULK_IN(1024, 0), BULK_OUT(1024, 0),
	      {"isochronous", "in", 1024, 125, 3, 3, 1024 * 3 * 4 * 8000.0},
	      {"isochronous", "out", 1024, 125, 3, 3, 1024 * 3 * 4 * 8000.0});
	CHECK("sourcesink:isoc_maxpacket=0", USB_SPEED_HIGH, BULK_IN(512, 0), BULK_OUT(512, 0));
	/* UVC: control 16 B at bInterval 8; 3072 B is 3 x 1024 at high speed, bInterval 1 */
	CHECK("uvc:streaming_maxpacket=3072,streaming_interval=4", USB_SPEED_HIGH,
	      {"interrupt", "in", 16, 16000, 1, 0, 1000},
	      {"isochronous", "in", 1024, 125, 3, 0, 3072 * 8000.0});
	CHECK("uvc", USB_SPEED_FULL, {"interrupt", "in", 16, 8000, 1, 0, 2000},
	      {"isochronous", "in", 1023, 1000, 1, 0, 1023000});
	/* a burst rounds the packet up to 1024 */
	CHECK("uvc:streaming_maxpacket=1000,streaming_maxburst=2", USB_SPEED_SS,
	      {"interrupt", "in", 16, 16000, 1, 0, 1000},
	      {"isochronous", "in", 1024, 125, 1, 2, 1024 * 3 * 8000.0});
}

static void test_ffs_and_speed(void **state)
{
	struct gadget_built_fn fn = {0};
	struct gadget_spec spec;
	char *why = NULL;
	bool assumed;

	(void)state;
	gadget_spec_init(&spec);
	assert_int_equal(gadget_spec_add(&spec, "ffs", &why), 0);
	assert_int_equal(gadget_fn_endpoints(&spec.fns[0], NULL, USB_SPEED_HIGH, &fn), 0);
	assert_int_equal(fn.neps, 0);
	assert_non_null(strstr(fn.ep_note, "defined by the userspace daemon"));
	assert_int_equal(gadget_fn_endpoints(&spec.fns[0], NULL, USB_SPEED_UNKNOWN, &fn), -EINVAL);
	free(fn.ep_note);
	gadget_spec_release(&spec);

	assert_int_equal(gadget_ep_speed("super-speed-plus", "high-speed", &assumed),
			 USB_SPEED_HIGH);
	assert_false(assumed);
	assert_int_equal(gadget_ep_speed("full-speed", "super-speed", &assumed), USB_SPEED_FULL);
	assert_int_equal(gadget_ep_speed(NULL, "super-speed", &assumed), USB_SPEED_SS);
	assert_int_equal(gadget_ep_speed("super-speed-plus", NULL, &assumed), USB_SPEED_SSP_G2X1);
	assert_int_equal(gadget_ep_speed(NULL, "UNKNOWN", &assumed), USB_SPEED_HIGH);
	assert_true(assumed);
}

/* the text: a heading naming the speed, one line per endpoint with its ceiling */
static void test_text(void **state)
{
	struct gadget_built b = {.ep_speed = (char *)"high-speed (480M)"};
	struct gadget_built_fn fns[2] = {
	    {.function = (char *)"hid.0"},
	    {.function = (char *)"ffs.usbperf"},
	};
	struct gadget_spec spec;
	struct strbuf out = STRBUF_INIT;
	char *why = NULL;
	size_t i, j;

	(void)state;
	gadget_spec_init(&spec);
	assert_int_equal(gadget_spec_add(&spec, "hid:preset=mouse", &why), 0);
	assert_int_equal(gadget_spec_add(&spec, "ffs", &why), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(gadget_fn_endpoints(&spec.fns[i], NULL, USB_SPEED_HIGH, &fns[i]),
				 0);
	b.fns = fns;
	b.nfns = 2;
	gadget_endpoints_text(&b, &out);
	assert_string_equal(
	    out.buf,
	    "\nendpoints: the function drivers' descriptors at high-speed (480M), as Linux 6.1 "
	    "declares them (not read from the bus)\n"
	    "hid.0, as f_hid declares them\n"
	    "  ep IN  interrupt 4 B every 1000 us x1 (interface 0): bus ceiling 4000 B/s, 4 B "
	    "per 1000 us\n"
	    "  ep OUT interrupt 4 B every 1000 us x1 (interface 0): bus ceiling 4000 B/s, 4 B "
	    "per 1000 us\n"
	    "ffs.usbperf, as f_fs declares them: defined by the userspace daemon: the "
	    "descriptors it writes to ep0\n");
	for (i = 0; i < 2; i++) {
		for (j = 0; j < fns[i].neps; j++)
			free(fns[i].eps[j].ceiling_basis);
		free(fns[i].eps);
		free(fns[i].ep_note);
	}
	strbuf_release(&out);
	gadget_spec_release(&spec);
}

/* ---- up against a tree: a write makes the attribute, except the one "missing" ---- */

static const char *missing; /* an attribute name this kernel lacks */

static int fake_write(const char *path, const void *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	struct strbuf p = STRBUF_INIT;
	int fd, r = 0;

	if (missing && base && !strcmp(base + 1, missing))
		return -ENOENT;
	strbuf_addf(&p, "%s%s", root, path);
	fd = open(p.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		r = -EIO;
	if (fd >= 0)
		close(fd);
	strbuf_release(&p);
	return r;
}

/* configfs removes a group's attributes with it */
static int fake_rmdir(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s%s", root, path);
	r = tree_rm_rf(p.buf);
	strbuf_release(&p);
	return r;
}

/* configfs makes a group's default groups with it: here, any missing parent */
static int fake_mkdir(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	size_t i;
	int r = 0;

	strbuf_addf(&p, "%s%s", root, path);
	for (i = strlen(root) + 1; r == 0 && i <= p.len; i++) {
		if (p.buf[i] != '/' && p.buf[i] != '\0')
			continue;
		p.buf[i] = '\0';
		if (mkdir(p.buf, 0755) < 0 && (errno != EEXIST || i == p.len))
			r = -errno;
		if (i < p.len)
			p.buf[i] = '/';
	}
	strbuf_release(&p);
	return r;
}

static struct gadget_fs fs;

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/test_gadget_ep.XXXXXX");
	tree_make(root);
	fs = gadget_fs_real;
	fs.write = fake_write;
	fs.mkdir = fake_mkdir;
	fs.rmdir = fake_rmdir;
	missing = NULL;
	tree_put_file(CFS "/.keep", "");
	tree_put_file("/sys/class/udc/dummy_udc.0/state", "not attached\n");
	tree_put_file("/run/usbperf/.keep", "");
	tree_put_file("/proc/sys/kernel/osrelease", "6.1.0-test\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tree_remove();
	return 0;
}

static int up(const char *arg, const char *power, struct gadget_built *b, char **why)
{
	struct gadget_spec s;
	int r;

	gadget_spec_init(&s);
	r = gadget_spec_add(&s, arg, why);
	if (r == 0 && power)
		r = gadget_spec_set_max_power(&s, power, why);
	if (r == 0)
		r = gadget_up(&s, &fs, b, why);
	gadget_spec_release(&s);
	return r;
}

static bool gadget_dir_left(void)
{
	return sysroot_exists(CFS "/usbperf") ||
	       sysroot_exists("/run/usbperf/gadget-usbperf.state");
}

/* MaxPower: written as given; above 500 mA refused below SuperSpeed, before anything is made */
static void test_max_power(void **state)
{
	struct gadget_built b = {0};
	char *why = NULL, *v;
	int64_t n;

	(void)state;
	assert_int_equal(up("loopback", NULL, &b, &why), 0);
	v = tree_read(CFS "/usbperf/configs/c.1/MaxPower");
	assert_string_equal(v, "250");
	free(v);
	/* up reports what it built: the endpoints, at the assumed high speed */
	assert_int_equal(b.max_power_ma, 250);
	assert_true(b.ep_speed_assumed);
	assert_int_equal(b.fns[0].neps, 2);
	assert_int_equal(b.fns[0].eps[0].max_packet, 512);
	gadget_built_release(&b);
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);

	assert_int_equal(up("loopback", "900", &b, &why), -EINVAL);
	assert_non_null(strstr(why, "--max-power 900 mA: below SuperSpeed a configuration draws "
				    "at most 500 mA (the UDC's maximum speed is unknown"));
	assert_false(gadget_dir_left());
	free(why);
	why = NULL;
	tree_put_file("/sys/class/udc/dummy_udc.0/maximum_speed", "high-speed\n");
	assert_int_equal(up("loopback", "501", &b, &why), -EINVAL);
	assert_non_null(strstr(why, "(the gadget runs at high-speed"));
	assert_false(gadget_dir_left());
	free(why);
	why = NULL;

	tree_put_file("/sys/class/udc/dummy_udc.0/maximum_speed", "super-speed\n");
	assert_int_equal(up("loopback", "900", &b, &why), 0);
	v = tree_read(CFS "/usbperf/configs/c.1/MaxPower");
	assert_string_equal(v, "900");
	free(v);
	assert_false(b.ep_speed_assumed);
	assert_int_equal(b.fns[0].eps[0].max_packet, 1024);
	gadget_built_release(&b);
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);

	{
		struct gadget_spec s;

		gadget_spec_init(&s);
		assert_int_equal(gadget_spec_set_max_power(&s, "0", &why), 0);
		assert_int_equal(s.max_power_ma, 0);
		assert_int_equal(gadget_spec_set_max_power(&s, "901", &why), -EINVAL);
		assert_non_null(strstr(why, "invalid --max-power '901'"));
		free(why);
		why = NULL;
		assert_int_equal(gadget_spec_set_max_power(&s, "-1", &why), -EINVAL);
		free(why);
		why = NULL;
		assert_int_equal(gadget_spec_set_max_power(&s, "100mA", &why), -EINVAL);
		free(why);
		gadget_spec_release(&s);
	}
}

/* an attribute the running kernel lacks: named with the release that added it */
static void test_missing_attribute(void **state)
{
	struct gadget_built b = {0};
	char *why = NULL, *v;

	(void)state;
	missing = "interval";
	assert_int_equal(up("hid:interval=2", NULL, &b, &why), -ENOENT);
	if (!strstr(why, "this kernel (6.1.0-test) has no attribute 'interval' in '" CFS
			 "/usbperf/functions/hid.0' (added in Linux 6.16)"))
		fail_msg("why: %s", why);
	assert_false(gadget_dir_left());
	free(why);
	why = NULL;
	/* one the table does not know keeps the plain text */
	missing = "qmult";
	assert_int_equal(up("ncm:qmult=5", NULL, &b, &why), -ENOENT);
	assert_non_null(
	    strstr(why, "has no attribute 'qmult' in '" CFS "/usbperf/functions/ncm.0'"));
	assert_null(strstr(why, "added in"));
	assert_false(gadget_dir_left());
	free(why);
	why = NULL;
	/* a kernel that has them: both written, and the endpoints follow them */
	missing = NULL;
	assert_int_equal(up("hid:interval=2,no_out_endpoint=1", NULL, &b, &why), 0);
	v = tree_read(CFS "/usbperf/functions/hid.0/interval");
	assert_string_equal(v, "2");
	free(v);
	v = tree_read(CFS "/usbperf/functions/hid.0/no_out_endpoint");
	assert_string_equal(v, "1");
	free(v);
	assert_int_equal(b.fns[0].neps, 1);
	assert_near(b.fns[0].eps[0].interval_us, 250, 1e-9);
	gadget_built_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_endpoints),
	    cmocka_unit_test(test_ffs_and_speed),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test_setup_teardown(test_max_power, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing_attribute, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

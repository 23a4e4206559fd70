// SPDX-License-Identifier: MIT
/*
 * run's gadget class against a configfs and sysfs tree in a temporary
 * directory: which HID functions it feeds (usbperf's own gadget, a
 * vendor-defined report descriptor, a configured UDC) and which it lists
 * with why (a keyboard, someone else's gadget, no host), and the note on
 * the functions the host drives.
 */
#include "unit.h"
#include "fixture.h"
#include "classes/hid/gadget.h"
#include "run/run.h"
#include "run/run_priv.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CFS "/sys/kernel/config/usb_gadget"

static char root[] = "/tmp/test_gadget_run.XXXXXX";

/* the lab's vendor64 and the boot keyboard's first bytes (Generic Desktop) */
static const unsigned char vendor64[] = {
    0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08,
    0x95, 0x40, 0x09, 0x01, 0x81, 0x02, 0x09, 0x01, 0x95, 0x40, 0x91, 0x02, 0xc0,
};
static const unsigned char keyboard[] = {
    0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x75, 0x08, 0x95, 0x08, 0x81, 0x02, 0xc0,
};

/* gadget g, function hid.N with node hidg<minor>, linked into c.1 */
static void hid_fn(const char *g, const char *fn, unsigned minor, const unsigned char *desc,
		   size_t len, const char *report_length)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	strbuf_addf(&p, CFS "/%s/functions/%s", g, fn);
	tree_put_dir(p.buf);
	strbuf_addf(&v, "%s/report_desc", p.buf);
	tree_put_bytes(v.buf, desc, len);
	strbuf_reset(&v);
	strbuf_addf(&v, "%s/report_length", p.buf);
	tree_put_file(v.buf, report_length);
	strbuf_reset(&v);
	strbuf_addf(&v, "%s/dev", p.buf);
	tree_put_file(v.buf, "");
	{
		struct strbuf d = STRBUF_INIT;

		strbuf_addf(&d, "236:%u\n", minor);
		tree_put_file(v.buf, d.buf);
		strbuf_reset(&d);
		strbuf_addf(&d, "/sys/devices/virtual/hidg/hidg%u", minor);
		tree_put_dir(d.buf);
		strbuf_adds(&d, "/uevent");
		strbuf_reset(&v);
		strbuf_addf(&v, "MAJOR=236\nMINOR=%u\nDEVNAME=hidg%u\n", minor, minor);
		tree_put_file(d.buf, v.buf);
		strbuf_reset(&d);
		strbuf_addf(&d, "/sys/dev/char/236:%u", minor);
		strbuf_reset(&v);
		strbuf_addf(&v, "../../devices/virtual/hidg/hidg%u", minor);
		tree_put_link(v.buf, d.buf);
		strbuf_release(&d);
	}
	strbuf_reset(&v);
	strbuf_addf(&v, CFS "/%s/configs/c.1/%s", g, fn);
	tree_put_link(p.buf, v.buf);
	strbuf_release(&p);
	strbuf_release(&v);
}

static void gadget(const char *g, const char *udc)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, CFS "/%s/configs/c.1", g);
	tree_put_dir(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, CFS "/%s/functions", g);
	tree_put_dir(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, CFS "/%s/UDC", g);
	tree_put_file(p.buf, udc);
	strbuf_release(&p);
}

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/test_gadget_run.XXXXXX");
	tree_make(root);
	tree_put_dir("/sys/dev/char");
	tree_put_dir("/run/usbperf");
	tree_put_dir("/sys/class/udc/dummy_udc.0");
	tree_put_dir("/sys/class/udc/dummy_udc.1");
	tree_put_file("/sys/class/udc/dummy_udc.0/state", "configured\n");
	tree_put_file("/sys/class/udc/dummy_udc.0/current_speed", "high-speed\n");
	tree_put_file("/sys/class/udc/dummy_udc.1/state", "configured\n");
	tree_put_file("/sys/class/udc/dummy_udc.1/current_speed", "full-speed\n");
	/* usbperf's: a vendor HID, a keyboard and an NCM function on dummy_udc.0 */
	gadget("usbperf", "dummy_udc.0\n");
	tree_put_file("/run/usbperf/gadget-usbperf.state",
		 "usbperf-gadget 1 usbperf\ndir " CFS "/usbperf\n");
	hid_fn("usbperf", "hid.0", 0, vendor64, sizeof(vendor64), "64\n");
	hid_fn("usbperf", "hid.1", 1, keyboard, sizeof(keyboard), "8\n");
	tree_put_dir(CFS "/usbperf/functions/ncm.0");
	tree_put_link(CFS "/usbperf/functions/ncm.0", CFS "/usbperf/configs/c.1/ncm.0");
	/* someone else's vendor HID on dummy_udc.1 */
	gadget("g1", "dummy_udc.1\n");
	hid_fn("g1", "hid.x", 2, vendor64, sizeof(vendor64), "64\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tree_remove();
	return 0;
}

static const struct run_unmeasured *unmeasured(const struct run_result *r, const char *name)
{
	for (size_t i = 0; i < r->rec.nunmeasured; i++)
		if (r->rec.unmeasured[i].name && !strcmp(r->rec.unmeasured[i].name, name))
			return &r->rec.unmeasured[i];
	return NULL;
}

static bool noted(const struct run_result *r, const char *part)
{
	for (size_t i = 0; i < r->rec.nnotes; i++)
		if (strstr(r->rec.notes[i].text, part))
			return true;
	return false;
}

static void test_discover(void **state)
{
	struct run_options o = {0};
	struct run_result r = {0};
	const struct run_unmeasured *u;

	(void)state;
	run_class_find("gadget")->discover(&o, &r);
	/* fed: usbperf's vendor HID only */
	assert_int_equal(r.nplan, 1);
	assert_string_equal(r.plan[0].path, "/dev/hidg0");
	assert_string_equal(r.plan[0].device_key, "udc:dummy_udc.0");
	assert_string_equal(r.plan[0].kind, "usb-gadget-hid");
	assert_false(r.plan[0].on_usb);
	/* the keyboard would type on the host */
	u = unmeasured(&r, "/dev/hidg1");
	assert_non_null(u);
	assert_non_null(strstr(u->why, "0x0001"));
	assert_non_null(strstr(u->why, "vendor-defined"));
	/* someone else's gadget, even a vendor one */
	u = unmeasured(&r, "/dev/hidg2");
	assert_non_null(u);
	assert_non_null(strstr(u->why, "not one usbperf made"));
	assert_true(noted(&r, "ncm.0 carry what the host drives"));
	run_result_release(&r);
}

/* no host has configured the gadget: listed with the UDC's state, not fed */
static void test_not_configured(void **state)
{
	struct run_options o = {0};
	struct run_result r = {0};
	const struct run_unmeasured *u;

	(void)state;
	tree_put_file("/sys/class/udc/dummy_udc.0/state", "not attached\n");
	run_class_find("gadget")->discover(&o, &r);
	assert_int_equal(r.nplan, 0);
	u = unmeasured(&r, "/dev/hidg0");
	assert_non_null(u);
	assert_non_null(strstr(u->why, "state 'not attached'"));
	run_result_release(&r);
}

/* the endpoint f_hid declares: 1 ms at high speed, 10 ms at full speed */
static void test_in_endpoint(void **state)
{
	struct hid_gadget_fn f = {0};
	struct hid_endpoint ep;

	(void)state;
	assert_int_equal(hid_gadget_fn_of_dev(236, 0, &f), 0);
	assert_string_equal(f.function, "hid.0");
	assert_string_equal(f.node, "/dev/hidg0");
	assert_int_equal(f.report_length, 64);
	assert_non_null(f.rdesc);
	assert_string_equal(f.udc_speed, "high-speed");
	assert_int_equal(hid_gadget_in_endpoint(&f, &ep), 0);
	assert_true(ep.has_ceiling);
	assert_true(ep.ceiling.rates[0].reports_per_s > 999.9 &&
		    ep.ceiling.rates[0].reports_per_s < 1000.1);
	usb_hid_result_release(&ep.ceiling);
	hid_gadget_fn_release(&f);
	assert_int_equal(hid_gadget_fn_of_dev(236, 2, &f), 0);
	assert_string_equal(f.gadget, "g1");
	assert_string_equal(f.udc_speed, "full-speed");
	assert_int_equal(hid_gadget_in_endpoint(&f, &ep), 0);
	assert_true(ep.ceiling.rates[0].reports_per_s > 99.9 &&
		    ep.ceiling.rates[0].reports_per_s < 100.1);
	usb_hid_result_release(&ep.ceiling);
	hid_gadget_fn_release(&f);
	/* the interval attribute (Linux 6.16+) is the bInterval: 8 at high speed, 16 ms */
	tree_put_file(CFS "/usbperf/functions/hid.0/interval", "8\n");
	assert_int_equal(hid_gadget_fn_of_dev(236, 0, &f), 0);
	assert_int_equal(f.interval, 8);
	assert_int_equal(hid_gadget_in_endpoint(&f, &ep), 0);
	assert_true(ep.ceiling.rates[0].reports_per_s > 62.4 &&
		    ep.ceiling.rates[0].reports_per_s < 62.6);
	usb_hid_result_release(&ep.ceiling);
	hid_gadget_fn_release(&f);
	assert_int_equal(hid_gadget_fn_of_dev(236, 9, &f), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_discover, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_configured, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_in_endpoint, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

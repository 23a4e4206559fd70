// SPDX-License-Identifier: MIT
/*
 * classes/hid probe against a sysfs tree built in a temporary directory: a
 * hidraw node up to its USB interface and device, the interrupt endpoints
 * from the descriptors, the report sizes from the report descriptor, the
 * ceiling; and the refusals (not USB, no such node, a bad descriptor).
 */
#include "classes/hid/hid.h"
#include "unit.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USBDEV "/sys/devices/pci0000:00/0000:00:01.0/usb2/2-1"
#define INTF USBDEV "/2-1:1.0"

static char root[] = "/tmp/usbperf-hid-XXXXXX";

static void put(const char *path, const void *data, size_t len)
{
	char p[512], *slash;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, path);
	for (slash = strchr(p + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0700);
		*slash = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void puts_(const char *path, const char *text)
{
	put(path, text, strlen(text));
}

static void link_(const char *target, const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s%s", root, path);
	assert_int_equal(symlink(target, p), 0);
}

/* device, configuration, HID interface, HID descriptor, interrupt IN and OUT */
static uint8_t descriptors[] = {
    0x12, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40, 0x6b, 0x1d, 0x04, 0x01, 0x00, 0x01,
    0x01, 0x02, 0x03, 0x01, 0x09, 0x02, 0x29, 0x00, 0x01, 0x01, 0x00, 0x80, 0x32, 0x09,
    0x04, 0x00, 0x00, 0x02, 0x03, 0x00, 0x00, 0x00, 0x09, 0x21, 0x11, 0x01, 0x00, 0x01,
    0x22, 0x1b, 0x00, 0x07, 0x05, 0x81, 0x03, 0x40, 0x00, 0x04, /* IN 0x81, 64 B, bInterval 4 */
    0x07, 0x05, 0x01, 0x03, 0x40, 0x00, 0x04,
};
#define IN_INTERVAL_AT 51

static const uint8_t vendor64[] = {
    0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08,
    0x95, 0x40, 0x09, 0x01, 0x81, 0x02, 0x09, 0x01, 0x95, 0x40, 0x91, 0x02, 0xc0,
};

/* one hidraw on bus BUS ("0003" USB) below the USB interface */
static void tree(const char *bus, const uint8_t *rdesc, size_t rlen)
{
	char hid[128], p[256], t[64];

	snprintf(hid, sizeof(hid), INTF "/%s:1D6B:0104.0001", bus);
	puts_(USBDEV "/speed", "480\n");
	puts_(USBDEV "/idVendor", "1d6b\n");
	puts_(USBDEV "/idProduct", "0104\n");
	puts_(USBDEV "/product", "lab hid\n");
	puts_(USBDEV "/bConfigurationValue", "1\n");
	put(USBDEV "/descriptors", descriptors, sizeof(descriptors));
	puts_(INTF "/bAlternateSetting", " 0\n");
	puts_("/sys/bus/usb/drivers/usbhid/.keep", "");
	link_("../../../../../../bus/usb/drivers/usbhid", INTF "/driver");
	snprintf(p, sizeof(p), "%s/report_descriptor", hid);
	put(p, rdesc, rlen);
	snprintf(p, sizeof(p), "%s/hidraw/hidraw0/dev", hid);
	puts_(p, "244:0\n");
	snprintf(p, sizeof(p), "../../..%s/hidraw/hidraw0", hid);
	puts_("/sys/class/hidraw/.keep", "");
	link_(p, "/sys/class/hidraw/hidraw0");
	snprintf(p, sizeof(p), "%s/hidraw/hidraw0/device", hid);
	snprintf(t, sizeof(t), "../../../%s:1D6B:0104.0001", bus);
	link_(t, p);
	snprintf(p, sizeof(p), "../../..%s/hidraw/hidraw0", hid);
	puts_("/sys/dev/char/.keep", "");
	link_(p, "/sys/dev/char/244:0");
	puts_("/sys/bus/usb/devices/.keep", "");
	link_("../../../.." USBDEV, "/sys/bus/usb/devices/2-1");
	link_("../../../.." INTF, "/sys/bus/usb/devices/2-1:1.0");
}

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/usbperf-hid-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	sysroot_set(root);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_probe(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct hid_device d;

	(void)state;
	tree("0003", vendor64, sizeof(vendor64));
	assert_int_equal(hid_device_probe("hidraw0", &d, &why), 0);
	assert_string_equal(d.node, "/dev/hidraw0");
	assert_string_equal(d.hid, "0003:1D6B:0104.0001");
	assert_string_equal(d.usb.device, "2-1");
	assert_string_equal(d.usb.interface, "2-1:1.0");
	assert_string_equal(d.usb.vid_pid, "1d6b:0104");
	assert_string_equal(d.usb.driver, "usbhid");
	assert_int_equal(d.usb.speed, USB_SPEED_HIGH);
	assert_int_equal(d.in_bytes, 64);
	assert_int_equal(d.out_bytes, 64);
	assert_true(d.in.present && d.out.present);
	assert_int_equal(d.in.address, 0x81);
	assert_int_equal(d.out.address, 0x01);
	assert_int_equal(d.in.max_packet, 64);
	assert_int_equal(d.in.interval, 4);
	/* bInterval 4 at high speed: 2^3 x 125 us = 1 ms, 1000 reports/s, 64 000 B/s */
	assert_true(d.in.has_ceiling);
	assert_near(d.in.period_us, 1000, 1e-9);
	assert_near(d.in.ceiling.rates[0].reports_per_s, 1000, 1e-9);
	assert_near(d.in.ceiling.rates[0].Bps, 64000, 1e-9);
	hid_device_release(&d);

	/* the same device by its USB ID, upper or lower case */
	assert_int_equal(hid_device_probe("1D6B:0104", &d, &why), 0);
	assert_string_equal(d.name, "hidraw0");
	hid_device_release(&d);
	/* two nodes of one device: the lowest number, not the first name in order */
	{
		char p[512], t[512];
		ssize_t n;

		snprintf(p, sizeof(p), "%s/sys/class/hidraw/hidraw0", root);
		n = readlink(p, t, sizeof(t) - 1);
		assert_true(n > 0);
		t[n] = '\0';
		link_(t, "/sys/class/hidraw/hidraw10");
		link_(t, "/sys/class/hidraw/hidraw2");
		assert_int_equal(unlink(p), 0);
		assert_int_equal(hid_device_probe("1d6b:0104", &d, &why), 0);
		assert_string_equal(d.name, "hidraw2");
		hid_device_release(&d);
	}
	assert_int_equal(hid_device_probe("1d6b:0105", &d, &why), -ENOENT);
	assert_string_equal(why.buf, "no hidraw device with USB ID 1d6b:0105");
	assert_int_equal(hid_device_probe("hidraw1", &d, &why), -ENOENT);
	assert_string_equal(why.buf, "no hidraw device 'hidraw1'");
	assert_int_equal(hid_device_probe("mouse0", &d, &why), -ENOENT);
	strbuf_release(&why);
}

static void test_probe_interval(void **state)
{
	struct hid_device d;

	(void)state;
	descriptors[IN_INTERVAL_AT] = 1;
	tree("0003", vendor64, sizeof(vendor64));
	assert_int_equal(hid_device_probe("hidraw0", &d, NULL), 0);
	assert_near(d.in.period_us, 125, 1e-9);
	assert_near(d.in.ceiling.rates[0].reports_per_s, 8000, 1e-9);
	hid_device_release(&d);
	descriptors[IN_INTERVAL_AT] = 4;
}

static void test_not_usb(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct hid_device d;

	(void)state;
	tree("0005", vendor64, sizeof(vendor64));
	assert_int_equal(hid_device_probe("hidraw0", &d, &why), -EPROTONOSUPPORT);
	assert_string_equal(why.buf, "'/dev/hidraw0' is HID over Bluetooth, not USB");
	strbuf_release(&why);
}

static void test_bad_rdesc(void **state)
{
	static const uint8_t bad[] = {0xa1, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02};
	struct strbuf why = STRBUF_INIT;
	struct hid_device d;

	(void)state;
	tree("0003", bad, sizeof(bad));
	assert_int_equal(hid_device_probe("hidraw0", &d, &why), -EINVAL);
	assert_string_equal(why.buf, "the report descriptor of '/dev/hidraw0' does not parse: 1 "
				     "collection not ended at byte 8");
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_probe, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_probe_interval, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_usb, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_rdesc, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/* classes/bulk: device choice from a sysfs tree, endpoint choice from descriptors, ceilings. */
#include "unit.h"

#include "classes/bulk/bulk.h"
#include "classes/bulk/engine.h"
#include "classes/bulk/fields.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* dev NAME VID PID BUS DEV SPEED: a device directory as sysfs has it */
static void dev(const char *name, const char *vid, const char *pid, const char *bus,
		const char *devnum, const char *speed)
{
	char p[256];

#define ATTR(a, v)                                                                                 \
	do {                                                                                       \
		snprintf(p, sizeof(p), "/sys/bus/usb/devices/%s/" a, name);                        \
		put(p, v);                                                                         \
	} while (0)
	ATTR("idVendor", vid);
	ATTR("idProduct", pid);
	ATTR("busnum", bus);
	ATTR("devnum", devnum);
	ATTR("speed", speed);
	ATTR("bConfigurationValue", "1\n");
	ATTR("product", "lab gadget\n");
#undef ATTR
}

static int setup_tree(void **state)
{
	(void)state;
	strcpy(root, "/tmp/test_bulk.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* sysfs lists in name order: the other device before the gadget */
	dev("usb1", "1d6b\n", "0002\n", "1\n", "1\n", "480\n");
	dev("1-1", "1234\n", "5678\n", "1\n", "2\n", "12\n");
	dev("1-2", "0525\n", "a4a0\n", "1\n", "3\n", "480\n");
	dev("2-1", "0525\n", "a4a0\n", "2\n", "2\n", "5000\n");
	put("/sys/bus/usb/devices/1-2:1.0/bInterfaceNumber", "00\n");
	put("/sys/bus/usb/drivers/usbtest/module", "");
	link_to("../../../../bus/usb/drivers/usbtest", "/sys/bus/usb/devices/1-2:1.0/driver");
	sysroot_set(root);
	return 0;
}

static int teardown_tree(void **state)
{
	char cmd[128];

	(void)state;
	sysroot_set("");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static const char *find_one(const char *name, int vid, int pid, size_t *ret_n, int *ret_r)
{
	static char first[64];
	struct bulk_select sel = {name, vid, pid};
	struct bulk_sysdev *v = NULL;
	size_t n = 0;

	*ret_r = bulk_find_devices(&sel, &v, &n);
	*ret_n = n;
	first[0] = '\0';
	if (*ret_r == 0) {
		snprintf(first, sizeof(first), "%s %04x:%04x %u/%u %s", v[0].sysname, v[0].vid,
			 v[0].pid, v[0].busnum, v[0].devnum, usb_speed_name(v[0].speed));
		bulk_sysdevs_free(v, n);
	}
	return first;
}

static void test_find(void **state)
{
	static const struct {
		const char *name;
		int vid, pid;
		int r;
		size_t n;
		const char *first;
	} cases[] = {
	    /* the default: the gadget-zero IDs first, then every other device (no root hub) */
	    {NULL, -1, -1, 0, 3, "1-2 0525:a4a0 1/3 high"},
	    {NULL, 0x1234, 0x5678, 0, 1, "1-1 1234:5678 1/2 full"},
	    {NULL, 0x0525, -1, 0, 2, "1-2 0525:a4a0 1/3 high"},
	    {"2-1", -1, -1, 0, 1, "2-1 0525:a4a0 2/2 super"},
	    {"1234:5678", -1, -1, 0, 1, "1-1 1234:5678 1/2 full"},
	    {"/dev/bus/usb/002/002", -1, -1, 0, 1, "2-1 0525:a4a0 2/2 super"},
	    {"/dev/bus/usb/003/001", -1, -1, -ENODEV, 0, ""},
	    {"9-9", -1, -1, -ENODEV, 0, ""},
	    {NULL, 0xdead, 0xbeef, -ENODEV, 0, ""},
	    {"usb1", -1, -1, -ENODEV, 0, ""}, /* a root hub is no device to measure */
	    {"/dev/sda", -1, -1, -EINVAL, 0, ""},
	    {"", -1, -1, -EINVAL, 0, ""},
	    {"1-2:1.0", -1, -1, -EINVAL, 0, ""},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n;
		int r;
		const char *first = find_one(cases[i].name, cases[i].vid, cases[i].pid, &n, &r);

		if (r != cases[i].r || n != cases[i].n || strcmp(first, cases[i].first))
			fail_msg("case %zu (%s %d %d): r %d n %zu '%s', expected r %d n %zu '%s'",
				 i, cases[i].name ? cases[i].name : "-", cases[i].vid, cases[i].pid,
				 r, n, first, cases[i].r, cases[i].n, cases[i].first);
	}
}

static void test_iface_driver(void **state)
{
	struct bulk_sysdev d = {.sysname = "1-2"};
	char *drv;

	(void)state;
	drv = bulk_iface_driver(&d, 0);
	assert_non_null(drv);
	assert_string_equal(drv, "usbtest");
	free(drv);
	assert_null(bulk_iface_driver(&d, 1));
}

/* descriptors built in memory, as libusb hands them over */
#define EP(addr, type, mps)                                                                        \
	{                                                                                          \
		LIBUSB_DT_ENDPOINT_SIZE, LIBUSB_DT_ENDPOINT, addr, type, mps, 1, 0, 0, NULL, 0     \
	}

static const struct libusb_endpoint_descriptor ss_alt0[] = {
    EP(0x81, LIBUSB_TRANSFER_TYPE_BULK, 512),
    EP(0x01, LIBUSB_TRANSFER_TYPE_BULK, 512),
};
static const struct libusb_endpoint_descriptor ss_alt1[] = {
    EP(0x81, LIBUSB_TRANSFER_TYPE_BULK, 512),
    EP(0x01, LIBUSB_TRANSFER_TYPE_BULK, 512),
    EP(0x82, LIBUSB_TRANSFER_TYPE_ISOCHRONOUS, 1024 | (2 << 11)),
    EP(0x02, LIBUSB_TRANSFER_TYPE_ISOCHRONOUS, 1024),
};
static const struct libusb_endpoint_descriptor hid_eps[] = {
    EP(0x83, LIBUSB_TRANSFER_TYPE_INTERRUPT, 8),
};
static const struct libusb_endpoint_descriptor vendor_eps[] = {
    EP(0x84, LIBUSB_TRANSFER_TYPE_BULK, 512),
    EP(0x85, LIBUSB_TRANSFER_TYPE_BULK, 512),
    EP(0x06, LIBUSB_TRANSFER_TYPE_BULK, 512),
};

#define ALT(num, alt, eps)                                                                         \
	{                                                                                          \
		9, LIBUSB_DT_INTERFACE, num, alt, ARRAY_SIZE(eps), 0xff, 0, 0, 0, eps, NULL, 0     \
	}

static const struct libusb_interface_descriptor hid_alts[] = {ALT(0, 0, hid_eps)};
static const struct libusb_interface_descriptor ss_alts[] = {ALT(1, 0, ss_alt0),
							     ALT(1, 1, ss_alt1)};
static const struct libusb_interface_descriptor vendor_alts[] = {ALT(2, 0, vendor_eps)};
static const struct libusb_interface ifaces[] = {
    {hid_alts, 1},
    {ss_alts, 2},
    {vendor_alts, 1},
};
static const struct libusb_interface hid_only[] = {{hid_alts, 1}};

static void test_pick(void **state)
{
	static const struct {
		int iface, ep_in, ep_out;
		bool iso, hid_only;
		int r;
		int got_iface, got_alt;
		unsigned in, out, mult_in;
		const char *why;
	} cases[] = {
	    /* the first interface with a bulk pair, in alt setting 0: not the HID one */
	    {-1, -1, -1, false, false, 0, 1, 0, 0x81, 0x01, 1, ""},
	    {2, -1, -1, false, false, 0, 2, 0, 0x84, 0x06, 1, ""},
	    {2, 0x85, -1, false, false, 0, 2, 0, 0x85, 0x06, 1, ""},
	    {-1, 0x85, 0x06, false, false, 0, 2, 0, 0x85, 0x06, 1, ""},
	    /* iso: SourceSink's alt 1, mult from wMaxPacketSize bits 12:11 */
	    {-1, -1, -1, true, false, 0, 1, 1, 0x82, 0x02, 3, ""},
	    {0, -1, -1, false, false, -ENOENT, 0, 0, 0, 0, 0,
	     "interface 0 has no bulk IN+OUT endpoints"},
	    {1, 0x87, -1, false, false, -ENOENT, 0, 0, 0, 0, 0,
	     "interface 1 has no bulk IN+OUT endpoints at the addresses given"},
	    {-1, -1, -1, false, true, -ENOENT, 0, 0, 0, 0, 0,
	     "no interface has bulk IN+OUT endpoints"},
	    {-1, -1, -1, true, true, -ENOENT, 0, 0, 0, 0, 0,
	     "no interface has isochronous endpoints"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct libusb_config_descriptor cfg = {
		    .bLength = 9,
		    .bDescriptorType = LIBUSB_DT_CONFIG,
		    .bNumInterfaces = cases[i].hid_only ? 1 : 3,
		    .interface = cases[i].hid_only ? hid_only : ifaces,
		};
		struct bulk_want w = {cases[i].iface, cases[i].ep_in, cases[i].ep_out,
				      cases[i].iso};
		struct bulk_eps e = {.iface = -7};
		char why[128] = "";
		int r = bulk_pick_endpoints(&cfg, &w, &e, why, sizeof(why));

		if (r != cases[i].r || strcmp(why, cases[i].why))
			fail_msg("case %zu: r %d why '%s', expected %d '%s'", i, r, why, cases[i].r,
				 cases[i].why);
		if (r < 0) {
			assert_int_equal(e.iface, -7); /* untouched */
			continue;
		}
		if (e.iface != cases[i].got_iface || e.alt != cases[i].got_alt ||
		    e.ep_in != cases[i].in || e.ep_out != cases[i].out ||
		    e.mult_in != cases[i].mult_in)
			fail_msg("case %zu: iface %d alt %d in 0x%02x out 0x%02x mult %u", i,
				 e.iface, e.alt, e.ep_in, e.ep_out, e.mult_in);
		assert_int_equal(e.mps_in, cases[i].iso ? 1024 : 512);
	}
}

/* SuperSpeed iso: bursts and Mult come from the endpoint companion that follows it */
static const unsigned char companion[] = {6, LIBUSB_DT_SS_ENDPOINT_COMPANION, 2, 1, 0x00, 0x18};
static const struct libusb_endpoint_descriptor ss_iso_eps[] = {
    {LIBUSB_DT_ENDPOINT_SIZE, LIBUSB_DT_ENDPOINT, 0x82, LIBUSB_TRANSFER_TYPE_ISOCHRONOUS, 1024, 1,
     0, 0, companion, sizeof(companion)},
};
static const struct libusb_interface_descriptor ss_iso_alts[] = {ALT(0, 0, ss_alt0),
								 ALT(0, 1, ss_iso_eps)};
static const struct libusb_interface ss_iso_iface[] = {{ss_iso_alts, 2}};

static void test_pick_ss_iso(void **state)
{
	struct libusb_config_descriptor cfg = {
	    .bLength = 9,
	    .bDescriptorType = LIBUSB_DT_CONFIG,
	    .bNumInterfaces = 1,
	    .interface = ss_iso_iface,
	};
	struct bulk_want w = {-1, -1, -1, true};
	struct bulk_eps e;
	char why[128] = "";

	(void)state;
	assert_int_equal(bulk_pick_endpoints(&cfg, &w, &e, why, sizeof(why)), 0);
	assert_int_equal(e.alt, 1);
	assert_int_equal(e.ep_in, 0x82);
	assert_int_equal(e.ep_out, 0);
	/* bMaxBurst 2 (3 packets per burst) x Mult 1 (2 bursts) */
	assert_int_equal(e.mult_in, 6);
	/* 6 x 1024 B per 125 us bus interval */
	assert_near(bulk_iso_ceiling_mb_s(USB_SPEED_SS, e.mps_in, e.mult_in, e.interval_in), 49.152,
		    1e-9);
}

static void test_ceilings(void **state)
{
	(void)state;
	assert_near(bulk_ceiling_mb_s(USB_SPEED_HIGH, BULK_DIR_IN), 53.248, 1e-9);
	assert_near(bulk_ceiling_mb_s(USB_SPEED_HIGH, BULK_DIR_BOTH), 53.248, 1e-9);
	assert_near(bulk_ceiling_mb_s(USB_SPEED_FULL, BULK_DIR_OUT), 1.216, 1e-9);
	assert_near(bulk_ceiling_mb_s(USB_SPEED_SS, BULK_DIR_OUT), 500.0 * 1024 / 1056, 1e-6);
	assert_near(bulk_ceiling_mb_s(USB_SPEED_SS, BULK_DIR_BOTH), 1000.0 * 1024 / 1056, 1e-6);
	assert_nan(bulk_ceiling_mb_s(USB_SPEED_LOW, BULK_DIR_IN));
	assert_nan(bulk_ceiling_mb_s(USB_SPEED_UNKNOWN, BULK_DIR_IN));
	/* iso: 3 x 1024 B per 125 us microframe; 1023 B per 1 ms frame; every 8th microframe */
	assert_near(bulk_iso_ceiling_mb_s(USB_SPEED_HIGH, 1024, 3, 1), 24.576, 1e-9);
	assert_near(bulk_iso_ceiling_mb_s(USB_SPEED_FULL, 1023, 1, 1), 1.023, 1e-9);
	assert_near(bulk_iso_ceiling_mb_s(USB_SPEED_HIGH, 1024, 1, 4), 1.024, 1e-9);
	assert_nan(bulk_iso_ceiling_mb_s(USB_SPEED_HIGH, 1024, 1, 0));
	assert_nan(bulk_iso_ceiling_mb_s(USB_SPEED_HIGH, 0, 1, 1));
}

static void test_point(void **state)
{
	struct bulk_point p = {
	    .dir = BULK_DIR_BOTH,
	    .size = 65536,
	    .depth = 8,
	    .seconds = 2.0,
	    .bytes_in = 30000000,
	    .bytes_out = 10000000,
	    .ceiling_mb_s = 40.0,
	};
	struct bulk_row row;
	char name[64];

	(void)state;
	bulk_point_finish(&p);
	assert_near(p.in_mb_s, 15.0, 1e-12);
	assert_near(p.out_mb_s, 5.0, 1e-12);
	assert_near(p.mb_s, 20.0, 1e-12);
	assert_near(p.share_pct, 50.0, 1e-12);
	bulk_point_name(&p, name, sizeof(name));
	assert_string_equal(name, "both-64K-q8");
	p.iso = true;
	p.dir = BULK_DIR_IN;
	p.size = 1 << 20;
	bulk_point_name(&p, name, sizeof(name));
	assert_string_equal(name, "iso-in-1M-q8");
	assert_int_equal(bulk_row_from_point(&p, &row), 0);
	assert_string_equal(row.pass, "iso-in-1M-q8");
	assert_string_equal(row.dir, "in");
	assert_int_equal(row.packets, 0);
	bulk_row_release(&row);
	/* no time measured: no rate, no share */
	p.seconds = 0;
	bulk_point_finish(&p);
	assert_nan(p.mb_s);
	assert_nan(p.share_pct);
}

static void test_dirs(void **state)
{
	static const struct {
		const char *s;
		int r;
		unsigned mask;
	} cases[] = {
	    {"in", 0, BULK_DIR_IN},
	    {"out", 0, BULK_DIR_OUT},
	    {"both", 0, BULK_DIR_BOTH},
	    {"in,out", 0, BULK_DIR_IN | BULK_DIR_OUT},
	    {"all", 0, BULK_DIR_IN | BULK_DIR_OUT | BULK_DIR_BOTH},
	    {"", -EINVAL, 0},
	    {"in,", -EINVAL, 0},
	    {"inn", -EINVAL, 0},
	    {"up", -EINVAL, 0},
	    {",in", -EINVAL, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned m = 0;
		int r = bulk_dirs_parse(cases[i].s, &m);

		if (r != cases[i].r || m != cases[i].mask)
			fail_msg("'%s': r %d mask %u, expected %d %u", cases[i].s, r, m, cases[i].r,
				 cases[i].mask);
	}
	/* a mask's bits by name; a value between them or past them has none */
	assert_string_equal(bulk_dir_name(BULK_DIR_IN), "in");
	assert_string_equal(bulk_dir_name(BULK_DIR_OUT), "out");
	assert_string_equal(bulk_dir_name(BULK_DIR_BOTH), "both");
	assert_string_equal(bulk_dir_name((enum bulk_dir)3), "?");
	assert_string_equal(bulk_dir_name((enum bulk_dir)0), "?");
	assert_string_equal(bulk_dir_name((enum bulk_dir)99), "?");
}

/* a failed URB's status in libusb's words, so the message names the same status */
static void test_usbfs_status(void **state)
{
	static const struct {
		int st;
		enum libusb_transfer_status want;
	} cases[] = {
	    {-ENODEV, LIBUSB_TRANSFER_NO_DEVICE}, {-ESHUTDOWN, LIBUSB_TRANSFER_NO_DEVICE},
	    {-EPIPE, LIBUSB_TRANSFER_STALL},	  {-EOVERFLOW, LIBUSB_TRANSFER_OVERFLOW},
	    {-EPROTO, LIBUSB_TRANSFER_ERROR},	  {-EILSEQ, LIBUSB_TRANSFER_ERROR},
	    {-ETIME, LIBUSB_TRANSFER_ERROR},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (bulk_usbfs_status(cases[i].st) != cases[i].want)
			fail_msg("status %d: %d, expected %d", cases[i].st,
				 bulk_usbfs_status(cases[i].st), cases[i].want);
}

/*
 * The usbfs path on a node that is no usbfs node (/dev/null): not usable,
 * and if driven anyway, the first refused submit ends the run with libusb's
 * I/O error, nothing counted, nothing left in flight, and SIGALRM's action
 * (the tick's) given back.
 */
static void test_usbfs_refused(void **state)
{
	unsigned char buf[64];
	struct libusb_transfer t = {.endpoint = 0x81, .buffer = buf, .length = sizeof(buf)};
	struct libusb_transfer *v[2] = {NULL, &t};
	struct bulk_point p = {.dir = BULK_DIR_IN, .size = sizeof(buf), .depth = 1};
	struct bulk_run run = {.p = &p};
	struct bulk_usbfs *u = NULL;
	struct sigaction sa;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	assert_false(bulk_usbfs_usable(fd));
	assert_int_equal(bulk_usbfs_new(fd, v, 2, &u), 0);
	bulk_usbfs_pump(u, &run, UINT64_MAX);
	assert_int_equal(run.lr, LIBUSB_ERROR_IO);
	assert_true(run.stopping);
	assert_int_equal(run.inflight, 0);
	assert_int_equal(p.transfers, 0);
	bulk_usbfs_drain(u, &run);
	bulk_usbfs_free(u);
	bulk_usbfs_free(NULL);
	assert_int_equal(sigaction(SIGALRM, NULL, &sa), 0);
	assert_ptr_equal(sa.sa_handler, SIG_DFL);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_find, setup_tree, teardown_tree),
	    cmocka_unit_test_setup_teardown(test_iface_driver, setup_tree, teardown_tree),
	    cmocka_unit_test(test_pick),
	    cmocka_unit_test(test_pick_ss_iso),
	    cmocka_unit_test(test_ceilings),
	    cmocka_unit_test(test_point),
	    cmocka_unit_test(test_dirs),
	    cmocka_unit_test(test_usbfs_status),
	    cmocka_unit_test(test_usbfs_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

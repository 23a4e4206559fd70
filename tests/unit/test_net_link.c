// SPDX-License-Identifier: MIT
/* classes/net/link: USB framing per driver, goodput ceilings, a netdev found on USB. */
#include "unit.h"
#include "classes/net/link.h"
#include "classes/net/sweep.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HS_BULK 53248000.0 /* 13 x 512 B per 125 us microframe */

struct frame_case {
	const char *driver;
	bool tx;
	unsigned frame;
	double want;
};

static const struct frame_case frame_cases[] = {
	/* 1514 + 4 B pointer = 1518, padded to 1520; 24 B per NTB over 10 frames of a 16 KiB NTB */
	{"cdc_ncm", true, 1514, 1520 + 2.4},
	{"cdc_ncm", false, 1514, 1520 + 2.4},
	/* 64 + 4 = 68, aligned; 16360 / 68 = 240 frames share the 24 B */
	{"cdc_ncm", true, 64, 68 + 24.0 / 240},
	{"rndis_host", true, 1514, 1558},
	{"rndis_host", false, 60, 104},
	{"cdc_ether", true, 1514, 1514},
	/* 8 + 1514 = 1522, aligned to 4: 1524; 24 + 1514 + 4 = 1542, aligned to 8: 1544 */
	{"r8152", true, 1514, 1524},
	{"r8152", false, 1514, 1544},
};

static void test_frame_bytes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(frame_cases); i++) {
		const struct frame_case *c = &frame_cases[i];
		const struct net_framing_info *fi = net_framing_find(c->driver);
		double got;

		assert_non_null(fi);
		got = net_frame_bus_bytes(c->tx ? &fi->tx : &fi->rx, c->frame);
		if (fabs(got - c->want) > 1e-9)
			fail_msg("%s %s %u: %.6f bus bytes, expected %.6f", c->driver,
				 c->tx ? "tx" : "rx", c->frame, got, c->want);
	}
	assert_null(net_framing_find("ax88179_178a"));
	assert_null(net_framing_find(NULL));
}

static void test_goodput(void **state)
{
	const struct net_framing_info *ncm = net_framing_find("cdc_ncm");
	const struct net_framing_info *rndis = net_framing_find("rndis_host");
	const struct net_framing bare = {0, 0, 1, 0, 0};

	(void)state;
	/* TCP over bare Ethernet frames: 1448 of every 1514 bytes */
	assert_near(net_goodput_ceiling(HS_BULK, &bare, 1500, false, 0),
		    HS_BULK * 1448 / 1514 * 8 / 1e6, 1e-9);
	/* NCM at high speed: 1448 of 1522.4 */
	assert_near(net_goodput_ceiling(HS_BULK, &ncm->tx, 1500, false, 0),
		    HS_BULK * 1448 / 1522.4 * 8 / 1e6, 1e-9);
	/* RNDIS: 1448 of 1558 */
	assert_near(net_goodput_ceiling(HS_BULK, &rndis->tx, 1500, false, 0),
		    HS_BULK * 1448 / 1558 * 8 / 1e6, 1e-9);
	/* UDP 1460 B datagrams fit one frame: 1460 of 14 + 20 + 8 + 1460 */
	assert_near(net_goodput_ceiling(HS_BULK, &bare, 1500, true, 1460),
		    HS_BULK * 1460 / 1502 * 8 / 1e6, 1e-9);
	/* 3000 B datagrams: fragments of 1480 and 1528 - 1480 = 48 IP payload bytes */
	assert_near(net_goodput_ceiling(HS_BULK, &bare, 1500, true, 3000),
		    HS_BULK * 3000 / (1514 + 1514 + (14 + 20 + 48)) * 8 / 1e6, 1e-9);
	assert_nan(net_goodput_ceiling(0, &bare, 1500, false, 0));
	assert_nan(net_goodput_ceiling(HS_BULK, &bare, 100, false, 0));
}

/*
 * The packet slots (sweep.h): 104,000 bulk packets a second at high speed
 * (13 per 125 us microframe), a transfer of B bytes taking floor(B / 512) + 1
 * of them (a short last packet, or a ZLP after whole ones).
 */
static void test_packet_ceiling(void **state)
{
	const struct net_framing_info *ncm = net_framing_find("cdc_ncm");
	const struct net_framing_info *rndis = net_framing_find("rndis_host");
	const struct net_framing_info *ecm = net_framing_find("cdc_ether");
	const double hs = 104000;

	(void)state;
	/* ECM, 64 B datagrams: a 106 B frame, one packet each: 104,000 x 64 B */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 1500, true, 64),
		    53.248, 1e-9);
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, NULL, 1500, true, 64), 53.248, 1e-9);
	/* ECM, 1472 B: a 1514 B frame is 512 + 512 + 490: three packets */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 1500, true, 1472),
		    hs / 3 * 1472 * 8 / 1e6, 1e-9);
	/* a 1024 B transfer (982 B datagrams) is two whole packets and a ZLP */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 1500, true, 1024 - 42),
		    hs / 3 * 982 * 8 / 1e6, 1e-9);
	/* RNDIS, 1472 B: 44 + 1514 = 1558 B, 3 x 512 + 22: four packets */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &rndis->tx, 1500, true, 1472),
		    hs / 4 * 1472 * 8 / 1e6, 1e-9);
	/*
	 * NCM, 64 B: 106 + 4 B pointer, aligned: 112 B; (16384 - 24) / 112 = 146 frames
	 * an NTB of 24 + 146 x 112 = 16376 B, 31 whole packets and a short one
	 */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &ncm->tx, 1500, true, 64),
		    hs * 146 / 32 * 64 * 8 / 1e6, 1e-9);
	/* its bytes, not its slots, bind: the packet ceiling is within 0.1 % of them */
	assert_true(net_packet_ceiling(USB_SPEED_HIGH, &ncm->tx, 1500, true, 64) >
		    0.999 * net_goodput_ceiling(HS_BULK, &ncm->tx, 1500, true, 64));
	/* TCP, MSS 1448: 14 + 20 + 32 (timestamps) + 1448 = 1514 B, three packets */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 1500, false, 1448),
		    hs / 3 * 1448 * 8 / 1e6, 1e-9);
	/* 4000 B datagrams: fragments of 1514, 1514 and 14 + 20 + 1048 B, three packets each */
	assert_near(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 1500, true, 4000),
		    hs / 9 * 4000 * 8 / 1e6, 1e-9);
	/* full speed: 19 packets of 64 B per 1 ms frame; a 106 B frame takes two */
	assert_near(net_packet_ceiling(USB_SPEED_FULL, &ecm->tx, 1500, true, 64),
		    19000.0 / 2 * 64 * 8 / 1e6, 1e-9);
	/* from SuperSpeed on the link, not the slots, limits; and what cannot be known */
	assert_nan(net_packet_ceiling(USB_SPEED_SS, &ecm->tx, 1500, true, 64));
	assert_nan(net_packet_ceiling(USB_SPEED_UNKNOWN, &ecm->tx, 1500, true, 64));
	assert_nan(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 100, true, 64));
	assert_nan(net_packet_ceiling(USB_SPEED_HIGH, &ecm->tx, 1500, true, 0));
}

/* a made-up sysfs: usb0 on a high-speed NCM device, lo nowhere near USB */
static const char *const tree_dirs[] = {
	"/sys", "/sys/class", "/sys/class/net", "/sys/class/net/lo", "/sys/devices",
	"/sys/devices/pci0000:00", "/sys/devices/pci0000:00/0000:00:14.0",
	"/sys/devices/pci0000:00/0000:00:14.0/usb1",
	"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2",
	"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0",
	"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/net",
	"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/net/usb0",
	"/sys/bus", "/sys/bus/usb", "/sys/bus/usb/drivers", "/sys/bus/usb/drivers/cdc_ncm",
};

static const struct {
	const char *path, *text;
} tree_files[] = {
	{"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/speed", "480\n"},
	{"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/idVendor", "0525\n"},
	{"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/idProduct", "a4a1\n"},
	{"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/product", "NCM Gadget\n"},
	{"/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/net/usb0/mtu", "1500\n"},
	{"/sys/class/net/lo/mtu", "65536\n"},
};

#define USB_IF "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0"

static const struct {
	const char *path, *target;
} tree_links[] = {
	{"/sys/class/net/usb0", "../../devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/net/usb0"},
	{USB_IF "/net/usb0/device", "../../../1-2:1.0"},
	{USB_IF "/driver", "../../../../../../bus/usb/drivers/cdc_ncm"},
};

static int make_tree(void **state)
{
	char *root = malloc(64), p[512];
	size_t i;
	FILE *f;

	snprintf(root, 64, "/tmp/usbperf-net-root-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	for (i = 0; i < ARRAY_SIZE(tree_dirs); i++) {
		snprintf(p, sizeof(p), "%s%s", root, tree_dirs[i]);
		mkdir(p, 0755);
	}
	for (i = 0; i < ARRAY_SIZE(tree_files); i++) {
		snprintf(p, sizeof(p), "%s%s", root, tree_files[i].path);
		f = fopen(p, "w");
		if (!f)
			return -1;
		fputs(tree_files[i].text, f);
		fclose(f);
	}
	for (i = 0; i < ARRAY_SIZE(tree_links); i++) {
		snprintf(p, sizeof(p), "%s%s", root, tree_links[i].path);
		if (symlink(tree_links[i].target, p) < 0)
			return -1;
	}
	sysroot_set(root);
	*state = root;
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[128];

	sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	if (system(cmd) != 0)
		return -1;
	free(*state);
	return 0;
}

static void test_netdev_on_usb(void **state)
{
	struct usb_attach a;
	struct net_report rep = {0};

	(void)state;
	assert_int_equal(usb_attach_for_netdev("usb0", &a), 0);
	assert_string_equal(a.device, "1-2");
	assert_string_equal(a.interface, "1-2:1.0");
	assert_string_equal(a.driver, "cdc_ncm");
	assert_string_equal(a.vid_pid, "0525:a4a1");
	assert_string_equal(a.speed_name, usb_speed_name(USB_SPEED_HIGH));
	assert_near(a.ceiling_mb_s, HS_BULK / 1e6, 1e-9);
	usb_attach_release(&a);
	assert_int_equal(usb_attach_for_netdev("lo", &a), -ENODEV);
	assert_int_equal(usb_attach_for_netdev("nope0", &a), -ENODEV);
	assert_int_equal(usb_attach_for_netdev("../../etc", &a), -EINVAL);
	assert_int_equal(usb_attach_for_netdev("", &a), -EINVAL);

	net_link_describe(&rep, "usb0", false, 131072);
	assert_true(rep.on_usb);
	assert_int_equal(rep.mtu, 1500);
	assert_non_null(strstr(rep.framing, "NCM"));
	assert_near(rep.frame_tx_bytes, 1522.4, 1e-9);
	assert_near(rep.ceiling_tx_mbit_s, HS_BULK * 1448 / 1522.4 * 8 / 1e6, 1e-9);
	net_report_release(&rep);
	net_link_describe(&rep, "lo", false, 131072);
	assert_false(rep.on_usb);
	assert_int_equal(rep.mtu, 65536);
	assert_string_equal(rep.iface, "lo");
	net_report_release(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_bytes),
		cmocka_unit_test(test_goodput),
		cmocka_unit_test(test_packet_ceiling),
		cmocka_unit_test_setup_teardown(test_netdev_on_usb, make_tree, remove_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * The topology probe on odd trees: missing, malformed and unreadable
 * attributes come back unknown, never as a crash or a made-up value.
 */
#include "unit.h"
#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
#include "util/snapshot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEV "/sys/devices/platform/fc000000.usb/xhci-hcd.0.auto"
#define E(path, type, rest) "{\"path\": \"" path "\", \"type\": \"" type "\"" rest "},"
#define TXT(path, text) E(path, "file", ", \"text\": \"" text "\"")
#define LNK(path, target) E(path, "link", ", \"target\": \"" target "\"")

static const char odd[] = "{\"usbperf_snapshot\": 1, \"entries\": ["
	LNK("/sys/bus/usb/devices/usb1", "../../../devices/platform/fc000000.usb/xhci-hcd.0.auto/usb1")
	LNK("/sys/bus/usb/devices/1-1", "../../../devices/platform/fc000000.usb/xhci-hcd.0.auto/usb1/1-1")
	LNK("/sys/bus/usb/devices/1-1:1.0", "../../../devices/platform/fc000000.usb/xhci-hcd.0.auto/usb1/1-1/1-1:1.0")
	/* a dangling link and a link loop in the device list */
	LNK("/sys/bus/usb/devices/1-2", "../../../devices/gone/1-2")
	LNK("/sys/bus/usb/devices/1-3", "1-3")
	LNK(DEV "/driver", "../../../../bus/platform/drivers/xhci-hcd")
	LNK("/sys/devices/platform/fc000000.usb/driver", "../../../bus/platform/drivers/dwc3")
	TXT(DEV "/usb1/busnum", "1\\n")
	TXT(DEV "/usb1/speed", "480\\n")
	TXT(DEV "/usb1/maxchild", "1\\n")
	TXT(DEV "/usb1/1-1/busnum", "one\\n")
	TXT(DEV "/usb1/1-1/speed", "banana\\n")
	TXT(DEV "/usb1/1-1/version", "\\n")
	TXT(DEV "/usb1/1-1/idVendor", "zzzz\\n")
	TXT(DEV "/usb1/1-1/bMaxPower", "500\\n")
	TXT(DEV "/usb1/1-1/manufacturer", "Evil\\u001b[31mCorp\\n")
	E(DEV "/usb1/1-1/product", "unread", "")
	E(DEV "/usb1/1-1/serial", "dir", "")
	TXT(DEV "/usb1/1-1/rx_lanes", "18446744073709551615\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/bInterfaceClass", "0x\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/bInterfaceNumber", "00\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/size", "-5\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/queue/scheduler", "none\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/queue/max_sectors_kb", "\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/dev", "8\\n")
	TXT(DEV "/usb1/1-1/1-1:1.0/net/usb0/speed", "-1\\n")
	TXT("/proc/interrupts", "garbage\\n 99: x\\n")
	"{\"path\": \"/proc/self\", \"type\": \"link\", \"target\": \"1\"}"
	"]}";

static void test_odd_tree(void **state)
{
	struct usb_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	const struct usb_device *d;
	const struct usb_node *n;
	size_t i;

	(void)state;
	assert_int_equal(snapshot_load_buf(odd, strlen(odd), NULL), 0);
	assert_int_equal(usb_topology_probe(&t), 0);
	assert_false(t.no_usb);
	/* the dangling and looping entries are skipped, not fatal */
	assert_int_equal(t.ndev, 2);
	assert_int_equal(t.nctl, 1);
	assert_string_equal(t.ctl[0].name, "xhci-hcd.0.auto");
	assert_string_equal(t.ctl[0].driver, "xhci-hcd");
	assert_string_equal(t.ctl[0].kind, "dwc3"); /* the core above the xhci platform device */
	assert_string_equal(t.ctl[0].glue, "fc000000.usb (dwc3)");
	assert_null(t.ctl[0].irq);
	assert_int_equal(t.ctl[0].irq_count, U64_UNKNOWN);

	d = &t.dev[1];
	assert_string_equal(d->path, "1-1");
	assert_int_equal(d->busnum, U64_UNKNOWN);
	assert_int_equal(d->speed, USB_SPEED_UNKNOWN);
	assert_null(d->speed_name);
	assert_true(isnan(d->speed_mbps));
	assert_null(d->usb_version);
	assert_int_equal(d->bcd_usb, 0);
	assert_null(d->vid_pid); /* no idProduct */
	assert_int_equal(d->max_power_ma, U64_UNKNOWN); /* "500" without its unit */
	assert_string_equal(d->manufacturer, "Evil?[31mCorp"); /* control characters replaced */
	assert_null(d->product);   /* unreadable */
	assert_null(d->serial);	   /* a directory */
	assert_int_equal(d->rx_lanes, U64_UNKNOWN);
	assert_string_equal(d->parent, "usb1"); /* from the name when busnum is unreadable */

	assert_int_equal(t.nintf, 1);
	assert_int_equal(t.intf[0].cls, U64_UNKNOWN);
	assert_null(t.intf[0].class_name);
	assert_int_equal(t.intf[0].number, 0);
	assert_null(t.intf[0].driver);

	assert_int_equal(t.nnode, 2);
	for (i = 0; i < t.nnode; i++) {
		n = &t.node[i];
		if (!strcmp(n->kind, "disk")) {
			assert_string_equal(n->name, "sda");
			assert_int_equal(n->size_bytes, U64_UNKNOWN);
			assert_string_equal(n->scheduler, "none");
			assert_int_equal(n->max_sectors_kb, U64_UNKNOWN);
			assert_null(n->mount_point);
		} else {
			assert_string_equal(n->kind, "net");
			assert_int_equal(n->link_mbps, U64_UNKNOWN); /* -1: link down */
		}
	}
	usb_topology_findings(&t, &fl);
	assert_int_equal(fl.n, 0);
	finding_list_release(&fl);
	usb_topology_release(&t);
	sysroot_set(NULL);
}

static void test_no_usb(void **state)
{
	static const char empty[] = "{\"usbperf_snapshot\": 1, \"entries\": []}";
	struct usb_topology t;

	(void)state;
	assert_int_equal(snapshot_load_buf(empty, strlen(empty), NULL), 0);
	assert_int_equal(usb_topology_probe(&t), 0);
	assert_true(t.no_usb);
	assert_int_equal(t.ndev, 0);
	usb_topology_release(&t);
	sysroot_set(NULL);
}

static void load_fixture(const char *name)
{
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT;
	const char *dir = getenv("USBPERF_FIXTURES");

	if (!dir)
		fail_msg("USBPERF_FIXTURES is not set (run through meson test)");
	strbuf_addf(&p, "%s/%s", dir, name);
	if (snapshot_load_file(p.buf, &err) < 0)
		fail_msg("%s: %s", p.buf, err.buf);
	strbuf_release(&p);
	strbuf_release(&err);
}

/* usbperf disk's question: which USB link carries this block device? */
static void test_attach(void **state)
{
	struct usb_attach a;

	(void)state;
	load_fixture("pc-usb.json");
	assert_int_equal(usb_attach_for_block(8, 1, &a), 0); /* a partition */
	assert_string_equal(a.device, "2-1");
	assert_string_equal(a.interface, "2-1:1.0");
	assert_string_equal(a.driver, "uas");
	assert_string_equal(a.vid_pid, "0781:5583");
	assert_string_equal(a.product, "Ultra Fit");
	assert_int_equal(a.speed, USB_SPEED_SS);
	assert_string_equal(a.speed_name, "super");
	/* 500 MB/s after 8b/10b, 1024 payload bytes in every 1056 on the wire */
	assert_near(a.ceiling_mb_s, 500.0 * 1024 / 1056, 1e-9);
	assert_non_null(a.ceiling_basis);
	usb_attach_release(&a);
	assert_int_equal(usb_attach_for_block(8, 16, &a), 0);
	assert_string_equal(a.device, "1-2");
	assert_string_equal(a.driver, "usb-storage");
	assert_int_equal(a.speed, USB_SPEED_HIGH);
	assert_near(a.ceiling_mb_s, 53.248, 1e-12); /* 13 x 512 B per 125 us */
	usb_attach_release(&a);
	assert_int_equal(usb_attach_for_block(7, 0, &a), -ENOENT);
	sysroot_set(NULL);
}

static const struct usb_device *by_serial(const struct usb_topology *t, const char *serial)
{
	size_t i;

	for (i = 0; i < t->ndev; i++)
		if (t->dev[i].serial && !strcmp(t->dev[i].serial, serial))
			return &t->dev[i];
	fail_msg("no device with serial %s", serial);
	return NULL;
}

static const char *driver_of(const struct usb_topology *t, const struct usb_device *d)
{
	size_t i;

	for (i = 0; i < t->nintf; i++)
		if (!strcmp(t->intf[i].device, d->path))
			return t->intf[i].driver;
	return NULL;
}

static size_t count_findings(const struct finding_list *fl, const char *id)
{
	size_t i, n = 0;

	for (i = 0; i < fl->n; i++)
		n += !strcmp(fl->v[i].id, id);
	return n;
}

/* a tree recorded from Debian's 6.1 kernel in the QEMU lab (tests/lab/run --record) */
static void test_lab_usb_host(void **state)
{
	struct usb_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	const struct usb_device *d;
	size_t i, disks = 0;

	(void)state;
	load_fixture("lab-usb-host.json");
	assert_int_equal(usb_topology_probe(&t), 0);
	assert_int_equal(t.nctl, 3);
	d = by_serial(&t, "LABBOT");
	assert_int_equal(d->speed, USB_SPEED_SS);
	assert_string_equal(driver_of(&t, d), "usb-storage");
	d = by_serial(&t, "LABUAS");
	assert_int_equal(d->speed, USB_SPEED_SS);
	assert_true(d->offers_uas);
	assert_string_equal(driver_of(&t, d), "uas");
	d = by_serial(&t, "LABUSB2PORT");
	assert_int_equal(d->speed, USB_SPEED_HIGH);
	assert_int_equal(d->capable, USB_SPEED_SS); /* from the BOS, read through usbfs */
	assert_string_equal(d->capable_source, "bos");
	assert_null(d->port_peer);
	assert_near(d->bulk_ceiling_mb_s, 53.248, 1e-12);
	d = by_serial(&t, "LABEHCI");
	assert_int_equal(d->speed, USB_SPEED_HIGH);
	/* behind QEMU's full-speed hub on port 3 */
	d = by_serial(&t, "LABHUB");
	assert_int_equal(d->speed, USB_SPEED_FULL);
	assert_int_equal(d->depth, 2);
	assert_string_equal(d->parent, "1-3");
	assert_near(d->bulk_ceiling_mb_s, 1.216, 1e-12);
	for (i = 0; i < t.nnode; i++)
		disks += !strcmp(t.node[i].kind, "disk");
	assert_int_equal(disks, 5);
	usb_topology_findings(&t, &fl);
	assert_int_equal(count_findings(&fl, "usb.speed_below_capability"), 2);
	assert_int_equal(count_findings(&fl, "usb.storage_bot"), 1);
	assert_int_equal(count_findings(&fl, "usb.storage_without_uas"), 0);
	/* the disk behind QEMU's full-speed hub: the hub is named, not the device blamed */
	for (i = 0; i < fl.n; i++)
		if (!strcmp(fl.v[i].id, "usb.full_speed_data_device") && !strcmp(fl.v[i].subject, "1-3.2"))
			break;
	assert_true(i < fl.n);
	if (!strstr(fl.v[i].message, "behind the full-speed (12M) hub 1-3 (0409:55aa") ||
	    !strstr(fl.v[i].fix, "move the device off the full-speed (12M) hub 1-3"))
		fail_msg("%s | %s", fl.v[i].message, fl.v[i].fix);
	finding_list_release(&fl);
	usb_topology_release(&t);
	sysroot_set(NULL);
}

/*
 * A SuperSpeed disk behind a high-speed-only hub on a port that has a
 * SuperSpeed peer: the hub, named, is what holds it to 480M.
 */
#define PC "/sys/devices/pci0000:00/0000:00:14.0"
static const char hs_hub[] = "{\"usbperf_snapshot\": 1, \"entries\": ["
	LNK("/sys/bus/usb/devices/usb1", "../../../devices/pci0000:00/0000:00:14.0/usb1")
	LNK("/sys/bus/usb/devices/usb2", "../../../devices/pci0000:00/0000:00:14.0/usb2")
	LNK("/sys/bus/usb/devices/1-1", "../../../devices/pci0000:00/0000:00:14.0/usb1/1-1")
	LNK("/sys/bus/usb/devices/1-1.2", "../../../devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2")
	LNK(PC "/driver", "../../../bus/pci/drivers/xhci_hcd")
	TXT(PC "/usb1/busnum", "1\\n") TXT(PC "/usb1/speed", "480\\n") TXT(PC "/usb1/maxchild", "2\\n")
	TXT(PC "/usb2/busnum", "2\\n") TXT(PC "/usb2/speed", "5000\\n") TXT(PC "/usb2/maxchild", "2\\n")
	TXT(PC "/usb1/1-0:1.0/usb1-port1/connect_type", "hotplug\\n")
	LNK(PC "/usb1/1-0:1.0/usb1-port1/peer", "../../../usb2/2-0:1.0/usb2-port1")
	TXT(PC "/usb2/2-0:1.0/usb2-port1/connect_type", "hotplug\\n")
	LNK(PC "/usb2/2-0:1.0/usb2-port1/peer", "../../../usb1/1-0:1.0/usb1-port1")
	TXT(PC "/usb1/1-1/busnum", "1\\n") TXT(PC "/usb1/1-1/devnum", "2\\n")
	TXT(PC "/usb1/1-1/speed", "480\\n") TXT(PC "/usb1/1-1/version", " 2.00\\n")
	TXT(PC "/usb1/1-1/idVendor", "05e3\\n") TXT(PC "/usb1/1-1/idProduct", "0608\\n")
	TXT(PC "/usb1/1-1/product", "USB2.0 Hub\\n")
	TXT(PC "/usb1/1-1/bDeviceClass", "09\\n") TXT(PC "/usb1/1-1/maxchild", "4\\n")
	LNK(PC "/usb1/1-1/port", "../1-0:1.0/usb1-port1")
	TXT(PC "/usb1/1-1/1-1.2/busnum", "1\\n") TXT(PC "/usb1/1-1/1-1.2/devnum", "3\\n")
	TXT(PC "/usb1/1-1/1-1.2/speed", "480\\n") TXT(PC "/usb1/1-1/1-1.2/version", " 3.20\\n")
	TXT(PC "/usb1/1-1/1-1.2/idVendor", "0781\\n") TXT(PC "/usb1/1-1/1-1.2/idProduct", "5583\\n")
	TXT(PC "/usb1/1-1/1-1.2/bDeviceClass", "00\\n")
	TXT(PC "/usb1/1-1/1-1.2/1-1.2:1.0/bInterfaceClass", "08\\n")
	"{\"path\": \"/proc/self\", \"type\": \"link\", \"target\": \"1\"}"
	"]}";

static void test_hub_chain(void **state)
{
	struct usb_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	const struct finding *f = NULL;

	(void)state;
	assert_int_equal(snapshot_load_buf(hs_hub, strlen(hs_hub), NULL), 0);
	assert_int_equal(usb_topology_probe(&t), 0);
	usb_topology_findings(&t, &fl);
	for (size_t i = 0; i < fl.n; i++)
		if (!strcmp(fl.v[i].id, "usb.speed_below_capability") && !strcmp(fl.v[i].subject, "1-1.2"))
			f = &fl.v[i];
	assert_non_null(f);
	if (!strstr(f->message, "behind the high-speed (480M) hub 1-1 (05e3:0608 USB2.0 Hub)") ||
	    !strstr(f->evidence, "hub 1-1 links at 480 Mbit/s (1-1/speed) with 1 device below it") ||
	    !strstr(f->fix, "connect the device above the high-speed (480M) hub 1-1") ||
	    !strstr(f->fix, "port usb1-port1 has a SuperSpeed peer, usb2-port1: the hub, not the port"))
		fail_msg("%s | %s | %s", f->message, f->evidence, f->fix);
	finding_list_release(&fl);
	/* two measured devices below the hub share its link; one alone, or none, does not */
	{
		const char *two[] = {"1-1.2", "1-1.3", "2-1", NULL};
		const char *one[] = {"1-1.2", "2-1"};

		usb_shared_hub_findings(&t, two, 4, &fl);
		assert_int_equal(fl.n, 1);
		assert_string_equal(fl.v[0].id, "usb.shared_hub");
		assert_string_equal(fl.v[0].subject, "1-1");
		if (!strstr(fl.v[0].message, "2 of the measured devices share the upstream link of "
					     "the high-speed (480M) hub 1-1") ||
		    !strstr(fl.v[0].evidence, "below it: 1-1.2 1-1.3;"))
			fail_msg("%s | %s", fl.v[0].message, fl.v[0].evidence);
		finding_list_release(&fl);
		usb_shared_hub_findings(&t, one, 2, &fl);
		assert_int_equal(fl.n, 0);
	}
	usb_topology_release(&t);
	sysroot_set(NULL);
}

static void test_lab_gadget(void **state)
{
	struct usb_topology t;
	const struct usb_device *d;
	size_t i, n = 0;

	(void)state;
	load_fixture("lab-gadget.json");
	assert_int_equal(usb_topology_probe(&t), 0);
	assert_int_equal(t.nctl, 4); /* two dummy_hcd instances, a HS and a SS root hub each */
	for (i = 0; i < t.nctl; i++)
		assert_string_equal(t.ctl[i].kind, "dummy_hcd");
	d = by_serial(&t, "LABGADGET1");
	assert_int_equal(d->speed, USB_SPEED_SS);
	for (i = 0; i < t.nintf; i++)
		n += !strcmp(t.intf[i].device, d->path);
	assert_int_equal(n, 4); /* mass storage, NCM control + data, HID */
	d = by_serial(&t, "LABGADGET2");
	assert_int_equal(d->speed, USB_SPEED_HIGH);
	assert_string_equal(driver_of(&t, d), "usbtest");
	usb_topology_release(&t);
	sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_tree),
		cmocka_unit_test(test_no_usb),
		cmocka_unit_test(test_attach),
		cmocka_unit_test(test_lab_usb_host), cmocka_unit_test(test_hub_chain),
		cmocka_unit_test(test_lab_gadget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

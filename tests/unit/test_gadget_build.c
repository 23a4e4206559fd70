// SPDX-License-Identifier: MIT
/*
 * classes/gadget: usbperf gadget up/down against a configfs tree in a temporary
 * directory with a fake kernel (gadget_fixture.h). Every profile and tunable
 * writes its file; down, also after a half-failed up, leaves the tree byte
 * for byte as it was. What up and down refuse: test_gadget_safety.c.
 */
#include "gadget_fixture.h"

/* every key of every profile writes its own file, and down removes all of it */
static void test_tunables(void **state)
{
	static const struct {
		const char *arg, *path, *want;
	} cases[] = {
	    {"msc:removable=1", "/functions/mass_storage.0/lun.0/removable", "1"},
	    {"msc:removable=1,ro=yes", "/functions/mass_storage.0/lun.0/ro", "1"},
	    {"msc:removable=1,nofua=1", "/functions/mass_storage.0/lun.0/nofua", "1"},
	    {"msc:removable=1,cdrom=0", "/functions/mass_storage.0/lun.0/cdrom", "0"},
	    {"msc:removable=1,stall=0", "/functions/mass_storage.0/stall", "0"},
	    {"ncm:qmult=10", "/functions/ncm.0/qmult", "10"},
	    {"ncm:dev_addr=02:00:00:00:00:01", "/functions/ncm.0/dev_addr", "02:00:00:00:00:01"},
	    {"ecm:host_addr=02:00:00:00:00:02", "/functions/ecm.0/host_addr", "02:00:00:00:00:02"},
	    {"rndis:qmult=5", "/functions/rndis.0/qmult", "5"},
	    {"rndis:ifname=usbrn%d", "/functions/rndis.0/ifname", "usbrn%d"},
	    {"hid:protocol=2", "/functions/hid.0/protocol", "2"},
	    {"hid:subclass=0", "/functions/hid.0/subclass", "0"},
	    {"hid:report_length=16", "/functions/hid.0/report_length", "16"},
	    {"hid", "/functions/hid.0/report_length", "8"},
	    {"hid:preset=mouse", "/functions/hid.0/protocol", "2"},
	    {"hid:preset=vendor1024", "/functions/hid.0/report_length", "1024"},
	    {"uvc:streaming_maxpacket=3072", "/functions/uvc.0/streaming_maxpacket", "3072"},
	    {"uvc:streaming_maxburst=15", "/functions/uvc.0/streaming_maxburst", "15"},
	    {"uvc:streaming_interval=1", "/functions/uvc.0/streaming_interval", "1"},
	    {"uvc:frames=1280x720,fps=10",
	     "/functions/uvc.0/streaming/uncompressed/u/720p1280/dwFrameInterval", "1000000\n"},
	    {"uvc", "/functions/uvc.0/streaming/uncompressed/u/360p640/dwMaxVideoFrameBufferSize",
	     "460800"},
	    {"sourcesink:pattern=1", "/functions/SourceSink.0/pattern", "1"},
	    {"sourcesink:bulk_buflen=65536", "/functions/SourceSink.0/bulk_buflen", "65536"},
	    {"sourcesink:bulk_qlen=32", "/functions/SourceSink.0/bulk_qlen", "32"},
	    {"sourcesink:iso_qlen=8", "/functions/SourceSink.0/iso_qlen", "8"},
	    {"sourcesink:isoc_interval=4", "/functions/SourceSink.0/isoc_interval", "4"},
	    {"sourcesink:isoc_maxpacket=1024", "/functions/SourceSink.0/isoc_maxpacket", "1024"},
	    {"sourcesink:isoc_mult=2", "/functions/SourceSink.0/isoc_mult", "2"},
	    {"sourcesink:isoc_maxburst=15", "/functions/SourceSink.0/isoc_maxburst", "15"},
	    {"loopback:bulk_buflen=16384", "/functions/Loopback.0/bulk_buflen", "16384"},
	    {"loopback:qlen=64", "/functions/Loopback.0/qlen", "64"},
	};
	char *before = tree();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *args[] = {cases[i].arg};
		struct strbuf p = STRBUF_INIT;

		up_ok(args, 1);
		strbuf_addf(&p, G "%s", cases[i].path);
		ASSERT_FILE(p.buf, cases[i].want);
		down_ok("usbperf");
		assert_same_tree(before);
		strbuf_release(&p);
	}
	free(before);
}

/* all profiles in one gadget: the device, its strings, links and binding */
static void test_composite(void **state)
{
	struct strbuf msc = STRBUF_INIT;
	const char *args[] = {NULL,
			      "ncm",
			      "ecm",
			      "rndis",
			      "hid:preset=vendor64",
			      "uvc",
			      "sourcesink",
			      "loopback",
			      "hid:preset=keyboard"};
	char *before = tree(), *desc;
	size_t len, i;
	unsigned rl, pr, sc;
	const uint8_t *kbd = hid_preset("keyboard", &len, &rl, &pr, &sc);

	(void)state;
	strbuf_addf(&msc, "msc:file=%s,removable=1", backing);
	args[0] = msc.buf;
	up_destructive = true; /* the host writes the LUN */
	up_ok(args, ARRAY_SIZE(args));
	up_destructive = false;
	ASSERT_FILE(G "/idVendor", "0x1d6b");
	ASSERT_FILE(G "/idProduct", "0x0104");
	ASSERT_FILE(G "/UDC", "dummy_udc.0");
	ASSERT_FILE(G "/strings/0x409/manufacturer", "usbperf");
	ASSERT_FILE(G "/strings/0x409/serialnumber", "usbperf");
	ASSERT_FILE(G "/configs/c.1/strings/0x409/configuration",
		    "usbperf: msc+ncm+ecm+rndis+hid+uvc+sourcesink+loopback+hid");
	ASSERT_FILE(G "/functions/mass_storage.0/lun.0/file", backing);
	ASSERT_FILE(G "/functions/hid.0/report_length", "64");
	ASSERT_FILE(G "/functions/hid.1/protocol", "1");
	desc = read_at(G "/functions/hid.1/report_desc");
	assert_non_null(desc);
	assert_int_equal(len, 63);
	assert_memory_equal(desc, kbd, len);
	free(desc);
	for (i = 0; i < 9; i++) {
		static const char *const fns[] = {"mass_storage.0", "ncm.0",	  "ecm.0",
						  "rndis.0",	    "hid.0",	  "uvc.0",
						  "SourceSink.0",   "Loopback.0", "hid.1"};
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, G "/configs/c.1/%s", fns[i]);
		assert_true(sysroot_exists(p.buf));
		strbuf_release(&p);
	}
	assert_true(sysroot_exists(G "/functions/uvc.0/streaming/class/hs/h/u/360p640"));
	down_ok("usbperf");
	assert_same_tree(before);
	free(before);
	strbuf_release(&msc);
}

/* the device options: id, strings, speed, the UDC asked for */
static void test_device_options(void **state)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL, *before = tree();

	(void)state;
	gadget_spec_init(&s);
	assert_int_equal(gadget_spec_set_id(&s, "0525:a4a0", &why), 0);
	assert_int_equal(gadget_spec_set_speed(&s, "high", &why), 0);
	assert_int_equal(gadget_spec_set_name(&s, "bulk", &why), 0);
	s.udc = strdup("dummy_udc.1");
	s.product = strdup("a product");
	assert_int_equal(gadget_spec_add(&s, "sourcesink", &why), 0);
	assert_int_equal(gadget_up(&s, &fs, &b, &why), 0);
	assert_string_equal(b.udc, "dummy_udc.1");
	assert_string_equal(b.gadget, "usbperf-bulk");
	ASSERT_FILE(CFS "/usbperf-bulk/idVendor", "0x0525");
	ASSERT_FILE(CFS "/usbperf-bulk/idProduct", "0xa4a0");
	ASSERT_FILE(CFS "/usbperf-bulk/max_speed", "high-speed");
	ASSERT_FILE(CFS "/usbperf-bulk/strings/0x409/product", "a product");
	ASSERT_FILE(CFS "/usbperf-bulk/UDC", "dummy_udc.1");
	gadget_built_release(&b);
	/* the same again: it is up */
	assert_int_equal(gadget_up(&s, &fs, &b, &why), -EEXIST);
	down_ok("usbperf-bulk");
	assert_same_tree(before);
	gadget_spec_release(&s);
	free(why);
	free(before);
}

/* a module missing, an attribute missing, a bind refused: nothing left behind */
static void test_failed_up_leaves_nothing(void **state)
{
	const char *args[] = {"msc:removable=1", "ncm:qmult=4", "uvc",
			      "sourcesink:isoc_maxburst=2"};
	char *before = tree();

	(void)state;
	k.missing_type = "uvc";
	up_fails(args, ARRAY_SIZE(args), -ENOENT, "load module usb_f_uvc");
	assert_same_tree(before);
	k.missing_type = NULL;
	k.missing_attr = "isoc_maxburst";
	up_fails(args, ARRAY_SIZE(args), -ENOENT,
		 "this kernel (6.1.0-test) has no attribute 'isoc_maxburst'");
	assert_same_tree(before);
	k.missing_attr = NULL;
	k.fail_write = "/UDC";
	up_fails(args, ARRAY_SIZE(args), -EBUSY, "the kernel refused to bind");
	assert_same_tree(before);
	free(before);
}

/* an up whose own rollback could not finish: down later removes the rest */
static void test_down_after_half_failed_up(void **state)
{
	const char *args[] = {"hid:preset=mouse", "ncm", "loopback"};
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL, *before = tree();
	int64_t n = 0;

	(void)state;
	gadget_spec_init(&s);
	for (size_t i = 0; i < ARRAY_SIZE(args); i++)
		assert_int_equal(gadget_spec_add(&s, args[i], &why), 0);
	/* the bind fails, then every rmdir and unlink of up's own rollback is refused */
	k.fail_write = "/UDC";
	k.frozen = true;
	/* mkdir and writes still work while frozen: only removal is refused */
	assert_int_equal(gadget_up(&s, &fs, &b, &why), -EBUSY);
	assert_true(sysroot_exists(G "/functions/hid.0"));
	assert_true(sysroot_exists("/run/usbperf/gadget-usbperf.state"));
	k.frozen = false;
	k.fail_write = NULL;
	free(why);
	why = NULL;
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);
	assert_same_tree(before);
	gadget_spec_release(&s);
	free(before);
}

/* ffs: mounted, left unbound, bound later; down unmounts and removes the mount point */
static void test_ffs(void **state)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL, *udc = NULL, *before = tree();
	int64_t n = 0;

	(void)state;
	gadget_spec_init(&s);
	assert_int_equal(gadget_spec_add(&s, "ffs:name=mtp,dir=/dev/ffs-mtp", &why), 0);
	assert_int_equal(gadget_up(&s, &fs, &b, &why), 0);
	assert_non_null(b.unbound_why);
	assert_int_equal(k.mounts, 1);
	assert_true(sysroot_exists(G "/functions/ffs.mtp"));
	assert_true(sysroot_exists(G "/configs/c.1/ffs.mtp"));
	ASSERT_FILE(G "/UDC", "");
	assert_int_equal(gadget_bind("usbperf", NULL, &fs, &udc, &why), 0);
	assert_string_equal(udc, "dummy_udc.0");
	ASSERT_FILE(G "/UDC", "dummy_udc.0");
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);
	assert_int_equal(k.mounts, 0);
	assert_same_tree(before);
	gadget_built_release(&b);
	gadget_spec_release(&s);
	free(udc);
	free(before);
}

/* no configfs, no UDC: refused before anything is made */
static void test_environment(void **state)
{
	const char *args[] = {"ncm"};
	struct strbuf cmd = STRBUF_INIT;

	(void)state;
	strbuf_addf(&cmd, "rm -rf '%s/sys/class/udc'/*", root);
	assert_int_equal(system(cmd.buf), 0);
	up_fails(args, 1, -ENODEV, "no USB device controller");
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "rm -rf '%s/sys/kernel/config/usb_gadget'", root);
	assert_int_equal(system(cmd.buf), 0);
	up_fails(args, 1, -ENODEV, "mount -t configfs none /sys/kernel/config");
	strbuf_release(&cmd);
}

/* operands refused before any work */
static void test_bad_operands(void **state)
{
	static const struct {
		const char *arg, *want;
	} cases[] = {
	    {"usb", "unknown profile 'usb'"},
	    {"ncm:qmult=0", "qmult='0' is not a whole number in 1..1000"},
	    {"ncm:dev_addr=02:00:00:00:00", "not a MAC address"},
	    {"msc:file=/nonexistent/x.img", "msc: file '/nonexistent/x.img'"},
	    {"msc:ro=maybe", "is not 0 or 1"},
	    {"msc", "msc: file= is needed"},
	    {"msc:removable=0", "or removable=1"},
	    {"hid:size=8", "unknown key 'size'"},
	    {"hid:protocol", "no value for 'protocol'"},
	    {"hid:protocol=1,protocol=2", "'protocol' given twice"},
	    {"uvc:frames=640x", "WxH"},
	    {"ffs:dir=relative", "not a canonical absolute path"},
	    {"ffs:dir=/data/new/..", "not a canonical absolute path"},
	    {"ffs:dir=/data/./x", "not a canonical absolute path"},
	    {"ffs:dir=/data//x", "not a canonical absolute path"},
	    {"ffs:dir=/data/x/", "not a canonical absolute path"},
	    {"ffs:dir=/", "not a canonical absolute path"},
	    {"ffs:dir=/..", "not a canonical absolute path"},
	    {"sourcesink:isoc_mult=3", "isoc_mult='3'"},
	};
	struct gadget_spec s;
	char *why = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		gadget_spec_init(&s);
		if (gadget_spec_add(&s, cases[i].arg, &why) == 0 || !strstr(why, cases[i].want))
			fail_msg("%s: '%s', expected '%s'", cases[i].arg, why ? why : "accepted",
				 cases[i].want);
		assert_int_equal(s.nfns, 0);
		gadget_spec_release(&s);
	}
	gadget_spec_init(&s);
	assert_int_equal(gadget_spec_set_id(&s, "1d6b", &why), -EINVAL);
	assert_int_equal(gadget_spec_set_speed(&s, "warp", &why), -EINVAL);
	assert_int_equal(gadget_spec_set_speed(&s, "super-plus", &why), 0);
	assert_string_equal(s.max_speed, "super-speed-plus");
	assert_int_equal(gadget_spec_set_speed(&s, "super-speed", &why), 0);
	assert_string_equal(s.max_speed, "super-speed");
	assert_int_equal(gadget_spec_set_name(&s, "a/b", &why), -EINVAL);
	gadget_spec_release(&s);
	free(why);
}

/* the presets: lengths and report sizes as the descriptors declare them */
static void test_hid_presets(void **state)
{
	static const struct {
		const char *name;
		size_t len;
		unsigned rl, proto, sub;
	} cases[] = {
	    {"keyboard", 63, 8, 1, 1},	    {"mouse", 52, 4, 2, 1},
	    {"vendor64", 29, 64, 0, 0},	    {"vendor512", 29, 512, 0, 0},
	    {"vendor1024", 29, 1024, 0, 0},
	};
	size_t i, len;
	unsigned rl, pr, sc;
	const uint8_t *d;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		d = hid_preset(cases[i].name, &len, &rl, &pr, &sc);
		assert_non_null(d);
		assert_int_equal(len, cases[i].len);
		assert_int_equal(rl, cases[i].rl);
		assert_int_equal(pr, cases[i].proto);
		assert_int_equal(sc, cases[i].sub);
		/* one collection opened and closed */
		assert_int_equal(d[len - 1], 0xc0);
	}
	/* the vendor Report Count is the report length (0x96, little-endian) */
	d = hid_preset("vendor512", &len, &rl, &pr, &sc);
	assert_int_equal(d[14], 0x96);
	assert_int_equal(d[15] | d[16] << 8, 512);
	assert_null(hid_preset("joystick", &len, &rl, &pr, &sc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tunables, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_composite, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_device_options, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failed_up_leaves_nothing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_down_after_half_failed_up, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ffs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_environment, setup, teardown),
	    cmocka_unit_test(test_bad_operands),
	    cmocka_unit_test(test_hid_presets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

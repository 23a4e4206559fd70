// SPDX-License-Identifier: MIT
/*
 * classes/gadget: what up and down refuse, against the configfs fixture
 * (gadget_fixture.h): a gadget that is not usbperf's, by name or by label;
 * an msc LUN the host could write without --destructive (and ro=1 reaching
 * the kernel before the medium); a FunctionFS mount point that is not a new
 * directory; and two FunctionFS gadgets sharing /dev/usb-ffs going down in
 * either order (issue 28.3, 28.6, 28.7, 28.12, 28.14).
 */
#include "gadget_fixture.h"

/*
 * A gadget usbperf did not make is refused; --force takes down one named as
 * usbperf's whose configurations carry usbperf's label, nothing else: not
 * another tool's under any name, not usb_gadget itself ("", 28.12), not a
 * name past 64 characters (28.14).
 */
static void test_not_ours(void **state)
{
	const char *args[] = {"ncm"};
	char *why = NULL, *before = tree(), *with_g1;
	char long_name[301];
	int64_t n = 0;

	(void)state;
	/* someone else's gadget g1, on dummy_udc.0, with a function linked */
	assert_int_equal(fs.mkdir(CFS "/g1"), 0);
	assert_int_equal(fs.mkdir(CFS "/g1/functions/ncm.x"), 0);
	assert_int_equal(fs.mkdir(CFS "/g1/configs/c.1"), 0);
	assert_int_equal(fs.symlink(CFS "/g1/functions/ncm.x", CFS "/g1/configs/c.1/ncm.x"), 0);
	assert_int_equal(fs.write(CFS "/g1/UDC", "dummy_udc.0", 11), 0);
	with_g1 = tree();
	assert_int_equal(gadget_down("g1", false, &fs, &n, &why), -EINVAL);
	assert_non_null(strstr(why, "usbperf's gadgets are 'usbperf' or 'usbperf-NAME'"));
	assert_int_equal(gadget_down("g1", true, &fs, &n, &why), -EINVAL);
	assert_int_equal(gadget_down("", true, &fs, &n, &why), -EINVAL);
	assert_int_equal(gadget_down("usbperf-", true, &fs, &n, &why), -EINVAL);
	assert_int_equal(gadget_down("usbperf-../g1", true, &fs, &n, &why), -EINVAL);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	memcpy(long_name, "usbperf-", 8);
	assert_int_equal(gadget_down(long_name, true, &fs, &n, &why), -EINVAL);
	assert_non_null(strstr(why, "...': usbperf's gadgets"));
	assert_true(sysroot_exists(CFS "/g1/configs/c.1/ncm.x"));
	/* up takes the free UDC; asking for the busy one is refused */
	{
		struct gadget_spec s;
		struct gadget_built b = {0};

		gadget_spec_init(&s);
		assert_int_equal(gadget_spec_add(&s, "ncm", &why), 0);
		s.udc = strdup("dummy_udc.0");
		assert_int_equal(gadget_up(&s, &fs, &b, &why), -EBUSY);
		free(s.udc);
		s.udc = NULL;
		assert_int_equal(gadget_up(&s, &fs, &b, &why), 0);
		assert_string_equal(b.udc, "dummy_udc.1");
		gadget_built_release(&b);
		gadget_spec_release(&s);
	}
	down_ok("usbperf");
	assert_same_tree(with_g1);
	/* another tool's gadget under a name like usbperf's: its label says whose it is */
	assert_int_equal(fs.mkdir(CFS "/usbperf-x"), 0);
	assert_int_equal(fs.mkdir(CFS "/usbperf-x/configs/c.1"), 0);
	assert_int_equal(fs.mkdir(CFS "/usbperf-x/configs/c.1/strings/0x409"), 0);
	assert_int_equal(
	    fs.write(CFS "/usbperf-x/configs/c.1/strings/0x409/configuration", "adb", 3), 0);
	assert_int_equal(gadget_down("usbperf-x", false, &fs, &n, &why), -EPERM);
	assert_int_equal(gadget_down("usbperf-x", true, &fs, &n, &why), -EPERM);
	assert_non_null(strstr(why, "its configuration 'c.1' says 'adb'"));
	assert_true(sysroot_exists(CFS "/usbperf-x/configs/c.1/strings/0x409"));
	/* one of usbperf's whose state file is gone: --force takes it down */
	assert_int_equal(
	    fs.write(CFS "/usbperf-x/configs/c.1/strings/0x409/configuration", "usbperf: ncm", 12),
	    0);
	assert_int_equal(gadget_down("usbperf-x", true, &fs, &n, &why), 0);
	assert_same_tree(with_g1);
	/* a directory named usbperf without a state file is not ours either */
	assert_int_equal(fs.mkdir(G), 0);
	up_fails(args, 1, -EEXIST, "did not create");
	free(why);
	free(before);
	free(with_g1);
}

/*
 * 28.3: the USB host writes an msc LUN unless ro=1: a file (any file) needs
 * --destructive; ro=1 reaches the kernel before the medium, which it must
 * (f_mass_storage refuses ro while a medium is in).
 */
static void test_msc_backing(void **state)
{
	struct strbuf msc = STRBUF_INIT;
	const char *args[] = {NULL};
	char *before = tree();

	(void)state;
	strbuf_addf(&msc, "msc:file=%s", backing);
	args[0] = msc.buf;
	up_fails(args, 1, -EACCES, "refusing to export");
	assert_same_tree(before);
	strbuf_addf(&msc, ",ro=1");
	args[0] = msc.buf;
	up_ok(args, 1);
	ASSERT_FILE(G "/functions/mass_storage.0/lun.0/ro", "1");
	ASSERT_FILE(G "/functions/mass_storage.0/lun.0/file", backing);
	down_ok("usbperf");
	assert_same_tree(before);
	strbuf_reset(&msc);
	strbuf_addf(&msc, "msc:file=%s", backing);
	args[0] = msc.buf;
	up_destructive = true;
	up_ok(args, 1);
	up_destructive = false;
	down_ok("usbperf");
	assert_same_tree(before);
	strbuf_release(&msc);
	free(before);
}

/* up of one ffs function named name in gadget usbperf[-gadget], 0 expected */
static void ffs_up(const char *gadget, const char *fn)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL;

	gadget_spec_init(&s);
	if (gadget)
		assert_int_equal(gadget_spec_set_name(&s, gadget, &why), 0);
	assert_int_equal(gadget_spec_add(&s, fn, &why), 0);
	if (gadget_up(&s, &fs, &b, &why) < 0)
		fail_msg("up %s: %s", fn, why);
	gadget_built_release(&b);
	gadget_spec_release(&s);
}

/* down expected to succeed with a note containing want (NULL: none) */
static void down_note(const char *dir, const char *want)
{
	int64_t n = 0;
	char *why = NULL;

	if (gadget_down(dir, false, &fs, &n, &why) < 0)
		fail_msg("down %s: %s", dir, why);
	if (want ? !why || !strstr(why, want) : why != NULL)
		fail_msg("down %s: note '%s', expected '%s'", dir, why ? why : "",
			 want ? want : "");
	free(why);
}

/*
 * 28.7: two FunctionFS gadgets share /dev/usb-ffs, which the first made:
 * either goes down first, and nothing is left; a mount point of another
 * program's in it (adbd's) keeps it, and the gadget still goes down whole.
 */
static void test_ffs_shared(void **state)
{
	char *before = tree();
	struct strbuf p = STRBUF_INIT;

	(void)state;
	ffs_up(NULL, "ffs:name=a");
	ffs_up("b", "ffs:name=b");
	down_note("usbperf", "kept '/dev/usb-ffs': it is not empty (gadget 'usbperf-b' takes it "
			     "over: its down removes it)");
	assert_false(sysroot_exists(G));
	assert_true(sysroot_exists("/dev/usb-ffs/b"));
	down_note("usbperf-b", NULL);
	assert_int_equal(k.mounts, 0);
	assert_same_tree(before);
	/* the other order */
	ffs_up(NULL, "ffs:name=a");
	ffs_up("b", "ffs:name=b");
	down_note("usbperf-b", NULL);
	down_note("usbperf", NULL);
	assert_same_tree(before);
	/* adbd's mount point in it (marked as the fake kernel marks what was made) */
	ffs_up(NULL, "ffs:name=a");
	put_dir("/dev/usb-ffs/adb");
	put_file("/dev/usb-ffs/adb/.user", "");
	down_note("usbperf", "kept '/dev/usb-ffs': it is not empty (another program's mount point "
			     "is in it)");
	assert_false(sysroot_exists(G));
	assert_false(sysroot_exists("/run/usbperf/gadget-usbperf.state"));
	assert_true(sysroot_exists("/dev/usb-ffs/adb"));
	strbuf_addf(&p, "rm -r '%s/dev'", root);
	assert_int_equal(system(p.buf), 0);
	assert_same_tree(before);
	strbuf_release(&p);
	free(before);
}

/* 28.6: functionfs is mounted only on a new directory under plain directories */
static void test_ffs_dirs(void **state)
{
	const char *over_data[] = {"ffs:dir=/data"}, *through_link[] = {"ffs:dir=/lnk/new"};
	const char *taken[] = {"ffs"};
	struct strbuf p = STRBUF_INIT;
	char *before;

	(void)state;
	put_dir("/data/keep");
	put_file("/data/keep/file", "the user's");
	real(&p, "/lnk");
	assert_int_equal(symlink("data", p.buf), 0);
	put_dir("/dev/usb-ffs/usbperf");
	before = tree();
	up_fails(over_data, 1, -EEXIST,
		 "'/data' exists: functionfs is mounted only on a new "
		 "directory usbperf makes");
	up_fails(through_link, 1, -EEXIST, "'/lnk' is not a directory (a link is not followed)");
	up_fails(taken, 1, -EEXIST, "'/dev/usb-ffs/usbperf' exists");
	assert_int_equal(k.mounts, 0);
	assert_same_tree(before);
	/* a new directory below /data: made, mounted, and removed again by down */
	ffs_up(NULL, "ffs:dir=/data/new");
	assert_true(sysroot_exists("/data/new"));
	down_note("usbperf", NULL);
	assert_same_tree(before);
	strbuf_release(&p);
	free(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_not_ours, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_msc_backing, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ffs_shared, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ffs_dirs, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

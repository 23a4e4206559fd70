// SPDX-License-Identifier: MIT
/*
 * core/gadget: usbperf gadget up/down against a configfs tree in a temporary
 * directory. A fake "kernel" (the struct gadget_fs below) does what configfs
 * does on mkdir: the attributes and default groups of what was made appear,
 * and rmdir refuses a directory with links or user-made directories below.
 * Every profile and tunable writes its file; down, also after a half-failed
 * up, leaves the tree byte for byte as it was.
 */
#include "unit.h"
#include "fixture.h"
#include "core/gadget/build.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CFS "/sys/kernel/config/usb_gadget"
#define G CFS "/usbperf"

static char root[] = "/tmp/test_gadget_build.XXXXXX";
static char backing[PATH_MAX];

/* ---- the fake kernel ---- */

static struct {
	const char *missing_type; /* mkdir functions/<type>.x fails ENOENT */
	const char *missing_attr; /* never populated */
	const char *fail_write;	  /* a path suffix whose write fails EBUSY */
	bool frozen;		  /* rmdir and unlink fail EBUSY (a rollback that cannot finish) */
	int mounts;		  /* functionfs mounted now */
} k;

static const struct {
	const char *pattern; /* fnmatch with FNM_PATHNAME, below the root */
	const char *files;   /* attributes, space separated */
	const char *dirs;    /* default groups, space separated, may nest "a/b" */
} kinds[] = {
    {CFS "/*", "idVendor idProduct bcdDevice bcdUSB bDeviceClass max_speed UDC",
     "functions configs strings os_desc"},
    {CFS "/*/strings/*", "manufacturer product serialnumber", ""},
    {CFS "/*/configs/*", "MaxPower bmAttributes", "strings"},
    {CFS "/*/configs/*/strings/*", "configuration", ""},
    {CFS "/*/functions/mass_storage.*", "stall num_buffers", "lun.0"},
    {CFS "/*/functions/mass_storage.*/lun.0", "file ro removable cdrom nofua inquiry_string", ""},
    {CFS "/*/functions/ncm.*", "dev_addr host_addr qmult ifname", ""},
    {CFS "/*/functions/ecm.*", "dev_addr host_addr qmult ifname", ""},
    {CFS "/*/functions/rndis.*", "dev_addr host_addr qmult ifname class subclass protocol", ""},
    {CFS "/*/functions/hid.*", "protocol subclass report_length report_desc dev", ""},
    {CFS "/*/functions/uvc.*", "streaming_maxpacket streaming_maxburst streaming_interval",
     "control control/header control/class control/class/fs control/class/ss streaming "
     "streaming/header streaming/uncompressed streaming/mjpeg streaming/class "
     "streaming/class/fs streaming/class/hs streaming/class/ss"},
    {CFS "/*/functions/uvc.*/streaming/uncompressed/*",
     "guidFormat bBitsPerPixel bDefaultFrameIndex", ""},
    {CFS "/*/functions/uvc.*/streaming/uncompressed/*/*",
     "wWidth wHeight dwMinBitRate dwMaxBitRate dwMaxVideoFrameBufferSize "
     "dwDefaultFrameInterval dwFrameInterval bmCapabilities",
     ""},
    {CFS "/*/functions/SourceSink.*",
     "pattern isoc_interval isoc_maxpacket isoc_mult isoc_maxburst bulk_buflen bulk_qlen "
     "iso_qlen",
     ""},
    {CFS "/*/functions/Loopback.*", "qlen bulk_buflen", ""},
    {CFS "/*/functions/ffs.*", "", ""},
};

static void populate(const char *path);

static void touch(const char *dir, const char *name, bool is_dir)
{
	struct strbuf p = STRBUF_INIT;

	tree_path(&p, dir);
	strbuf_addf(&p, "/%s", name);
	if (is_dir) {
		assert_int_equal(mkdir(p.buf, 0755), 0);
		/* a default group gets its own attributes */
		populate(p.buf + strlen(root));
	} else if (!k.missing_attr || strcmp(name, k.missing_attr)) {
		int fd = open(p.buf, O_WRONLY | O_CREAT | O_EXCL, 0644);

		assert_true(fd >= 0);
		close(fd);
	}
	strbuf_release(&p);
}

static void each_word(const char *dir, const char *words, bool is_dir)
{
	char *copy = strdup(words), *save = NULL, *w;

	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		touch(dir, w, is_dir);
	free(copy);
}

static int fake_mkdir(const char *path)
{
	const char *fn = strstr(path, "/functions/");
	int r;

	if (fn && k.missing_type && !strchr(fn + 11, '/') &&
	    !strncmp(fn + 11, k.missing_type, strlen(k.missing_type)))
		return -ENOENT;
	r = gadget_fs_real.mkdir(path);
	if (r < 0)
		return r;
	/* what the user made is marked: rmdir of its parent must refuse */
	touch(path, ".user", false);
	populate(path);
	return 0;
}

static void populate(const char *path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (fnmatch(kinds[i].pattern, path, FNM_PATHNAME))
			continue;
		each_word(path, kinds[i].dirs, true);
		each_word(path, kinds[i].files, false);
		break;
	}
}

/* configfs keeps the target as given: the same path below the root */
static int fake_symlink(const char *target, const char *linkpath)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	tree_path(&p, linkpath);
	r = symlink(target, p.buf) < 0 ? -errno : 0;
	strbuf_release(&p);
	return r;
}

static bool busy;

static int check_busy(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	if (flag == FTW_SL || (f->level > 1 && !strcmp(p + f->base, ".user")))
		busy = true;
	return 0;
}

static int fake_rmdir(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r = 0;

	if (k.frozen)
		return -EBUSY;
	tree_path(&p, path);
	if (lstat(p.buf, &st) < 0)
		r = -errno;
	else if (!S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	if (r == 0) {
		busy = false;
		nftw(p.buf, check_busy, 16, FTW_PHYS);
		if (busy)
			r = -ENOTEMPTY;
		else
			tree_rm_rf(p.buf);
	}
	strbuf_release(&p);
	return r;
}

static int fake_unlink(const char *path)
{
	return k.frozen ? -EBUSY : gadget_fs_real.unlink(path);
}

static int fake_write(const char *path, const void *buf, size_t len)
{
	size_t n = strlen(path), m = k.fail_write ? strlen(k.fail_write) : 0;

	if (m && n >= m && !strcmp(path + n - m, k.fail_write) && len > 1)
		return -EBUSY;
	return gadget_fs_real.write(path, buf, len);
}

static int fake_mount(const char *dev, const char *dir)
{
	(void)dev;
	if (!sysroot_exists(dir))
		return -ENOENT;
	k.mounts++;
	return 0;
}

static int fake_umount(const char *dir)
{
	(void)dir;
	if (!k.mounts)
		return -EINVAL;
	k.mounts--;
	return 0;
}

static const struct gadget_fs fake = {
    .mkdir = fake_mkdir,
    .rmdir = fake_rmdir,
    .symlink = fake_symlink,
    .unlink = fake_unlink,
    .write = fake_write,
    .mount_ffs = fake_mount,
    .umount = fake_umount,
};
static struct gadget_fs fs;

/* ---- the tree ---- */

#define ASSERT_FILE(path, want)                                                                    \
	do {                                                                                       \
		char *got_ = tree_read(path);                                                        \
		if (!got_ || strcmp(got_, want))                                                   \
			fail_msg("%s = '%s', expected '%s'", path, got_ ? got_ : "(none)", want);  \
		free(got_);                                                                        \
	} while (0)

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/test_gadget_build.XXXXXX");
	tree_make(root);
	fs = fake;
	k = (typeof(k)){0};
	tree_put_dir(CFS);
	tree_put_dir("/sys/class/udc/dummy_udc.0");
	tree_put_dir("/sys/class/udc/dummy_udc.1");
	tree_put_dir("/run/usbperf");
	tree_put_dir("/proc/sys/kernel");
	tree_put_file("/proc/sys/kernel/osrelease", "6.1.0-test\n");
	tree_put_file("/sys/class/udc/dummy_udc.0/state", "not attached\n");
	tree_put_file("/sys/class/udc/dummy_udc.1/state", "not attached\n");
	snprintf(backing, sizeof(backing), "%s/backing.img", root);
	tree_put_file("/backing.img", "");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tree_remove();
	return 0;
}

/* up with the operands, 0 expected; the result released */
static void up_ok(const char *const *args, size_t n)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL;
	size_t i;
	int r;

	gadget_spec_init(&s);
	for (i = 0; i < n; i++) {
		r = gadget_spec_add(&s, args[i], &why);
		if (r < 0)
			fail_msg("%s: %s", args[i], why);
	}
	r = gadget_up(&s, &fs, &b, &why);
	if (r < 0)
		fail_msg("up: %s", why);
	gadget_built_release(&b);
	gadget_spec_release(&s);
}

/* up expected to fail with r, why containing want */
static void up_fails(const char *const *args, size_t n, int want_r, const char *want)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL;
	size_t i;
	int r = 0;

	gadget_spec_init(&s);
	for (i = 0; i < n && r == 0; i++)
		r = gadget_spec_add(&s, args[i], &why);
	if (r == 0)
		r = gadget_up(&s, &fs, &b, &why);
	if (r != want_r || !why || !strstr(why, want))
		fail_msg("up = %d (%s), expected %d with '%s'", r, why ? why : "", want_r, want);
	free(why);
	gadget_spec_release(&s);
}

static void down_ok(const char *dir)
{
	int64_t n = 0;
	char *why = NULL;

	if (gadget_down(dir, false, &fs, &n, &why) < 0)
		fail_msg("down: %s", why);
	assert_true(n > 0);
}

static void assert_same_tree(const char *before)
{
	char *after = tree_listing(true);

	if (strcmp(before, after))
		fail_msg("tree changed:\n--- before\n%s--- after\n%s", before, after);
	free(after);
}

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
	char *before = tree_listing(true);
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
	char *before = tree_listing(true), *desc;
	size_t len, i;
	unsigned rl, pr, sc;
	const uint8_t *kbd = hid_preset("keyboard", &len, &rl, &pr, &sc);

	(void)state;
	strbuf_addf(&msc, "msc:file=%s,removable=1", backing);
	args[0] = msc.buf;
	up_ok(args, ARRAY_SIZE(args));
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
	desc = tree_read(G "/functions/hid.1/report_desc");
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
	char *why = NULL, *before = tree_listing(true);

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
	char *before = tree_listing(true);

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
	char *why = NULL, *before = tree_listing(true);
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

/* a gadget usbperf did not make is refused, unless --force */
static void test_not_ours(void **state)
{
	const char *args[] = {"ncm"};
	char *why = NULL, *before = tree_listing(true);
	int64_t n = 0;

	(void)state;
	/* someone else's gadget g1, on dummy_udc.0, with a function linked */
	assert_int_equal(fs.mkdir(CFS "/g1"), 0);
	assert_int_equal(fs.mkdir(CFS "/g1/functions/ncm.x"), 0);
	assert_int_equal(fs.mkdir(CFS "/g1/configs/c.1"), 0);
	assert_int_equal(fs.symlink(CFS "/g1/functions/ncm.x", CFS "/g1/configs/c.1/ncm.x"), 0);
	assert_int_equal(fs.write(CFS "/g1/UDC", "dummy_udc.0", 11), 0);
	assert_int_equal(gadget_down("g1", false, &fs, &n, &why), -EPERM);
	assert_non_null(strstr(why, "--force"));
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
	assert_int_equal(gadget_down("g1", true, &fs, &n, &why), 0);
	assert_same_tree(before);
	/* a directory named usbperf without a state file is not ours either */
	assert_int_equal(fs.mkdir(G), 0);
	up_fails(args, 1, -EEXIST, "did not create");
	free(why);
	free(before);
}

/* ffs: mounted, left unbound, bound later; down unmounts and removes the mount point */
static void test_ffs(void **state)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL, *udc = NULL, *before = tree_listing(true);
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
	    {"ffs:dir=relative", "not an absolute path"},
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
	    cmocka_unit_test_setup_teardown(test_not_ours, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ffs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_environment, setup, teardown),
	    cmocka_unit_test(test_bad_operands),
	    cmocka_unit_test(test_hid_presets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

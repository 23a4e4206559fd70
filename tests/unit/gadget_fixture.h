/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The configfs fixture of the gadget builder's unit tests: a tree in a
 * temporary directory and a fake "kernel" (a struct gadget_fs) that does
 * what configfs does on mkdir: the attributes and default groups of what
 * was made appear, and rmdir refuses a directory with links or user-made
 * directories below. setup/teardown make and remove it; up_ok, up_fails,
 * down_ok and assert_same_tree are the checks the tests share.
 */
#include "unit.h"
#include "classes/gadget/build.h"
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

static char root[] __attribute__((unused)) = "/tmp/test_gadget.XXXXXX";
static char backing[PATH_MAX] __attribute__((unused));

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

static inline void real(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s%s", root, path);
}

static inline void populate(const char *path);

static inline void touch(const char *dir, const char *name, bool is_dir)
{
	struct strbuf p = STRBUF_INIT;

	real(&p, dir);
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

static inline void each_word(const char *dir, const char *words, bool is_dir)
{
	char *copy = strdup(words), *save = NULL, *w;

	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		touch(dir, w, is_dir);
	free(copy);
}

static inline int fake_mkdir(const char *path)
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

static inline void populate(const char *path)
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
static inline int fake_symlink(const char *target, const char *linkpath)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	real(&p, linkpath);
	r = symlink(target, p.buf) < 0 ? -errno : 0;
	strbuf_release(&p);
	return r;
}

static bool busy __attribute__((unused));

static inline int check_busy(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	if (flag == FTW_SL || (f->level > 1 && !strcmp(p + f->base, ".user")))
		busy = true;
	return 0;
}

static inline int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static inline int fake_rmdir(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r = 0;

	if (k.frozen)
		return -EBUSY;
	real(&p, path);
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
			nftw(p.buf, remove_one, 16, FTW_PHYS | FTW_DEPTH);
	}
	strbuf_release(&p);
	return r;
}

static inline int fake_unlink(const char *path)
{
	return k.frozen ? -EBUSY : gadget_fs_real.unlink(path);
}

static char *read_at(const char *path);

static inline int fake_write(const char *path, const void *buf, size_t len)
{
	size_t n = strlen(path), m = k.fail_write ? strlen(k.fail_write) : 0;

	if (m && n >= m && !strcmp(path + n - m, k.fail_write) && len > 1)
		return -EBUSY;
	/* f_mass_storage: ro cannot change while the LUN has a medium (fsg_store_ro) */
	if (n > 3 && !strcmp(path + n - 3, "/ro")) {
		struct strbuf f = STRBUF_INIT;
		char *medium;

		strbuf_add(&f, path, n - 3);
		strbuf_adds(&f, "/file");
		medium = read_at(f.buf);
		strbuf_release(&f);
		if (medium && *medium) {
			free(medium);
			return -EBUSY;
		}
		free(medium);
	}
	return gadget_fs_real.write(path, buf, len);
}

static inline int fake_mount(const char *dev, const char *dir)
{
	(void)dev;
	if (!sysroot_exists(dir))
		return -ENOENT;
	k.mounts++;
	return 0;
}

static inline int fake_umount(const char *dir)
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
static struct gadget_fs fs __attribute__((unused));

/* ---- the tree ---- */

static inline void put_file(const char *path, const char *data)
{
	struct strbuf p = STRBUF_INIT;
	FILE *f;

	real(&p, path);
	f = fopen(p.buf, "w");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
	strbuf_release(&p);
}

static inline void put_dir(const char *path)
{
	struct strbuf p = STRBUF_INIT, cmd = STRBUF_INIT;

	real(&p, path);
	strbuf_addf(&cmd, "mkdir -p '%s'", p.buf);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&p);
	strbuf_release(&cmd);
}

static struct strbuf listing __attribute__((unused));

static inline int list_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	char buf[4096];
	ssize_t n;

	(void)f;
	strbuf_addf(&listing, "%s %o", p + strlen(root), (unsigned)(st->st_mode & 07777));
	if (flag == FTW_SL) {
		n = readlink(p, buf, sizeof(buf) - 1);
		strbuf_addf(&listing, " -> %.*s", (int)(n > 0 ? n : 0), buf);
	} else if (flag == FTW_F) {
		int fd = open(p, O_RDONLY);

		n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
		if (fd >= 0)
			close(fd);
		strbuf_addf(&listing, " [%.*s]", (int)(n > 0 ? n : 0), buf);
	}
	strbuf_addch(&listing, '\n');
	return 0;
}

static char *tree(void)
{
	strbuf_reset(&listing);
	nftw(root, list_one, 16, FTW_PHYS);
	return strdup(listing.buf);
}

static char *read_at(const char *path)
{
	struct strbuf p = STRBUF_INIT, data = STRBUF_INIT;
	int r = sysroot_read(path, 1 << 20, &data);

	strbuf_release(&p);
	if (r < 0) {
		strbuf_release(&data);
		return NULL;
	}
	return strbuf_detach(&data);
}

#define ASSERT_FILE(path, want)                                                                    \
	do {                                                                                       \
		char *got_ = read_at(path);                                                        \
		if (!got_ || strcmp(got_, want))                                                   \
			fail_msg("%s = '%s', expected '%s'", path, got_ ? got_ : "(none)", want);  \
		free(got_);                                                                        \
	} while (0)

static inline int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/test_gadget.XXXXXX");
	assert_non_null(mkdtemp(root));
	sysroot_set(root);
	fs = fake;
	k = (typeof(k)){0};
	put_dir(CFS);
	put_dir("/sys/class/udc/dummy_udc.0");
	put_dir("/sys/class/udc/dummy_udc.1");
	put_dir("/run/usbperf");
	put_dir("/proc/sys/kernel");
	put_file("/proc/sys/kernel/osrelease", "6.1.0-test\n");
	put_file("/sys/class/udc/dummy_udc.0/state", "not attached\n");
	put_file("/sys/class/udc/dummy_udc.1/state", "not attached\n");
	snprintf(backing, sizeof(backing), "%s/backing.img", root);
	put_file("/backing.img", "");
	return 0;
}

static inline int teardown(void **state)
{
	struct strbuf cmd = STRBUF_INIT;

	(void)state;
	strbuf_addf(&cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	sysroot_set(NULL);
	return 0;
}

static bool up_destructive __attribute__((unused)); /* up_ok's spec has --destructive */

/* up with the operands, 0 expected; the result released */
static inline void up_ok(const char *const *args, size_t n)
{
	struct gadget_spec s;
	struct gadget_built b = {0};
	char *why = NULL;
	size_t i;
	int r;

	gadget_spec_init(&s);
	s.destructive = up_destructive;
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
static inline void up_fails(const char *const *args, size_t n, int want_r, const char *want)
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

static inline void down_ok(const char *dir)
{
	int64_t n = 0;
	char *why = NULL;

	if (gadget_down(dir, false, &fs, &n, &why) < 0)
		fail_msg("down: %s", why);
	assert_true(n > 0);
}

static inline void assert_same_tree(const char *before)
{
	char *after = tree();

	if (strcmp(before, after))
		fail_msg("tree changed:\n--- before\n%s--- after\n%s", before, after);
	free(after);
}

// SPDX-License-Identifier: MIT
/* platform/sys/mounts: /proc/self/mountinfo parsing and lookups. */
#include "unit.h"
#include "platform/sys/mounts.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char mountinfo[] =
	"21 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"22 21 0:20 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
	"24 21 0:5 / /dev rw,nosuid,relatime shared:3 - devtmpfs udev rw,size=4012345k,mode=755\n"
	"\n"
	"30 21 0:26 / /tmp rw,nosuid,nodev master:4 - tmpfs tmpfs rw\n"
	"40 21 8:16 / /mnt rw,relatime shared:1 master:2 - ext4 /dev/sdb rw\n"
	"41 40 8:17 / /mnt/usb rw,nosuid,nodev shared:30 propagate_from:2 - vfat /dev/sdb1 "
	"rw,fmask=0022,dmask=0022,codepage=437\n"
	"42 40 8:33 / /mnt/usb2 rw,relatime - exfat /dev/sdc1 rw\n"
	"43 21 8:49 / /media/user/My\\040Disk rw,nosuid shared:40 - fuseblk /dev/sdd1 "
	"rw,user_id=0,group_id=0,allow_other\n"
	"44 21 0:50 / /home/user/remote rw,nosuid,nodev - fuse.sshfs user@host:/srv rw\n"
	/* skipped: too few fields, no separator, separator too late, bad maj:min */
	"45 21 8:51 / /too/few rw - ext4\n"
	"46 21 8:52 / /no/separator rw shared:7 ext4 /dev/sdd3 rw\n"
	"47 21 8:53 / /late/separator rw a b c d -\n"
	"48 21 8-54 / /bad/devnum rw - ext4 /dev/sdd4 rw\n"
	"49 21 8:x / /bad/minor rw - ext4 /dev/sdd4 rw\n"
	"garbage\n"
	"50 21 8:50 /sub/dir /srv/a\\134b\\011c\\04 rw - ext4 /dev/sdd2 rw"; /* no final newline */

struct want_entry {
	unsigned major, minor;
	const char *root, *mount_point, *fs_type, *source;
};

static const struct want_entry want_entries[] = {
	{254, 0, "/", "/", "ext4", "/dev/vda"},
	{0, 20, "/", "/proc", "proc", "proc"},
	{0, 5, "/", "/dev", "devtmpfs", "udev"},
	{0, 26, "/", "/tmp", "tmpfs", "tmpfs"},
	{8, 16, "/", "/mnt", "ext4", "/dev/sdb"},
	{8, 17, "/", "/mnt/usb", "vfat", "/dev/sdb1"},
	{8, 33, "/", "/mnt/usb2", "exfat", "/dev/sdc1"},
	{8, 49, "/", "/media/user/My Disk", "fuseblk", "/dev/sdd1"},
	{0, 50, "/", "/home/user/remote", "fuse.sshfs", "user@host:/srv"},
	/* \134 is a backslash, a tab is sanitized to '?', a cut-off escape stays as it is */
	{8, 50, "/sub/dir", "/srv/a\\b?c\\04", "ext4", "/dev/sdd2"},
};

static void check_table(const struct mount_table *t, const struct want_entry *w, size_t n)
{
	size_t i;

	if (t->n != n) {
		for (i = 0; i < t->n; i++)
			print_message("  got %s\n", t->e[i].mount_point);
		fail_msg("%zu entries, expected %zu", t->n, n);
	}
	for (i = 0; i < n; i++) {
		const struct mount_entry *e = &t->e[i];

		if (e->major != w[i].major || e->minor != w[i].minor ||
		    strcmp(e->root, w[i].root) || strcmp(e->mount_point, w[i].mount_point) ||
		    strcmp(e->fs_type, w[i].fs_type) || strcmp(e->source, w[i].source))
			fail_msg("entry %zu: %u:%u '%s' '%s' '%s' '%s'; expected '%s' on '%s'", i,
				 e->major, e->minor, e->root, e->mount_point, e->fs_type, e->source,
				 w[i].source, w[i].mount_point);
	}
}

static void test_parse(void **state)
{
	struct mount_table t = {0};

	(void)state;
	assert_int_equal(mounts_parse(mountinfo, &t), 0);
	check_table(&t, want_entries, ARRAY_SIZE(want_entries));
	mount_table_release(&t);
	assert_null(t.e);
	assert_int_equal(t.n, 0);
	mount_table_release(&t);
	mount_table_release(NULL);
}

static void test_parse_empty_and_junk(void **state)
{
	static const char *const texts[] = {"", "\n\n\n", "garbage\n", "1 2 3\n",
					    "- - - - - - - - - -\n"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		struct mount_table t = {.e = (struct mount_entry *)1, .n = 99};

		assert_int_equal(mounts_parse(texts[i], &t), 0);
		if (t.n != 0)
			fail_msg("text %zu gave %zu entries", i, t.n);
		mount_table_release(&t);
	}
}

static void test_parse_many(void **state)
{
	/* past the first allocation of the table */
	char line[128], *text = malloc(200 * sizeof(line));
	struct mount_table t = {0};
	size_t len = 0;
	unsigned i;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < 200; i++) {
		int n = snprintf(line, sizeof(line),
				 "%u 1 7:%u / /mnt/loop%u rw - ext4 /dev/loop%u rw\n", i + 10, i, i,
				 i);
		memcpy(text + len, line, (size_t)n);
		len += (size_t)n;
	}
	text[len] = '\0';
	assert_int_equal(mounts_parse(text, &t), 0);
	assert_int_equal(t.n, 200);
	assert_int_equal(t.e[199].minor, 199);
	assert_string_equal(t.e[199].mount_point, "/mnt/loop199");
	assert_string_equal(t.e[0].source, "/dev/loop0");
	mount_table_release(&t);
	free(text);
}

static const char nested[] = "1 0 254:0 / / rw - ext4 /dev/vda rw\n"
			     "2 1 8:16 / /mnt rw - ext4 /dev/sdb rw\n"
			     "3 2 8:17 / /mnt/usb rw - vfat /dev/sdb1 rw\n"
			     "4 2 8:33 / /mnt/usb2 rw - exfat /dev/sdc1 rw\n";

static void test_find_path(void **state)
{
	static const struct {
		const char *path, *source;
	} cases[] = {
		{"/", "/dev/vda"},
		{"/etc/passwd", "/dev/vda"},
		{"/mn", "/dev/vda"},
		{"/mnt", "/dev/sdb"},
		{"/mnt/", "/dev/sdb"},
		{"/mnt/file", "/dev/sdb"},
		{"/mnt/usbx", "/dev/sdb"},
		{"/mnt/usb", "/dev/sdb1"},
		{"/mnt/usb/", "/dev/sdb1"},
		{"/mnt/usb/dir/file", "/dev/sdb1"},
		{"/mnt/usb2", "/dev/sdc1"},
		{"/mnt/usb2/file", "/dev/sdc1"},
		{"/mnt/usb22", "/dev/sdb"},
		{"relative/path", NULL},
		{"", NULL},
	};
	struct mount_table t = {0};
	size_t i;

	(void)state;
	assert_int_equal(mounts_parse(nested, &t), 0);
	assert_int_equal(t.n, 4);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct mount_entry *m = mounts_find_path(&t, cases[i].path);
		const char *got = m ? m->source : NULL;

		if (cases[i].source ? !got || strcmp(got, cases[i].source) : got != NULL)
			fail_msg("mounts_find_path(\"%s\") = %s, expected %s", cases[i].path,
				 got ? got : "NULL", cases[i].source ? cases[i].source : "NULL");
	}
	mount_table_release(&t);
}

static void test_find_path_shadowed_and_rootless(void **state)
{
	static const char shadow[] = "1 0 254:0 / / rw - ext4 /dev/vda rw\n"
				     "3 1 8:17 / /mnt/usb rw - vfat /dev/sdb1 rw\n"
				     "5 3 8:65 / /mnt/usb rw - ext4 /dev/sde1 rw\n";
	static const char rootless[] = "3 1 8:17 / /mnt/usb rw - vfat /dev/sdb1 rw\n";
	struct mount_table t = {0}, empty = {0};
	const struct mount_entry *m;

	(void)state;
	/* a later mount on the same point hides the earlier one */
	assert_int_equal(mounts_parse(shadow, &t), 0);
	m = mounts_find_path(&t, "/mnt/usb/f");
	assert_non_null(m);
	assert_string_equal(m->source, "/dev/sde1");
	mount_table_release(&t);

	assert_int_equal(mounts_parse(rootless, &t), 0);
	assert_null(mounts_find_path(&t, "/etc"));
	assert_non_null(mounts_find_path(&t, "/mnt/usb"));
	mount_table_release(&t);
	assert_null(mounts_find_path(&empty, "/"));
}

static void test_find_dev(void **state)
{
	struct mount_table t = {0};
	const struct mount_entry *m;

	(void)state;
	assert_int_equal(mounts_parse(mountinfo, &t), 0);
	m = mounts_find_dev(&t, 8, 17);
	assert_non_null(m);
	assert_string_equal(m->mount_point, "/mnt/usb");
	m = mounts_find_dev(&t, 0, 26);
	assert_non_null(m);
	assert_string_equal(m->fs_type, "tmpfs");
	assert_null(mounts_find_dev(&t, 8, 18));
	assert_null(mounts_find_dev(&t, 17, 8));
	assert_null(mounts_find_dev(&t, 8, 51)); /* only on a skipped line */
	mount_table_release(&t);
}

static void test_fs_is_fuse(void **state)
{
	static const struct {
		const char *type;
		bool fuse;
	} cases[] = {
		{"fuse", true}, {"fuseblk", true}, {"fuse.sshfs", true}, {"fuse.ntfs-3g", true},
		{"fuse.exfat", true}, {"ext4", false}, {"exfat", false}, {"ntfs3", false},
		{"fusectl", false},
		{"vfat", false}, {"tmpfs", false}, {"", false}, {"fus", false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (fs_is_fuse(cases[i].type) != cases[i].fuse)
			fail_msg("fs_is_fuse(\"%s\") = %d", cases[i].type, !cases[i].fuse);
}

static void test_load_from_sysroot(void **state)
{
	char root[] = "/tmp/usbperf-mounts-XXXXXX", path[256];
	struct mount_table t = {0};
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/self", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(nested, f);
	assert_int_equal(fclose(f), 0);

	sysroot_set(root);
	assert_int_equal(mounts_load(&t), 0);
	sysroot_set(NULL);
	assert_int_equal(t.n, 4);
	assert_string_equal(mounts_find_path(&t, "/mnt/usb/x")->source, "/dev/sdb1");
	mount_table_release(&t);

	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/self", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
	sysroot_set(root); /* now gone */
	assert_int_equal(mounts_load(&t), -ENOENT);
	sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_empty_and_junk),
		cmocka_unit_test(test_parse_many),
		cmocka_unit_test(test_find_path),
		cmocka_unit_test(test_find_path_shadowed_and_rootless),
		cmocka_unit_test(test_find_dev),
		cmocka_unit_test(test_fs_is_fuse),
		cmocka_unit_test(test_load_from_sysroot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * classes/gadget, the mtp profile: umtprd's configuration text, the tunables'
 * refusals, and up/down against a configfs-shaped tree in a temporary
 * directory with a fake daemon (the gadget_fs hooks which/spawn/running/
 * stop), so no umtprd runs: the steps recorded, the rollback of an up whose
 * daemon exits at start, down after a half-done up. The real stop hook is
 * run against a child of its own (sleep): it never signals a pid whose
 * executable is not the one recorded.
 */
#include "unit.h"
#include "fixture.h"
#include "classes/gadget/build.h"
#include "classes/gadget/mtp.h"
#include "classes/gadget/spec.h"
#include "classes/gadget/state.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CFS "/sys/kernel/config/usb_gadget"
#define G CFS "/usbperf"
#define MNT "/dev/usb-ffs/mtp"
#define BASE "/run/usbperf/mtp-usbperf-mtp"

static char root[] = "/tmp/test_gadget_mtp.XXXXXX";

/* ---- the fake kernel and daemon ---- */

static struct {
	bool no_daemon; /* which: not installed */
	bool dies;	/* the daemon writes a line to its log and exits */
	bool alive;	/* running */
	int spawned, stopped, stop_pid;
	char conf[PATH_MAX];
} d;

static const struct {
	const char *pattern, *files, *groups;
} kinds[] = {
    {CFS "/*", "idVendor idProduct max_speed UDC", "functions configs strings"},
    {CFS "/*/strings/*", "manufacturer product serialnumber", ""},
    {CFS "/*/configs/*", "MaxPower", "strings"},
    {CFS "/*/configs/*/strings/*", "configuration", ""},
};

/* configfs: the attributes of what was made appear (configs, strings, functions as dirs) */
static int fake_mkdir(const char *path)
{
	int r = gadget_fs_real.mkdir(path);
	size_t i;

	if (r < 0)
		return r;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		char *copy, *save = NULL, *w;
		struct strbuf f = STRBUF_INIT;

		if (fnmatch(kinds[i].pattern, path, FNM_PATHNAME))
			continue;
		copy = strdup(kinds[i].files);
		for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			strbuf_reset(&f);
			strbuf_addf(&f, "%s/%s", path, w);
			tree_put_file(f.buf, "");
		}
		free(copy);
		copy = strdup(kinds[i].groups);
		for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			strbuf_reset(&f);
			strbuf_addf(&f, "%s/%s", path, w);
			tree_put_dir(f.buf);
		}
		free(copy);
		strbuf_release(&f);
	}
	return 0;
}

static int drop_attrs(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	if (flag == FTW_F && f->level == 1)
		unlink(p);
	return 0;
}

/* configfs: the attributes go with the directory; the default groups too (empty) */
static int fake_rmdir(const char *path)
{
	struct strbuf p = STRBUF_INIT, sub = STRBUF_INIT;
	static const char *const groups[] = {"functions", "configs", "strings"};
	size_t i;
	int r;

	tree_path(&p, path);
	if (!strncmp(path, CFS "/", strlen(CFS) + 1)) {
		nftw(p.buf, drop_attrs, 4, FTW_PHYS);
		for (i = 0; i < ARRAY_SIZE(groups); i++) {
			strbuf_reset(&sub);
			strbuf_addf(&sub, "%s/%s", p.buf, groups[i]);
			rmdir(sub.buf);
		}
	}
	r = rmdir(p.buf) < 0 ? -errno : 0;
	strbuf_release(&p);
	strbuf_release(&sub);
	return r;
}

static int fake_mount(const char *dev, const char *dir)
{
	(void)dev;
	return sysroot_exists(dir) ? 0 : -ENOENT;
}

/* unmounting functionfs takes its endpoint files with it */
static int fake_umount(const char *dir)
{
	static const char *const eps[] = {"ep0", "ep1", "ep2", "ep3"};
	struct strbuf p = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(eps); i++) {
		tree_path(&p, dir);
		strbuf_addf(&p, "/%s", eps[i]);
		unlink(p.buf);
	}
	strbuf_release(&p);
	return 0;
}

static int fake_which(const char *name, char **ret)
{
	assert_string_equal(name, "umtprd");
	if (d.no_daemon)
		return -ENOENT;
	*ret = strdup("/usr/bin/umtprd");
	return 0;
}

static int fake_spawn(char *const argv[], int log_fd, int *ret_pid)
{
	static const char *const eps[] = {"/ep0", "/ep1", "/ep2", "/ep3"};
	size_t i;

	assert_string_equal(argv[0], "/usr/bin/umtprd");
	assert_string_equal(argv[1], "-conf");
	assert_null(argv[3]);
	snprintf(d.conf, sizeof(d.conf), "%s", argv[2]);
	d.spawned++;
	if (d.dies) {
		static const char line[] = "[uMTPrd - Info] Loading config\n"
					   "[uMTPrd - Error] init_usb_mtp_gadget : Unable to "
					   "open ep0\n";

		assert_int_equal(write(log_fd, line, sizeof(line) - 1), (ssize_t)sizeof(line) - 1);
		d.alive = false;
	} else {
		/* its descriptors written: f_fs makes the endpoint files */
		for (i = 0; i < ARRAY_SIZE(eps); i++) {
			struct strbuf p = STRBUF_INIT;

			strbuf_addf(&p, MNT "%s", eps[i]);
			tree_put_file(p.buf, "");
			strbuf_release(&p);
		}
		d.alive = true;
	}
	*ret_pid = 4242;
	return 0;
}

static bool fake_running(int pid, const char *exe)
{
	return pid == 4242 && !strcmp(exe, "/usr/bin/umtprd") && d.alive;
}

static int fake_stop(int pid, const char *exe)
{
	assert_string_equal(exe, "/usr/bin/umtprd");
	d.stopped++;
	d.stop_pid = pid;
	d.alive = false;
	return 0;
}

static struct gadget_fs fs;

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/test_gadget_mtp.XXXXXX");
	tree_make(root);
	fs = gadget_fs_real;
	fs.mkdir = fake_mkdir;
	fs.rmdir = fake_rmdir;
	fs.mount_ffs = fake_mount;
	fs.umount = fake_umount;
	fs.which = fake_which;
	fs.spawn = fake_spawn;
	fs.running = fake_running;
	fs.stop = fake_stop;
	d = (typeof(d)){0};
	tree_put_dir(CFS);
	tree_put_dir("/sys/class/udc/dummy_udc.0");
	tree_put_dir("/run/usbperf");
	tree_put_dir("/dev");
	tree_put_file("/sys/class/udc/dummy_udc.0/state", "not attached\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tree_remove();
	return 0;
}

/* ---- the tests ---- */

static void test_config_text(void **state)
{
	static const char want[] =
	    "# written by usbperf gadget up for gadget 'usbperf-lab'; usbperf gadget down "
	    "removes it\n"
	    "loop_on_disconnect 1\n"
	    "storage \"/srv/share\" \"usbperf\" \"rw\"\n"
	    "manufacturer \"usbperf\"\n"
	    "product \"usbperf MTP\"\n"
	    "serial \"usbperf-lab\"\n"
	    "firmware_version \"usbperf\"\n"
	    "interface \"MTP\"\n"
	    "usb_vendor_id 0x1d6b\n"
	    "usb_product_id 0x0104\n"
	    "usb_class 0x6\n"
	    "usb_subclass 0x1\n"
	    "usb_protocol 0x1\n"
	    "usb_dev_version 0x3008\n"
	    "usb_functionfs_mode 0x1\n"
	    "usb_dev_path \"/dev/usb-ffs/m/ep0\"\n"
	    "usb_epin_path \"/dev/usb-ffs/m/ep1\"\n"
	    "usb_epout_path \"/dev/usb-ffs/m/ep2\"\n"
	    "usb_epint_path \"/dev/usb-ffs/m/ep3\"\n"
	    "usb_max_packet_size 0x200\n"
	    "usb_max_rd_buffer_size 0x4000\n"
	    "usb_max_wr_buffer_size 0x200000\n"
	    "read_buffer_cache_size 0x400000\n"
	    "no_inotify 0x1\n";
	struct gadget_spec s;
	struct gadget_mtp_conf c = {.gadget = "usbperf-lab",
				    .storage = "/srv/share",
				    .ffs_dir = "/dev/usb-ffs/m",
				    .vid = 0x1d6b,
				    .pid = 0x0104};
	struct strbuf out = STRBUF_INIT;
	char *why = NULL;

	(void)state;
	/* the tunables as a user writes them: K and M are 1024-based */
	gadget_spec_init(&s);
	assert_int_equal(gadget_spec_add(&s, "mtp:rd_buffer=16K,wr_buffer=2M,cache=4M", &why), 0);
	assert_string_equal(gadget_fn_get(&s.fns[0], "rd_buffer"), "16384");
	assert_string_equal(s.fns[0].instance, "mtp");
	gadget_mtp_sizes(&s.fns[0], &c.rd_buffer, &c.wr_buffer, &c.cache);
	gadget_mtp_config(&c, &out);
	assert_string_equal(out.buf, want);
	gadget_spec_release(&s);
	/* not given: umtprd's own defaults */
	gadget_spec_init(&s);
	assert_int_equal(gadget_spec_add(&s, "mtp:name=m2", &why), 0);
	assert_string_equal(s.fns[0].instance, "m2");
	gadget_mtp_sizes(&s.fns[0], &c.rd_buffer, &c.wr_buffer, &c.cache);
	assert_int_equal(c.rd_buffer, 0x10000);
	assert_int_equal(c.wr_buffer, 0x10000);
	assert_int_equal(c.cache, 0x100000);
	gadget_spec_release(&s);
	strbuf_release(&out);
}

static void test_refusals(void **state)
{
	static const struct {
		const char *arg, *want;
	} cases[] = {
	    {"mtp:rd_buffer=1000", "rd_buffer=1000 is not a multiple of 512"},
	    {"mtp:wr_buffer=1536,rd_buffer=513", "rd_buffer=513 is not a multiple of 512"},
	    {"mtp:wr_buffer=700", "wr_buffer=700 is not a multiple of 512"},
	    {"mtp:cache=3M", "cache=3145728 is not a power of two"},
	    {"mtp:rd_buffer=1M,cache=1M", "rd_buffer=1048576 must be less than cache=1048576"},
	    {"mtp:rd_buffer=256", "rd_buffer='256' is not a size in 512..16777216"},
	    {"mtp:wr_buffer=17M", "wr_buffer='17M' is not a size in 512..16777216"},
	    {"mtp:cache=128M", "cache='128M' is not a size in 1024..67108864"},
	    {"mtp:cache=lots", "cache='lots' is not a size"},
	    {"mtp:storage=/nonexistent/share", "storage '/nonexistent/share'"},
	    {"mtp:storage=/etc/hostname", "is not a directory"},
	    {"mtp:name=a/b", "name='a/b'"},
	    {"mtp:dir=/x", "unknown key 'dir' (keys: storage, rd_buffer, wr_buffer, cache, name)"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct gadget_spec s;
		char *why = NULL;
		int r;

		gadget_spec_init(&s);
		r = gadget_spec_add(&s, cases[i].arg, &why);
		if (r >= 0 || !why || !strstr(why, cases[i].want))
			fail_msg("%s: %d '%s', expected '%s'", cases[i].arg, r, why ? why : "",
				 cases[i].want);
		assert_int_equal(s.nfns, 0);
		free(why);
		gadget_spec_release(&s);
	}
}

static int up(const char *arg, struct gadget_built *b, char **why)
{
	struct gadget_spec s;
	int r;

	gadget_spec_init(&s);
	r = gadget_spec_add(&s, arg, why);
	assert_int_equal(r, 0);
	r = gadget_up(&s, &fs, b, why);
	gadget_spec_release(&s);
	return r;
}

/* up: storage, config, log and pid recorded in order, bound after the descriptors; down */
static void test_up_down(void **state)
{
	static const char want_state[] = "usbperf-gadget 1 usbperf\n"
					 "dir " G "\n"
					 "dir " G "/strings/0x409\n"
					 "dir " G "/configs/c.1\n"
					 "dir " G "/configs/c.1/strings/0x409\n"
					 "dir " G "/functions/ffs.mtp\n"
					 "mntdir /dev/usb-ffs\n"
					 "mntdir " MNT "\n"
					 "mount " MNT "\n"
					 "store " BASE "\n"
					 "file " BASE ".conf\n"
					 "file " BASE ".log\n"
					 "proc 4242 /usr/bin/umtprd\n"
					 "link " G "/configs/c.1/ffs.mtp\n"
					 "bind " G "/UDC\n";
	struct gadget_built b = {0};
	struct strbuf p = STRBUF_INIT;
	char *before = tree_listing(false), *after, *got, *why = NULL;
	struct stat st;
	int64_t n = 0;

	(void)state;
	if (up("mtp:rd_buffer=32K,wr_buffer=128K,cache=256K", &b, &why) < 0)
		fail_msg("up: %s", why);
	got = tree_read("/run/usbperf/gadget-usbperf.state");
	assert_non_null(got);
	assert_string_equal(got, want_state);
	free(got);
	/* bound, with the sizes and the pid reported */
	got = tree_read(G "/UDC");
	assert_string_equal(got, "dummy_udc.0");
	free(got);
	/* no --max-speed: held to high speed (umtprd may have no SuperSpeed descriptors) */
	got = tree_read(G "/max_speed");
	assert_string_equal(got, "high-speed");
	free(got);
	assert_null(b.unbound_why);
	assert_int_equal(b.nfns, 1);
	assert_string_equal(b.fns[0].function, "ffs.mtp");
	assert_int_equal(b.fns[0].daemon_pid, 4242);
	assert_int_equal(b.fns[0].rd_buffer, 32768);
	assert_int_equal(b.fns[0].wr_buffer, 131072);
	assert_int_equal(b.fns[0].cache, 262144);
	tree_path(&p, BASE " conf=" BASE ".conf log=" BASE ".log");
	assert_non_null(strstr(b.fns[0].settings, p.buf));
	/* the configuration: usbperf's, 0600, with the sizes and the real paths */
	tree_path(&p, BASE ".conf");
	assert_string_equal(d.conf, p.buf);
	assert_int_equal(stat(p.buf, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	got = tree_read(BASE ".conf");
	assert_non_null(strstr(got, "usb_max_rd_buffer_size 0x8000\n"));
	assert_non_null(strstr(got, "usb_max_wr_buffer_size 0x20000\n"));
	assert_non_null(strstr(got, "read_buffer_cache_size 0x40000\n"));
	tree_path(&p, MNT "/ep0\"\n");
	assert_non_null(strstr(got, p.buf));
	tree_path(&p, BASE "\" \"usbperf\" \"rw\"\n");
	assert_non_null(strstr(got, p.buf));
	free(got);
	gadget_built_release(&b);
	/* a second up refuses, and starts nothing */
	assert_int_equal(up("mtp", &b, &why), -EEXIST);
	free(why);
	why = NULL;
	assert_int_equal(d.spawned, 1);

	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);
	assert_null(why);
	assert_int_equal(n, 14);
	assert_int_equal(d.stopped, 1);
	assert_int_equal(d.stop_pid, 4242);
	after = tree_listing(false);
	assert_string_equal(after, before);
	free(before);
	free(after);
	strbuf_release(&p);
}

/* down keeps a storage directory with files in it, and says so */
static void test_down_keeps_files(void **state)
{
	struct gadget_built b = {0};
	char *why = NULL;
	int64_t n = 0;

	(void)state;
	if (up("mtp", &b, &why) < 0)
		fail_msg("up: %s", why);
	gadget_built_release(&b);
	tree_put_file(BASE "/photo.jpg", "x");
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);
	assert_non_null(why);
	assert_string_equal(why, "kept '" BASE "': it is not empty");
	free(why);
	assert_true(sysroot_exists(BASE "/photo.jpg"));
	assert_false(sysroot_exists(BASE ".conf"));
	assert_false(sysroot_exists(BASE ".log"));
	assert_false(sysroot_exists(G));
	assert_false(sysroot_exists("/run/usbperf/gadget-usbperf.state"));
	/* the next up uses it and does not claim it */
	if (up("mtp", &b, &why) < 0)
		fail_msg("up again: %s", why);
	gadget_built_release(&b);
	why = tree_read("/run/usbperf/gadget-usbperf.state");
	assert_null(strstr(why, "store "));
	free(why);
	why = NULL;
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);
	assert_true(sysroot_exists(BASE "/photo.jpg"));
	free(why);
}

/* the daemon exits at start: its log's last line, and everything undone */
static void test_daemon_dies(void **state)
{
	struct gadget_built b = {0};
	char *before = tree_listing(false), *after, *why = NULL;

	(void)state;
	d.dies = true;
	assert_int_equal(up("mtp:cache=2M", &b, &why), -EIO);
	assert_non_null(why);
	if (!strstr(why, "umtprd exited at start: [uMTPrd - Error] init_usb_mtp_gadget : "
			 "Unable to open ep0 (log '" BASE ".log')"))
		fail_msg("why: %s", why);
	free(why);
	assert_int_equal(d.stopped, 1); /* the proc step undone, too */
	after = tree_listing(false);
	assert_string_equal(after, before);
	free(before);
	free(after);
}

/* umtprd not installed: refused before anything is made, naming the package */
static void test_not_installed(void **state)
{
	struct gadget_built b = {0};
	char *before = tree_listing(false), *after, *why = NULL;

	(void)state;
	d.no_daemon = true;
	assert_int_equal(up("mtp", &b, &why), -ENOENT);
	assert_string_equal(why, "mtp: 'umtprd' is not in PATH: install package umtp-responder "
				 "(apt-get install umtp-responder)");
	free(why);
	assert_int_equal(d.spawned, 0);
	after = tree_listing(false);
	assert_string_equal(after, before);
	free(before);
	free(after);
}

/* an up killed after the daemon started (no bind yet): down from the state file */
static void test_down_after_killed_up(void **state)
{
	char *before = tree_listing(false), *after, *why = NULL;
	struct gadget_state st;
	int64_t n = 0;

	(void)state;
	/* what up had done when it was killed, step by step as it records them */
	assert_int_equal(gadget_state_create(&st, "usbperf"), 0);
	assert_int_equal(fake_mkdir(G), 0);
	assert_int_equal(gadget_state_add(&st, "dir", G), 0);
	tree_put_dir(G "/functions/ffs.mtp");
	assert_int_equal(gadget_state_add(&st, "dir", G "/functions/ffs.mtp"), 0);
	tree_put_dir(MNT);
	assert_int_equal(gadget_state_add(&st, "mntdir", "/dev/usb-ffs"), 0);
	assert_int_equal(gadget_state_add(&st, "mntdir", MNT), 0);
	assert_int_equal(gadget_state_add(&st, "mount", MNT), 0);
	tree_put_file(MNT "/ep0", "");
	tree_put_file(BASE ".conf", "storage");
	assert_int_equal(gadget_state_add(&st, "file", BASE ".conf"), 0);
	assert_int_equal(gadget_state_add(&st, "file", BASE ".log"), 0); /* never created */
	assert_int_equal(gadget_state_add(&st, "proc", "4242 /usr/bin/umtprd"), 0);
	gadget_state_release(&st);
	d.alive = true;
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), 0);
	assert_int_equal(n, 8);
	assert_int_equal(d.stopped, 1);
	after = tree_listing(false);
	assert_string_equal(after, before);
	free(before);
	free(after);
	/* a proc line that is not "PID /path" is not followed */
	tree_put_file("/run/usbperf/gadget-usbperf.state",
		 "usbperf-gadget 1 usbperf\nproc 1 /sbin/init\n");
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), -EINVAL);
	free(why);
	why = NULL;
	tree_put_file("/run/usbperf/gadget-usbperf.state",
		 "usbperf-gadget 1 usbperf\nfile /etc/passwd\n");
	assert_int_equal(gadget_down("usbperf", false, &fs, &n, &why), -EINVAL);
	assert_non_null(strstr(why, "'/etc/passwd' is not a path usbperf created"));
	free(why);
	assert_int_equal(d.stopped, 1);
}

/* the real stop: a pid whose executable is another program is left alone */
static void test_real_stop(void **state)
{
	char *sleep_exe = NULL, *argv[3];
	int pid = 0, fd, status;

	(void)state;
	if (gadget_fs_real.which("sleep", &sleep_exe) < 0)
		skip();
	argv[0] = sleep_exe;
	argv[1] = "30";
	argv[2] = NULL;
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	/* an exec that fails is spawn's error, not a pid */
	argv[0] = "/nonexistent/umtprd";
	assert_int_equal(gadget_fs_real.spawn(argv, fd, &pid), -ENOENT);
	assert_int_equal(pid, 0);
	argv[0] = sleep_exe;
	assert_int_equal(gadget_fs_real.spawn(argv, fd, &pid), 0);
	close(fd);
	/* exec takes a moment: wait until /proc shows the program */
	for (int i = 0; i < 200 && !gadget_fs_real.running(pid, sleep_exe); i++)
		usleep(10000);
	assert_true(gadget_fs_real.running(pid, sleep_exe));
	assert_false(gadget_fs_real.running(pid, "/usr/bin/umtprd"));
	/* recorded as umtprd, but the pid is sleep now: not signalled */
	assert_int_equal(gadget_fs_real.stop(pid, "/usr/bin/umtprd"), 0);
	assert_true(gadget_fs_real.running(pid, sleep_exe));
	assert_int_equal(gadget_fs_real.stop(pid, sleep_exe), 0);
	assert_false(gadget_fs_real.running(pid, sleep_exe));
	/* reaped by running(), or here */
	waitpid(pid, &status, WNOHANG);
	/* a pid that is gone: nothing to do */
	assert_int_equal(gadget_fs_real.stop(pid, sleep_exe), 0);
	free(sleep_exe);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_config_text),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test_setup_teardown(test_up_down, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_down_keeps_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_daemon_dies, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_installed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_down_after_killed_up, setup, teardown),
	    cmocka_unit_test(test_real_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

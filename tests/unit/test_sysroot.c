// SPDX-License-Identifier: MIT
/* sysroot: the path walk, both backends, recording and snapshot files. */
#include "unit.h"
#include "util/snapshot.h"
#include "util/snapshot_priv.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char doc[] =
	"{\"usbperf_snapshot\": 1, \"entries\": ["
	"{\"path\": \"/sys/bus/usb/devices/1-1\", \"type\": \"link\","
	" \"target\": \"../../../devices/pci0000:00/usb1/1-1\"},"
	"{\"path\": \"/sys/devices/pci0000:00/usb1/1-1/speed\", \"type\": \"file\", \"text\": \"480\\n\"},"
	"{\"path\": \"/sys/devices/pci0000:00/usb1/1-1/descriptors\", \"type\": \"file\", \"hex\": \"1201000200\"},"
	"{\"path\": \"/sys/devices/pci0000:00/usb1/1-1/1-1:1.0\", \"type\": \"dir\"},"
	"{\"path\": \"/sys/devices/pci0000:00/usb1/1-1/1-1:1.0/driver\", \"type\": \"link\","
	" \"target\": \"../../../../../bus/usb/drivers/usb-storage\"},"
	"{\"path\": \"/sys/bus/usb/drivers/usb-storage\", \"type\": \"dir\"},"
	"{\"path\": \"/escape\", \"type\": \"link\", \"target\": \"../../../../sys/devices/pci0000:00\"},"
	"{\"path\": \"/abs\", \"type\": \"link\", \"target\": \"/sys/devices\"},"
	"{\"path\": \"/loop\", \"type\": \"link\", \"target\": \"loop\"}"
	"]}";

static void load(void)
{
	struct strbuf err = STRBUF_INIT;
	int r = snapshot_load_buf(doc, strlen(doc), &err);

	if (r < 0)
		fail_msg("load: %d %s", r, err.buf);
	strbuf_release(&err);
}

static void test_mem_walk(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;

	(void)state;
	load();
	assert_true(sysroot_is_snapshot());
	assert_int_equal(sysroot_read_attr("/sys/bus/usb/devices/1-1/speed", &sb), 0);
	assert_string_equal(sb.buf, "480");
	assert_int_equal(sysroot_read("/sys/bus/usb/devices/1-1/descriptors", 100, &sb), 0);
	assert_int_equal(sb.len, 5);
	assert_memory_equal(sb.buf, "\x12\x01\x00\x02\x00", 5);
	assert_int_equal(sysroot_read("/sys/bus/usb/devices/1-1/descriptors", 4, &sb), -EFBIG);
	assert_int_equal(sysroot_resolve("/sys/bus/usb/devices/1-1/1-1:1.0/driver", &sb), 0);
	assert_string_equal(sb.buf, "/sys/bus/usb/drivers/usb-storage");
	assert_int_equal(sysroot_readlink("/sys/bus/usb/devices/1-1/1-1:1.0/driver", &sb), 0);
	assert_string_equal(sb.buf, "../../../../../bus/usb/drivers/usb-storage");
	/* ".." stops at the root; an absolute target restarts there */
	assert_int_equal(sysroot_resolve("/escape/usb1/1-1", &sb), 0);
	assert_string_equal(sb.buf, "/sys/devices/pci0000:00/usb1/1-1");
	assert_int_equal(sysroot_resolve("/abs/pci0000:00/../pci0000:00", &sb), 0);
	assert_string_equal(sb.buf, "/sys/devices/pci0000:00");
	assert_int_equal(sysroot_resolve("/loop", &sb), -ELOOP);
	assert_int_equal(sysroot_read("/sys/nothing", 100, &sb), -ENOENT);
	assert_int_equal(sysroot_read("/sys/devices", 100, &sb), -EISDIR);
	assert_int_equal(sysroot_read("/sys/bus/usb/devices/1-1/speed/x", 100, &sb), -ENOTDIR);
	assert_true(sysroot_exists("/sys/bus/usb/devices/1-1"));
	assert_false(sysroot_exists("/sys/bus/usb/devices/1-2"));

	assert_int_equal(sysroot_list("/sys/bus/usb/devices/1-1", &l), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "1-1:1.0");
	assert_string_equal(l.v[1], "descriptors");
	assert_string_equal(l.v[2], "speed");
	name_list_release(&l);
	assert_int_equal(sysroot_list("/", &l), 0);
	assert_int_equal(l.n, 4); /* abs escape loop sys */
	name_list_release(&l);
	assert_int_equal(sysroot_list("/sys/bus/usb/devices/1-1/speed", &l), -ENOTDIR);
	sysroot_set(NULL);
	assert_false(sysroot_is_snapshot());
	strbuf_release(&sb);
}

static void test_bad_snapshots(void **state)
{
	static const struct {
		const char *doc, *err;
	} cases[] = {
		/* 12.17: what is wrong with the document, from the one JSON reader */
		{"", "empty file"},
		{" \n", "empty file (only white space)"},
		{"42", "a JSON number where an object {...} is expected"},
		{"null", "a JSON null where an object {...} is expected"},
		{"[1]", "a JSON array [...] where an object {...} is expected"},
		{"\xef\xbb\xbf{}", "starts with a UTF-8 byte order mark: save it without one"},
		{"{\"a\":\n [1,,2]}",
		 "not JSON: unexpected character at line 2, column 5 (byte 10)"},
		{"{\"a\": [", "not JSON: it ends before the document does"},
		{"{}", "not a usbperf snapshot"},
		{"{\"usbperf_snapshot\": 2, \"entries\": []}", "snapshot format 2"},
		{"{\"usbperf_snapshot\": 1}", "no \"entries\""},
		{"{\"usbperf_snapshot\": 1, \"entries\": [3]}", "entry 0 is not an object"},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a/../b\", \"type\": \"dir\"}]}",
		 "non-canonical"},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"a\", \"type\": \"dir\"}]}",
		 "non-canonical"},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a//b\", \"type\": \"dir\"}]}",
		 "non-canonical"},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"fifo\"}]}",
		 "unknown type"},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"file\", \"hex\": \"1\"}]}",
		 "bad \"hex\""},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"file\"}]}",
		 "needs \"text\" or \"hex\""},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"link\", \"target\": \"\"}]}",
		 "bad link"},
		{"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"dir\"},"
		 "{\"path\": \"/a\", \"type\": \"dir\"}]}",
		 "appears twice"},
		{"{\"usbperf_snapshot\": 1, \"entries\": []} x",
		 "more after the document, at line 1, column 40"},
	};
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&err);
		assert_int_equal(snapshot_load_buf(cases[i].doc, strlen(cases[i].doc), &err), -EINVAL);
		if (!strstr(err.buf, cases[i].err))
			fail_msg("case %zu: error '%s', expected '%s'", i, err.buf, cases[i].err);
		assert_false(sysroot_is_snapshot());
	}
	strbuf_release(&err);
}

static void mkfile(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* a directory tree read live and recorded reads back the same from the snapshot */
static void test_record_replay(void **state)
{
	char tmpl[] = "/tmp/usbperf-sysroot-XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct strbuf p = STRBUF_INIT, sb = STRBUF_INIT, doc2 = STRBUF_INIT, err = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	struct vnode *v;
	size_t n;

	(void)state;
	assert_non_null(dir);
	strbuf_addf(&p, "%s/sys", dir);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_adds(&p, "/devices");
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_adds(&p, "/speed");
	mkfile(p.buf, "5000\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/sys/devices/bin", dir);
	mkfile(p.buf, "\x12\x01");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/sys/dev", dir);
	/* absolute target: must stay inside the root */
	assert_int_equal(symlink("/sys/devices", p.buf), 0);

	sysroot_set(dir);
	sysroot_record_start();
	assert_int_equal(sysroot_read_attr("/sys/dev/speed", &sb), 0);
	assert_string_equal(sb.buf, "5000");
	assert_int_equal(sysroot_read("/sys/dev/bin", 10, &sb), 0);
	assert_int_equal(sysroot_list("/sys", &l), 0);
	assert_int_equal(l.n, 2);
	name_list_release(&l);
	sysroot_record_take(&v, &n);
	/* /sys (dir), /sys/dev (link), /sys/devices (dir), speed, bin */
	assert_int_equal(n, 5);
	snapshot_dump(v, n, "2026-01-01T00:00:00Z", &doc2);
	vnodes_free(v, n);

	assert_int_equal(snapshot_load_buf(doc2.buf, doc2.len, &err), 0);
	assert_int_equal(sysroot_read_attr("/sys/dev/speed", &sb), 0);
	assert_string_equal(sb.buf, "5000");
	assert_int_equal(sysroot_read("/sys/dev/bin", 10, &sb), 0);
	assert_memory_equal(sb.buf, "\x12\x01", 2);
	assert_true(strstr(doc2.buf, "\"hex\": \"1201\"") || strstr(doc2.buf, "\"hex\":\"1201\""));
	assert_int_equal(sysroot_list("/sys", &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0], "dev");
	name_list_release(&l);
	sysroot_set(NULL);

	strbuf_reset(&p);
	strbuf_addf(&p, "rm -rf '%s'", dir);
	assert_int_equal(system(p.buf), 0);
	strbuf_release(&p);
	strbuf_release(&sb);
	strbuf_release(&doc2);
	strbuf_release(&err);
}

/* the fast reader gives exactly the nodes json-c's does, or declines */
static void same_nodes(const char *buf, size_t len)
{
	struct vnode *a, *b;
	size_t na, nb, i;

	assert_int_equal(snapshot_scan(buf, len, &a, &na), 0);
	assert_int_equal(snapshot_parse_json(buf, len, &b, &nb, NULL), 0);
	assert_int_equal(na, nb);
	for (i = 0; i < na; i++) {
		assert_string_equal(a[i].path, b[i].path);
		assert_int_equal(a[i].kind, b[i].kind);
		assert_int_equal(a[i].unread, b[i].unread);
		assert_int_equal(a[i].len, b[i].len);
		assert_memory_equal(a[i].data, b[i].data, a[i].len + 1);
	}
	vnodes_free(a, na);
	vnodes_free(b, nb);
}

static void test_scan_matches_json(void **state)
{
	static const char *const files[] = {"lab-usb-host.json", "lab-gadget.json", "pc-usb.json",
					    "board.json"};
	static const char *const declined[] = {
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"file\", \"text\": \"\\u00e9\"}]}",
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"file\", \"text\": \"\xc3\xa9\"}]}",
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"dir\", \"x\": 1}]}",
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"path\": \"/b\", \"type\": \"dir\"}]}",
		"{\"usbperf_snapshot\": 1, \"entries\": [], \"extra\": true}",
		"{\"usbperf_snapshot\": 1e0, \"entries\": []}",
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"dir\"},]}",
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a\", \"type\": \"dir\"}]} x",
		"{\"usbperf_snapshot\": 1, \"entries\": [{\"path\": \"/a/../b\", \"type\": \"dir\"}]}",
	};
	/* every short escape, members in another order, a trailing newline */
	static const char escapes[] =
		"{\"entries\": [{\"type\": \"file\", \"text\": \"a\\\"\\\\\\/\\b\\f\\n\\r\\tz\","
		" \"path\": \"/q\"}], \"created\": \"x\", \"usbperf_snapshot\": 1}\n";
	const char *dir = getenv("USBPERF_FIXTURES");
	struct strbuf sb = STRBUF_INIT, p = STRBUF_INIT;
	struct vnode *v;
	size_t n, i;

	(void)state;
	same_nodes(doc, strlen(doc));
	same_nodes(escapes, strlen(escapes));
	for (i = 0; dir && i < ARRAY_SIZE(files); i++) {
		FILE *f;

		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, files[i]);
		f = fopen(p.buf, "r");
		assert_non_null(f);
		strbuf_reset(&sb);
		strbuf_grow(&sb, 1 << 22);
		sb.len = fread(sb.buf, 1, sb.alloc - 1, f);
		sb.buf[sb.len] = '\0';
		fclose(f);
		same_nodes(sb.buf, sb.len);
	}
	if (!dir)
		fail_msg("USBPERF_FIXTURES is not set");
	/* declined, and the general reader still decides (the valid ones load) */
	for (i = 0; i < ARRAY_SIZE(declined); i++) {
		size_t len = strlen(declined[i]);

		assert_int_equal(snapshot_scan(declined[i], len, &v, &n), -EAGAIN);
		if (snapshot_parse_json(declined[i], len, &v, &n, NULL) == 0) {
			vnodes_free(v, n);
			assert_int_equal(snapshot_parse_buf(declined[i], len, &v, &n, NULL), 0);
			vnodes_free(v, n);
		}
	}
	strbuf_release(&sb);
	strbuf_release(&p);
}

/*
 * The one-lookup path takes a node only when the walk would: an entry
 * recorded below a link is reached through the link's target, below a file
 * is ENOTDIR; a name listed twice around a sibling ("x", "x-a", "x/y") once.
 */
static void test_fast_lookup_agrees(void **state)
{
	static const char d[] =
		"{\"usbperf_snapshot\": 1, \"entries\": ["
		"{\"path\": \"/d/x\", \"type\": \"file\", \"text\": \"real\"},"
		"{\"path\": \"/l\", \"type\": \"link\", \"target\": \"d\"},"
		"{\"path\": \"/l/x\", \"type\": \"file\", \"text\": \"shadow\"},"
		"{\"path\": \"/f\", \"type\": \"file\", \"text\": \"f\"},"
		"{\"path\": \"/f/y\", \"type\": \"file\", \"text\": \"under a file\"},"
		"{\"path\": \"/m/x\", \"type\": \"dir\"},"
		"{\"path\": \"/m/x-a\", \"type\": \"file\", \"text\": \"1\"},"
		"{\"path\": \"/m/x.b\", \"type\": \"file\", \"text\": \"2\"},"
		"{\"path\": \"/m/x/y/z\", \"type\": \"file\", \"text\": \"3\"},"
		"{\"path\": \"/m/xz\", \"type\": \"file\", \"text\": \"4\"}"
		"]}";
	struct strbuf sb = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;

	(void)state;
	assert_int_equal(snapshot_load_buf(d, strlen(d), NULL), 0);
	assert_int_equal(sysroot_read_attr("/l/x", &sb), 0);
	assert_string_equal(sb.buf, "real");
	assert_int_equal(sysroot_resolve("/l/x", &sb), 0);
	assert_string_equal(sb.buf, "/d/x");
	assert_int_equal(sysroot_read("/f/y", 100, &sb), -ENOTDIR);
	assert_int_equal(sysroot_read("/d/x/nothing", 100, &sb), -ENOTDIR);
	assert_int_equal(sysroot_read("/m/x/nothing", 100, &sb), -ENOENT);
	assert_int_equal(sysroot_resolve("/m/x/y", &sb), 0); /* implicit */
	assert_string_equal(sb.buf, "/m/x/y");
	assert_int_equal(sysroot_list("/m", &l), 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0], "x");
	assert_string_equal(l.v[1], "x-a");
	assert_string_equal(l.v[2], "x.b");
	assert_string_equal(l.v[3], "xz");
	name_list_release(&l);
	assert_int_equal(sysroot_list("/m/x", &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "y");
	name_list_release(&l);
	sysroot_set(NULL);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_walk),
		cmocka_unit_test(test_bad_snapshots),
		cmocka_unit_test(test_record_replay),
		cmocka_unit_test(test_scan_matches_json),
		cmocka_unit_test(test_fast_lookup_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

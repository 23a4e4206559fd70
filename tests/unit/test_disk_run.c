// SPDX-License-Identifier: MIT
/*
 * The whole disk pipeline without hardware: target resolution, layout,
 * passes, rows, cleanup, on a temporary directory. A fake sysroot keeps the
 * run off the real /proc/sys/vm/drop_caches (we may be root) and gives it a
 * known mount table.
 */
#include "unit.h"
#include "core/disk/disk.h"
#include "core/disk/safety.h"
#include "util/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIZE (1u << 20)
#define BS (64u << 10)
#define SEED 42

struct fixture {
	char root[64];	/* fake sysroot */
	char dir[64];	/* the TARGET directory */
	char file[128]; /* a pre-existing file, when a test makes one */
};

static const char fake_stat[] =
	"cpu  1000 0 500 8000 100 0 0 0 0 0\ncpu0 1000 0 500 8000 100 0 0 0 0 0\n";
static const char fake_mountinfo[] = "1 0 254:0 / / rw,relatime - ext4 /dev/vda rw\n";

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static void path_in(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	assert_true(n > 0 && (size_t)n < len);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char p[128];

	if (!fx)
		return -1;
	snprintf(fx->root, sizeof(fx->root), "/tmp/usbperf-root-XXXXXX");
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/usbperf-dir-XXXXXX");
	if (!mkdtemp(fx->root) || !mkdtemp(fx->dir))
		return -1;
	path_in(p, sizeof(p), fx->root, "proc");
	mkdir(p, 0700);
	path_in(p, sizeof(p), fx->root, "proc/self");
	mkdir(p, 0700);
	path_in(p, sizeof(p), fx->root, "proc/stat");
	write_file(p, fake_stat, strlen(fake_stat));
	path_in(p, sizeof(p), fx->root, "proc/self/mountinfo");
	write_file(p, fake_mountinfo, strlen(fake_mountinfo));
	sysroot_set(fx->root);
	*state = fx;
	return 0;
}

static size_t dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char p[128];

	sysroot_set(NULL);
	if (fx->file[0])
		unlink(fx->file);
	path_in(p, sizeof(p), fx->root, "proc/self/mountinfo");
	unlink(p);
	path_in(p, sizeof(p), fx->root, "proc/stat");
	unlink(p);
	path_in(p, sizeof(p), fx->root, "proc/self");
	rmdir(p);
	path_in(p, sizeof(p), fx->root, "proc");
	rmdir(p);
	rmdir(fx->root);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static struct disk_pass_spec pass(const char *name, enum disk_op op,
				  const struct disk_engine_ops *eng)
{
	struct disk_pass_spec s = {.op = op, .access = DISK_SEQ, .mode = DISK_DIRECT, .bs = BS,
				   .qd = 1, .engine = eng};

	snprintf(s.name, sizeof(s.name), "%s", name);
	return s;
}

static struct disk_config config(struct disk_pass_spec *passes, size_t n)
{
	return (struct disk_config){.passes = passes, .npasses = n, .repeat = 1, .size = SIZE,
				    .time_s = 1.0, .seed = SEED};
}

static bool has_warning(const struct disk_report *rep, const char *needle)
{
	size_t i;

	for (i = 0; i < rep->nwarnings; i++)
		if (strstr(rep->warnings[i], needle))
			return true;
	return false;
}

static void check_row(const struct disk_row *row, const char *name, const char *op,
		      const char *engine)
{
	assert_string_equal(row->name, name);
	assert_string_equal(row->op, op);
	assert_string_equal(row->access, "sequential");
	assert_string_equal(row->engine, engine);
	assert_string_equal(row->status, "ok");
	assert_int_equal(row->bs, BS);
	assert_int_equal(row->qd, 1);
	assert_int_equal(row->repeats, 1);
	assert_int_equal(row->bytes, SIZE);
	assert_true(row->seconds > 0);
	assert_true(row->mb_s > 0);
	assert_near(row->mb_s, SIZE / row->seconds / 1e6, 1e-6 * row->mb_s);
	assert_near(row->iops, (SIZE / BS) / row->seconds, 1e-6 * row->iops);
	assert_nan(row->mb_s_sd); /* no spread from one repeat */
	assert_true(row->lat_p50_us <= row->lat_max_us);
	assert_int_equal(row->verify_errors, 0);
}

static void test_null_pipeline(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[2] = {pass("seq-read 64K", DISK_READ, &disk_engine_null),
					   pass("seq-write 64K", DISK_WRITE, &disk_engine_null)};
	struct disk_config cfg = config(passes, 2);
	struct disk_target t;
	struct disk_report rep;
	struct stat st;
	char *why = NULL, *io_path;
	const char *base;

	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	assert_null(why);
	assert_int_equal(t.kind, TARGET_DIR);
	assert_true(t.created && t.may_write);
	assert_int_equal(t.size, SIZE);
	assert_string_equal(t.fs_type, "ext4");
	assert_string_equal(t.source, "/dev/vda");
	assert_int_equal(t.dev_major, 254);
	/* the test file: inside the directory, named so a later run recognises it */
	assert_int_equal(strncmp(t.io_path, fx->dir, strlen(fx->dir)), 0);
	base = strrchr(t.io_path, '/') + 1;
	assert_int_equal(strncmp(base, "usbperf-", 8), 0);
	assert_ptr_equal(disk_target_cleanup_path(&t), t.io_path);
	io_path = strdup(t.io_path);
	assert_non_null(io_path);

	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_int_equal(rep.error, 0);
	assert_false(rep.interrupted);
	assert_string_equal(rep.kind, "directory");
	assert_int_equal(rep.size, SIZE);
	assert_int_equal(rep.seed, SEED);
	assert_int_equal(rep.nrows, 2);
	check_row(&rep.rows[0], "seq-read 64K", "read", "null");
	check_row(&rep.rows[1], "seq-write 64K", "write", "null");
	assert_int_equal(rep.verify_errors_total, 0);
	/* null passes take microseconds: the report must say the figures are shaky */
	assert_true(has_warning(&rep, "lasted under"));
	/* layout wrote the whole region for the read pass; usbperf's mark follows it */
	assert_int_equal(stat(io_path, &st), 0);
	assert_int_equal(st.st_size, SIZE + SAFETY_MARK_SIZE);

	disk_report_release(&rep);
	assert_int_equal(rep.nrows, 0);
	disk_target_close(&t);
	assert_int_equal(stat(io_path, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(dir_entries(fx->dir), 0);
	disk_target_close(&t); /* again: harmless */
	free(io_path);
}

static void test_keep(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[1] = {pass("seq-write 64K", DISK_WRITE, &disk_engine_null)};
	struct disk_config cfg = config(passes, 1);
	struct disk_target t;
	struct stat st;
	char *why = NULL;

	cfg.keep = true;
	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	assert_null(disk_target_cleanup_path(&t));
	snprintf(fx->file, sizeof(fx->file), "%s", t.io_path); /* teardown removes it */
	disk_target_close(&t);
	assert_int_equal(stat(fx->file, &st), 0);
	assert_int_equal(dir_entries(fx->dir), 1);
}

static void test_psync_verify_pipeline(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[2] = {pass("seq-read 64K", DISK_READ, &disk_engine_psync),
					   pass("seq-write 64K", DISK_WRITE, &disk_engine_psync)};
	struct disk_config cfg = config(passes, 2);
	struct disk_target t;
	struct disk_report rep;
	char *why = NULL;

	cfg.verify = true;
	cfg.time_s = 30; /* real I/O: the byte budget, not the clock, must end the passes */
	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_int_equal(rep.error, 0);
	assert_true(rep.verify);
	assert_int_equal(rep.nrows, 2);
	check_row(&rep.rows[0], "seq-read 64K", "read", "psync");
	check_row(&rep.rows[1], "seq-write 64K", "write", "psync");
	assert_int_equal(rep.verify_errors_total, 0);
	assert_int_equal(rep.nverrs, 0);
	disk_report_release(&rep);
	disk_target_close(&t);
	assert_int_equal(dir_entries(fx->dir), 0);
}

static void test_verify_finds_corruption(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[1] = {pass("seq-read 64K", DISK_READ, &disk_engine_psync)};
	struct disk_config cfg = config(passes, 1);
	const uint64_t bad_off = 300 * PATTERN_UNIT;
	unsigned char *data = malloc(SIZE);
	struct disk_target t;
	struct disk_report rep;
	char *why = NULL;

	/* a file of usbperf's pattern, one unit of it damaged: read-only verification */
	assert_non_null(data);
	pattern_fill_verify(data, SIZE, 0, SEED);
	data[bad_off + 100] ^= 1;
	path_in(fx->file, sizeof(fx->file), fx->dir, "data.bin");
	write_file(fx->file, data, SIZE);
	free(data);

	cfg.verify = true;
	cfg.time_s = 30;
	/* not created by usbperf: writing is refused, reading allowed */
	assert_int_equal(disk_target_open(fx->file, &cfg, true, &t, &why), -EROFS);
	assert_non_null(why);
	free(why);
	why = NULL;
	assert_int_equal(disk_target_open(fx->file, &cfg, false, &t, &why), 0);
	assert_int_equal(t.kind, TARGET_FILE);
	assert_false(t.created);
	assert_false(t.may_write);
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_int_equal(rep.nrows, 1);
	assert_int_equal(rep.rows[0].bytes, SIZE);
	assert_int_equal(rep.rows[0].verify_errors, 1);
	assert_int_equal(rep.verify_errors_total, 1);
	assert_int_equal(rep.nverrs, 1);
	assert_int_equal(rep.verrs[0].offset, bad_off);
	assert_string_equal(rep.verrs[0].fault, verify_fault_name(VERIFY_BAD_CHECKSUM));
	assert_string_equal(rep.verrs[0].pass, "seq-read 64K");
	disk_report_release(&rep);
	disk_target_close(&t);
	/* not ours: left in place */
	assert_int_equal(access(fx->file, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_null_pipeline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_psync_verify_pipeline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_finds_corruption, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

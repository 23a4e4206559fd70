// SPDX-License-Identifier: MIT
/*
 * The whole disk pipeline without hardware: target resolution, layout,
 * passes, rows, cleanup, on a temporary directory. A fake sysroot keeps the
 * run off the real /proc/sys/vm/drop_caches (we may be root) and gives it a
 * known mount table.
 */
#include "unit.h"
#include "classes/disk/disk.h"
#include "classes/disk/iostat.h"
#include "platform/sys/safety.h"
#include "util/snapshot.h"
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

/* an mmcblk target: its rows next to the ceiling of the bus mode in use (the SDR104 fixture) */
static void test_mmc_ceiling(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[1] = {pass("seq-read 64K", DISK_READ, &disk_engine_null)};
	struct disk_config cfg = config(passes, 1);
	struct strbuf fix = STRBUF_INIT, err = STRBUF_INIT;
	const char *dir = getenv("USBPERF_FIXTURES");
	struct disk_target t;
	struct disk_report rep;
	char *why = NULL;

	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	strbuf_addf(&fix, "%s/mmc-sd-sdr104.json", dir ? dir : "tests/fixtures");
	assert_int_equal(snapshot_load_file(fix.buf, &err), 0);
	/* the file's filesystem on the card's first partition */
	t.dev_major = 179;
	t.dev_minor = 33;
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_false(rep.on_usb);
	assert_true(rep.on_mmc);
	assert_string_equal(rep.mmc.card, "mmc1:aaaa");
	assert_string_equal(rep.mmc.timing_name, "sdr104");
	assert_near(rep.rows[0].ceiling_mb_s, 100.0, 1e-9);
	assert_near(rep.rows[0].efficiency_pct, rep.rows[0].mb_s, 1e-6 * rep.rows[0].mb_s);
	/* the null engine is faster than any card: said, naming the mode */
	assert_true(has_warning(&rep, "the sdr104 link can carry"));
	disk_report_release(&rep);
	sysroot_set(fx->root);
	disk_target_close(&t);
	strbuf_release(&fix);
	strbuf_release(&err);
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

/* the fake sysroot's block device 254:0 (the one under "/"), its stat file */
static void fake_blockdev_stat(const struct fixture *fx, const char *text)
{
	static const char *const dirs[] = {"sys", "sys/dev", "sys/dev/block",
					   "sys/dev/block/254:0"};
	char p[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		path_in(p, sizeof(p), fx->root, dirs[i]);
		mkdir(p, 0700);
	}
	path_in(p, sizeof(p), fx->root, "sys/dev/block/254:0/stat");
	write_file(p, text, strlen(text));
}

static void remove_blockdev_stat(const struct fixture *fx)
{
	static const char *const dirs[] = {"sys/dev/block/254:0", "sys/dev/block", "sys/dev",
					   "sys"};
	char p[160];
	size_t i;

	path_in(p, sizeof(p), fx->root, "sys/dev/block/254:0/stat");
	unlink(p);
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		path_in(p, sizeof(p), fx->root, dirs[i]);
		rmdir(p);
	}
}

/* a 4.19+ stat line: io_ticks (the 10th field) is 3456 ms */
static const char stat_line[] =
    "    1200        5    96000      700     3400       20   270000     9000        0     3456"
    "     9700        0        0        0        0       11       40\n";

static void test_iostat(void **state)
{
	struct fixture *fx = *state;
	uint64_t ms = 0;

	assert_int_equal(iostat_parse_io_ticks(stat_line, &ms), 0);
	assert_int_equal(ms, 3456);
	/* the 11-field format of older kernels has io_ticks at the same place */
	assert_int_equal(iostat_parse_io_ticks("1 2 3 4 5 6 7 8 9 10 11\n", &ms), 0);
	assert_int_equal(ms, 10);
	assert_int_equal(iostat_parse_io_ticks("1 2 3 4 5 6 7 8 9\n", &ms), -EINVAL);
	assert_int_equal(iostat_parse_io_ticks("1 2 3 4 5 6 7 8 9 x 11\n", &ms), -EINVAL);
	assert_int_equal(iostat_parse_io_ticks("", &ms), -EINVAL);
	/* busy ms over wall s, as iostat's %util; jiffy rounding past 100 is capped */
	assert_near(iostat_util_pct(250, 0.5), 50.0, 1e-9);
	assert_near(iostat_util_pct(0, 2.0), 0.0, 0);
	assert_near(iostat_util_pct(1004, 1.0), 100.0, 0);
	assert_nan(iostat_util_pct(10, 0));
	/* under 0.1 s the counter's ticks (1-10 ms) say too little */
	assert_nan(iostat_util_pct(40, 0.099));
	assert_near(iostat_util_pct(40, 0.1), 40.0, 1e-9);
	/* read through the sysroot; 0:0 is "no device" (tmpfs, overlay) */
	assert_int_equal(iostat_io_ticks(254, 0, &ms), -ENOENT);
	fake_blockdev_stat(fx, stat_line);
	assert_int_equal(iostat_io_ticks(254, 0, &ms), 0);
	assert_int_equal(ms, 3456);
	assert_int_equal(iostat_io_ticks(0, 0, &ms), -ENOENT);
	assert_int_equal(iostat_io_ticks(0, 42, &ms), -ENOENT); /* tmpfs: 0:42 */
	remove_blockdev_stat(fx);
}

/* a pass lasts its minimum time over a small region, and is sampled in intervals */
static void test_min_time_samples(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[1] = {pass("seq-read 64K", DISK_READ, &disk_engine_null)};
	struct disk_config cfg = config(passes, 1);
	struct disk_target t;
	struct disk_report rep;
	const struct disk_row *row;
	char *why = NULL;
	size_t i;

	cfg.min_time_s = 0.6;
	cfg.time_s = 5;
	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_int_equal(rep.nrows, 1);
	row = &rep.rows[0];
	assert_true(row->seconds >= 0.6 && row->seconds < 3);
	assert_true(row->bytes > SIZE); /* the 1 MiB region, gone over again */
	assert_int_equal(row->bytes % BS, 0);
	assert_near(rep.min_time_s, 0.6, 0);
	assert_false(has_warning(&rep, "lasted under"));
	/*
	 * 0.6 s: six 100 ms samples (fewer would halve the interval:
	 * test_stats); the first is the ramp, listed but left out of the spread
	 */
	assert_near(row->bw_interval_ms, 100, 1e-9);
	assert_true(rep.nsamples >= 6 && rep.nsamples <= 7);
	assert_true(rep.samples[0].ramp);
	for (i = 1; i < rep.nsamples; i++)
		assert_false(rep.samples[i].ramp);
	assert_int_equal(row->bw_samples, rep.nsamples - 1);
	for (i = 0; i < rep.nsamples; i++) {
		assert_string_equal(rep.samples[i].pass, "seq-read 64K");
		assert_int_equal(rep.samples[i].repeat, 1);
		assert_near(rep.samples[i].t_s, 0.1 * (double)(i + 1), 1e-9);
		assert_near(rep.samples[i].iops, rep.samples[i].mb_s * 1e6 / BS, 1e-6);
		/* the minimum is of the steady samples: the ramp may be below it */
		assert_true(rep.samples[i].ramp || rep.samples[i].mb_s >= row->bw_min_mb_s);
	}
	assert_true(row->bw_min_mb_s > 0 && row->bw_min_mb_s <= row->bw_mean_mb_s);
	assert_true(row->bw_mean_mb_s <= row->bw_max_mb_s);
	assert_false(isnan(row->bw_stdev_mb_s));
	/* the samples cover the pass: their mean is the pass's rate, give or take the tail */
	assert_near(row->bw_mean_mb_s, row->mb_s, 0.25 * row->mb_s);
	assert_near(row->iops_mean, row->bw_mean_mb_s * 1e6 / BS, 1e-6 * row->iops_mean);
	/* latency percentiles in order */
	assert_true(row->lat_p50_us <= row->lat_p90_us && row->lat_p90_us <= row->lat_p99_us);
	assert_true(row->lat_p99_us <= row->lat_p999_us && row->lat_p999_us <= row->lat_max_us);
	/* the fake root has no /sys/dev/block: no utilisation, and the report says so */
	assert_nan(row->util_pct);
	assert_true(has_warning(&rep, "device utilisation not measured"));
	disk_report_release(&rep);
	disk_target_close(&t);
}

/* the device's stat read before and after each pass: here it stands still, so 0 % */
static void test_util_from_stat(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[1] = {pass("seq-write 64K", DISK_WRITE, &disk_engine_null)};
	struct disk_config cfg = config(passes, 1);
	struct disk_target t;
	struct disk_report rep;
	char *why = NULL;

	cfg.min_time_s = 0.15; /* long enough for a utilisation (IOSTAT_UTIL_MIN_S) */
	fake_blockdev_stat(fx, stat_line);
	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_int_equal(rep.nrows, 1);
	assert_near(rep.rows[0].util_pct, 0, 0);
	assert_false(has_warning(&rep, "device utilisation not"));
	disk_report_release(&rep);
	/* a pass under 0.1 s gets none, and the report says why */
	cfg.min_time_s = 0;
	cfg.time_s = 0.02;
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_nan(rep.rows[0].util_pct);
	assert_true(has_warning(&rep, "device utilisation not given for 1 pass under 0.1 s"));
	assert_false(has_warning(&rep, "device utilisation not measured"));
	disk_report_release(&rep);
	disk_target_close(&t);
	remove_blockdev_stat(fx);
}

/* CrystalDiskMark's way: the best of the repeats, and the report says so */
static void test_best_of(void **state)
{
	struct fixture *fx = *state;
	struct disk_pass_spec passes[1] = {pass("SEQ1M Q1T1", DISK_READ, &disk_engine_null)};
	struct disk_config cfg = config(passes, 1);
	struct disk_target t;
	struct disk_report rep;
	char *why = NULL;

	size_t i, ramps = 0;

	cfg.repeat = 3;
	cfg.best_of = true;
	cfg.min_time_s = 0.05;
	assert_int_equal(disk_target_open(fx->dir, &cfg, true, &t, &why), 0);
	assert_int_equal(disk_run(&t, &cfg, &rep), 0);
	assert_int_equal(rep.rows[0].repeats, 3);
	assert_near(rep.rows[0].mb_s, rep.rows[0].mb_s_max, 0);
	assert_true(rep.rows[0].mb_s >= rep.rows[0].mb_s_min);
	assert_string_equal(rep.figures, "best of 3 passes, 1 MiB");
	/* samples of all three repeats, pooled */
	assert_true(rep.nsamples >= 3 * SAMPLE_MIN_COUNT);
	assert_int_equal(rep.samples[rep.nsamples - 1].repeat, 3);
	/*
	 * each repeat's ramp listed, left out of the spread: its first sample,
	 * where it has more than SAMPLE_MIN_COUNT (a slow machine, ASan beside
	 * other work, may give a repeat no more)
	 */
	for (unsigned r = 1; r <= 3; r++) {
		size_t n = 0, first = SIZE_MAX, rr = 0;

		for (i = 0; i < rep.nsamples; i++) {
			if (rep.samples[i].repeat != r)
				continue;
			if (first == SIZE_MAX)
				first = i;
			n++;
			rr += rep.samples[i].ramp;
		}
		assert_int_equal(rr, n > SAMPLE_MIN_COUNT ? 1 : 0);
		if (rr)
			assert_true(rep.samples[first].ramp);
		ramps += rr;
	}
	assert_true(ramps >= 1);
	assert_int_equal(rep.rows[0].bw_samples, rep.nsamples - ramps);
	assert_int_equal(disk_report_pair(&rep), 0);
	assert_string_equal(rep.summary_title,
			    "summary: best of 3 passes, 1 MiB (MB/s = 10^6 B/s)");
	disk_report_release(&rep);
	disk_target_close(&t);
}

static void test_estimate(void **state)
{
	static const struct {
		double min_s, cap_s;
		unsigned npasses, repeat;
		const char *want;
	} cases[] = {
	    {1, 3, 10, 1, "at least 10 s, at most 30 s: 10 disk passes of 1 to 3 s"},
	    {0, 3, 10, 1, "at most 30 s: 10 disk passes of up to 3 s"},
	    {5, 5, 8, 5, "about 3 min: 8 disk passes of 25 s"}, /* a pass with its repeats */
	    {1.0 / 3, 1, 5, 3, "at least 5 s, at most 15 s: 5 disk passes of 1 to 3 s"}, /* run's */
	    {10, 3, 2, 1, "about 6 s: 2 disk passes of 3 s"}, /* the cap wins */
	};
	struct disk_pass_spec passes[10] = {0};
	struct disk_target t = {.size = 256 << 20};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct disk_config cfg = {.passes = passes,
					  .npasses = cases[i].npasses,
					  .repeat = cases[i].repeat,
					  .time_s = cases[i].cap_s,
					  .min_time_s = cases[i].min_s};
		struct estimate e = {0};

		for (size_t k = 0; k < 10; k++)
			passes[k].op = DISK_WRITE;
		disk_estimate_add(&e, &cfg, &t);
		strbuf_reset(&sb);
		estimate_describe(&e, &sb);
		assert_string_equal(sb.buf, cases[i].want);
	}
	/* reads of a region we may write: it is laid out first; and run's network passes */
	{
		struct disk_config cfg = {
		    .passes = passes, .npasses = 5, .repeat = 1, .time_s = 3, .min_time_s = 1};
		struct estimate e = {0};

		passes[0].op = DISK_READ;
		t.may_write = true;
		disk_estimate_add(&e, &cfg, &t);
		e.other[e.nother++] = (struct estimate_other){"network", 2, 5};
		strbuf_reset(&sb);
		estimate_describe(&e, &sb);
		assert_string_equal(sb.buf,
				    "at least 15 s, at most 25 s: 5 disk passes of 1 to 3 s, "
				    "2 network passes of 5 s, after writing 256 MiB of test "
				    "data once");
	}
	/* nothing planned: nothing said */
	{
		struct estimate e = {0};

		strbuf_reset(&sb);
		estimate_describe(&e, &sb);
		assert_int_equal(sb.len, 0);
	}
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_null_pipeline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mmc_ceiling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_psync_verify_pipeline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_finds_corruption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iostat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_min_time_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_util_from_stat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_best_of, setup, teardown),
		cmocka_unit_test(test_estimate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/* Resolving a disk TARGET and the rules that keep usbperf from damaging data. */
#include "core/disk/disk.h"
#include "core/sys/blockdev.h"
#include "core/sys/mounts.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define TEST_FILE_PREFIX "usbperf-"

__attribute__((format(printf, 2, 3))) static void why(char **ret_why, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(*ret_why);
	*ret_why = strbuf_detach(&sb);
}

static void fill_fs_facts(struct disk_target *t, const char *dir)
{
	struct mount_table mt = {0};
	const struct mount_entry *m;
	char *real = realpath(dir, NULL);

	if (real && mounts_load(&mt) == 0 && (m = mounts_find_path(&mt, real))) {
		t->fs_type = xstrdup(m->fs_type);
		t->mount_point = xstrdup(m->mount_point);
		t->source = xstrdup(m->source);
		t->dev_major = m->major;
		t->dev_minor = m->minor;
	}
	mount_table_release(&mt);
	free(real);
}

static unsigned logical_block(struct devnum d)
{
	struct strbuf v = STRBUF_INIT;
	uint64_t lbs = 512;

	if (blk_queue_attr(d, "logical_block_size", &v) == 0)
		parse_u64(v.buf, 512, 65536, &lbs);
	strbuf_release(&v);
	return (unsigned)lbs;
}

/*
 * Block-device write rules: refuse when the device, or any partition of its
 * disk, is mounted, used as swap, or held by dm/md; refuse the disk that
 * holds /. O_EXCL at open time catches the rest (another exclusive opener).
 */
static int check_blockdev_writable(struct devnum d, const char *path, char **ret_why)
{
	struct mount_table mt = {0};
	struct devnum whole, *fam = NULL, *roots = NULL;
	size_t nfam = 0, nroots = 0, i;
	int r;

	r = blk_whole_disk(d, &whole);
	if (r < 0) {
		why(ret_why, "cannot find '%s' in sysfs: %s", path, strerror(-r));
		return -EINVAL;
	}
	r = blk_root_disks(&roots, &nroots);
	if (r < 0) {
		why(ret_why, "cannot tell which disk holds '/': %s; refusing to write", strerror(-r));
		return -EPERM;
	}
	for (i = 0; i < nroots; i++) {
		if (roots[i].major == whole.major && roots[i].minor == whole.minor) {
			why(ret_why, "refusing to write to '%s': it is on the disk that holds '/'",
			    path);
			r = -EPERM;
			goto out;
		}
	}
	r = mounts_load(&mt);
	if (r < 0) {
		why(ret_why, "cannot read the mount table: %s; refusing to write", strerror(-r));
		r = -EPERM;
		goto out;
	}
	/* a whole disk is busy if any partition is; a partition only for itself */
	if (whole.major == d.major && whole.minor == d.minor) {
		r = blk_family(whole, &fam, &nfam);
		if (r < 0) {
			why(ret_why, "cannot list partitions of '%s': %s", path, strerror(-r));
			r = -EPERM;
			goto out;
		}
	} else {
		fam = malloc(sizeof(*fam));
		if (!fam)
			abort();
		fam[0] = d;
		nfam = 1;
	}
	for (i = 0; i < nfam; i++) {
		const struct mount_entry *m = mounts_find_dev(&mt, fam[i].major, fam[i].minor);
		if (m) {
			why(ret_why, "refusing to write to '%s': %u:%u is mounted on '%s'", path,
			    fam[i].major, fam[i].minor, m->mount_point);
			r = -EBUSY;
			goto out;
		}
		if (blk_is_swap(fam[i])) {
			why(ret_why, "refusing to write to '%s': %u:%u is in use as swap", path,
			    fam[i].major, fam[i].minor);
			r = -EBUSY;
			goto out;
		}
		if (blk_has_holders(fam[i])) {
			why(ret_why, "refusing to write to '%s': %u:%u is held by another device "
				     "(device-mapper, md or similar)",
			    path, fam[i].major, fam[i].minor);
			r = -EBUSY;
			goto out;
		}
	}
	r = 0;
out:
	mount_table_release(&mt);
	free(fam);
	free(roots);
	return r;
}

static int open_blockdev(struct disk_target *t, const struct stat *st, const struct disk_config *cfg,
			 bool want_write, char **ret_why)
{
	struct devnum d = {major(st->st_rdev), minor(st->st_rdev)};
	uint64_t devsize = 0;
	int flags, r;

	t->kind = TARGET_BLOCKDEV;
	t->io_path = xstrdup(t->path);
	t->dev_major = d.major;
	t->dev_minor = d.minor;
	if (want_write) {
		if (!cfg->allow_write) {
			why(ret_why,
			    "refusing to write to block device '%s' without --destructive "
			    "(read-only tests: --tests read)",
			    t->path);
			return -EROFS;
		}
		r = check_blockdev_writable(d, t->path, ret_why);
		if (r < 0)
			return r;
		t->may_write = true;
	}
	/* O_EXCL on a block device: fails with EBUSY if mounted or claimed */
	flags = (t->may_write ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC;
	t->fd_buf = open(t->io_path, flags);
	if (t->fd_buf < 0) {
		r = -errno;
		if (r == -EBUSY)
			why(ret_why, "refusing to write to '%s': device is in use", t->path);
		else
			why(ret_why, "cannot open '%s': %s", t->path, strerror(-r));
		return r == -EACCES ? -EPERM : r;
	}
	t->fd_excl = t->may_write;
	if (ioctl(t->fd_buf, BLKGETSIZE64, &devsize) < 0 || devsize == 0) {
		why(ret_why, "cannot get the size of '%s'", t->path);
		return -EINVAL;
	}
	t->size = cfg->size < devsize ? cfg->size : devsize;
	{
		int lbs = 0;
		t->align = ioctl(t->fd_buf, BLKSSZGET, &lbs) == 0 && lbs > 0 ? (unsigned)lbs : 512;
	}
	/* the direct fd shares the exclusive claim: opened after the first */
	t->fd = open(t->io_path, (t->may_write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_DIRECT);
	t->direct_ok = t->fd >= 0;
	return 0;
}

static int make_test_name(const char *dir, struct strbuf *ret)
{
	uint64_t rnd;

	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		return -EIO;
	strbuf_reset(ret);
	strbuf_addf(ret, "%s/" TEST_FILE_PREFIX "%ld-%08llx.tmp", dir, (long)getpid(),
		    (unsigned long long)(rnd & 0xffffffffULL));
	return 0;
}

static int check_space(const char *dir, uint64_t need, char **ret_why)
{
	struct statvfs sv;
	uint64_t avail;

	if (statvfs(dir, &sv) < 0) {
		why(ret_why, "cannot stat filesystem of '%s': %s", dir, strerror(errno));
		return -errno;
	}
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail < need) {
		char a[32], n[32];
		format_size(avail & ~((1ULL << 20) - 1), a, sizeof(a));
		format_size(need, n, sizeof(n));
		why(ret_why, "not enough space in '%s': the test needs %s, %s available (use --size)",
		    dir, n, a);
		return -ENOSPC;
	}
	return 0;
}

static int open_file(struct disk_target *t, const struct disk_config *cfg, bool want_write,
		     bool exists, const struct stat *st, char **ret_why)
{
	int r;

	if (exists) {
		/* only files usbperf itself created (kept with --keep) are written to */
		char *copy = xstrdup(t->path);
		bool ours = strncmp(basename(copy), TEST_FILE_PREFIX, strlen(TEST_FILE_PREFIX)) == 0;
		free(copy);
		if (want_write && !ours) {
			why(ret_why,
			    "refusing to write to '%s': usbperf did not create it (name it "
			    "'" TEST_FILE_PREFIX "*', or read-only tests: --tests read)",
			    t->path);
			return -EROFS;
		}
		t->may_write = want_write;
		t->size = cfg->size < (uint64_t)st->st_size ? cfg->size : (uint64_t)st->st_size;
		if (t->size == 0) {
			why(ret_why, "'%s' is empty", t->path);
			return -EINVAL;
		}
		t->fd_buf = open(t->io_path, (want_write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
		if (t->fd_buf < 0) {
			r = -errno;
			why(ret_why, "cannot open '%s': %s", t->path, strerror(-r));
			return r == -EACCES ? -EPERM : r;
		}
	} else {
		char *copy = xstrdup(t->io_path);
		r = check_space(dirname(copy), cfg->size, ret_why);
		free(copy);
		if (r < 0)
			return r;
		t->fd_buf = open(t->io_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (t->fd_buf < 0) {
			r = -errno;
			why(ret_why, "cannot create '%s': %s", t->io_path, strerror(-r));
			return r == -EACCES || r == -EROFS ? -EPERM : r;
		}
		t->created = true;
		t->may_write = true;
		t->size = cfg->size;
		/* reserve the space now: ENOSPC here, not in the middle of a pass */
		r = posix_fallocate(t->fd_buf, 0, (off_t)t->size);
		if (r == ENOSPC) {
			why(ret_why, "not enough space for a %llu-byte test file in '%s' (use --size)",
			    (unsigned long long)t->size, t->path);
			return -ENOSPC;
		}
	}
	t->fd = open(t->io_path, (t->may_write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_DIRECT);
	t->direct_ok = t->fd >= 0;
	if (t->dev_major)
		t->align = logical_block((struct devnum){t->dev_major, t->dev_minor});
	else
		t->align = 512;
	return 0;
}

int disk_target_open(const char *path, const struct disk_config *cfg, bool want_write,
		     struct disk_target *ret, char **ret_why)
{
	struct disk_target t = {.fd = -1, .fd_buf = -1};
	struct strbuf name = STRBUF_INIT;
	struct stat st;
	bool exists;
	int r;

	*ret_why = NULL;
	t.path = xstrdup(path);
	t.keep = cfg->keep;
	exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT) {
		r = -errno;
		why(ret_why, "cannot access '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (exists && S_ISBLK(st.st_mode)) {
		r = open_blockdev(&t, &st, cfg, want_write, ret_why);
		if (r < 0)
			goto fail;
		*ret = t;
		return 0;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		t.kind = TARGET_DIR;
		r = make_test_name(path, &name);
		if (r < 0)
			goto fail;
		t.io_path = strbuf_detach(&name);
		fill_fs_facts(&t, path);
		r = open_file(&t, cfg, want_write, false, NULL, ret_why);
	} else if (!exists || S_ISREG(st.st_mode)) {
		char *copy = xstrdup(path);
		struct stat pst;

		t.kind = TARGET_FILE;
		t.io_path = xstrdup(path);
		if (!exists && (stat(dirname(copy), &pst) < 0 || !S_ISDIR(pst.st_mode))) {
			free(copy);
			why(ret_why, "cannot access '%s': No such file or directory", path);
			r = -ENOENT;
			goto fail;
		}
		free(copy);
		copy = xstrdup(path);
		fill_fs_facts(&t, exists ? path : dirname(copy));
		free(copy);
		r = open_file(&t, cfg, want_write, exists, &st, ret_why);
	} else {
		why(ret_why, "'%s' is not a directory, regular file or block device", path);
		r = -EINVAL;
		goto fail;
	}
	if (r < 0)
		goto fail;
	*ret = t;
	return 0;
fail:
	disk_target_close(&t);
	if (!*ret_why)
		why(ret_why, "cannot use '%s': %s", path, strerror(-r));
	return r;
}

const char *disk_target_cleanup_path(const struct disk_target *t)
{
	return t->created && !t->keep ? t->io_path : NULL;
}

void disk_target_close(struct disk_target *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	if (t->fd_buf >= 0)
		close(t->fd_buf);
	t->fd = t->fd_buf = -1;
	if (t->created && !t->keep && t->io_path)
		unlink(t->io_path);
	free(t->path);
	free(t->io_path);
	free(t->fs_type);
	free(t->mount_point);
	free(t->source);
	memset(t, 0, sizeof(*t));
	t->fd = t->fd_buf = -1;
}

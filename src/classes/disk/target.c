// SPDX-License-Identifier: MIT
/* Resolving a disk TARGET and the rules that keep usbperf from damaging data. */
#include "classes/disk/disk.h"
#include "platform/sys/safety.h"
#include "platform/sys/blockdev.h"
#include "platform/sys/mounts.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>


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

static int open_blockdev(struct disk_target *t, const struct stat *st,
			 const struct disk_config *cfg, bool want_write, char **ret_why)
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
			reason_set(0, ret_why,
			    "refusing to write to block device '%s' without --destructive "
			    "(read-only tests: --tests read)",
			    t->path);
			return -EROFS;
		}
		r = safety_blockdev_writable(st->st_rdev, t->path, ret_why);
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
			reason_set(0, ret_why, "refusing to write to '%s': device is in use", t->path);
		else
			reason_set(0, ret_why, "cannot open '%s': %s", t->path, strerror(-r));
		return r == -EACCES ? -EPERM : r;
	}
	t->fd_excl = t->may_write;
	if (ioctl(t->fd_buf, BLKGETSIZE64, &devsize) < 0 || devsize == 0) {
		reason_set(0, ret_why, "cannot get the size of '%s'", t->path);
		return -EINVAL;
	}
	t->size = cfg->size < devsize ? cfg->size : devsize;
	{
		int lbs = 0;
		t->align = ioctl(t->fd_buf, BLKSSZGET, &lbs) == 0 && lbs > 0 ? (unsigned)lbs : 512;
	}
	/* the direct fd shares the exclusive claim: opened after the first */
	t->fd = safety_reopen(t->fd_buf, t->io_path, (t->may_write ? O_RDWR : O_RDONLY) | O_DIRECT);
	t->direct_ok = t->fd >= 0;
	return 0;
}

/* a test file: created in a directory, or an existing one (usbperf's own when written) */
static int open_file(struct disk_target *t, const struct disk_config *cfg, bool want_write,
		     const char *dir, char **ret_why)
{
	struct strbuf name = STRBUF_INIT;
	uint64_t region;
	int r;

	if (dir) {
		r = safety_create_file(dir, "", cfg->size, true, &name, &t->fd_buf, ret_why);
		if (r < 0)
			goto out;
		free(t->io_path);
		t->io_path = strbuf_detach(&name);
		t->created = true;
		t->may_write = true;
		t->size = cfg->size;
	} else {
		r = safety_open_file(t->io_path, want_write, &t->fd_buf, &region, ret_why);
		if (r < 0)
			goto out;
		t->may_write = want_write;
		t->size = cfg->size < region ? cfg->size : region;
		if (t->size == 0) {
			reason_set(0, ret_why, "'%s' is empty", t->path);
			r = -EINVAL;
			goto out;
		}
	}
	t->fd = safety_reopen(t->fd_buf, t->io_path, (t->may_write ? O_RDWR : O_RDONLY) | O_DIRECT);
	t->direct_ok = t->fd >= 0;
	if (t->dev_major)
		t->align = logical_block((struct devnum){t->dev_major, t->dev_minor});
	else
		t->align = 512;
out:
	strbuf_release(&name);
	return r == -EACCES || (dir && r == -EROFS) ? -EPERM : r;
}

/*
 * --verify without writes reads back a pattern an earlier usbperf --verify
 * laid down: data that never held one would be reported as corruption.
 */
static int check_pattern_there(const struct disk_target *t, const struct disk_config *cfg,
			       char **ret_why)
{
	char unit[PATTERN_UNIT];
	enum verify_fault f = VERIFY_OK;
	uint64_t bad = 0;

	if (pread(t->fd_buf, unit, sizeof(unit), 0) != (ssize_t)sizeof(unit)) {
		reason_set(0, ret_why, "cannot read '%s' to check its --verify pattern", t->path);
		return -EINVAL;
	}
	if (pattern_check(unit, sizeof(unit), 0, cfg->seed, &bad, &f) && f == VERIFY_BAD_MAGIC) {
		reason_set(0, ret_why,
		    "'%s' holds no usbperf --verify pattern: --verify without writes reads back "
		    "what "
		    "'usbperf disk --verify' wrote there (add write tests, or drop --verify)",
		    t->path);
		return -EINVAL;
	}
	return 0;
}

int disk_target_open(const char *path, const struct disk_config *cfg, bool want_write,
		     struct disk_target *ret, char **ret_why)
{
	struct disk_target t = {.fd = -1, .fd_buf = -1};
	struct stat st;
	int r;

	*ret_why = NULL;
	t.path = xstrdup(path);
	t.keep = cfg->keep;
	/* a typo must not become a new file (a /dev/sdz in tmpfs measures RAM) */
	if (stat(path, &st) < 0) {
		r = -errno;
		reason_set(0, ret_why, "cannot access '%s': %s", path, strerror(errno));
		r = r == -ENOENT || r == -ENOTDIR || r == -ENAMETOOLONG ? -EINVAL : r;
		goto fail;
	}
	if (S_ISBLK(st.st_mode)) {
		r = open_blockdev(&t, &st, cfg, want_write, ret_why);
	} else if (S_ISDIR(st.st_mode)) {
		t.kind = TARGET_DIR;
		fill_fs_facts(&t, path);
		r = open_file(&t, cfg, want_write, path, ret_why);
	} else if (S_ISREG(st.st_mode)) {
		t.kind = TARGET_FILE;
		t.io_path = xstrdup(path);
		fill_fs_facts(&t, path);
		r = open_file(&t, cfg, want_write, NULL, ret_why);
	} else {
		reason_set(0, ret_why, "'%s' is not a directory, regular file or block device", path);
		r = -EINVAL;
	}
	if (r == 0 && cfg->verify && !t.may_write)
		r = check_pattern_there(&t, cfg, ret_why);
	if (r < 0)
		goto fail;
	*ret = t;
	return 0;
fail:
	disk_target_close(&t);
	if (!*ret_why)
		reason_set(0, ret_why, "cannot use '%s': %s", path, strerror(-r));
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
	free_all(t->path, t->io_path, t->fs_type, t->mount_point, t->source);
	memset(t, 0, sizeof(*t));
	t->fd = t->fd_buf = -1;
}

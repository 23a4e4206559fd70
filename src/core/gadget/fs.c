// SPDX-License-Identifier: MIT
/* The real configfs backend: each change a system call on the path below the sysroot. */
#include "core/gadget/build.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int with_path(const char *path, int (*op)(const char *p))
{
	struct strbuf p = STRBUF_INIT;
	int r;

	sysroot_path(&p, path);
	r = op(p.buf) < 0 ? -errno : 0;
	strbuf_release(&p);
	return r;
}

static int do_mkdir(const char *p)
{
	return mkdir(p, 0755);
}

static int real_mkdir(const char *path)
{
	return with_path(path, do_mkdir);
}

static int real_rmdir(const char *path)
{
	return with_path(path, rmdir);
}

static int real_unlink(const char *path)
{
	return with_path(path, unlink);
}

static int real_symlink(const char *target, const char *linkpath)
{
	struct strbuf t = STRBUF_INIT, l = STRBUF_INIT;
	int r;

	sysroot_path(&t, target);
	sysroot_path(&l, linkpath);
	r = symlink(t.buf, l.buf) < 0 ? -errno : 0;
	strbuf_release(&t);
	strbuf_release(&l);
	return r;
}

/* configfs takes an attribute in one write(); never create a file the kernel lacks */
static int real_write(const char *path, const void *buf, size_t len)
{
	struct strbuf p = STRBUF_INIT;
	ssize_t n;
	int fd, r = 0;

	sysroot_path(&p, path);
	fd = open(p.buf, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	strbuf_release(&p);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static int real_mount_ffs(const char *dev, const char *dir)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	sysroot_path(&p, dir);
	r = mount(dev, p.buf, "functionfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0 ? -errno
											: 0;
	strbuf_release(&p);
	return r;
}

static int do_umount(const char *p)
{
	return umount2(p, UMOUNT_NOFOLLOW);
}

static int real_umount(const char *dir)
{
	return with_path(dir, do_umount);
}

const struct gadget_fs gadget_fs_real = {
    .mkdir = real_mkdir,
    .rmdir = real_rmdir,
    .symlink = real_symlink,
    .unlink = real_unlink,
    .write = real_write,
    .mount_ffs = real_mount_ffs,
    .umount = real_umount,
};

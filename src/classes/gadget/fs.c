// SPDX-License-Identifier: MIT
/* The real configfs backend: each change a system call on the path below the sysroot. */
#include "classes/gadget/build.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

static int real_mount_gadgetfs(const char *dir)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	sysroot_path(&p, dir);
	r = mount("gadgetfs", p.buf, "gadgetfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0 ? -errno
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

static int real_which(const char *name, char **ret_path)
{
	const char *path = getenv("PATH"), *s;
	struct strbuf p = STRBUF_INIT;

	for (s = path ? path : "/usr/sbin:/usr/bin:/sbin:/bin"; *s;) {
		size_t n = strcspn(s, ":");

		strbuf_reset(&p);
		if (n && s[0] == '/') {
			strbuf_add(&p, s, n);
			strbuf_addf(&p, "/%s", name);
			/* as /proc/PID/exe will show it: symbolic links resolved */
			char *real = access(p.buf, X_OK) == 0 ? realpath(p.buf, NULL) : NULL;

			if (real) {
				strbuf_release(&p);
				*ret_path = real;
				return 0;
			}
		}
		s += n;
		if (*s == ':')
			s++;
	}
	strbuf_release(&p);
	return -ENOENT;
}

static int real_spawn(char *const argv[], int log_fd, int *ret_pid)
{
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC), p[2], err = 0;
	pid_t pid;
	ssize_t n;

	if (devnull < 0)
		return -errno;
	/* the exec's outcome: closed by a successful exec, the errno written otherwise */
	if (pipe2(p, O_CLOEXEC) < 0) {
		err = -errno;
		close(devnull);
		return err;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(devnull);
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (pid == 0) {
		/* its own session: the terminal's signals stay with the shell's job */
		setsid();
		if (dup2(devnull, 0) >= 0 && dup2(log_fd, 1) >= 0 && dup2(log_fd, 2) >= 0)
			execv(argv[0], argv);
		err = errno;
		n = write(p[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(devnull);
	close(p[1]);
	do
		n = read(p[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		return -err;
	}
	*ret_pid = (int)pid;
	return 0;
}

/* pid's executable is exe; a zombie or a reused pid is not */
static bool real_running(int pid, const char *exe)
{
	struct strbuf p = STRBUF_INIT;
	char buf[4096];
	ssize_t n;

	/* our own child that has exited: reap it */
	if (waitpid(pid, NULL, WNOHANG) == pid)
		return false;
	strbuf_addf(&p, "/proc/%d/exe", pid);
	n = readlink(p.buf, buf, sizeof(buf) - 1);
	strbuf_release(&p);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, exe);
}

static int real_stop(int pid, const char *exe)
{
	static const struct {
		int sig;
		int wait_ms;
	} steps[] = {{SIGTERM, 3000}, {SIGKILL, 2000}};
	struct pollfd pfd = {.events = POLLIN};
	size_t i;
	int r = -ETIMEDOUT;

	/* a pidfd pins the process: the check and the signals are about the same one */
	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd.fd < 0)
		return errno == ESRCH ? 0 : -errno;
	/* another program by now (or already exiting): not ours to signal */
	if (!real_running(pid, exe)) {
		r = 0;
		goto out;
	}
	for (i = 0; i < 2 && r == -ETIMEDOUT; i++) {
		if (syscall(SYS_pidfd_send_signal, pfd.fd, steps[i].sig, NULL, 0) < 0) {
			r = errno == ESRCH ? 0 : -errno;
			break;
		}
		/*
		 * readable once it has exited, its files closed (the exe link goes
		 * earlier, with its memory: too early for the umount that follows)
		 */
		if (poll(&pfd, 1, steps[i].wait_ms) > 0)
			r = 0;
	}
out:
	waitpid(pid, NULL, WNOHANG); /* our child: reaped */
	close(pfd.fd);
	return r;
}

const struct gadget_fs gadget_fs_real = {
    .mkdir = real_mkdir,
    .rmdir = real_rmdir,
    .symlink = real_symlink,
    .unlink = real_unlink,
    .write = real_write,
    .mount_ffs = real_mount_ffs,
    .mount_gadgetfs = real_mount_gadgetfs,
    .umount = real_umount,
    .which = real_which,
    .spawn = real_spawn,
    .running = real_running,
    .stop = real_stop,
};

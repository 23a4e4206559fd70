// SPDX-License-Identifier: MIT
/* Inputs named on the command line: what may be read, checked once for every command (paths.h). */
#include "cmd/paths.h"
#include "cmd/common.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

/* a name past this is quoted by its start only: the line stays a line */
#define QUOTE_MAX 64

static void log_open_failed(const char *what, const char *path, int err)
{
	size_t len = strlen(path);

	if (len > QUOTE_MAX)
		log_error("cannot open %s '%.*s...' (%zu bytes): %s", what, QUOTE_MAX, path, len,
			  strerror(err));
	else
		log_error("cannot open %s '%s': %s", what, path, strerror(err));
}

static const char *kind_name(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISREG(m))
		return "a regular file";
	return "not a file";
}

static bool acceptable(mode_t m, enum input_kind kind)
{
	return kind == INPUT_DEVICE ? S_ISCHR(m) : S_ISREG(m) || S_ISFIFO(m);
}

static int refuse_mode(const char *what, const char *path, mode_t m, enum input_kind kind)
{
	log_error("cannot read %s '%.*s%s': it is %s, not %s", what, QUOTE_MAX, path,
		  strlen(path) > QUOTE_MAX ? "..." : "", kind_name(m),
		  kind == INPUT_DEVICE ? "a device node" : "a file");
	return -EINVAL;
}

int input_check(const char *what, const char *path, enum input_kind kind)
{
	struct stat st;

	if (!*path) {
		log_error("invalid %s '': empty path", what);
		return -EINVAL;
	}
	/* stat, not open: a device is not opened (a tape rewinds), a FIFO not waited on */
	if (stat(path, &st) < 0) {
		log_open_failed(what, path, errno);
		return -EINVAL;
	}
	return acceptable(st.st_mode, kind) ? 0 : refuse_mode(what, path, st.st_mode, kind);
}

/* /proc/self/mem and its kind look like regular files: only reading them fails */
static bool kernel_file(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return false;
	return sf.f_type == PROC_SUPER_MAGIC || sf.f_type == SYSFS_MAGIC ||
	       sf.f_type == DEBUGFS_MAGIC;
}

int input_open(const char *what, const char *path, int *ret_fd)
{
	struct stat st;
	int r = input_check(what, path, INPUT_FILE), fd, err;

	if (r < 0)
		return r;
	/* O_NONBLOCK: a FIFO with no writer opens at once (and then reads as empty) */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		log_open_failed(what, path, err);
		return err == ENOMEM ? -ENOMEM : -EINVAL;
	}
	/* swapped since the stat: what was opened is what is judged */
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		log_error("cannot read %s '%s': %s", what, path, strerror(err));
		return -err;
	}
	if (!acceptable(st.st_mode, INPUT_FILE)) {
		close(fd);
		return refuse_mode(what, path, st.st_mode, INPUT_FILE);
	}
	if (S_ISREG(st.st_mode) && kernel_file(fd)) {
		close(fd);
		log_error("cannot read %s '%s': it is a file of the kernel's (/proc, /sys), "
			  "not a file", what, path);
		return -EINVAL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		err = errno;
		close(fd);
		log_error("cannot read %s '%s': %s", what, path, strerror(err));
		return -err;
	}
	*ret_fd = fd;
	return 0;
}

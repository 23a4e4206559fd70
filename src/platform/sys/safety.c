// SPDX-License-Identifier: MIT
/* May usbperf write here: block devices, test files, existing files (safety.h). */
#include "platform/sys/safety.h"
#include "platform/sys/blockdev.h"
#include "platform/sys/mounts.h"
#include "util/leftovers.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* the first bytes of the mark block; the rest is zero */
static const char mark_magic[] = "usbperf test file, mark v1\n";

static bool same_dev(struct devnum a, struct devnum b)
{
	return a.major == b.major && a.minor == b.minor;
}

/*
 * A process other than this one with a member of the disk open (a dd, a
 * backup, a forgotten shell): O_EXCL only sees exclusive openers. The pid in
 * *ret_pid, its command name in comm.
 */
static bool open_elsewhere(struct devnum d, pid_t *ret_pid, char *comm, size_t commlen)
{
	struct strbuf fddir = STRBUF_INIT, fd = STRBUF_INIT, c = STRBUF_INIT;
	struct dirent *pe, *fe;
	bool found = false;
	DIR *proc, *fds;
	struct stat st;

	proc = opendir("/proc");
	while (proc && !found && (pe = readdir(proc))) {
		uint64_t pid;

		if (parse_u64(pe->d_name, 1, INT32_MAX, &pid) < 0 || (pid_t)pid == getpid())
			continue;
		strbuf_reset(&fddir);
		strbuf_addf(&fddir, "/proc/%s/fd", pe->d_name);
		fds = opendir(fddir.buf);
		while (fds && !found && (fe = readdir(fds))) {
			strbuf_reset(&fd);
			strbuf_addf(&fd, "%s/%s", fddir.buf, fe->d_name);
			/* stat follows the fd's link to the device node: no open, no FIFO wait */
			found = fe->d_name[0] != '.' && stat(fd.buf, &st) == 0 && S_ISBLK(st.st_mode) &&
				major(st.st_rdev) == d.major && minor(st.st_rdev) == d.minor;
		}
		if (fds)
			closedir(fds);
		if (found) {
			*ret_pid = (pid_t)pid;
			strbuf_reset(&c);
			strbuf_addf(&c, "/proc/%s/comm", pe->d_name);
			snprintf(comm, commlen, "?");
			FILE *f = fopen(c.buf, "re");
			if (f) {
				if (fgets(comm, (int)commlen, f))
					comm[strcspn(comm, "\n")] = '\0';
				fclose(f);
			}
		}
	}
	if (proc)
		closedir(proc);
	strbuf_release(&fddir);
	strbuf_release(&fd);
	strbuf_release(&c);
	return found;
}

/* one member of the disk's family in use: mounted, swap, held, open elsewhere */
static int family_member_busy(struct devnum m, const struct mount_table *mt, const char *path,
			      char **ret_why)
{
	const struct mount_entry *e = mounts_find_dev(mt, m.major, m.minor);
	char comm[64];
	pid_t pid;

	if (e)
		return reason_set(-EBUSY, ret_why,
			      "refusing to write to '%s': %u:%u on its disk is mounted on '%s'",
			      path, m.major, m.minor, e->mount_point);
	if (blk_is_swap(m))
		return reason_set(-EBUSY, ret_why,
			      "refusing to write to '%s': %u:%u on its disk is in use as swap",
			      path, m.major, m.minor);
	if (blk_has_holders(m))
		return reason_set(
		    -EBUSY, ret_why,
		    "refusing to write to '%s': %u:%u on its disk is held by another device "
		    "(device-mapper, md or similar)",
		    path, m.major, m.minor);
	if (open_elsewhere(m, &pid, comm, sizeof(comm)))
		return reason_set(-EBUSY, ret_why,
			      "refusing to write to '%s': %u:%u on its disk is in use: open in process %ld "
			      "(%s)",
			      path, m.major, m.minor, (long)pid, comm);
	return 0;
}

static int blockdev_writable(dev_t rdev, const char *path, char **ret_why)
{
	struct devnum d = {major(rdev), minor(rdev)}, whole, *fam = NULL, *roots = NULL;
	struct mount_table mt = {0};
	size_t nfam = 0, nroots = 0, i;
	int r;

	r = blk_whole_disk(d, &whole);
	if (r < 0)
		return reason_set(-EINVAL, ret_why, "cannot find '%s' in sysfs: %s", path,
			      strerror(-r));
	if (blk_read_only(d) || blk_read_only(whole))
		return reason_set(-EPERM, ret_why, "refusing to write to '%s': the device is read-only",
			      path);
	r = blk_root_disks(&roots, &nroots);
	if (r < 0)
		return reason_set(-EPERM, ret_why,
			      "cannot tell which disk holds '/': %s; refusing to write",
			      strerror(-r));
	for (i = 0; i < nroots; i++)
		if (same_dev(roots[i], whole))
			r = reason_set(-EPERM, ret_why,
				   "refusing to write to '%s': it is on the disk that holds '/'",
				   path);
	free(roots);
	if (r < 0)
		return r;
	r = mounts_load(&mt);
	if (r < 0)
		return reason_set(-EPERM, ret_why, "cannot read the mount table: %s; refusing to write",
			      strerror(-r));
	/* a partition shares its disk with its siblings: any of them in use refuses all */
	r = blk_family(whole, &fam, &nfam);
	if (r < 0)
		r = reason_set(-EPERM, ret_why, "cannot list the partitions of '%s': %s", path,
			   strerror(-r));
	for (i = 0; r == 0 && i < nfam; i++)
		r = family_member_busy(fam[i], &mt, path, ret_why);
	mount_table_release(&mt);
	free(fam);
	return r;
}

int safety_blockdev_writable(dev_t rdev, const char *path, char **ret_why)
{
	struct sysroot_saved saved;
	int r;

	/* the device written is the real one: so are the facts that allow it (--sysroot or not) */
	sysroot_live_enter(&saved);
	r = blockdev_writable(rdev, path, ret_why);
	sysroot_live_leave(&saved);
	return r;
}

/* a file of need bytes stays under the file size limit (ulimit -f) */
static bool fsize_limit_allows(const char *where, uint64_t need, char **ret_why)
{
	struct rlimit rl;
	char n[32], a[32];

	if (getrlimit(RLIMIT_FSIZE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return true;
	format_size(need, n, sizeof(n));
	format_size(rl.rlim_cur, a, sizeof(a));
	reason_set(-EFBIG, ret_why,
	       "the file size limit (ulimit -f) is %s: a test file in '%s' needs %s (use --size)",
	       a, where, n);
	return false;
}

int safety_check_dir(const char *dir, uint64_t need, char **ret_why)
{
	struct statvfs sv;
	struct stat st;
	char n[32], a[32];

	if (stat(dir, &st) < 0)
		return reason_set(-errno, ret_why, "cannot access '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return reason_set(-ENOTDIR, ret_why, "'%s' is not a directory", dir);
	if (access(dir, W_OK) < 0)
		return reason_set(-errno, ret_why, "cannot write in '%s': %s", dir, strerror(errno));
	if (!fsize_limit_allows(dir, need, ret_why))
		return -EFBIG;
	format_size(need, n, sizeof(n));
	if (statvfs(dir, &sv) < 0)
		return reason_set(-errno, ret_why, "cannot stat the filesystem of '%s': %s", dir,
			      strerror(errno));
	if ((uint64_t)sv.f_bavail * sv.f_frsize < need) {
		format_size(((uint64_t)sv.f_bavail * sv.f_frsize) & ~((1ULL << 20) - 1), a,
			    sizeof(a));
		return reason_set(
		    -ENOSPC, ret_why,
		    "not enough space in '%s': the test needs %s, %s available (use --size)", dir,
		    n, a);
	}
	return 0;
}

static int write_mark(int fd, uint64_t at)
{
	char block[SAFETY_MARK_SIZE] = {0};
	ssize_t n;

	memcpy(block, mark_magic, sizeof(mark_magic) - 1);
	n = pwrite(fd, block, sizeof(block), (off_t)at);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof(block) ? 0 : -EIO;
}

static bool has_mark(int fd, uint64_t size)
{
	char buf[sizeof(mark_magic) - 1];

	if (size < 2 * (uint64_t)SAFETY_MARK_SIZE)
		return false;
	return pread(fd, buf, sizeof(buf), (off_t)(size - SAFETY_MARK_SIZE)) ==
		   (ssize_t)sizeof(buf) &&
	       !memcmp(buf, mark_magic, sizeof(buf));
}

int safety_create_file(const char *dir, const char *tag, uint64_t region, bool mark,
		       struct strbuf *ret_path, int *ret_fd, char **ret_why)
{
	uint64_t total = region + (mark ? SAFETY_MARK_SIZE : 0), rnd;
	struct strbuf path = STRBUF_INIT;
	char sz[32];
	int fd, r;

	r = safety_check_dir(dir, total, ret_why);
	if (r < 0)
		return r;
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		return reason_set(-EIO, ret_why, "cannot name a test file: no random numbers");
	strbuf_addf(&path, "%s/usbperf-%s%s%ld-%08llx.tmp", dir, tag, *tag ? "-" : "",
		    (long)getpid(), (unsigned long long)(rnd & 0xffffffffULL));
	/* a name that exists, or a link planted under it, is never followed or reused */
	fd = open(path.buf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = reason_set(-errno, ret_why, "cannot create '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	/* a process killed now leaves it: the next one removes it (util/leftovers.h) */
	leftovers_add(path.buf, fd);
	r = total ? posix_fallocate(fd, 0, (off_t)total) : 0;
	format_size(total, sz, sizeof(sz));
	if (r == ENOSPC || r == EFBIG)
		r = reason_set(-r, ret_why,
			   "cannot reserve %s for a test file in '%s': %s (use --size)", sz, dir,
			   strerror(r));
	else if (r)
		r = reason_set(-r, ret_why, "cannot reserve %s for '%s': %s", sz, path.buf,
			   strerror(r));
	else if (mark && (r = write_mark(fd, region)) < 0)
		reason_set(r, ret_why, "cannot write to '%s': %s", path.buf, strerror(-r));
	if (r < 0) {
		close(fd);
		unlink(path.buf);
		goto out;
	}
	strbuf_reset(ret_path);
	strbuf_add(ret_path, path.buf, path.len);
	*ret_fd = fd;
out:
	strbuf_release(&path);
	return r;
}

int safety_open_file(const char *path, bool write, int *ret_fd, uint64_t *ret_region,
		     char **ret_why)
{
	/* O_NONBLOCK: a FIFO under the name must not hang the open */
	int flags = (write ? O_RDWR | O_NOFOLLOW : O_RDONLY) | O_NONBLOCK | O_CLOEXEC, fd, r;
	struct stat st;
	bool marked;

	fd = open(path, flags);
	if (fd < 0) {
		r = -errno;
		if (r == -ELOOP)
			return reason_set(-EPERM, ret_why,
				      "refusing to write to '%s': it is a symbolic link", path);
		return reason_set(r, ret_why, "cannot open '%s': %s", path, strerror(-r));
	}
	if (fstat(fd, &st) < 0) {
		r = reason_set(-errno, ret_why, "cannot stat '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		r = reason_set(-EINVAL, ret_why,
			   "'%s' is not a directory, regular file or block device", path);
		goto fail;
	}
	marked = has_mark(fd, (uint64_t)st.st_size);
	if (write && (!marked || st.st_uid != geteuid() || st.st_nlink != 1)) {
		r = reason_set(-EROFS, ret_why,
			   "refusing to write to '%s': usbperf did not create it (%s; read-only "
			   "tests: --tests read)",
			   path,
			   !marked		    ? "no usbperf mark at its end"
			   : st.st_uid != geteuid() ? "owned by another user"
						    : "it has other hard links");
		goto fail;
	}
	if (write && !fsize_limit_allows(path, (uint64_t)st.st_size, ret_why)) {
		r = -EFBIG;
		goto fail;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*ret_region = (uint64_t)st.st_size - (marked ? SAFETY_MARK_SIZE : 0);
	*ret_fd = fd;
	return 0;
fail:
	close(fd);
	return r;
}

int safety_reopen(int fd, const char *path, int flags)
{
	char proc[48];
	int r;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	r = open(proc, flags | O_CLOEXEC);
	/* without /proc (an early boot shell) the name is all there is */
	if (r < 0 && errno == ENOENT)
		r = open(path, flags | O_NOFOLLOW | O_CLOEXEC);
	return r;
}

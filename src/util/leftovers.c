// SPDX-License-Identifier: MIT
/* What a killed usbperf left behind: recorded as it is created, removed by the next one
 * (leftovers.h). */
#include "util/leftovers.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xdg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* a journal is a few lines; anything much larger is not one of ours */
#define JOURNAL_MAX (1u << 20)

static char journal_path[PATH_MAX];
static pid_t journal_owner;
static bool swept;

int leftovers_dir(struct strbuf *ret)
{
	return xdg_path("XDG_STATE_HOME", ".local/state", "leftovers", ret);
}

/* path relative to dirfd (AT_FDCWD: as it is) */
static int read_small_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

static int read_small(const char *path, char *buf, size_t size)
{
	return read_small_at(AT_FDCWD, path, buf, size);
}

/* this boot's id: "0b7a...-...": a pid of another boot is another process */
static int boot_id(char *buf, size_t size)
{
	int r = read_small("/proc/sys/kernel/random/boot_id", buf, size);

	if (r == 0)
		buf[strspn(buf, "0123456789abcdef-")] = '\0';
	return r == 0 && buf[0] ? 0 : -ENOENT;
}

/*
 * The start time of process pid, in clock ticks since boot (proc(5) stat,
 * field 22). Read as "PID/stat" under a descriptor of /proc, not by the path
 * "/proc/PID/stat": qemu-user answers that path for its own process from
 * its bookkeeping, where a forked child keeps its parent's start time, and
 * a board binary run that way would take a live sibling's files for a dead
 * one's.
 */
static int start_time(pid_t pid, uint64_t *ret)
{
	char path[32], buf[1024], *p;
	int r, proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (proc < 0)
		return -errno;
	snprintf(path, sizeof(path), "%ld/stat", (long)pid);
	r = read_small_at(proc, path, buf, sizeof(buf));
	close(proc);
	if (r < 0)
		return r;
	/* the command name may hold spaces and parentheses: the fields follow its last ')' */
	p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -EINVAL;
	p++;
	p[strcspn(p, " ")] = '\0';
	return parse_u64(p, 0, UINT64_MAX, ret);
}

/* "BOOT-PID-START" of this process */
static int self_name(struct strbuf *ret)
{
	char boot[64];
	uint64_t start;
	int r = boot_id(boot, sizeof(boot));

	if (r == 0)
		r = start_time(getpid(), &start);
	if (r == 0)
		strbuf_addf(ret, "%s-%ld-%" PRIu64, boot, (long)getpid(), start);
	return r;
}

/* a journal's process, from its name; false when the name is not a journal's */
static bool parse_name(const char *name, char *boot, size_t size, uint64_t *pid, uint64_t *start)
{
	const char *s = strrchr(name, '-'), *p;
	char num[24];

	if (!s || s == name)
		return false;
	for (p = s - 1; p > name && *p != '-'; p--)
		;
	if (p == name || (size_t)(s - p - 1) >= sizeof(num) || (size_t)(p - name) >= size)
		return false;
	memcpy(num, p + 1, (size_t)(s - p - 1));
	num[s - p - 1] = '\0';
	if (parse_u64(num, 1, INT32_MAX, pid) < 0 || parse_u64(s + 1, 0, UINT64_MAX, start) < 0)
		return false;
	memcpy(boot, name, (size_t)(p - name));
	boot[p - name] = '\0';
	return true;
}

static bool process_alive(const char *boot, uint64_t pid, uint64_t start)
{
	char now[64];
	uint64_t t;

	if (boot_id(now, sizeof(now)) < 0)
		return true; /* cannot tell: leave it */
	if (strcmp(now, boot))
		return false;
	return start_time((pid_t)pid, &t) == 0 && t == start;
}

/* "usbperf-TAG-PID-RANDOM.tmp" (a test file) or "NAME.tmp-PID" (an output written aside) */
static bool named_by(const char *path, uint64_t pid)
{
	const char *base = strrchr(path, '/');
	char mid[32], tail[32];
	size_t n, m, t;

	base = base ? base + 1 : path;
	n = strlen(base);
	snprintf(mid, sizeof(mid), "-%" PRIu64 "-", pid);
	snprintf(tail, sizeof(tail), ".tmp-%" PRIu64, pid);
	m = strlen(mid);
	t = strlen(tail);
	if (n > t && !strcmp(base + n - t, tail))
		return true;
	/* "-PID-" after "usbperf" (the tag may be empty) and before ".tmp" */
	return !strncmp(base, "usbperf-", 8) && n > 12 + m && !strcmp(base + n - 4, ".tmp") &&
	       strstr(base + 7, mid) != NULL;
}

static void push(struct leftover **v, size_t *n, const char *path, bool removed, const char *why)
{
	struct leftover *g = realloc(*v, (*n + 1) * sizeof(**v));
	char *p = strdup(path);

	if (!g || !p) {
		free(p);
		if (g)
			*v = g;
		return;
	}
	*v = g;
	g[(*n)++] = (struct leftover){p, removed, why};
}

/* one recorded file: removed when it is still the one recorded */
static void sweep_one(const char *path, uint64_t dev, uint64_t ino, uint64_t pid,
		      struct leftover **v, size_t *n)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return; /* removed by its process, or by someone: nothing left */
	if (!named_by(path, pid))
		push(v, n, path, false, "kept: not a name usbperf gives its files");
	else if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != geteuid())
		push(v, n, path, false, "kept: not a regular file of this user's with one link");
	else if ((uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino)
		push(v, n, path, false, "kept: another file than usbperf created under that name");
	else if (unlink(path) < 0)
		push(v, n, path, false, "kept: cannot remove it");
	else
		push(v, n, path, true, "removed: its usbperf process is gone");
}

/* the lines "DEV INO LEN PATH" of a journal of process pid */
static void sweep_journal(const char *buf, size_t len, uint64_t pid, struct leftover **v, size_t *n)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		unsigned long long dev, ino, plen;
		int used = 0;
		char *path;

		if (sscanf(p, "%llu %llu %llu %n", &dev, &ino, &plen, &used) != 3 || !used ||
		    plen == 0 || plen >= PATH_MAX || plen > (unsigned long long)(end - p - used) ||
		    p[used + plen] != '\n')
			return; /* cut short (killed while writing it): what follows is not trusted
				 */
		path = strndup(p + used, plen);
		if (path && !memchr(path, '\0', plen) && strlen(path) == plen)
			sweep_one(path, dev, ino, pid, v, n);
		free(path);
		p += used + plen + 1;
	}
}

static void sweep_file(int dirfd, const char *name, uint64_t pid, struct leftover **v, size_t *n)
{
	struct strbuf buf = STRBUF_INIT;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char chunk[4096];
	ssize_t got;

	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size > JOURNAL_MAX) {
		close(fd);
		return;
	}
	while ((got = read(fd, chunk, sizeof(chunk))) > 0 && buf.len < JOURNAL_MAX)
		strbuf_add(&buf, chunk, (size_t)got);
	close(fd);
	sweep_journal(buf.buf, buf.len, pid, v, n);
	strbuf_release(&buf);
	unlinkat(dirfd, name, 0);
}

int leftovers_sweep(struct leftover **ret, size_t *ret_n)
{
	struct strbuf dir = STRBUF_INIT;
	struct leftover *v = NULL;
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	int r = leftovers_dir(&dir);

	if (r == 0 && !(d = opendir(dir.buf)))
		r = errno == ENOENT ? 0 : -errno;
	else if (r == 0) {
		while ((e = readdir(d))) {
			char boot[64];
			uint64_t pid, start;

			if (e->d_name[0] == '.' ||
			    !parse_name(e->d_name, boot, sizeof(boot), &pid, &start) ||
			    process_alive(boot, pid, start))
				continue;
			sweep_file(dirfd(d), e->d_name, pid, &v, &n);
		}
		closedir(d);
	}
	strbuf_release(&dir);
	if (r < 0) {
		leftovers_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void leftovers_free(struct leftover *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].path);
	free(v);
}

static void remove_journal(void)
{
	/* a child that exits is not the process the journal is of */
	if (journal_path[0] && getpid() == journal_owner)
		unlink(journal_path);
}

static int open_journal(void)
{
	struct strbuf p = STRBUF_INIT;
	int r = leftovers_dir(&p);

	if (r == 0) {
		strbuf_addch(&p, '/');
		r = self_name(&p);
	}
	if (r == 0)
		r = xdg_make_parents(p.buf);
	if (r == 0 && p.len >= sizeof(journal_path))
		r = -ENAMETOOLONG;
	if (r == 0) {
		memcpy(journal_path, p.buf, p.len + 1);
		journal_owner = getpid();
		atexit(remove_journal);
	}
	strbuf_release(&p);
	return r;
}

/* the file's absolute path, as the kernel has it for fd: the next sweep may run anywhere */
static char *absolute(int fd)
{
	char link[64], *p = malloc(PATH_MAX);
	ssize_t n;

	if (!p)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, p, PATH_MAX - 1);
	if (n <= 0 || p[0] != '/') {
		free(p);
		return NULL;
	}
	p[n] = '\0';
	return p;
}

void leftovers_add(const char *path, int fd)
{
	struct strbuf line = STRBUF_INIT;
	struct leftover *v;
	struct stat st;
	char *abs;
	size_t n;
	int jfd;

	if (!swept) {
		swept = true;
		if (leftovers_sweep(&v, &n) == 0)
			leftovers_free(v, n);
	}
	if (fstat(fd, &st) < 0 || (!journal_path[0] && open_journal() < 0))
		return;
	/* without /proc, a name given whole is still one */
	abs = absolute(fd);
	if (!abs && path[0] == '/')
		abs = strdup(path);
	if (!abs)
		return;
	strbuf_addf(&line, "%" PRIu64 " %" PRIu64 " %zu %s\n", (uint64_t)st.st_dev,
		    (uint64_t)st.st_ino, strlen(abs), abs);
	jfd = open(journal_path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (jfd >= 0) {
		/* one write: the line is whole in the journal, or not there */
		(void)!write(jfd, line.buf, line.len);
		close(jfd);
	}
	strbuf_release(&line);
	free(abs);
}

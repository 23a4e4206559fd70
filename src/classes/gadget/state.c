// SPDX-License-Identifier: MIT
/* The state file: what usbperf gadget up created, and undoing it (see state.h). */
#include "classes/gadget/state.h"
#include "platform/usb/gadget.h"
#include "util/fileio.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STATE_MAX (1024 * 1024)

void gadget_state_path(struct strbuf *sb, const char *dir)
{
	strbuf_reset(sb);
	strbuf_addf(sb, GADGET_STATE_DIR "/gadget-%s.state", dir);
}

static int mkdir_root(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	char *s;
	int r = 0;

	sysroot_path(&p, path);
	/* each component below the root, as mkdir -p */
	for (s = p.buf + strlen(sysroot_get()) + 1; r == 0; s++) {
		char c;

		s = strchrnul(s, '/');
		c = *s;
		*s = '\0';
		if (mkdir(p.buf, 0755) < 0 && errno != EEXIST)
			r = -errno;
		*s = c;
		if (!c)
			break;
	}
	strbuf_release(&p);
	return r;
}

int gadget_state_create(struct gadget_state *st, const char *dir)
{
	struct strbuf path = STRBUF_INIT, real = STRBUF_INIT;
	int r;

	*st = (struct gadget_state){.fd = -1};
	r = mkdir_root(GADGET_STATE_DIR);
	if (r < 0)
		return r;
	gadget_state_path(&path, dir);
	sysroot_path(&real, path.buf);
	st->fd =
	    open(real.buf, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	strbuf_release(&real);
	if (st->fd < 0) {
		r = -errno;
		strbuf_release(&path);
		return r;
	}
	st->dir = xstrdup(dir);
	st->file = strbuf_detach(&path);
	strbuf_addf(&real, GADGET_STATE_MAGIC " %s\n", dir);
	r = fd_write_all(st->fd, real.buf, real.len);
	strbuf_release(&real);
	return r;
}

static void push_step(struct gadget_state *st, const char *kind, const char *path)
{
	struct gadget_step *s;

	st->v = xgrow(st->v, &st->n, sizeof(*st->v));
	s = &st->v[st->n - 1];
	strncpy(s->kind, kind, sizeof(s->kind) - 1);
	s->path = xstrdup(path);
}

int gadget_state_add(struct gadget_state *st, const char *kind, const char *path)
{
	struct strbuf line = STRBUF_INIT;
	int r = 0;

	push_step(st, kind, path);
	if (st->fd >= 0) {
		strbuf_addf(&line, "%s %s\n", kind, path);
		r = fd_write_all(st->fd, line.buf, line.len);
		strbuf_release(&line);
	}
	return r;
}

void gadget_state_release(struct gadget_state *st)
{
	size_t i;

	if (st->fd >= 0)
		close(st->fd);
	for (i = 0; i < st->n; i++)
		free(st->v[i].path);
	free_all(st->v, st->dir, st->file);
	*st = (struct gadget_state){.fd = -1};
}

/* a configfs path of this gadget: GADGET_CONFIGFS/dir or below, no ".." */
static bool ours(const char *path, const char *dir)
{
	struct strbuf g = STRBUF_INIT;
	bool r;

	strbuf_addf(&g, GADGET_CONFIGFS "/%s", dir);
	r = !strncmp(path, g.buf, g.len) && (path[g.len] == '\0' || path[g.len] == '/') &&
	    !strstr(path, "/..");
	strbuf_release(&g);
	return r;
}

static bool known_kind(const char *k, const char *path, const char *dir)
{
	if (!strcmp(k, "dir") || !strcmp(k, "link") || !strcmp(k, "bind"))
		return ours(path, dir);
	if (!strcmp(k, "mntdir") || !strcmp(k, "mount"))
		return path[0] == '/' && !strstr(path, "/..");
	/* files and the storage directory of a daemon: only below the state directory */
	if (!strcmp(k, "file") || !strcmp(k, "store"))
		return !strncmp(path, GADGET_STATE_DIR "/", strlen(GADGET_STATE_DIR) + 1) &&
		       !strstr(path, "/..") && !strchr(path + strlen(GADGET_STATE_DIR) + 1, '/');
	if (!strcmp(k, "proc"))
		return gadget_proc_step(path, NULL, NULL);
	return false;
}

bool gadget_proc_step(const char *v, int *ret_pid, const char **ret_exe)
{
	const char *sp = strchr(v, ' ');
	struct strbuf n = STRBUF_INIT;
	uint64_t pid = 0;
	bool ok;

	if (!sp)
		return false;
	strbuf_add(&n, v, (size_t)(sp - v));
	ok = parse_u64(n.buf, 2, INT32_MAX, &pid) == 0 && sp[1] == '/' && !strstr(sp, "/..");
	strbuf_release(&n);
	if (ok && ret_pid)
		*ret_pid = (int)pid;
	if (ok && ret_exe)
		*ret_exe = sp + 1;
	return ok;
}

int gadget_state_load(struct gadget_state *st, const char *dir, char **ret_why)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT, head = STRBUF_INIT;
	char *line, *next;
	int r;

	*st = (struct gadget_state){.fd = -1};
	gadget_state_path(&path, dir);
	r = sysroot_read(path.buf, STATE_MAX, &data);
	if (r < 0)
		goto out;
	st->dir = xstrdup(dir);
	st->file = xstrdup(path.buf);
	strbuf_addf(&head, GADGET_STATE_MAGIC " %s", dir);
	line = data.buf;
	next = strchr(line, '\n');
	if (!next || (size_t)(next - line) != head.len || strncmp(line, head.buf, head.len)) {
		r = reason_set(-EINVAL, ret_why, "state file '%s' is not usbperf's for '%s'",
			       path.buf, dir);
		goto out;
	}
	for (line = next + 1; *line; line = next + 1) {
		char *sp;

		next = strchr(line, '\n');
		if (!next) {
			/* a line cut short by a crash: that step was never taken */
			break;
		}
		*next = '\0';
		sp = strchr(line, ' ');
		if (sp)
			*sp = '\0';
		if (!sp || !known_kind(line, sp + 1, dir)) {
			r = reason_set(-EINVAL, ret_why,
				       "state file '%s': '%s' is not a path usbperf created",
				       path.buf, sp ? sp + 1 : line);
			goto out;
		}
		push_step(st, line, sp + 1);
	}
out:
	if (r < 0 && r != -EINVAL) {
		/* not found, unreadable: nothing to keep */
		free_all(st->dir, st->file);
		st->dir = st->file = NULL;
	}
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&head);
	return r;
}

static int rewrite(struct gadget_state *st, size_t keep);

/*
 * A mount point's parent usbperf made (/dev/usb-ffs) that is not empty when
 * this gadget goes down: another gadget's mount point is in it, usbperf's or
 * another program's (adbd). It stays, and the configfs directories are
 * still removed (28.7); a usbperf gadget with a mount point below it takes
 * it over, first in its state file, so the last one down removes it.
 */
static void keep_mntdir(const struct gadget_state *st, const char *dir, struct strbuf *note)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf sub = STRBUF_INIT;
	char *taker = NULL;
	size_t plen = strlen("gadget-"), slen = strlen(".state");

	strbuf_addf(&sub, "%s/", dir);
	if (sysroot_list(GADGET_STATE_DIR, &l) < 0)
		l.n = 0;
	for (size_t i = 0; i < l.n && !taker; i++) {
		size_t n = strlen(l.v[i]);
		struct gadget_state o = {.fd = -1};
		char *odir, *why = NULL;

		if (n <= plen + slen || strncmp(l.v[i], "gadget-", plen) ||
		    strcmp(l.v[i] + n - slen, ".state"))
			continue;
		odir = strndup(l.v[i] + plen, n - plen - slen);
		if (odir && strcmp(odir, st->dir) && gadget_state_load(&o, odir, &why) == 0) {
			for (size_t k = 0; k < o.n && !taker; k++)
				if ((!strcmp(o.v[k].kind, "mntdir") ||
				     !strcmp(o.v[k].kind, "mount")) &&
				    !strncmp(o.v[k].path, sub.buf, sub.len)) {
					/* first: undone last, after its own mount point */
					struct gadget_step first;

					push_step(&o, "mntdir", dir);
					first = o.v[o.n - 1];
					memmove(&o.v[1], &o.v[0], (o.n - 1) * sizeof(*o.v));
					o.v[0] = first;
					if (rewrite(&o, o.n) == 0)
						taker = xstrdup(odir);
				}
		}
		gadget_state_release(&o);
		free_all(odir, why);
	}
	strbuf_addf(note, "%skept '%s': it is not empty", note->len ? "; " : "", dir);
	if (taker)
		strbuf_addf(note, " (gadget '%s' takes it over: its down removes it)", taker);
	else
		strbuf_adds(note, " (another program's mount point is in it)");
	free(taker);
	name_list_release(&l);
	strbuf_release(&sub);
}

static int undo_one(const struct gadget_state *st, const struct gadget_step *s,
		    const struct gadget_fs *fs, struct strbuf *note)
{
	int r;

	if (!strcmp(s->kind, "proc")) {
		const char *exe;
		int pid;

		gadget_proc_step(s->path, &pid, &exe);
		return fs->stop ? fs->stop(pid, exe) : -ENOTSUP;
	}
	if (!strcmp(s->kind, "file"))
		return (r = fs->unlink(s->path)) == -ENOENT ? 0 : r;
	if (!strcmp(s->kind, "store")) {
		/* the shared files are the user's: a directory with files in it stays */
		r = fs->rmdir(s->path);
		if (r == -ENOTEMPTY || r == -EEXIST) {
			strbuf_addf(note, "%skept '%s': it is not empty", note->len ? "; " : "",
				    s->path);
			r = 0;
		}
		return r == -ENOENT ? 0 : r;
	}
	if (!strcmp(s->kind, "bind")) {
		r = fs->write(s->path, "\n", 1);
		/* not bound (any more) is what we want */
		return r == -ENODEV ? 0 : r;
	}
	if (!strcmp(s->kind, "link"))
		r = fs->unlink(s->path);
	else if (!strcmp(s->kind, "mount"))
		r = fs->umount(s->path);
	else
		r = fs->rmdir(s->path);
	if (r == -EINVAL && !strcmp(s->kind, "mount"))
		r = 0; /* not mounted any more */
	if ((r == -ENOTEMPTY || r == -EEXIST || r == -EBUSY) && !strcmp(s->kind, "mntdir")) {
		keep_mntdir(st, s->path, note);
		r = 0;
	}
	return r == -ENOENT ? 0 : r;
}

/* the steps left, written aside and renamed over the state file */
static int rewrite(struct gadget_state *st, size_t keep)
{
	struct strbuf out = STRBUF_INIT, real = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t i;
	int fd, r;

	strbuf_addf(&out, GADGET_STATE_MAGIC " %s\n", st->dir);
	for (i = 0; i < keep; i++)
		strbuf_addf(&out, "%s %s\n", st->v[i].kind, st->v[i].path);
	sysroot_path(&real, st->file);
	strbuf_addf(&tmp, "%s.new", real.buf);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	r = fd < 0 ? -errno : fd_write_all(fd, out.buf, out.len);
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp.buf, real.buf) < 0)
		r = -errno;
	strbuf_release(&out);
	strbuf_release(&real);
	strbuf_release(&tmp);
	return r;
}

int gadget_state_undo(struct gadget_state *st, const struct gadget_fs *fs, int64_t *ret_undone,
		      char **ret_why)
{
	struct strbuf real = STRBUF_INIT, note = STRBUF_INIT;
	int64_t undone = 0;
	size_t i;
	int r = 0;

	if (st->fd >= 0) {
		close(st->fd);
		st->fd = -1;
	}
	for (i = st->n; i > 0; i--) {
		r = undo_one(st, &st->v[i - 1], fs, &note);
		if (r < 0) {
			reason_set(r, ret_why, "cannot remove '%s': %s", st->v[i - 1].path,
				   strerror(-r));
			break;
		}
		undone++;
	}
	if (ret_undone)
		*ret_undone = undone;
	if (r < 0) {
		rewrite(st, i);
		strbuf_release(&note);
		return r;
	}
	sysroot_path(&real, st->file);
	if (unlink(real.buf) < 0 && errno != ENOENT)
		r = -errno;
	if (r == 0 && note.len && ret_why) {
		free(*ret_why);
		*ret_why = strbuf_detach(&note);
	}
	strbuf_release(&note);
	strbuf_release(&real);
	return r;
}

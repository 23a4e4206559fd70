/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Every path under /sys, /proc, /dev and configfs is read through here, from
 * a root that tests and users override (--sysroot): a directory (a copied or
 * hand-made tree) or a snapshot file (see util/snapshot.h), held in memory.
 *
 * Paths are resolved by our own walk, not the kernel's: symlinks are followed
 * inside the root (an absolute target restarts at the root, ".." never climbs
 * above it), so a recorded tree cannot make usbperf read outside it, and the
 * same code serves the directory and the in-memory backends. While recording
 * (usbperf snapshot), every link, directory and file this walk touches is
 * kept, so the snapshot holds exactly what the probes read.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

enum vnode_kind { VNODE_DIR, VNODE_FILE, VNODE_LINK };

/* "" (the real root) by default; no trailing slash. Drops a loaded snapshot. */
void sysroot_set(const char *root);
const char *sysroot_get(void);
/* true when reads are served from a loaded snapshot */
bool sysroot_is_snapshot(void);
/*
 * The safety rules of a write (is it mounted, attached, the root disk, a
 * bootloader's) judge the live system, never a recorded tree: between
 * sysroot_live_enter() and sysroot_live_leave() every reader serves the real
 * root, and nothing is recorded; the root (tree or snapshot) is put back
 * after. Not nested.
 */
struct sysroot_saved {
	char *root_dir;
	void *mem;
	size_t mem_n;
	bool recording;
};
void sysroot_live_enter(struct sysroot_saved *s);
void sysroot_live_leave(struct sysroot_saved *s);
/*
 * root + path into sb (reset first); path starts with '/'. Only for code that
 * must open a real file itself (writing drop_caches): probes use the readers.
 */
void sysroot_path(struct strbuf *sb, const char *path);

/*
 * Read a whole small file below the root into sb (reset first), at most max
 * bytes; returns 0 or a negative errno (-EFBIG past max).
 */
int sysroot_read(const char *path, size_t max, struct strbuf *sb);
/*
 * Only regular files are read: a FIFO, socket or device below a directory
 * root (never in a real sysfs, but in a copied or hostile tree) is opened
 * without blocking and refused with -EACCES, as an unreadable attribute is,
 * so the probes show that fact as unknown. The first such path (relative to
 * the root), for the command to note; NULL if none.
 */
const char *sysroot_special(void);
/*
 * Append everything readable from fd to sb, failing with -EFBIG past max
 * bytes; -EINTR when a signal asked the command to stop (util/signals.h).
 */
int read_fd_all(int fd, size_t max, struct strbuf *sb);
/* Read a one-line attribute, newline stripped and control chars sanitized. */
int sysroot_read_attr(const char *path, struct strbuf *sb);
/* The target text of the symlink at path (its parents resolved). */
int sysroot_readlink(const char *path, struct strbuf *ret);
/* The canonical path below the root (no links, no "." or ".."), "/" for the root. */
int sysroot_resolve(const char *path, struct strbuf *ret);
/* What path itself is (a final symlink is not followed). */
int sysroot_lkind(const char *path, enum vnode_kind *ret);
/* true when path resolves to something (file, directory) */
bool sysroot_exists(const char *path);

struct name_list {
	char **v;
	size_t n;
};
#define NAME_LIST_INIT                                                                             \
	{                                                                                          \
		NULL, 0                                                                            \
	}
/* Names in a directory, sorted, without "." and "..". */
int sysroot_list(const char *path, struct name_list *ret);
void name_list_release(struct name_list *l);

/* The in-memory backend, filled by the snapshot loader. */
struct vnode {
	char *path; /* canonical, starts with '/' */
	enum vnode_kind kind;
	char *data; /* file contents or link target, NUL-terminated */
	size_t len;
	bool unread; /* a file that was listed or tested but not read: reads fail (EACCES) */
	bool canon;  /* set by sysroot_set_nodes: no link or file among its parents */
};
/* "/a/b": no empty, "." or ".." component, no trailing slash (a vnode's path) */
bool sysroot_path_canonical(const char *p);
/*
 * Replace the root by an in-memory tree; takes ownership of the array and
 * its strings. Returns -EINVAL (nothing taken) on a duplicate path.
 */
int sysroot_set_nodes(struct vnode *v, size_t n);

/* Recording: start keeping what is read; take it (sorted, unique) when done. */
void sysroot_record_start(void);
void sysroot_record_take(struct vnode **ret, size_t *ret_n);
/*
 * While recording, keep data as the contents of the canonical path: a fact
 * read another way (a descriptor through usbfs) that replays as that file.
 */
void sysroot_record_file(const char *path, const char *data, size_t len);
void vnodes_free(struct vnode *v, size_t n);

// SPDX-License-Identifier: MIT
/*
 * What gadget up refuses before it creates anything: a mass-storage backing
 * the USB host could write that usbperf may not let it (the rules of a disk
 * write target), and a FunctionFS mount point that is not a new directory
 * of usbperf's making (issue 28.3, 28.6).
 */
#include "platform/sys/safety.h"
#include "classes/gadget/spec.h"
#include "classes/uvcgadget/gadget_up.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool gadget_path_canonical(const char *p)
{
	const char *c, *e;

	if (p[0] != '/' || !p[1])
		return false;
	for (c = p + 1;; c = e + 1) {
		e = strchrnul(c, '/');
		/* an empty component ("//", a trailing '/'), "." or ".." */
		if (e == c || (e - c == 1 && c[0] == '.') || (e - c == 2 && !strncmp(c, "..", 2)))
			return false;
		if (!*e)
			return true;
	}
}

/*
 * The backing of one LUN. ro=1 exports it read-only: anything readable. Read
 * and write: the host writes it as a disk would be written, so a block
 * device must pass disk's rules (not the disk of '/', nothing on it mounted,
 * swap, held or open elsewhere, not read-only) and --destructive must say
 * so; a file (any file: /etc/passwd is one) needs --destructive.
 */
static int msc_backing(const struct gadget_spec *s, const struct gadget_fn_spec *f, char **why)
{
	const char *file = gadget_fn_get(f, "file"), *ro = gadget_fn_get(f, "ro");
	struct stat st;
	char *rule = NULL;
	int r;

	if (!file || (ro && !strcmp(ro, "1")))
		return 0;
	if (stat(file, &st) < 0)
		return reason_set(-ENOENT, why, "msc: file '%s': %s", file, strerror(errno));
	if (!s->destructive)
		return reason_set(
		    -EACCES, why,
		    "msc: refusing to export '%s' read-write: the USB host could write "
		    "it (ro=1 exports it read-only; --destructive lets the host write "
		    "it)",
		    file);
	if (!S_ISBLK(st.st_mode))
		return 0;
	r = safety_blockdev_writable(st.st_rdev, file, &rule);
	if (r < 0)
		r = reason_set(r == -EINVAL ? -EINVAL : -EACCES, why, "msc: %s",
			       rule ? rule : strerror(-r));
	free(rule);
	return r;
}

/*
 * The FunctionFS mount point: a canonical path whose existing part is
 * directories (no link to be followed elsewhere) and whose last component
 * does not exist: up makes it and down removes it, so functionfs is never
 * mounted over a directory that holds something (28.6).
 */
static int ffs_mount_point(const struct gadget_fn_spec *f, char **why)
{
	const char *dir = gadget_fn_get(f, "dir");
	struct strbuf d = STRBUF_INIT;
	enum vnode_kind k;
	int r = 0;

	if (dir)
		strbuf_adds(&d, dir);
	else
		strbuf_addf(&d, "/dev/usb-ffs/%s", f->instance);
	if (!gadget_path_canonical(d.buf)) {
		r = reason_set(-EINVAL, why, "%s: dir='%s' is not a canonical absolute path",
			       f->profile->name, d.buf);
		goto out;
	}
	for (char *e = d.buf + 1; r == 0; e++) {
		char ch;

		e = strchrnul(e, '/');
		ch = *e;
		*e = '\0';
		if (sysroot_lkind(d.buf, &k) == 0 && (!ch || k != VNODE_DIR))
			r = reason_set(
			    -EEXIST, why,
			    !ch ? "%s: '%s' exists: functionfs is mounted only on a new directory "
				  "usbperf makes (another dir= or name=)"
				: "%s: '%s' is not a directory (a link is not followed)",
			    f->profile->name, d.buf);
		*e = ch;
		if (!ch)
			break;
	}
out:
	strbuf_release(&d);
	return r;
}

/*
 * uvc-bulk's gadgetfs goes where its users expect it, UVCG_MOUNT: on a
 * directory that holds nothing (made by an earlier up, or by hand), never
 * over one whose entries the mount would hide, nor through a link
 */
static int gadgetfs_mount_point(const struct gadget_fn_spec *f, char **why)
{
	static const char mnt[] = UVCG_MOUNT;
	struct strbuf real = STRBUF_INIT;
	enum vnode_kind k;
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	int r = 0;

	if (sysroot_lkind(mnt, &k) < 0)
		return 0; /* up makes it */
	if (k != VNODE_DIR)
		return reason_set(-EEXIST, why,
				  "%s: '%s' is not a directory (a link is not followed): gadgetfs "
				  "is not mounted there",
				  f->profile->name, mnt);
	sysroot_path(&real, mnt);
	d = opendir(real.buf);
	if (!d)
		r = reason_set(-errno, why, "%s: cannot read '%s': %s", f->profile->name, mnt,
			       strerror(errno));
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	if (!r && n)
		r = reason_set(-EEXIST, why,
			       "%s: '%s' is not empty (%zu %s): gadgetfs mounted on it would "
			       "hide %s",
			       f->profile->name, mnt, n, n == 1 ? "entry" : "entries",
			       n == 1 ? "it" : "them");
	strbuf_release(&real);
	return r;
}

int gadget_preflight(const struct gadget_spec *s, char **ret_why)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < s->nfns; i++) {
		const struct gadget_fn_spec *f = &s->fns[i];
		const char *p = f->profile->name;

		if (!strcmp(p, "msc"))
			r = msc_backing(s, f, ret_why);
		else if (!strcmp(p, "ffs") || !strcmp(p, "mtp"))
			r = ffs_mount_point(f, ret_why);
		else if (!strcmp(p, "uvc-bulk"))
			r = gadgetfs_mount_point(f, ret_why);
	}
	return r;
}

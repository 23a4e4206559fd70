// SPDX-License-Identifier: MIT
#include "platform/sys/blockdev.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int blk_sysfs_dir(struct devnum d, struct strbuf *ret)
{
	struct strbuf p = STRBUF_INIT;
	char *real;

	strbuf_init(&p);
	sysroot_path(&p, "/sys/dev/block/");
	strbuf_addf(&p, "%u:%u", d.major, d.minor);
	real = realpath(p.buf, NULL);
	strbuf_release(&p);
	if (!real)
		return -errno;
	strbuf_reset(ret);
	strbuf_adds(ret, real);
	free(real);
	return 0;
}

static bool path_exists(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	bool r;

	strbuf_addf(&p, "%s/%s", dir, name);
	r = access(p.buf, F_OK) == 0;
	strbuf_release(&p);
	return r;
}

/* an attribute file of a sysfs directory (absolute path, already below the sysroot) */
static int read_dir_attr(const char *dir, const char *name, struct strbuf *ret)
{
	struct strbuf p = STRBUF_INIT;
	const char *root = sysroot_get();
	int r;

	strbuf_addf(&p, "%s/%s", dir, name);
	/* sysroot_read prefixes the root: strip it from an absolute path that has it */
	r = sysroot_read_attr(
	    strncmp(p.buf, root, strlen(root)) == 0 ? p.buf + strlen(root) : p.buf, ret);
	strbuf_release(&p);
	return r;
}

/* read "MAJ:MIN" from dir/dev */
static int read_dev_file(const char *dir, struct devnum *ret)
{
	struct strbuf v = STRBUF_INIT;
	char *colon;
	uint64_t maj, min;
	int r;

	r = read_dir_attr(dir, "dev", &v);
	if (r < 0)
		goto out;
	colon = strchr(v.buf, ':');
	r = -EINVAL;
	if (!colon)
		goto out;
	*colon = '\0';
	if (parse_u64(v.buf, 0, 0xfffff, &maj) < 0 || parse_u64(colon + 1, 0, 0xfffff, &min) < 0)
		goto out;
	*ret = (struct devnum){(unsigned)maj, (unsigned)min};
	r = 0;
out:
	strbuf_release(&v);
	return r;
}

bool blk_read_only(struct devnum d)
{
	struct strbuf dir = STRBUF_INIT, v = STRBUF_INIT;
	bool ro = false;

	if (blk_sysfs_dir(d, &dir) == 0 && read_dir_attr(dir.buf, "ro", &v) == 0)
		ro = !strcmp(v.buf, "1");
	strbuf_release(&dir);
	strbuf_release(&v);
	return ro;
}

int blk_whole_disk(struct devnum d, struct devnum *ret)
{
	struct strbuf dir = STRBUF_INIT;
	int r;

	r = blk_sysfs_dir(d, &dir);
	if (r < 0)
		goto out;
	if (path_exists(dir.buf, "partition")) {
		char *slash = strrchr(dir.buf, '/');
		if (!slash) {
			r = -EINVAL;
			goto out;
		}
		*slash = '\0';
		r = read_dev_file(dir.buf, ret);
	} else {
		*ret = d;
		r = 0;
	}
out:
	strbuf_release(&dir);
	return r;
}

static int push(struct devnum **v, size_t *n, struct devnum d)
{
	struct devnum *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	nv[(*n)++] = d;
	*v = nv;
	return 0;
}

int blk_family(struct devnum whole, struct devnum **ret, size_t *ret_n)
{
	struct strbuf dir = STRBUF_INIT, sub = STRBUF_INIT;
	struct devnum *v = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *dh;
	int r;

	r = push(&v, &n, whole);
	if (r < 0)
		goto out;
	r = blk_sysfs_dir(whole, &dir);
	if (r < 0)
		goto out;
	dh = opendir(dir.buf);
	if (!dh) {
		r = -errno;
		goto out;
	}
	while ((de = readdir(dh))) {
		struct devnum p;

		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", dir.buf, de->d_name);
		if (!path_exists(sub.buf, "partition"))
			continue;
		if (read_dev_file(sub.buf, &p) == 0) {
			r = push(&v, &n, p);
			if (r < 0)
				break;
		}
	}
	closedir(dh);
out:
	strbuf_release(&dir);
	strbuf_release(&sub);
	if (r < 0) {
		free(v);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

static size_t count_entries(const char *dir)
{
	struct dirent *de;
	size_t n = 0;
	DIR *dh = opendir(dir);

	if (!dh)
		return 0;
	while ((de = readdir(dh)))
		if (de->d_name[0] != '.')
			n++;
	closedir(dh);
	return n;
}

bool blk_has_holders(struct devnum d)
{
	struct strbuf dir = STRBUF_INIT;
	bool r = false;

	if (blk_sysfs_dir(d, &dir) == 0) {
		strbuf_adds(&dir, "/holders");
		r = count_entries(dir.buf) > 0;
	}
	strbuf_release(&dir);
	return r;
}

/* add d's whole disk, or for dm/md devices the whole disks of its slaves */
static int add_underlying(struct devnum d, struct devnum **v, size_t *n, int depth)
{
	struct strbuf dir = STRBUF_INIT, sub = STRBUF_INIT;
	struct devnum whole;
	struct dirent *de;
	bool any = false;
	DIR *dh;
	int r;

	if (depth > 8)
		return -ELOOP;
	r = blk_sysfs_dir(d, &dir);
	if (r < 0)
		goto out;
	strbuf_adds(&dir, "/slaves");
	dh = opendir(dir.buf);
	if (dh) {
		while ((de = readdir(dh))) {
			struct devnum s;

			if (de->d_name[0] == '.')
				continue;
			strbuf_reset(&sub);
			strbuf_addf(&sub, "%s/%s", dir.buf, de->d_name);
			if (read_dev_file(sub.buf, &s) == 0) {
				any = true;
				add_underlying(s, v, n, depth + 1);
			}
		}
		closedir(dh);
	}
	if (!any) {
		r = blk_whole_disk(d, &whole);
		if (r == 0)
			r = push(v, n, whole);
	}
out:
	strbuf_release(&dir);
	strbuf_release(&sub);
	return r;
}

int blk_root_disks(struct devnum **ret, size_t *ret_n)
{
	struct devnum *v = NULL;
	size_t n = 0;
	struct stat st;
	int r;

	if (stat("/", &st) < 0)
		return -errno;
	r = add_underlying((struct devnum){major(st.st_dev), minor(st.st_dev)}, &v, &n, 0);
	if (r < 0 && r != -ENOENT) {
		free(v);
		return r;
	}
	/* / on overlay or tmpfs has no block device: nothing to protect by number */
	*ret = v;
	*ret_n = n;
	return 0;
}

bool blk_is_swap(struct devnum d)
{
	struct strbuf sb = STRBUF_INIT;
	bool found = false;
	char *line, *save = NULL;

	if (sysroot_read("/proc/swaps", 1 << 20, &sb) < 0)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');
		struct stat st;

		if (line[0] != '/' || !sp)
			continue;
		*sp = '\0';
		if (stat(line, &st) == 0 && S_ISBLK(st.st_mode) && major(st.st_rdev) == d.major &&
		    minor(st.st_rdev) == d.minor)
			found = true;
	}
out:
	strbuf_release(&sb);
	return found;
}

int blk_queue_attr(struct devnum d, const char *attr, struct strbuf *ret)
{
	struct strbuf p = STRBUF_INIT;
	struct devnum whole;
	int r;

	r = blk_whole_disk(d, &whole);
	if (r < 0)
		return r;
	strbuf_addf(&p, "/sys/dev/block/%u:%u/queue/%s", whole.major, whole.minor, attr);
	r = sysroot_read_attr(p.buf, ret);
	strbuf_release(&p);
	return r;
}

int blk_name(struct devnum d, struct strbuf *ret)
{
	struct strbuf dir = STRBUF_INIT;
	const char *slash;
	int r;

	r = blk_sysfs_dir(d, &dir);
	if (r == 0) {
		slash = strrchr(dir.buf, '/');
		strbuf_reset(ret);
		strbuf_adds(ret, slash ? slash + 1 : dir.buf);
	}
	strbuf_release(&dir);
	return r;
}

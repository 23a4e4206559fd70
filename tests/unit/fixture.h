/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The trees tests read the machine from. A recorded one: tests/fixtures/
 * NAME.json (or $USBPERF_FIXTURES/NAME.json) loaded as the snapshot every
 * sysroot read then comes from; or a scratch one made on disk (tree_make,
 * below), for tests that also write. Include after unit.h.
 */
#include "util/snapshot.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

static inline void load_fixture(const char *name)
{
	const char *dir = getenv("USBPERF_FIXTURES");
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "%s/%s.json", dir ? dir : "tests/fixtures", name);
	r = snapshot_load_file(path.buf, &err);
	if (r < 0)
		fail_msg("cannot load %s: %s %s", path.buf, strerror(-r), err.buf);
	strbuf_release(&path);
	strbuf_release(&err);
}

/*
 * A scratch tree under /tmp standing in for the machine's sysfs, configfs,
 * /proc and /run (the gadget tests): tree_make(TEMPLATE) makes it from a
 * mkdtemp template ("/tmp/test_x.XXXXXX", rewritten in place) and sets it as
 * the sysroot; tree_put_* fill it, making parent directories; tree_remove()
 * removes it all. One tree at a time.
 */
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static inline const char **tree_root(void)
{
	static const char *root;

	return &root;
}

/* the real path of PATH in the tree */
static inline void tree_path(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s%s", *tree_root(), path);
}

/* mkdir -p of the tree's PATH */
static inline void tree_put_dir(const char *path)
{
	struct strbuf p = STRBUF_INIT;

	tree_path(&p, path);
	for (size_t i = strlen(*tree_root()) + 1; i <= p.len; i++) {
		if (p.buf[i] != '/' && p.buf[i])
			continue;
		p.buf[i] = '\0';
		if (mkdir(p.buf, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", p.buf, strerror(errno));
		if (i < p.len)
			p.buf[i] = '/';
	}
	strbuf_release(&p);
}

static inline void tree_put_bytes(const char *path, const void *data, size_t len)
{
	struct strbuf p = STRBUF_INIT, dir = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	FILE *f;

	if (slash && slash != path) {
		strbuf_add(&dir, path, (size_t)(slash - path));
		tree_put_dir(dir.buf);
	}
	tree_path(&p, path);
	f = fopen(p.buf, "w");
	if (!f)
		fail_msg("cannot create %s: %s", p.buf, strerror(errno));
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	strbuf_release(&p);
	strbuf_release(&dir);
}

static inline void tree_put_file(const char *path, const char *text)
{
	tree_put_bytes(path, text, strlen(text));
}

/* a symbolic link at the tree's PATH to TARGET (as given: configfs keeps it so) */
static inline void tree_put_link(const char *target, const char *path)
{
	struct strbuf p = STRBUF_INIT;

	tree_path(&p, path);
	if (symlink(target, p.buf) < 0)
		fail_msg("symlink %s: %s", p.buf, strerror(errno));
	strbuf_release(&p);
}

/* the tree's PATH as read through the sysroot (up to 1 MiB), NULL if it cannot be read; free() */
static inline char *tree_read(const char *path)
{
	struct strbuf data = STRBUF_INIT;

	if (sysroot_read(path, 1 << 20, &data) < 0) {
		strbuf_release(&data);
		return NULL;
	}
	return strbuf_detach(&data);
}

static inline int tree_remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

/* rm -rf of a real path (in the tree or not): 0 or -errno */
static inline int tree_rm_rf(const char *real_path)
{
	return nftw(real_path, tree_remove_one, 16, FTW_PHYS | FTW_DEPTH) < 0 ? -errno : 0;
}

static inline struct strbuf *tree_listing_buf(void)
{
	static struct strbuf sb = STRBUF_INIT;

	return &sb;
}

/* one line: the path below the root, its mode */
static inline int tree_list_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)f;
	(void)flag;
	strbuf_addf(tree_listing_buf(), "%s %o\n", p + strlen(*tree_root()),
		    (unsigned)(st->st_mode & 07777));
	return 0;
}

/* ... and a link's target, a file's first 4 KiB */
static inline int tree_list_one_in_full(const char *p, const struct stat *st, int flag,
					struct FTW *f)
{
	struct strbuf *sb = tree_listing_buf();
	char buf[4096];
	ssize_t n;

	(void)f;
	strbuf_addf(sb, "%s %o", p + strlen(*tree_root()), (unsigned)(st->st_mode & 07777));
	if (flag == FTW_SL) {
		n = readlink(p, buf, sizeof(buf) - 1);
		strbuf_addf(sb, " -> %.*s", (int)(n > 0 ? n : 0), buf);
	} else if (flag == FTW_F) {
		int fd = open(p, O_RDONLY | O_CLOEXEC);

		n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
		if (fd >= 0)
			close(fd);
		strbuf_addf(sb, " [%.*s]", (int)(n > 0 ? n : 0), buf);
	}
	strbuf_addch(sb, '\n');
	return 0;
}

/* every path of the tree with its mode, one a line (in full: links' targets, files' bytes); free() */
static inline char *tree_listing(bool in_full)
{
	strbuf_reset(tree_listing_buf());
	nftw(*tree_root(), in_full ? tree_list_one_in_full : tree_list_one, 16, FTW_PHYS);
	return strdup(tree_listing_buf()->buf);
}

static inline void tree_make(char *template_path)
{
	if (!mkdtemp(template_path))
		fail_msg("mkdtemp %s: %s", template_path, strerror(errno));
	*tree_root() = template_path;
	sysroot_set(template_path);
}

static inline void tree_remove(void)
{
	if (!*tree_root())
		return;
	assert_int_equal(tree_rm_rf(*tree_root()), 0);
	sysroot_set(NULL);
	*tree_root() = NULL;
	strbuf_release(tree_listing_buf());
}

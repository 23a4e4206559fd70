/* SPDX-License-Identifier: MIT */
#pragma once
/* The store's unit tests: histories on real files in a scratch directory. */
#include "unit.h"
#include "store/sqlite/sql_sqlite.h"
#include "store/store_priv.h"

#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char dir[64];

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(p);
}

/* the scratch directory, "/tmp/usbperf-test-NAME.XXXXXX" */
static int scratch_setup(const char *name)
{
	snprintf(dir, sizeof(dir), "/tmp/usbperf-test-%s.XXXXXX", name);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char *path_in(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* the SQLite handle under a store, to look at the file behind its back */
static inline sqlite3 *store_db(struct store *s)
{
	return sql_sqlite_handle(s->conn);
}

static struct store *open_new(const char *name)
{
	struct store *s = NULL;
	int r = store_open(path_in(name), &s);

	if (r < 0)
		fail_msg("store_open(%s): %s", name, strerror(-r));
	return s;
}

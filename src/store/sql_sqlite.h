/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The SQLite back end: a history is one file. Its opening is its own (the
 * checks of the path before SQLite opens it, the immutable read of a file
 * at rest); past it, the connection is a struct sql_conn like any other.
 */
#include "store/sql.h"

enum sql_sqlite_mode {
	/*
	 * Read only, never creating or writing a byte, nor a -wal or -shm:
	 * a file at rest (no -wal or -journal beside it) is read as
	 * immutable while holding SQLite's shared lock, else opened plainly
	 * read-only, using the writer's -wal
	 */
	SQL_SQLITE_READ,
	/* read-write, the file must exist and its directory be writable */
	SQL_SQLITE_WRITE,
	/* read-write, created (with its missing parent directories, 0700) when missing */
	SQL_SQLITE_CREATE,
};

/*
 * Errors as store.h lists them for store_open(): the path's (-ENOENT,
 * -ENOTDIR, -EACCES, -EROFS, -ELOOP, -ENAMETOOLONG, -EISDIR, -ENODEV), and
 * SQLite's mapped (-EBADMSG, -EUCLEAN, -EBUSY ...).
 */
int sql_sqlite_open(const char *path, enum sql_sqlite_mode mode, struct sql_conn **ret);

/* an empty database in memory, gone on close: the schema's reference (store_schema.c) */
int sql_sqlite_open_memory(struct sql_conn **ret);

/* the handle under a connection of this back end, for the unit tests */
struct sqlite3 *sql_sqlite_handle(struct sql_conn *c);

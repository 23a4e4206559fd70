/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The SQLite back end: a history is one file. Its opening is its own (the
 * checks of the path before SQLite opens it, the immutable read of a file
 * at rest); past it, the connection is a struct sql_conn like any other.
 */
#include "store/sql.h"

/*
 * A file: SQL_OPEN_READ reads it without creating or writing a byte, nor a
 * -wal or -shm (a file at rest, no -wal or -journal beside it, is read as
 * immutable while holding SQLite's shared lock, else opened plainly read-
 * only, using the writer's -wal); SQL_OPEN_WRITE needs it there and its
 * directory writable; SQL_OPEN_CREATE makes it (and its missing parent
 * directories, 0700). Errors as store.h lists them for store_open(): the
 * path's (-ENOENT, -ENOTDIR, -EACCES, -EROFS, -ELOOP, -ENAMETOOLONG,
 * -EISDIR, -ENODEV), and SQLite's mapped (-EBADMSG, -EUCLEAN, -EBUSY ...).
 */
int sql_sqlite_open(const char *path, enum sql_open mode, struct sql_conn **ret);
extern const struct sql_backend sql_backend_sqlite;

/* an empty database in memory, gone on close: the schema's reference (store_schema.c) */
int sql_sqlite_open_memory(struct sql_conn **ret);

/* the handle under a connection of this back end, for the unit tests */
struct sqlite3 *sql_sqlite_handle(struct sql_conn *c);

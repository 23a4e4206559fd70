/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The PostgreSQL back end (libpq): one history shared by many boards on a
 * server. Only in a build with libpq (-Dpostgresql); sql_pg_none.c says
 * -EPROTONOSUPPORT in one without.
 */
#include "store/sql.h"

/*
 * A libpq connection URI ("postgresql://user@host/db",
 * "postgresql:///usbperf?host=/run/postgresql"). SQL_OPEN_READ: every
 * transaction read only, so that a role with SELECT alone is enough. Errors: -ENXIO
 * (no such database), -EKEYREJECTED (refused: password, pg_hba),
 * -ECONNREFUSED (no server there, or it did not answer in time); later
 * -ECONNRESET (the server went away mid-way); -EPROTONOSUPPORT (a
 * build without libpq); sql_pg_open_error() has libpq's words, which
 * never hold the password.
 */
int sql_pg_open(const char *uri, enum sql_open mode, struct sql_conn **ret);
/* why the last sql_pg_open() failed, one line ("" if it did not) */
const char *sql_pg_open_error(void);
/* "postgresql://" and "postgres://" names (backend.c) */
extern const struct sql_backend sql_backend_postgresql;

// SPDX-License-Identifier: MIT
/* A build without libpq (-Dpostgresql=disabled, the static board builds): no server history. */
#include "store/postgres/sql_pg.h"

#include <errno.h>

int sql_pg_open(const char *uri, enum sql_open mode, struct sql_conn **ret)
{
	(void)uri;
	(void)mode;
	(void)ret;
	return -EPROTONOSUPPORT;
}

const char *sql_pg_open_error(void)
{
	return "this usbperf was built without PostgreSQL (libpq)";
}

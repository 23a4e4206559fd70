// SPDX-License-Identifier: MIT
/* A build without libpq (-Dpostgresql=disabled, the static board builds): no server history. */
#include "store/sql_pg.h"

#include <errno.h>

int sql_pg_open(const char *uri, bool read, struct sql_conn **ret)
{
	(void)uri;
	(void)read;
	(void)ret;
	return -EPROTONOSUPPORT;
}

const char *sql_pg_open_error(void)
{
	return "this usbperf was built without PostgreSQL (libpq)";
}

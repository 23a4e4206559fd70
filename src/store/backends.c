// SPDX-License-Identifier: MIT
/* The store's back ends, a line each (sql.h struct sql_backend): one folder each. */
#include "store/postgres/sql_pg.h"
#include "store/sqlite/sql_sqlite.h"

#include <string.h>

/* those that claim names by their start first; the last takes the rest (files) */
static const struct sql_backend *const backends[] = {
    &sql_backend_postgresql,
    &sql_backend_sqlite,
};

const struct sql_backend *sql_backend_for(const char *name)
{
	size_t n = sizeof(backends) / sizeof(backends[0]);

	for (size_t i = 0; name && i < n; i++)
		for (const char *const *p = backends[i]->prefixes; p && *p; p++)
			if (!strncmp(name, *p, strlen(*p)))
				return backends[i];
	for (size_t i = 0; i < n; i++)
		if (!backends[i]->prefixes)
			return backends[i];
	return NULL;
}

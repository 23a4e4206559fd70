// SPDX-License-Identifier: MIT
/*
 * The PostgreSQL back end as the store finds it (backends.c): the names it
 * takes, in every build; sql_pg.c opens them, or sql_pg_none.c says why not.
 */
#include "store/postgres/sql_pg.h"

#include <stddef.h>

static const char *const prefixes[] = {"postgresql://", "postgres://", NULL};

const struct sql_backend sql_backend_postgresql = {
    .name = "postgresql",
    .prefixes = prefixes,
    .server = true,
    .open = sql_pg_open,
    .open_error = sql_pg_open_error,
};

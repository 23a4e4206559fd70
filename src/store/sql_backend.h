/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * For back ends only: what every connection and statement starts with, so
 * that sql.c finds the ops. A back end embeds these first in its own
 * structures and gets back to them with container_of().
 */
#include "store/sql.h"

#include <stddef.h>

struct sql_conn {
	const struct sql_ops *ops;
};

struct sql_stmt {
	struct sql_conn *conn;
};

#ifndef container_of
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#endif

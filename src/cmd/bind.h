/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Options bound to a member of a command's options struct, declared as data
 * (cmd/CMD.opts, made C by src/model/fieldgen.py): the key getopt returns, how
 * the value is read (a flag, the text itself, a number, a size, a duration, a
 * real number) with its range, where it goes, and what a bad value is told.
 * parse_bound (common.h) takes a bound option before the command's handler
 * sees it; what a table does not bind (lists, enums, checks across options)
 * stays in the handler.
 */
#include "cmd/opt/opt.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opt_value { OV_FLAG = 1, OV_TEXT, OV_NUMBER, OV_SIZE, OV_DURATION, OV_REAL };
/* the member's type, found by the compiler (OPT_STORE): a mismatch does not build */
enum opt_store { OS_BOOL = 1, OS_STR, OS_U64, OS_UINT, OS_INT, OS_DOUBLE };
#define OPT_STORE(st, member)                                                                      \
	_Generic(((st *)0)->member, bool: OS_BOOL, const char *: OS_STR, uint64_t: OS_U64,         \
		 unsigned: OS_UINT, int: OS_INT, double: OS_DOUBLE)

struct opt_bind {
	int key; /* 0: the table's end */
	unsigned char value, store;
	size_t offset;
	double min, max;      /* OV_DURATION (s), OV_REAL */
	uint64_t umin, umax;  /* OV_NUMBER, OV_SIZE (B) */
	const char *expected; /* after "invalid --NAME 'VALUE': " */
};

/*
 * key's value into ctx when b binds it: 1 taken, 0 not bound here, -EINVAL
 * a bad value (one line logged, naming the option as t has it)
 */
int opt_bind_take(const struct opt_bind *b, const struct cmd_opt *t, int key, const char *arg,
		  void *ctx);

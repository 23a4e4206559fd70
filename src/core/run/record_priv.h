/* SPDX-License-Identifier: MIT */
#pragma once
/* Inside core/run: the one way the JSON reader and the validator report a problem. */
#include "util/strbuf.h"

/*
 * err = "where: message" (no prefix when where is NULL or empty); returns
 * -EINVAL. The message quotes what a file said (keys, ids), so it is made
 * one line of printable text and cut to a length a terminal can take.
 */
__attribute__((format(printf, 3, 4))) int run_error(struct strbuf *err, const char *where,
						   const char *fmt, ...);

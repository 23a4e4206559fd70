/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Reading JSON that comes from outside (export files, criteria files): one
 * strict parse, and one way to say what is wrong with it. json-c does the
 * parsing; these add the rules every such file follows here.
 */
#include "util/strbuf.h"

#include <json-c/json.h>
#include <stddef.h>

/* what an error message may grow to: one line a terminal can take */
#define JSONIN_ERROR_MAX 240

/*
 * err = "where: message" (no prefix when where is NULL or empty); returns
 * -EINVAL. The message quotes what a file said (keys, ids), so it is made
 * one line of printable text and cut to JSONIN_ERROR_MAX bytes (not inside a
 * UTF-8 sequence). err may be NULL.
 */
__attribute__((format(printf, 3, 4))) int jsonin_error(struct strbuf *err, const char *where,
						      const char *fmt, ...);

/*
 * buf as one strict JSON object (no comments, NaN or single quotes; valid
 * UTF-8; no byte order mark; only whitespace after it), at most max bytes:
 * every JSON input (snapshots, exports, run files, criteria) is an object.
 * 0; -EINVAL with what is wrong with the document in err ("empty file",
 * "a JSON number where an object {...} is expected", "not JSON: unexpected
 * character at line 2, column 5 (byte 12)", "larger than 1 MiB"); -ENOMEM.
 * *ret is the caller's to put.
 */
int jsonin_parse(const char *buf, size_t len, size_t max, struct json_object **ret,
		 struct strbuf *err);

/* SPDX-License-Identifier: MIT */
#pragma once
/* Writing JSON with json-c: integers as jq and JavaScript read them exactly. */
#include <stdint.h>

/* the largest integer a double holds exactly (2^53 - 1): JSON above it is a string */
#define JSON_INT_EXACT_MAX 9007199254740991ull
struct json_object;
/* v as JSON: a number up to JSON_INT_EXACT_MAX, the string of its digits above ("seed") */
struct json_object *json_u64(uint64_t v);
struct json_object *json_i64(int64_t v);

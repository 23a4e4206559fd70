/* SPDX-License-Identifier: MIT */
#include "util/jsonout.h"

#include <json-c/json.h>
#include <stdio.h>

json_object *json_u64(uint64_t v)
{
	char buf[24];

	if (v <= JSON_INT_EXACT_MAX)
		return json_object_new_int64((int64_t)v);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_object_new_string(buf);
}

json_object *json_i64(int64_t v)
{
	char buf[24];

	if (v >= -(int64_t)JSON_INT_EXACT_MAX && v <= (int64_t)JSON_INT_EXACT_MAX)
		return json_object_new_int64(v);
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return json_object_new_string(buf);
}

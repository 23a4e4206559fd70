/* SPDX-License-Identifier: MIT */
#include "model/field_json.h"

#include <json-c/json.h>
#include <stdio.h>

void json_share(struct json_object *o, const struct field *f, const void *rec,
		struct json_object *v)
{
	char key[96];
	bool anomaly = field_anomaly(f, rec);

	/* above its ceiling it is no share: null, and the flag says why */
	if (anomaly) {
		json_object_put(v);
		v = NULL;
	}
	json_object_object_add(o, f->key, v);
	snprintf(key, sizeof(key), "%s_anomaly", f->key);
	json_object_object_add(o, key, json_object_new_boolean(anomaly));
}

int field_json_null(void *ctx, const struct field *f)
{
	(void)f;
	*(struct json_object **)ctx = NULL;
	return 0;
}

int field_json_u64(void *ctx, const struct field *f, uint64_t v)
{
	(void)f;
	*(struct json_object **)ctx = json_u64(v);
	return 0;
}

int field_json_i64(void *ctx, const struct field *f, int64_t v)
{
	(void)f;
	*(struct json_object **)ctx = json_i64(v);
	return 0;
}

int field_json_bool(void *ctx, const struct field *f, bool v)
{
	(void)f;
	*(struct json_object **)ctx = json_object_new_boolean(v);
	return 0;
}

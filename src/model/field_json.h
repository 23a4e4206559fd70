/* SPDX-License-Identifier: MIT */
#pragma once
/* The model's rules for JSON: a share above its ceiling is null and flagged. */
#include "model/field.h"
#include "util/jsonout.h"

struct json_object;
/* an FF_CEILING_SHARE field's value v (taken) and "<key>_anomaly" into o */
void json_share(struct json_object *o, const struct field *f, const void *rec,
		struct json_object *v);

/*
 * Visitor functions (field.h) for the kinds every JSON writer writes alike,
 * ctx a struct json_object ** the value goes to: unknown is null, integers
 * as jsonout.h keeps them exact, a bool as a bool. A writer adds its own
 * strings and doubles.
 */
int field_json_null(void *ctx, const struct field *f);
int field_json_u64(void *ctx, const struct field *f, uint64_t v);
int field_json_i64(void *ctx, const struct field *f, int64_t v);
int field_json_bool(void *ctx, const struct field *f, bool v);

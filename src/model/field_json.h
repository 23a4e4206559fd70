/* SPDX-License-Identifier: MIT */
#pragma once
/* The model's rules for JSON: a share above its ceiling is null and flagged. */
#include "model/field.h"
#include "util/jsonout.h"

struct json_object;
/* an FF_CEILING_SHARE field's value v (taken) and "<key>_anomaly" into o */
void json_share(struct json_object *o, const struct field *f, const void *rec,
		struct json_object *v);

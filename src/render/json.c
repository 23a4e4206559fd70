// SPDX-License-Identifier: MIT
/* JSON renderer: json-c builds the tree, so escaping and validity are its job. */
#include "model/field_json.h"
#include "render/render.h"
#include "version.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * An integer JSON readers keep exact: above 2^53 a double (JavaScript's
 * number, jq's) rounds it, so it is written as a string of its digits
 */
/* an FF_LIST string as an array of its items */
static json_object *json_list(const char *s)
{
	json_object *a = json_object_new_array();

	while (*s) {
		const char *end = strchr(s, FIELD_LIST_SEP);
		size_t n = end ? (size_t)(end - s) : strlen(s);

		json_object_array_add(a, json_object_new_string_len(s, (int)n));
		s += n + (end ? 1 : 0);
	}
	return a;
}

/* a field's JSON value, built by kind; unknown is null (JSON has no NaN) */
static int jv_str(void *ctx, const struct field *f, const char *v)
{
	*(json_object **)ctx = f->flags & FF_LIST ? json_list(v) : json_object_new_string(v);
	return 0;
}

static int jv_dbl(void *ctx, const struct field *f, double v)
{
	char buf[400]; /* %f of DBL_MAX is 309 digits */

	if (!isfinite(v))
		return 0; /* an infinity is no JSON number either */
	/* keep the text form short and exact to the shown precision (+3 digits) */
	snprintf(buf, sizeof(buf), "%.*f", f->prec + 3, v);
	*(json_object **)ctx = json_object_new_double_s(v, buf);
	return 0;
}

static json_object *field_json(const struct field *f, const void *rec)
{
	static const struct field_visitor json = {
	    .unknown = field_json_null, .str = jv_str, .u64 = field_json_u64,
	    .i64 = field_json_i64,	.dbl = jv_dbl, .boolean = field_json_bool,
	};
	json_object *o = NULL;

	field_visit(f, rec, &json, &o);
	return o;
}

static json_object *record_json(const struct record_desc *d, const void *rec)
{
	json_object *o = json_object_new_object();
	size_t i;

	for (i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];

		if (!(f->flags & FF_CEILING_SHARE)) {
			json_object_object_add(o, f->key, field_json(f, rec));
			continue;
		}
		json_share(o, f, rec, field_json(f, rec));
	}
	return o;
}

int render_json(const struct report *r, struct strbuf *out)
{
	json_object *root = json_object_new_object(), *w;
	const char *s;
	size_t i, j;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "usbperf", json_object_new_string(USBPERF_VERSION));
	json_object_object_add(root, "command", json_object_new_string(r->command));
	for (i = 0; i < r->nsec; i++) {
		const struct report_section *sec = &r->sec[i];
		if (sec->kind == SECTION_INLINE) {
			for (size_t k = 0; k < sec->desc->nfields; k++)
				json_object_object_add(root, sec->desc->fields[k].key,
						       field_json(&sec->desc->fields[k], sec->data));
		} else if (sec->kind == SECTION_OBJECT) {
			json_object_object_add(root, sec->key, record_json(sec->desc, sec->data));
		} else {
			json_object *a = json_object_new_array();
			for (j = 0; j < sec->count; j++)
				json_object_array_add(
					a, record_json(sec->desc,
						       (const char *)sec->data + j * sec->stride));
			json_object_object_add(root, sec->key, a);
		}
	}
	w = json_object_new_array();
	for (i = 0; i < r->nwarnings; i++)
		json_object_array_add(w, json_object_new_string(r->warnings[i]));
	json_object_object_add(root, "warnings", w);
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_SPACED |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	strbuf_adds(out, s);
	strbuf_addch(out, '\n');
	json_object_put(root);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * What a command's JSON holds, from the same field tables that write it: a
 * Markdown page for people (docs/schema/CMD.md) and a JSON Schema (draft
 * 2020-12) a validator checks the output against (docs/schema/CMD.schema.json).
 */
#include "render/render.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[] = {
    [FT_STR] = "string",	 [FT_U64] = "integer", [FT_DBL] = "number",
    [FT_BOOL] = "boolean",	 [FT_SIZE] = "integer (bytes)", [FT_INT] = "integer",
};

static const char *type_name(const struct field *f)
{
	return f->flags & FF_LIST ? "array of strings" : type_names[f->type];
}

/* the top level of each shape, in words */
static void md_top(const struct report *r, struct strbuf *out)
{
	switch (r->shape) {
	case REPORT_SHAPE_ENVELOPE:
		strbuf_addf(out, "Top level: `usbperf` (version), `command` (\"%s\"), the sections below, "
				 "`warnings` (array of strings).",
			    r->command);
		break;
	case REPORT_SHAPE_RECORD:
		strbuf_adds(out, "Top level: one run, as the history keeps it (`usbperf run -F json`'s "
				 "record, `show -F json`, each of `export`'s runs): the fields of `run` "
				 "below at the top level, then the other sections.");
		break;
	case REPORT_SHAPE_EXPORT:
		strbuf_adds(out, "Top level: `usbperf_export` (the format, 1), `usbperf` (version), "
				 "`runs`: an array of runs, each an object as `usbperf show -F json` "
				 "writes it: the fields of `run` below at its top level, then the other "
				 "sections.");
		break;
	}
}

void render_schema(const struct report *r, struct strbuf *out)
{
	strbuf_addf(out, "# `usbperf %s --format json`\n\n", r->command);
	md_top(r, out);
	strbuf_adds(out, " Any value may be `null`: unknown (not readable, not applicable). Integers "
			 "above 2^53 (a random seed) are strings of their digits, so that no reader "
			 "rounds them. A section may be absent when the mode that writes it was not "
			 "used.\n");
	for (size_t i = 0; i < r->nsec; i++) {
		const struct report_section *s = &r->sec[i];

		strbuf_addf(out, "\n## `%s`: %s\n\n| key | type | unit | text label |\n|---|---|---|---|\n",
			    s->key,
			    s->kind == SECTION_TABLE    ? "array of objects"
			    : s->kind == SECTION_INLINE ? "fields at the top level"
							: "object");
		for (size_t j = 0; j < s->desc->nfields; j++) {
			const struct field *f = &s->desc->fields[j];

			strbuf_addf(out, "| `%s` | %s | %s | %s |\n", f->key, type_name(f),
				    f->unit ? f->unit : "", f->header);
			if (f->flags & FF_CEILING_SHARE)
				strbuf_addf(out, "| `%s_anomaly` | boolean |  | true: `%s` is above its "
						 "ceiling, not the link's figure (then `%s` is null) |\n",
					    f->key, f->key, f->key);
		}
		if (s->child_key) {
			strbuf_addf(out, "| `%s` | array of objects |  | below |\n\n### `%s[].%s`\n\n"
					 "| key | type | unit | text label |\n|---|---|---|---|\n",
				    s->child_key, s->key, s->child_key);
			for (size_t j = 0; j < s->child_desc->nfields; j++) {
				const struct field *f = &s->child_desc->fields[j];

				strbuf_addf(out, "| `%s` | %s | %s | %s |\n", f->key, type_name(f),
					    f->unit ? f->unit : "", f->header);
			}
		}
	}
}

/* ---- JSON Schema ---- */

static json_object *type_or_null(const char *type)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string(type));
	json_object_array_add(a, json_object_new_string("null"));
	return a;
}

/* an integer, or above 2^53 the string of its digits, or null */
static json_object *integer_schema(bool sign)
{
	json_object *o = json_object_new_object(), *any = json_object_new_array();
	json_object *num = json_object_new_object(), *str = json_object_new_object();

	json_object_object_add(num, "type", json_object_new_string("integer"));
	if (!sign)
		json_object_object_add(num, "minimum", json_object_new_int(0));
	json_object_object_add(str, "type", json_object_new_string("string"));
	json_object_object_add(str, "pattern",
			       json_object_new_string(sign ? "^-?[0-9]{16,19}$" : "^[0-9]{16,20}$"));
	json_object_array_add(any, num);
	json_object_array_add(any, str);
	json_object_array_add(any, json_object_new_object());
	json_object_object_add(json_object_array_get_idx(any, 2), "type",
			       json_object_new_string("null"));
	json_object_object_add(o, "anyOf", any);
	return o;
}

static void describe(json_object *o, const struct field *f)
{
	struct strbuf d = STRBUF_INIT;

	strbuf_adds(&d, f->header);
	if (f->unit)
		strbuf_addf(&d, " (%s)", f->unit);
	json_object_object_add(o, "description", json_object_new_string(d.buf));
	strbuf_release(&d);
}

static json_object *field_schema(const struct field *f)
{
	json_object *o;

	if (f->type == FT_U64 || f->type == FT_SIZE || f->type == FT_INT) {
		o = integer_schema(f->type == FT_INT);
	} else if (f->flags & FF_LIST) {
		json_object *items = json_object_new_object();

		o = json_object_new_object();
		json_object_object_add(o, "type", type_or_null("array"));
		json_object_object_add(items, "type", json_object_new_string("string"));
		json_object_object_add(o, "items", items);
	} else {
		o = json_object_new_object();
		json_object_object_add(o, "type", f->type == FT_BOOL
							 ? json_object_new_string("boolean")
							 : type_or_null(f->type == FT_STR ? "string"
											  : "number"));
	}
	describe(o, f);
	return o;
}

/* the fields of d into props, each required */
static void add_fields(json_object *props, json_object *required, const struct record_desc *d)
{
	for (size_t j = 0; j < d->nfields; j++) {
		const struct field *f = &d->fields[j];

		json_object_object_add(props, f->key, field_schema(f));
		json_object_array_add(required, json_object_new_string(f->key));
		if (f->flags & FF_CEILING_SHARE) {
			char key[96];
			json_object *a = json_object_new_object();

			snprintf(key, sizeof(key), "%s_anomaly", f->key);
			json_object_object_add(a, "type", json_object_new_string("boolean"));
			json_object_object_add(a, "description",
					       json_object_new_string("above its ceiling: not the "
								      "link's figure"));
			json_object_object_add(props, key, a);
			json_object_array_add(required, json_object_new_string(key));
		}
	}
}

static json_object *closed_object(json_object *props, json_object *required)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("object"));
	json_object_object_add(o, "properties", props);
	json_object_object_add(o, "required", required);
	json_object_object_add(o, "additionalProperties", json_object_new_boolean(false));
	return o;
}

static json_object *record_schema(const struct record_desc *d)
{
	json_object *props = json_object_new_object(), *req = json_object_new_array();

	add_fields(props, req, d);
	return closed_object(props, req);
}

static json_object *section_schema(const struct report_section *s)
{
	json_object *a, *items;

	if (s->kind == SECTION_OBJECT)
		return record_schema(s->desc);
	a = json_object_new_object();
	items = record_schema(s->desc);
	if (s->child_key) {
		json_object *props, *req, *child = json_object_new_object();

		json_object_object_get_ex(items, "properties", &props);
		json_object_object_get_ex(items, "required", &req);
		json_object_object_add(child, "type", json_object_new_string("array"));
		json_object_object_add(child, "items", record_schema(s->child_desc));
		json_object_object_add(props, s->child_key, child);
		json_object_array_add(req, json_object_new_string(s->child_key));
	}
	json_object_object_add(a, "type", json_object_new_string("array"));
	json_object_object_add(a, "items", items);
	return a;
}

/* a key two sections share (a mode's other table): either of them */
static void add_section(json_object *props, const struct report_section *s)
{
	json_object *prev = NULL, *any;

	if (!json_object_object_get_ex(props, s->key, &prev)) {
		json_object_object_add(props, s->key, section_schema(s));
		return;
	}
	if (!json_object_object_get_ex(prev, "anyOf", &any)) {
		json_object *was = json_object_get(prev);

		any = json_object_new_array();
		json_object_array_add(any, was);
		prev = json_object_new_object();
		json_object_object_add(prev, "anyOf", any);
		json_object_object_add(props, s->key, prev);
	}
	json_object_array_add(any, section_schema(s));
}

static json_object *string_schema(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("string"));
	return o;
}

/* the sections as properties of props (an inline one's fields required there) */
static void add_sections(const struct report *r, json_object *props, json_object *req)
{
	for (size_t i = 0; i < r->nsec; i++) {
		if (r->sec[i].kind == SECTION_INLINE)
			add_fields(props, req, r->sec[i].desc);
		else
			add_section(props, &r->sec[i]);
	}
}

static json_object *record_top(const struct report *r)
{
	json_object *props = json_object_new_object(), *req = json_object_new_array();

	add_sections(r, props, req);
	return closed_object(props, req);
}

static json_object *envelope(const struct report *r)
{
	json_object *props = json_object_new_object(), *req = json_object_new_array();
	json_object *cmd = json_object_new_object(), *w = json_object_new_object();

	json_object_object_add(props, "usbperf", string_schema());
	json_object_object_add(cmd, "type", json_object_new_string("string"));
	json_object_object_add(props, "command", cmd);
	add_sections(r, props, req);
	json_object_object_add(w, "type", json_object_new_string("array"));
	json_object_object_add(w, "items", string_schema());
	json_object_object_add(props, "warnings", w);
	json_object_array_add(req, json_object_new_string("usbperf"));
	json_object_array_add(req, json_object_new_string("command"));
	json_object_array_add(req, json_object_new_string("warnings"));
	return closed_object(props, req);
}

static json_object *export_top(const struct report *r)
{
	json_object *props = json_object_new_object(), *req = json_object_new_array();
	json_object *fmt = json_object_new_object(), *runs = json_object_new_object();

	json_object_object_add(fmt, "type", json_object_new_string("integer"));
	json_object_object_add(props, "usbperf_export", fmt);
	json_object_object_add(props, "usbperf", string_schema());
	json_object_object_add(runs, "type", json_object_new_string("array"));
	json_object_object_add(runs, "items", record_top(r));
	json_object_object_add(props, "runs", runs);
	json_object_array_add(req, json_object_new_string("usbperf_export"));
	json_object_array_add(req, json_object_new_string("usbperf"));
	json_object_array_add(req, json_object_new_string("runs"));
	return closed_object(props, req);
}

void render_json_schema(const struct report *r, struct strbuf *out)
{
	json_object *top = r->shape == REPORT_SHAPE_RECORD   ? record_top(r)
			   : r->shape == REPORT_SHAPE_EXPORT ? export_top(r)
							     : envelope(r);
	json_object *doc = json_object_new_object(), *it;
	char title[96];

	snprintf(title, sizeof(title), "usbperf %s --format json", r->command);
	json_object_object_add(doc, "$schema",
			       json_object_new_string("https://json-schema.org/draft/2020-12/schema"));
	json_object_object_add(doc, "title", json_object_new_string(title));
	/* the top level's keywords after the header, in their order */
	json_object_object_foreach(top, k, v)
	{
		it = json_object_get(v);
		json_object_object_add(doc, k, it);
	}
	json_object_put(top);
	strbuf_adds(out, json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_SPACED |
								JSON_C_TO_STRING_NOSLASHESCAPE));
	strbuf_addch(out, '\n');
	json_object_put(doc);
}

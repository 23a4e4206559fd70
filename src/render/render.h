/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The renderers: a report (model/field.h: sections of records described by
 * their field tables) as text, JSON (json-c) or CSV, and the JSON's schema.
 */
#include "model/field.h"
#include "model/field_json.h"
#include "util/jsonout.h"
#include "util/strbuf.h"

enum output_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

int format_parse(const char *s, enum output_format *ret);


/* Render to out (appended). Text and CSV need no library; JSON uses json-c. */
int render_text(const struct report *r, struct strbuf *out);
int render_json(const struct report *r, struct strbuf *out);
/* CSV: the first table section, one header line of keys, then rows. */
int render_csv(const struct report *r, struct strbuf *out);
int render(const struct report *r, enum output_format f, struct strbuf *out);

/*
 * The JSON of a command, described from its field tables so docs cannot
 * drift (render/schema.c): render_schema as Markdown tables (key, type,
 * unit, text label), render_json_schema as a JSON Schema (draft 2020-12)
 * that its output validates against. r lists every section the command
 * may write (a mode's sections too); its shape says what the top level is.
 */
void render_schema(const struct report *r, struct strbuf *out);
void render_json_schema(const struct report *r, struct strbuf *out);

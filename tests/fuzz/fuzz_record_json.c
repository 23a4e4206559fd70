// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: export files (JSON from another board, another version
 * or a hand edit) through run_export_parse, the strict reader of run
 * records. What it accepts must validate, and write back out as a document
 * that reads back to the same text: nothing is lost or invented between
 * export and import.
 */
#include "core/run/record_json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the runs as an export document's text (malloc'ed) */
static char *dump(const struct run_record *v, size_t n)
{
	struct json_object *doc, *runs, *o;
	char *text;

	if (run_export_new(&doc, &runs) < 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (run_record_validate(&v[i], NULL) < 0 || run_record_to_json(&v[i], &o) < 0)
			abort();
		json_object_array_add(runs, o);
	}
	text = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	if (!text)
		abort();
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct run_record *v, *w;
	size_t n, m;
	char *first, *second;

	if (run_export_parse((const char *)data, size, &v, &n, &err) < 0) {
		/* a refusal always says why, on one line */
		if (!err.len || strchr(err.buf, '\n'))
			abort();
		strbuf_release(&err);
		return 0;
	}
	first = dump(v, n);
	if (run_export_parse(first, strlen(first), &w, &m, NULL) < 0 || m != n)
		abort();
	second = dump(w, m);
	if (strcmp(first, second))
		abort();
	free(first);
	free(second);
	run_records_free(v, n);
	run_records_free(w, m);
	strbuf_release(&err);
	return 0;
}

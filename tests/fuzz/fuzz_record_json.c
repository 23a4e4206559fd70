// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: run files (exports, single records, run -F json reports:
 * JSON from another board, another version or a hand edit) through
 * run_document_parse, the strict reader of run records. What it accepts
 * must validate, and write back out as a document that reads back to the
 * same text: nothing is lost or invented between export and import. What
 * it accepts is also drawn, as `usbperf report` draws it (HTML and text):
 * odd port paths, units and names must not crash the renderers.
 */
#include "report/model.h"
#include "run/record_json.h"
#include "render/html.h"
#include "render/report_text.h"

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

static void draw(const struct run_record *v, size_t n)
{
	struct compare_result c[REPORT_MAX_RUNS - 1];
	struct strbuf out = STRBUF_INIT;
	struct report_model m;
	struct html_input in = {.model = &m, .cmp = c, .generated_at = "now"};

	if (n == 0 || n > REPORT_MAX_RUNS || report_model_build(v, n, &m) < 0)
		return;
	for (size_t i = 1; i < n; i++)
		if (run_compare(&v[0], &v[i], 5, &c[i - 1]) < 0)
			abort();
	html_report(&out, &in);
	report_text(&out, &m, c, true);
	for (size_t i = 1; i < n; i++)
		compare_result_release(&c[i - 1]);
	report_model_release(&m);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct run_record *v, *w;
	size_t n, m;
	char *first, *second;

	if (run_document_parse((const char *)data, size, &v, &n, &err) < 0) {
		/* a refusal always says why, on one line */
		if (!err.len || strchr(err.buf, '\n'))
			abort();
		strbuf_release(&err);
		return 0;
	}
	draw(v, n);
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

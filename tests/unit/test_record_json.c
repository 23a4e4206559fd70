// SPDX-License-Identifier: MIT
/* run/record_json: run records to JSON and back, strictly. */
#include "unit.h"
#include "run/record_json.h"
#include "run_sample.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* a run record through an export document's bytes and back */
static void test_round_trip(void **state)
{
	struct run_record a, *back = NULL;
	struct json_object *doc, *runs, *o;
	struct strbuf err = STRBUF_INIT;
	const char *text;
	size_t n = 0;

	(void)state;
	sample_run(&a, "20261130T051200Z-3f2a", "2026-11-30T05:12:00Z");
	assert_int_equal(run_record_validate(&a, &err), 0);
	assert_int_equal(run_export_new(&doc, &runs), 0);
	assert_int_equal(run_record_to_json(&a, &o), 0);
	json_object_array_add(runs, o);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	/* unknowns are null, doubles exact but short */
	assert_non_null(strstr(text, "\"governor\":null"));
	assert_non_null(strstr(text, "\"value\":33.33333333333333,"));
	assert_non_null(strstr(text, "\"stdev\":0.30000000000000004,"));
	assert_non_null(strstr(text, "\"duration_s\":63.25,"));
	assert_non_null(strstr(text, "\"repeats\":null"));
	/* the rate sampled within the passes, and none for the unsampled (latency) */
	assert_non_null(strstr(text, "\"sample_stdev\":0.14285714285714285,\"sample_min\":29.5,"
				     "\"samples\":24,"));
	assert_non_null(strstr(text, "\"sample_mean\":null,\"sample_stdev\":null,"
				     "\"sample_min\":null,\"samples\":0,"));
	if (run_export_parse(text, strlen(text), &back, &n, &err) < 0)
		fail_msg("parse: %s", err.buf);
	assert_int_equal(n, 1);
	assert_true(sample_runs_eq(&a, &back[0]));
	assert_string_equal(back[0].findings.v[0].severity, "warn");
	assert_string_equal(back[0].findings.v[1].severity, "info");
	json_object_put(doc);
	run_records_free(back, n);
	run_record_release(&a);
	strbuf_release(&err);
}

#define MIN_DEV "{\"key\":\"host\"}"
#define MIN_MET "{\"device_key\":\"host\",\"test\":\"disk\",\"name\":\"seq\",\"metric\":\"mb_s\"," \
		"\"higher_is_better\":true}"
#define RUNX(id, at, top, env, devs, mets, finds)                                                \
	"{\"id\":\"" id "\",\"started_at\":\"" at "\"" top ",\"env\":" env ",\"devices\":[" devs   \
	"],\"metrics\":[" mets "],\"findings\":[" finds "]}"
#define RUN_(top, env, devs, mets, finds)                                                        \
	RUNX("r1", "2026-11-30T05:12:00Z", top, env, devs, mets, finds)
#define AT(t) DOC(RUNX("r1", t, "", "{}", MIN_DEV, MIN_MET, ""))
#define ID(i) DOC(RUNX(i, "2026-11-30T05:12:00Z", "", "{}", MIN_DEV, MIN_MET, ""))
#define RUN(top) RUN_(top, "{}", MIN_DEV, MIN_MET, "")
#define DOC(runs) "{\"usbperf_export\":1,\"runs\":[" runs "]}"
#define MET(extra)                                                                               \
	"{\"device_key\":\"host\",\"test\":\"disk\",\"name\":\"seq\",\"metric\":\"mb_s\","        \
	"\"higher_is_better\":true" extra "}"
#define RUN_MET(extra) DOC(RUN_("", "{}", MIN_DEV, MET(extra), ""))
#define FIND(body) DOC(RUN_("", "{}", MIN_DEV, MIN_MET, body))

static const struct {
	const char *doc;
	const char *err; /* a part of the message; NULL: accepted */
} docs[] = {
	{DOC(RUN("")), NULL},
	{DOC(RUN("")) "\n\n", NULL},
	{DOC(RUN(",\"duration_s\":1,\"command_line\":null")), NULL},
	{"{\"usbperf_export\":1,\"usbperf\":\"9.9\",\"runs\":[]}", NULL},
	{RUN_MET(",\"value\":5,\"stdev\":null,\"repeats\":1"), NULL},
	{"", "empty file"},
	{"{", "not JSON: it ends before the document does"},
	{DOC(RUN("")) " x", "not JSON: more after the document"},
	{RUN_MET(",\"value\":NaN"), "metrics[0]: 'value' is not a finite number"},
	{RUN_MET(",\"value\":-Infinity"), "metrics[0]: 'value' is not a finite number"},
	{"/* c */" DOC(RUN("")), "not JSON"},
	{"{\"usbperf_export\":1,\"runs\":[],}", "not JSON"},
	{"{\"usbperf_export\":1,\"runs\":[\"\xff\"]}", "not JSON"},
	{"[]", "a JSON array [...] where an object {...} is expected"},
	{"{\"runs\":[]}", "not a usbperf export"},
	{"{\"usbperf_export\":\"1\",\"runs\":[]}", "not a usbperf export"},
	{"{\"usbperf_export\":2,\"runs\":[]}", "export format 2, this usbperf reads 1"},
	{"{\"usbperf_export\":1,\"runs\":[],\"more\":1}", "unknown key 'more'"},
	{"{\"usbperf_export\":1,\"usbperf\":1,\"runs\":[]}", "'usbperf' is not a string"},
	{"{\"usbperf_export\":1}", "no 'runs' array"},
	{"{\"usbperf_export\":1,\"runs\":{}}", "no 'runs' array"},
	{DOC("1"), "runs[0]: not an object"},
	{DOC(RUN(",\"idd\":1")), "runs[0]: unknown key 'idd'"},
	{DOC("{\"started_at\":\"2026-11-30T05:12:00Z\",\"env\":{},\"devices\":[],\"metrics\":[],"
	     "\"findings\":[]}"), "runs[0]: no 'id'"},
	{DOC(RUN("") "," RUN("")), "run 'r1' appears twice"},
	{ID("a b"), "'id' 'a b' is not"},
	{ID("-rf"), "'id' '-rf' is not"},
	{ID("1234567890123456789012345678901234567890123456789012345678901234"), NULL},
	{ID("1234567890123456789012345678901234567890123456789012345678901234x"), "is not 1 to 64"},
	{AT("2026-02-28T23:59:59Z"), NULL},
	{AT("2026-02-30T00:00:00Z"), "'started_at' is not a UTC time"},
	{AT("2026-11-30T24:00:00Z"), "'started_at' is not a UTC time"},
	{AT("2026-11-30T05:12:00+01:00"), "'started_at' is not a UTC time"},
	{AT("2026-11-30 05:12:00Z"), "'started_at' is not a UTC time"},
	{AT("2026-11-30T05:12:00.5Z"), "'started_at' is not a UTC time"},
	{DOC(RUN(",\"duration_s\":-1")), "runs[0]: 'duration_s' is not a duration"},
	{DOC(RUN(",\"duration_s\":\"1\"")), "'duration_s' is not a number"},
	{DOC(RUN(",\"duration_s\":1e400")), "runs[0]: 'duration_s' is not a finite number"},
	{DOC("{\"id\":\"r1\",\"started_at\":\"2026-11-30T05:12:00Z\",\"devices\":[],\"metrics\":[],"
	     "\"findings\":[]}"), "no 'env' object"},
	{DOC(RUN_("", "[]", MIN_DEV, MIN_MET, "")), "env: not an object"},
	{DOC(RUN_("", "{\"kernal\":\"6.1\"}", MIN_DEV, MIN_MET, "")), "env: unknown key 'kernal'"},
	{DOC(RUN_("", "{\"kernel\":6.1}", MIN_DEV, MIN_MET, "")), "env: 'kernel' is not a string"},
	{DOC(RUN_("", "{\"board\":\"a\\u0000b\"}", MIN_DEV, MIN_MET, "")),
	 "'board' contains a NUL character"},
	{DOC(RUN_("", "{\"board\":\"\\u001b[31mred\"}", MIN_DEV, MIN_MET, "")),
	 "env: 'board' contains a control character"},
	{DOC("{\"id\":\"r1\",\"started_at\":\"2026-11-30T05:12:00Z\",\"env\":{},\"metrics\":[],"
	     "\"findings\":[]}"), "no 'devices' array"},
	{DOC(RUN_("", "{}", "{}", "", "")), "devices[0]: no 'device'"},
	{DOC(RUN_("", "{}", MIN_DEV "," MIN_DEV, "", "")), "two devices have the key 'host'"},
	{DOC(RUN_("", "{}", "{\"key\":\"2-1\",\"ceiling_mb_s\":-5}", "", "")),
	 "devices[0]: 'ceiling_mb_s' is not a rate"},
	{DOC(RUN_("", "{}", "{\"key\":\"2-1\"}", MIN_MET, "")),
	 "metrics[0]: 'device' 'host' names no device"},
	{DOC(RUN_("", "{}", MIN_DEV, "{\"device_key\":\"host\",\"higher_is_better\":true}", "")),
	 "metrics[0]: 'device', 'test', 'name' and 'metric' are needed"},
	{RUN_MET(",\"value\":\"fast\""), "metrics[0]: 'value' is not a number"},
	{RUN_MET(",\"stdev\":-0.5"), "metrics[0]: 'stdev' is negative"},
	{RUN_MET(",\"min\":2,\"max\":1"), "'min' is above 'max'"},
	{RUN_MET(",\"repeats\":0"), "'repeats' is not a count of 1 or more"},
	{RUN_MET(",\"repeats\":-1"), "'repeats' is out of range"},
	{RUN_MET(",\"repeats\":18446744073709551615"), "'repeats' is out of range"},
	{RUN_MET(",\"repeats\":1.5"), "'repeats' is not an integer"},
	{RUN_MET(",\"sample_mean\":30,\"sample_stdev\":2,\"sample_min\":25,\"samples\":12"), NULL},
	{RUN_MET(",\"sample_mean\":null,\"samples\":0"), NULL},
	{RUN_MET(",\"sample_stdev\":-1,\"samples\":12"),
	 "metrics[0]: 'sample_mean', 'sample_stdev' and 'sample_min' must be finite and 0 or more"},
	{RUN_MET(",\"sample_min\":-0.5,\"samples\":12"), "must be finite and 0 or more"},
	{RUN_MET(",\"sample_mean\":1e400,\"samples\":12"), "'sample_mean' is not a finite number"},
	{RUN_MET(",\"sample_stdev\":\"2\",\"samples\":12"), "'sample_stdev' is not a number"},
	{RUN_MET(",\"samples\":2.5"), "'samples' is not an integer"},
	{RUN_MET(",\"samples\":-3"), "'samples' is out of range"},
	{RUN_MET(",\"sample_stdev\":2"), "'sample_mean', 'sample_stdev' or 'sample_min' without 'samples'"},
	{RUN_MET(",\"sample_mean\":3,\"samples\":0"), "without 'samples'"},
	{DOC(RUN_("", "{}", MIN_DEV, "{\"device_key\":\"host\",\"test\":\"disk\",\"name\":\"seq\","
		  "\"metric\":\"mb_s\"}", "")), "metrics[0]: no 'higher_is_better'"},
	{RUN_MET(",\"higher_is_better\":\"yes\""), "'higher_is_better' is not true or false"},
	{DOC(RUN_("", "{}", MIN_DEV, MIN_MET "," MIN_MET, "")),
	 "metric 'mb_s' of 'host' disk 'seq' appears twice"},
	{FIND("{\"severity\":\"warn\",\"id\":\"x.y\",\"message\":\"m\"}"), NULL},
	{FIND("{\"severity\":\"error\",\"id\":\"x.y\",\"message\":\"m\"}"),
	 "findings[0]: 'severity' is not \"info\" or \"warn\""},
	{FIND("{\"id\":\"x.y\",\"message\":\"m\"}"), "'severity' is not"},
	{FIND("{\"severity\":\"info\",\"message\":\"m\"}"),
	 "findings[0]: 'id' and 'message' are needed"},
	{FIND("{\"severity\":\"info\",\"id\":\"x\",\"message\":\"m\",\"why\":1}"),
	 "findings[0]: unknown key 'why'"},
};

static void test_documents(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
		struct strbuf err = STRBUF_INIT;
		struct run_record *v = (void *)&err; /* untouched on failure */
		size_t n = 12345;
		int r = run_export_parse(docs[i].doc, strlen(docs[i].doc), &v, &n, &err);

		if (!docs[i].err) {
			if (r != 0)
				fail_msg("case %zu: %s: refused: %s", i, docs[i].doc, err.buf);
			run_records_free(v, n);
		} else {
			if (r != -EINVAL || !strstr(err.buf, docs[i].err))
				fail_msg("case %zu: %s: got %d '%s', wanted '%s'", i,
					 docs[i].doc, r, err.buf, docs[i].err);
			if (v != (void *)&err || n != 12345)
				fail_msg("case %zu: ret touched on failure", i);
		}
		strbuf_release(&err);
	}
}

/* what a file says is quoted in errors: one printable line, of a sane length */
static void test_error_text(void **state)
{
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	struct run_record *v;
	size_t n;

	(void)state;
	strbuf_adds(&doc, "{\"usbperf_export\":1,\"runs\":[{\"id\":\"r1\",\"bad\\nkey\\u001b[2J");
	strbuf_pad(&doc, 'x', 5000);
	strbuf_adds(&doc, "\":1}]}");
	assert_int_equal(run_export_parse(doc.buf, doc.len, &v, &n, &err), -EINVAL);
	assert_true(err.len <= 240);
	assert_non_null(strstr(err.buf, "runs[0]: unknown key 'bad?key?[2Jxxx"));
	assert_string_equal(err.buf + err.len - 3, "...");
	for (size_t i = 0; i < err.len; i++)
		assert_true(err.buf[i] >= 0x20 && err.buf[i] != 0x7f);
	strbuf_release(&doc);
	strbuf_release(&err);
}

/* what report and check accept: a record, an export, the report of run -F json */
static void test_any_document(void **state)
{
	static const char *const rec =
		"{\"id\":\"r1\",\"started_at\":\"2026-11-30T05:12:00Z\",\"duration_s\":1,"
		"\"command_line\":\"usbperf run\",\"env\":{\"hostname\":\"b\"},"
		"\"devices\":[{\"key\":\"2-1\"}],\"metrics\":[{\"device_key\":\"2-1\","
		"\"test\":\"disk\",\"name\":\"seq-read 1M\",\"metric\":\"mb_s\","
		"\"unit\":\"MB/s\",\"value\":36.5,\"repeats\":1,\"higher_is_better\":true}],\"findings\":[]}";
	static const char *const report =
		"{\"usbperf\":\"0.1.0\",\"command\":\"run\",\"run\":{\"id\":\"r2\","
		"\"started_at\":\"2026-11-30T05:12:00Z\",\"duration_s\":1,\"hostname\":\"b\","
		"\"kernel\":\"6.1\",\"command_line\":\"usbperf run\"},\"plan\":[],\"results\":[],"
		"\"devices\":[{\"key\":\"2-1\"}],\"metrics\":[],\"findings\":[],\"warnings\":[]}";
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	struct run_record *v;
	size_t n;

	(void)state;
	if (run_document_parse(rec, strlen(rec), &v, &n, &err) != 0)
		fail_msg("record refused: %s", err.buf);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].id, "r1");
	assert_int_equal(v[0].nmetrics, 1);
	assert_true(v[0].metrics[0].value == 36.5);
	/* written before the passes were sampled: no samples, no sample figures */
	assert_int_equal(v[0].metrics[0].samples, 0);
	assert_nan(v[0].metrics[0].sample_stdev);
	assert_nan(v[0].metrics[0].sample_mean);
	run_records_free(v, n);

	if (run_document_parse(report, strlen(report), &v, &n, &err) != 0)
		fail_msg("run report refused: %s", err.buf);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].id, "r2");
	assert_string_equal(v[0].env.kernel, "6.1");
	assert_string_equal(v[0].env.hostname, "b");
	run_records_free(v, n);

	strbuf_addf(&doc, "{\"usbperf_export\":1,\"runs\":[%s]}", rec);
	assert_int_equal(run_document_parse(doc.buf, doc.len, &v, &n, &err), 0);
	assert_int_equal(n, 1);
	run_records_free(v, n);

	assert_int_equal(run_document_parse("[1]", 3, &v, &n, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "a JSON array [...] where an object"));
	strbuf_reset(&err);
	assert_int_equal(run_document_parse("{\"command\":\"list\"}", 18, &v, &n, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "not a usbperf run"));
	strbuf_reset(&err);
	/* a run report with a field the record does not know names it */
	strbuf_reset(&doc);
	strbuf_adds(&doc, report);
	*strstr(doc.buf, "\"hostname\"") = 'X';
	assert_int_equal(run_document_parse(doc.buf, doc.len, &v, &n, &err), -EINVAL);
	strbuf_release(&doc);
	strbuf_release(&err);
}

/* -0 is written as 0: "-0" would read back as an integer and not write the same */
static void test_negative_zero(void **state)
{
	struct run_record r;
	struct json_object *o, *m, *v;

	(void)state;
	sample_run(&r, "z", "2026-11-30T05:12:00Z");
	r.metrics[0].min = -0.0;
	assert_int_equal(run_record_to_json(&r, &o), 0);
	m = json_object_array_get_idx(json_object_object_get(o, "metrics"), 0);
	v = json_object_object_get(m, "min");
	assert_string_equal(json_object_to_json_string(v), "0");
	json_object_put(o);
	run_record_release(&r);
}

/* run_record_from_json on its own leaves ret alone on failure */
static void test_from_json_untouched(void **state)
{
	struct json_object *o = json_tokener_parse("{\"id\":\"x\"}");
	struct run_record r;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(run_record_from_json(o, &r, &err), -EINVAL);
	assert_string_equal(err.buf, "no 'env' object");
	assert_int_equal(((unsigned char *)&r)[0], 0x5a);
	json_object_put(o);
	strbuf_release(&err);
}

/* what the store also refuses, straight from a record */
static void test_validate(void **state)
{
	struct run_record r;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	sample_run(&r, "ok", "2026-11-30T05:12:00Z");
	assert_int_equal(run_record_validate(&r, &err), 0);
	r.metrics[0].repeats = 0;
	assert_int_equal(run_record_validate(&r, &err), -EINVAL);
	assert_string_equal(err.buf, "metrics[0]: 'repeats' is not a count of 1 or more");
	r.metrics[0].repeats = 2;
	r.metrics[0].samples = (uint64_t)INT64_MAX + 1;
	assert_int_equal(run_record_validate(&r, &err), -EINVAL);
	assert_string_equal(err.buf, "metrics[0]: 'samples' is not a count");
	r.metrics[0].samples = 0; /* and its sample figures still there */
	assert_int_equal(run_record_validate(&r, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "without 'samples'"));
	r.metrics[0].samples = 24;
	r.devices[1].product = strdup("bell\a");
	assert_int_equal(run_record_validate(&r, NULL), -EINVAL);
	run_record_release(&r);
	assert_true(run_id_valid("20261130T051200Z-3f2a"));
	assert_true(run_id_valid("a.b:c+d_e"));
	assert_false(run_id_valid(""));
	assert_false(run_id_valid(NULL));
	assert_false(run_id_valid("a/b"));
	strbuf_release(&err);
}

/*
 * Verdicts, notes and unmeasured devices: absent in an older file (none),
 * read from run -F json's report, refused when incomplete.
 */
static void test_later_parts(void **state)
{
	static const char *const report =
		"{\"usbperf\":\"0.1.0\",\"command\":\"run\",\"verdicts\":[{\"device_key\":"
		"\"2-1\",\"limiter\":\"bus\",\"evidence\":\"seq-read 1M 41.9 MB/s is 79 % of "
		"high-speed bulk's 53.2 MB/s ceiling\",\"share_pct\":78.7}],\"run\":{\"id\":\"r2\","
		"\"started_at\":\"2026-11-30T05:12:00Z\",\"duration_s\":1},\"plan\":[],"
		"\"results\":[],\"devices\":[{\"key\":\"2-1\"}],\"unmeasured\":[{\"key\":\"2-2\","
		"\"kind\":\"usb-net\",\"name\":\"eth1\",\"why\":\"needs --peer\"}],\"metrics\":[],"
		"\"findings\":[{\"severity\":\"info\",\"id\":\"run.bus_bound\",\"subject\":\"2-1\","
		"\"message\":\"bus-bound\",\"about\":\"2-1\"}],\"notes\":[{\"text\":\"passes "
		"lasted under 0.5 s\"}],\"warnings\":[\"passes lasted under 0.5 s\"]}";
	static const char *const old =
		"{\"id\":\"r1\",\"started_at\":\"2026-11-30T05:12:00Z\",\"env\":{},"
		"\"devices\":[],\"metrics\":[],\"findings\":[]}";
	struct strbuf doc = STRBUF_INIT, err = STRBUF_INIT;
	struct run_record *v;
	size_t n;

	(void)state;
	if (run_document_parse(report, strlen(report), &v, &n, &err) != 0)
		fail_msg("run report refused: %s", err.buf);
	assert_int_equal(v[0].nverdicts, 1);
	assert_string_equal(v[0].verdicts[0].limiter, "bus");
	assert_true(v[0].verdicts[0].share_pct == 78.7);
	assert_int_equal(v[0].nnotes, 1);
	assert_string_equal(v[0].notes[0].text, "passes lasted under 0.5 s");
	assert_int_equal(v[0].nunmeasured, 1);
	assert_string_equal(v[0].unmeasured[0].why, "needs --peer");
	assert_string_equal(v[0].findings.v[0].about, "2-1");
	run_records_free(v, n);

	assert_int_equal(run_document_parse(old, strlen(old), &v, &n, &err), 0);
	assert_int_equal(v[0].nverdicts + v[0].nnotes + v[0].nunmeasured, 0);
	run_records_free(v, n);

	/* a verdict needs its limiter, an unmeasured device its why */
	strbuf_adds(&doc, report);
	memcpy(strstr(doc.buf, "\"limiter\""), "\"limitex\"", 9);
	assert_int_equal(run_document_parse(doc.buf, doc.len, &v, &n, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "verdicts[0]: unknown key 'limitex'"));
	strbuf_reset(&doc);
	strbuf_reset(&err);
	strbuf_adds(&doc, report);
	memcpy(strstr(doc.buf, "\"needs --peer\""), "null          ", 14);
	assert_int_equal(run_document_parse(doc.buf, doc.len, &v, &n, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "unmeasured[0]: 'device' and 'why' are needed"));
	strbuf_reset(&doc);
	strbuf_reset(&err);
	strbuf_adds(&doc, report);
	memcpy(strstr(doc.buf, "\"notes\":["), "\"notes\":7", 9);
	assert_int_equal(run_document_parse(doc.buf, doc.len, &v, &n, &err), -EINVAL);
	strbuf_release(&doc);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_documents),
		cmocka_unit_test(test_any_document),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_negative_zero),
		cmocka_unit_test(test_from_json_untouched),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_later_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

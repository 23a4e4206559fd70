// SPDX-License-Identifier: MIT
/* render: one field table drives text, CSV and JSON; checked against exact output. */
#include "unit.h"
#include "model/findings.h"
#include "model/record_fields.h"
#include "run/run.h"
#include "render/render.h"
#include "render/svg.h"
#include "version.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct item {
	const char *name;
	const char *note;
	uint64_t count;
	double rate;
	double rate_sd;
	bool ok;
	uint64_t size;
	uint64_t hidden;
};

static const struct field item_fields[] = {
	FIELD(struct item, name, "name", "pass", NULL, FT_STR, 0, FF_TEXT),
	FIELD(struct item, note, "note", "note", NULL, FT_STR, 0, FF_TEXT),
	FIELD(struct item, count, "count", "n", NULL, FT_U64, 0, FF_TEXT),
	FIELD(struct item, rate, "rate_mb_s", "rate", "MB/s", FT_DBL, 1, FF_TEXT),
	FIELD(struct item, rate_sd, "rate_mb_s_stdev", "sd", "MB/s", FT_DBL, 1,
	      FF_TEXT | FF_PLUSMINUS),
	FIELD(struct item, ok, "ok", "ok", NULL, FT_BOOL, 0, FF_TEXT),
	FIELD(struct item, size, "bs_bytes", "bs", NULL, FT_SIZE, 0, FF_TEXT),
	FIELD(struct item, hidden, "hidden", "hidden", NULL, FT_U64, 0, 0),
};

struct info {
	const char *target;
	const char *fs;
	uint64_t size;
	double limit;
	double cached;
	bool verify;
	uint64_t seed;
};

static const struct field info_fields[] = {
	FIELD(struct info, target, "target", "target", NULL, FT_STR, 0, FF_TEXT),
	FIELD(struct info, fs, "fs_type", "filesystem", NULL, FT_STR, 0, FF_TEXT),
	FIELD(struct info, size, "size_bytes", "region", NULL, FT_SIZE, 0, FF_TEXT),
	FIELD(struct info, limit, "time_limit_s", "time limit", "s per pass", FT_DBL, 1, FF_TEXT),
	FIELD(struct info, cached, "cached_pct", "cached", "%", FT_DBL, 1, FF_TEXT),
	FIELD(struct info, verify, "verify", "verify", NULL, FT_BOOL, 0, FF_TEXT),
	FIELD(struct info, seed, "seed", "seed", NULL, FT_U64, 0, 0),
};

static const struct record_desc item_desc = RECORD_DESC("item", item_fields);
static const struct record_desc info_desc = RECORD_DESC("info", info_fields);

static const struct item rows[2] = {
	{"seq-read 1M", "warm", 42, 123.456, 1.25, true, 1 << 20, 7},
	{"rand, \"4K\"", NULL, UINT64_MAX - 1, NAN, NAN, false, 4097, 8},
};
static const struct info info = {"/mnt/usb", NULL, 128ULL << 20, 5, NAN, true, 99};
static char *const warnings[] = {"first warning", "second: 'x'"};

static void build_report(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->command = "disk";
	r->warnings = warnings;
	r->nwarnings = 2;
	report_add_object(r, "target", NULL, &info_desc, &info);
	report_add_table(r, "results", "results", &item_desc, rows, 2, sizeof(rows[0]));
}

static const char want_text[] =
	"  target      /mnt/usb\n"
	"  region      128 MiB\n"
	"  time limit  5.0 s per pass\n"
	"  cached      -\n"
	"  verify      yes\n"
	"\n"
	"results\n"
	"pass         note                     n        rate  ok       bs\n"
	"                                               MB/s\n"
	"seq-read 1M  warm                    42  123.5 ±1.2  yes   1 MiB\n"
	"rand, \"4K\"   -     18446744073709551614           -  no   4097 B\n"
	"\n"
	"warning: first warning\n"
	"warning: second: 'x'\n";

static const char want_csv[] =
	"name,note,count,rate_mb_s,rate_mb_s_stdev,ok,bs_bytes,hidden\n"
	"seq-read 1M,warm,42,123.4560,1.2500,yes,1048576,7\n"
	"\"rand, \"\"4K\"\"\",,18446744073709551614,,,no,4097,8\n";

static void test_text_exact(void **state)
{
	struct strbuf out = STRBUF_INIT, via = STRBUF_INIT;
	struct report r;

	(void)state;
	build_report(&r);
	strbuf_adds(&out, ">"); /* renderers append */
	assert_int_equal(render_text(&r, &out), 0);
	assert_int_equal(out.buf[0], '>');
	assert_string_equal(out.buf + 1, want_text);
	assert_int_equal(render(&r, FORMAT_TEXT, &via), 0);
	assert_string_equal(via.buf, want_text);
	strbuf_release(&out);
	strbuf_release(&via);
}

static void test_csv_exact(void **state)
{
	struct strbuf out = STRBUF_INIT, via = STRBUF_INIT;
	struct report r;

	(void)state;
	build_report(&r);
	assert_int_equal(render_csv(&r, &out), 0);
	assert_string_equal(out.buf, want_csv);
	assert_int_equal(render(&r, FORMAT_CSV, &via), 0);
	assert_string_equal(via.buf, want_csv);
	strbuf_release(&out);
	strbuf_release(&via);
}

static void test_csv_quoting(void **state)
{
	static const struct {
		const char *value, *cell;
	} cases[] = {
		{"plain", "plain"},
		{"a,b", "\"a,b\""},
		{"say \"hi\"", "\"say \"\"hi\"\"\""},
		{"two\nlines", "\"two\nlines\""},
		{"cr\r", "\"cr\r\""},
		{"\"", "\"\"\"\""},
		{"", ""},
		{NULL, ""},
	};
	static const struct field f[] = {
		FIELD(struct item, name, "name", "name", NULL, FT_STR, 0, FF_TEXT),
		FIELD(struct item, count, "count", "n", NULL, FT_U64, 0, FF_TEXT),
	};
	static const struct record_desc d = RECORD_DESC("q", f);
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct item it = {.name = cases[i].value, .count = 3};
		struct report r = {.command = "x"};
		struct strbuf out = STRBUF_INIT;

		report_add_table(&r, "t", NULL, &d, &it, 1, sizeof(it));
		assert_int_equal(render_csv(&r, &out), 0);
		snprintf(want, sizeof(want), "name,count\n%s,3\n", cases[i].cell);
		assert_string_equal(out.buf, want);
		strbuf_release(&out);
	}
}

static void test_csv_needs_a_table(void **state)
{
	struct report r = {.command = "x"};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	report_add_object(&r, "target", NULL, &info_desc, &info);
	assert_int_equal(render_csv(&r, &out), -EINVAL);
	strbuf_release(&out);
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("JSON key '%s' missing", key);
	return v;
}

static void assert_json_string(json_object *o, const char *key, const char *want)
{
	json_object *v = get(o, key);

	assert_true(json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), want);
}

static void assert_json_int(json_object *o, const char *key, uint64_t want)
{
	json_object *v = get(o, key);

	assert_true(json_object_is_type(v, json_type_int));
	assert_int_equal(json_object_get_uint64(v), want);
}

static void assert_json_null(json_object *o, const char *key)
{
	if (get(o, key) != NULL)
		fail_msg("JSON '%s' = %s, expected null", key,
			 json_object_to_json_string(get(o, key)));
}

static void test_json(void **state)
{
	struct strbuf out = STRBUF_INIT;
	json_object *root, *t, *res, *row, *w;
	struct report r;

	(void)state;
	build_report(&r);
	assert_int_equal(render_json(&r, &out), 0);
	assert_int_equal(out.buf[out.len - 1], '\n');
	root = json_tokener_parse(out.buf);
	assert_non_null(root);
	assert_true(json_object_is_type(root, json_type_object));
	assert_json_string(root, "usbperf", USBPERF_VERSION);
	assert_json_string(root, "command", "disk");

	t = get(root, "target");
	assert_true(json_object_is_type(t, json_type_object));
	assert_json_string(t, "target", "/mnt/usb");
	assert_json_null(t, "fs_type");
	assert_json_int(t, "size_bytes", 128ULL << 20);
	assert_true(json_object_is_type(get(t, "time_limit_s"), json_type_double));
	assert_near(json_object_get_double(get(t, "time_limit_s")), 5.0, 0);
	assert_json_null(t, "cached_pct");
	assert_true(json_object_is_type(get(t, "verify"), json_type_boolean));
	assert_true(json_object_get_boolean(get(t, "verify")));
	assert_json_int(t, "seed", 99); /* not shown in text, still in JSON */
	assert_int_equal(json_object_object_length(t), ARRAY_SIZE(info_fields));

	res = get(root, "results");
	assert_true(json_object_is_type(res, json_type_array));
	assert_int_equal(json_object_array_length(res), 2);
	row = json_object_array_get_idx(res, 0);
	assert_int_equal(json_object_object_length(row), ARRAY_SIZE(item_fields));
	assert_json_string(row, "name", "seq-read 1M");
	assert_json_string(row, "note", "warm");
	assert_json_int(row, "count", 42);
	assert_near(json_object_get_double(get(row, "rate_mb_s")), 123.456, 1e-9);
	assert_near(json_object_get_double(get(row, "rate_mb_s_stdev")), 1.25, 1e-9);
	assert_true(json_object_get_boolean(get(row, "ok")));
	assert_json_int(row, "bs_bytes", 1 << 20);
	assert_json_int(row, "hidden", 7);
	row = json_object_array_get_idx(res, 1);
	assert_json_string(row, "name", "rand, \"4K\"");
	assert_json_null(row, "note");
	/* above 2^53 a double rounds it (jq, JavaScript): the digits as a string (29.2.6) */
	assert_json_string(row, "count", "18446744073709551614");
	assert_json_null(row, "rate_mb_s");
	assert_json_null(row, "rate_mb_s_stdev");
	assert_true(json_object_is_type(get(row, "ok"), json_type_boolean));
	assert_false(json_object_get_boolean(get(row, "ok")));
	assert_json_int(row, "bs_bytes", 4097);

	w = get(root, "warnings");
	assert_true(json_object_is_type(w, json_type_array));
	assert_int_equal(json_object_array_length(w), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(w, 0)),
			    "first warning");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(w, 1)),
			    "second: 'x'");
	json_object_put(root);
	strbuf_release(&out);
}

static void test_json_no_warnings_empty_table(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct report r = {.command = "disk"};
	json_object *root, *w, *res;

	(void)state;
	report_add_table(&r, "results", NULL, &item_desc, rows, 0, sizeof(rows[0]));
	assert_int_equal(render(&r, FORMAT_JSON, &out), 0);
	root = json_tokener_parse(out.buf);
	assert_non_null(root);
	/* always present, so consumers need no existence checks */
	w = get(root, "warnings");
	assert_true(json_object_is_type(w, json_type_array));
	assert_int_equal(json_object_array_length(w), 0);
	res = get(root, "results");
	assert_true(json_object_is_type(res, json_type_array));
	assert_int_equal(json_object_array_length(res), 0);
	json_object_put(root);
	strbuf_release(&out);
}

static void test_text_skips_empty_table(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct report r = {.command = "disk"};

	(void)state;
	report_add_object(&r, "target", NULL, &info_desc, &info);
	report_add_table(&r, "empty", "never shown", &item_desc, rows, 0, sizeof(rows[0]));
	report_add_table(&r, "results", NULL, &item_desc, rows, 1, sizeof(rows[0]));
	assert_int_equal(render_text(&r, &out), 0);
	assert_null(strstr(out.buf, "never shown"));
	assert_null(strstr(out.buf, "\n\n\n"));
	assert_non_null(strstr(out.buf, "  verify      yes\n\npass "));
	/* no warnings: no trailing blank line */
	assert_int_not_equal(out.buf[out.len - 2], '\n');
	strbuf_release(&out);
}

static void test_field_format(void **state)
{
	static const struct {
		size_t field;
		bool human;
		const char *want;
	} cases[] = {
		{0, true, "seq-read 1M"},
		{1, true, "warm"},
		{2, true, "42"},
		{3, true, "123.5"},
		{3, false, "123.4560"}, /* machine formats: 3 more digits */
		{4, true, "1.2"},
		{5, true, "yes"},
		{5, false, "yes"},
		{6, true, "1 MiB"},
		{6, false, "1048576"},
		{7, false, "7"},
	};
	static const struct {
		size_t field;
		bool human;
		const char *want;
	} unknown[] = {
		/* unknown: "-" for people, empty for machines */
		{1, true, "-"}, {3, true, "-"}, {3, false, ""}, {5, true, "no"}, {6, true, "4097 B"},
	};
	struct strbuf v = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&v);
		field_format(&item_fields[cases[i].field], &rows[0], cases[i].human, &v);
		if (strcmp(v.buf, cases[i].want))
			fail_msg("field %s (human %d) = \"%s\", expected \"%s\"",
				 item_fields[cases[i].field].key, cases[i].human, v.buf,
				 cases[i].want);
	}
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		strbuf_reset(&v);
		field_format(&item_fields[unknown[i].field], &rows[1], unknown[i].human, &v);
		if (strcmp(v.buf, unknown[i].want))
			fail_msg("row 2 field %s (human %d) = \"%s\", expected \"%s\"",
				 item_fields[unknown[i].field].key, unknown[i].human, v.buf,
				 unknown[i].want);
	}
	{
		/* U64_UNKNOWN is unknown for integers and sizes */
		struct item r = rows[0];

		r.count = U64_UNKNOWN;
		r.size = U64_UNKNOWN;
		assert_false(field_known(&item_fields[2], &r));
		assert_false(field_known(&item_fields[6], &r));
		strbuf_reset(&v);
		field_format(&item_fields[6], &r, true, &v);
		assert_string_equal(v.buf, "-");
	}
	strbuf_release(&v);
}

/* FT_INT: signed sysfs values (autosuspend -1), and an unknown that is null, "-" and "" */
static void test_int_field(void **state)
{
	struct num {
		int64_t v;
	};
	static const struct field f[] = {
		FIELD(struct num, v, "autosuspend_s", "autosuspend", "s", FT_INT, 0, FF_TEXT),
	};
	static const struct record_desc d = RECORD_DESC("num", f);
	static const struct num rows3[] = {{-1}, {FIELD_INT_UNKNOWN}, {INT64_MAX}};
	struct strbuf out = STRBUF_INIT;
	struct report r = {.command = "x"};
	json_object *root, *a;

	(void)state;
	report_add_object(&r, "one", NULL, &d, &rows3[1]);
	report_add_table(&r, "t", NULL, &d, rows3, 3, sizeof(rows3[0]));
	assert_int_equal(render_text(&r, &out), 0);
	assert_string_equal(out.buf, "  autosuspend  -\n"
				     "\n"
				     "        autosuspend\n"
				     "                  s\n"
				     "                 -1\n"
				     "                  -\n"
				     "9223372036854775807\n");
	strbuf_reset(&out);
	assert_int_equal(render_csv(&r, &out), 0);
	assert_string_equal(out.buf, "autosuspend_s\n-1\n\n9223372036854775807\n");
	strbuf_reset(&out);
	assert_int_equal(render_json(&r, &out), 0);
	root = json_tokener_parse(out.buf);
	assert_non_null(root);
	assert_json_null(get(root, "one"), "autosuspend_s");
	a = get(root, "t");
	assert_true(json_object_is_type(get(json_object_array_get_idx(a, 0), "autosuspend_s"),
					json_type_int));
	assert_int_equal(json_object_get_int64(get(json_object_array_get_idx(a, 0), "autosuspend_s")),
			 -1);
	assert_json_null(json_object_array_get_idx(a, 1), "autosuspend_s");
	assert_int_equal(json_object_get_int64(get(json_object_array_get_idx(a, 2), "autosuspend_s")),
			 INT64_MAX);
	json_object_put(root);
	strbuf_release(&out);
}

static void test_format_parse(void **state)
{
	enum output_format f = FORMAT_CSV;

	(void)state;
	assert_int_equal(format_parse("text", &f), 0);
	assert_int_equal(f, FORMAT_TEXT);
	assert_int_equal(format_parse("json", &f), 0);
	assert_int_equal(f, FORMAT_JSON);
	assert_int_equal(format_parse("csv", &f), 0);
	assert_int_equal(f, FORMAT_CSV);
	assert_int_equal(format_parse("JSON", &f), -EINVAL);
	assert_int_equal(format_parse("", &f), -EINVAL);
	assert_int_equal(format_parse("xml", &f), -EINVAL);
	assert_int_equal(f, FORMAT_CSV); /* untouched on failure */
}

/* one vocabulary: a key's label and unit, and precision by magnitude */
static void test_metric_vocab(void **state)
{
	static const struct {
		const char *key, *label, *unit;
	} want[] = {
	    {"mb_s", "rate", "MB/s"},
	    {"mbit_s", "rate", "Mbit/s"},
	    {"mib_s", "rate", "MiB/s"},
	    {"lat_p99_us", "p99", "us"},
	    {"iops", "IOPS", NULL},
	    {"self_cpu_pct", "cpu", "% of one CPU"},
	    {"cpu_sys_pct", "sys CPU", "% of all CPUs"},
	    {"irq_per_mb", "interrupts", "IRQ/MB"},
	    {"retransmits", "retransmits", "segments"},
	};
	struct metric_vocab v;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		v = metric_vocab(want[i].key, "ignored");
		assert_string_equal(v.label, want[i].label);
		if (want[i].unit)
			assert_string_equal(v.unit, want[i].unit);
		else
			assert_null(v.unit);
	}
	/* an unknown key keeps its own name and the unit it came with */
	v = metric_vocab("frobs_per_s", "frob/s");
	assert_string_equal(v.label, "frobs_per_s");
	assert_string_equal(v.unit, "frob/s");
	/* the run table's headers are the same words */
	for (size_t i = 0; i < run_row_desc.nfields; i++) {
		const struct field *f = &run_row_desc.fields[i];

		v = metric_vocab(f->key, NULL);
		if (v.label == f->key)
			continue;
		assert_string_equal(v.label, f->header);
		if (f->unit)
			assert_string_equal(v.unit, f->unit);
		else
			assert_null(v.unit);
	}
	/* about four significant digits: 1.216 and 1.2 are both "1.2x", never "1" */
	assert_int_equal(metric_prec(1.216), 2);
	assert_int_equal(metric_prec(484.848), 1);
	assert_int_equal(metric_prec(3878.8), 0);
	assert_int_equal(metric_prec(0.5), 3);
	assert_int_equal(metric_prec(-12.5), 2);
	metric_format(&out, 1.216);
	strbuf_adds(&out, " ");
	metric_format(&out, 484.848);
	strbuf_adds(&out, " ");
	metric_format(&out, NAN);
	assert_string_equal(out.buf, "1.22 484.8 -");
	strbuf_release(&out);
}

/* the sweep chart's axis and lines: log past a 20x span, no line over an unmeasured size */
static void test_chart_decisions(void **state)
{
	static const uint64_t quick[] = {4096, 65536, 1 << 20};
	static const uint64_t mixed[] = {4096, 16384, 65536, 1 << 20};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_false(svg_log_axis(10, 200)); /* exactly 20x: linear */
	assert_true(svg_log_axis(10, 201));
	assert_true(svg_log_axis(7.9, 1450)); /* 4K next to 1M on a fast disk */
	assert_false(svg_log_axis(150, 182));
	assert_false(svg_log_axis(0, 500)); /* no positive low end: nothing to log */
	assert_false(svg_log_axis(NAN, 500));

	assert_true(svg_joined(4096, 65536, quick, 3));	 /* the quick sweep's step */
	assert_false(svg_joined(4096, 65536, mixed, 4)); /* 16K measured elsewhere */
	assert_true(svg_joined(16384, 65536, mixed, 4));
	assert_false(svg_joined(4096, 1 << 20, quick, 1)); /* a pass missing: 256x */
	assert_false(svg_joined(0, 4096, quick, 3));

	assert_true(svg_impossible(182.4, 1.216));
	assert_false(svg_impossible(1.1, 1.216));
	assert_false(svg_impossible(1.216, 1.216)); /* at the ceiling is possible */
	assert_false(svg_impossible(182.4, NAN));
	ceiling_format(&out, 1.216, "MB/s");
	assert_string_equal(out.buf, "bus ceiling 1.22 MB/s");
	strbuf_release(&out);
}

/* show's metrics table: labels and units from the vocabulary, decimals by magnitude */
static void test_metrics_text(void **state)
{
	struct run_record r = {0};
	struct run_metric *m;
	struct report rep = {.command = "show"};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	m = run_record_add_metric(&r, "net:127.0.0.1", "net", "tcp send", "mbit_s", "Mbit/s", true);
	m->value = 9801.81, m->stdev = m->min = m->max = NAN, m->repeats = 1;
	m = run_record_add_metric(&r, "2-2", "disk", "seq-write 1M", "mb_s", "MB/s", true);
	m->value = 52.1, m->stdev = 0.5, m->min = 51.6, m->max = 52.6, m->repeats = 3;
	m = run_record_add_metric(&r, "2-2", "disk", "seq-write 1M", "lat_p99_us", "us", false);
	m->value = 812.54, m->stdev = 15.2, m->min = m->max = NAN, m->repeats = 3;
	report_add_table(&rep, "metrics", "metrics", &run_metric_desc, r.metrics, r.nmetrics,
			 sizeof(*r.metrics));
	assert_int_equal(render_text(&rep, &out), 0);
	assert_string_equal(
	    out.buf,
	    "metrics\n"
	    "device         test  pass          metric        value    min    max  unit    n\n"
	    "net:127.0.0.1  net   tcp send      rate           9802      -      -  Mbit/s  1\n"
	    "2-2            disk  seq-write 1M  rate    52.10 \u00b10.50  51.60  52.60  MB/s    3\n"
	    "2-2            disk  seq-write 1M  p99     812.5 \u00b115.2      -      -  us      "
	    "3\n");
	assert_null(strstr(out.buf, "mbit_s"));
	strbuf_reset(&out);
	/* CSV keeps the keys and every digit: it is for machines */
	assert_int_equal(render_csv(&rep, &out), 0);
	assert_non_null(strstr(out.buf, ",mbit_s,9801.81"));
	strbuf_release(&out);
	run_record_release(&r);
}

/* 29.2.4: a share above its ceiling is an anomaly everywhere, never a share to read */
struct share {
	const char *name;
	double pct;
};
static const struct field share_fields[] = {
	FIELD(struct share, name, "name", "pass", NULL, FT_STR, 0, FF_TEXT),
	FIELD(struct share, pct, "share_pct", "of ceiling", "%", FT_DBL, 1, FF_TEXT | FF_CEILING_SHARE),
};
static const struct record_desc share_desc = RECORD_DESC("share", share_fields);

static void test_ceiling_share_anomaly(void **state)
{
	const struct share pts[] = {{"in-64K", 207.59}, {"out-64K", 61.25}, {"in-4K", NAN}};
	struct report r = {.command = "t"};
	struct strbuf out = STRBUF_INIT;
	json_object *root, *a;

	(void)state;
	report_add_table(&r, "points", NULL, &share_desc, pts, 3, sizeof(pts[0]));
	assert_int_equal(render_text(&r, &out), 0);
	assert_string_equal(out.buf, "pass     of ceiling\n"
				     "                  %\n"
				     "in-64K      anomaly\n"
				     "out-64K        61.2\n"
				     "in-4K             -\n"
				     "  " FIELD_ANOMALY_NOTE "\n");
	assert_null(strstr(out.buf, "207"));
	strbuf_reset(&out);
	assert_int_equal(render_csv(&r, &out), 0);
	assert_string_equal(out.buf, "name,share_pct,share_pct_anomaly\n"
				     "in-64K,,true\n"
				     "out-64K,61.2500,false\n"
				     "in-4K,,false\n");
	strbuf_reset(&out);
	assert_int_equal(render_json(&r, &out), 0);
	root = json_tokener_parse(out.buf);
	a = get(root, "points");
	assert_true(json_object_is_type(get(json_object_array_get_idx(a, 0), "share_pct"), json_type_null));
	assert_true(json_object_get_boolean(get(json_object_array_get_idx(a, 0), "share_pct_anomaly")));
	assert_true(json_object_get_double(get(json_object_array_get_idx(a, 1), "share_pct")) == 61.25);
	assert_false(json_object_get_boolean(get(json_object_array_get_idx(a, 1), "share_pct_anomaly")));
	json_object_put(root);
	strbuf_release(&out);
}

/* 29.2.8: the clause many passes share, said once, their figures as ranges */
static void test_evidence_groups(void **state)
{
	static const char *const names[] = {"seq-read 4K", "seq-read 64K", "seq-read 1M",
					    "seq-write 4K", "rand-write 4K Q32"};
	struct evidence_groups g = {0};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < 5; i++)
		evidence_add(&g, "CPU 1", names[i], (double[]){100 - (double)i, 5}, 2);
	evidence_add(&g, "CPU 0", "rand-read 4K Q1", (double[]){70, 12}, 2);
	evidence_render(&g, "{k} {0} % in irq+softirq, the others {1} % busy", &out);
	assert_string_equal(out.buf, "5 passes (seq-read 4K to rand-write 4K Q32): CPU 1 96-100 % in "
				     "irq+softirq, the others 5 % busy; rand-read 4K Q1: CPU 0 70 % in "
				     "irq+softirq, the others 12 % busy");
	evidence_release(&g);
	strbuf_reset(&out);
	g.name_all = true;
	for (size_t i = 0; i < 5; i++)
		evidence_add(&g, "", names[i], (double[]){80}, 1);
	evidence_render(&g, "{0} % cached", &out);
	assert_string_equal(out.buf, "seq-read 4K, seq-read 64K, seq-read 1M, seq-write 4K and "
				     "rand-write 4K Q32: 80 % cached");
	evidence_release(&g);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_exact),
		cmocka_unit_test(test_csv_exact),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_csv_needs_a_table),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_no_warnings_empty_table),
		cmocka_unit_test(test_text_skips_empty_table),
		cmocka_unit_test(test_field_format),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_int_field),
		cmocka_unit_test(test_metric_vocab),
		cmocka_unit_test(test_chart_decisions),
		cmocka_unit_test(test_metrics_text),
		cmocka_unit_test(test_ceiling_share_anomaly),
		cmocka_unit_test(test_evidence_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

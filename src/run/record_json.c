// SPDX-License-Identifier: MIT
/* Run records to and from JSON, driven by the field tables (record_fields.h). */
#include "run/record_json.h"
#include "run/class.h"
#include "model/field_json.h"
#include "model/record_fields.h"
#include "util/jsonin.h"
#include "util/parse.h"
#include "util/xalloc.h"
#include "version.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *field_ptr(const struct field *f, const void *rec)
{
	return (char *)rec + f->offset;
}

/*
 * The archive keeps doubles exact (a report rounds them to what it shows):
 * the shortest of %.15g..%.17g that reads back as the same double.
 */
static struct json_object *dbl_json(double v)
{
	char buf[32];

	if (!isfinite(v))
		return NULL;
	if (v == 0)
		v = 0; /* "-0" would read back as the integer 0 */
	for (int p = 15; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return json_object_new_double_s(v, buf);
}

/* a field's archive value, built by kind; unknown is null */
static int av_str(void *ctx, const struct field *f, const char *v)
{
	(void)f;
	*(struct json_object **)ctx = json_object_new_string(v);
	return 0;
}

static int av_dbl(void *ctx, const struct field *f, double v)
{
	(void)f;
	*(struct json_object **)ctx = dbl_json(v);
	return 0;
}

static struct json_object *field_to_json(const struct field *f, const void *rec)
{
	static const struct field_visitor archive = {
	    .unknown = field_json_null, .str = av_str, .u64 = field_json_u64,
	    .i64 = field_json_i64,	.dbl = av_dbl, .boolean = field_json_bool,
	};
	struct json_object *o = NULL;

	field_visit(f, rec, &archive, &o);
	return o;
}

static struct json_object *fields_to_json(const struct record_desc *d, const void *rec)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < d->nfields; i++) {
		const struct field *f = &d->fields[i];

		if (f->flags & FF_CEILING_SHARE)
			json_share(o, f, rec, field_to_json(f, rec));
		else
			json_object_object_add(o, f->key, field_to_json(f, rec));
	}
	return o;
}

static struct json_object *array_to_json(const struct record_desc *d, const void *v, size_t n,
					 size_t stride)
{
	struct json_object *a = json_object_new_array_ext((int)n);

	for (size_t i = 0; a && i < n; i++)
		json_object_array_add(a, fields_to_json(d, (const char *)v + i * stride));
	return a;
}

int run_record_to_json(const struct run_record *r, struct json_object **ret)
{
	struct json_object *o = fields_to_json(&run_info_desc, r);

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "env", fields_to_json(&run_env_desc, &r->env));
	json_object_object_add(o, "devices", array_to_json(&run_device_desc, r->devices,
							   r->ndevices, sizeof(*r->devices)));
	json_object_object_add(o, "metrics", array_to_json(&run_metric_desc, r->metrics,
							   r->nmetrics, sizeof(*r->metrics)));
	json_object_object_add(o, "findings",
			       array_to_json(&finding_desc, r->findings.v, r->findings.n,
					     sizeof(*r->findings.v)));
	json_object_object_add(
	    o, "verdicts",
	    array_to_json(&run_verdict_desc, r->verdicts, r->nverdicts, sizeof(*r->verdicts)));
	json_object_object_add(
	    o, "notes", array_to_json(&run_note_desc, r->notes, r->nnotes, sizeof(*r->notes)));
	json_object_object_add(o, "unmeasured",
			       array_to_json(&run_unmeasured_desc, r->unmeasured, r->nunmeasured,
					     sizeof(*r->unmeasured)));
	*ret = o;
	return 0;
}

/* ---- reading ---- */

static int str_from_json(struct json_object *v, const struct field *f, void *p, const char *where,
			 struct strbuf *err)
{
	const char *s = json_object_get_string(v);
	size_t len = (size_t)json_object_get_string_len(v);
	char *dup;

	if (!json_object_is_type(v, json_type_string))
		return jsonin_error(err, where, "'%s' is not a string", f->key);
	if (len > RUN_MAX_STRING)
		return jsonin_error(err, where, "'%s' is longer than %d bytes", f->key, RUN_MAX_STRING);
	if (strlen(s) != len)
		return jsonin_error(err, where, "'%s' contains a NUL character", f->key);
	dup = strdup(s);
	if (!dup)
		return -ENOMEM;
	/* a key under its new and its old name both (fields_from_json): the last, as json-c's */
	free(*(char **)p);
	*(char **)p = dup;
	return 0;
}

/* an integer written as its digits (above 2^53, json_u64): read back exactly */
static int int_string_from_json(struct json_object *v, const struct field *f, void *p,
				const char *where, struct strbuf *err)
{
	const char *s = json_object_get_string(v);
	bool neg = s[0] == '-';
	uint64_t u;

	if (f->type == FT_INT && parse_u64(s + neg, 0, INT64_MAX - 1, &u) == 0) {
		*(int64_t *)p = neg ? -(int64_t)u : (int64_t)u;
		return 0;
	}
	if (f->type != FT_INT && parse_u64(s, 0, INT64_MAX, &u) == 0) {
		*(uint64_t *)p = u;
		return 0;
	}
	return jsonin_error(err, where, "'%s' is not an integer", f->key);
}

static int num_from_json(struct json_object *v, const struct field *f, void *p, const char *where,
			 struct strbuf *err)
{
	bool is_int = json_object_is_type(v, json_type_int);

	if (f->type != FT_DBL && json_object_is_type(v, json_type_string))
		return int_string_from_json(v, f, p, where, err);

	if (f->type == FT_DBL) {
		if (!is_int && !json_object_is_type(v, json_type_double))
			return jsonin_error(err, where, "'%s' is not a number", f->key);
		/* json-c reads NaN and Infinity even when strict: JSON has neither */
		if (!isfinite(json_object_get_double(v)))
			return jsonin_error(err, where, "'%s' is not a finite number", f->key);
		*(double *)p = json_object_get_double(v);
		return 0;
	}
	if (!is_int)
		return jsonin_error(err, where, "'%s' is not an integer", f->key);
	if (f->type == FT_INT) {
		/* json-c clamps beyond int64: a clamped value is out of range */
		int64_t i = json_object_get_int64(v);

		if (i == INT64_MAX || i == INT64_MIN)
			return jsonin_error(err, where, "'%s' is out of range", f->key);
		*(int64_t *)p = i;
		return 0;
	}
	if (json_object_get_int64(v) < 0 || json_object_get_uint64(v) > INT64_MAX)
		return jsonin_error(err, where, "'%s' is out of range (0 to 2^63-1)", f->key);
	*(uint64_t *)p = json_object_get_uint64(v);
	return 0;
}

static int field_from_json(struct json_object *v, const struct field *f, void *rec,
			   const char *where, struct strbuf *err)
{
	void *p = field_ptr(f, rec);

	if (f->type == FT_BOOL) {
		if (!json_object_is_type(v, json_type_boolean))
			return jsonin_error(err, where, "'%s' is not true or false", f->key);
		*(bool *)p = json_object_get_boolean(v);
		return 0;
	}
	if (!v) /* null: unknown, as initialised */
		return 0;
	if (f->type == FT_STR)
		return str_from_json(v, f, p, where, err);
	return num_from_json(v, f, p, where, err);
}

/* "share_pct_anomaly": what the writer derived from a share field, not read back */
static bool anomaly_key(const struct record_desc *d, const char *key)
{
	size_t n = strlen(key), suffix = strlen("_anomaly");

	if (n <= suffix || strcmp(key + n - suffix, "_anomaly"))
		return false;
	for (size_t i = 0; i < d->nfields; i++)
		if (d->fields[i].flags & FF_CEILING_SHARE &&
		    strlen(d->fields[i].key) == n - suffix &&
		    !strncmp(d->fields[i].key, key, n - suffix))
			return true;
	return false;
}

static bool in_list(const char *key, const char *const *list)
{
	for (; list && *list; list++)
		if (!strcmp(key, *list))
			return true;
	return false;
}

/*
 * The fields of d from object o into rec (initialised to unknown first);
 * keys in extra belong to the caller; any other key is an error. A boolean
 * has no unknown: it must be there. rec's strings are the caller's to free,
 * also on failure.
 */
static int fields_from_json(struct json_object *o, const struct record_desc *d, void *rec,
			    const char *const *extra, const char *where, struct strbuf *err)
{
	/* an absent key reads as null; of a repeated key, json-c keeps the last */
	fields_set_unknown(d, rec);
	if (!json_object_is_type(o, json_type_object))
		return jsonin_error(err, where, "not an object");
	json_object_object_foreach(o, key, val)
	{
		size_t i;

		for (i = 0; i < d->nfields; i++)
			/* a renamed key under its old name: a file written before the rename */
			if (!strcmp(key, d->fields[i].key) ||
			    (d->fields[i].stored && !strcmp(key, d->fields[i].stored)))
				break;
		if (i < d->nfields) {
			int r = field_from_json(val, &d->fields[i], rec, where, err);

			if (r < 0)
				return r;
		} else if (!in_list(key, extra) && !anomaly_key(d, key)) {
			return jsonin_error(err, where, "unknown key '%s'", key);
		}
	}
	for (size_t i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];

		if (f->type == FT_BOOL && !json_object_object_get_ex(o, f->key, NULL))
			return jsonin_error(err, where, "no '%s'", f->key);
	}
	return 0;
}

static int array_member(struct json_object *o, const char *key, size_t max,
			struct json_object **ret, struct strbuf *err)
{
	struct json_object *a = NULL;

	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
		return jsonin_error(err, NULL, "no '%s' array", key);
	if (json_object_array_length(a) > max)
		return jsonin_error(err, NULL, "more than %zu %s", max, key);
	*ret = a;
	return 0;
}

static int devices_from_json(struct json_object *o, struct run_record *r, struct strbuf *err)
{
	struct json_object *a = NULL;
	char where[32];
	int ret = array_member(o, "devices", RUN_MAX_DEVICES, &a, err);

	for (size_t i = 0; ret == 0 && i < json_object_array_length(a); i++) {
		struct run_device *d = run_record_add_device(r);

		snprintf(where, sizeof(where), "devices[%zu]", i);
		ret = fields_from_json(json_object_array_get_idx(a, i), &run_device_desc, d, NULL,
				       where, err);
	}
	return ret;
}

static int metrics_from_json(struct json_object *o, struct run_record *r, struct strbuf *err)
{
	struct json_object *a = NULL;
	char where[32];
	int ret = array_member(o, "metrics", RUN_MAX_METRICS, &a, err);

	for (size_t i = 0; ret == 0 && i < json_object_array_length(a); i++) {
		struct run_metric *m;

		m = run_record_add_metric(r, NULL, NULL, NULL, NULL, NULL, false);
		snprintf(where, sizeof(where), "metrics[%zu]", i);
		ret = fields_from_json(json_object_array_get_idx(a, i), &run_metric_desc, m, NULL,
				       where, err);
		/* a run written before the passes were sampled: no samples */
		if (m->samples == U64_UNKNOWN)
			m->samples = 0;
	}
	return ret;
}

static void finding_strings_free(struct finding *f)
{
	free((char *)f->severity);
	free(f->id), free(f->subject), free(f->message), free(f->evidence), free(f->fix);
	free(f->about);
}

/* read aside, then finding_add(): the list holds severity as a static string */
static int finding_from_json(struct json_object *o, struct finding_list *l, const char *where,
			     struct strbuf *err)
{
	struct finding t;
	int ret = fields_from_json(o, &finding_desc, &t, NULL, where, err);

	if (ret == 0 && (!t.severity || (strcmp(t.severity, "info") && strcmp(t.severity, "warn"))))
		ret = jsonin_error(err, where, "'severity' is not \"info\" or \"warn\"");
	if (ret == 0) {
		finding_add(l, strcmp(t.severity, "warn") ? FINDING_INFO : FINDING_WARN, t.id,
			    t.subject, t.message, t.evidence, t.fix);
		finding_set_about(&l->v[l->n - 1], t.about);
	}
	finding_strings_free(&t);
	return ret;
}

static int findings_from_json(struct json_object *o, struct run_record *r, struct strbuf *err)
{
	struct json_object *a = NULL;
	char where[32];
	int ret = array_member(o, "findings", RUN_MAX_FINDINGS, &a, err);

	for (size_t i = 0; ret == 0 && i < json_object_array_length(a); i++) {
		snprintf(where, sizeof(where), "findings[%zu]", i);
		ret = finding_from_json(json_object_array_get_idx(a, i), &r->findings, where, err);
	}
	return ret;
}

/*
 * The parts a record gained later (verdicts, notes, unmeasured devices): an
 * older file has none, so an absent array reads as empty.
 */
static int later_part_from_json(struct json_object *o, const char *key, const struct record_desc *d,
				struct run_record *r, void *(*add)(struct run_record *),
				struct strbuf *err)
{
	struct json_object *a = NULL;
	char where[48];
	int ret = 0;

	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	ret = array_member(o, key, RUN_MAX_DEVICES + RUN_MAX_FINDINGS, &a, err);
	for (size_t i = 0; ret == 0 && i < json_object_array_length(a); i++) {
		snprintf(where, sizeof(where), "%s[%zu]", key, i);
		ret =
		    fields_from_json(json_object_array_get_idx(a, i), d, add(r), NULL, where, err);
	}
	return ret;
}

static void *add_verdict(struct run_record *r)
{
	return run_record_add_verdict(r);
}

static void *add_note(struct run_record *r)
{
	r->notes = xgrow(r->notes, &r->nnotes, sizeof(*r->notes));
	return &r->notes[r->nnotes - 1];
}

static void *add_unmeasured(struct run_record *r)
{
	return run_record_add_unmeasured(r);
}

int run_record_from_json(struct json_object *o, struct run_record *ret, struct strbuf *err)
{
	static const char *const parts[] = {"env",	"devices", "metrics",	 "findings",
					    "verdicts", "notes",   "unmeasured", NULL};
	struct run_record r = {.findings = FINDING_LIST_INIT};
	struct json_object *env;
	int rc;

	rc = fields_from_json(o, &run_info_desc, &r, parts, NULL, err);
	fields_set_unknown(&run_env_desc, &r.env);
	if (rc == 0 && !json_object_object_get_ex(o, "env", &env))
		rc = jsonin_error(err, NULL, "no 'env' object");
	if (rc == 0)
		rc = fields_from_json(env, &run_env_desc, &r.env, NULL, "env", err);
	if (rc == 0)
		rc = devices_from_json(o, &r, err);
	if (rc == 0)
		rc = metrics_from_json(o, &r, err);
	if (rc == 0)
		rc = findings_from_json(o, &r, err);
	if (rc == 0)
		rc = later_part_from_json(o, "verdicts", &run_verdict_desc, &r, add_verdict, err);
	if (rc == 0)
		rc = later_part_from_json(o, "notes", &run_note_desc, &r, add_note, err);
	if (rc == 0)
		rc = later_part_from_json(o, "unmeasured", &run_unmeasured_desc, &r, add_unmeasured,
					  err);
	if (rc == 0)
		rc = run_record_validate(&r, err);
	if (rc == 0)
		run_record_upgrade_units(&r);
	if (rc < 0) {
		run_record_release(&r);
		return rc;
	}
	*ret = r;
	return 0;
}

/* ---- export documents ---- */

int run_export_new(struct json_object **ret_doc, struct json_object **ret_runs)
{
	struct json_object *doc = json_object_new_object(), *runs = json_object_new_array();

	if (!doc || !runs) {
		json_object_put(doc);
		json_object_put(runs);
		return -ENOMEM;
	}
	json_object_object_add(doc, "usbperf_export", json_object_new_int(RUN_EXPORT_FORMAT));
	json_object_object_add(doc, "usbperf", json_object_new_string(USBPERF_VERSION));
	json_object_object_add(doc, "runs", runs);
	*ret_doc = doc;
	*ret_runs = runs;
	return 0;
}

void run_records_free(struct run_record *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		run_record_release(&v[i]);
	free(v);
}

static int check_header(struct json_object *root, struct json_object **ret_runs,
			struct strbuf *err)
{
	struct json_object *v;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "usbperf_export", &v) ||
	    !json_object_is_type(v, json_type_int))
		return jsonin_error(err, NULL, "not a usbperf export (no \"usbperf_export\" version)");
	if (json_object_get_int64(v) != RUN_EXPORT_FORMAT)
		return jsonin_error(err, NULL, "export format %lld, this usbperf reads %d",
			    (long long)json_object_get_int64(v), RUN_EXPORT_FORMAT);
	json_object_object_foreach(root, key, val)
	{
		if (!strcmp(key, "usbperf") && !json_object_is_type(val, json_type_string))
			return jsonin_error(err, NULL, "'usbperf' is not a string");
		if (strcmp(key, "usbperf_export") && strcmp(key, "usbperf") && strcmp(key, "runs"))
			return jsonin_error(err, NULL, "unknown key '%s'", key);
	}
	return array_member(root, "runs", RUN_EXPORT_MAX_RUNS, ret_runs, err);
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp((*(const struct run_record *const *)a)->id,
		      (*(const struct run_record *const *)b)->id);
}

/* one file must not say two different things about one run */
static int check_unique_ids(const struct run_record *v, size_t n, struct strbuf *err)
{
	const struct run_record **s;
	int r = 0;

	if (n < 2)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		s[i] = &v[i];
	qsort(s, n, sizeof(*s), cmp_id);
	for (size_t i = 1; i < n && r == 0; i++)
		if (!strcmp(s[i - 1]->id, s[i]->id))
			r = jsonin_error(err, NULL, "run '%s' appears twice", s[i]->id);
	free(s);
	return r;
}

/* every element of runs (NULL: root itself is the one run) read and checked */
static int records_from(struct json_object *root, struct json_object *runs,
			struct run_record **ret, size_t *ret_n, struct strbuf *err)
{
	size_t i, n = runs ? json_object_array_length(runs) : 1;
	struct run_record *v = calloc(n ? n : 1, sizeof(*v));
	int r = v ? 0 : -ENOMEM;

	for (i = 0; r == 0 && i < n; i++) {
		r = run_record_from_json(runs ? json_object_array_get_idx(runs, i) : root, &v[i],
					 err);
		if (r == -EINVAL && err && runs) {
			/* the run's own message, placed in the file */
			char *inner = strbuf_detach(err);

			jsonin_error(err, NULL, "runs[%zu]: %s", i, inner);
			free(inner);
		}
	}
	if (r == 0)
		r = check_unique_ids(v, n, err);
	if (r < 0) {
		/* the run that failed, v[i - 1], was left zeroed */
		run_records_free(v, i);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

int run_export_parse(const char *buf, size_t len, struct run_record **ret, size_t *ret_n,
		     struct strbuf *err)
{
	struct json_object *root = NULL, *runs = NULL;
	int r;

	r = jsonin_parse(buf, len, RUN_EXPORT_MAX_BYTES, &root, err);
	if (r == 0)
		r = check_header(root, &runs, err);
	if (r == 0)
		r = records_from(root, runs, ret, ret_n, err);
	json_object_put(root);
	return r;
}

/*
 * `usbperf run --format json` puts the run's facts and its environment in
 * one "run" object, next to devices, metrics and findings (and the plan and
 * results tables, which the record does not keep): rebuild the record's
 * shape from it.
 */
static int record_from_run_report(struct json_object *root, struct json_object **ret,
				  struct strbuf *err)
{
	static const char *const parts[] = {"devices",	"metrics", "findings",
					    "verdicts", "notes",   "unmeasured"};
	struct json_object *info, *rec, *env, *v;

	if (!json_object_object_get_ex(root, "run", &info) ||
	    !json_object_is_type(info, json_type_object))
		return jsonin_error(err, NULL, "no 'run' object");
	rec = json_object_new_object();
	env = json_object_new_object();
	if (!rec || !env) {
		json_object_put(rec);
		json_object_put(env);
		return -ENOMEM;
	}
	json_object_object_foreach(info, key, val)
	{
		bool mine = false;

		for (size_t i = 0; i < run_info_desc.nfields; i++)
			mine |= !strcmp(run_info_desc.fields[i].key, key);
		json_object_object_add(mine ? rec : env, key, json_object_get(val));
	}
	json_object_object_add(rec, "env", env);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (json_object_object_get_ex(root, parts[i], &v))
			json_object_object_add(rec, parts[i], json_object_get(v));
	*ret = rec;
	return 0;
}

int run_document_parse(const char *buf, size_t len, struct run_record **ret, size_t *ret_n,
		       struct strbuf *err)
{
	struct json_object *root = NULL, *runs = NULL, *rec = NULL, *v;
	int r;

	r = jsonin_parse(buf, len, RUN_EXPORT_MAX_BYTES, &root, err);
	if (r < 0)
		return r;
	if (!json_object_is_type(root, json_type_object))
		r = jsonin_error(err, NULL, "not a usbperf run, export or report");
	else if (json_object_object_get_ex(root, "usbperf_export", NULL))
		r = check_header(root, &runs, err);
	else if (json_object_object_get_ex(root, "command", &v) &&
		 json_object_is_type(v, json_type_string) &&
		 !strcmp(json_object_get_string(v), "run"))
		r = record_from_run_report(root, &rec, err);
	else if (!json_object_object_get_ex(root, "id", NULL) ||
		 !json_object_object_get_ex(root, "env", NULL))
		r = jsonin_error(err, NULL, "not a usbperf run, export or report (written by "
					 "'usbperf run -F json', 'show -F json' or 'export')");
	if (r == 0)
		r = records_from(rec ? rec : root, runs, ret, ret_n, err);
	json_object_put(rec);
	json_object_put(root);
	return r;
}

// SPDX-License-Identifier: MIT
/* What every stored, exported and imported run satisfies (record_json.h). */
#include "model/record_fields.h"
#include "run/record_json.h"
#include "util/jsonin.h"
#include "util/utctime.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool run_id_valid(const char *id)
{
	size_t n;

	if (!id || !*id || *id == '-')
		return false;
	n = strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:+-");
	return n == strlen(id) && n <= RUN_ID_MAX;
}

/* no control characters: they would reach a terminal through 'show' */
static int strings_ok(const struct record_desc *d, const void *rec, const char *where,
		      struct strbuf *err)
{
	for (size_t i = 0; i < d->nfields; i++) {
		const struct field *f = &d->fields[i];
		const char *s;

		if (f->type != FT_STR)
			continue;
		s = *(const char *const *)((const char *)rec + f->offset);
		if (!s)
			continue;
		if (strlen(s) > RUN_MAX_STRING)
			return jsonin_error(err, where, "'%s' is longer than %d bytes", f->key,
				       RUN_MAX_STRING);
		for (; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				return jsonin_error(err, where, "'%s' contains a control character",
					       f->key);
	}
	return 0;
}

static int run_ok(const struct run_record *r, struct strbuf *err)
{
	time_t t;
	int ret;

	ret = strings_ok(&run_info_desc, r, NULL, err);
	if (ret == 0)
		ret = strings_ok(&run_env_desc, &r->env, "env", err);
	if (ret < 0)
		return ret;
	if (!r->id)
		return jsonin_error(err, NULL, "no 'id'");
	if (!run_id_valid(r->id))
		return jsonin_error(err, NULL, "'id' '%s' is not 1 to %d letters, digits or ._:+- "
				     "(not starting with -)", r->id, RUN_ID_MAX);
	if (!r->started_at || utc_time_parse(r->started_at, &t) < 0)
		return jsonin_error(err, NULL, "'started_at' is not a UTC time YYYY-MM-DDTHH:MM:SSZ");
	if (isinf(r->duration_s) || r->duration_s < 0)
		return jsonin_error(err, NULL, "'duration_s' is not a duration in seconds");
	if (r->ndevices > RUN_MAX_DEVICES || r->nmetrics > RUN_MAX_METRICS ||
	    r->findings.n > RUN_MAX_FINDINGS)
		return jsonin_error(err, NULL, "more than %d devices, %d metrics or %d findings",
			       RUN_MAX_DEVICES, RUN_MAX_METRICS, RUN_MAX_FINDINGS);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* devices: a unique key each; *ret_keys is the sorted keys, for the metrics */
static int devices_ok(const struct run_record *r, const char ***ret_keys, struct strbuf *err)
{
	const char **keys = malloc((r->ndevices ? r->ndevices : 1) * sizeof(*keys));
	char where[32];
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < r->ndevices && ret == 0; i++) {
		const struct run_device *d = &r->devices[i];

		snprintf(where, sizeof(where), "devices[%zu]", i);
		ret = strings_ok(&run_device_desc, d, where, err);
		if (ret == 0 && !d->key)
			ret = jsonin_error(err, where, "no 'device'");
		if (ret == 0 && (isinf(d->ceiling_mb_s) || d->ceiling_mb_s < 0))
			ret = jsonin_error(err, where, "'ceiling_mb_s' is not a rate");
		keys[i] = d->key;
	}
	if (ret == 0)
		qsort(keys, r->ndevices, sizeof(*keys), cmp_str);
	for (size_t i = 1; i < r->ndevices && ret == 0; i++)
		if (!strcmp(keys[i - 1], keys[i]))
			ret = jsonin_error(err, NULL, "two devices have the key '%s'", keys[i]);
	if (ret < 0) {
		free(keys);
		return ret;
	}
	*ret_keys = keys;
	return 0;
}

static bool bad_spread(double v)
{
	return isinf(v) || v < 0;
}

/* the rate sampled within the passes: rates are >= 0; no figures without samples */
static int samples_ok(const struct run_metric *m, const char *where, struct strbuf *err)
{
	const double v[] = {m->sample_mean, m->sample_stdev, m->sample_min};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (isinf(v[i]) || v[i] < 0)
			return jsonin_error(err, where,
					    "'sample_mean', 'sample_stdev' and "
					    "'sample_min' must be finite and 0 or more");
	if (isinf(m->cpu_pressure_pct) || m->cpu_pressure_pct < 0 || m->cpu_pressure_pct > 100)
		return jsonin_error(err, where, "'cpu_pressure_pct' must be a percentage (0 to 100)");
	if (isinf(m->ceiling) || m->ceiling <= 0)
		return jsonin_error(err, where, "'ceiling' must be finite and above 0");
	if (isinf(m->cpu_busy_pct) || m->cpu_busy_pct < 0)
		return jsonin_error(err, where, "'cpu_busy_pct' must be finite and 0 or more");
	if (isinf(m->cpu_io_pct) || m->cpu_io_pct < 0)
		return jsonin_error(err, where, "'cpu_io_pct' must be finite and 0 or more");
	if (isinf(m->cpu_wait_pct) || m->cpu_wait_pct < 0 || m->cpu_wait_pct > 100)
		return jsonin_error(err, where, "'cpu_wait_pct' must be a percentage (0 to 100)");
	if (isinf(m->pass_spread) || m->pass_spread < 0)
		return jsonin_error(err, where, "'pass_spread' must be finite and 0 or more");
	if (m->samples > INT64_MAX)
		return jsonin_error(err, where, "'samples' is not a count");
	if (m->samples == 0 && (!isnan(v[0]) || !isnan(v[1]) || !isnan(v[2])))
		return jsonin_error(err, where,
				    "'sample_mean', 'sample_stdev' or 'sample_min' "
				    "without 'samples'");
	return 0;
}

static int metric_ok(const struct run_metric *m, const char **keys, size_t nkeys,
		     const char *where, struct strbuf *err)
{
	int ret = strings_ok(&run_metric_desc, m, where, err);

	if (ret < 0)
		return ret;
	if (!m->device_key || !m->test || !m->name || !m->metric)
		return jsonin_error(err, where, "'device', 'test', 'name' and 'metric' are needed");
	if (!bsearch(&m->device_key, keys, nkeys, sizeof(*keys), cmp_str))
		return jsonin_error(err, where, "'device' '%s' names no device of the run",
			       m->device_key);
	if (isinf(m->value) || isinf(m->min) || isinf(m->max))
		return jsonin_error(err, where, "'value', 'min' and 'max' must be finite");
	if (bad_spread(m->stdev))
		return jsonin_error(err, where, "'stdev' is negative");
	if (m->min > m->max) /* false when either is NaN */
		return jsonin_error(err, where, "'min' is above 'max'");
	if (m->repeats == 0 || (m->repeats != U64_UNKNOWN && m->repeats > INT64_MAX))
		return jsonin_error(err, where, "'repeats' is not a count of 1 or more");
	return samples_ok(m, where, err);
}

static int cmp_metric_identity(const void *a, const void *b)
{
	const struct run_metric *x = *(const struct run_metric *const *)a;
	const struct run_metric *y = *(const struct run_metric *const *)b;
	int c = strcmp(x->device_key, y->device_key);

	if (!c)
		c = strcmp(x->test, y->test);
	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->metric, y->metric);
	return c;
}

/* compare matches metrics by this identity: it must be unique */
static int metrics_unique(const struct run_record *r, struct strbuf *err)
{
	const struct run_metric **s = malloc((r->nmetrics ? r->nmetrics : 1) * sizeof(*s));
	int ret = 0;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < r->nmetrics; i++)
		s[i] = &r->metrics[i];
	qsort(s, r->nmetrics, sizeof(*s), cmp_metric_identity);
	for (size_t i = 1; i < r->nmetrics && ret == 0; i++)
		if (!cmp_metric_identity(&s[i - 1], &s[i]))
			ret = jsonin_error(err, NULL, "metric '%s' of '%s' %s '%s' appears twice",
				      s[i]->metric, s[i]->device_key, s[i]->test, s[i]->name);
	free(s);
	return ret;
}

static int findings_ok(const struct finding_list *l, struct strbuf *err)
{
	char where[32];

	for (size_t i = 0; i < l->n; i++) {
		const struct finding *f = &l->v[i];
		int ret;

		snprintf(where, sizeof(where), "findings[%zu]", i);
		ret = strings_ok(&finding_desc, f, where, err);
		if (ret < 0)
			return ret;
		if (!f->severity || (strcmp(f->severity, "info") && strcmp(f->severity, "warn")))
			return jsonin_error(err, where, "'severity' is not \"info\" or \"warn\"");
		if (!f->id || !f->message)
			return jsonin_error(err, where, "'id' and 'message' are needed");
	}
	return 0;
}

/* verdicts, notes and unmeasured devices: their strings, their counts, what each needs */
static int later_parts_ok(const struct run_record *r, struct strbuf *err)
{
	char where[40];
	int ret = 0;

	if (r->nverdicts > RUN_MAX_DEVICES || r->nunmeasured > RUN_MAX_DEVICES ||
	    r->nnotes > RUN_MAX_FINDINGS)
		return jsonin_error(err, NULL,
				    "more than %d verdicts or unmeasured devices, or %d "
				    "notes",
				    RUN_MAX_DEVICES, RUN_MAX_FINDINGS);
	for (size_t i = 0; ret == 0 && i < r->nverdicts; i++) {
		const struct run_verdict *v = &r->verdicts[i];

		snprintf(where, sizeof(where), "verdicts[%zu]", i);
		ret = strings_ok(&run_verdict_desc, v, where, err);
		if (ret == 0 && (!v->device_key || !v->limiter))
			ret = jsonin_error(err, where, "'device' and 'limiter' are needed");
		if (ret == 0 && isinf(v->share_pct))
			ret = jsonin_error(err, where, "'share_pct' is not a number");
	}
	for (size_t i = 0; ret == 0 && i < r->nnotes; i++) {
		snprintf(where, sizeof(where), "notes[%zu]", i);
		ret = strings_ok(&run_note_desc, &r->notes[i], where, err);
		if (ret == 0 && !r->notes[i].text)
			ret = jsonin_error(err, where, "'text' is needed");
	}
	for (size_t i = 0; ret == 0 && i < r->nunmeasured; i++) {
		snprintf(where, sizeof(where), "unmeasured[%zu]", i);
		ret = strings_ok(&run_unmeasured_desc, &r->unmeasured[i], where, err);
		if (ret == 0 && (!r->unmeasured[i].key || !r->unmeasured[i].why))
			ret = jsonin_error(err, where, "'device' and 'why' are needed");
	}
	return ret;
}

int run_record_validate(const struct run_record *r, struct strbuf *err)
{
	const char **keys = NULL;
	char where[32];
	int ret;

	ret = run_ok(r, err);
	if (ret == 0)
		ret = devices_ok(r, &keys, err);
	for (size_t i = 0; ret == 0 && i < r->nmetrics; i++) {
		snprintf(where, sizeof(where), "metrics[%zu]", i);
		ret = metric_ok(&r->metrics[i], keys, r->ndevices, where, err);
	}
	free(keys);
	if (ret == 0)
		ret = metrics_unique(r, err);
	if (ret == 0)
		ret = findings_ok(&r->findings, err);
	if (ret == 0)
		ret = later_parts_ok(r, err);
	return ret;
}

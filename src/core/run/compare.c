// SPDX-License-Identifier: MIT
#include "core/run/compare.h"
#include "core/run/class.h"
#include "core/run/record_fields.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[] = {
	[VERDICT_SAME] = "same",       [VERDICT_NOISE] = "noise",     [VERDICT_BETTER] = "better",
	[VERDICT_WORSE] = "worse",     [VERDICT_UNKNOWN] = "unknown", [VERDICT_MISSING] = "missing",
	[VERDICT_NEW] = "new",	       [VERDICT_SPREAD_UNKNOWN] = "spread unknown",
};

const char *compare_verdict_name(enum compare_verdict v)
{
	return verdict_names[v];
}

/* the sampled rate held within COMPARE_MAX_SAMPLE_CV of its mean (the value's without one) */
static bool steady(const struct run_metric *m)
{
	double mean = isfinite(m->sample_mean) ? m->sample_mean : m->value;

	return isfinite(mean) && m->sample_stdev <= COMPARE_MAX_SAMPLE_CV * fabs(mean);
}

double compare_spread(const struct run_metric *m, const char **ret_from)
{
	const char *from = NULL;
	double sd = NAN;

	/* run leaves stdev unknown with one repeat; an imported one may lack repeats */
	if (m->cpu_pressure_pct > COMPARE_MAX_CPU_PRESSURE_PCT) {
		/* contended: unknown (NaN compares false: no PSI, no gate) */
	} else if (isfinite(m->stdev) && m->stdev >= 0 && m->repeats != 1) {
		sd = m->stdev, from = "repeats";
	} else if (!(m->cpu_busy_pct > COMPARE_MAX_CPU_BUSY_PCT) && m->samples != U64_UNKNOWN &&
		   m->samples >= COMPARE_MIN_SAMPLES &&
		   isfinite(m->sample_stdev) && m->sample_stdev >= 0 && steady(m)) {
		sd = m->sample_stdev, from = "samples";
	}
	if (ret_from)
		*ret_from = from;
	return sd;
}

enum compare_verdict compare_metric(double a, double sd_a, double b, double sd_b,
				    bool higher_is_better, double threshold_pct,
				    double *ret_change_pct)
{
	double delta = b - a, change = NAN;

	if (isnan(a) || isnan(b)) {
		*ret_change_pct = NAN;
		return VERDICT_UNKNOWN;
	}
	if (a != 0)
		change = 100.0 * delta / fabs(a);
	else if (delta == 0)
		change = 0;
	*ret_change_pct = change;
	/* from zero, any change is beyond a relative threshold */
	if (a != 0 ? !(fabs(change) > threshold_pct) : delta == 0)
		return VERDICT_SAME;
	/* past the threshold: whether it is past the noise needs both spreads */
	if (isnan(sd_a) || isnan(sd_b))
		return VERDICT_SPREAD_UNKNOWN;
	if (fabs(delta) <= COMPARE_SPREAD_K * sqrt(sd_a * sd_a + sd_b * sd_b))
		return VERDICT_NOISE;
	return (delta > 0) == higher_is_better ? VERDICT_BETTER : VERDICT_WORSE;
}

/* ---- matching ---- */

static const struct run_device *find_device(const struct run_record *r, const char *key)
{
	for (size_t i = 0; key && i < r->ndevices; i++)
		if (r->devices[i].key && !strcmp(r->devices[i].key, key))
			return &r->devices[i];
	return NULL;
}

/* a metric's identity across runs, and where it is in its run */
struct entry {
	char *dev;   /* device identity */
	char *match; /* dev, test, name, metric joined by \x1f */
	size_t idx;
};

static void entries_free(struct entry *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++)
		free(e[i].dev), free(e[i].match);
	free(e);
}

static int cmp_entry(const void *x, const void *y)
{
	const struct entry *a = *(const struct entry *const *)x;
	const struct entry *b = *(const struct entry *const *)y;
	int c = strcmp(a->match, b->match);

	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* the metrics' identities, in the run's order */
static struct entry *build_entries(const struct run_record *r)
{
	struct entry *e = calloc(r->nmetrics ? r->nmetrics : 1, sizeof(*e));

	if (!e)
		abort();
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];
		const struct run_device *d = find_device(r, m->device_key);
		struct strbuf sb = STRBUF_INIT;

		e[i].dev = d ? run_device_identity(d) : xstrdup(m->device_key ? m->device_key : "?");
		strbuf_addf(&sb, "%s\x1f%s\x1f%s\x1f%s", e[i].dev, m->test ? m->test : "",
			    m->name ? m->name : "", m->metric ? m->metric : "");
		e[i].match = strbuf_detach(&sb);
		e[i].idx = i;
	}
	return e;
}

/* the same, sorted by identity: pairing is a merge, not n * m comparisons */
static const struct entry **sort_entries(const struct entry *e, size_t n)
{
	const struct entry **s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		abort();
	for (size_t i = 0; i < n; i++)
		s[i] = &e[i];
	qsort(s, n, sizeof(*s), cmp_entry);
	return s;
}

/* pair[i]: the index in B of A's metric i, or SIZE_MAX; taken[j]: B's j is paired */
static void pair_metrics(const struct entry *ea, size_t na, const struct entry *eb, size_t nb,
			 size_t *pair, bool *taken)
{
	const struct entry **sa = sort_entries(ea, na), **sb = sort_entries(eb, nb);
	size_t i = 0, j = 0;

	for (i = 0; i < na; i++)
		pair[i] = SIZE_MAX;
	i = 0;
	while (i < na && j < nb) {
		int c = strcmp(sa[i]->match, sb[j]->match);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			pair[sa[i]->idx] = sb[j]->idx;
			taken[sb[j]->idx] = true;
			i++, j++;
		}
	}
	free(sa);
	free(sb);
}

/* ---- the result ---- */

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void add_caveat(struct compare_result *c, const char *subject, const char *what,
		       const char *a, const char *b)
{
	struct compare_caveat *v = realloc(c->caveats, (c->ncaveats + 1) * sizeof(*v));

	if (!v)
		abort();
	c->caveats = v;
	v[c->ncaveats++] = (struct compare_caveat){xstrdup(subject), xstrdup(what),
						   a ? xstrdup(a) : NULL, b ? xstrdup(b) : NULL};
}

static void count(struct compare_result *c, enum compare_verdict v)
{
	uint64_t *counters[] = {
		[VERDICT_SAME] = &c->same,	 [VERDICT_NOISE] = &c->noise,
		[VERDICT_BETTER] = &c->better,	 [VERDICT_WORSE] = &c->worse,
		[VERDICT_UNKNOWN] = &c->unknown, [VERDICT_MISSING] = &c->missing,
		[VERDICT_NEW] = &c->added,	 [VERDICT_SPREAD_UNKNOWN] = &c->spread_unknown,
	};

	(*counters[v])++;
}

static void fill_side(struct compare_row *row, const struct run_metric *m, bool is_b)
{
	if (is_b) {
		row->b = m->value;
		row->b_stdev = compare_spread(m, &row->b_spread);
	} else {
		row->a = m->value;
		row->a_stdev = compare_spread(m, &row->a_spread);
	}
	row->device_key = m->device_key;
	row->test = m->test;
	row->name = m->name;
	row->metric = m->metric;
	row->unit = m->unit;
}

/* a histogram's bin (core/run/class.h): its count moves with the pass's length, not a regression */
static bool distribution(const struct run_metric *m)
{
	const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

	return cm && cm->distribution;
}

static void add_row(struct compare_result *c, const struct run_metric *ma,
		    const struct run_metric *mb, const char *dev)
{
	struct compare_row *row = &c->rows[c->nrows++];
	enum compare_verdict v;

	*row = (struct compare_row){.a = NAN, .a_stdev = NAN, .b = NAN, .b_stdev = NAN,
				    .change_pct = NAN, .device_id = xstrdup(dev)};
	if (ma)
		fill_side(row, ma, false);
	if (mb)
		fill_side(row, mb, true);
	row->higher_is_better = ma ? ma->higher_is_better : mb->higher_is_better;
	if (!mb) {
		v = VERDICT_MISSING;
	} else if (!ma) {
		v = VERDICT_NEW;
	} else if (!same_str(ma->unit, mb->unit)) {
		struct strbuf what = STRBUF_INIT;

		strbuf_addf(&what, "unit of %s %s %s", ma->test, ma->name, ma->metric);
		add_caveat(c, dev, what.buf, ma->unit, mb->unit);
		strbuf_release(&what);
		v = VERDICT_UNKNOWN;
	} else {
		v = compare_metric(ma->value, row->a_stdev, mb->value, row->b_stdev,
				   ma->higher_is_better, c->threshold_pct, &row->change_pct);
	}
	row->verdict = compare_verdict_name(v);
	count(c, v);
}

static const char *str_field(const struct field *f, const void *rec)
{
	return *(const char *const *)((const char *)rec + f->offset);
}

/* the environment, field by field, through the table that names them */
static void env_caveats(struct compare_result *c, const struct run_record *a,
			const struct run_record *b)
{
	for (size_t i = 0; i < run_env_desc.nfields; i++) {
		const struct field *f = &run_env_desc.fields[i];
		const char *va = str_field(f, &a->env), *vb = str_field(f, &b->env);

		if (!same_str(va, vb))
			add_caveat(c, "env", f->key, va, vb);
	}
}

/* what a device may change between runs that explains its figures */
static void device_differences(struct compare_result *c, const char *id,
			       const struct run_device *da, const struct run_device *db)
{
	static const char *const keys[] = {"port_path", "speed", "driver", "target"};

	for (size_t i = 0; i < run_device_desc.nfields; i++) {
		const struct field *f = &run_device_desc.fields[i];

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *va = str_field(f, da), *vb = str_field(f, db);

			if (!strcmp(f->key, keys[k]) && !same_str(va, vb))
				add_caveat(c, id, f->key, va, vb);
		}
	}
}

static void device_caveats(struct compare_result *c, const struct run_record *a,
			   const struct run_record *b)
{
	char **ib = calloc(b->ndevices ? b->ndevices : 1, sizeof(*ib));
	bool *seen = calloc(b->ndevices ? b->ndevices : 1, sizeof(*seen));
	size_t i, j;

	if (!ib || !seen)
		abort();
	for (j = 0; j < b->ndevices; j++)
		ib[j] = run_device_identity(&b->devices[j]);
	for (i = 0; i < a->ndevices; i++) {
		char *ia = run_device_identity(&a->devices[i]);

		for (j = 0; j < b->ndevices; j++)
			if (!seen[j] && !strcmp(ia, ib[j]))
				break;
		if (j < b->ndevices) {
			seen[j] = true;
			device_differences(c, ia, &a->devices[i], &b->devices[j]);
		} else {
			add_caveat(c, ia, "device", a->devices[i].key, NULL);
		}
		free(ia);
	}
	for (j = 0; j < b->ndevices; j++) {
		if (!seen[j])
			add_caveat(c, ib[j], "device", NULL, b->devices[j].key);
		free(ib[j]);
	}
	free(ib);
	free(seen);
}

int run_compare(const struct run_record *a, const struct run_record *b, double threshold_pct,
		struct compare_result *ret)
{
	struct compare_result c = {.a_id = a->id, .b_id = b->id, .threshold_pct = threshold_pct};
	struct entry *ea = build_entries(a), *eb = build_entries(b);
	size_t *pair = malloc((a->nmetrics ? a->nmetrics : 1) * sizeof(*pair));
	bool *taken = calloc(b->nmetrics ? b->nmetrics : 1, sizeof(*taken));
	size_t i;

	c.rows = calloc(a->nmetrics + b->nmetrics + 1, sizeof(*c.rows));
	if (!pair || !taken || !c.rows) {
		entries_free(ea, a->nmetrics);
		entries_free(eb, b->nmetrics);
		free(pair), free(taken), free(c.rows);
		return -ENOMEM;
	}
	env_caveats(&c, a, b);
	device_caveats(&c, a, b);
	pair_metrics(ea, a->nmetrics, eb, b->nmetrics, pair, taken);
	for (i = 0; i < a->nmetrics; i++)
		if (!distribution(&a->metrics[i]))
			add_row(&c, &a->metrics[i],
				pair[i] == SIZE_MAX ? NULL : &b->metrics[pair[i]], ea[i].dev);
	for (i = 0; i < b->nmetrics; i++)
		if (!taken[i] && !distribution(&b->metrics[i]))
			add_row(&c, NULL, &b->metrics[i], eb[i].dev);
	entries_free(ea, a->nmetrics);
	entries_free(eb, b->nmetrics);
	free(pair);
	free(taken);
	c.result = c.worse ? "regression" : c.spread_unknown ? "spread unknown" : "ok";
	*ret = c;
	return 0;
}

void compare_result_release(struct compare_result *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].device_id);
	free(c->rows);
	for (size_t i = 0; i < c->ncaveats; i++) {
		free(c->caveats[i].subject), free(c->caveats[i].what);
		free(c->caveats[i].a), free(c->caveats[i].b);
	}
	free(c->caveats);
	memset(c, 0, sizeof(*c));
}

/* ---- field tables ---- */

#define T FF_TEXT
#define R struct compare_result
#define N(member, key) FIELD(R, member, key, key, NULL, FT_U64, 0, T)
static const struct field summary_fields[] = {
	FIELD(R, a_id, "a", "A", NULL, FT_STR, 0, T),
	FIELD(R, b_id, "b", "B", NULL, FT_STR, 0, T),
	FIELD(R, baseline, "baseline", "baseline (A)", NULL, FT_STR, 0, T),
	FIELD(R, threshold_pct, "threshold_pct", "threshold", "%", FT_DBL, 1, T),
	FIELD(R, result, "result", "result", NULL, FT_STR, 0, T),
	N(worse, "worse"),
	N(better, "better"),
	N(noise, "noise"),
	N(same, "same"),
	FIELD(R, spread_unknown, "spread_unknown", "spread unknown", NULL, FT_U64, 0, T),
	N(unknown, "unknown"),
	N(missing, "missing"),
	N(added, "new"),
};
#undef N
#undef R

#define W struct compare_row
#define S(member, key, header, flags) FIELD(W, member, key, header, NULL, FT_STR, 0, flags)
static const struct field row_fields[] = {
	S(device_key, "device", "device", T),
	S(test, "test", "test", T),
	S(name, "name", "pass", T),
	S(metric, "metric", "metric", T | FF_METRIC),
	S(unit, "unit", "unit", T),
	FIELD(W, a, "a", "A", NULL, FT_DBL, 2, T | FF_MAGNITUDE),
	FIELD(W, a_stdev, "a_stdev", "sd", NULL, FT_DBL, 2, T | FF_PLUSMINUS),
	FIELD(W, b, "b", "B", NULL, FT_DBL, 2, T | FF_MAGNITUDE),
	FIELD(W, b_stdev, "b_stdev", "sd", NULL, FT_DBL, 2, T | FF_PLUSMINUS),
	FIELD(W, change_pct, "change_pct", "change", "%", FT_DBL, 1, T),
	S(verdict, "verdict", "verdict", T),
	FIELD(W, higher_is_better, "higher_is_better", "higher is better", NULL, FT_BOOL, 0, 0),
	S(device_id, "device_id", "device identity", 0),
	S(a_spread, "a_spread", "A's spread from", 0),
	S(b_spread, "b_spread", "B's spread from", 0),
};
#undef S
#undef W

#define V struct compare_caveat
static const struct field caveat_fields[] = {
	FIELD(V, subject, "subject", "subject", NULL, FT_STR, 0, T),
	FIELD(V, what, "what", "differs in", NULL, FT_STR, 0, T),
	FIELD(V, a, "a", "A", NULL, FT_STR, 0, T),
	FIELD(V, b, "b", "B", NULL, FT_STR, 0, T),
};
#undef V
#undef T

const struct record_desc compare_summary_desc = RECORD_DESC("comparison", summary_fields);
const struct record_desc compare_row_desc = RECORD_DESC("compare_row", row_fields);
const struct record_desc compare_caveat_desc = RECORD_DESC("compare_caveat", caveat_fields);

void compare_describe(const struct compare_result *c, struct report *out)
{
	report_add_object(out, "comparison", "comparison", &compare_summary_desc, c);
	report_add_table(out, "metrics", "metrics", &compare_row_desc, c->rows, c->nrows,
			 sizeof(*c->rows));
	report_add_table(out, "caveats", "caveats: the runs differ in", &compare_caveat_desc,
			 c->caveats, c->ncaveats, sizeof(*c->caveats));
}

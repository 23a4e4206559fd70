// SPDX-License-Identifier: MIT
/* Runs held against criteria and a baseline: one row per check (check.h). */
#include "check/check.h"
#include "run/class.h"
#include "run/compare.h"
#include "model/field.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const status_names[] = {
    [CHECK_PASS] = "pass",	 [CHECK_FAIL] = "fail",		[CHECK_MISSING] = "missing",
    [CHECK_SKIPPED] = "skipped", [CHECK_MEASURED] = "measured",
};

const char *check_status_name(enum check_status s)
{
	return status_names[s];
}

static const struct run_device *find_device(const struct run_record *r, const char *key)
{
	for (size_t i = 0; key && i < r->ndevices; i++)
		if (r->devices[i].key && !strcmp(r->devices[i].key, key))
			return &r->devices[i];
	return NULL;
}

static bool eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* hex VID:PID and serials are written in either case */
static bool eq_nocase(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}

static bool device_matches(const char *want, const struct run_device *d, const char *key)
{
	if (!strcmp(want, "*"))
		return true;
	if (!d)
		return eq(want, key);
	return eq(want, d->key) || eq(want, d->port_path) || eq_nocase(want, d->vid_pid) ||
	       eq_nocase(want, d->serial) || run_kind_is(d->kind, want);
}

bool criterion_matches(const struct criterion *c, const struct run_record *r,
		       const struct run_metric *m)
{
	if (!eq(c->metric, m->metric))
		return false;
	if (c->test && !eq(c->test, m->test))
		return false;
	if (!m->name || fnmatch(c->name, m->name, 0) != 0)
		return false;
	return device_matches(c->device, find_device(r, m->device_key), m->device_key);
}

/* ---- rows ---- */

struct builder {
	struct check_result *res;
	size_t alloc;
	int error;
};

static struct check_row *add_row(struct builder *b, const struct run_record *run, size_t ri,
				 enum check_status st, enum check_source src)
{
	struct check_row *row;

	if (b->error)
		return NULL;
	if (b->res->nrows >= CHECK_MAX_ROWS) {
		b->error = -E2BIG;
		return NULL;
	}
	if (b->res->nrows == b->alloc) {
		size_t n = b->alloc ? b->alloc * 2 : 64;
		struct check_row *v = realloc(b->res->rows, n * sizeof(*v));

		if (!v) {
			b->error = -ENOMEM;
			return NULL;
		}
		b->res->rows = v;
		b->alloc = n;
	}
	row = &b->res->rows[b->res->nrows++];
	*row = (struct check_row){.run_id = run->id,
				  .value = NAN,
				  .stdev = NAN,
				  .of = "mean",
				  .status = st,
				  .source = src,
				  .run_index = ri};
	return row;
}

static void set_metric(struct check_row *row, const struct run_metric *m)
{
	row->device_key = m->device_key;
	row->test = m->test;
	row->name = m->name;
	row->metric = m->metric;
	row->unit = m->unit;
	row->value = m->value;
	row->stdev = m->stdev;
}

/* "2-1.disk.seq-read 1M.mb_s": LAVA and JUnit writers sanitize it for their syntax */
static char *metric_case_id(const char *prefix, const char *dev, const char *test, const char *name,
			    const char *metric, const char *suffix)
{
	const char *parts[] = {prefix, dev, test, name, metric, suffix};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i])
			continue;
		if (sb.len)
			strbuf_addch(&sb, '.');
		strbuf_adds(&sb, parts[i]);
	}
	return strbuf_detach(&sb);
}

static void note_add(struct strbuf *note, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note_add(struct strbuf *note, const char *fmt, ...)
{
	va_list ap;

	if (note->len)
		strbuf_adds(note, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(note, fmt, ap);
	va_end(ap);
}

static char *detach_or_null(struct strbuf *sb)
{
	if (!sb->len) {
		strbuf_release(sb);
		return NULL;
	}
	return strbuf_detach(sb);
}

/*
 * What a figure is held against for min_ceiling_pct: its own ceiling (a
 * network's goodput after framing, a camera's nominal frame rate), else for
 * a MB/s figure its device's link ceiling. NaN: none known.
 */
static double ceiling_of(const struct run_device *d, const struct run_metric *m)
{
	if (m->ceiling > 0)
		return m->ceiling;
	if (eq(m->unit, "MB/s") && d && d->ceiling_mb_s > 0)
		return d->ceiling_mb_s;
	return NAN;
}

/* the criterion as a person would say it: "min >= 30 MB/s, <= 200 MB/s" */
static char *criterion_text(const struct criterion *c, const char *unit, double ceiling)
{
	struct strbuf sb = STRBUF_INIT;
	const char *u = c->unit ? c->unit : unit;

	if (c->of != OF_MEAN)
		strbuf_addf(&sb, "%s ", criterion_of_name(c->of));
	if (!isnan(c->min))
		strbuf_addf(&sb, ">= %g%s%s", c->min, u ? " " : "", u ? u : "");
	if (!isnan(c->max))
		strbuf_addf(&sb, "%s<= %g%s%s", isnan(c->min) ? "" : ", ", c->max, u ? " " : "",
			    u ? u : "");
	if (!isnan(c->min_ceiling_pct)) {
		strbuf_addf(&sb, "%s>= %g%% of ceiling", isnan(c->min) && isnan(c->max) ? "" : ", ",
			    c->min_ceiling_pct);
		if (!isnan(ceiling))
			strbuf_addf(&sb, " %.*f%s%s", metric_prec(ceiling), ceiling, unit ? " " : "",
				    unit ? unit : "");
	}
	return strbuf_detach(&sb);
}

static double pick_of(const struct criterion *c, const struct run_metric *m, struct check_row *row,
		      struct strbuf *note)
{
	double v = c->of == OF_MIN ? m->min : c->of == OF_MAX ? m->max : m->value;

	if (c->of != OF_MEAN && isnan(v) && !isnan(m->value)) {
		note_add(note, "%s of the repeats unknown: mean used", criterion_of_name(c->of));
		return m->value;
	}
	row->of = criterion_of_name(c->of);
	return v;
}

/* "38.49 MB/s below the minimum 100 MB/s": the figure and the bound, each with its unit */
static void bound_note(struct strbuf *note, const char *prefix, double v, const char *unit,
		       const char *what, double bound)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	metric_format(&a, v);
	/* a criterion's bound as the file gives it; a ceiling as every view writes one */
	if (*prefix)
		metric_format(&b, bound);
	else
		strbuf_addf(&b, "%g", bound);
	note_add(note, "%s%s%s%s %s %s%s%s", prefix, a.buf, unit ? " " : "", unit ? unit : "", what,
		 b.buf, unit ? " " : "", unit ? unit : "");
	strbuf_release(&a);
	strbuf_release(&b);
}

/* every bound the criterion sets, each failure noted */
static bool eval_bounds(const struct criterion *c, const struct run_device *d,
			const struct run_metric *m, double v, struct strbuf *note)
{
	bool ok = true;
	double ceiling;

	/* "%" from before the unit said of what ("% of one CPU") is the same unit */
	if (c->unit && !eq(c->unit, m->unit) &&
	    !run_metric_unit_was(m->test, m->metric, m->unit, c->unit)) {
		note_add(note, "unit is '%s', the criterion wants '%s'", m->unit ? m->unit : "-",
			 c->unit);
		return false;
	}
	if (isnan(v)) {
		note_add(note, "value unknown");
		return false;
	}
	if (!isnan(c->min) && v < c->min)
		ok = false, bound_note(note, "", v, m->unit, "below the minimum", c->min);
	if (!isnan(c->max) && v > c->max)
		ok = false, bound_note(note, "", v, m->unit, "above the maximum", c->max);
	if (isnan(c->min_ceiling_pct))
		return ok;
	ceiling = ceiling_of(d, m);
	if (isnan(ceiling) && !eq(m->unit, "MB/s")) {
		note_add(note,
			 "min_ceiling_pct needs a figure with a ceiling (a MB/s rate, a "
			 "network's or a camera's), this one is in '%s' and has none",
			 m->unit ? m->unit : "-");
		return false;
	}
	if (isnan(ceiling)) {
		note_add(note, "no ceiling: device '%s' has no known link ceiling",
			 m->device_key ? m->device_key : "-");
		return false;
	}
	if (100.0 * v / ceiling < c->min_ceiling_pct) {
		note_add(note, "%.1f %% of the ceiling, below %g %%", 100.0 * v / ceiling,
			 c->min_ceiling_pct);
		return false;
	}
	if (v > ceiling) {
		/* not a share to read: the figure is not the link's (a cache, an emulated link) */
		bound_note(note, "anomaly, not the link's figure: ", v, m->unit,
			   "is above its ceiling", ceiling);
	} else
		note_add(note, "%.1f %% of the ceiling", 100.0 * v / ceiling);
	return ok;
}

static void check_criterion(struct builder *b, const struct run_record *run, size_t ri,
			    const struct criterion *c, const struct run_metric *m, size_t nmatches)
{
	const struct run_device *d = find_device(run, m->device_key);
	struct check_row *row = add_row(b, run, ri, CHECK_PASS, SOURCE_CRITERION);
	struct strbuf note = STRBUF_INIT;
	double v;

	if (!row)
		return;
	set_metric(row, m);
	row->criterion_index = c->index;
	row->criterion_id = c->id;
	v = pick_of(c, m, row, &note);
	row->value = v;
	if (!eval_bounds(c, d, m, v, &note))
		row->status = CHECK_FAIL;
	row->criterion = criterion_text(c, m->unit, ceiling_of(d, m));
	row->note = detach_or_null(&note);
	/* an id names one test case: a glob that matched several tells them apart */
	if (c->id && nmatches == 1)
		row->case_id = strdup(c->id);
	else
		row->case_id =
		    metric_case_id(c->id, m->device_key, m->test, m->name, m->metric, NULL);
}

static void criterion_unmatched(struct builder *b, const struct run_record *run, size_t ri,
				const struct criterion *c)
{
	struct check_row *row =
	    add_row(b, run, ri, c->optional ? CHECK_SKIPPED : CHECK_MISSING, SOURCE_CRITERION);

	if (!row)
		return;
	row->device_key = c->device;
	row->test = c->test;
	row->name = c->name;
	row->metric = c->metric;
	row->unit = c->unit;
	row->criterion_index = c->index;
	row->criterion_id = c->id;
	row->criterion = criterion_text(c, NULL, NAN);
	row->note = strdup(c->optional ? "no metric matches (optional)" : "no metric matches");
	/* "*" says nothing in an id */
	row->case_id =
	    c->id ? strdup(c->id)
		  : metric_case_id(NULL, strcmp(c->device, "*") ? c->device : NULL, c->test,
				   strcmp(c->name, "*") ? c->name : NULL, c->metric, NULL);
}

/* ---- baseline ---- */

/* compare rows by the address of B's metric string (compare.h: rows borrow B's strings) */
struct by_ptr {
	const char *p;
	const struct compare_row *row;
};

static int cmp_ptr(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const struct by_ptr *)x)->p;
	uintptr_t b = (uintptr_t)((const struct by_ptr *)y)->p;

	return (a > b) - (a < b);
}

struct baseline_index {
	struct compare_result cmp;
	struct by_ptr *v;
	size_t n;
};

static const struct compare_row *baseline_row(const struct baseline_index *bi,
					      const struct run_metric *m)
{
	struct by_ptr key = {.p = m->metric}, *hit;

	hit = bsearch(&key, bi->v, bi->n, sizeof(*bi->v), cmp_ptr);
	return hit ? hit->row : NULL;
}

static int baseline_index_build(const struct run_record *base, const struct run_record *run,
				double threshold, struct baseline_index *ret)
{
	struct baseline_index bi = {0};
	int r = run_compare(base, run, threshold, &bi.cmp);

	if (r < 0)
		return r;
	bi.v = calloc(bi.cmp.nrows + 1, sizeof(*bi.v));
	if (!bi.v) {
		compare_result_release(&bi.cmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < bi.cmp.nrows; i++) {
		const struct compare_row *cr = &bi.cmp.rows[i];

		/* paired rows only: "missing" holds A's strings, "new" has no baseline */
		if (cr->v != VERDICT_MISSING && cr->v != VERDICT_NEW)
			bi.v[bi.n++] = (struct by_ptr){cr->metric, cr};
	}
	qsort(bi.v, bi.n, sizeof(*bi.v), cmp_ptr);
	*ret = bi;
	return 0;
}

static void baseline_index_release(struct baseline_index *bi)
{
	compare_result_release(&bi->cmp);
	free(bi->v);
}

static char *baseline_text(const struct check_input *in, double change)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "baseline %s", in->baseline ? in->baseline : in->baseline_run->id);
	if (!isnan(change))
		strbuf_addf(&sb, ": %+.1f%%", change);
	return strbuf_detach(&sb);
}

/* past the threshold, but whether past the noise cannot be told: why (compare's words) */
static void spread_unknown_note(struct strbuf *note, const struct compare_row *cr,
				double threshold_pct)
{
	strbuf_addf(note, ", beyond %g%% but not judged (A the baseline, B this run: %s): %s",
		    threshold_pct, cr->why ? cr->why : "spread unknown",
		    cr->todo ? cr->todo : "rerun both with --repeat 3");
}

static void check_baseline(struct builder *b, const struct check_input *in,
			   const struct run_record *run, size_t ri, const struct run_metric *m,
			   const struct compare_row *cr)
{
	bool worse = cr->v == VERDICT_WORSE;
	bool unknown = cr->v == VERDICT_UNKNOWN;
	bool no_spread = compare_not_judged(cr->v);
	struct check_row *row = add_row(b, run, ri,
					worse || unknown ? CHECK_FAIL
					: no_spread	 ? CHECK_SKIPPED
							 : CHECK_PASS,
					SOURCE_BASELINE);
	struct strbuf note = STRBUF_INIT;

	if (!row)
		return;
	set_metric(row, m);
	row->criterion = baseline_text(in, cr->change_pct);
	strbuf_addf(&note, "%s: baseline %.2f", cr->verdict, cr->a);
	/* compare says unknown for an unknown value or for units that differ */
	if (unknown && !isnan(cr->a) && !isnan(cr->b))
		strbuf_adds(&note, " (units differ)");
	else if (unknown)
		strbuf_adds(&note, " (a value is unknown)");
	else if (worse)
		strbuf_addf(&note, ", beyond %g%% and the spread", in->threshold_pct);
	else if (no_spread)
		spread_unknown_note(&note, cr, in->threshold_pct);
	row->note = strbuf_detach(&note);
	row->case_id = metric_case_id(NULL, m->device_key, m->test, m->name, m->metric, "baseline");
}

static void baseline_missing(struct builder *b, const struct check_input *in,
			     const struct run_record *run, size_t ri, const struct compare_row *cr)
{
	struct check_row *row = add_row(b, run, ri, CHECK_MISSING, SOURCE_BASELINE);

	if (!row)
		return;
	row->device_key = cr->device_key;
	row->test = cr->test;
	row->name = cr->name;
	row->metric = cr->metric;
	row->unit = cr->unit;
	row->criterion = baseline_text(in, NAN);
	row->note = strdup("in the baseline, not in this run");
	row->case_id =
	    metric_case_id(NULL, cr->device_key, cr->test, cr->name, cr->metric, "baseline");
}

/* ---- one run ---- */

static void check_run(struct builder *b, const struct check_input *in, size_t ri,
		      const struct baseline_index *bi, size_t *matches)
{
	const struct run_record *run = &in->runs[ri];
	const struct criteria *cs = in->criteria;
	size_t nc = cs ? cs->n : 0;

	memset(matches, 0, (nc ? nc : 1) * sizeof(*matches));
	for (size_t i = 0; i < run->nmetrics; i++)
		for (size_t j = 0; j < nc; j++)
			matches[j] += criterion_matches(&cs->v[j], run, &run->metrics[i]);
	for (size_t i = 0; i < run->nmetrics && !b->error; i++) {
		const struct run_metric *m = &run->metrics[i];
		const struct compare_row *cr = bi ? baseline_row(bi, m) : NULL;
		bool covered = cr != NULL;

		for (size_t j = 0; j < nc; j++) {
			if (!criterion_matches(&cs->v[j], run, m))
				continue;
			check_criterion(b, run, ri, &cs->v[j], m, matches[j]);
			covered = true;
		}
		if (cr)
			check_baseline(b, in, run, ri, m, cr);
		if (!covered) {
			struct check_row *row = add_row(b, run, ri, CHECK_MEASURED, SOURCE_NONE);

			if (row) {
				set_metric(row, m);
				row->case_id = metric_case_id(NULL, m->device_key, m->test, m->name,
							      m->metric, NULL);
			}
		}
	}
	for (size_t j = 0; j < nc; j++)
		if (!matches[j])
			criterion_unmatched(b, run, ri, &cs->v[j]);
	for (size_t i = 0; bi && i < bi->cmp.nrows; i++)
		if (bi->cmp.rows[i].v == VERDICT_MISSING)
			baseline_missing(b, in, run, ri, &bi->cmp.rows[i]);
}

static void count(struct check_result *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct check_row *r = &c->rows[i];

		r->result = check_status_name(r->status);
		switch (r->status) {
		case CHECK_PASS:
			c->passed++;
			break;
		case CHECK_FAIL:
			c->failed++;
			break;
		case CHECK_MISSING:
			c->missing++;
			break;
		case CHECK_SKIPPED:
			c->skipped++;
			break;
		case CHECK_MEASURED:
			c->measured++;
			break;
		}
	}
	c->checked = c->passed + c->failed + c->missing;
	c->result = c->failed || c->missing ? "fail" : "pass";
}

int check_evaluate(const struct check_input *in, struct check_result *ret)
{
	struct check_result res = {.runs = in->runs,
				   .nruns = in->nruns,
				   .runs_n = in->nruns,
				   .ncriteria = in->criteria ? in->criteria->n : 0,
				   .baseline = in->baseline,
				   .baseline_id = in->baseline_run ? in->baseline_run->id : NULL,
				   .threshold_pct = in->baseline_run ? in->threshold_pct : NAN};
	struct builder b = {.res = &res};
	size_t *matches = calloc(res.ncriteria ? res.ncriteria : 1, sizeof(*matches));

	if (!matches)
		return -ENOMEM;
	for (size_t ri = 0; ri < in->nruns && !b.error; ri++) {
		struct baseline_index bi;

		if (in->baseline_run) {
			b.error = baseline_index_build(in->baseline_run, &in->runs[ri],
						       in->threshold_pct, &bi);
			if (b.error)
				break;
		}
		check_run(&b, in, ri, in->baseline_run ? &bi : NULL, matches);
		if (in->baseline_run)
			baseline_index_release(&bi);
	}
	free(matches);
	if (!b.error)
		for (size_t i = 0; i < res.nrows; i++)
			if (!res.rows[i].case_id ||
			    (res.rows[i].status != CHECK_MEASURED && !res.rows[i].criterion))
				b.error = -ENOMEM;
	if (b.error) {
		check_result_release(&res);
		return b.error;
	}
	count(&res);
	*ret = res;
	return 0;
}

void check_result_release(struct check_result *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nrows; i++)
		free_all(c->rows[i].criterion, c->rows[i].note, c->rows[i].case_id);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

const struct run_record *check_row_run(const struct check_result *c, const struct check_row *r)
{
	return &c->runs[r->run_index];
}

/* ---- field tables ---- */

#include "check/check.fields.h"

void check_describe(const struct check_result *c, struct report *out)
{
	report_add_object(out, "check", NULL, &check_summary_desc, c);
	report_add_table(out, "checks", NULL, &check_row_desc, c->rows, c->nrows, sizeof(*c->rows));
}

bool check_row_is_measurement(const struct check_row *r)
{
	const struct class_metric *cm = run_class_metric_of(r->test, r->metric);

	return !isnan(r->value) && !(cm && cm->distribution);
}

bool check_row_is_case(const struct check_row *r, bool measurements)
{
	if (r->status != CHECK_MEASURED)
		return true;
	return measurements && check_row_is_measurement(r);
}

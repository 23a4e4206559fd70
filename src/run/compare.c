// SPDX-License-Identifier: MIT
#include "run/compare.h"
#include "run/class.h"
#include "model/record_fields.h"
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
	[VERDICT_CONTENDED] = "contended",
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

/* the 100 ms samples of a record without batches (compare.h, 3.) */
static double samples_spread(const struct run_metric *m, enum spread_why *why)
{
	if (m->samples == U64_UNKNOWN || m->samples < COMPARE_MIN_SAMPLES ||
	    !isfinite(m->sample_stdev) || m->sample_stdev < 0)
		return NAN;
	if (!steady(m)) {
		*why = SPREAD_UNSTEADY;
		return NAN;
	}
	return m->sample_stdev;
}

/* a figure that leans on the CPU, on the pass's own evidence (compare.h) */
static bool leans_on_cpu(const struct run_metric *m, enum spread_why *why)
{
	if (isnan(m->cpu_wait_pct)) {
		bool contended = m->cpu_pressure_pct > COMPARE_MAX_CPU_PRESSURE_PCT;

		/* a record without the evidence: the machine's load stands in for it */
		*why = contended ? SPREAD_CONTENDED : SPREAD_CPU_BOUND;
		return contended || m->cpu_busy_pct > COMPARE_MAX_CPU_BUSY_PCT;
	}
	/*
	 * the CPU's figure, contended or not: what slows it beside other work (a
	 * hyperthread's sibling, the shared cache, a kernel worker's waits, the
	 * hypervisor) is not its thread's wait; others' system time may make an
	 * I/O-bound pass look like one, which leaves it unjudged, never misjudged
	 */
	*why = SPREAD_CPU_BOUND;
	if (m->cpu_wait_pct <= COMPARE_MAX_WEIGHED_WAIT_PCT &&
	    (isnan(m->cpu_io_pct) ? m->cpu_busy_pct : m->cpu_io_pct) > COMPARE_MAX_CPU_BUSY_PCT)
		return true;
	if (m->cpu_wait_pct > COMPARE_MAX_CPU_WAIT_PCT) {
		*why = SPREAD_CPU_WAIT;
		return true;
	}
	return false;
}

/* a tail of the pass (run/class.h): its spread from one pass is floored */
static bool tail(const struct run_metric *m)
{
	const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

	return cm && cm->tail;
}

/*
 * A rate can only lose to waits for a CPU (compare.h); what else a pass
 * measures can go either way under contention: a throttle makes up for a
 * late request with a shorter next one, a starved kernel thread keeps a
 * request in flight longer, a busy CPU costs more per request
 */
static enum compare_scale contention_scale(const struct run_metric *m)
{
	const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

	return cm && cm->rate && m->higher_is_better ? SCALE_RATE : SCALE_NONE;
}

/* a share of time the pass took (its CPU use, in %): lower is better */
static bool share(const struct run_metric *m)
{
	/* any share ("% of one CPU", "% of time"): model's UNIT_PCT_* */
	return m->unit && m->unit[0] == '%' && !m->higher_is_better;
}

/*
 * The CPU other work kept busy beside the pass, in % of one CPU: the
 * machine's busy time less the pass's own (its CPU share, else its I/O's)
 */
static double others_busy(const struct run_metric *m)
{
	if (share(m))
		return m->cpu_busy_pct - m->value;
	return m->cpu_busy_pct - (isnan(m->cpu_io_pct) ? 0 : m->cpu_io_pct);
}

void compare_side_of(const struct run_metric *m, struct compare_side *ret)
{
	enum spread_why why = SPREAD_ONE_PASS, lean = SPREAD_KNOWN;
	bool cpu = leans_on_cpu(m, &lean);
	bool contended = cpu && (lean == SPREAD_CPU_WAIT || lean == SPREAD_CONTENDED);
	enum compare_scale scale =
	    m->cpu_wait_pct > COMPARE_MAX_WEIGHED_WAIT_PCT ? SCALE_NONE : contention_scale(m);
	bool repeated = isfinite(m->stdev) && m->stdev >= 0 && m->repeats != 1;
	/* a contended pass's batches still say how uneven it was */
	double pass = cpu && !contended ? NAN : m->pass_spread;
	struct compare_side s = {.value = m->value, .sd = NAN, .scale = scale};
	/* each a lookup in the class table: asked once */
	bool is_share = share(m), is_tail = tail(m);

	if (m->cpu_wait_pct > 0)
		s.wait = fmin(m->cpu_wait_pct, 100) / 100;
	/* run leaves stdev unknown with one repeat; an imported one may lack repeats */
	if (contended && (lean == SPREAD_CONTENDED || scale == SCALE_NONE)) {
		why = lean; /* nothing to weigh the waits by: neither batches nor repeats tell */
	} else if (repeated) {
		s.sd = m->stdev, s.from = "repeats";
		/*
		 * the mean of the repeats, no surer than the passes themselves say; a
		 * tail of them all is no surer than one repeat's (compare.h)
		 */
		if (is_tail)
			s.sd = fmax(m->stdev, pass); /* fmax: an unknown pass leaves the repeats' */
		else if (isfinite(pass) && m->repeats != U64_UNKNOWN && m->repeats > 1)
			s.sd = fmax(m->stdev / sqrt((double)m->repeats), pass);
	} else if (isfinite(pass) && pass >= 0) {
		s.sd = pass, s.from = "pass";
	} else if (cpu && !contended) {
		why = lean;
	} else if (!isnan(s.sd = samples_spread(m, &why))) {
		s.from = "samples";
	}
	s.why = s.from ? SPREAD_KNOWN : why;
	/* the CPU's figures beside other work (compare.h); a figure already unknown keeps its reason */
	if (s.from && others_busy(m) > COMPARE_MAX_OTHERS_BUSY_PCT) {
		/* an older run (no cpu_io_pct) cannot tell its I/O's CPU from the others' */
		why = is_share					       ? SPREAD_SHARED
		      : cpu && !contended && !isnan(m->cpu_io_pct) ? SPREAD_CPU_SHARED
		      : is_tail					       ? SPREAD_TAIL_SHARED
								       : SPREAD_KNOWN;
		if (why != SPREAD_KNOWN)
			s.sd = NAN, s.from = NULL, s.why = why;
	}
	if (s.from && is_share)
		s.sd = fmax(s.sd, fmax(COMPARE_SHARE_FLOOR * fabs(m->value), COMPARE_SHARE_FLOOR_PTS));
	if (s.from && cpu && !contended)
		s.sd = fmax(s.sd, COMPARE_CPU_BOUND_FLOOR * fabs(m->value));
	if (s.from && is_tail) {
		double least = fabs(m->value) < COMPARE_SHORT_TAIL_US ? COMPARE_SHORT_TAIL_FLOOR
								      : COMPARE_TAIL_FLOOR;

		s.sd = fmax(s.sd, least * fabs(m->value));
	}
	/* known, but only as far as the waits are weighed (compare_sides) */
	if (contended && lean == SPREAD_CPU_WAIT && scale != SCALE_NONE)
		s.why = SPREAD_CPU_WAIT;
	*ret = s;
}

double compare_spread(const struct run_metric *m, const char **ret_from,
		      enum spread_why *ret_why)
{
	struct compare_side s;

	compare_side_of(m, &s);
	if (ret_from)
		*ret_from = s.from;
	if (ret_why)
		*ret_why = s.why;
	return s.sd;
}

void compare_spread_why(enum spread_why why, const struct run_metric *m, struct strbuf *ret)
{
	switch (why) {
	case SPREAD_KNOWN:
		break;
	case SPREAD_CPU_WAIT:
		strbuf_addf(ret, "its I/O thread waited for a CPU %.0f %% of the pass (other work "
				 "kept the CPUs busy), ",
			    m->cpu_wait_pct);
		if (contention_scale(m) == SCALE_NONE)
			strbuf_adds(ret, "which moves this figure either way");
		else if (m->cpu_wait_pct > COMPARE_MAX_WEIGHED_WAIT_PCT)
			strbuf_adds(ret, "which may have cost this rate more than can be bounded");
		else
			strbuf_addf(ret, "which may have cost this rate up to %.0f %%",
				    COMPARE_CPU_WAIT_LOSS * m->cpu_wait_pct);
		break;
	case SPREAD_CONTENDED:
		strbuf_addf(ret,
			    "the CPUs were contended during the pass (some task waited %.0f %% of "
			    "the time), and this older run has no evidence of whether the figure "
			    "leans on them",
			    m->cpu_pressure_pct);
		break;
	case SPREAD_CPU_BOUND:
		strbuf_addf(ret,
			    "the pass kept %.0f %% of a CPU busy: the figure is the CPU's and moves "
			    "with its clock from run to run, which one pass cannot tell",
			    isnan(m->cpu_io_pct) ? m->cpu_busy_pct : m->cpu_io_pct);
		break;
	case SPREAD_ONE_PASS:
		strbuf_adds(ret, "one pass, too short or not sampled for a spread within it");
		break;
	case SPREAD_SHARED:
		strbuf_addf(ret,
			    "other work kept %.0f %% of a CPU busy beside the pass, which moves what "
			    "it costs either way",
			    others_busy(m));
		break;
	case SPREAD_CPU_SHARED:
		strbuf_addf(ret,
			    "the pass kept %.0f %% of a CPU busy while other work kept %.0f %% busy "
			    "beside it: the figure is the CPU's, and moves with where the scheduler "
			    "puts the pass's work beside that load, more from run to run than between "
			    "its repeats",
			    isnan(m->cpu_io_pct) ? m->cpu_busy_pct : m->cpu_io_pct, others_busy(m));
		break;
	case SPREAD_TAIL_SHARED:
		strbuf_addf(ret,
			    "other work kept %.0f %% of a CPU busy beside the pass: a tail is set by "
			    "where its few slowest requests land, which moves from run to run beside "
			    "other work more than within one pass or between its repeats",
			    others_busy(m));
		break;
	case SPREAD_UNSTEADY:
		strbuf_addf(ret, "one pass whose rate swung %.0f %% within it (an older run)",
			    100 * m->sample_stdev /
				fabs(isfinite(m->sample_mean) ? m->sample_mean : m->value));
		break;
	}
}

const char *compare_spread_todo(enum spread_why why)
{
	switch (why) {
	case SPREAD_CPU_WAIT:
	case SPREAD_CONTENDED:
		return "rerun both on a quieter machine (fewer jobs beside it): the waits, "
		       "not the repeats, keep it from being judged";
	case SPREAD_ONE_PASS:
		return "rerun both with --repeat 3, or longer passes (--min-time)";
	case SPREAD_KNOWN:
	case SPREAD_CPU_BOUND:
	case SPREAD_UNSTEADY:
		break;
	case SPREAD_SHARED:
	case SPREAD_CPU_SHARED:
	case SPREAD_TAIL_SHARED:
		return "rerun both on a quieter machine (fewer jobs beside it): repeats beside "
		       "the same load do not show how the CPU's figures move with it";
	}
	return "rerun both with --repeat 3";
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

bool compare_why_contended(enum spread_why why)
{
	switch (why) {
	case SPREAD_CPU_WAIT:
	case SPREAD_CONTENDED:
	case SPREAD_SHARED:
	case SPREAD_CPU_SHARED:
	case SPREAD_TAIL_SHARED:
		return true;
	case SPREAD_KNOWN:
	case SPREAD_CPU_BOUND:
	case SPREAD_ONE_PASS:
	case SPREAD_UNSTEADY:
		break;
	}
	return false;
}

/* what a side's figure would be had contention cost it as much as it can: INFINITY unbounded */
static double worst_case(const struct compare_side *s)
{
	double loss = COMPARE_CPU_WAIT_LOSS * s->wait;

	if (s->scale == SCALE_RATE)
		return loss < 1 ? 1 / (1 - loss) : INFINITY;
	return 1;
}

static bool calm(enum compare_verdict v)
{
	return v == VERDICT_SAME || v == VERDICT_NOISE;
}

static enum compare_verdict weigh_sides(const struct compare_side *a, const struct compare_side *b,
					bool higher_is_better, double threshold_pct,
					double *ret_change_pct)
{
	enum compare_verdict v, vk;
	double fa = worst_case(a), fb = worst_case(b), ignored;

	/* contention that cost nothing: the figures as measured */
	v = compare_metric(a->value, a->sd, b->value, b->sd, higher_is_better, threshold_pct,
			   ret_change_pct);
	if (v == VERDICT_UNKNOWN || (fa == 1 && fb == 1))
		return v;
	/* ... and as much as it can, on the same device in both runs */
	if (isinf(fa) && isinf(fb))
		vk = VERDICT_SPREAD_UNKNOWN;
	else if (isinf(fa))
		vk = higher_is_better ? VERDICT_WORSE : VERDICT_BETTER;
	else if (isinf(fb))
		vk = higher_is_better ? VERDICT_BETTER : VERDICT_WORSE;
	else
		vk = compare_metric(a->value * fa, a->sd * fa, b->value * fb, b->sd * fb,
				    higher_is_better, threshold_pct, &ignored);
	if (v == vk)
		return v;
	if (calm(v) && calm(vk))
		return VERDICT_NOISE;
	return VERDICT_SPREAD_UNKNOWN; /* contention could explain it, or hide it */
}

/* a side that could not be judged for other work beside it */
static bool side_contended(const struct compare_side *s)
{
	return isnan(s->sd) && compare_why_contended(s->why);
}

enum compare_verdict compare_sides(const struct compare_side *a, const struct compare_side *b,
				   bool higher_is_better, double threshold_pct, double *ret_change_pct)
{
	enum compare_verdict v = weigh_sides(a, b, higher_is_better, threshold_pct, ret_change_pct);

	/* both spreads known: what left it unjudged was what the waits may have cost */
	if (v == VERDICT_SPREAD_UNKNOWN &&
	    (side_contended(a) || side_contended(b) || (!isnan(a->sd) && !isnan(b->sd))))
		return VERDICT_CONTENDED;
	return v;
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
	free_all(sa, sb);
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
		[VERDICT_CONTENDED] = &c->contended,
	};

	(*counters[v])++;
}

static void fill_side(struct compare_row *row, const struct run_metric *m,
		      struct compare_side *s, bool is_b)
{
	compare_side_of(m, s);
	if (is_b) {
		row->b = m->value;
		row->b_stdev = s->sd;
		row->b_spread = s->from;
		row->b_why = s->why;
	} else {
		row->a = m->value;
		row->a_stdev = s->sd;
		row->a_spread = s->from;
		row->a_why = s->why;
	}
	row->device_key = m->device_key;
	row->test = m->test;
	row->name = m->name;
	row->metric = m->metric;
	row->unit = m->unit;
}

/* "A: why; B: why", each side whose spread is unknown or whose waits were weighed */
static char *unknown_why(const struct compare_row *row, const struct run_metric *ma,
			 const struct run_metric *mb)
{
	struct strbuf sb = STRBUF_INIT;

	if (row->a_why != SPREAD_KNOWN) {
		strbuf_adds(&sb, "A: ");
		compare_spread_why(row->a_why, ma, &sb);
	}
	if (row->b_why != SPREAD_KNOWN) {
		strbuf_adds(&sb, sb.len ? "; B: " : "B: ");
		compare_spread_why(row->b_why, mb, &sb);
	}
	/* both spreads known: what decided it was the waits, however short */
	if (!sb.len)
		strbuf_addf(&sb,
			    "A: its I/O thread waited for a CPU %.0f %% of the pass; B: %.0f %%: "
			    "the change is within what that may have cost",
			    isnan(ma->cpu_wait_pct) ? 0 : ma->cpu_wait_pct,
			    isnan(mb->cpu_wait_pct) ? 0 : mb->cpu_wait_pct);
	return strbuf_detach(&sb);
}

/* what to do: the remedy of the reason that gave the verdict (contended: a quieter machine) */
static const char *unknown_todo(const struct compare_row *row)
{
	bool contended = row->v == VERDICT_CONTENDED;
	enum spread_why w = SPREAD_CPU_WAIT; /* both known: the waits decided */

	/* the side whose reason gave the verdict; B's first, the run being judged */
	if (row->b_why != SPREAD_KNOWN && compare_why_contended(row->b_why) == contended)
		w = row->b_why;
	else if (row->a_why != SPREAD_KNOWN && compare_why_contended(row->a_why) == contended)
		w = row->a_why;
	return compare_spread_todo(w);
}

/* one entry per pass and reason: the metrics it holds back, listed */
static void add_unknown(struct compare_result *c, struct compare_row *row,
			const struct run_metric *ma, const struct run_metric *mb)
{
	struct compare_unknown *u = NULL;
	struct strbuf sb = STRBUF_INIT;

	row->why = unknown_why(row, ma, mb);
	row->todo = unknown_todo(row);
	for (size_t i = 0; i < c->nunknowns && !u; i++)
		if (same_str(c->unknowns[i].device_key, row->device_key) &&
		    same_str(c->unknowns[i].pass, row->name) &&
		    !strcmp(c->unknowns[i].why, row->why) &&
		    c->unknowns[i].verdict == row->verdict) /* both compare_verdict_name's */
			u = &c->unknowns[i];
	if (u) {
		strbuf_adds(&sb, u->metrics);
		strbuf_addf(&sb, ", %s", row->metric);
		free(u->metrics);
		u->metrics = strbuf_detach(&sb);
		return;
	}
	u = realloc(c->unknowns, (c->nunknowns + 1) * sizeof(*u));
	if (!u)
		abort();
	c->unknowns = u;
	c->unknowns[c->nunknowns++] = (struct compare_unknown){
	    row->device_key, row->name, row->verdict, xstrdup(row->metric), xstrdup(row->why),
	    row->todo};
}

/*
 * a histogram's bin (its count moves with the pass's length) or the pass's
 * context (run/class.h): neither is a regression
 */
static bool not_compared(const struct run_metric *m)
{
	const struct class_metric *cm = run_class_metric_of(m->test, m->metric);

	return cm && (cm->distribution || cm->context);
}

static void add_row(struct compare_result *c, const struct run_metric *ma,
		    const struct run_metric *mb, const char *dev)
{
	struct compare_row *row = &c->rows[c->nrows++];
	struct compare_side sa, sb;
	enum compare_verdict v;

	*row = (struct compare_row){.a = NAN, .a_stdev = NAN, .b = NAN, .b_stdev = NAN,
				    .change_pct = NAN, .device_id = xstrdup(dev)};
	if (ma)
		fill_side(row, ma, &sa, false);
	if (mb)
		fill_side(row, mb, &sb, true);
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
		v = compare_sides(&sa, &sb, ma->higher_is_better, c->threshold_pct,
				  &row->change_pct);
	}
	row->v = v;
	row->verdict = compare_verdict_name(v);
	count(c, v);
	if (ma && mb)
		c->compared++;
	if (compare_not_judged(v))
		add_unknown(c, row, ma, mb);
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
	free_all(ib, seen);
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
		if (!not_compared(&a->metrics[i]))
			add_row(&c, &a->metrics[i],
				pair[i] == SIZE_MAX ? NULL : &b->metrics[pair[i]], ea[i].dev);
	for (i = 0; i < b->nmetrics; i++)
		if (!taken[i] && !not_compared(&b->metrics[i]))
			add_row(&c, NULL, &b->metrics[i], eb[i].dev);
	entries_free(ea, a->nmetrics);
	entries_free(eb, b->nmetrics);
	free_all(pair, taken);
	c.result = !c.compared	     ? COMPARE_NOTHING
		   : c.worse	     ? "regression"
		   : c.spread_unknown ? "spread unknown"
		   : c.contended      ? "contended"
				      : "ok";
	*ret = c;
	return 0;
}

void compare_result_release(struct compare_result *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].device_id), free(c->rows[i].why);
	free(c->rows);
	for (size_t i = 0; i < c->ncaveats; i++) {
		free(c->caveats[i].subject), free(c->caveats[i].what);
		free(c->caveats[i].a), free(c->caveats[i].b);
	}
	free(c->caveats);
	for (size_t i = 0; i < c->nunknowns; i++)
		free(c->unknowns[i].metrics), free(c->unknowns[i].why);
	free(c->unknowns);
	memset(c, 0, sizeof(*c));
}

// SPDX-License-Identifier: MIT
/* Text and CSV renderers, and the field formatting they share. */
#include "render/field.h"
#include "core/run/class.h"
#include "render/spark.h"
#include "render/text_blocks.h"
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int format_parse(const char *s, enum output_format *ret)
{
	if (!strcmp(s, "text"))
		*ret = FORMAT_TEXT;
	else if (!strcmp(s, "json"))
		*ret = FORMAT_JSON;
	else if (!strcmp(s, "csv"))
		*ret = FORMAT_CSV;
	else
		return -EINVAL;
	return 0;
}

void report_add_object(struct report *r, const char *key, const char *title,
		       const struct record_desc *d, const void *data)
{
	if (r->nsec < REPORT_MAX_SECTIONS)
		r->sec[r->nsec++] = (struct report_section){.key = key, .title = title, .kind = SECTION_OBJECT,
						    .desc = d, .data = data, .count = 1};
}

void report_add_table(struct report *r, const char *key, const char *title,
		      const struct record_desc *d, const void *data, size_t count, size_t stride)
{
	if (r->nsec < REPORT_MAX_SECTIONS)
		r->sec[r->nsec++] =
			(struct report_section){.key = key, .title = title, .kind = SECTION_TABLE,
						.desc = d, .data = data, .count = count,
						.stride = stride};
}

void report_add_inline(struct report *r, const char *key, const struct record_desc *d,
		       const void *data)
{
	if (r->nsec < REPORT_MAX_SECTIONS)
		r->sec[r->nsec++] = (struct report_section){.key = key, .kind = SECTION_INLINE, .desc = d,
						    .data = data, .count = 1};
}

bool field_known(const struct field *f, const void *rec)
{
	const char *p = (const char *)rec + f->offset;

	if (f->type == FT_STR)
		return *(const char *const *)p != NULL;
	if (f->type == FT_DBL)
		return !isnan(*(const double *)p);
	if (f->type == FT_U64 || f->type == FT_SIZE)
		return *(const uint64_t *)p != U64_UNKNOWN;
	if (f->type == FT_INT)
		return *(const int64_t *)p != FIELD_INT_UNKNOWN;
	return true;
}

/* the items of an FF_LIST string, sep between them */
static void list_join(const char *s, const char *sep, struct strbuf *out)
{
	for (; *s; s++) {
		if (*s == FIELD_LIST_SEP)
			strbuf_adds(out, sep);
		else
			strbuf_addch(out, *s);
	}
}

bool field_anomaly(const struct field *f, const void *rec)
{
	return f->flags & FF_CEILING_SHARE && f->type == FT_DBL && field_known(f, rec) &&
	       *(const double *)((const char *)rec + f->offset) > 100;
}

void field_format(const struct field *f, const void *rec, bool human, struct strbuf *out)
{
	const char *p = (const char *)rec + f->offset;

	if (!field_known(f, rec)) {
		strbuf_adds(out, human ? "-" : "");
		return;
	}
	/* CSV keeps the figure (a column of numbers), its anomaly in the next column */
	if (human && field_anomaly(f, rec)) {
		strbuf_adds(out, FIELD_ANOMALY_TEXT);
		return;
	}
	switch (f->type) {
	case FT_STR:
		if (human && f->flags & FF_METRIC)
			strbuf_adds(out, metric_vocab(*(const char *const *)p, NULL).label);
		else if (f->flags & FF_LIST)
			list_join(*(const char *const *)p, human ? ", " : "; ", out);
		else
			strbuf_adds(out, *(const char *const *)p);
		break;
	case FT_U64:
		strbuf_addf(out, "%llu", (unsigned long long)*(const uint64_t *)p);
		break;
	case FT_INT:
		strbuf_addf(out, "%lld", (long long)*(const int64_t *)p);
		break;
	case FT_SIZE: {
		char b[32];
		if (human) {
			/* a size says its unit, as every other size in the output: "128 MiB" */
			format_size(*(const uint64_t *)p, b, sizeof(b));
			size_t n = strlen(b);
			if (n && strchr("KMGT", b[n - 1]))
				strbuf_addf(out, "%.*s %ciB", (int)(n - 1), b, b[n - 1]);
			else
				strbuf_addf(out, "%s B", b);
		} else {
			strbuf_addf(out, "%llu", (unsigned long long)*(const uint64_t *)p);
		}
		break;
	}
	case FT_DBL: {
		/* machine formats keep 3 more digits than the terminal shows */
		if (human && f->flags & FF_MAGNITUDE)
			metric_format(out, *(const double *)p);
		else
			strbuf_addf(out, "%.*f", human ? f->prec : f->prec + 3, *(const double *)p);
		break;
	}
	case FT_BOOL:
		strbuf_adds(out, *(const bool *)p ? "yes" : "no");
		break;
	}
}

/*
 * The labels agree with the field tables' headers (run_row_desc: the `run`
 * table), which test_render checks, so the text table and the page match.
 */
static const struct metric_vocab vocab[] = {
    {"mb_s", "rate", "MB/s"},
    {"mb_s_stdev", "sd", "MB/s"},
    {"mib_s", "rate", "MiB/s"},
    {"mbit_s", "rate", "Mbit/s"},
    {"iops", "IOPS", NULL},
    {"lat_p50_us", "p50", "us"},
    {"lat_p90_us", "p90", "us"},
    {"lat_p99_us", "p99", "us"},
    {"lat_p999_us", "p99.9", "us"},
    {"lat_max_us", "max latency", "us"},
    {"self_cpu_pct", "cpu", UNIT_PCT_ONE_CPU},
    {"cpu_sys_pct", "sys CPU", UNIT_PCT_ALL_CPUS},
    {"ceiling_mb_s", "ceiling", "MB/s"},
    {"efficiency_pct", "of ceil", "%"},
    {"irq_per_mb", "interrupts", "IRQ/MB"},
    {"retransmits", "retransmits", "segments"},
};

struct metric_vocab metric_vocab(const char *key, const char *unit_hint)
{
	const struct class_metric *m;

	for (size_t i = 0; key && i < sizeof(vocab) / sizeof(vocab[0]); i++)
		if (!strcmp(vocab[i].key, key))
			return vocab[i];
	/* a measurement class's own metric (core/run/class.h): its table names it */
	m = run_class_metric_any(key);
	if (m)
		return (struct metric_vocab){key, m->label, m->unit};
	return (struct metric_vocab){key, key ? key : "-", unit_hint};
}

int metric_prec(double v)
{
	v = fabs(v);
	/* none at all (no bad blocks, no errors) reads 0, not 0.000 */
	if (v == 0)
		return 0;
	return v >= 1000 ? 0 : v >= 100 ? 1 : v >= 1 ? 2 : 3;
}

void metric_format(struct strbuf *out, double v)
{
	if (isnan(v))
		strbuf_adds(out, "-");
	else
		strbuf_addf(out, "%.*f", metric_prec(v), v);
}

void ceiling_format(struct strbuf *out, double ceiling, const char *unit)
{
	strbuf_adds(out, "bus ceiling ");
	metric_format(out, ceiling);
	strbuf_addch(out, ' ');
	strbuf_adds(out, unit);
}

static const void *record_at(const struct report_section *s, size_t i)
{
	return (const char *)s->data + i * s->stride;
}

static bool is_numeric(enum field_type t)
{
	return t != FT_STR && t != FT_BOOL;
}

static void text_object(const struct report_section *s, struct strbuf *out)
{
	struct strbuf v = STRBUF_INIT;
	size_t i, w = 0;

	for (i = 0; i < s->desc->nfields; i++)
		if (s->desc->fields[i].flags & FF_TEXT && strlen(s->desc->fields[i].header) > w)
			w = strlen(s->desc->fields[i].header);
	if (s->title)
		strbuf_addf(out, "%s\n", s->title);
	for (i = 0; i < s->desc->nfields; i++) {
		const struct field *f = &s->desc->fields[i];
		if (!(f->flags & FF_TEXT))
			continue;
		bool known = field_known(f, s->data);

		/* unknown strings are left out of the header block: nothing to say */
		if ((f->type == FT_STR || f->flags & FF_OPTIONAL) && !known)
			continue;
		strbuf_reset(&v);
		field_format(f, s->data, true, &v);
		if (field_anomaly(f, s->data)) {
			strbuf_addf(out, "  %-*s  %s\n", (int)w, f->header, FIELD_ANOMALY_NOTE);
			continue;
		}
		strbuf_addf(out, "  %-*s  %s%s%s\n", (int)w, f->header, v.buf,
			    f->unit && known ? " " : "", f->unit && known ? f->unit : "");
	}
	strbuf_release(&v);
}

/* A column: one to three fields ("mean", its "±stdev", "(alt)"), a width, an alignment. */
struct column {
	const struct field *f, *pm, *alt;
	size_t width;
	bool right;
	double bar_max; /* FF_BAR: the scale of its bars; NaN: none */
};

#define BAR_CELLS 10

static double value_of(const struct field *f, const void *rec)
{
	const char *p = (const char *)rec + f->offset;

	if (!field_known(f, rec))
		return NAN;
	switch (f->type) {
	case FT_DBL: return *(const double *)p;
	case FT_U64:
	case FT_SIZE: return (double)*(const uint64_t *)p;
	case FT_INT: return (double)*(const int64_t *)p;
	default: return NAN;
	}
}

static double bar_scale(const struct report_section *s, const struct field *f)
{
	double max = 0;

	if (!(f->flags & FF_BAR))
		return NAN;
	if (f->unit && !strcmp(f->unit, "%"))
		return 100;
	for (size_t i = 0; i < s->count; i++) {
		double v = value_of(f, record_at(s, i));

		if (!isnan(v) && v > max)
			max = v;
	}
	return max > 0 ? max : NAN;
}

static void cell(const struct column *c, const void *rec, struct strbuf *out)
{
	field_format(c->f, rec, true, out);
	if (c->pm && field_known(c->pm, rec)) {
		strbuf_adds(out, " ±");
		/* a spread in the decimals of the figure it qualifies */
		if (c->f->flags & FF_MAGNITUDE && c->pm->type == FT_DBL && field_known(c->f, rec))
			strbuf_addf(out, "%.*f", metric_prec(value_of(c->f, rec)),
				    value_of(c->pm, rec));
		else
			field_format(c->pm, rec, true, out);
	}
	if (c->alt && field_known(c->alt, rec)) {
		strbuf_adds(out, " (");
		field_format(c->alt, rec, true, out);
		strbuf_addch(out, ')');
	}
}

/* the unit row: "MB/s (MiB/s)" over a cell that has its figure in both */
static void column_unit(const struct column *c, struct strbuf *out)
{
	if (c->f->unit)
		strbuf_adds(out, c->f->unit);
	if (c->alt && c->alt->unit)
		strbuf_addf(out, " (%s)", c->alt->unit);
}

/* display width of a rendered cell: "±" is two bytes, one column */
static size_t cell_width(const struct column *c, const char *text)
{
	return strlen(text) - (c->pm && strstr(text, "±") ? 1 : 0);
}

/* every row has the same value in f (text: an FF_SAME column says nothing) */
static bool column_same(const struct report_section *s, const struct field *f)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	bool same = true;

	for (size_t i = 0; same && i < s->count; i++) {
		strbuf_reset(&b);
		field_format(f, record_at(s, i), true, &b);
		if (i)
			same = !strcmp(a.buf, b.buf);
		strbuf_reset(&a);
		strbuf_adds(&a, b.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return same;
}

static bool column_known(const struct report_section *s, const struct field *f)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (field_known(f, record_at(s, i)))
			return true;
	return false;
}

static bool any_anomaly(const struct report_section *s)
{
	for (size_t i = 0; i < s->count; i++)
		for (size_t j = 0; j < s->desc->nfields; j++)
			if (field_anomaly(&s->desc->fields[j], record_at(s, i)))
				return true;
	return false;
}

static void text_table(const struct report_section *s, struct strbuf *out)
{
	struct column cols[64];
	struct strbuf v = STRBUF_INIT;
	size_t nc = 0, i, j;
	bool any_unit = false, utf8 = text_utf8();

	for (i = 0; i < s->desc->nfields && nc < 64; i++) {
		const struct field *f = &s->desc->fields[i];
		if (!(f->flags & FF_TEXT))
			continue;
		if (f->flags & FF_OPTIONAL && !column_known(s, f))
			continue;
		/* the terminal's table fits TEXT_WIDTH: the rest with --wide (and in JSON) */
		if (f->flags & FF_WIDE && !text_wide())
			continue;
		if (f->flags & FF_SAME && !text_wide() && column_same(s, f))
			continue;
		if (f->flags & FF_PLUSMINUS && nc) {
			cols[nc - 1].pm = f;
			continue;
		}
		if (f->flags & FF_ALT && nc) {
			cols[nc - 1].alt = f;
			continue;
		}
		cols[nc++] = (struct column){f, NULL, NULL, strlen(f->header), is_numeric(f->type),
					     bar_scale(s, f)};
		if (f->unit)
			any_unit = true;
	}
	for (j = 0; j < nc; j++) {
		strbuf_reset(&v);
		column_unit(&cols[j], &v);
		if (v.len > cols[j].width)
			cols[j].width = v.len;
		for (i = 0; i < s->count; i++) {
			strbuf_reset(&v);
			cell(&cols[j], record_at(s, i), &v);
			if (cell_width(&cols[j], v.buf) > cols[j].width)
				cols[j].width = cell_width(&cols[j], v.buf);
		}
	}
	if (s->title)
		strbuf_addf(out, "%s\n", s->title);
	for (int row = 0; row < (any_unit ? 2 : 1); row++) {
		strbuf_reset(&v);
		for (j = 0; j < nc; j++) {
			struct strbuf u = STRBUF_INIT;

			if (row == 0)
				strbuf_adds(&u, cols[j].f->header);
			else
				column_unit(&cols[j], &u);
			strbuf_addf(&v, j ? "  %*s" : "%*s", cols[j].right ? (int)cols[j].width
									   : -(int)cols[j].width,
				    u.buf);
			strbuf_release(&u);
			if (!isnan(cols[j].bar_max))
				strbuf_addf(&v, "  %*s", BAR_CELLS, "");
		}
		while (v.len && v.buf[v.len - 1] == ' ')
			v.buf[--v.len] = '\0';
		strbuf_addf(out, "%s\n", v.buf);
	}
	for (i = 0; i < s->count; i++) {
		struct strbuf line = STRBUF_INIT;
		for (j = 0; j < nc; j++) {
			size_t w;
			strbuf_reset(&v);
			cell(&cols[j], record_at(s, i), &v);
			w = cell_width(&cols[j], v.buf);
			if (j)
				strbuf_adds(&line, "  ");
			if (cols[j].right)
				strbuf_pad(&line, ' ', cols[j].width - w);
			strbuf_adds(&line, v.buf);
			if (!cols[j].right && (j + 1 < nc || !isnan(cols[j].bar_max)))
				strbuf_pad(&line, ' ', cols[j].width - w);
			if (!isnan(cols[j].bar_max)) {
				strbuf_adds(&line, "  ");
				text_bar(&line, value_of(cols[j].f, record_at(s, i)) / cols[j].bar_max,
					 BAR_CELLS, utf8);
			}
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		strbuf_addf(out, "%s\n", line.buf);
		strbuf_release(&line);
	}
	if (any_anomaly(s))
		strbuf_adds(out, "  " FIELD_ANOMALY_NOTE "\n");
	strbuf_release(&v);
}

int render_text(const struct report *r, struct strbuf *out)
{
	bool first = true;
	size_t i;

	for (i = 0; i < r->nsec; i++) {
		const struct report_section *s = &r->sec[i];
		if (s->kind == SECTION_TABLE && s->count == 0)
			continue;
		if (!first)
			strbuf_addch(out, '\n');
		first = false;
		if (s->kind == SECTION_OBJECT || s->kind == SECTION_INLINE)
			text_object(s, out);
		else if (s->desc == &finding_desc)
			/* evidence and fix are sentences: blocks, not columns */
			render_findings_text(s->data, s->count, out);
		else
			text_table(s, out);
	}
	if (r->nwarnings)
		strbuf_addch(out, '\n');
	for (i = 0; i < r->nwarnings; i++) {
		strbuf_adds(out, "warning: ");
		text_wrap(out, 9, r->warnings[i]);
	}
	return 0;
}

static void csv_quote(const char *s, struct strbuf *out)
{
	if (!strpbrk(s, ",\"\n\r")) {
		strbuf_adds(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(out, '"');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

int render_csv(const struct report *r, struct strbuf *out)
{
	const struct report_section *s = NULL;
	struct strbuf v = STRBUF_INIT;
	size_t i, j;

	for (i = 0; i < r->nsec && !s; i++)
		if (r->sec[i].kind == SECTION_TABLE)
			s = &r->sec[i];
	if (!s)
		return -EINVAL;
	for (j = 0; j < s->desc->nfields; j++) {
		if (j)
			strbuf_addch(out, ',');
		strbuf_adds(out, s->desc->fields[j].key);
		if (s->desc->fields[j].flags & FF_CEILING_SHARE)
			strbuf_addf(out, ",%s_anomaly", s->desc->fields[j].key);
	}
	strbuf_addch(out, '\n');
	for (i = 0; i < s->count; i++) {
		for (j = 0; j < s->desc->nfields; j++) {
			const struct field *f = &s->desc->fields[j];
			bool anomaly = field_anomaly(f, record_at(s, i));

			if (j)
				strbuf_addch(out, ',');
			strbuf_reset(&v);
			/* unknown: an empty cell; a share above its ceiling too, as JSON's null */
			if (!anomaly)
				field_format(f, record_at(s, i), false, &v);
			csv_quote(v.buf, out);
			if (f->flags & FF_CEILING_SHARE)
				strbuf_adds(out, anomaly ? ",true" : ",false");
		}
		strbuf_addch(out, '\n');
	}
	strbuf_release(&v);
	return 0;
}

int render(const struct report *r, enum output_format f, struct strbuf *out)
{
	switch (f) {
	case FORMAT_TEXT:
		return render_text(r, out);
	case FORMAT_JSON:
		return render_json(r, out);
	case FORMAT_CSV:
		return render_csv(r, out);
	}
	return -EINVAL;
}

// SPDX-License-Identifier: MIT
/* Text and CSV renderers, and the field formatting they share. */
#include "render/render.h"
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

/* a number's value as a double, for bars and scales; NaN unknown or not a number */
static int as_double_u64(void *ctx, const struct field *f, uint64_t v)
{
	(void)f;
	*(double *)ctx = (double)v;
	return 0;
}

static int as_double_i64(void *ctx, const struct field *f, int64_t v)
{
	(void)f;
	*(double *)ctx = (double)v;
	return 0;
}

static int as_double_dbl(void *ctx, const struct field *f, double v)
{
	(void)f;
	*(double *)ctx = v;
	return 0;
}

static double value_of(const struct field *f, const void *rec)
{
	static const struct field_visitor number = {
	    .u64 = as_double_u64, .i64 = as_double_i64, .dbl = as_double_dbl};
	double v = NAN;

	if (field_known(f, rec))
		field_visit(f, rec, &number, &v);
	return v;
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

/* a row's sentences (FF_PROSE), each under it, wrapped: "    why: ..." */
static void text_prose(const struct report_section *s, const void *rec, struct strbuf *out)
{
	for (size_t i = 0; i < s->desc->nfields; i++) {
		const struct field *f = &s->desc->fields[i];
		struct strbuf v = STRBUF_INIT;

		if (!(f->flags & FF_TEXT) || !(f->flags & FF_PROSE) || !field_known(f, rec))
			continue;
		field_format(f, rec, true, &v);
		strbuf_addf(out, "    %s: ", f->header);
		text_wrap(out, 6, v.buf);
		strbuf_release(&v);
	}
}

static void text_table(const struct report_section *s, struct strbuf *out)
{
	struct column cols[64];
	struct strbuf v = STRBUF_INIT;
	size_t nc = 0, i, j;
	bool any_unit = false, utf8 = text_utf8();

	for (i = 0; i < s->desc->nfields && nc < 64; i++) {
		const struct field *f = &s->desc->fields[i];
		if (!(f->flags & FF_TEXT) || f->flags & FF_PROSE)
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
		text_prose(s, record_at(s, i), out);
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

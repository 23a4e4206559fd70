/* SPDX-License-Identifier: MIT */
#include "model/field.h"
#include "util/parse.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

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

int field_visit(const struct field *f, const void *rec, const struct field_visitor *v,
		void *ctx)
{
	const char *p = (const char *)rec + f->offset;

	if (v->unknown && !field_known(f, rec))
		return v->unknown(ctx, f);
	switch (f->type) {
	case FT_STR:
		return v->str ? v->str(ctx, f, *(const char *const *)p) : 0;
	case FT_U64:
	case FT_SIZE:
		return v->u64 ? v->u64(ctx, f, *(const uint64_t *)p) : 0;
	case FT_INT:
		return v->i64 ? v->i64(ctx, f, *(const int64_t *)p) : 0;
	case FT_DBL:
		return v->dbl ? v->dbl(ctx, f, *(const double *)p) : 0;
	case FT_BOOL:
		return v->boolean ? v->boolean(ctx, f, *(const bool *)p) : 0;
	}
	return 0;
}

void field_fill(const struct field *f, void *rec, const struct field_source *src, void *ctx)
{
	char *p = (char *)rec + f->offset;

	switch (f->type) {
	case FT_STR:
		*(char **)p = src->str(ctx, f);
		break;
	case FT_U64:
	case FT_SIZE:
		*(uint64_t *)p = (uint64_t)src->i64(ctx, f);
		break;
	case FT_INT:
		*(int64_t *)p = src->i64(ctx, f);
		break;
	case FT_DBL:
		*(double *)p = src->dbl(ctx, f);
		break;
	case FT_BOOL:
		*(bool *)p = src->i64(ctx, f) != 0;
		break;
	}
}

/* the unknown value of each kind: what field_set_unknown fills in */
static char *unknown_str(void *ctx, const struct field *f)
{
	(void)ctx;
	(void)f;
	return NULL;
}

static int64_t unknown_i64(void *ctx, const struct field *f)
{
	(void)ctx;
	if (f->type == FT_INT)
		return FIELD_INT_UNKNOWN;
	return f->type == FT_BOOL ? 0 : (int64_t)U64_UNKNOWN; /* a bool is false */
}

static double unknown_dbl(void *ctx, const struct field *f)
{
	(void)ctx;
	(void)f;
	return NAN;
}

void field_set_unknown(const struct field *f, void *rec)
{
	static const struct field_source unknown = {unknown_str, unknown_i64, unknown_dbl};

	field_fill(f, rec, &unknown, NULL);
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

/* field_format's visitor: the text of each kind, for a human or a machine */
struct format_ctx {
	bool human;
	struct strbuf *out;
};

static int format_str(void *ctx, const struct field *f, const char *v)
{
	struct format_ctx *c = ctx;

	if (c->human && f->flags & FF_METRIC)
		strbuf_adds(c->out, metric_vocab(v, NULL).label);
	else if (f->flags & FF_LIST)
		list_join(v, c->human ? ", " : "; ", c->out);
	else
		strbuf_adds(c->out, v);
	return 0;
}

static int format_u64(void *ctx, const struct field *f, uint64_t v)
{
	struct format_ctx *c = ctx;
	char b[32];
	size_t n;

	if (f->type != FT_SIZE || !c->human) {
		strbuf_addf(c->out, "%llu", (unsigned long long)v);
		return 0;
	}
	/* a size says its unit, as every other size in the output: "128 MiB" */
	format_size(v, b, sizeof(b));
	n = strlen(b);
	if (n && strchr("KMGT", b[n - 1]))
		strbuf_addf(c->out, "%.*s %ciB", (int)(n - 1), b, b[n - 1]);
	else
		strbuf_addf(c->out, "%s B", b);
	return 0;
}

static int format_i64(void *ctx, const struct field *f, int64_t v)
{
	(void)f;
	strbuf_addf(((struct format_ctx *)ctx)->out, "%lld", (long long)v);
	return 0;
}

static int format_dbl(void *ctx, const struct field *f, double v)
{
	struct format_ctx *c = ctx;

	/* machine formats keep 3 more digits than the terminal shows */
	if (c->human && f->flags & FF_MAGNITUDE)
		metric_format(c->out, v);
	else
		strbuf_addf(c->out, "%.*f", c->human ? f->prec : f->prec + 3, v);
	return 0;
}

static int format_bool(void *ctx, const struct field *f, bool v)
{
	(void)f;
	strbuf_adds(((struct format_ctx *)ctx)->out, v ? "yes" : "no");
	return 0;
}

void field_format(const struct field *f, const void *rec, bool human, struct strbuf *out)
{
	static const struct field_visitor text = {
	    .str = format_str,
	    .u64 = format_u64,
	    .i64 = format_i64,
	    .dbl = format_dbl,
	    .boolean = format_bool,
	};
	struct format_ctx c = {human, out};

	if (!field_known(f, rec)) {
		strbuf_adds(out, human ? "-" : "");
		return;
	}
	/* CSV keeps the figure (a column of numbers), its anomaly in the next column */
	if (human && field_anomaly(f, rec)) {
		strbuf_adds(out, FIELD_ANOMALY_TEXT);
		return;
	}
	field_visit(f, rec, &text, &c);
}

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

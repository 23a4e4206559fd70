// SPDX-License-Identifier: MIT
/* A text table rendered as its rows come: columns fixed by the first rows. */
#include "render/text_stream.h"

#include <string.h>

static const void *record_at(const void *rows, size_t i, size_t stride)
{
	return (const char *)rows + i * stride;
}

static bool numeric(const struct field *f)
{
	return f->type != FT_STR && f->type != FT_BOOL;
}

static size_t cell_width(const struct field *f, const void *rec, struct strbuf *v)
{
	strbuf_reset(v);
	field_format(f, rec, true, v);
	return v->len;
}

/* the columns a whole table of these rows would have, and their widths */
static void columns(struct text_stream *ts, const void *rows, size_t n, size_t stride)
{
	struct strbuf v = STRBUF_INIT;

	for (size_t i = 0; i < ts->desc->nfields && ts->ncols < TEXT_STREAM_MAX_COLS; i++) {
		const struct field *f = &ts->desc->fields[i];
		size_t w = strlen(f->header), j;
		bool known = false;

		if (!(f->flags & FF_TEXT))
			continue;
		for (j = 0; j < n; j++)
			known |= field_known(f, record_at(rows, j, stride));
		if (f->flags & FF_OPTIONAL && !known)
			continue;
		if (f->unit && strlen(f->unit) > w)
			w = strlen(f->unit);
		for (j = 0; j < n; j++) {
			size_t c = cell_width(f, record_at(rows, j, stride), &v) + numeric(f);

			if (c > w)
				w = c;
		}
		ts->col[ts->ncols] = f;
		ts->width[ts->ncols++] = w;
	}
	strbuf_release(&v);
}

static void trim_line(struct strbuf *line, struct strbuf *out)
{
	while (line->len && line->buf[line->len - 1] == ' ')
		line->buf[--line->len] = '\0';
	strbuf_addf(out, "%s\n", line->buf);
	strbuf_reset(line);
}

static void headers(const struct text_stream *ts, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	bool any_unit = false;

	if (ts->title)
		strbuf_addf(out, "%s\n", ts->title);
	for (size_t j = 0; j < ts->ncols; j++) {
		const struct field *f = ts->col[j];

		any_unit |= f->unit != NULL;
		strbuf_addf(&line, j ? "  %*s" : "%*s",
			    numeric(f) ? (int)ts->width[j] : -(int)ts->width[j], f->header);
	}
	trim_line(&line, out);
	for (size_t j = 0; any_unit && j < ts->ncols; j++) {
		const struct field *f = ts->col[j];

		strbuf_addf(&line, j ? "  %*s" : "%*s",
			    numeric(f) ? (int)ts->width[j] : -(int)ts->width[j],
			    f->unit ? f->unit : "");
	}
	if (any_unit)
		trim_line(&line, out);
	strbuf_release(&line);
}

void text_stream_rows(struct text_stream *ts, const void *rows, size_t n, size_t stride,
		      struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT, v = STRBUF_INIT;

	if (!n)
		return;
	if (!ts->started) {
		columns(ts, rows, n, stride);
		headers(ts, out);
		ts->started = true;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < ts->ncols; j++) {
			const struct field *f = ts->col[j];
			size_t w = cell_width(f, record_at(rows, i, stride), &v);
			size_t pad = w < ts->width[j] ? ts->width[j] - w : 0;

			if (j)
				strbuf_adds(&line, "  ");
			if (numeric(f))
				strbuf_pad(&line, ' ', pad);
			strbuf_adds(&line, v.buf);
			if (!numeric(f))
				strbuf_pad(&line, ' ', pad);
		}
		trim_line(&line, out);
	}
	strbuf_release(&line);
	strbuf_release(&v);
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A text table printed a few rows at a time, as they are measured (the
 * interval rows of `net client`, iperf3-style): the same field table and
 * columns as a whole table, but the columns are fixed by the first rows
 * (an optional column shows when the first rows know it; numbers get a
 * digit of room to grow) and there are no bars, whose scale is the largest
 * value, unknown until the end.
 */
#include "render/render.h"
#include "util/strbuf.h"

#define TEXT_STREAM_MAX_COLS 32

struct text_stream {
	const char *title;
	const struct record_desc *desc;
	const struct field *col[TEXT_STREAM_MAX_COLS];
	size_t width[TEXT_STREAM_MAX_COLS];
	size_t ncols;
	bool started; /* the title and headers are out */
};

#define TEXT_STREAM_INIT(t, d) {.title = (t), .desc = (d)}

/* n records of stride bytes each, appended to out; the first call adds the title and headers */
void text_stream_rows(struct text_stream *ts, const void *rows, size_t n, size_t stride,
		      struct strbuf *out);

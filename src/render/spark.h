/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Small inline graphics for a terminal: a bar of eighth blocks for one
 * figure against its scale, and a sparkline for a row of figures. Unicode
 * when the locale says UTF-8, else plain ASCII ('#' and ' .:-=+*#'), so a
 * serial console with a C locale still reads.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

/* true when LC_ALL, LC_CTYPE or LANG (the first one set) names UTF-8 */
bool text_utf8(void);

/*
 * The width text fits: TEXT_WIDTH columns (a table drops its FF_WIDE columns,
 * prose wraps), or none with --wide (text_set_wide): everything, one line a
 * clause, as a script may want it.
 */
#define TEXT_WIDTH 100
void text_set_wide(bool wide);
bool text_wide(void);
/*
 * text appended to out, wrapped at TEXT_WIDTH columns (not with --wide):
 * the first line after first (already in out, its width counted from the
 * last newline), the others indented by hang; a newline at the end
 */
void text_wrap(struct strbuf *out, size_t hang, const char *text);

/* frac of width cells, clamped to 0..1; padded with spaces to width */
void text_bar(struct strbuf *out, double frac, unsigned width, bool utf8);

/* one cell per value, scaled to max (NaN: a gap); max <= 0 takes the values' own */
void text_sparkline(struct strbuf *out, const double *v, size_t n, double max, bool utf8);

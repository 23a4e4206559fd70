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

/* frac of width cells, clamped to 0..1; padded with spaces to width */
void text_bar(struct strbuf *out, double frac, unsigned width, bool utf8);

/* one cell per value, scaled to max (NaN: a gap); max <= 0 takes the values' own */
void text_sparkline(struct strbuf *out, const double *v, size_t n, double max, bool utf8);

// SPDX-License-Identifier: MIT
/* Inline bars and sparklines for text output. */
#include "render/spark.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool wide;

void text_set_wide(bool w)
{
	wide = w;
}

bool text_wide(void)
{
	return wide;
}

/* display columns of s[0..n): UTF-8 continuation bytes take none */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

void text_wrap(struct strbuf *out, size_t hang, const char *text)
{
	const char *nl = out->len ? strrchr(out->buf, '\n') : NULL;
	size_t col = columns(nl ? nl + 1 : out->buf, out->len - (size_t)(nl ? nl + 1 - out->buf : 0));
	const char *p = text;

	if (wide) {
		strbuf_addf(out, "%s\n", text);
		return;
	}
	while (*p) {
		size_t word = strcspn(p, " "), w = columns(p, word);

		/* a word that does not fit starts a line, unless the line holds nothing yet */
		if (col + w > TEXT_WIDTH && col > hang) {
			while (out->len && out->buf[out->len - 1] == ' ')
				out->buf[--out->len] = '\0';
			strbuf_addch(out, '\n');
			strbuf_pad(out, ' ', hang);
			col = hang;
		}
		strbuf_add(out, p, word);
		col += w;
		p += word;
		if (*p == ' ') {
			strbuf_addch(out, ' ');
			col++;
			p++;
		}
	}
	strbuf_addch(out, '\n');
}

bool text_utf8(void)
{
	static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
	}
	return false;
}

/* U+2588 FULL BLOCK down to U+258F LEFT ONE EIGHTH BLOCK */
static const char *const eighths[9] = {
	"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589", "\u2588",
};

void text_bar(struct strbuf *out, double frac, unsigned width, bool utf8)
{
	unsigned cells = 0, n;

	if (isnan(frac) || frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	n = (unsigned)lround(frac * width * (utf8 ? 8 : 1));
	if (!utf8) {
		strbuf_pad(out, '#', n);
		strbuf_pad(out, ' ', width - n);
		return;
	}
	for (; n >= 8; n -= 8, cells++)
		strbuf_adds(out, eighths[8]);
	if (n) {
		strbuf_adds(out, eighths[n]);
		cells++;
	}
	/* a figure above zero shows at least a sliver */
	if (!cells && frac > 0) {
		strbuf_adds(out, eighths[1]);
		cells++;
	}
	strbuf_pad(out, ' ', width - cells);
}

/* U+2581 LOWER ONE EIGHTH BLOCK to U+2588 */
static const char *const levels[8] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};

void text_sparkline(struct strbuf *out, const double *v, size_t n, double max, bool utf8)
{
	static const char ascii[] = ".:-=+*#";

	if (!(max > 0)) {
		max = 0;
		for (size_t i = 0; i < n; i++)
			if (!isnan(v[i]) && v[i] > max)
				max = v[i];
	}
	for (size_t i = 0; i < n; i++) {
		double f = isnan(v[i]) || !(max > 0) ? NAN : fmin(fmax(v[i] / max, 0), 1);

		if (isnan(f))
			strbuf_addch(out, ' ');
		else if (utf8)
			strbuf_adds(out, levels[(int)lround(f * 7)]);
		else
			strbuf_addch(out, ascii[(int)lround(f * 6)]);
	}
}

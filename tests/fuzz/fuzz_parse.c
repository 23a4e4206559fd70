// SPDX-License-Identifier: MIT
/* libFuzzer target: the strict number parsers on arbitrary NUL-terminated text. */
#include "util/parse.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MI (1ULL << 20)

static void sizes(const char *s)
{
	uint64_t v, back, u;
	char buf[32];

	if (parse_size(s, 0, UINT64_MAX, &v) == 0) {
		/* the human form of any accepted size parses back to it */
		format_size(v, buf, sizeof(buf));
		if (parse_size(buf, 0, UINT64_MAX, &back) < 0 || back != v)
			abort();
	}
	if (parse_size(s, 512, 64 * MI, &v) == 0 && (v < 512 || v > 64 * MI))
		abort();
	/* a plain number means the same to both parsers */
	if (parse_u64(s, 0, UINT64_MAX, &u) == 0 &&
	    (parse_size(s, 0, UINT64_MAX, &v) < 0 || v != u))
		abort();
	/* hex: round-trips through %llx, and respects its max */
	if (parse_hex(s, UINT64_MAX, &u) == 0) {
		char hb[32];

		snprintf(hb, sizeof(hb), "%llx", (unsigned long long)u);
		if (parse_hex(hb, UINT64_MAX, &v) < 0 || v != u)
			abort();
	}
	if (parse_hex(s, 0xffff, &u) == 0 && u > 0xffff)
		abort();
	if (parse_u64(s, 10, 20, &u) == 0 && (u < 10 || u > 20))
		abort();
}

static void lists(const char *s)
{
	uint64_t *items = NULL;
	size_t n = 0, i;

	if (parse_size_list(s, 512, 64 * MI, 32, &items, &n) < 0)
		return;
	if (n == 0 || n > 32)
		abort();
	for (i = 0; i < n; i++)
		if (items[i] < 512 || items[i] > 64 * MI)
			abort();
	free(items);
}

static void doubles(const char *s)
{
	double d;

	if (parse_duration(s, 0.01, 86400, &d) == 0 && !(d >= 0.01 && d <= 86400))
		abort();
	if (parse_double(s, -1e9, 1e9, &d) == 0 && !(isfinite(d) && d >= -1e9 && d <= 1e9))
		abort();
}

static void sanitize(char *s)
{
	size_t before = strlen(s);

	sanitize_string(s);
	if (strlen(s) > before)
		abort();
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	sizes(s);
	lists(s);
	doubles(s);
	sanitize(s);
	free(s);
	return 0;
}

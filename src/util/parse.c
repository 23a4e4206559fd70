// SPDX-License-Identifier: MIT
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool has_leading_junk(const char *s)
{
	/* strtoull accepts leading space and '-': we do not. */
	return !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+';
}

/* The digits at the start of s; *ret_end points past them. */
static int leading_u64(const char *s, unsigned long long *ret, char **ret_end)
{
	unsigned long long v;
	char *end;

	if (!s || has_leading_junk(s) || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || end == s)
		return -EINVAL;
	*ret = v;
	*ret_end = end;
	return 0;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	unsigned long long v;
	char *end;
	int r;

	r = leading_u64(s, &v, &end);
	if (r < 0)
		return r;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_hex(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	size_t i, n;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n == 0 || strspn(s, "0123456789abcdefABCDEF") != n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		unsigned d = isdigit((unsigned char)s[i]) ? (unsigned)(s[i] - '0')
							  : (unsigned)(tolower((unsigned char)s[i]) - 'a' + 10);

		if (v > (UINT64_MAX - d) / 16)
			return -ERANGE;
		v = v * 16 + d;
	}
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *ret)
{
	double v;
	char *end;

	if (!s || has_leading_junk(s))
		return -EINVAL;
	/* decimal only: strtod would also take "inf", "nan" and hex ("0x1p3") */
	if ((!isdigit((unsigned char)*s) && *s != '.') || strspn(s, "0123456789.eE+-") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || end == s || *end || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

struct suffix {
	const char *name;
	uint64_t mult;
};

static const struct suffix size_suffixes[] = {
	{"", 1},
	{"B", 1},
	{"K", 1ULL << 10},
	{"KiB", 1ULL << 10},
	{"M", 1ULL << 20},
	{"MiB", 1ULL << 20},
	{"G", 1ULL << 30},
	{"GiB", 1ULL << 30},
	{"T", 1ULL << 40},
	{"TiB", 1ULL << 40},
	{"KB", 1000ULL},
	{"MB", 1000ULL * 1000},
	{"GB", 1000ULL * 1000 * 1000},
	{"TB", 1000ULL * 1000 * 1000 * 1000},
};

static int lookup_suffix(const char *sfx, uint64_t *ret)
{
	size_t i;

	for (i = 0; i < sizeof(size_suffixes) / sizeof(size_suffixes[0]); i++) {
		const char *n = size_suffixes[i].name;
		/* single letters are case-insensitive (4k == 4K), the rest exact */
		bool match = strlen(n) == 1 ? strcasecmp(n, sfx) == 0 : strcmp(n, sfx) == 0;
		if (match) {
			*ret = size_suffixes[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	unsigned long long v;
	uint64_t mult;
	char *end;
	int r;

	r = leading_u64(s, &v, &end);
	if (r < 0)
		return r;
	r = lookup_suffix(end, &mult);
	if (r < 0)
		return r;
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
	v *= mult;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_duration(const char *s, double min, double max, double *ret)
{
	static const struct {
		const char *name;
		double mult;
	} units[] = {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"m", 60}, {"min", 60}, {"h", 3600}};
	char num[64];
	size_t n = 0, i;
	double v;
	int r;

	if (!s)
		return -EINVAL;
	while (s[n] && (isdigit((unsigned char)s[n]) || s[n] == '.'))
		n++;
	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	r = parse_double(num, 0, 1e12, &v);
	if (r < 0)
		return r;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(units[i].name, s + n) == 0) {
			v *= units[i].mult;
			if (v < min || v > max)
				return -ERANGE;
			*ret = v;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_size_list(const char *s, uint64_t min, uint64_t max, size_t max_items,
		    uint64_t **ret_items, size_t *ret_n)
{
	uint64_t *items = NULL;
	size_t n = 0;
	const char *p = s;
	int r;

	if (!s || !*s)
		return -EINVAL;
	items = calloc(max_items ? max_items : 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char tok[64];

		if (len == 0 || len >= sizeof(tok)) {
			r = -EINVAL;
			goto out_free;
		}
		if (n == max_items) {
			r = -E2BIG;
			goto out_free;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		r = parse_size(tok, min, max, &items[n]);
		if (r < 0)
			goto out_free;
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	*ret_items = items;
	*ret_n = n;
	return 0;
out_free:
	free(items);
	return r;
}

void format_size(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "KMGT";
	int i = -1;

	while (v && v % 1024 == 0 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, sfx[i]);
}

void sanitize_string(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int parse_devnum(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	uint64_t maj, min;
	char buf[16];

	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, (size_t)(colon - s));
	buf[colon - s] = '\0';
	/* the kernel's limits: 12-bit major, 20-bit minor */
	if (parse_u64(buf, 0, 0xfff, &maj) < 0 || parse_u64(colon + 1, 0, 0xfffff, &min) < 0)
		return -EINVAL;
	*ret_major = (unsigned)maj;
	*ret_minor = (unsigned)min;
	return 0;
}

int parse_wxh(const char *s, uint64_t max, uint64_t *ret_w, uint64_t *ret_h)
{
	const char *x = strchr(s, 'x');
	uint64_t w, h;
	char *left;
	int r;

	if (!x)
		return -EINVAL;
	left = strndup(s, (size_t)(x - s));
	if (!left)
		return -ENOMEM;
	r = parse_u64(left, 1, max, &w);
	free(left);
	if (r < 0 || parse_u64(x + 1, 1, max, &h) < 0)
		return -EINVAL;
	*ret_w = w;
	*ret_h = h;
	return 0;
}

int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

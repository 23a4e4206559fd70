// SPDX-License-Identifier: MIT
/*
 * The snapshot reader's fast path (see snapshot_priv.h). A 100-device tree
 * is a 2 MB document of 15 000 entries: json-c builds an object with a hash
 * table for each, which was half of `usbperf list --sysroot`'s time. This
 * reads the same document in one pass into the nodes, and hands back
 * anything unusual to the general reader rather than judging it.
 */
#include "util/snapshot_priv.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NOT_MINE (-EAGAIN)

struct scan {
	const char *p, *end;
};

static void skip_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static bool eat(struct scan *s, char c)
{
	skip_ws(s);
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return true;
	}
	return false;
}

/* a byte of x is '"' or '\\', below 0x20 or past 0x7f (eight at once, as in memchr) */
static inline bool special8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return ((x - ones * 0x20) | (q - ones) | (b - ones) | x) & high;
}

/* the run of bytes a string takes as they are: up to a quote, a backslash or any other byte */
static const char *plain_run(const char *q, const char *end)
{
	uint64_t x;

	while (end - q >= 8) {
		memcpy(&x, q, 8);
		if (special8(x))
			break;
		q += 8;
	}
	while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20 &&
	       (unsigned char)*q < 0x80)
		q++;
	return q;
}

/* a JSON string of printable ASCII and the short escapes, decoded into out */
static int string(struct scan *s, struct strbuf *out)
{
	strbuf_reset(out);
	if (!eat(s, '"'))
		return NOT_MINE;
	for (;;) {
		const char *q = s->p;

		q = plain_run(q, s->end);
		strbuf_add(out, s->p, (size_t)(q - s->p));
		s->p = q;
		if (q == s->end)
			return NOT_MINE;
		if (*q == '"') {
			s->p++;
			return 0;
		}
		if (*q != '\\' || q + 1 == s->end)
			return NOT_MINE; /* a control character, a byte past ASCII */
		switch (q[1]) {
		case '"': strbuf_addch(out, '"'); break;
		case '\\': strbuf_addch(out, '\\'); break;
		case '/': strbuf_addch(out, '/'); break;
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'n': strbuf_addch(out, '\n'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 't': strbuf_addch(out, '\t'); break;
		default: return NOT_MINE; /* \u and anything invalid */
		}
		s->p = q + 2;
	}
}

enum member { M_PATH, M_TYPE, M_TARGET, M_TEXT, M_HEX, M_N };

static const char *const member_names[M_N] = {"path", "type", "target", "text", "hex"};

/* {"path": "...", ...}: string members only, each at most once */
static int entry(struct scan *s, struct strbuf *key, struct strbuf *val, size_t idx,
		 struct vnode *n)
{
	struct snapshot_entry e = {0};
	bool seen[M_N] = {0};
	int r = NOT_MINE;

	if (!eat(s, '{'))
		return NOT_MINE;
	if (eat(s, '}'))
		goto node;
	do {
		int m;

		if (string(s, key) < 0 || !eat(s, ':'))
			goto out;
		for (m = 0; m < M_N && strcmp(key->buf, member_names[m]); m++)
			;
		if (m == M_N || seen[m] || string(s, &val[m]) < 0)
			goto out;
		seen[m] = true;
	} while (eat(s, ','));
	if (!eat(s, '}'))
		goto out;
node:
	e.path = seen[M_PATH] ? val[M_PATH].buf : NULL;
	e.type = seen[M_TYPE] ? val[M_TYPE].buf : NULL;
	e.target = seen[M_TARGET] ? val[M_TARGET].buf : NULL;
	e.target_len = val[M_TARGET].len;
	e.text = seen[M_TEXT] ? val[M_TEXT].buf : NULL;
	e.text_len = val[M_TEXT].len;
	e.hex = seen[M_HEX] ? val[M_HEX].buf : NULL;
	e.hex_len = val[M_HEX].len;
	{
		struct strbuf err = STRBUF_INIT;

		/* a wrong entry is the general reader's to name */
		r = snapshot_entry_node(&e, idx, n, &err);
		strbuf_release(&err);
		if (r == -EINVAL)
			r = NOT_MINE;
	}
out:
	for (int m = 0; m < M_N; m++)
		strbuf_reset(&val[m]);
	return r;
}

static int entries(struct scan *s, struct vnode **ret, size_t *ret_n)
{
	struct strbuf key = STRBUF_INIT, val[M_N] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
						      STRBUF_INIT, STRBUF_INIT};
	struct vnode *v = NULL;
	size_t n = 0, alloc = 0;
	int r = 0;

	if (!eat(s, '['))
		return NOT_MINE;
	if (!eat(s, ']')) {
		do {
			if (n == SNAPSHOT_MAX_ENTRIES) {
				r = NOT_MINE;
				break;
			}
			if (n == alloc) {
				struct vnode *nv;

				alloc = alloc ? 2 * alloc : 1024;
				nv = realloc(v, alloc * sizeof(*v));
				if (!nv) {
					r = -ENOMEM;
					break;
				}
				v = nv;
			}
			memset(&v[n], 0, sizeof(v[n]));
			r = entry(s, &key, val, n, &v[n]);
			if (r < 0)
				break;
			n++;
		} while (eat(s, ','));
		if (r == 0 && !eat(s, ']'))
			r = NOT_MINE;
	}
	strbuf_release(&key);
	for (int m = 0; m < M_N; m++)
		strbuf_release(&val[m]);
	if (r < 0) {
		vnodes_free(v, n);
		return r;
	}
	if (!v)
		v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*ret = v;
	*ret_n = n;
	return 0;
}

/* the format's version: plain digits, as written */
static bool version(struct scan *s, long *ret)
{
	long v = 0;
	int digits = 0;

	skip_ws(s);
	while (s->p < s->end && *s->p >= '0' && *s->p <= '9' && digits < 9) {
		v = v * 10 + (*s->p++ - '0');
		digits++;
	}
	/* a leading zero, a fraction or an exponent: the general reader decides */
	if (!digits || (digits > 1 && s->p[-digits] == '0') ||
	    (s->p < s->end && strchr(".eE0123456789", *s->p)))
		return false;
	*ret = v;
	return true;
}

int snapshot_scan(const char *buf, size_t len, struct vnode **ret, size_t *ret_n)
{
	struct scan s = {buf, buf + len};
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	struct vnode *v = NULL;
	size_t n = 0;
	bool seen_ver = false, seen_entries = false, seen_name = false, seen_created = false;
	long ver = -1;
	int r = NOT_MINE;

	if (!eat(&s, '{'))
		goto out;
	do {
		if (string(&s, &key) < 0 || !eat(&s, ':'))
			goto out;
		if (!strcmp(key.buf, "usbperf_snapshot") && !seen_ver) {
			seen_ver = version(&s, &ver);
			if (!seen_ver)
				goto out;
		} else if (!strcmp(key.buf, "entries") && !seen_entries) {
			r = entries(&s, &v, &n);
			if (r < 0)
				goto out;
			r = NOT_MINE;
			seen_entries = true;
		} else if (!strcmp(key.buf, "usbperf_version") && !seen_name) {
			seen_name = true;
			if (string(&s, &val) < 0)
				goto out;
		} else if (!strcmp(key.buf, "created") && !seen_created) {
			seen_created = true;
			if (string(&s, &val) < 0)
				goto out;
		} else {
			goto out;
		}
	} while (eat(&s, ','));
	if (!eat(&s, '}'))
		goto out;
	skip_ws(&s);
	if (s.p != s.end || !seen_ver || ver != SNAPSHOT_FORMAT || !seen_entries)
		goto out;
	*ret = v;
	*ret_n = n;
	v = NULL;
	n = 0;
	r = 0;
out:
	vnodes_free(v, n);
	strbuf_release(&key);
	strbuf_release(&val);
	return r;
}

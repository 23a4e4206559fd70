// SPDX-License-Identifier: MIT
#include "platform/sys/attr.h"
#include "model/field.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *attr_str(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (sysroot_read_attr(path, &sb) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

static char *vattr(bool nonempty, const char *fmt, va_list ap)
{
	struct strbuf path = STRBUF_INIT;
	char *v;

	strbuf_vaddf(&path, fmt, ap);
	v = attr_str(path.buf);
	strbuf_release(&path);
	if (nonempty && v && !*v) {
		free(v);
		v = NULL;
	}
	return v;
}

char *attr_strf(const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = vattr(false, fmt, ap);
	va_end(ap);
	return v;
}

char *attr_strf_nonempty(const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = vattr(true, fmt, ap);
	va_end(ap);
	return v;
}

int parse_i64(const char *s, int64_t min, int64_t max, int64_t *ret)
{
	bool neg = s && *s == '-';
	uint64_t mag;
	int64_t v;
	int r;

	/* the magnitude goes through the one strict parser; "-" adds only the sign */
	r = parse_u64(neg ? s + 1 : s, 0, neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX, &mag);
	if (r < 0)
		return r;
	v = neg ? (mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int64_t attr_int(const char *path, int64_t min, int64_t max)
{
	int64_t v = FIELD_INT_UNKNOWN;
	char *s = attr_str(path);

	if (s && parse_i64(s, min, max, &v) < 0)
		v = FIELD_INT_UNKNOWN;
	free(s);
	return v;
}

int64_t attr_intf(int64_t min, int64_t max, const char *fmt, ...)
{
	struct strbuf path = STRBUF_INIT;
	va_list ap;
	int64_t v;

	va_start(ap, fmt);
	strbuf_vaddf(&path, fmt, ap);
	va_end(ap);
	v = attr_int(path.buf, min, max);
	strbuf_release(&path);
	return v;
}

/* ---- dir/name readers for the USB probes ---- */

char *attr_get(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	char *r = NULL;

	strbuf_addf(&p, "%s/%s", dir, name);
	if (sysroot_read_attr(p.buf, &v) == 0 && v.len) {
		/* sysfs pads some numbers ("  0", " 2.00"): the value is what is inside */
		const char *s = v.buf + strspn(v.buf, " ");
		size_t n = strlen(s);

		while (n && s[n - 1] == ' ')
			n--;
		if (n)
			r = strndup(s, n);
	}
	strbuf_release(&p);
	strbuf_release(&v);
	return r;
}

uint64_t attr_get_u64(const char *dir, const char *name)
{
	char *s = attr_get(dir, name);
	uint64_t v = U64_UNKNOWN;

	if (s && parse_u64(s, 0, UINT64_MAX - 1, &v) < 0)
		v = U64_UNKNOWN;
	free(s);
	return v;
}

uint64_t attr_get_hex(const char *dir, const char *name)
{
	char *s = attr_get(dir, name);
	uint64_t v = U64_UNKNOWN;

	if (s && parse_hex(s, UINT32_MAX, &v) < 0)
		v = U64_UNKNOWN;
	free(s);
	return v;
}

char *attr_link_name(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	char *r = NULL;

	strbuf_addf(&p, "%s/%s", dir, name);
	if (sysroot_readlink(p.buf, &t) == 0) {
		const char *slash = strrchr(t.buf, '/');

		r = strdup(slash ? slash + 1 : t.buf);
		if (r)
			sanitize_string(r);
	}
	strbuf_release(&p);
	strbuf_release(&t);
	return r;
}


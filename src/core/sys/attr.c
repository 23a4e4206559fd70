// SPDX-License-Identifier: MIT
#include "core/sys/attr.h"
#include "render/field.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

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

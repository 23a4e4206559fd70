// SPDX-License-Identifier: MIT
/* Strict JSON in, and the errors that say where it is wrong. */
#include "util/jsonin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

int jsonin_error(struct strbuf *err, const char *where, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	strbuf_reset(err);
	if (where && *where)
		strbuf_addf(err, "%s: ", where);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < err->len; i++)
		if ((unsigned char)err->buf[i] < 0x20 || err->buf[i] == 0x7f)
			err->buf[i] = '?';
	if (err->len > JSONIN_ERROR_MAX) {
		err->len = JSONIN_ERROR_MAX - 3;
		while (err->len && ((unsigned char)err->buf[err->len] & 0xc0) == 0x80)
			err->len--;
		err->buf[err->len] = '\0';
		strbuf_adds(err, "...");
	}
	return -EINVAL;
}

int jsonin_parse(const char *buf, size_t len, size_t max, struct json_object **ret,
		 struct strbuf *err)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error e;
	size_t end;

	if (len > max || len > INT32_MAX) {
		if (max >= 1u << 20)
			return jsonin_error(err, NULL, "larger than %zu MiB", max >> 20);
		return jsonin_error(err, NULL, "larger than %zu bytes", max);
	}
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
					    JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, buf, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!root) {
		/* the document "null" parses to NULL too */
		if (e == json_tokener_success)
			return -ENODATA;
		return jsonin_error(err, NULL, "not JSON (%s)",
				    e == json_tokener_continue ? "unexpected end"
							       : json_tokener_error_desc(e));
	}
	/* trailing whitespace is fine; anything else is not */
	while (end < len && strchr(" \t\r\n", buf[end]))
		end++;
	if (end != len) {
		json_object_put(root);
		return jsonin_error(err, NULL, "not JSON (trailing data at byte %zu)", end);
	}
	*ret = root;
	return 0;
}

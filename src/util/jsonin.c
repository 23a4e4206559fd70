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

/* "line 3, column 7" of byte offset end (columns count bytes, from 1) */
static void where_in(const char *buf, size_t end, struct strbuf *out)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < end; i++) {
		if (buf[i] == '\n')
			line++, col = 1;
		else
			col++;
	}
	strbuf_addf(out, "line %zu, column %zu", line, col);
}

/* what a document that is not an object is, for the message */
static const char *type_phrase(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "a JSON null";
	case json_type_boolean:
		return "a JSON true/false";
	case json_type_int:
	case json_type_double:
		return "a JSON number";
	case json_type_string:
		return "a JSON string";
	case json_type_array:
		return "a JSON array [...]";
	default:
		return "a JSON object";
	}
}

int jsonin_parse(const char *buf, size_t len, size_t max, struct json_object **ret,
		 struct strbuf *err)
{
	struct strbuf at = STRBUF_INIT;
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error e;
	size_t end, i;
	int r;

	if (len > max || len > INT32_MAX) {
		if (max >= 1u << 20)
			return jsonin_error(err, NULL, "larger than %zu MiB", max >> 20);
		return jsonin_error(err, NULL, "larger than %zu bytes", max);
	}
	for (i = 0; i < len && strchr(" \t\r\n", buf[i]); i++)
		;
	if (i == len)
		return jsonin_error(err, NULL, "%s",
				    len ? "empty file (only white space)" : "empty file");
	/* refused rather than skipped: jq and most JSON tools refuse it too */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		return jsonin_error(err, NULL,
				    "starts with a UTF-8 byte order mark: save it without one");
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
					    JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, buf, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* a number at the very end ("42") waits for more: the end of the input ends it */
	if (!root && e == json_tokener_continue) {
		root = json_tokener_parse_ex(tok, "", 1);
		e = json_tokener_get_error(tok);
		if (e != json_tokener_success)
			e = json_tokener_continue;
	}
	json_tokener_free(tok);
	if (e != json_tokener_success) {
		json_object_put(root);
		if (e == json_tokener_continue)
			return jsonin_error(err, NULL, "not JSON: it ends before the document does "
						       "(cut short?)");
		where_in(buf, end, &at);
		r = jsonin_error(err, NULL, "not JSON: %s at %s (byte %zu)",
				 json_tokener_error_desc(e), at.buf, end);
		strbuf_release(&at);
		return r;
	}
	/* trailing whitespace is fine; anything else is not */
	while (end < len && strchr(" \t\r\n", buf[end]))
		end++;
	if (end != len) {
		json_object_put(root);
		where_in(buf, end, &at);
		r = jsonin_error(err, NULL, "not JSON: more after the document, at %s (byte %zu)",
				 at.buf, end);
		strbuf_release(&at);
		return r;
	}
	/* the document "null" parses to NULL */
	if (!json_object_is_type(root, json_type_object)) {
		r = jsonin_error(err, NULL, "%s where an object {...} is expected",
				 root ? type_phrase(root) : "a JSON null");
		json_object_put(root);
		return r;
	}
	*ret = root;
	return 0;
}

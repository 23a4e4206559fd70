/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A growable string: buf is never NULL and always NUL-terminated, so a
 * zero-initialised-then-strbuf_init()ed buffer can be printed at any time.
 */
#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT {.buf = strbuf_empty, .len = 0, .alloc = 0}
extern char strbuf_empty[];

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_pad(struct strbuf *sb, char c, size_t n);
__attribute__((format(printf, 2, 3))) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Takes ownership of the buffer; sb is reset to empty. Caller frees. */
char *strbuf_detach(struct strbuf *sb);

/*
 * *ret (freed first, NULL or malloc'ed) becomes the formatted text; returns r,
 * so a refusal is one statement: return reason_set(-EBUSY, ret_why, "...", ...);
 */
__attribute__((format(printf, 3, 4))) int reason_set(int r, char **ret, const char *fmt, ...);

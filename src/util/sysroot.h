/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Every path under /sys, /proc and /dev is built here from a root that tests
 * override (--sysroot), so probes can be replayed from recorded trees.
 */
#include "util/strbuf.h"

#include <stddef.h>

/* "" (the real root) by default; no trailing slash. */
void sysroot_set(const char *root);
const char *sysroot_get(void);
/* root + path into sb (reset first); path starts with '/'. */
void sysroot_path(struct strbuf *sb, const char *path);
/*
 * Read a whole small file below the root into sb (reset first), at most
 * max bytes; returns 0 or a negative errno.
 */
int sysroot_read(const char *path, size_t max, struct strbuf *sb);
/* Append everything readable from fd to sb, failing with -EFBIG past max bytes. */
int read_fd_all(int fd, size_t max, struct strbuf *sb);
/* Read a one-line attribute, newline stripped and control chars sanitized. */
int sysroot_read_attr(const char *path, struct strbuf *sb);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Snapshot files: the sysfs/procfs facts usbperf read, packed into one JSON
 * document that --sysroot reads back (the in-memory backend of sysroot.h).
 * JSON because a bug report attachment should be readable and diffable, and
 * hand-made test fixtures are written in the same format:
 *
 *   {"usbperf_snapshot": 1, "usbperf_version": "0.1.0", "created": "...",
 *    "entries": [{"path": "/sys/bus/usb/devices/1-1", "type": "link",
 *                 "target": "../../../devices/.../1-1"},
 *                {"path": "/sys/devices/.../1-1/speed", "type": "file", "text": "480\n"},
 *                {"path": "/sys/devices/.../1-1/descriptors", "type": "file", "hex": "1201..."},
 *                {"path": "/sys/devices/.../1-1", "type": "dir"}]}
 *
 * Paths are absolute and canonical (no "." or ".." components, no empty
 * ones); directories above any entry exist implicitly.
 */
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <stddef.h>

#define SNAPSHOT_FORMAT 1
#define SNAPSHOT_MAX_BYTES (64u << 20)	   /* the whole file */
#define SNAPSHOT_MAX_ENTRIES 200000
#define SNAPSHOT_MAX_FILE (1u << 20)	   /* one entry's contents */

/*
 * Parse a snapshot document and make it the root. On failure nothing
 * changes and ret_err (if given) says what was wrong, for a one-line error.
 */
int snapshot_load_buf(const char *buf, size_t len, struct strbuf *ret_err);
/* Parse only: the nodes, unsorted, for the caller to change or install. */
int snapshot_parse_buf(const char *buf, size_t len, struct vnode **ret, size_t *ret_n,
		       struct strbuf *ret_err);
int snapshot_load_file(const char *file, struct strbuf *ret_err);
/* The nodes as a snapshot document (appended to out). */
void snapshot_dump(const struct vnode *v, size_t n, const char *created, struct strbuf *out);
/*
 * --sysroot ARG: a directory becomes the root; a regular file is loaded as a
 * snapshot. -EINVAL with ret_err set for a file that is not a snapshot.
 */
int sysroot_open(const char *arg, struct strbuf *ret_err);

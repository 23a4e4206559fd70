/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by the snapshot readers (snapshot.c, snapshot_scan.c); not an API. */
#include "util/snapshot.h"

/* one entry's members as read, NULL where absent; lengths exclude the NUL */
struct snapshot_entry {
	const char *path, *type, *target, *text, *hex;
	size_t target_len, text_len, hex_len;
};

/* the checks every entry passes, and its node (path and data owned by n on success) */
int snapshot_entry_node(const struct snapshot_entry *e, size_t idx, struct vnode *n,
			struct strbuf *err);
/*
 * The document as usbperf writes it, read without building JSON objects:
 * 0 with the nodes, or -EAGAIN for anything it does not take (a member it
 * does not know, a \u escape, a non-ASCII byte, any error), which
 * snapshot_parse_json then reads and, if it is wrong, says why. It accepts
 * only valid JSON and gives the nodes that reader gives.
 */
int snapshot_scan(const char *buf, size_t len, struct vnode **ret, size_t *ret_n);
/* the general reader, through json-c */
int snapshot_parse_json(const char *buf, size_t len, struct vnode **ret, size_t *ret_n,
			struct strbuf *ret_err);

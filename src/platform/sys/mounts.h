/* SPDX-License-Identifier: MIT */
#pragma once
/* /proc/self/mountinfo: which filesystem a path is on, and what is mounted from a device. */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct mount_entry {
	unsigned major, minor; /* st_dev of files on this mount */
	char *root;	       /* path inside the filesystem */
	char *mount_point;
	char *fs_type;
	char *source;	       /* e.g. /dev/sdb1, or "tmpfs" */
};

struct mount_table {
	struct mount_entry *e;
	size_t n;
};

/* Parse mountinfo text; malformed lines are skipped, never fatal. */
int mounts_parse(const char *text, struct mount_table *ret);
int mounts_load(struct mount_table *ret);
void mount_table_release(struct mount_table *t);
/* The mount whose mount point is the longest prefix of the absolute path. */
const struct mount_entry *mounts_find_path(const struct mount_table *t, const char *abspath);
/* Any mount of the device maj:min; NULL if none. */
const struct mount_entry *mounts_find_dev(const struct mount_table *t, unsigned maj, unsigned min);
/* fuse-based filesystems (ntfs-3g, exfat-fuse) cost CPU per byte: worth a warning */
bool fs_is_fuse(const char *fs_type);

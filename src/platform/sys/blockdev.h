/* SPDX-License-Identifier: MIT */
#pragma once
/* Block devices in sysfs: whole disk vs partition, who holds them, the root disk. */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

struct devnum {
	unsigned major, minor;
};

/* Canonical sysfs directory of a block device (…/block/sda or …/block/sda/sda1). */
int blk_sysfs_dir(struct devnum d, struct strbuf *ret);
/* The whole disk a device belongs to (itself if not a partition). */
int blk_whole_disk(struct devnum d, struct devnum *ret);
/* The device and all its partitions; *ret malloc'ed. */
int blk_family(struct devnum whole, struct devnum **ret, size_t *ret_n);
/* Does anything in the kernel (dm, md, bcache…) hold the device? */
bool blk_has_holders(struct devnum d);
/* Whole disks under the root filesystem, following dm/md slaves. */
int blk_root_disks(struct devnum **ret, size_t *ret_n);
/* The kernel's read-only flag (sysfs ro: BLKROSET, a read-only loop, a lock switch) */
bool blk_read_only(struct devnum d);
/* Is d an active swap device? */
bool blk_is_swap(struct devnum d);
/* A queue attribute of the whole disk (logical_block_size, max_sectors_kb…) */
int blk_queue_attr(struct devnum d, const char *attr, struct strbuf *ret);
/* "sda", "loop0": the kernel name of the device */
int blk_name(struct devnum d, struct strbuf *ret);

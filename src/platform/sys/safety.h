/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * May usbperf write here? The one set of rules every writer goes through
 * (disk, run, run --copy; later mtd and the gadget's mass storage), so a
 * rule cannot hold for one entry point and not another:
 *   - a block device is written only when nothing on its disk is in use: not
 *     the disk that holds '/', no partition of it mounted, used as swap or
 *     held (dm, md), and the device not read-only;
 *   - a test file is created under a fresh random name with
 *     O_CREAT|O_EXCL|O_NOFOLLOW, and carries a mark in its last 4 KiB;
 *   - an existing file is written only when it is a usbperf test file: a
 *     regular file (not a link), owned by the caller, with one name, carrying
 *     the mark. The name alone proves nothing.
 * Each returns 0, or a negative errno with a one-line reason in *ret_why.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SAFETY_MARK_SIZE 4096u /* the mark block after a test file's region */

/*
 * -EPERM (root disk, read-only), -EBUSY (in use) or -EINVAL (unknown device);
 * the facts are the live system's, also under --sysroot
 */
int safety_blockdev_writable(dev_t rdev, const char *path, char **ret_why);

/* dir is a writable directory with need bytes free, under the file size limit (ulimit -f) */
int safety_check_dir(const char *dir, uint64_t need, char **ret_why);

/*
 * A new test file in dir, "usbperf-<tag>-<pid>-<random>.tmp": region bytes
 * reserved (ENOSPC and the file size limit are refused now, not mid-pass)
 * plus the mark block when mark is set. Its path in *ret_path, an O_RDWR fd in
 * *ret_fd. -ENOTDIR/-EACCES/-ENOSPC/-EFBIG; nothing is left on failure.
 */
int safety_create_file(const char *dir, const char *tag, uint64_t region, bool mark,
		       struct strbuf *ret_path, int *ret_fd, char **ret_why);

/*
 * Open an existing file. For writing, only a usbperf test file (see above)
 * and never through a symlink; *ret_region is then the bytes before its mark.
 * For reading, any regular file; *ret_region is its size.
 */
int safety_open_file(const char *path, bool write, int *ret_fd, uint64_t *ret_region,
		     char **ret_why);

/* Reopen fd's file with other flags (O_DIRECT) through /proc/self/fd, not by name. */
int safety_reopen(int fd, const char *path, int flags);

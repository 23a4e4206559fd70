/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by the video engine's files; not an API. */
#include "classes/video/video.h"

#include <stdarg.h>

/* ioctl, retried on EINTR: 0 or -errno */
int video_ioctl(int fd, unsigned long req, void *arg);
/* dev opened below the sysroot's root (O_CLOEXEC added): fd or -errno */
int video_open(const char *dev, int flags);
__attribute__((format(printf, 1, 2))) char *why_printf(const char *fmt, ...);
int video_probe_fd(int fd, const char *dev, uint32_t which, struct video_info *v, char **ret_why);

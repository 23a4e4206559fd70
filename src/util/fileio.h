/* SPDX-License-Identifier: MIT */
#pragma once
/* Writing a whole buffer to a file descriptor. */
#include <stddef.h>

/* All len bytes of buf to fd, again after EINTR: 0, or -errno (-EIO for a write of 0) */
int fd_write_all(int fd, const void *buf, size_t len);

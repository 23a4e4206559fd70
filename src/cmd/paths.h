/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Inputs the user names on the command line (a criteria file, a run file,
 * a capture, a video device): one check for every command, so that a path
 * that cannot be an input is bad input (exit 2, one line naming it) and not
 * a runtime error, and no open blocks or does what opening a device does.
 *   - the name: too long (ENAMETOOLONG: the line quotes its start and says
 *     how long it is), a symlink loop (ELOOP), missing, not searchable;
 *   - what it is: a directory, a socket, a device where a file is read, a
 *     file of the kernel's (/proc, /sys: /proc/self/mem reads as EIO), or
 *     anything but a character device where a device is opened.
 * A FIFO or pipe is read (`--criteria <(...)`): opened without waiting for a
 * writer, so one with none reads as empty at once instead of hanging.
 */
#include <stdbool.h>

enum input_kind {
	INPUT_FILE,   /* a regular file, a FIFO or pipe */
	INPUT_DEVICE, /* a character device node (V4L2, usbmon, hidraw...) */
};

/*
 * Check path as an input of kind, without opening it (for a device the core
 * opens itself). what names it in the message: "criteria", "video device".
 * 0, or -EINVAL with one line logged.
 */
int input_check(const char *what, const char *path, enum input_kind kind);

/*
 * Open a file input (INPUT_FILE) read-only after input_check(), checking
 * again what was opened: 0 and the fd in *ret_fd, blocking reads; -EINVAL
 * with one line logged; another -errno (logged) for a failure of the system.
 */
int input_open(const char *what, const char *path, int *ret_fd);

/* SPDX-License-Identifier: MIT */
#pragma once
/* usbperf mtp's options, shared by the command (mtp.c) and its buffer sweep (mtp_sweep.c). */
#include "cmd/commands.h"

#include <stddef.h>
#include <stdint.h>

struct mtp_opts {
	const char *device;
	uint64_t *sizes;
	size_t nsizes;
	uint64_t repeat, objects, object_size;
	const char *storage;
	const char *folder;
	uint64_t *buffers; /* --buffer-sweep: umtprd's read and write buffer sizes */
	size_t nbuffers;
};

/* a list of umtprd buffer sizes (--buffer-sweep, run's --mtp-buffers): 512..16M, x512 */
int mtp_parse_buffers(const char *opt, const char *arg, uint64_t **ret, size_t *ret_n);

/*
 * --buffer-sweep: usbperf's own MTP gadget brought up once per buffer size,
 * each measured by a fresh `usbperf mtp DEVICE` process; its exit status.
 */
int mtp_run_sweep(struct mtp_opts *o, struct global_opts *g);

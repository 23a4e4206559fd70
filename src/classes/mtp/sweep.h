/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The device buffers' sweep, on a machine that is both sides of the link:
 * usbperf's own MTP gadget (gadget up mtp, umtprd) brought up with one
 * read/write buffer size, measured from the host side by a fresh usbperf
 * process (`usbperf mtp DEVICE -F json`, run from /proc/self/exe), and
 * taken down again. A fresh process because libusb, under libmtp, keeps
 * the device list it read at start when no udev daemon tells it of new
 * devices: this process's libmtp would never see the gadget just made.
 * Used by `usbperf mtp --buffer-sweep` and `usbperf run --mtp-buffers`.
 */
#include "classes/mtp/fields.h"

#include <stddef.h>
#include <stdint.h>

#define MTP_SWEEP_GADGET "usbperf-mtpsweep"

struct mtp_sweep_plan {
	const uint64_t *sizes; /* file sizes measured at each buffer size */
	size_t nsizes;
	uint64_t repeat;
	const char *folder;  /* on the device, for the child */
	const char *storage; /* NULL: the child's choice */
};

/* the sweep's device and rows, grown by each mtp_sweep_one() */
struct mtp_sweep_result {
	struct mtp_device_row dev; /* from the first child that reported one */
	char *speed;		   /* dev.speed's storage */
	struct mtp_sweep_row *rows;
	size_t nrows;
};

/* umtprd's read cache for a buffer size: 1 MiB, or the next power of two above it */
uint64_t mtp_sweep_cache(uint64_t buffer);
/*
 * A list of umtprd buffer sizes (opt's argument, "16K,64K,256K"): multiples
 * of 512 B up to 16M, at most MTP_MAX_SIZES. 0 with *ret (the caller's to
 * free); -EINVAL with *ret_why naming opt.
 */
int mtp_buffers_parse(const char *opt, const char *arg, uint64_t **ret, size_t *ret_n,
		      char **ret_why);

/*
 * One buffer size: up, wait for the device on the host side, measure,
 * down (also after a failure or a signal). 0; -EEXIST, -ENODEV, -ENOENT,
 * -EBUSY the gadget refused (no UDC, a module missing, a gadget of that
 * name there); -ETIMEDOUT the device did not appear; -EINTR a signal;
 * -EINVAL the child refused its arguments (exit 2); -EIO the child failed
 * (its partial rows still taken). *ret_why says what, malloc'ed.
 */
int mtp_sweep_one(const struct mtp_sweep_plan *p, uint64_t buffer, struct mtp_sweep_result *res,
		  char **ret_why);

/* a child's JSON (usbperf mtp -F json) into res at buffer; -EINVAL not JSON */
int mtp_sweep_take(const char *json, uint64_t buffer, struct mtp_sweep_result *res);

void mtp_sweep_result_release(struct mtp_sweep_result *res);

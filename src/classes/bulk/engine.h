/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Inside usbperf bulk's engine: the measurement in progress, shared by its
 * two ways of keeping transfers in flight, libusb's event loop (engine.c:
 * isochronous points, and bulk where usbfs cannot take a whole transfer in
 * one URB) and URBs straight on the usbfs node (usbfs.c: bulk).
 */
#include "classes/bulk/bulk.h"

#include <libusb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bulk_run {
	struct bulk_point *p;
	unsigned inflight;
	bool stopping;
	int lr; /* the first failure: 1 a transfer's status (below), else a libusb error */
	enum libusb_transfer_status status;
};

/* counts one completed transfer of n bytes into the point */
static inline void bulk_run_count(struct bulk_run *run, bool in, uint64_t n)
{
	if (in)
		run->p->bytes_in += n;
	else
		run->p->bytes_out += n;
	run->p->transfers++;
}

/*
 * Bulk transfers on the usbfs node itself: the endpoints, buffers and
 * lengths of the n transfers of v (NULL entries skipped; libusb never
 * submits them), each one URB.
 */
struct bulk_usbfs;

/* true when usbfs takes a bulk transfer of any length as one URB (Linux 3.6+) */
bool bulk_usbfs_usable(int fd);
/* the URBs for v, and the tick that bounds each wait; -ENOMEM, or a timer's errno */
int bulk_usbfs_new(int fd, struct libusb_transfer **v, size_t n, struct bulk_usbfs **ret);
/* submit every URB, then resubmit each as it completes until deadline_ns or signal_stop */
void bulk_usbfs_pump(struct bulk_usbfs *u, struct bulk_run *run, uint64_t deadline_ns);
/* cancel the URBs in flight and take them back (bounded); the rest stay in run->inflight */
void bulk_usbfs_drain(struct bulk_usbfs *u, struct bulk_run *run);
/* a failed URB's status (-errno) as libusb words it (its linux_usbfs.c): the same message */
enum libusb_transfer_status bulk_usbfs_status(int urb_status);
/* stop the tick, free the URBs; NULL-safe */
void bulk_usbfs_free(struct bulk_usbfs *u);

// SPDX-License-Identifier: MIT
/* usbperf bulk's field tables: the device and one row per point. */
#include "classes/bulk/fields.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "classes/bulk/fields.fields.h"

int bulk_row_from_point(const struct bulk_point *p, struct bulk_row *ret)
{
	char name[64];
	struct bulk_row r = {
	    .dir = bulk_dir_name(p->dir),
	    .iso = p->iso,
	    .size = p->size,
	    .depth = p->depth,
	    .seconds = p->seconds,
	    .mb_s = p->mb_s,
	    .in_mb_s = p->in_mb_s,
	    .out_mb_s = p->out_mb_s,
	    .ceiling_mb_s = p->ceiling_mb_s,
	    .share_pct = p->share_pct,
	    .transfers = p->transfers,
	    .packets = p->iso ? p->packets : U64_UNKNOWN,
	    .packet_errors = p->iso ? p->packet_errors : U64_UNKNOWN,
	    .interrupted = p->interrupted,
	    .wire_mb_s = p->monitored ? p->wire.wire_mb_s : NAN,
	    .inflight_mean = p->monitored ? p->wire.inflight_mean : NAN,
	    .busy_pct = p->monitored ? p->wire.busy_pct : NAN,
	    .urb_lat_p99_us = p->monitored ? p->wire.lat_p99_us : NAN,
	    .urb_size = p->monitored ? p->wire.urb_size : U64_UNKNOWN,
	    .usb_errors = p->monitored ? p->wire.errors_total : U64_UNKNOWN,
	    .wire_urbs = p->monitored ? p->wire.urb_size_count : U64_UNKNOWN,
	    .wire_dropped = p->monitored ? p->wire.dropped : U64_UNKNOWN,
	    .sys = p->sys,
	};

	bulk_point_name(p, name, sizeof(name));
	r.pass = strdup(name);
	if (!r.pass)
		return -ENOMEM;
	*ret = r;
	return 0;
}

void bulk_row_release(struct bulk_row *r)
{
	if (!r)
		return;
	free(r->pass);
	r->pass = NULL;
}

void bulk_device_row_release(struct bulk_device_row *d)
{
	if (!d)
		return;
	free_all(d->device, d->vid_pid, d->product, d->ep_in, d->ep_out, d->driver_detached);
	memset(d, 0, sizeof(*d));
}

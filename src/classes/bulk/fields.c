// SPDX-License-Identifier: MIT
/* usbperf bulk's field tables: the device and one row per point. */
#include "classes/bulk/fields.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define T FF_TEXT

static const struct field device_fields[] = {
    FIELD(struct bulk_device_row, device, "device", "device", NULL, FT_STR, 0, T),
    FIELD(struct bulk_device_row, vid_pid, "vid_pid", "VID:PID", NULL, FT_STR, 0, T),
    FIELD(struct bulk_device_row, product, "product", "product", NULL, FT_STR, 0, T),
    FIELD(struct bulk_device_row, speed, "speed", "speed", NULL, FT_STR, 0, T),
    FIELD(struct bulk_device_row, interface, "interface", "interface", NULL, FT_U64, 0, T),
    FIELD(struct bulk_device_row, alt_setting, "alt_setting", "alt setting", NULL, FT_U64, 0, T),
    FIELD(struct bulk_device_row, ep_in, "ep_in", "endpoint IN", NULL, FT_STR, 0, T),
    FIELD(struct bulk_device_row, mps_in, "max_packet_in", "max packet IN", "B", FT_U64, 0, T),
    FIELD(struct bulk_device_row, ep_out, "ep_out", "endpoint OUT", NULL, FT_STR, 0, T),
    FIELD(struct bulk_device_row, mps_out, "max_packet_out", "max packet OUT", "B", FT_U64, 0, T),
    FIELD(struct bulk_device_row, driver_detached, "driver_detached", "driver detached", NULL,
	  FT_STR, 0, T),
    /* text: a driver not given back is a warning; with none detached "no" would mislead */
    FIELD(struct bulk_device_row, driver_reattached, "driver_reattached", "driver given back", NULL,
	  FT_BOOL, 0, 0),
    FIELD(struct bulk_device_row, bulk_ceiling_mb_s, "bulk_ceiling_mb_s", "bulk ceiling", "MB/s",
	  FT_DBL, 1, T),
};

static const struct field row_fields[] = {
    FIELD(struct bulk_row, pass, "name", "pass", NULL, FT_STR, 0, T),
    FIELD(struct bulk_row, dir, "dir", "dir", NULL, FT_STR, 0, 0),
    FIELD(struct bulk_row, iso, "iso", "iso", NULL, FT_BOOL, 0, 0),
    FIELD(struct bulk_row, size, "size_bytes", "size", NULL, FT_SIZE, 0, 0),
    FIELD(struct bulk_row, depth, "depth", "depth", NULL, FT_U64, 0, 0),
    FIELD(struct bulk_row, seconds, "seconds", "time", "s", FT_DBL, 2, T),
    FIELD(struct bulk_row, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 2, T | FF_BAR),
    FIELD(struct bulk_row, in_mb_s, "in_mb_s", "IN", "MB/s", FT_DBL, 2, 0),
    FIELD(struct bulk_row, out_mb_s, "out_mb_s", "OUT", "MB/s", FT_DBL, 2, 0),
    FIELD(struct bulk_row, ceiling_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1, T),
    FIELD(struct bulk_row, share_pct, "share_pct", "of ceiling", "%", FT_DBL, 1, T | FF_CEILING_SHARE),
    FIELD(struct bulk_row, transfers, "transfers", "transfers", NULL, FT_U64, 0, T),
    /* isochronous only: bulk rows leave the columns out */
    FIELD(struct bulk_row, packets, "packets", "packets", NULL, FT_U64, 0, T | FF_OPTIONAL),
    FIELD(struct bulk_row, packet_errors, "packet_errors", "packet errors", NULL, FT_U64, 0,
	  T | FF_OPTIONAL),
    FIELD(struct bulk_row, interrupted, "interrupted", "interrupted", NULL, FT_BOOL, 0, 0),
    PASS_SYS_FIELDS(struct bulk_row, sys),
    /* on the wire: --monitor (usbmon) */
    FIELD(struct bulk_row, wire_mb_s, "wire_mb_s", "wire", "MB/s", FT_DBL, 2, T | FF_OPTIONAL),
    FIELD(struct bulk_row, urb_size, "urb_size_bytes", "URB", NULL, FT_SIZE, 0, T | FF_OPTIONAL),
    FIELD(struct bulk_row, inflight_mean, "inflight_mean", "in flight", NULL, FT_DBL, 2,
	  T | FF_OPTIONAL),
    FIELD(struct bulk_row, busy_pct, "busy_pct", "bus busy", "%", FT_DBL, 1, T | FF_OPTIONAL),
    FIELD(struct bulk_row, urb_lat_p99_us, "urb_lat_p99_us", "URB p99", "us", FT_DBL, 1,
	  T | FF_OPTIONAL),
    FIELD(struct bulk_row, usb_errors, "usb_errors", "USB errors", NULL, FT_U64, 0,
	  T | FF_OPTIONAL),
    FIELD(struct bulk_row, wire_urbs, "wire_urbs", "URBs", NULL, FT_U64, 0, 0),
    FIELD(struct bulk_row, wire_dropped, "wire_dropped", "dropped", NULL, FT_U64, 0, 0),
};

const struct record_desc bulk_device_desc = RECORD_DESC("bulk_device", device_fields);
const struct record_desc bulk_row_desc = RECORD_DESC("bulk_point", row_fields);

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
	free(d->device);
	free(d->vid_pid);
	free(d->product);
	free(d->ep_in);
	free(d->ep_out);
	free(d->driver_detached);
	memset(d, 0, sizeof(*d));
}

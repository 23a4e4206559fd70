// SPDX-License-Identifier: MIT
/* A disk pass watched on the wire: the row's usbmon figures. */
#include "classes/disk/wire.h"
#include "model/field.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int disk_wire_start(const struct disk_report *rep, struct usbmon_pass **ret, struct strbuf *why)
{
	unsigned bus, dev;
	bool bot;
	int r;

	if (!rep->on_usb || !rep->usb.device) {
		strbuf_addf(why, "'%s' is not on USB", rep->path ? rep->path : "?");
		return -ENODEV;
	}
	r = usbmon_device_numbers(rep->usb.device, &bus, &dev);
	if (r < 0) {
		strbuf_addf(why, "bus and device numbers of USB device '%s' not read: %s",
			    rep->usb.device, strerror(-r));
		return r;
	}
	bot = rep->usb.driver && !strcmp(rep->usb.driver, "usb-storage");
	return usbmon_pass_start(bus, dev, bot, ret, why);
}

void disk_wire_unknown(struct disk_row *row)
{
	row->wire_bytes = row->urbs = row->urb_size = row->usb_errors = U64_UNKNOWN;
	row->bot_commands = row->protocol_bytes = row->wire_dropped = U64_UNKNOWN;
	row->wire_mb_s = row->inflight_mean = row->inflight_max = row->busy_pct = NAN;
	row->data_inflight_max = NAN;
	row->urb_lat_p50_us = row->urb_lat_p99_us = row->urb_lat_max_us = NAN;
	row->protocol_pct = NAN;
	row->monitored = false;
	memset(row->urb_hist, 0, sizeof(row->urb_hist));
}

int disk_wire_stop(struct usbmon_pass *p, double seconds, struct disk_row *row, struct strbuf *why)
{
	struct usbmon_pass_figures f;
	int r;

	if (row)
		disk_wire_unknown(row);
	if (!p)
		return 0;
	r = usbmon_pass_stop(p, &f, why);
	if (r < 0 || !row)
		return r;
	usbmon_pass_figures_over(&f, seconds);
	row->monitored = true;
	row->wire_bytes = f.bytes_in + f.bytes_out;
	row->wire_mb_s = f.wire_mb_s;
	row->urbs = f.urbs;
	row->urb_size = f.urb_size;
	row->inflight_mean = f.inflight_mean;
	row->inflight_max = f.inflight_max;
	row->data_inflight_max = f.data_inflight_max;
	row->busy_pct = f.busy_pct;
	row->urb_lat_p50_us = f.lat_p50_us;
	row->urb_lat_p99_us = f.lat_p99_us;
	row->urb_lat_max_us = f.lat_max_us;
	row->usb_errors = f.errors_total;
	row->wire_dropped = f.dropped;
	if (f.bot) {
		row->bot_commands = f.bot_commands;
		row->protocol_bytes = f.protocol_bytes;
		row->protocol_pct = f.protocol_pct;
	}
	memcpy(row->urb_hist, f.size_hist, sizeof(row->urb_hist));
	return 0;
}

// SPDX-License-Identifier: MIT
/* A net test watched on usbmon: the interface's USB device, its bytes and URBs. */
#include "classes/net/wire.h"
#include "util/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void net_wire_unknown(struct net_report *rep)
{
	rep->monitored = false;
	rep->wire_mb_s = NAN;
	rep->overhead_pct = NAN;
	rep->urb_size = rep->usb_errors = rep->wire_bytes = rep->wire_dropped = U64_UNKNOWN;
	rep->payload_bytes = U64_UNKNOWN;
}

static void why_not(struct net_report *rep, const struct strbuf *why)
{
	free(rep->monitor_why);
	rep->monitor_why = strdup(why->len ? why->buf : "usbmon saw nothing");
}

struct usbmon_pass *net_wire_start(struct net_report *rep)
{
	struct strbuf why = STRBUF_INIT;
	struct usbmon_pass *p = NULL;
	unsigned bus, dev;
	int r;

	if (!rep->on_usb || !rep->usb.device) {
		strbuf_addf(&why, "interface '%s' is not on USB", rep->iface ? rep->iface : "?");
	} else if ((r = usbmon_device_numbers(rep->usb.device, &bus, &dev)) < 0) {
		strbuf_addf(&why, "bus and device numbers of USB device '%s' not read: %s",
			    rep->usb.device, strerror(-r));
	} else if (usbmon_pass_start_small(bus, dev, &p, &why) < 0) {
		p = NULL;
	}
	if (!p)
		why_not(rep, &why);
	strbuf_release(&why);
	return p;
}

void net_wire_stop(struct usbmon_pass *p, struct net_report *rep)
{
	struct strbuf why = STRBUF_INIT;

	if (!p)
		return;
	if (usbmon_pass_stop(p, &rep->wire, &why) < 0)
		why_not(rep, &why);
	else
		rep->monitored = true;
	strbuf_release(&why);
}

void net_wire_finish(struct net_report *rep)
{
	struct usbmon_pass_figures *f = &rep->wire;

	if (!rep->monitored)
		return;
	/* the capture holds --omit's seconds too */
	if (isfinite(rep->seconds))
		usbmon_pass_figures_over(f, rep->seconds + (double)rep->omit_s);
	rep->wire_bytes = f->bytes_in + f->bytes_out;
	rep->wire_mb_s = f->wire_mb_s;
	rep->urb_size = f->urb_size ? f->urb_size : U64_UNKNOWN;
	rep->usb_errors = f->errors_total;
	rep->wire_dropped = f->dropped;
	if (rep->payload_bytes != U64_UNKNOWN && rep->wire_bytes &&
	    rep->wire_bytes >= rep->payload_bytes)
		rep->overhead_pct = 100.0 * (double)(rep->wire_bytes - rep->payload_bytes) /
				    (double)rep->wire_bytes;
	if (f->dropped)
		net_report_note(rep, "usbmon lost %llu events: the wire figures are lower bounds",
				(unsigned long long)f->dropped);
	else if (rep->payload_bytes != U64_UNKNOWN && rep->wire_bytes < rep->payload_bytes)
		net_report_note(rep,
				"the wire carried %llu B, less than the %llu B the receivers "
				"counted: the capture missed part of the test",
				(unsigned long long)rep->wire_bytes,
				(unsigned long long)rep->payload_bytes);
}

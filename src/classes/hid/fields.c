// SPDX-License-Identifier: MIT
/* Field tables of usbperf hid: text, JSON and CSV from one description. */
#include "classes/hid/fields.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "classes/hid/fields.fields.h"

void hid_device_describe(const struct hid_device *d, struct hid_device_view *v, struct report *r)
{
	*v = (struct hid_device_view){
	    .node = d->node,
	    .hid = d->hid,
	    .device = d->usb.device,
	    .interface = d->usb.interface,
	    .vid_pid = d->usb.vid_pid,
	    .product = d->usb.product,
	    .speed = d->usb.speed_name,
	    .driver = d->usb.driver,
	    .out_path = d->out.present ? "interrupt OUT" : "SET_REPORT (control)",
	    .reports = d->rdesc ? d->rdesc->n : U64_UNKNOWN,
	    .input_bytes = d->in_bytes,
	    .output_bytes = d->out_bytes,
	    .in_max_packet = U64_UNKNOWN,
	    .in_mult = U64_UNKNOWN,
	    .in_interval = U64_UNKNOWN,
	    .in_period_us = NAN,
	    .in_ceiling_reports_per_s = NAN,
	    .in_ceiling_Bps = NAN,
	    .out_max_packet = U64_UNKNOWN,
	    .out_interval = U64_UNKNOWN,
	    .out_period_us = NAN,
	};
	if (d->in.present) {
		snprintf(v->in_ep_buf, sizeof(v->in_ep_buf), "0x%02x", d->in.address);
		v->in_ep = v->in_ep_buf;
		v->in_max_packet = d->in.max_packet;
		v->in_interval = d->in.interval;
		if (d->in.has_ceiling) {
			v->in_mult = d->in.ceiling.packets_per_interval;
			v->in_period_us = d->in.ceiling.period_us;
			v->in_ceiling_reports_per_s = d->in.ceiling.rates[0].reports_per_s;
			v->in_ceiling_Bps = d->in.ceiling.rates[0].Bps;
		}
	}
	if (d->out.present) {
		snprintf(v->out_ep_buf, sizeof(v->out_ep_buf), "0x%02x", d->out.address);
		v->out_ep = v->out_ep_buf;
		v->out_max_packet = d->out.max_packet;
		v->out_interval = d->out.interval;
		if (d->out.has_ceiling)
			v->out_period_us = d->out.ceiling.period_us;
	}
	report_add_object(r, "device", "HID device", &device_desc, v);
}

void hid_gadget_describe(struct hid_gadget_view *v, struct report *r)
{
	report_add_object(r, "gadget", "HID gadget", &gadget_desc, v);
}

void hid_passes_describe(const struct hid_pass *p, size_t n, struct report *r)
{
	report_add_table(r, "passes",
			 "Reports (inter-arrival for in/receive/echo, time per write for out/send, "
			 "round trip for latency)",
			 &pass_desc, p, n, sizeof(*p));
}

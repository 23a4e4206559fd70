// SPDX-License-Identifier: MIT
/* Field tables of usbperf hid: text, JSON and CSV from one description. */
#include "classes/hid/fields.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#define T FF_TEXT
#define O (FF_TEXT | FF_OPTIONAL)

static const struct field device_fields[] = {
    FIELD(struct hid_device_view, node, "node", "node", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, hid, "hid_device", "HID device", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, device, "usb_device", "USB device", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, interface, "usb_interface", "interface", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, vid_pid, "vid_pid", "VID:PID", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, product, "product", "product", NULL, FT_STR, 0, O),
    FIELD(struct hid_device_view, speed, "speed", "speed", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, driver, "driver", "driver", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, reports, "report_ids", "report IDs", NULL, FT_U64, 0, 0),
    FIELD(struct hid_device_view, input_bytes, "input_report_bytes", "input report", "B", FT_U64, 0,
	  T),
    FIELD(struct hid_device_view, output_bytes, "output_report_bytes", "output report", "B", FT_U64,
	  0, T),
    FIELD(struct hid_device_view, in_ep, "in_endpoint", "IN endpoint", NULL, FT_STR, 0, O),
    FIELD(struct hid_device_view, in_max_packet, "in_max_packet_bytes", "IN wMaxPacketSize", "B",
	  FT_U64, 0, O),
    FIELD(struct hid_device_view, in_mult, "in_packets_per_interval", "IN packets/interval", NULL,
	  FT_U64, 0, O),
    FIELD(struct hid_device_view, in_interval, "in_interval", "IN bInterval", NULL, FT_U64, 0, O),
    FIELD(struct hid_device_view, in_period_us, "in_period_us", "IN period", "us", FT_DBL, 0, O),
    FIELD(struct hid_device_view, in_ceiling_reports_per_s, "in_ceiling_reports_per_s",
	  "IN ceiling", "reports/s", FT_DBL, 1, O),
    FIELD(struct hid_device_view, in_ceiling_Bps, "in_ceiling_bytes_per_s", "IN ceiling rate",
	  "B/s", FT_DBL, 0, O),
    FIELD(struct hid_device_view, out_path, "out_path", "OUT path", NULL, FT_STR, 0, T),
    FIELD(struct hid_device_view, out_ep, "out_endpoint", "OUT endpoint", NULL, FT_STR, 0, O),
    FIELD(struct hid_device_view, out_max_packet, "out_max_packet_bytes", "OUT wMaxPacketSize", "B",
	  FT_U64, 0, O),
    FIELD(struct hid_device_view, out_interval, "out_interval", "OUT bInterval", NULL, FT_U64, 0,
	  O),
    FIELD(struct hid_device_view, out_period_us, "out_period_us", "OUT period", "us", FT_DBL, 0, O),
};

static const struct field gadget_fields[] = {
    FIELD(struct hid_gadget_view, node, "node", "node", NULL, FT_STR, 0, T),
    FIELD(struct hid_gadget_view, function, "function", "function", NULL, FT_STR, 0, O),
    FIELD(struct hid_gadget_view, report_bytes, "report_bytes", "report", "B", FT_U64, 0, T),
};

static const struct field pass_fields[] = {
    FIELD(struct hid_pass, name, "name", "pass", NULL, FT_STR, 0, T),
    FIELD(struct hid_pass, path, "path", "path", NULL, FT_STR, 0, T),
    FIELD(struct hid_pass, report_bytes, "report_bytes", "report", "B", FT_U64, 0, 0),
    FIELD(struct hid_pass, reports, "reports", "reports", NULL, FT_U64, 0, T),
    FIELD(struct hid_pass, bytes, "bytes", "bytes", "B", FT_U64, 0, 0),
    FIELD(struct hid_pass, time_s, "time_s", "time", "s", FT_DBL, 3, T),
    FIELD(struct hid_pass, reports_per_s, "reports_per_s", "rate", "reports/s", FT_DBL, 1, T),
    FIELD(struct hid_pass, Bps, "bytes_per_s", "rate", "B/s", FT_DBL, 0, T),
    FIELD(struct hid_pass, ceiling_reports_per_s, "ceiling_reports_per_s", "ceiling", "reports/s",
	  FT_DBL, 1, T),
    FIELD(struct hid_pass, ceiling_Bps, "ceiling_bytes_per_s", "ceiling", "B/s", FT_DBL, 0, 0),
    FIELD(struct hid_pass, pct, "ceiling_pct", "of ceiling", "%", FT_DBL, 1, T | FF_CEILING_SHARE),
    FIELD(struct hid_pass, period_us, "period_us", "period", "us", FT_DBL, 0, 0),
    FIELD(struct hid_pass, p50_us, "p50_us", "p50", "us", FT_DBL, 0, T),
    FIELD(struct hid_pass, p99_us, "p99_us", "p99", "us", FT_DBL, 0, T),
    FIELD(struct hid_pass, max_us, "max_us", "max", "us", FT_DBL, 0, T),
    FIELD(struct hid_pass, lost, "lost", "lost", NULL, FT_U64, 0, T),
    FIELD(struct hid_pass, short_reads, "short_reads", "short reads", NULL, FT_U64, 0, 0),
    FIELD(struct hid_pass, ended, "ended_by", "ended by", NULL, FT_STR, 0, T),
    /* on the wire: --monitor (usbmon) */
    FIELD(struct hid_pass, urbs, "urbs", "URBs", NULL, FT_U64, 0, T | FF_OPTIONAL),
    FIELD(struct hid_pass, urbs_data, "urbs_data", "with data", NULL, FT_U64, 0, T | FF_OPTIONAL),
    FIELD(struct hid_pass, urbs_empty, "urbs_empty", "empty", NULL, FT_U64, 0, T | FF_OPTIONAL),
    FIELD(struct hid_pass, unread, "unread", "not read", NULL, FT_U64, 0, T | FF_OPTIONAL),
    FIELD(struct hid_pass, urbs_per_s, "urbs_per_s", "URBs/s", NULL, FT_DBL, 1, T | FF_OPTIONAL),
    FIELD(struct hid_pass, urb_size, "urb_size_bytes", "URB", NULL, FT_SIZE, 0, T | FF_OPTIONAL),
    FIELD(struct hid_pass, inflight_mean, "inflight_mean", "in flight", NULL, FT_DBL, 2,
	  T | FF_OPTIONAL),
    FIELD(struct hid_pass, busy_pct, "busy_pct", "bus busy", "%", FT_DBL, 1, T | FF_OPTIONAL),
    FIELD(struct hid_pass, urb_lat_p99_us, "urb_lat_p99_us", "URB p99", "us", FT_DBL, 1,
	  T | FF_OPTIONAL),
    FIELD(struct hid_pass, usb_errors, "usb_errors", "USB errors", NULL, FT_U64, 0,
	  T | FF_OPTIONAL),
    PASS_SYS_FIELDS(struct hid_pass, sys),
};

static const struct record_desc device_desc = RECORD_DESC("hid_device", device_fields);
static const struct record_desc gadget_desc = RECORD_DESC("hid_gadget", gadget_fields);
static const struct record_desc pass_desc = RECORD_DESC("hid_pass", pass_fields);

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

// SPDX-License-Identifier: MIT
/* The schema of usbperf limits: one field table per row type. */
#include "platform/usb/limits_fields.h"

#include <math.h>

#define MB 1e6
#define MIB 1048576.0

#include "platform/usb/limits_fields.fields.h"

static bool wanted(enum usb_speed only, enum usb_speed s)
{
	return only == USB_SPEED_UNKNOWN || only == s;
}

static void xfer_row(const struct usb_ceiling *c, struct limits_xfer_row *row)
{
	*row = (struct limits_xfer_row){
		.speed = usb_speed_name(c->speed),
		.type = usb_xfer_name(c->type),
		.derivation = c->derivation,
		.source = c->source,
		.note = c->note,
		.allowed = c->allowed,
		.max_packet = c->max_packet,
		.packets = c->packets,
		.burst = c->burst,
		.interval_us = c->interval_us,
		.overhead = c->overhead_bytes,
		.mb_s = c->allowed ? c->payload_Bps / MB : NAN,
		.mib_s = c->allowed ? c->payload_Bps / MIB : NAN,
		.mbit_s = c->allowed ? c->payload_Bps * 8 / MB : NAN,
	};
}

static void link_row(const struct usb_link *l, struct limits_link_row *row)
{
	*row = (struct limits_link_row){
		.speed = usb_speed_name(l->speed),
		.label = usb_speed_label(l->speed),
		.usb = l->usb,
		.coding = l->coding,
		.interval = l->interval_name,
		.lanes = l->lanes,
		.signal_mbit_s = l->signal_mbps,
		.coded_mb_s = l->coded_Bps / MB,
		.bulk_mb_s = l->bulk_Bps > 0 ? l->bulk_Bps / MB : NAN,
		.bulk_pct = l->bulk_Bps > 0 ? 100 * l->bulk_Bps / l->coded_Bps : NAN,
	};
}

static void ref_row(const struct usb_field_ref *f, struct limits_ref_row *row)
{
	double ceiling = usb_bulk_payload_Bps(f->speed);

	*row = (struct limits_ref_row){
		.what = f->what,
		.speed = usb_speed_name(f->speed),
		.range = f->range,
		.kind = "field reference, not a limit",
		.note = f->note,
		.mb_s_min = f->min_Bps / MB,
		.mb_s_max = f->max_Bps / MB,
		.mbit_s_min = f->min_Bps * 8 / MB,
		.mbit_s_max = f->max_Bps * 8 / MB,
		.ceiling_mb_s = ceiling / MB,
		.pct_max = 100 * f->max_Bps / ceiling,
	};
}

static void build_tables(enum usb_speed only, struct limits_table_view *v)
{
	const struct usb_field_ref *refs;
	size_t i, n;
	int s, t;

	v->nxfers = v->nlinks = v->nrefs = 0;
	for (s = USB_SPEED_LOW; s < USB_SPEED_COUNT; s++) {
		struct usb_link l;

		if (!wanted(only, s) || usb_link_info(s, &l) < 0)
			continue;
		link_row(&l, &v->links[v->nlinks++]);
		for (t = 0; t < USB_XFER_COUNT; t++) {
			struct usb_ceiling c;

			if (usb_transfer_ceiling(s, t, &c) == 0)
				xfer_row(&c, &v->xfers[v->nxfers++]);
		}
	}
	refs = usb_field_refs(&n);
	for (i = 0; i < n && v->nrefs < LIMITS_MAX_REFS; i++)
		if (wanted(only, refs[i].speed))
			ref_row(&refs[i], &v->refs[v->nrefs++]);
}

void limits_table_describe(enum usb_speed only, struct limits_table_view *v, struct report *r)
{
	build_tables(only, v);
	report_add_table(r, "transfers",
			 "Ceilings per transfer type: one endpoint, idle bus (MB/s = 10^6 B/s)",
			 &limits_xfer_desc, v->xfers, v->nxfers, sizeof(v->xfers[0]));
	report_add_table(r, "links", "Signalling and line coding", &limits_link_desc, v->links,
			 v->nlinks, sizeof(v->links[0]));
	report_add_table(r, "field_references",
			 "Field references from vendor bring-up guides: field reference, not a "
			 "limit",
			 &limits_ref_desc, v->refs, v->nrefs, sizeof(v->refs[0]));
}

void limits_ncm_describe(enum usb_speed only, struct limits_ncm_view *v, struct report *r)
{
	int s;

	v->n = 0;
	for (s = USB_SPEED_LOW; s < USB_SPEED_COUNT; s++) {
		struct limits_ncm_row *row = &v->rows[v->n];
		struct usb_ncm_rate n;
		double bulk_bit_s;

		if (!wanted(only, s) || usb_ncm_reported(s, &n) < 0)
			continue;
		bulk_bit_s = n.bulk_Bps * 8;
		*row = (struct limits_ncm_row){
			.speed = usb_speed_name(s),
			.formula = n.formula,
			.note = n.note,
			.bit_s = n.reported_bps,
			.mbit_s = (double)n.reported_bps / MB,
			.bulk_mbit_s = bulk_bit_s > 0 ? bulk_bit_s / MB : NAN,
			.pct = bulk_bit_s > 0 ? 100 * (double)n.reported_bps / bulk_bit_s : NAN,
		};
		v->n++;
	}
	report_add_table(r, "ncm",
			 "Linux NCM gadget: the bitrate it reports to the host (CDC SPEED_CHANGE), "
			 "next to the bulk ceiling",
			 &limits_ncm_desc, v->rows, v->n, sizeof(v->rows[0]));
}

void limits_uvc_describe(const struct usb_uvc_result *res, struct limits_uvc_view *v,
			 struct report *r)
{
	const struct usb_uvc_params *in = &res->in;
	size_t i;

	*v = (struct limits_uvc_view){
		.speed = usb_speed_name(in->speed),
		.derivation = res->derivation.buf,
		.header = "12 B payload header per interval (2 B + PTS 4 + SCR 6)",
		.max_packet = in->max_packet,
		.mult = in->mult,
		.interval = in->interval,
		.burst = in->speed >= USB_SPEED_SS ? in->burst : NAN,
		.period_us = res->period_us,
		.bytes_per_interval = res->bytes_per_interval,
		.header_bytes = res->header_bytes,
		.bus_mb_s = res->bus_Bps / MB,
		.mb_s = res->payload_Bps / MB,
		.mib_s = res->payload_Bps / MIB,
		.mbit_s = res->payload_Bps * 8 / MB,
		.mjpeg_ratio = in->mjpeg_ratio,
	};
	for (i = 0; i < res->nrows; i++)
		v->rows[i] = (struct limits_fps_row){
			.width = res->rows[i].width,
			.height = res->rows[i].height,
			.pixel = usb_pixel_name(res->rows[i].pixel),
			.frame_bytes = res->rows[i].frame_bytes,
			.intervals = res->rows[i].intervals,
			.fps = res->rows[i].fps,
		};
	report_add_object(r, "endpoint", "UVC isochronous endpoint", &limits_uvc_desc, v);
	report_add_table(r, "frame_rates",
			 "Highest frame rate: a frame starts a new payload (YUYV 2 B/px, NV12 1.5 "
			 "B/px, MJPEG estimated)",
			 &limits_fps_desc, v->rows, res->nrows, sizeof(v->rows[0]));
}

void limits_hid_describe(const struct usb_hid_result *res, struct limits_hid_view *v,
			 struct report *r)
{
	size_t i;

	*v = (struct limits_hid_view){
		.speed = usb_speed_name(res->in.speed),
		.derivation = res->derivation.buf,
		.note = res->note.len ? res->note.buf : NULL,
		.report_bytes = res->in.report_length,
		.interval = res->in.interval,
		.max_packet = res->max_packet,
		.packets = res->packets_per_report,
		.packets_per_interval = res->packets_per_interval,
		.intervals = res->intervals_per_report,
	};
	for (i = 0; i < 2; i++)
		v->rows[i] = (struct limits_hid_row){
			.basis = res->rates[i].basis,
			.period_us = res->rates[i].period_us,
			.reports_per_s = res->rates[i].reports_per_s,
			.bytes_per_s = res->rates[i].Bps,
		};
	report_add_object(r, "endpoint", "HID interrupt IN endpoint", &limits_hid_desc, v);
	report_add_table(r, "rates",
			 "Report rate: as the descriptor asks, and as an xHCI host schedules it",
			 &limits_hid_row_desc, v->rows, 2, sizeof(v->rows[0]));
}

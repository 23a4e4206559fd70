// SPDX-License-Identifier: MIT
/* The bulk UVC ceilings (uvc_bulk.h): packets per frame, and the frame rate they allow. */
#include "platform/usb/uvc_bulk.h"
#include "model/field.h"

#include <errno.h>
#include <math.h>

#define HEADER USB_UVC_HEADER_BYTES

static double pixel_bytes(unsigned w, unsigned h, enum usb_pixel px, double ratio)
{
	double pixels = (double)w * h;

	return px == USB_PIXEL_YUYV ? pixels * 2 : px == USB_PIXEL_NV12 ? pixels * 1.5
								       : pixels * 2 / ratio;
}

/* one payload of len bytes: its packets (and their wire bytes at SuperSpeed) */
static void payload_cost(double len, double max_payload, double mps, double framing,
			 double *packets, double *wire)
{
	double full = floor(len / mps), rest = len - full * mps;
	/* a payload shorter than the maximum must end short: a ZLP after whole packets */
	double n = full + (rest > 0 ? 1 : 0) + (rest == 0 && len < max_payload ? 1 : 0);

	*packets += n;
	*wire += len + n * framing;
}

int usb_uvc_bulk_frame(enum usb_speed s, unsigned max_payload, double frame_bytes,
		       struct usb_uvc_bulk_frame *ret)
{
	struct usb_ceiling c;
	struct usb_link l;
	double data = (double)max_payload - HEADER, full, rest, packets = 0, wire = 0;
	bool ss = s >= USB_SPEED_SS;
	double framing;

	if (usb_bulk_ceiling(s, &c) < 0 || usb_link_info(s, &l) < 0 || data < 1 ||
	    frame_bytes < 0)
		return -EINVAL;
	framing = ss ? c.overhead_bytes : 0;
	full = floor(frame_bytes / data);
	rest = frame_bytes - full * data;
	if (full > 0)
		payload_cost(max_payload, max_payload, c.max_packet, framing, &packets, &wire);
	packets *= full, wire *= full;
	if (rest > 0 || full == 0)
		payload_cost(rest + HEADER, max_payload, c.max_packet, framing, &packets, &wire);
	*ret = (struct usb_uvc_bulk_frame){
	    .frame_bytes = frame_bytes,
	    .payloads = full + (rest > 0 || full == 0 ? 1 : 0),
	    .packets = packets,
	};
	ret->wire_bytes = frame_bytes + ret->payloads * HEADER;
	ret->fps = ss ? l.coded_Bps / wire : c.packets * 1e6 / c.interval_us / packets;
	ret->need_Bps = ret->wire_bytes * ret->fps;
	return 0;
}

int usb_uvc_bulk_calc(const struct usb_uvc_bulk_params *p, struct usb_uvc_bulk_result *ret,
		      struct usb_calc_error *err)
{
	static const unsigned sizes[][2] = {{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}};
	struct usb_uvc_bulk_result r = {.in = *p};
	struct usb_ceiling c;
	struct usb_link l;
	size_t i;
	int px;

	if (p->speed <= USB_SPEED_LOW || usb_bulk_ceiling(p->speed, &c) < 0 ||
	    usb_link_info(p->speed, &l) < 0) {
		err->option = "speed";
		strbuf_reset(&err->why);
		strbuf_adds(&err->why, "low-speed has no bulk endpoints");
		return -EINVAL;
	}
	if (!r.in.max_payload)
		r.in.max_payload = USB_UVC_BULK_PAYLOAD_DEF;
	if (r.in.max_payload <= HEADER) {
		err->option = "maxpayload";
		strbuf_reset(&err->why);
		strbuf_addf(&err->why, "a payload must hold more than its %d B header", HEADER);
		return -EINVAL;
	}
	if (r.in.mjpeg_ratio == 0)
		r.in.mjpeg_ratio = USB_UVC_MJPEG_RATIO;
	r.max_packet = c.max_packet;
	r.bulk_Bps = c.payload_Bps;
	r.packets_per_s = p->speed >= USB_SPEED_SS ? NAN : c.packets * 1e6 / c.interval_us;
	r.link_Bps = p->speed >= USB_SPEED_SS ? l.coded_Bps : NAN;
	r.framing_bytes = p->speed >= USB_SPEED_SS ? c.overhead_bytes : NAN;
	strbuf_init(&r.derivation);
	if (p->speed >= USB_SPEED_SS)
		strbuf_addf(&r.derivation, "%.0f B packets of %.0f B on the wire, %s",
			    c.max_packet, c.max_packet + c.overhead_bytes, c.derivation);
	else
		strbuf_addf(&r.derivation, "%s; a payload's short packet or ZLP takes a slot",
			    c.derivation);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned w = r.in.width ? r.in.width : sizes[i][0];
		unsigned h = r.in.width ? r.in.height : sizes[i][1];

		for (px = 0; px < USB_PIXEL_COUNT; px++) {
			struct usb_uvc_bulk_frame *f = &r.rows[r.nrows];

			if (r.in.pixel >= 0 && r.in.pixel != px)
				continue;
			usb_uvc_bulk_frame(p->speed, r.in.max_payload,
					   pixel_bytes(w, h, (enum usb_pixel)px, r.in.mjpeg_ratio),
					   f);
			f->width = w, f->height = h, f->pixel = (enum usb_pixel)px;
			r.nrows++;
		}
		if (r.in.width)
			break;
	}
	*ret = r;
	return 0;
}

void usb_uvc_bulk_result_release(struct usb_uvc_bulk_result *r)
{
	strbuf_release(&r->derivation);
}

#include "platform/usb/uvc_bulk.fields.h"

void limits_uvc_bulk_describe(const struct usb_uvc_bulk_result *res,
			      struct limits_uvc_bulk_view *v, struct report *r)
{
	size_t i;

	*v = (struct limits_uvc_bulk_view){
	    .speed = usb_speed_name(res->in.speed),
	    .derivation = res->derivation.buf,
	    .header = "12 B payload header per payload (2 B + PTS 4 + SCR 6)",
	    .max_payload = res->in.max_payload,
	    .max_packet = res->max_packet,
	    .packets_per_s = res->packets_per_s,
	    .link_mb_s = res->link_Bps / 1e6,
	    .framing_bytes = res->framing_bytes,
	    .bulk_mb_s = res->bulk_Bps / 1e6,
	    .mjpeg_ratio = res->in.mjpeg_ratio,
	};
	for (i = 0; i < res->nrows; i++)
		v->rows[i] = (struct limits_uvc_bulk_row){
		    .width = res->rows[i].width,
		    .height = res->rows[i].height,
		    .pixel = usb_pixel_name(res->rows[i].pixel),
		    .frame_bytes = res->rows[i].frame_bytes,
		    .payloads = res->rows[i].payloads,
		    .packets = res->rows[i].packets,
		    .fps = res->rows[i].fps,
		    .need_mb_s = res->rows[i].need_Bps / 1e6,
		};
	report_add_object(r, "endpoint", "UVC bulk endpoint", &ep_desc, v);
	report_add_table(r, "frame_rates",
			 "Highest frame rate: payloads of dwMaxPayloadTransferSize, each with its "
			 "header and ending its transfer (YUYV 2 B/px, NV12 1.5 B/px, MJPEG "
			 "estimated)",
			 &row_desc, v->rows, res->nrows, sizeof(v->rows[0]));
}

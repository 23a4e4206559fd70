// SPDX-License-Identifier: MIT
/*
 * UVC bandwidth: what each alternate setting carries (usb_uvc_calc, the
 * `usbperf limits uvc` arithmetic: one payload header per service interval,
 * a frame in whole intervals) and what a mode needs.
 */
#include "platform/usb/limits.h"
#include "platform/usb/uvc_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* a frame rate within this of the nominal one counts as carried (intervals are rounded: 333333) */
#define FPS_SLACK 1e-3

static void copy_text(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

void uvc_alt_compute(enum usb_speed s, struct uvc_alt *a)
{
	struct usb_uvc_params p = {
	    .speed = s,
	    .max_packet = a->max_packet,
	    .mult = s >= USB_SPEED_SS	  ? (a->has_ss_comp ? a->ss_mult : 1)
		    : s == USB_SPEED_HIGH ? a->mult
					  : 1,
	    .burst = s >= USB_SPEED_SS ? (a->has_ss_comp ? a->max_burst : 0) : -1,
	    .interval = a->interval,
	    .pixel = -1,
	    .ss_bytes_per_interval = a->has_ss_comp ? a->ss_bytes_per_interval : 0,
	};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_uvc_result r;

	a->period_us = a->bytes_per_interval = a->bus_Bps = a->payload_Bps = NAN;
	a->derivation[0] = a->why[0] = '\0';
	/* wMaxPacketSize 0 would mean "the most" to the calculator: it carries nothing */
	if (!a->max_packet) {
		copy_text(a->why, sizeof(a->why), "wMaxPacketSize 0");
		return;
	}
	if (usb_uvc_calc(&p, &r, &err) < 0) {
		snprintf(a->why, sizeof(a->why), "%s: %s", err.option, err.why.buf);
		usb_calc_error_release(&err);
		return;
	}
	a->period_us = r.period_us;
	a->bytes_per_interval = r.bytes_per_interval;
	a->bus_Bps = r.bus_Bps;
	a->payload_Bps = r.payload_Bps;
	copy_text(a->derivation, sizeof(a->derivation), r.derivation.buf);
	usb_uvc_result_release(&r);
	usb_calc_error_release(&err);
}

double uvc_bulk_ceiling_Bps(enum usb_speed s)
{
	return usb_bulk_payload_Bps(s);
}

const char *uvc_frame_basis_name(enum uvc_frame_basis b)
{
	static const char *const names[] = {"pixels", "buffer", "mjpeg-ratio", "bitrate"};

	return (unsigned)b < sizeof(names) / sizeof(names[0]) ? names[b] : "unknown";
}

/* a's figures as a usb_uvc_result, for usb_uvc_frame_fps */
static double alt_fps(const struct uvc_alt *a, double frame_bytes)
{
	struct usb_uvc_result r = {.header_bytes = USB_UVC_HEADER_BYTES};

	r.period_us = a->period_us;
	r.bytes_per_interval = a->bytes_per_interval;
	return usb_uvc_frame_fps(&r, frame_bytes);
}

bool uvc_alt_carries(const struct uvc_alt *a, double frame_bytes, double fps, double *ret_fps,
		     double *ret_need_Bps)
{
	double can = 0, intervals;

	if (a->xfer == UVC_XFER_ISOC && isfinite(a->bytes_per_interval) &&
	    a->bytes_per_interval > USB_UVC_HEADER_BYTES)
		can = alt_fps(a, frame_bytes);
	if (ret_fps)
		*ret_fps = can;
	if (ret_need_Bps) {
		*ret_need_Bps = NAN;
		if (can > 0) {
			intervals =
			    ceil(frame_bytes / (a->bytes_per_interval - USB_UVC_HEADER_BYTES));
			*ret_need_Bps = (frame_bytes + intervals * USB_UVC_HEADER_BYTES) * fps;
		}
	}
	return can > 0 && can >= fps * (1 - FPS_SLACK);
}

static int frame_bytes(const struct uvc_info *info, const struct uvc_frame *fr, double fps,
		       bool use_buffer, struct uvc_need *n)
{
	const struct uvc_format *f = &info->formats[fr->format];
	double pixels = (double)fr->width * fr->height;

	switch (f->kind) {
	case UVC_FMT_UNCOMPRESSED:
		n->basis = UVC_BASIS_PIXELS;
		n->frame_bytes = pixels * f->bits_per_pixel / 8;
		break;
	case UVC_FMT_MJPEG:
		if (use_buffer && fr->max_frame_bytes) {
			n->basis = UVC_BASIS_BUFFER;
			n->frame_bytes = fr->max_frame_bytes;
		} else {
			/* limits_calc's estimate: the YUYV (2 B/pixel) frame over the ratio */
			n->basis = UVC_BASIS_MJPEG_RATIO;
			n->frame_bytes = pixels * 2 / USB_UVC_MJPEG_RATIO;
		}
		break;
	default:
		n->basis = UVC_BASIS_BITRATE;
		n->frame_bytes = fr->max_bitrate / 8.0 / fps;
		break;
	}
	return n->frame_bytes > 0 ? 0 : -EINVAL;
}

static const struct uvc_stream *stream_of(const struct uvc_info *info, const struct uvc_frame *fr)
{
	return &info->streams[info->formats[fr->format].stream];
}

int uvc_mode_need(const struct uvc_info *info, const struct uvc_frame *fr, uint32_t interval_100ns,
		  bool mjpeg_use_buffer, struct uvc_need *ret)
{
	struct uvc_need n = {.smallest_alt = -1, .largest_alt = -1};
	const struct uvc_stream *s;
	double best_Bps = -1, small_Bps = INFINITY;
	unsigned k;
	int r;

	if (!info || !fr || fr < info->frames || fr >= info->frames + info->n_frames)
		return -EINVAL;
	if (!interval_100ns)
		interval_100ns = fr->default_interval;
	if (!interval_100ns)
		return -EINVAL;
	n.fps = 1e7 / interval_100ns;
	r = frame_bytes(info, fr, n.fps, mjpeg_use_buffer, &n);
	if (r < 0)
		return r;
	n.payload_Bps = n.frame_bytes * n.fps;
	s = stream_of(info, fr);
	if (s->bulk) {
		/* one payload transfer, so one header, per frame */
		n.largest_alt = s->alts[0].alt;
		n.largest_fps = s->bulk_Bps / (n.frame_bytes + USB_UVC_HEADER_BYTES);
		if (n.largest_fps >= n.fps * (1 - FPS_SLACK)) {
			n.smallest_alt = s->alts[0].alt;
			n.smallest_need_Bps = (n.frame_bytes + USB_UVC_HEADER_BYTES) * n.fps;
		}
		*ret = n;
		return 0;
	}
	for (k = 0; k < s->n_alts; k++) {
		const struct uvc_alt *a = &s->alts[k];
		double can, need;

		if (a->xfer != UVC_XFER_ISOC || !isfinite(a->bus_Bps))
			continue;
		if (a->bus_Bps > best_Bps) {
			best_Bps = a->bus_Bps;
			n.largest_alt = a->alt;
			uvc_alt_carries(a, n.frame_bytes, n.fps, &n.largest_fps, NULL);
		}
		/* uvcvideo picks the alt setting with the fewest bytes per interval that fit */
		if (uvc_alt_carries(a, n.frame_bytes, n.fps, &can, &need) &&
		    a->bus_Bps < small_Bps) {
			small_Bps = a->bus_Bps;
			n.smallest_alt = a->alt;
			n.smallest_need_Bps = need;
		}
	}
	*ret = n;
	return 0;
}

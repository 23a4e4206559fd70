/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * UVC over a bulk endpoint (UVC 1.1 2.4.3.2; uvcvideo's bulk mode): the
 * highest frame rate one endpoint carries at a speed, for frames cut into
 * payloads of at most dwMaxPayloadTransferSize bytes, each with a 12 B
 * header and ending its bulk transfer (a short packet, or a zero-length
 * one after a payload of whole packets). Below SuperSpeed a short packet
 * takes a transaction of its own: the ceiling counts packets (13 x 512 B
 * per high-speed microframe, 19 x 64 B per full-speed frame); from
 * SuperSpeed on the link is the limit, each packet's bytes plus its
 * framing. Pure computation, as limits.h.
 */
#include "platform/usb/limits.h"

#define USB_UVC_BULK_PAYLOAD_DEF (32u << 10) /* usbperf's camera's dwMaxPayloadTransferSize */

struct usb_uvc_bulk_params {
	enum usb_speed speed;
	unsigned max_payload;	/* dwMaxPayloadTransferSize, header included; 0: the default */
	unsigned width, height; /* 0: a table of common sizes */
	int pixel;		/* enum usb_pixel, -1: every format */
	double mjpeg_ratio;	/* 0: USB_UVC_MJPEG_RATIO */
};

struct usb_uvc_bulk_frame {
	unsigned width, height;
	enum usb_pixel pixel;
	double frame_bytes;
	double payloads;    /* payloads per frame */
	double packets;	    /* bulk packets per frame, zero-length ones included */
	double wire_bytes;  /* the frame plus its headers */
	double fps;	    /* the most the endpoint carries */
	double need_Bps;    /* wire bytes at that rate */
};

struct usb_uvc_bulk_result {
	struct usb_uvc_bulk_params in; /* with the defaults filled in */
	double max_packet;
	double packets_per_s; /* below SuperSpeed; NaN above */
	double link_Bps;      /* SuperSpeed on: the coded link rate; NaN below */
	double framing_bytes; /* SuperSpeed on: per packet; NaN below */
	double bulk_Bps;      /* one bulk endpoint's payload ceiling (usb_bulk_payload_Bps) */
	struct strbuf derivation;
	struct usb_uvc_bulk_frame rows[USB_UVC_MAX_ROWS];
	size_t nrows;
};

/* 0, or -EINVAL with *err filled (no bulk at low speed, a payload below 13 B) */
int usb_uvc_bulk_calc(const struct usb_uvc_bulk_params *p, struct usb_uvc_bulk_result *ret,
		      struct usb_calc_error *err);
void usb_uvc_bulk_result_release(struct usb_uvc_bulk_result *r);
/* one frame of frame_bytes at speed s with payloads of max_payload: *ret filled; -EINVAL */
int usb_uvc_bulk_frame(enum usb_speed s, unsigned max_payload, double frame_bytes,
		       struct usb_uvc_bulk_frame *ret);

/* the report: "endpoint" (the ceiling's arithmetic) and "frame_rates" */
struct report;
struct limits_uvc_bulk_view {
	const char *speed, *derivation, *header;
	uint64_t max_payload;
	double max_packet, packets_per_s, link_mb_s, framing_bytes, bulk_mb_s, mjpeg_ratio;
	struct limits_uvc_bulk_row {
		uint64_t width, height;
		const char *pixel;
		double frame_bytes, payloads, packets, fps, need_mb_s;
	} rows[USB_UVC_MAX_ROWS];
};
void limits_uvc_bulk_describe(const struct usb_uvc_bulk_result *res,
			      struct limits_uvc_bulk_view *v, struct report *r);

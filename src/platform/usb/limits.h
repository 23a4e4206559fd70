/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Theoretical USB ceilings, computed: signalling and line coding per speed,
 * the payload ceiling of one endpoint per transfer type, and three class
 * calculators (UVC isochronous video, HID interrupt reports, the bitrate the
 * Linux NCM gadget reports). Pure computation: nothing here prints.
 *
 * Every rate in this API is payload bytes per second (B/s). Renderers show
 * MB/s (10^6 B/s), MiB/s (2^20 B/s) and Mbit/s (10^6 bit/s).
 *
 * A ceiling is what one endpoint can move on an otherwise idle bus with
 * perfect host and device: a measurement can approach it, never pass it.
 */
#include "platform/usb/speed.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>

enum usb_xfer {
	USB_XFER_CONTROL,
	USB_XFER_BULK,
	USB_XFER_INTERRUPT,
	USB_XFER_ISOC,
	USB_XFER_COUNT,
};

/* "control", "bulk", "interrupt", "isochronous" */
const char *usb_xfer_name(enum usb_xfer t);

/* Signalling and line coding of one speed. */
struct usb_link {
	enum usb_speed speed;
	const char *usb;	/* the specification name: "USB 3.2 Gen 2x1 (USB 3.1 Gen 2)" */
	double signal_mbps;	/* all lanes together, Mbit/s */
	unsigned lanes;
	const char *coding;	/* "NRZI + bit stuffing", "8b/10b", "128b/132b" */
	double coded_Bps;	/* bytes/s left after line coding (USB 2: bit stuffing ignored) */
	double interval_us;	/* (micro)frame or bus interval: 1000 or 125 */
	const char *interval_name; /* "1 ms frame", "125 us microframe", "125 us bus interval" */
	double bulk_Bps;	/* usb_bulk_payload_Bps() */
};

/* 0, or -EINVAL for USB_SPEED_UNKNOWN and out-of-range values. */
int usb_link_info(enum usb_speed s, struct usb_link *ret);

/*
 * One ceiling and how it was derived. Numbers that do not apply are NaN
 * (every number when !allowed; packets and interval_us for the link-limited
 * SuperSpeed bulk and control rows).
 */
struct usb_ceiling {
	enum usb_speed speed;
	enum usb_xfer type;
	bool allowed;		/* false: the type does not exist at this speed */
	double payload_Bps;	/* 0 when !allowed */
	double max_packet;	/* bytes */
	double packets;		/* packets (transactions) per interval: 13 */
	double burst;		/* SuperSpeed: packets per burst; NaN below */
	double interval_us;	/* the interval the packets are counted in */
	double overhead_bytes;	/* protocol bytes per transaction (USB 2) or per packet (SS) */
	const char *derivation; /* "13 x 512 B per 125 us microframe" */
	const char *source;	/* where the rule comes from: "USB 2.0 5.8.4" */
	const char *note;	/* a caveat, or NULL */
};

/* 0, or -EINVAL for an unknown speed or type. */
int usb_transfer_ceiling(enum usb_speed s, enum usb_xfer t, struct usb_ceiling *ret);

/*
 * The API other commands use to put a measurement next to its ceiling:
 * the framing-aware bulk payload ceiling of one endpoint, bytes/s.
 *   full 1 216 000 (19 x 64 B per 1 ms frame), high 53 248 000 (13 x 512 B
 *   per 125 us microframe), super 484 848 484.8 (500 MB/s after 8b/10b,
 *   1024 of every 1056 B on the wire), gen2x1 1 170 940 170.9 ...
 * 0 for low-speed (no bulk) and unknown speeds. usb_bulk_ceiling() gives the
 * same figure with its derivation text, for a "ceiling"/"efficiency" column.
 */
double usb_bulk_payload_Bps(enum usb_speed s);
int usb_bulk_ceiling(enum usb_speed s, struct usb_ceiling *ret);

/* Published field figures: "field reference, not a limit". */
struct usb_field_ref {
	const char *what;	/* "USB 2.0 disk (mass storage)" */
	enum usb_speed speed;	/* the bus they were seen on */
	const char *range;	/* "25-35 MB/s" as published */
	double min_Bps, max_Bps; /* min NaN for "up to" figures */
	const char *note;
	const char *kind;   /* what usbperf run measured: "usb-storage", "usb-net" */
	const char *driver; /* the driver it applies to, NULL any */
};

/* The table and its length; static data. */
const struct usb_field_ref *usb_field_refs(size_t *ret_n);
/* The reference for a device of this kind and driver at this speed, or NULL. */
const struct usb_field_ref *usb_field_ref_for(enum usb_speed s, const char *kind,
					      const char *driver);

/*
 * The bitrate the Linux NCM gadget function reports to the host in its CDC
 * SPEED_CHANGE notification (bit/s), next to the bulk ceiling of the speed.
 */
struct usb_ncm_rate {
	enum usb_speed speed;
	uint64_t reported_bps;
	const char *formula;	/* "13 x 512 B x 8 microframes x 1000 x 8 bit" */
	double bulk_Bps;
	const char *note;
};

int usb_ncm_reported(enum usb_speed s, struct usb_ncm_rate *ret);

/* Calculators refuse bad input naming the option and what is allowed. */
struct usb_calc_error {
	const char *option;	/* "maxpacket" (without the dashes) */
	struct strbuf why;	/* "high-speed isochronous allows at most 1024" */
};

#define USB_CALC_ERROR_INIT {NULL, STRBUF_INIT}
void usb_calc_error_release(struct usb_calc_error *e);

enum usb_pixel { USB_PIXEL_YUYV, USB_PIXEL_NV12, USB_PIXEL_MJPEG, USB_PIXEL_COUNT };

const char *usb_pixel_name(enum usb_pixel p); /* "yuyv", "nv12", "mjpeg" */
int usb_pixel_parse(const char *s, enum usb_pixel *ret);

/*
 * UVC over an isochronous endpoint. One payload header per service interval
 * (one payload transfer per interval, as the Linux UVC gadget sends it).
 */
#define USB_UVC_HEADER_BYTES 12	   /* 2 B header + 4 B PTS + 6 B SCR */
#define USB_UVC_MJPEG_RATIO 10.0   /* assumed MJPEG size: YUYV 4:2:2 size / 10 */
#define USB_UVC_MAX_SIDE 16384	   /* width and height */
#define USB_UVC_MAX_ROWS (4 * USB_PIXEL_COUNT)

struct usb_uvc_params {
	enum usb_speed speed;
	unsigned max_packet;	/* 0: the most the speed allows */
	unsigned mult;		/* transactions (HS) or bursts (SS) per interval; 0: the most */
	int burst;		/* SS bMaxBurst 0-15; -1: not given (15 at SS, none below) */
	unsigned interval;	/* bInterval 1-16: 2^(N-1) (micro)frames; 0: 1 */
	unsigned width, height; /* 0: a table of common sizes */
	int pixel;		/* enum usb_pixel, -1: every format */
	double mjpeg_ratio;	/* 0: USB_UVC_MJPEG_RATIO */
	/*
	 * SuperSpeed wBytesPerInterval from the endpoint companion: what the
	 * host reserves (and uvcvideo uses) when below the burst arithmetic.
	 * 0: none.
	 */
	unsigned ss_bytes_per_interval;
};

struct usb_uvc_fps {
	unsigned width, height;
	enum usb_pixel pixel;
	double frame_bytes;
	double intervals;	/* service intervals one frame needs */
	double fps;		/* 1 / (intervals x period) */
};

struct usb_uvc_result {
	struct usb_uvc_params in; /* with the defaults filled in */
	double period_us;
	double bytes_per_interval;
	double header_bytes;
	double bus_Bps;		/* bytes_per_interval / period */
	double payload_Bps;	/* less one header per interval */
	struct strbuf derivation; /* "3 x 1024 B per 125 us microframe" */
	struct usb_uvc_fps rows[USB_UVC_MAX_ROWS];
	size_t nrows;
};

/* 0, or -EINVAL with *err filled; ret is untouched on failure. */
int usb_uvc_calc(const struct usb_uvc_params *p, struct usb_uvc_result *ret,
		 struct usb_calc_error *err);
void usb_uvc_result_release(struct usb_uvc_result *r);
/*
 * The frame rate r's endpoint sustains for frames of frame_bytes: a frame
 * takes whole service intervals, each carrying one payload header (the
 * rows' arithmetic). 0 when frame_bytes is not above 0.
 */
double usb_uvc_frame_fps(const struct usb_uvc_result *r, double frame_bytes);

/*
 * HID reports over an interrupt IN endpoint, one report per service
 * interval at most (usbhid keeps one URB in flight; a short packet ends the
 * transfer). A report longer than wMaxPacketSize (largest: LS 8, FS 64, HS
 * and SS 1024) spans several packets: a high-bandwidth high-speed endpoint
 * carries up to 3 per microframe (wMaxPacketSize bits 12:11), a SuperSpeed
 * one up to 3 per service interval as a burst (bMaxBurst 0-2); any other
 * carries one, and the report takes several intervals.
 */
#define USB_HID_MAX_REPORT 65535

struct usb_hid_params {
	enum usb_speed speed;
	unsigned report_length; /* bytes, report ID included; 0: one full packet */
	unsigned interval;	/* bInterval: ms at LS/FS (1-255), 2^(N-1) x 125 us above (1-16) */
	unsigned max_packet;	/* wMaxPacketSize 10:0; 0: the speed's largest */
	unsigned mult;		/* high speed: transactions per microframe 1-3; 0: 1 */
	unsigned burst;		/* SuperSpeed: bMaxBurst 0-2 (burst + 1 packets per interval) */
};

struct usb_hid_rate {
	const char *basis;	/* "descriptor" or "xHCI schedule" */
	double period_us;
	double reports_per_s;
	double Bps;
};

struct usb_hid_result {
	struct usb_hid_params in;
	unsigned max_packet;
	unsigned packets_per_report;
	unsigned packets_per_interval;	/* mult at HS, burst + 1 at SS, else 1 */
	unsigned intervals_per_report;
	double period_us;		/* the descriptor's service interval */
	struct usb_hid_rate rates[2]; /* as described; as an xHCI host schedules it */
	struct strbuf note;	/* caveats, "" for none */
	struct strbuf derivation; /* "8 B report in 1 packet of up to 8 B, one per 10000 us" */
};

int usb_hid_calc(const struct usb_hid_params *p, struct usb_hid_result *ret,
		 struct usb_calc_error *err);
void usb_hid_result_release(struct usb_hid_result *r);

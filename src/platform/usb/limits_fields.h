/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The schema of usbperf limits: the results of limits.h turned into rows in
 * the units people read (MB/s, MiB/s, Mbit/s) and described by one field
 * table each, which drives text, JSON and CSV alike.
 */
#include "platform/usb/limits.h"
#include "model/field.h"

#include <stddef.h>
#include <stdint.h>

struct limits_xfer_row {
	const char *speed, *type, *derivation, *source, *note;
	bool allowed;
	double max_packet, packets, burst, interval_us, overhead;
	double mb_s, mib_s, mbit_s;
};

struct limits_link_row {
	const char *speed, *label, *usb, *coding, *interval;
	uint64_t lanes;
	double signal_mbit_s, coded_mb_s, bulk_mb_s, bulk_pct;
};

struct limits_ref_row {
	const char *what, *speed, *range, *kind, *note;
	double mb_s_min, mb_s_max, mbit_s_min, mbit_s_max, ceiling_mb_s, pct_max;
};

#define LIMITS_MAX_REFS 8

struct limits_table_view {
	struct limits_xfer_row xfers[USB_SPEED_COUNT * USB_XFER_COUNT];
	struct limits_link_row links[USB_SPEED_COUNT];
	struct limits_ref_row refs[LIMITS_MAX_REFS];
	size_t nxfers, nlinks, nrefs;
};

/* Every speed, or only one (USB_SPEED_UNKNOWN: all). v must outlive r. */
void limits_table_describe(enum usb_speed only, struct limits_table_view *v, struct report *r);

struct limits_ncm_row {
	const char *speed, *formula, *note;
	uint64_t bit_s;
	double mbit_s, bulk_mbit_s, pct;
};

struct limits_ncm_view {
	struct limits_ncm_row rows[USB_SPEED_COUNT];
	size_t n;
};

void limits_ncm_describe(enum usb_speed only, struct limits_ncm_view *v, struct report *r);

struct limits_fps_row {
	uint64_t width, height;
	const char *pixel;
	double frame_bytes, intervals, fps;
};

struct limits_uvc_view {
	const char *speed, *derivation, *header;
	uint64_t max_packet, mult, interval;
	double burst, period_us, bytes_per_interval, header_bytes;
	double bus_mb_s, mb_s, mib_s, mbit_s, mjpeg_ratio;
	struct limits_fps_row rows[USB_UVC_MAX_ROWS];
};

/* res must outlive r (the derivation text is borrowed) */
void limits_uvc_describe(const struct usb_uvc_result *res, struct limits_uvc_view *v,
			 struct report *r);

struct limits_hid_row {
	const char *basis;
	double period_us, reports_per_s, bytes_per_s;
};

struct limits_hid_view {
	const char *speed, *derivation, *note;
	uint64_t report_bytes, interval, max_packet, packets;
	uint64_t packets_per_interval, intervals; /* JSON only: the high-bandwidth model */
	struct limits_hid_row rows[2];
};

void limits_hid_describe(const struct usb_hid_result *res, struct limits_hid_view *v,
			 struct report *r);

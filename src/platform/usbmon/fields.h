/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbperf monitor's result: the capture, one row per device, one per endpoint and
 * direction. Figures only, from usbmon_stats and the USB tree; rates in MB/s =
 * 10^6 B/s over the capture's window.
 */
#include "platform/usbmon/usbmon.h"
#include "model/field.h"

struct usb_topology;

struct usbmon_summary_row {
	char *source;	/* "/dev/usbmon2", or the pcapng file read */
	uint64_t bus;	/* 0: all */
	double seconds; /* the window */
	uint64_t events;
	uint64_t dropped;	     /* the kernel's count of events lost to a full ring */
	bool lower_bound;	     /* events were lost: every count is at least this */
	uint64_t unmatched_overflow; /* submits not tracked: the URB table was full */
	uint64_t ring_bytes;	     /* U64_UNKNOWN reading a file */
	char *pcap;
	uint64_t pcap_bytes;
};

struct usbmon_device_row {
	char *device; /* "2-1", or "bus 2 dev 3" when the tree does not know it */
	uint64_t bus, devnum;
	char *vid_pid, *product, *driver;
	const char *speed;
	double ceiling_mb_s;	 /* the link's bulk payload ceiling */
	uint64_t max_sectors_kb; /* its disk's request cap (sysfs), U64_UNKNOWN none */
	uint64_t in_bytes, out_bytes;
	double in_mb_s, out_mb_s, urbs_s;
	uint64_t urbs;
	uint64_t urb_size; /* the dominant completed size on its busiest data endpoint */
	uint64_t inflight_max;
	double inflight_mean, lat_p50_us, lat_p99_us, lat_max_us, busy_pct;
	uint64_t errors, unmatched;
};

struct usbmon_ep_row {
	char *device;
	uint64_t bus, devnum;
	char *endpoint; /* "0x81" */
	const char *dir, *type;
	uint64_t urbs, bytes;
	double mb_s, urbs_s;
	uint64_t urb_size, urb_size_count;
	char *size_hist; /* "512:3 65536:1200": lower bucket edge in bytes, completions */
	char *sizes;	 /* exact sizes, ascending: "13:70 31:70 122880:64" (the first 32 seen) */
	uint64_t inflight_max;
	double inflight_mean, lat_p50_us, lat_p99_us, lat_max_us;
	uint64_t submits, unmatched, submit_errors;
	uint64_t empty; /* completed without error and without a byte */
	uint64_t err_epipe, err_eproto, err_eoverflow, err_enoent, err_econnreset, err_eshutdown,
	    err_other;
	uint64_t iso_packets, iso_packet_errors;
};

struct usbmon_rows {
	struct usbmon_summary_row sum;
	struct usbmon_device_row *dev;
	size_t ndev;
	struct usbmon_ep_row *ep;
	size_t nep;
};

extern const struct record_desc usbmon_summary_desc, usbmon_device_desc, usbmon_ep_desc;

/* rows from finished stats; t (NULL: none) names the devices. -ENOMEM */
int usbmon_rows_build(const struct usbmon_stats *s, const struct usb_topology *t,
		      struct usbmon_rows *ret);
void usbmon_rows_release(struct usbmon_rows *r);

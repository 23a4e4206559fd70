/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Bulk results as report rows: one field table drives text, JSON and CSV.
 * Each point row becomes, for run's record later, metric rows (device
 * "2-1", test "bulk", pass "in-64K-q8", metric "mb_s", unit "MB/s", value,
 * ceiling ceiling_mb_s).
 */
#include "classes/bulk/bulk.h"
#include "model/field.h"

/* the device measured and what was done to its interface */
struct bulk_device_row {
	char *device;  /* "1-1" */
	char *vid_pid; /* "0525:a4a0" */
	char *product;
	const char *speed; /* "high" */
	uint64_t interface, alt_setting;
	char *ep_in, *ep_out; /* "0x81", NULL none */
	uint64_t mps_in, mps_out;
	char *driver_detached; /* "usbtest", NULL: none held it */
	bool driver_reattached;
	double bulk_ceiling_mb_s;
};

/* one point, flattened (pass owned) */
struct bulk_row {
	char *pass; /* "in-64K-q8" */
	const char *dir;
	bool iso;
	uint64_t size, depth;
	double seconds;
	double mb_s, in_mb_s, out_mb_s, ceiling_mb_s, share_pct;
	uint64_t transfers, packets, packet_errors;
	bool interrupted;
	/* on the wire (--monitor, usbmon); unknown unmonitored */
	double wire_mb_s, inflight_mean, busy_pct, urb_lat_p99_us;
	uint64_t wire_urbs;    /* completed URBs of the dominant size on the data endpoint */
	uint64_t wire_dropped; /* events usbmon lost: the wire figures are lower bounds */
	uint64_t urb_size, usb_errors;
	struct pass_sys sys;
};

extern const struct record_desc bulk_device_desc;
extern const struct record_desc bulk_row_desc;

/* a point as a row; -ENOMEM */
int bulk_row_from_point(const struct bulk_point *p, struct bulk_row *ret);
void bulk_row_release(struct bulk_row *r);
void bulk_device_row_release(struct bulk_device_row *d);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The schema of usbperf hid: one field table for the device, one for the
 * passes. Each pass row becomes metric rows for the run record (device,
 * test "hid", pass name, metric key, unit, value, ceiling): reports_per_s
 * and bytes_per_s against ceiling_reports_per_s and ceiling_bytes_per_s,
 * p50_us/p99_us/max_us without one.
 */
#include "classes/hid/io.h"
#include "model/field.h"

struct hid_device_view {
	const char *node, *hid, *device, *interface, *vid_pid, *product, *speed, *driver;
	const char *out_path; /* "interrupt OUT" or "SET_REPORT (control)" */
	uint64_t input_bytes, output_bytes, reports;
	const char *in_ep, *out_ep; /* "0x81" */
	char in_ep_buf[8], out_ep_buf[8];
	uint64_t in_max_packet, in_mult, in_interval;
	double in_period_us, in_ceiling_reports_per_s, in_ceiling_Bps;
	uint64_t out_max_packet, out_interval;
	double out_period_us;
};

struct hid_gadget_view {
	const char *node, *function;
	uint64_t report_bytes;
};

/* d and passes must outlive r */
void hid_device_describe(const struct hid_device *d, struct hid_device_view *v, struct report *r);
void hid_gadget_describe(struct hid_gadget_view *v, struct report *r);
void hid_passes_describe(const struct hid_pass *p, size_t n, struct report *r);

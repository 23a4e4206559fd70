/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What the wire says about a device's passes (usbmon, platform/usbmon/pass.h): requests
 * capped small, one URB in flight where more could queue, the bus idle for much of a
 * pass, errors, the share of the wire a protocol's wrappers take. Pure: figures in,
 * findings out, each with its evidence.
 */
#include "model/findings.h"

#include <stdint.h>

/* one monitored pass of a device, as the findings need it */
struct usbmon_pass_view {
	const char *pass;	/* "seq-read 1M" */
	uint64_t request_bytes; /* the pass's block size */
	unsigned qd;		/* the requests it kept in flight */
	uint64_t urb_size;	/* dominant completed size on the data endpoint */
	uint64_t urbs, usb_errors, wire_bytes, bot_commands, protocol_bytes;
	double inflight_mean, inflight_max, busy_pct, protocol_pct;
	double data_inflight_max; /* on the data endpoint alone; NaN unknown */
};

struct usbmon_device_view {
	const char *subject;	 /* the device key: "2-1" */
	const char *driver;	 /* "usb-storage", "uas"; NULL unknown */
	const char *block;	 /* "sdb"; NULL unknown */
	uint64_t max_sectors_kb; /* U64_UNKNOWN unknown */
};

#define USBMON_SMALL_URB (256u << 10) /* block.small_max_sectors' 256 KiB */
#define USBMON_IDLE_PCT 50.0	      /* a large-block pass with the bus busier than this */
#define USBMON_IDLE_MIN_BS (64u << 10)
#define USBMON_PROTOCOL_PCT 1.0 /* wrappers this share of the wire bytes: said */

void usbmon_findings(const struct usbmon_device_view *d, const struct usbmon_pass_view *v, size_t n,
		     struct finding_list *out);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The sizes and IDs of the reports a HID report descriptor declares (HID 1.11
 * 6.2.2): what `usbperf hid` reads and writes per report. Only the items
 * that decide sizes and the application are interpreted (Usage Page, a
 * 32-bit Usage's page, Report ID, Report Size, Report Count,
 * Push, Pop, Input, Output, Feature, Collection, End Collection); usages and
 * logical ranges are stepped over, long items skipped whole.
 *
 * The bytes come from the device. The parser is strict: a truncated item, a
 * reserved item type or main tag, a Report ID of 0, a Pop without a Push,
 * unbalanced collections, numbered and unnumbered reports mixed, a Report
 * Size above 256 bits or Count above 12288 (Linux's limits), a report above
 * HID_RDESC_MAX_BITS, nesting past HID_RDESC_MAX_DEPTH, no report at all:
 * -EINVAL, and why names the first fault and its offset.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HID_RDESC_MAX_LEN 4096		/* HID_MAX_DESCRIPTOR_SIZE in Linux */
#define HID_RDESC_MAX_REPORTS 256	/* IDs 1-255, or the one unnumbered report */
#define HID_RDESC_MAX_BITS (65535u * 8) /* nothing larger fits a hidraw read */
#define HID_RDESC_MAX_DEPTH 32		/* Push and Collection nesting */

enum hid_report_kind { HID_REPORT_INPUT, HID_REPORT_OUTPUT, HID_REPORT_FEATURE, HID_REPORT_KINDS };

struct hid_report_info {
	uint8_t id;			 /* 0: the descriptor uses no report IDs */
	uint32_t bits[HID_REPORT_KINDS]; /* data bits per kind; 0: none of that kind */
};

struct hid_rdesc {
	bool numbered; /* reports carry a leading report ID byte */
	size_t n;      /* reports, in the order their IDs first appear */
	struct hid_report_info reports[HID_RDESC_MAX_REPORTS];
	unsigned collections; /* Collection items seen */
	/*
	 * The top-level collections and their usage pages (the application:
	 * 0x01 Generic Desktop for keyboards and mice, 0xFF00-0xFFFF vendor).
	 */
	unsigned top_collections, vendor_top_collections;
	uint32_t top_usage_page; /* the first one's */
};

/* 0, or -EINVAL with why (NULL: not wanted) set; ret untouched on failure */
int hid_rdesc_parse(const void *data, size_t len, struct hid_rdesc *ret, struct strbuf *why);
/* bytes hidraw moves for one report of that kind, report ID byte included; 0: none */
uint32_t hid_report_bytes(const struct hid_report_info *r, enum hid_report_kind k);
/*
 * The largest report of kind k: its index in d->reports, or -ENOENT when the
 * descriptor declares none of that kind.
 */
int hid_rdesc_largest(const struct hid_rdesc *d, enum hid_report_kind k);
/*
 * Whether every top-level collection is vendor-defined (usage page
 * 0xFF00-0xFFFF): reports no host driver turns into keystrokes or pointer
 * moves.
 */
bool hid_rdesc_vendor_only(const struct hid_rdesc *d);
/* "input", "output", "feature" */
const char *hid_report_kind_name(enum hid_report_kind k);

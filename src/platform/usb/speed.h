/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * USB link speeds as Linux reports them in sysfs: the "speed" attribute
 * (Mbit/s: 1.5, 12, 480, 5000, 10000, 20000) and, for SuperSpeed Plus, the
 * rx_lanes/tx_lanes attributes that tell Gen 1x2 from Gen 2x1 (both 10000).
 */

enum usb_speed {
	USB_SPEED_UNKNOWN = 0,
	USB_SPEED_LOW,	    /* 1.5 Mbit/s, USB 1.x */
	USB_SPEED_FULL,	    /* 12 Mbit/s, USB 1.x */
	USB_SPEED_HIGH,	    /* 480 Mbit/s, USB 2.0 */
	USB_SPEED_SS,	    /* 5 Gbit/s, USB 3.2 Gen 1x1, 8b/10b */
	USB_SPEED_SSP_G1X2, /* 10 Gbit/s, USB 3.2 Gen 1x2: two Gen 1 lanes, 8b/10b */
	USB_SPEED_SSP_G2X1, /* 10 Gbit/s, USB 3.2 Gen 2x1, 128b/132b */
	USB_SPEED_SSP_G2X2, /* 20 Gbit/s, USB 3.2 Gen 2x2, 128b/132b */
	USB_SPEED_COUNT,
};

/*
 * From the sysfs "speed" text and lane count (0 when the attribute is
 * absent: one lane). Unknown text gives USB_SPEED_UNKNOWN.
 */
enum usb_speed usb_speed_from_sysfs(const char *speed, unsigned lanes);
/* Signalling rate in Mbit/s (1.5 -> 1.5), 0 for unknown. */
double usb_speed_mbps(enum usb_speed s);
/* Short stable name for JSON and options: "low", "full", "high", "super", "super-plus", "gen1x2", "gen2x2" ... */
const char *usb_speed_name(enum usb_speed s);
/* Human label: "high-speed (480M)", "SuperSpeed+ Gen 2x1 (10G)" */
const char *usb_speed_label(enum usb_speed s);
/* The specifications' word, for messages: "high-speed", "SuperSpeed", "SuperSpeedPlus" */
const char *usb_speed_word(enum usb_speed s);
/* Parse a name as accepted on the command line (name, or the Mbit/s figure); -EINVAL if unknown. */
int usb_speed_parse(const char *s, enum usb_speed *ret);

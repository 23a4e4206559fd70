// SPDX-License-Identifier: MIT
/* Stable short names for codes found in descriptors: used as JSON values and in text. */
#include "platform/usb/descriptors.h"

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *usb_class_name(unsigned cls)
{
	/* usb.org "Defined Class Codes"; the list is sparse past 0x14 */
	static const char *const low[] = {
	    [0x00] = "per-interface", /* device class: see each interface */
	    [0x01] = "audio",
	    [0x02] = "cdc",
	    [0x03] = "hid",
	    [0x05] = "physical",
	    [0x06] = "image",
	    [0x07] = "printer",
	    [0x08] = "mass-storage",
	    [0x09] = "hub",
	    [0x0a] = "cdc-data",
	    [0x0b] = "smart-card",
	    [0x0d] = "content-security",
	    [0x0e] = "video",
	    [0x0f] = "personal-healthcare",
	    [0x10] = "audio-video",
	    [0x11] = "billboard",
	    [0x12] = "type-c-bridge",
	    [0x13] = "bulk-display",
	    [0x14] = "mctp",
	};

	if (cls < ARRAY_SIZE(low))
		return low[cls] ? low[cls] : "unknown";
	switch (cls) {
	case 0x3c:
		return "i3c";
	case 0xdc:
		return "diagnostic";
	case 0xe0:
		return "wireless";
	case 0xef:
		return "misc";
	case 0xfe:
		return "app-specific";
	case 0xff:
		return "vendor";
	default:
		return "unknown";
	}
}

const char *usb_transfer_type_name(enum usb_transfer_type t)
{
	static const char *const names[] = {
	    [USB_XFER_CONTROL] = "control",
	    [USB_XFER_ISOC] = "isochronous",
	    [USB_XFER_BULK] = "bulk",
	    [USB_XFER_INTERRUPT] = "interrupt",
	};

	return (unsigned)t < ARRAY_SIZE(names) ? names[t] : "unknown";
}

const char *usb_bos_cap_name(unsigned type)
{
	static const char *const names[] = {
	    [0x01] = "wireless-usb",	[0x02] = "usb2-ext",	     [0x03] = "superspeed",
	    [0x04] = "container-id",	[0x05] = "platform",	     [0x06] = "power-delivery",
	    [0x07] = "battery-info",	[0x08] = "pd-consumer-port", [0x09] = "pd-provider-port",
	    [0x0a] = "superspeed-plus", [0x0b] = "precision-time",   [0x0c] = "wireless-usb-ext",
	    [0x0d] = "billboard",	[0x0e] = "authentication",   [0x0f] = "billboard-ex",
	    [0x10] = "config-summary",
	};

	return type < ARRAY_SIZE(names) && names[type] ? names[type] : "unknown";
}

const char *usb_desc_flag_name(unsigned flag)
{
	static const char *const names[USB_DESC_F_COUNT] = {
	    "truncated",      "bad-length",    "short",	      "total-too-big", "total-too-small",
	    "num-interfaces", "num-endpoints", "num-configs", "num-caps",      "stray",
	    "limit",	      "skipped",       "bad-type",
	};
	unsigned bit;

	/* exactly one bit set */
	if (!flag || (flag & (flag - 1)))
		return "unknown";
	bit = (unsigned)__builtin_ctz(flag);
	return bit < ARRAY_SIZE(names) ? names[bit] : "unknown";
}

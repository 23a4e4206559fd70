// SPDX-License-Identifier: MIT
/*
 * HID report descriptors for the hid profile's presets, written from the HID
 * 1.11 specification: the boot keyboard (Appendix B.1: 8-byte input report,
 * 5 LED bits out), a boot mouse with a wheel (B.2 plus the wheel usage:
 * 4-byte report), and vendor-defined reports of 64, 512 and 1024 bytes each
 * way (usage page 0xFF00), for throughput: one report fills report_length.
 */
#include "classes/gadget/build.h"

#include <string.h>

static const uint8_t keyboard[] = {
    0x05, 0x01, /* Usage Page (Generic Desktop) */
    0x09, 0x06, /* Usage (Keyboard) */
    0xa1, 0x01, /* Collection (Application) */
    0x05, 0x07, /*   Usage Page (Keyboard/Keypad) */
    0x19, 0xe0, /*   Usage Minimum (Left Control) */
    0x29, 0xe7, /*   Usage Maximum (Right GUI) */
    0x15, 0x00, /*   Logical Minimum (0) */
    0x25, 0x01, /*   Logical Maximum (1) */
    0x75, 0x01, /*   Report Size (1) */
    0x95, 0x08, /*   Report Count (8) */
    0x81, 0x02, /*   Input (Data, Variable, Absolute): modifiers */
    0x95, 0x01, /*   Report Count (1) */
    0x75, 0x08, /*   Report Size (8) */
    0x81, 0x01, /*   Input (Constant): reserved byte */
    0x95, 0x05, /*   Report Count (5) */
    0x75, 0x01, /*   Report Size (1) */
    0x05, 0x08, /*   Usage Page (LEDs) */
    0x19, 0x01, /*   Usage Minimum (Num Lock) */
    0x29, 0x05, /*   Usage Maximum (Kana) */
    0x91, 0x02, /*   Output (Data, Variable, Absolute): LEDs */
    0x95, 0x01, /*   Report Count (1) */
    0x75, 0x03, /*   Report Size (3) */
    0x91, 0x01, /*   Output (Constant): padding */
    0x95, 0x06, /*   Report Count (6) */
    0x75, 0x08, /*   Report Size (8) */
    0x15, 0x00, /*   Logical Minimum (0) */
    0x25, 0x65, /*   Logical Maximum (101) */
    0x05, 0x07, /*   Usage Page (Keyboard/Keypad) */
    0x19, 0x00, /*   Usage Minimum (0) */
    0x29, 0x65, /*   Usage Maximum (101) */
    0x81, 0x00, /*   Input (Data, Array): six key codes */
    0xc0,	/* End Collection */
};

static const uint8_t mouse[] = {
    0x05, 0x01, /* Usage Page (Generic Desktop) */
    0x09, 0x02, /* Usage (Mouse) */
    0xa1, 0x01, /* Collection (Application) */
    0x09, 0x01, /*   Usage (Pointer) */
    0xa1, 0x00, /*   Collection (Physical) */
    0x05, 0x09, /*     Usage Page (Button) */
    0x19, 0x01, /*     Usage Minimum (1) */
    0x29, 0x03, /*     Usage Maximum (3) */
    0x15, 0x00, /*     Logical Minimum (0) */
    0x25, 0x01, /*     Logical Maximum (1) */
    0x95, 0x03, /*     Report Count (3) */
    0x75, 0x01, /*     Report Size (1) */
    0x81, 0x02, /*     Input (Data, Variable, Absolute): buttons */
    0x95, 0x01, /*     Report Count (1) */
    0x75, 0x05, /*     Report Size (5) */
    0x81, 0x01, /*     Input (Constant): padding */
    0x05, 0x01, /*     Usage Page (Generic Desktop) */
    0x09, 0x30, /*     Usage (X) */
    0x09, 0x31, /*     Usage (Y) */
    0x09, 0x38, /*     Usage (Wheel) */
    0x15, 0x81, /*     Logical Minimum (-127) */
    0x25, 0x7f, /*     Logical Maximum (127) */
    0x75, 0x08, /*     Report Size (8) */
    0x95, 0x03, /*     Report Count (3) */
    0x81, 0x06, /*     Input (Data, Variable, Relative) */
    0xc0,	/*   End Collection */
    0xc0,	/* End Collection */
};

/* vendor page, N opaque bytes in and N out; N in the two Report Count items */
#define VENDOR(lo, hi)                                                                             \
	{                                                                                          \
		0x06, 0x00, 0xff,     /* Usage Page (Vendor Defined 0xFF00) */                     \
		    0x09, 0x01,	      /* Usage (1) */                                              \
		    0xa1, 0x01,	      /* Collection (Application) */                               \
		    0x15, 0x00,	      /*   Logical Minimum (0) */                                  \
		    0x26, 0xff, 0x00, /*   Logical Maximum (255) */                                \
		    0x75, 0x08,	      /*   Report Size (8) */                                      \
		    0x96, lo, hi,     /*   Report Count (N) */                                     \
		    0x09, 0x01,	      /*   Usage (1) */                                            \
		    0x81, 0x02,	      /*   Input (Data, Variable, Absolute) */                     \
		    0x96, lo, hi,     /*   Report Count (N) */                                     \
		    0x09, 0x01,	      /*   Usage (1) */                                            \
		    0x91, 0x02,	      /*   Output (Data, Variable, Absolute) */                    \
		    0xc0,	      /* End Collection */                                         \
	}
static const uint8_t vendor64[] = VENDOR(0x40, 0x00);
static const uint8_t vendor512[] = VENDOR(0x00, 0x02);
static const uint8_t vendor1024[] = VENDOR(0x00, 0x04);

static const struct {
	const char *name;
	const uint8_t *desc;
	size_t len;
	unsigned report_length, protocol, subclass;
} presets[] = {
    /* boot interface subclass 1; protocol 1 keyboard, 2 mouse (HID 1.11 4.2, 4.3) */
    {"keyboard", keyboard, sizeof(keyboard), 8, 1, 1},
    {"mouse", mouse, sizeof(mouse), 4, 2, 1},
    {"vendor64", vendor64, sizeof(vendor64), 64, 0, 0},
    {"vendor512", vendor512, sizeof(vendor512), 512, 0, 0},
    {"vendor1024", vendor1024, sizeof(vendor1024), 1024, 0, 0},
};

const uint8_t *hid_preset(const char *name, size_t *ret_len, unsigned *ret_report_length,
			  unsigned *ret_protocol, unsigned *ret_subclass)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].name, name))
			continue;
		*ret_len = presets[i].len;
		*ret_report_length = presets[i].report_length;
		*ret_protocol = presets[i].protocol;
		*ret_subclass = presets[i].subclass;
		return presets[i].desc;
	}
	return NULL;
}

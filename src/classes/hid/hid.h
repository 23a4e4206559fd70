/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbperf hid: a HID device over USB, its interrupt endpoints and report
 * sizes, and what each pass measured next to the endpoint's ceiling.
 *
 * The probe follows /sys/class/hidraw/hidrawN/device (the HID device,
 * "0003:VVVV:PPPP.NNNN", bus 0003 = USB) up to its USB interface, reads the
 * interface's endpoints from the device's descriptors and the report sizes
 * from the HID report descriptor. Nothing here prints.
 */
#include "model/findings.h"
#include "classes/hid/rdesc.h"
#include "platform/usb/attach.h"
#include "platform/usb/limits.h"

#include <stdbool.h>
#include <stdint.h>

#define HID_BUS_USB 0x0003

struct hid_endpoint {
	bool present;
	uint8_t address;
	unsigned max_packet, mult, burst, interval;
	double period_us;	       /* the descriptor's service interval */
	unsigned report_bytes;	       /* the largest report of this direction */
	bool has_ceiling;	       /* the descriptor's numbers are ones the speed allows */
	struct usb_hid_result ceiling; /* usb_hid_calc() for that report, when has_ceiling */
};

struct hid_device {
	char *node;   /* "/dev/hidraw0" */
	char *name;   /* "hidraw0" */
	char *hid;    /* the HID device: "0003:0525:A4AC.0001" */
	unsigned bus; /* HID bus type: 0x0003 USB, 0x0005 Bluetooth, 0x0018 I2C */
	struct usb_attach usb;
	unsigned ifnum;
	struct hid_rdesc *rdesc;
	unsigned in_bytes, out_bytes; /* the largest input and output reports (ID included) */
	uint8_t in_id, out_id;	      /* their report IDs, 0 unnumbered */
	struct hid_endpoint in, out;  /* interrupt IN and OUT (out.present false: SET_REPORT) */
};

/*
 * arg: a hidraw node ("/dev/hidraw0", "hidraw0") or "VVVV:PPPP" (the first
 * hidraw of that USB device). -ENOENT no such node or device; -ENOTTY not a
 * hidraw node; -EPROTONOSUPPORT HID on another bus (why names it); -ENODEV no
 * USB interface above it; -EINVAL a report descriptor that does not parse
 * (why says where). why (may be NULL) gets one line for the command.
 */
int hid_device_probe(const char *arg, struct hid_device *ret, struct strbuf *why);
void hid_device_release(struct hid_device *d);

/* "VVVV:PPPP" (4 hex digits each side) */
bool hid_is_vid_pid(const char *s);
/* The HID bus name for messages: "USB", "Bluetooth", "I2C", "virtual (uhid)", "0x00NN" */
const char *hid_bus_name(unsigned bus, char *buf, size_t len);

/*
 * One endpoint's ceiling: (max packet x packets per interval) per service
 * interval at the link speed, for reports of report_bytes, through
 * usb_hid_calc(). Fills e->ceiling; -EINVAL when the descriptor's numbers
 * are outside what the speed allows.
 */
int hid_endpoint_ceiling(enum usb_speed s, struct hid_endpoint *e);

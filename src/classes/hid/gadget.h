/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The device side of HID: the f_hid function behind a /dev/hidgN node, read
 * from configfs through the sysroot layer, and the interrupt IN endpoint
 * f_hid declares (its ceiling at the UDC's speed).
 */
#include "classes/hid/hid.h"
#include "classes/hid/rdesc.h"
#include "platform/usb/limits.h"

#include <stdbool.h>
#include <sys/stat.h>

struct hid_gadget_fn {
	char *gadget;		 /* the configfs gadget: "usbperf" */
	char *function;		 /* "hid.0" */
	char *dev;		 /* "243:0", the node's major:minor */
	char *node;		 /* "/dev/hidg0"; NULL when sysfs does not say */
	unsigned report_length;	 /* f_hid's wMaxPacketSize and write size; 0 unknown */
	bool no_out;		 /* no interrupt OUT endpoint: output reports by SET_REPORT */
	unsigned interval;	 /* the interval attribute (Linux 6.16+) as bInterval; 0 none */
	struct hid_rdesc *rdesc; /* the report descriptor parsed; NULL unreadable or refused */
	/* the UDC the gadget is bound to, its state and negotiated speed; NULL when unbound */
	char *udc, *udc_state, *udc_speed;
};

/* a character device of the hidg class (an f_hid node) */
bool hid_gadget_is_node(const struct stat *st);
/* the function gadget/function ("hid.0"): -ENOENT when it has no node, -EINVAL not hid */
int hid_gadget_fn_read(const char *gadget, const char *function, struct hid_gadget_fn *ret);
/* the function whose node is maj:min: -ENOENT none */
int hid_gadget_fn_of_dev(unsigned maj, unsigned min, struct hid_gadget_fn *ret);
void hid_gadget_fn_release(struct hid_gadget_fn *f);
/*
 * The interrupt IN endpoint f_hid declares, with its ceiling at the UDC's
 * current_speed: -ENODATA when no host is connected or the report length
 * is unknown, -EINVAL when the speed cannot carry it (ret->has_ceiling
 * false). Release ret->ceiling with usb_hid_result_release.
 */
int hid_gadget_in_endpoint(const struct hid_gadget_fn *f, struct hid_endpoint *ret);

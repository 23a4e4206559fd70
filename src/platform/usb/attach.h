/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Is a block device or a network interface on USB, and how is it attached?
 * Used by `usbperf disk` and `usbperf net` to put each result next to the
 * ceiling of the link it crosses.
 */
#include "platform/usb/speed.h"

#include <stdint.h>

struct usb_attach {
	char *device;	  /* "2-1" */
	char *interface;  /* "2-1:1.0" */
	char *vid_pid;	  /* "0781:5583" */
	char *product;
	char *driver;	  /* the interface driver: "uas", "usb-storage" */
	enum usb_speed speed;
	const char *speed_name;
	double ceiling_mb_s;  /* bulk payload ceiling of the link, MB/s; NaN unknown */
	const char *ceiling_basis; /* how it is derived: "13 x 512 B per 125 us microframe" */
};

/* -ENODEV when the device is not below a USB device in sysfs. */
int usb_attach_for_block(unsigned major, unsigned minor, struct usb_attach *ret);
/*
 * The same for a network interface, from /sys/class/net/IFNAME/device:
 * driver is the interface driver ("cdc_ncm", "rndis_host", "r8152").
 * -ENODEV when it is not on USB (loopback, veth, PCI), -EINVAL for a name
 * that is no interface name.
 */
/* the same for a character device (a V4L2 node, a hidraw): -ENODEV off USB */
int usb_attach_for_chardev(unsigned major, unsigned minor, struct usb_attach *ret);
/* the same for a device node path ("/dev/video0", below the sysroot): -ENODEV off USB */
int usb_attach_for_node(const char *node, struct usb_attach *ret);
int usb_attach_for_netdev(const char *ifname, struct usb_attach *ret);
void usb_attach_release(struct usb_attach *a);

// SPDX-License-Identifier: MIT
/* What the descriptors say a device can do, against what it negotiated. */
#include "core/usb/topology_priv.h"

#include <string.h>

void probe_descriptors(struct usb_device *d, const char *dir)
{
	(void)dir;
	/*
	 * A device that reports bcdUSB 3.x is SuperSpeed-capable. Connected at
	 * high speed, most report 2.10 instead: only the BOS tells then.
	 */
	if (d->bcd_usb >= 0x0300) {
		d->capable = USB_SPEED_SS;
		d->capable_source = "bcdUSB";
	}
	if (d->capable && d->speed > d->capable)
		d->capable = d->speed;
}

void link_uas_offers(struct usb_topology *t)
{
	(void)t;
}

const char *usb_class_label(unsigned cls)
{
	(void)cls;
	return NULL;
}

// SPDX-License-Identifier: MIT
/* The HID interface's interrupt endpoints, from the USB descriptors in sysfs. */
#include "classes/hid/hid_priv.h"
#include "platform/sys/attr.h"
#include "platform/usb/descriptors.h"
#include "model/field.h"
#include "util/sysroot.h"

#include <stdlib.h>
#include <string.h>

#define DESC_MAX (64 * 1024)

/* the interrupt endpoints of the HID interface, from the device's descriptors */
void hid_read_endpoints(const char *device, const char *interface, bool superspeed,
			unsigned *ret_ifnum, struct hid_ep_desc *ret_in,
			struct hid_ep_desc *ret_out)
{
	struct strbuf p = STRBUF_INIT, raw = STRBUF_INIT;
	struct usb_desc_device dd = {0};
	const struct usb_desc_config *c;
	const struct usb_desc_interface *intf;
	const char *dot = strrchr(interface, '.');
	uint64_t cfg, alt;
	unsigned ifnum;
	size_t i;

	strbuf_addf(&p, "/sys/bus/usb/devices/%s", device);
	cfg = attr_get_u64(p.buf, "bConfigurationValue");
	strbuf_adds(&p, "/descriptors");
	if (!dot || cfg == U64_UNKNOWN || sysroot_read(p.buf, DESC_MAX, &raw) < 0 ||
	    usb_desc_parse(raw.buf, raw.len, superspeed, &dd) < 0)
		goto out;
	ifnum = (unsigned)strtoul(dot + 1, NULL, 10); /* "%d-%s:%d.%d", usb_set_configuration() */
	*ret_ifnum = ifnum;
	strbuf_reset(&p);
	strbuf_addf(&p, "/sys/bus/usb/devices/%s", interface);
	alt = attr_get_u64(p.buf, "bAlternateSetting");
	c = usb_desc_config_by_value(&dd, (unsigned)cfg);
	intf = c ? usb_desc_find_interface(c, ifnum, alt == U64_UNKNOWN ? 0 : (unsigned)alt) : NULL;
	for (i = 0; intf && i < intf->n_eps; i++) {
		const struct usb_desc_endpoint *ep = &intf->eps[i];
		struct hid_ep_desc *e = ep->in ? ret_in : ret_out;

		if (ep->type != USB_XFER_INTERRUPT || e->present)
			continue;
		e->present = true;
		e->address = ep->address;
		e->max_packet = ep->max_packet;
		e->mult = ep->mult;
		e->burst = ep->has_ss_comp ? ep->max_burst : 0;
		e->interval = ep->interval;
	}
out:
	usb_desc_release(&dd);
	strbuf_release(&raw);
	strbuf_release(&p);
}

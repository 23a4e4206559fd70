// SPDX-License-Identifier: MIT
/* What the descriptors say a device can do, against what it negotiated. */
#include "platform/usb/descriptors.h"
#include "platform/usb/topology_priv.h"
#include "platform/usb/usbfs.h"
#include "util/sysroot.h"

#include <errno.h>
#include <string.h>

#define DESC_MAX (64 * 1024) /* 18 + up to 32 configs; real ones are a few hundred bytes */

/* interface numbers (below 64) of the active configuration that offer UAS */
static void probe_uas(struct usb_device *d, const char *dir)
{
	struct strbuf raw = STRBUF_INIT, p = STRBUF_INIT;
	struct usb_desc_device dd = {0};
	const struct usb_desc_config *c;
	uint64_t cfg = attr_get_u64(dir, "bConfigurationValue");
	unsigned i;

	strbuf_addf(&p, "%s/descriptors", dir);
	if (cfg == U64_UNKNOWN || sysroot_read(p.buf, DESC_MAX, &raw) < 0)
		goto out;
	if (usb_desc_parse(raw.buf, raw.len, d->speed >= USB_SPEED_SS, &dd) < 0)
		goto out;
	c = usb_desc_config_by_value(&dd, (unsigned)cfg);
	for (i = 0; c && i < 64; i++)
		if (usb_desc_offers_uas(c, i))
			d->uas_ifmask |= 1ull << i;
out:
	usb_desc_release(&dd);
	strbuf_release(&raw);
	strbuf_release(&p);
}

/*
 * The BOS from sysfs (bos_descriptors, newer kernels) or, on the live
 * system, from the device itself; a recording keeps it under the sysfs name
 * so a replay reads the same.
 */
static int read_bos(const struct usb_device *d, const char *dir, struct strbuf *raw)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/bos_descriptors", dir);
	r = sysroot_read(p.buf, DESC_MAX, raw);
	if (r == -ENOENT && d->busnum != U64_UNKNOWN && d->devnum != U64_UNKNOWN) {
		r = usbfs_read_bos((unsigned)d->busnum, (unsigned)d->devnum, raw);
		if (r == 0)
			sysroot_record_file(p.buf, raw->buf, raw->len);
	}
	strbuf_release(&p);
	return r;
}

void probe_descriptors(struct usb_device *d, const char *dir)
{
	struct strbuf raw = STRBUF_INIT;
	struct usb_desc_bos bos;

	if (d->is_root_hub)
		return;
	probe_uas(d, dir);
	d->offers_uas = d->uas_ifmask != 0;
	/*
	 * USB 2.01+ devices have a BOS. A high-speed device reporting 2.00 may
	 * still have one (emulators, some bridges): asking is safe, a device
	 * without one answers with a stall.
	 */
	if ((d->bcd_usb >= 0x0201 || (d->bcd_usb >= 0x0200 && d->speed == USB_SPEED_HIGH)) &&
	    read_bos(d, dir, &raw) == 0 &&
	    usb_desc_bos_parse(raw.buf, raw.len, &bos) == 0 && usb_desc_bos_max_speed(&bos)) {
		d->capable = usb_desc_bos_max_speed(&bos);
		d->capable_source = "bos";
	} else if (d->bcd_usb >= 0x0300) {
		/* connected at high speed most report 2.10; 3.x alone still says SuperSpeed */
		d->capable = USB_SPEED_SS;
		d->capable_source = "bcdUSB";
	}
	/* the link proves more than a descriptor claims */
	if (d->capable && d->speed > d->capable)
		d->capable = d->speed;
	strbuf_release(&raw);
}

void link_uas_offers(struct usb_topology *t)
{
	size_t i;

	for (i = 0; i < t->nintf; i++) {
		struct usb_interface *f = &t->intf[i];
		const struct usb_device *d = usb_topology_device(t, f->device);

		if (d && f->number < 64 && d->uas_ifmask & 1ull << f->number)
			f->offers_uas = true;
	}
}

const char *usb_class_label(unsigned cls)
{
	return usb_class_name(cls);
}

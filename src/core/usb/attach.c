// SPDX-License-Identifier: MIT
#include "core/usb/attach.h"
#include "core/usb/limits.h"
#include "core/usb/topology_priv.h"
#include "util/sysroot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "2-1", "2-1.4.3": a bus number, a dash, dotted port numbers */
static bool is_usb_device_name(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n || s[n] != '-')
		return false;
	s += n + 1;
	return *s && strspn(s, "0123456789.") == strlen(s);
}

void usb_link_ceiling(enum usb_speed s, double *ret_mb_s, const char **ret_basis)
{
	struct usb_ceiling c;

	*ret_mb_s = NAN;
	*ret_basis = NULL;
	if (usb_bulk_ceiling(s, &c) == 0 && c.allowed && c.payload_Bps > 0) {
		*ret_mb_s = c.payload_Bps / 1e6;
		*ret_basis = c.derivation;
	}
}

int usb_attach_for_block(unsigned major, unsigned minor, struct usb_attach *ret)
{
	struct strbuf p = STRBUF_INIT;
	struct usb_attach a = {0};
	char *slash, *speed = NULL;
	int r;

	strbuf_addf(&p, "/sys/dev/block/%u:%u", major, minor);
	r = sysroot_resolve(p.buf, &p);
	if (r < 0)
		goto out;
	r = -ENODEV;
	/* walk up from the block device to the USB device that carries it */
	while ((slash = strrchr(p.buf, '/')) && slash != p.buf) {
		const char *base = slash + 1;

		const char *colon = strchr(base, ':');

		if (colon && !a.interface) {
			/* "2-1:1.0": the interface the storage driver bound to */
			char *dev = strndup(base, (size_t)(colon - base));

			if (dev && is_usb_device_name(dev)) {
				a.interface = strdup(base);
				a.driver = attr_link_name(p.buf, "driver");
			}
			free(dev);
		} else if (is_usb_device_name(base)) {
			speed = attr_get(p.buf, "speed");
			if (!speed)
				break;
			a.device = strdup(base);
			a.product = attr_get(p.buf, "product");
			{
				char *vid = attr_get(p.buf, "idVendor"), *pid = attr_get(p.buf, "idProduct");
				struct strbuf id = STRBUF_INIT;

				if (vid && pid) {
					strbuf_addf(&id, "%s:%s", vid, pid);
					a.vid_pid = strbuf_detach(&id);
				}
				free(vid);
				free(pid);
			}
			{
				uint64_t lanes = attr_get_u64(p.buf, "rx_lanes");

				a.speed = usb_speed_from_sysfs(speed, lanes == U64_UNKNOWN ? 1 : (unsigned)lanes);
			}
			r = 0;
			break;
		}
		p.len = (size_t)(slash - p.buf);
		p.buf[p.len] = '\0';
	}
out:
	free(speed);
	strbuf_release(&p);
	if (r < 0) {
		usb_attach_release(&a);
		return r;
	}
	a.speed_name = a.speed ? usb_speed_name(a.speed) : NULL;
	a.ceiling_mb_s = NAN;
	usb_link_ceiling(a.speed, &a.ceiling_mb_s, &a.ceiling_basis);
	*ret = a;
	return 0;
}

void usb_attach_release(struct usb_attach *a)
{
	free(a->device);
	free(a->interface);
	free(a->vid_pid);
	free(a->product);
	free(a->driver);
	*a = (struct usb_attach){0};
}

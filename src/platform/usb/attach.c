// SPDX-License-Identifier: MIT
#include "platform/usb/attach.h"
#include "platform/usb/limits.h"
#include "platform/usb/topology_priv.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>

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

/* The device's identity and link speed, from its sysfs directory. */
static void attach_device(const char *dir, const char *speed, struct usb_attach *a)
{
	char *vid = attr_get(dir, "idVendor"), *pid = attr_get(dir, "idProduct");
	uint64_t lanes = attr_get_u64(dir, "rx_lanes");

	a->product = attr_get(dir, "product");
	if (vid && pid) {
		struct strbuf id = STRBUF_INIT;

		strbuf_addf(&id, "%s:%s", vid, pid);
		a->vid_pid = strbuf_detach(&id);
	}
	free_all(vid, pid);
	a->speed = usb_speed_from_sysfs(speed, lanes == U64_UNKNOWN ? 1 : (unsigned)lanes);
}

/*
 * Walk up from a resolved sysfs device path (a block device, a netdev's
 * parent) to the USB interface its driver bound to and the USB device
 * above it. -ENODEV when no USB device is on the way.
 */
static int attach_walk(struct strbuf *p, struct usb_attach *ret)
{
	struct usb_attach a = {0};
	char *slash, *speed = NULL;
	int r = -ENODEV;

	while ((slash = strrchr(p->buf, '/')) && slash != p->buf) {
		const char *base = slash + 1;
		const char *colon = strchr(base, ':');

		if (colon && !a.interface) {
			/* "2-1:1.0": the interface the storage or network driver bound to */
			char *dev = strndup(base, (size_t)(colon - base));

			if (dev && is_usb_device_name(dev)) {
				a.interface = strdup(base);
				a.driver = attr_link_name(p->buf, "driver");
			}
			free(dev);
		} else if (is_usb_device_name(base)) {
			speed = attr_get(p->buf, "speed");
			if (!speed)
				break;
			a.device = strdup(base);
			attach_device(p->buf, speed, &a);
			r = 0;
			break;
		}
		p->len = (size_t)(slash - p->buf);
		p->buf[p->len] = '\0';
	}
	free(speed);
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

/* the device node kind:major:minor ("block", "char") to the USB device above it */
static int attach_devnum(const char *kind, unsigned major, unsigned minor,
			 struct usb_attach *ret)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "/sys/dev/%s/%u:%u", kind, major, minor);
	r = sysroot_resolve(p.buf, &p);
	if (r == 0)
		r = attach_walk(&p, ret);
	strbuf_release(&p);
	return r;
}

int usb_attach_for_block(unsigned major, unsigned minor, struct usb_attach *ret)
{
	return attach_devnum("block", major, minor, ret);
}

int usb_attach_for_chardev(unsigned major, unsigned minor, struct usb_attach *ret)
{
	return attach_devnum("char", major, minor, ret);
}

int usb_attach_for_node(const char *node, struct usb_attach *ret)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r = -ENODEV;

	sysroot_path(&p, node);
	if (stat(p.buf, &st) < 0)
		r = -errno;
	else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		r = attach_devnum(S_ISCHR(st.st_mode) ? "char" : "block", major(st.st_rdev),
				  minor(st.st_rdev), ret);
	strbuf_release(&p);
	return r;
}

int usb_attach_for_netdev(const char *ifname, struct usb_attach *ret)
{
	struct strbuf p = STRBUF_INIT;
	int r = -ENODEV;

	/* a name with a slash would leave /sys/class/net */
	if (!*ifname || strchr(ifname, '/') || !strcmp(ifname, ".") || !strcmp(ifname, ".."))
		return -EINVAL;
	strbuf_addf(&p, "/sys/class/net/%s/device", ifname);
	if (sysroot_exists(p.buf))
		r = sysroot_resolve(p.buf, &p);
	if (r == 0)
		r = attach_walk(&p, ret);
	strbuf_release(&p);
	return r;
}

void usb_attach_release(struct usb_attach *a)
{
	free_all(a->device, a->interface, a->vid_pid, a->product, a->driver);
	*a = (struct usb_attach){0};
}

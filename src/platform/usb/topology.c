// SPDX-License-Identifier: MIT
/* Walk /sys/bus/usb/devices into controllers, devices and interfaces. */
#include "platform/sys/mounts.h"
#include "platform/usb/topology.h"
#include "platform/usb/topology_priv.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USB_DEVICES "/sys/bus/usb/devices"

/* "2-1.4" -> "2-1"; "2-1" -> "usb2"; roots have no parent */
static char *parent_path(const char *path)
{
	const char *dot = strrchr(path, '.'), *dash = strchr(path, '-');
	struct strbuf p = STRBUF_INIT;

	if (!strncmp(path, "usb", 3) || !dash)
		return NULL;
	if (dot && dot > dash)
		return strndup(path, (size_t)(dot - path));
	strbuf_addf(&p, "usb%.*s", (int)(dash - path), path);
	return strbuf_detach(&p);
}

static uint64_t path_depth(const char *path)
{
	uint64_t d = 1;

	if (!strncmp(path, "usb", 3))
		return 0;
	for (; *path; path++)
		d += *path == '.';
	return d;
}

/* bcdUSB "3.20" -> 0x0320 */
static unsigned parse_bcd_version(const char *s)
{
	uint64_t maj, min;
	const char *dot = s ? strchr(s, '.') : NULL;
	char buf[8];

	if (!dot || (size_t)(dot - s) >= sizeof(buf))
		return 0;
	memcpy(buf, s, (size_t)(dot - s));
	buf[dot - s] = '\0';
	if (parse_u64(buf, 0, 99, &maj) < 0 || parse_hex(dot + 1, 0xff, &min) < 0)
		return 0;
	return (unsigned)((maj / 10) << 12 | (maj % 10) << 8 | min);
}

static void probe_port(struct usb_device *d, const char *dir)
{
	struct strbuf p = STRBUF_INIT;

	d->port = attr_link_name(dir, "port");
	if (d->port) {
		strbuf_addf(&p, "%s/port", dir);
		d->port_peer = attr_link_name(p.buf, "peer");
		d->port_connect_type = attr_get(p.buf, "connect_type");
	}
	strbuf_release(&p);
}

static void probe_device(struct usb_device *d, const char *name, const char *dir)
{
	char *vid = attr_get(dir, "idVendor"), *pid = attr_get(dir, "idProduct");
	char *speed = attr_get(dir, "speed");
	uint64_t cls;

	d->path = strdup(name);
	d->is_root_hub = !strncmp(name, "usb", 3);
	d->busnum = attr_get_u64(dir, "busnum");
	d->devnum = attr_get_u64(dir, "devnum");
	d->parent = parent_path(name);
	d->depth = path_depth(name);
	if (vid && pid) {
		size_t n = strlen(vid) + strlen(pid) + 2;

		d->vid_pid = malloc(n);
		if (d->vid_pid)
			snprintf(d->vid_pid, n, "%s:%s", vid, pid);
	}
	free_all(vid, pid);
	d->manufacturer = attr_get(dir, "manufacturer");
	d->product = attr_get(dir, "product");
	d->serial = attr_get(dir, "serial");
	d->usb_version = attr_get(dir, "version");
	d->bcd_usb = parse_bcd_version(d->usb_version);
	d->rx_lanes = attr_get_u64(dir, "rx_lanes");
	d->tx_lanes = attr_get_u64(dir, "tx_lanes");
	d->speed = usb_speed_from_sysfs(speed, d->rx_lanes == U64_UNKNOWN ? 1 : (unsigned)d->rx_lanes);
	d->speed_name = d->speed ? usb_speed_name(d->speed) : NULL;
	d->speed_mbps = d->speed ? usb_speed_mbps(d->speed) : NAN;
	free(speed);
	cls = attr_get_hex(dir, "bDeviceClass");
	d->class_name = cls == U64_UNKNOWN ? NULL : usb_class_label((unsigned)cls);
	d->driver = attr_link_name(dir, "driver");
	d->max_power_ma = U64_UNKNOWN;
	{
		char *mp = attr_get(dir, "bMaxPower"); /* "500mA" */
		uint64_t v;

		if (mp) {
			size_t n = strspn(mp, "0123456789");

			if (n && !strcmp(mp + n, "mA")) {
				mp[n] = '\0';
				if (parse_u64(mp, 0, 100000, &v) == 0)
					d->max_power_ma = v;
			}
			free(mp);
		}
	}
	{
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/power", dir);
		d->power_control = attr_get(p.buf, "control");
		d->autosuspend_delay_ms = attr_get_u64(p.buf, "autosuspend_delay_ms");
		strbuf_release(&p);
	}
	d->removable = attr_get(dir, "removable");
	d->num_interfaces = attr_get_u64(dir, "bNumInterfaces");
	d->hub_ports = attr_get_u64(dir, "maxchild");
	probe_port(d, dir);
	d->capable = USB_SPEED_UNKNOWN;
	{
		const char *basis;

		usb_link_ceiling(d->speed, &d->bulk_ceiling_mb_s, &basis);
	}
	probe_descriptors(d, dir);
	d->capable_name = d->capable ? usb_speed_name(d->capable) : NULL;
}

static void probe_interface(struct usb_topology *t, const char *dev, const char *name,
			    const char *dir, const struct mount_table *mt)
{
	struct usb_interface *i;

	t->intf = xgrow(t->intf, &t->nintf, sizeof(*t->intf));
	i = &t->intf[t->nintf - 1];
	i->device = strdup(dev);
	i->name = strdup(name);
	i->number = attr_get_hex(dir, "bInterfaceNumber");
	i->alt_setting = attr_get_u64(dir, "bAlternateSetting");
	i->num_endpoints = attr_get_hex(dir, "bNumEndpoints");
	i->cls = attr_get_hex(dir, "bInterfaceClass");
	i->subclass = attr_get_hex(dir, "bInterfaceSubClass");
	i->protocol = attr_get_hex(dir, "bInterfaceProtocol");
	i->class_name = i->cls == U64_UNKNOWN ? NULL : usb_class_label((unsigned)i->cls);
	i->driver = attr_link_name(dir, "driver");
	i->label = attr_get(dir, "interface");
	probe_nodes(t, dev, name, dir, mt);
}

static int cmp_busport(const void *a, const void *b)
{
	const struct usb_device *x = a, *y = b;

	if (x->busnum != y->busnum)
		return x->busnum < y->busnum ? -1 : 1;
	/* root hub first, then ports in numeric order: "2-10" after "2-9" */
	if (x->is_root_hub != y->is_root_hub)
		return x->is_root_hub ? -1 : 1;
	return strverscmp(x->path, y->path);
}

/* the key cmp_busport orders by, from the path alone: "usb2" and "2-1.4" are on bus 2 */
static bool busport_key(const char *path, struct usb_device *key)
{
	uint64_t bus;
	char num[24];
	size_t n;

	key->path = (char *)path;
	key->is_root_hub = !strncmp(path, "usb", 3);
	if (key->is_root_hub)
		path += 3;
	n = strcspn(path, "-");
	if (!n || n >= sizeof(num) || (!key->is_root_hub && !path[n]))
		return false;
	memcpy(num, path, n);
	num[n] = '\0';
	if (parse_u64(num, 0, UINT64_MAX - 1, &bus) < 0)
		return false;
	key->busnum = bus;
	return true;
}

const struct usb_device *usb_topology_device(const struct usb_topology *t, const char *path)
{
	struct usb_device key = {0};
	const struct usb_device *d;

	if (!path)
		return NULL;
	/* the probe sorts the devices: one search; a tree built another way is walked */
	if (busport_key(path, &key)) {
		d = bsearch(&key, t->dev, t->ndev, sizeof(*t->dev), cmp_busport);
		if (d && !strcmp(d->path, path))
			return d;
	}
	for (size_t i = 0; i < t->ndev; i++)
		if (!strcmp(t->dev[i].path, path))
			return &t->dev[i];
	return NULL;
}

int usb_topology_probe(struct usb_topology *ret)
{
	struct usb_topology t = {0};
	struct name_list l = NAME_LIST_INIT, sub = NAME_LIST_INIT;
	struct strbuf dir = STRBUF_INIT, idir = STRBUF_INIT;
	struct mount_table mt = {0};
	size_t i, j;

	if (sysroot_list(USB_DEVICES, &l) < 0) {
		t.no_usb = true;
		*ret = t;
		return 0;
	}
	/* no mount table (a snapshot without one) only loses the mount columns */
	mounts_load(&mt);
	for (i = 0; i < l.n; i++) {
		const char *name = l.v[i];
		struct usb_device *d;

		/* interfaces ("1-1:1.0") are read with their device */
		if (strchr(name, ':'))
			continue;
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s", USB_DEVICES, name);
		if (sysroot_resolve(dir.buf, &dir) < 0)
			continue;
		t.dev = xgrow(t.dev, &t.ndev, sizeof(*t.dev));
		d = &t.dev[t.ndev - 1];
		probe_device(d, name, dir.buf);
		if (d->is_root_hub)
			probe_controller(&t, d, dir.buf);
		if (sysroot_list(dir.buf, &sub) < 0)
			continue;
		for (j = 0; j < sub.n; j++) {
			/* "<dev>:<config>.<ifnum>"; a root hub "usbN" names them "N-0:1.0" */
			struct strbuf pre = STRBUF_INIT;

			if (d->is_root_hub)
				strbuf_addf(&pre, "%s-0:", name + 3);
			else
				strbuf_addf(&pre, "%s:", name);
			if (!strncmp(sub.v[j], pre.buf, pre.len)) {
				strbuf_reset(&idir);
				strbuf_addf(&idir, "%s/%s", dir.buf, sub.v[j]);
				probe_interface(&t, name, sub.v[j], idir.buf, &mt);
			}
			strbuf_release(&pre);
		}
		name_list_release(&sub);
	}
	name_list_release(&l);
	mount_table_release(&mt);
	strbuf_release(&dir);
	strbuf_release(&idir);
	qsort(t.dev, t.ndev, sizeof(*t.dev), cmp_busport);
	link_uas_offers(&t);
	*ret = t;
	return 0;
}

void usb_topology_release(struct usb_topology *t)
{
	size_t i;

	for (i = 0; i < t->nctl; i++) {
		struct usb_controller *c = &t->ctl[i];

		free(c->root_hub), free(c->name), free(c->bus_type), free(c->driver);
		free(c->glue), free(c->irq);
	}
	for (i = 0; i < t->ndev; i++) {
		struct usb_device *d = &t->dev[i];

		free(d->path), free(d->parent), free(d->vid_pid), free(d->manufacturer);
		free(d->product), free(d->serial), free(d->usb_version), free(d->port);
		free(d->port_peer), free(d->port_connect_type), free(d->driver);
		free(d->power_control), free(d->removable);
	}
	for (i = 0; i < t->nintf; i++) {
		struct usb_interface *f = &t->intf[i];

		free(f->device), free(f->name), free(f->driver), free(f->label);
	}
	for (i = 0; i < t->nnode; i++) {
		struct usb_node *n = &t->node[i];

		free(n->device), free(n->interface), free(n->name), free(n->dev_node);
		free(n->parent_name), free(n->devnum), free(n->fs_type), free(n->mount_point), free(n->scheduler);
		free(n->mac), free(n->operstate), free(n->label);
	}
	free_all(t->ctl, t->dev, t->intf, t->node);
	*t = (struct usb_topology){0};
}

// SPDX-License-Identifier: MIT
/* usbperf bulk: which device and endpoints, and the ceilings the figures stand next to. */
#include "classes/bulk/bulk.h"
#include "platform/usb/limits.h"
#include "util/names.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <libusb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bulk_dir_name(enum bulk_dir d)
{
	static const char *const names[] = {
	    [BULK_DIR_IN] = "in", [BULK_DIR_OUT] = "out", [BULK_DIR_BOTH] = "both"};

	return NAME_OF(names, d, "?");
}

int bulk_dirs_parse(const char *s, unsigned *ret_mask)
{
	unsigned mask = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 2 && !strncmp(p, "in", 2))
			mask |= BULK_DIR_IN;
		else if (n == 3 && !strncmp(p, "out", 3))
			mask |= BULK_DIR_OUT;
		else if (n == 4 && !strncmp(p, "both", 4))
			mask |= BULK_DIR_BOTH;
		else if (n == 3 && !strncmp(p, "all", 3))
			mask |= BULK_DIR_IN | BULK_DIR_OUT | BULK_DIR_BOTH;
		else
			return -EINVAL;
		p += n;
		if (*p == ',' && !*++p)
			return -EINVAL;
	}
	*ret_mask = mask;
	return 0;
}

void bulk_sysdev_release(struct bulk_sysdev *d)
{
	if (!d)
		return;
	free_all(d->sysname, d->product);
	memset(d, 0, sizeof(*d));
}

void bulk_sysdevs_free(struct bulk_sysdev *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bulk_sysdev_release(&v[i]);
	free(v);
}

static int read_num(const char *dir, const char *attr, bool hex, uint64_t max, uint64_t *ret)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/%s", dir, attr);
	r = sysroot_read_attr(p.buf, &v);
	if (r >= 0)
		r = hex ? parse_hex(v.buf, max, ret) : parse_u64(v.buf, 0, max, ret);
	strbuf_release(&p);
	strbuf_release(&v);
	return r;
}

/* a device directory (not an interface, not a root hub) into d: -ENOENT if not one */
static int load_sysdev(const char *name, struct bulk_sysdev *d)
{
	struct strbuf dir = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t vid, pid, bus, dev, lanes = 0;
	int r;

	if (strchr(name, ':') || !strncmp(name, "usb", 3))
		return -ENOENT;
	strbuf_addf(&dir, "/sys/bus/usb/devices/%s", name);
	r = read_num(dir.buf, "idVendor", true, 0xffff, &vid);
	if (r >= 0)
		r = read_num(dir.buf, "idProduct", true, 0xffff, &pid);
	if (r >= 0)
		r = read_num(dir.buf, "busnum", false, 999, &bus);
	if (r >= 0)
		r = read_num(dir.buf, "devnum", false, 999, &dev);
	if (r < 0) {
		strbuf_release(&dir);
		return -ENOENT;
	}
	memset(d, 0, sizeof(*d));
	d->vid = (unsigned)vid;
	d->pid = (unsigned)pid;
	d->busnum = (unsigned)bus;
	d->devnum = (unsigned)dev;
	read_num(dir.buf, "rx_lanes", false, 4, &lanes);
	strbuf_addf(&v, "%s/speed", dir.buf);
	{
		struct strbuf s = STRBUF_INIT;

		if (sysroot_read_attr(v.buf, &s) >= 0)
			d->speed = usb_speed_from_sysfs(s.buf, (unsigned)lanes);
		strbuf_reset(&v);
		strbuf_addf(&v, "%s/product", dir.buf);
		if (sysroot_read_attr(v.buf, &s) >= 0)
			d->product = strbuf_detach(&s);
		strbuf_release(&s);
	}
	d->sysname = strdup(name);
	strbuf_release(&dir);
	strbuf_release(&v);
	if (!d->sysname) {
		bulk_sysdev_release(d);
		return -ENOMEM;
	}
	return 0;
}

/* "001/002" at the end of a usbfs path: bus and device numbers */
static bool parse_usbfs_node(const char *s, unsigned *bus, unsigned *dev)
{
	const char *pfx = "/dev/bus/usb/";
	uint64_t b, d;
	char num[8];
	const char *slash;

	if (strncmp(s, pfx, strlen(pfx)))
		return false;
	s += strlen(pfx);
	slash = strchr(s, '/');
	if (!slash || (size_t)(slash - s) >= sizeof(num))
		return false;
	memcpy(num, s, (size_t)(slash - s));
	num[slash - s] = '\0';
	if (parse_u64(num, 1, 999, &b) < 0 || parse_u64(slash + 1, 1, 999, &d) < 0)
		return false;
	*bus = (unsigned)b;
	*dev = (unsigned)d;
	return true;
}

static bool parse_vidpid(const char *s, int *vid, int *pid)
{
	const char *c = strchr(s, ':');
	char v[8];
	uint64_t a, b;

	if (!c || c - s < 1 || c - s > 6)
		return false;
	memcpy(v, s, (size_t)(c - s));
	v[c - s] = '\0';
	if (parse_hex(v, 0xffff, &a) < 0 || parse_hex(c + 1, 0xffff, &b) < 0)
		return false;
	*vid = (int)a;
	*pid = (int)b;
	return true;
}

int bulk_find_devices(const struct bulk_select *sel, struct bulk_sysdev **ret_v, size_t *ret_n)
{
	struct name_list names = NAME_LIST_INIT;
	struct bulk_sysdev *v = NULL;
	size_t n = 0;
	unsigned bus = 0, dev = 0;
	int vid = sel->vid, pid = sel->pid, r;
	bool by_node = false;
	const char *sysname = NULL;

	if (sel->name) {
		if (parse_usbfs_node(sel->name, &bus, &dev))
			by_node = true;
		else if (!parse_vidpid(sel->name, &vid, &pid)) {
			if (!*sel->name || strchr(sel->name, '/') || strchr(sel->name, ':'))
				return -EINVAL;
			sysname = sel->name;
		}
	}
	r = sysroot_list("/sys/bus/usb/devices", &names);
	if (r < 0)
		return r == -ENOENT ? -ENODEV : r;
	for (size_t i = 0; i < names.n; i++) {
		struct bulk_sysdev d;

		if (sysname && strcmp(names.v[i], sysname))
			continue;
		if (load_sysdev(names.v[i], &d) < 0)
			continue;
		if ((by_node && (d.busnum != bus || d.devnum != dev)) ||
		    (vid >= 0 && (int)d.vid != vid) || (pid >= 0 && (int)d.pid != pid)) {
			bulk_sysdev_release(&d);
			continue;
		}
		struct bulk_sysdev *nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv) {
			bulk_sysdev_release(&d);
			bulk_sysdevs_free(v, n);
			name_list_release(&names);
			return -ENOMEM;
		}
		v = nv;
		/* the default gadget first, in the order sysfs lists the rest */
		if (!sel->name && sel->vid < 0 && d.vid == BULK_DEFAULT_VID &&
		    d.pid == BULK_DEFAULT_PID) {
			size_t k = 0;

			while (k < n && v[k].vid == BULK_DEFAULT_VID &&
			       v[k].pid == BULK_DEFAULT_PID)
				k++;
			memmove(&v[k + 1], &v[k], (n - k) * sizeof(*v));
			v[k] = d;
		} else
			v[n] = d;
		n++;
	}
	name_list_release(&names);
	if (!n) {
		free(v);
		return -ENODEV;
	}
	*ret_v = v;
	*ret_n = n;
	return 0;
}

char *bulk_iface_driver(const struct bulk_sysdev *dev, unsigned ifnum)
{
	struct strbuf p = STRBUF_INIT, l = STRBUF_INIT, cfg = STRBUF_INIT;
	char *name = NULL;
	uint64_t c = 1;

	strbuf_addf(&p, "/sys/bus/usb/devices/%s/bConfigurationValue", dev->sysname);
	if (sysroot_read_attr(p.buf, &cfg) >= 0)
		parse_u64(cfg.buf, 0, 255, &c);
	strbuf_reset(&p);
	strbuf_addf(&p, "/sys/bus/usb/devices/%s:%u.%u/driver", dev->sysname, (unsigned)c, ifnum);
	if (sysroot_readlink(p.buf, &l) >= 0) {
		const char *b = strrchr(l.buf, '/');

		name = strdup(b ? b + 1 : l.buf);
	}
	strbuf_release(&p);
	strbuf_release(&l);
	strbuf_release(&cfg);
	return name;
}

static bool ep_matches(const struct libusb_endpoint_descriptor *e, int type, int want)
{
	if ((e->bmAttributes & LIBUSB_TRANSFER_TYPE_MASK) != type)
		return false;
	return want < 0 || e->bEndpointAddress == want;
}

/* the bulk (or iso) pair of one alt setting into ret: true when it has what want asks */
static bool pick_alt(const struct libusb_interface_descriptor *a, const struct bulk_want *want,
		     struct bulk_eps *ret)
{
	int type = want->iso ? LIBUSB_TRANSFER_TYPE_ISOCHRONOUS : LIBUSB_TRANSFER_TYPE_BULK;
	struct bulk_eps e = {.iface = a->bInterfaceNumber, .alt = a->bAlternateSetting};

	for (int i = 0; i < a->bNumEndpoints; i++) {
		const struct libusb_endpoint_descriptor *d = &a->endpoint[i];
		bool in = d->bEndpointAddress & LIBUSB_ENDPOINT_IN;
		unsigned mps = d->wMaxPacketSize & 0x7ff;
		unsigned mult = ((d->wMaxPacketSize >> 11) & 3) + 1;
		struct libusb_ss_endpoint_companion_descriptor *c = NULL;

		/* SuperSpeed: bursts and Mult from the companion, bits 12:11 are reserved */
		if (type == LIBUSB_TRANSFER_TYPE_ISOCHRONOUS &&
		    libusb_get_ss_endpoint_companion_descriptor(NULL, d, &c) == 0) {
			mult = (c->bMaxBurst + 1u) * ((c->bmAttributes & 3u) + 1u);
			libusb_free_ss_endpoint_companion_descriptor(c);
		}

		if (in && !e.ep_in && ep_matches(d, type, want->ep_in)) {
			e.ep_in = d->bEndpointAddress;
			e.mps_in = mps;
			e.mult_in = mult;
			e.interval_in = d->bInterval;
		} else if (!in && !e.ep_out && ep_matches(d, type, want->ep_out)) {
			e.ep_out = d->bEndpointAddress;
			e.mps_out = mps;
			e.mult_out = mult;
			e.interval_out = d->bInterval;
		}
	}
	/* iso: one direction is enough (SourceSink may offer both) */
	if (want->iso ? !(e.ep_in || e.ep_out) : !(e.ep_in && e.ep_out))
		return false;
	*ret = e;
	return true;
}

int bulk_pick_endpoints(const struct libusb_config_descriptor *cfg, const struct bulk_want *want,
			struct bulk_eps *ret, char *why, size_t why_len)
{
	const char *kind = want->iso ? "isochronous" : "bulk IN+OUT";

	for (int i = 0; i < cfg->bNumInterfaces; i++) {
		const struct libusb_interface *itf = &cfg->interface[i];

		for (int k = 0; k < itf->num_altsetting; k++) {
			const struct libusb_interface_descriptor *a = &itf->altsetting[k];

			if (want->iface >= 0 && a->bInterfaceNumber != want->iface)
				continue;
			if (!want->iso && a->bAlternateSetting != 0)
				continue;
			if (pick_alt(a, want, ret))
				return 0;
		}
	}
	if (want->iface >= 0)
		snprintf(why, why_len, "interface %d has no %s endpoints%s", want->iface, kind,
			 want->ep_in >= 0 || want->ep_out >= 0 ? " at the addresses given" : "");
	else
		snprintf(why, why_len, "no interface has %s endpoints%s", kind,
			 want->ep_in >= 0 || want->ep_out >= 0 ? " at the addresses given" : "");
	return -ENOENT;
}

double bulk_ceiling_mb_s(enum usb_speed s, enum bulk_dir d)
{
	double c = usb_bulk_payload_Bps(s) / 1e6;

	if (c <= 0)
		return NAN;
	/* USB 2 shares one half-duplex bus; SuperSpeed has a lane each way */
	if (d == BULK_DIR_BOTH && s >= USB_SPEED_SS)
		c *= 2;
	return c;
}

double bulk_iso_ceiling_mb_s(enum usb_speed s, unsigned mps, unsigned mult, unsigned interval)
{
	double frame_us = s >= USB_SPEED_HIGH ? 125.0 : 1000.0;
	double period_us;

	if (!mps || s == USB_SPEED_UNKNOWN || interval < 1 || interval > 16)
		return NAN;
	period_us = frame_us * (double)(1u << (interval - 1));
	return (double)mps * (mult ? mult : 1) / period_us; /* B/us = MB/s */
}

void bulk_point_finish(struct bulk_point *p)
{
	if (p->seconds > 0) {
		p->in_mb_s = (double)p->bytes_in / p->seconds / 1e6;
		p->out_mb_s = (double)p->bytes_out / p->seconds / 1e6;
		p->mb_s = p->in_mb_s + p->out_mb_s;
	} else
		p->mb_s = p->in_mb_s = p->out_mb_s = NAN;
	p->share_pct = p->ceiling_mb_s > 0 ? 100.0 * p->mb_s / p->ceiling_mb_s : NAN;
}

void bulk_point_name(const struct bulk_point *p, char *buf, size_t len)
{
	char sz[32];

	format_size(p->size, sz, sizeof(sz));
	if (p->iso)
		snprintf(buf, len, "iso-%s-%s-q%u", bulk_dir_name(p->dir), sz, p->depth);
	else
		snprintf(buf, len, "%s-%s-q%u", bulk_dir_name(p->dir), sz, p->depth);
}

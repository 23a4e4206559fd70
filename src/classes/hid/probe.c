// SPDX-License-Identifier: MIT
/* From a hidraw node to its USB interface, endpoints and report sizes. */
#include "classes/hid/hid.h"
#include "classes/hid/hid_priv.h"
#include "platform/sys/attr.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

bool hid_is_vid_pid(const char *s)
{
	size_t i;

	if (strlen(s) != 9 || s[4] != ':')
		return false;
	for (i = 0; i < 9; i++)
		if (i != 4 && !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

const char *hid_bus_name(unsigned bus, char *buf, size_t len)
{
	switch (bus) {
	case 0x0003:
		return "USB";
	case 0x0005:
		return "Bluetooth";
	case 0x0006:
		return "virtual (uhid)";
	case 0x0018:
		return "I2C";
	default:
		snprintf(buf, len, "0x%04x", bus);
		return buf;
	}
}

static int fail(struct strbuf *why, int r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct strbuf *why, int r, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		strbuf_reset(why);
		va_start(ap, fmt);
		strbuf_vaddf(why, fmt, ap);
		va_end(ap);
	}
	return r;
}

/* the hidraw class directory of a node: "/sys/class/hidraw/hidraw0" must exist */
static int node_name(const char *arg, struct hid_device *d, struct strbuf *why)
{
	struct strbuf p = STRBUF_INIT;
	const char *base = strrchr(arg, '/');
	struct stat st;
	int r = 0;

	base = base ? base + 1 : arg;
	if (strchr(arg, '/')) {
		if (stat(arg, &st) < 0)
			return fail(why, -errno, "cannot open '%s': %s", arg, strerror(errno));
		if (!S_ISCHR(st.st_mode))
			return fail(why, -ENOTTY, "'%s' is not a hidraw node", arg);
		/* the name the kernel gave this major:minor, whatever the node is called */
		strbuf_addf(&p, "/sys/dev/char/%u:%u", major(st.st_rdev), minor(st.st_rdev));
		r = sysroot_resolve(p.buf, &p);
		if (r < 0 || !strstr(p.buf, "/hidraw/hidraw")) {
			strbuf_release(&p);
			return fail(why, -ENOTTY, "'%s' is not a hidraw node", arg);
		}
		base = strrchr(p.buf, '/') + 1;
		d->node = strdup(arg);
	} else {
		struct strbuf n = STRBUF_INIT;

		if (strncmp(base, "hidraw", 6) ||
		    strspn(base + 6, "0123456789") != strlen(base + 6) || !base[6])
			return fail(why, -ENOENT, "no hidraw node '%s'", arg);
		strbuf_addf(&n, "/dev/%s", base);
		d->node = strbuf_detach(&n);
	}
	d->name = strdup(base);
	strbuf_release(&p);
	if (!d->node || !d->name)
		return -ENOMEM;
	return 0;
}

/* the USB device above /sys/class/hidraw/NAME, through its major:minor */
static int attach_of(const char *name, struct usb_attach *ret)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	unsigned maj, min;
	int r;

	strbuf_addf(&p, "/sys/class/hidraw/%s/dev", name);
	r = sysroot_read_attr(p.buf, &v);
	if (r == 0)
		r = parse_devnum(v.buf, &maj, &min);
	if (r == 0)
		r = usb_attach_for_chardev(maj, min, ret);
	strbuf_release(&p);
	strbuf_release(&v);
	return r;
}

/* the first hidraw whose USB device is VVVV:PPPP */
static int find_vid_pid(const char *want, struct hid_device *d, struct strbuf *why)
{
	struct name_list l = {0};
	const char *best = NULL;
	unsigned long best_num = 0;
	char lower[10];
	size_t i;
	int r;

	for (i = 0; i < 10; i++)
		lower[i] = (char)tolower((unsigned char)want[i]);
	r = sysroot_list("/sys/class/hidraw", &l);
	if (r < 0)
		return fail(why, -ENOENT, "no hidraw device (is the hidraw driver loaded?)");
	/* the lowest-numbered match: hidraw2 before hidraw10 */
	for (i = 0; i < l.n; i++) {
		struct usb_attach a = {0};
		unsigned long num;
		char *end;

		if (strncmp(l.v[i], "hidraw", 6))
			continue;
		num = strtoul(l.v[i] + 6, &end, 10);
		if (*end || end == l.v[i] + 6 || (best && num >= best_num))
			continue;
		if (attach_of(l.v[i], &a) == 0 && a.vid_pid && !strcmp(a.vid_pid, lower)) {
			best = l.v[i];
			best_num = num;
		}
		usb_attach_release(&a);
	}
	if (best) {
		struct strbuf n = STRBUF_INIT;

		strbuf_addf(&n, "/dev/%s", best);
		d->node = strbuf_detach(&n);
		d->name = strdup(best);
		name_list_release(&l);
		return d->name ? 0 : -ENOMEM;
	}
	name_list_release(&l);
	return fail(why, -ENOENT, "no hidraw device with USB ID %s", lower);
}

static void set_endpoint(struct hid_endpoint *e, const struct hid_ep_desc *x)
{
	e->present = x->present;
	e->address = x->address;
	e->max_packet = x->max_packet;
	e->mult = x->mult;
	e->burst = x->burst;
	e->interval = x->interval;
}

int hid_endpoint_ceiling(enum usb_speed s, struct hid_endpoint *e)
{
	struct usb_hid_params in = {
	    .speed = s,
	    .report_length = e->report_bytes,
	    .interval = e->interval,
	    .max_packet = e->max_packet,
	    .mult = s == USB_SPEED_HIGH ? e->mult : 1,
	    .burst = s >= USB_SPEED_SS ? e->burst : 0,
	};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	int r;

	/* a device may declare a packet size its speed does not allow: no ceiling then */
	r = usb_hid_calc(&in, &e->ceiling, &err);
	usb_calc_error_release(&err);
	if (r == 0) {
		e->has_ceiling = true;
		e->period_us = e->ceiling.period_us;
	}
	return r;
}

static int read_rdesc(struct hid_device *d, const char *hid_dir, struct strbuf *why)
{
	struct strbuf p = STRBUF_INIT, raw = STRBUF_INIT, err = STRBUF_INIT;
	int r, k;

	d->rdesc = calloc(1, sizeof(*d->rdesc));
	if (!d->rdesc)
		return -ENOMEM;
	strbuf_addf(&p, "%s/report_descriptor", hid_dir);
	r = sysroot_read(p.buf, HID_RDESC_MAX_LEN + 1, &raw);
	if (r < 0)
		r = fail(why, -ENODEV, "cannot read the report descriptor of '%s': %s", d->node,
			 strerror(-r));
	else if ((r = hid_rdesc_parse(raw.buf, raw.len, d->rdesc, &err)) < 0)
		r = fail(why, r, "the report descriptor of '%s' does not parse: %s", d->node,
			 err.buf);
	if (r == 0) {
		k = hid_rdesc_largest(d->rdesc, HID_REPORT_INPUT);
		if (k >= 0) {
			d->in_bytes = hid_report_bytes(&d->rdesc->reports[k], HID_REPORT_INPUT);
			d->in_id = d->rdesc->reports[k].id;
		}
		k = hid_rdesc_largest(d->rdesc, HID_REPORT_OUTPUT);
		if (k >= 0) {
			d->out_bytes = hid_report_bytes(&d->rdesc->reports[k], HID_REPORT_OUTPUT);
			d->out_id = d->rdesc->reports[k].id;
		}
	}
	strbuf_release(&p);
	strbuf_release(&raw);
	strbuf_release(&err);
	return r;
}

int hid_device_probe(const char *arg, struct hid_device *ret, struct strbuf *why)
{
	struct hid_device d = {0};
	struct strbuf p = STRBUF_INIT;
	const char *base;
	char busbuf[16];
	int r;

	r = hid_is_vid_pid(arg) ? find_vid_pid(arg, &d, why) : node_name(arg, &d, why);
	if (r < 0)
		goto fail;
	strbuf_addf(&p, "/sys/class/hidraw/%s/device", d.name);
	if (!sysroot_exists(p.buf) || sysroot_resolve(p.buf, &p) < 0) {
		r = fail(why, -ENOENT, "no hidraw device '%s'", d.name);
		goto fail;
	}
	base = strrchr(p.buf, '/') + 1;
	d.hid = strdup(base);
	if (!d.hid) {
		r = -ENOMEM;
		goto fail;
	}
	/* "0003:0525:A4AC.0001": bus, vendor, product, instance */
	d.bus = (unsigned)strtoul(base, NULL, 16);
	if (d.bus != HID_BUS_USB) {
		r = fail(why, -EPROTONOSUPPORT, "'%s' is HID over %s, not USB", d.node,
			 hid_bus_name(d.bus, busbuf, sizeof(busbuf)));
		goto fail;
	}
	r = attach_of(d.name, &d.usb);
	if (r < 0 || !d.usb.interface) {
		r = fail(why, -ENODEV, "'%s' has no USB interface above it in sysfs", d.node);
		goto fail;
	}
	r = read_rdesc(&d, p.buf, why);
	if (r < 0)
		goto fail;
	{
		struct hid_ep_desc in = {0}, out = {0};

		hid_read_endpoints(d.usb.device, d.usb.interface, d.usb.speed >= USB_SPEED_SS,
				   &d.ifnum, &in, &out);
		set_endpoint(&d.in, &in);
		set_endpoint(&d.out, &out);
	}
	d.in.report_bytes = d.in_bytes;
	d.out.report_bytes = d.out_bytes;
	if (d.in.present)
		(void)hid_endpoint_ceiling(d.usb.speed, &d.in);
	if (d.out.present)
		(void)hid_endpoint_ceiling(d.usb.speed, &d.out);
	strbuf_release(&p);
	*ret = d;
	return 0;
fail:
	strbuf_release(&p);
	hid_device_release(&d);
	return r;
}

void hid_device_release(struct hid_device *d)
{
	if (!d)
		return;
	free_all(d->node, d->name, d->hid, d->rdesc);
	usb_attach_release(&d->usb);
	if (d->in.has_ceiling)
		usb_hid_result_release(&d->in.ceiling);
	if (d->out.has_ceiling)
		usb_hid_result_release(&d->out.ceiling);
	*d = (struct hid_device){0};
}

// SPDX-License-Identifier: MIT
/*
 * The device side of HID: which f_hid function of which configfs gadget a
 * /dev/hidgN node belongs to (the function's "dev" attribute holds the
 * node's major:minor), its report length and report descriptor, and the
 * interrupt IN endpoint f_hid declares at the UDC's speed.
 */
#include "classes/hid/gadget.h"
#include "platform/usb/gadget.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

void hid_gadget_fn_release(struct hid_gadget_fn *f)
{
	free_all(f->gadget, f->function, f->node, f->dev, f->rdesc, f->udc, f->udc_state,
		 f->udc_speed);
	*f = (struct hid_gadget_fn){0};
}

bool hid_gadget_is_node(const struct stat *st)
{
	struct strbuf p = STRBUF_INIT;
	bool yes;

	if (!st || !S_ISCHR(st->st_mode))
		return false;
	strbuf_addf(&p, "/sys/dev/char/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	yes = sysroot_resolve(p.buf, &p) == 0 && strstr(p.buf, "/hidg/hidg");
	strbuf_release(&p);
	return yes;
}

/* "/dev/hidg0" from the class device's uevent DEVNAME, else from its directory name */
static char *node_of(const char *dev)
{
	struct strbuf p = STRBUF_INIT, u = STRBUF_INIT;
	char *node = NULL;

	strbuf_addf(&p, "/sys/dev/char/%s/uevent", dev);
	if (sysroot_read(p.buf, 4096, &u) == 0) {
		const char *at = strstr(u.buf, "DEVNAME=");

		if (at && (at == u.buf || at[-1] == '\n')) {
			size_t n = strcspn(at + 8, "\n");

			if (n && !memchr(at + 8, '/', n) && strncmp(at + 8, "..", n)) {
				strbuf_reset(&p);
				strbuf_adds(&p, "/dev/");
				strbuf_add(&p, at + 8, n);
				node = strbuf_detach(&p);
			}
		}
	}
	strbuf_release(&p);
	strbuf_release(&u);
	return node;
}

int hid_gadget_fn_read(const char *gadget, const char *function, struct hid_gadget_fn *ret)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	struct hid_gadget_fn f = {0};
	uint64_t len;

	if (strncmp(function, "hid.", 4))
		return -EINVAL;
	strbuf_addf(&p, GADGET_CONFIGFS "/%s/functions/%s/dev", gadget, function);
	if (sysroot_read_attr(p.buf, &v) < 0 || !strchr(v.buf, ':')) {
		strbuf_release(&p);
		strbuf_release(&v);
		return -ENOENT;
	}
	f.gadget = xstrdup(gadget);
	f.function = xstrdup(function);
	f.dev = xstrdup(v.buf);
	f.node = node_of(v.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, GADGET_CONFIGFS "/%s/functions/%s/report_length", gadget, function);
	if (sysroot_read_attr(p.buf, &v) == 0 && parse_u64(v.buf, 1, 65535, &len) == 0)
		f.report_length = (unsigned)len;
	/* no_out_endpoint (6.1 has it): OUT reports come as SET_REPORT */
	strbuf_reset(&p);
	strbuf_addf(&p, GADGET_CONFIGFS "/%s/functions/%s/no_out_endpoint", gadget, function);
	f.no_out = sysroot_read_attr(p.buf, &v) == 0 && !strcmp(v.buf, "1");
	/* interval (Linux 6.16 and later) replaces 6.1's fixed bInterval */
	strbuf_reset(&p);
	strbuf_addf(&p, GADGET_CONFIGFS "/%s/functions/%s/interval", gadget, function);
	if (sysroot_read_attr(p.buf, &v) == 0 && parse_u64(v.buf, 1, 255, &len) == 0)
		f.interval = (unsigned)len;
	strbuf_reset(&p);
	strbuf_addf(&p, GADGET_CONFIGFS "/%s/functions/%s/report_desc", gadget, function);
	if (sysroot_read(p.buf, HID_RDESC_MAX_LEN, &v) == 0 && v.len) {
		f.rdesc = malloc(sizeof(*f.rdesc));
		if (!f.rdesc)
			abort();
		if (hid_rdesc_parse(v.buf, v.len, f.rdesc, NULL) < 0) {
			free(f.rdesc);
			f.rdesc = NULL;
		}
	}
	strbuf_reset(&p);
	strbuf_addf(&p, GADGET_CONFIGFS "/%s/UDC", gadget);
	if (sysroot_read_attr(p.buf, &v) == 0 && v.len && !strchr(v.buf, '/')) {
		f.udc = xstrdup(v.buf);
		strbuf_reset(&p);
		strbuf_addf(&p, UDC_CLASS "/%s/state", f.udc);
		if (sysroot_read_attr(p.buf, &v) == 0 && v.len)
			f.udc_state = xstrdup(v.buf);
		strbuf_reset(&p);
		strbuf_addf(&p, UDC_CLASS "/%s/current_speed", f.udc);
		if (sysroot_read_attr(p.buf, &v) == 0 && v.len)
			f.udc_speed = xstrdup(v.buf);
	}
	strbuf_release(&p);
	strbuf_release(&v);
	*ret = f;
	return 0;
}

int hid_gadget_fn_of_dev(unsigned maj, unsigned min, struct hid_gadget_fn *ret)
{
	struct name_list gl = {0};
	struct strbuf want = STRBUF_INIT;
	int r = -ENOENT;

	strbuf_addf(&want, "%u:%u", maj, min);
	if (sysroot_list(GADGET_CONFIGFS, &gl) < 0)
		goto out;
	for (size_t i = 0; i < gl.n && r < 0; i++) {
		struct name_list fl = {0};
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, GADGET_CONFIGFS "/%s/functions", gl.v[i]);
		if (sysroot_list(p.buf, &fl) == 0)
			for (size_t j = 0; j < fl.n && r < 0; j++) {
				struct hid_gadget_fn f;

				if (hid_gadget_fn_read(gl.v[i], fl.v[j], &f) < 0)
					continue;
				if (!strcmp(f.dev, want.buf)) {
					*ret = f;
					r = 0;
				} else
					hid_gadget_fn_release(&f);
			}
		name_list_release(&fl);
		strbuf_release(&p);
	}
	name_list_release(&gl);
out:
	strbuf_release(&want);
	return r;
}

/*
 * bInterval of f_hid's interrupt endpoints in Linux 6.1: 10 (ms) at full
 * speed, 4 (2^3 x 125 us = 1 ms) at high speed and SuperSpeed, unless the
 * function has the interval attribute (6.16+); one packet of report_length
 * per interval, no high-bandwidth and no burst.
 */
int hid_gadget_in_endpoint(const struct hid_gadget_fn *f, struct hid_endpoint *ret)
{
	struct usb_hid_params p = {.report_length = f->report_length, .interval = 4};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	const char *speed = f->udc_speed;
	int r;

	*ret = (struct hid_endpoint){.present = true, .address = 0x81, .mult = 1};
	if (!speed || !f->report_length)
		return -ENODATA;
	if (!strcmp(speed, "full-speed")) {
		p.speed = USB_SPEED_FULL;
		p.interval = 10;
	} else if (!strcmp(speed, "high-speed"))
		p.speed = USB_SPEED_HIGH;
	else if (!strcmp(speed, "super-speed") || !strcmp(speed, "super-speed-plus"))
		p.speed = USB_SPEED_SS; /* interrupt service as at 5 Gbit/s */
	else
		return -ENODATA; /* "UNKNOWN": no host connected */
	if (f->interval)
		p.interval = f->interval;
	/* f_hid's wMaxPacketSize is report_length, which the speed may not allow */
	p.max_packet = f->report_length;
	ret->max_packet = f->report_length;
	ret->interval = p.interval;
	ret->report_bytes = f->report_length;
	r = usb_hid_calc(&p, &ret->ceiling, &err);
	usb_calc_error_release(&err);
	if (r < 0)
		return -EINVAL;
	ret->has_ceiling = true;
	ret->period_us = ret->ceiling.period_us;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * The endpoints each gadget function declares (see endpoints.h), as the
 * Linux 6.1 function drivers fill their descriptors in bind():
 *   f_mass_storage  bulk IN + OUT; SuperSpeed bMaxBurst FSG_BUFLEN / 1024 = 15
 *   f_ncm           notify interrupt IN 16 B every 32 ms; data bulk pair, SS burst 15
 *   f_ecm, f_rndis  notify interrupt IN 16 B (rndis 8 B) every 32 ms; data bulk pair
 *   f_hid           interrupt IN (+ OUT unless no_out_endpoint), wMaxPacketSize =
 *                   report_length, bInterval 10 (full speed, ms) or 4 (1 ms above)
 *   f_loopback      bulk IN + OUT
 *   f_sourcesink    alt 0 bulk IN + OUT; alt 1 adds isochronous IN + OUT
 *   f_uvc           control interrupt IN 16 B, bInterval 8; streaming alt 1 iso IN
 * Full-speed bulk wMaxPacketSize is left to autoconfig, which caps it at 64.
 */
#include "classes/gadget/endpoints.h"
#include "classes/gadget/spec.h"
#include "platform/sys/attr.h"
#include "platform/usb/gadget.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum usb_speed gadget_speed_parse(const char *name)
{
	static const enum usb_speed by_rank[] = {USB_SPEED_UNKNOWN, USB_SPEED_LOW,
						 USB_SPEED_FULL,    USB_SPEED_HIGH,
						 USB_SPEED_SS,	    USB_SPEED_SSP_G2X1};
	int rank = udc_speed_rank(name);

	return rank >= 0 && rank < (int)(sizeof(by_rank) / sizeof(by_rank[0])) ? by_rank[rank]
									       : USB_SPEED_UNKNOWN;
}

enum usb_speed gadget_ep_speed(const char *gadget_max, const char *udc_max, bool *ret_assumed)
{
	enum usb_speed g = gadget_speed_parse(gadget_max), u = gadget_speed_parse(udc_max);

	*ret_assumed = false;
	if (g && u)
		return g < u ? g : u;
	if (g || u)
		return g ? g : u;
	*ret_assumed = true;
	return USB_SPEED_HIGH;
}

/* the value the function will use: given, else configfs's, else the 6.1 default */
static unsigned tunable(const struct gadget_fn_spec *f, const char *fn_dir, const char *key,
			unsigned def)
{
	const struct gadget_key *k = gadget_key_find(f->profile, key);
	const char *v = gadget_fn_get(f, key);
	char *got = NULL;
	uint64_t u;

	if (!v && fn_dir && k && k->attr)
		v = got = attr_strf_nonempty("%s/%s", fn_dir, k->attr);
	if (!v || parse_u64(v, 0, UINT32_MAX, &u) < 0)
		u = def;
	free(got);
	return (unsigned)u;
}

/* interrupt bInterval is ms at full speed; isochronous and anything faster 2^(N-1) (micro)frames */
static double period_us(enum usb_speed s, enum usb_xfer t, unsigned binterval)
{
	double frame = s <= USB_SPEED_FULL ? 1000.0 : 125.0;

	if (s <= USB_SPEED_FULL && t == USB_XFER_INTERRUPT)
		return binterval ? binterval * 1000.0 : NAN;
	if (binterval < 1 || binterval > 16)
		return NAN;
	return frame * (double)(1u << (binterval - 1));
}

/* the payload ceiling through the limits calculators (platform/usb/limits.h) */
static void ceiling(struct gadget_ep *e, enum usb_speed s, enum usb_xfer t, unsigned binterval)
{
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT;
	unsigned mp = (unsigned)e->max_packet, mult = (unsigned)e->mult;
	unsigned burst = (unsigned)e->maxburst;

	/* the calculators read 0 as "the speed's largest": a declared 0 carries nothing */
	if (!mp) {
		strbuf_adds(&sb, "no ceiling: wMaxPacketSize 0");
	} else if (t == USB_XFER_BULK && usb_bulk_payload_Bps(s) > 0) {
		e->ceiling_Bps = usb_bulk_payload_Bps(s);
		strbuf_addf(&sb, "bulk ceiling at %s", usb_speed_label(s));
	} else if (t == USB_XFER_BULK) {
		strbuf_addf(&sb, "no ceiling: %s has no bulk transfers", usb_speed_label(s));
	} else if (t == USB_XFER_INTERRUPT) {
		struct usb_hid_params p = {
		    .speed = s,
		    .report_length = mp * (s == USB_SPEED_HIGH ? mult : 1) * (burst + 1),
		    .interval = binterval,
		    .max_packet = mp,
		    .mult = s == USB_SPEED_HIGH ? mult : 0,
		    .burst = s >= USB_SPEED_SS ? burst : 0,
		};
		struct usb_hid_result r;

		if (usb_hid_calc(&p, &r, &err) == 0) {
			e->ceiling_Bps = r.rates[0].Bps;
			strbuf_addf(&sb, "%u B per %.0f us", p.report_length, r.period_us);
			usb_hid_result_release(&r);
		}
	} else {
		struct usb_uvc_params p = {
		    .speed = s,
		    .max_packet = mp,
		    .mult = s <= USB_SPEED_FULL ? 1 : mult,
		    .burst = s >= USB_SPEED_SS ? (int)burst : -1,
		    .interval = binterval,
		    .width = 0,
		    .height = 0,
		    .pixel = USB_PIXEL_YUYV,
		};
		struct usb_uvc_result r;

		if (usb_uvc_calc(&p, &r, &err) == 0) {
			e->ceiling_Bps = r.bus_Bps;
			strbuf_addf(&sb, "%.0f B per %.0f us", r.bytes_per_interval, r.period_us);
			usb_uvc_result_release(&r);
		}
	}
	if (!sb.len)
		strbuf_addf(&sb, "no ceiling: %s (%s)", err.why.len ? err.why.buf : "not computed",
			    err.option ? err.option : "descriptor");
	e->ceiling_mb_s = e->ceiling_Bps / 1e6;
	e->ceiling_basis = strbuf_detach(&sb);
	usb_calc_error_release(&err);
}

struct epctx {
	struct gadget_built_fn *o;
	enum usb_speed s;
};

static void add(struct epctx *c, const char *iface, enum usb_xfer t, bool in, unsigned mp,
		unsigned mult, unsigned burst, unsigned binterval)
{
	struct gadget_ep *e;

	c->o->eps = xgrow(c->o->eps, &c->o->neps, sizeof(*c->o->eps));
	e = &c->o->eps[c->o->neps - 1];
	*e = (struct gadget_ep){
	    .iface = iface,
	    .type = usb_xfer_name(t),
	    .dir = in ? "in" : "out",
	    .max_packet = mp,
	    .mult = mult ? mult : 1,
	    .maxburst = c->s >= USB_SPEED_SS ? burst : 0,
	    .interval_us = t == USB_XFER_BULK ? NAN : period_us(c->s, t, binterval),
	    .ceiling_Bps = NAN,
	};
	ceiling(e, c->s, t, binterval);
}

/* wMaxPacketSize of the bulk endpoints: autoconfig's 64 at full speed, 512, 1024 */
static unsigned bulk_mp(enum usb_speed s)
{
	return s <= USB_SPEED_FULL ? 64 : s == USB_SPEED_HIGH ? 512 : 1024;
}

static void bulk_pair(struct epctx *c, const char *iface, unsigned ss_burst)
{
	add(c, iface, USB_XFER_BULK, true, bulk_mp(c->s), 1, ss_burst, 0);
	add(c, iface, USB_XFER_BULK, false, bulk_mp(c->s), 1, ss_burst, 0);
}

/* CDC notification endpoint: full speed bInterval 32 (ms), above USB_MS_TO_HS_INTERVAL(32) = 9 */
static void notify(struct epctx *c, unsigned bytes)
{
	add(c, "control", USB_XFER_INTERRUPT, true, bytes, 1, 0, c->s <= USB_SPEED_FULL ? 32 : 9);
}

static void hid(struct epctx *c, const struct gadget_fn_spec *f, const char *dir)
{
	const char *preset = gadget_fn_get(f, "preset");
	unsigned def = 8, proto, sub, rl, interval, mp, mult = 1;
	size_t len;

	if (!gadget_fn_get(f, "report_desc"))
		hid_preset(preset ? preset : "keyboard", &len, &def, &proto, &sub);
	rl = tunable(f, dir, "report_length", def);
	/* interval (Linux 6.16 and later) replaces the fixed 10 / 4 at every speed */
	interval = tunable(f, dir, "interval", 0);
	if (!interval)
		interval = c->s <= USB_SPEED_FULL ? 10 : 4;
	/* report_length goes into wMaxPacketSize whole: at high speed bits 12:11 read as mult */
	mp = rl;
	if (c->s == USB_SPEED_HIGH) {
		mp = rl & 0x7ff;
		mult = ((rl >> 11) & 3) + 1;
	}
	add(c, "interface 0", USB_XFER_INTERRUPT, true, mp, mult, 0, interval);
	if (tunable(f, dir, "interval", 0) && c->s >= USB_SPEED_SS)
		c->o->ep_note = xstrdup("at SuperSpeed the f_hid that has interval declares "
					"bInterval 0 until commit 7f58b4148ef5 (fix SuperSpeed "
					"descriptors)");
	if (!tunable(f, dir, "no_out_endpoint", 0))
		add(c, "interface 0", USB_XFER_INTERRUPT, false, mp, mult, 0, interval);
	else if (!c->o->ep_note)
		c->o->ep_note = xstrdup("no OUT endpoint: the host's reports come by SET_REPORT");
}

static void sourcesink(struct epctx *c, const struct gadget_fn_spec *f, const char *dir)
{
	unsigned interval = tunable(f, dir, "isoc_interval", 4);
	unsigned mp = tunable(f, dir, "isoc_maxpacket", 1024);
	unsigned mult = tunable(f, dir, "isoc_mult", 0),
		 burst = tunable(f, dir, "isoc_maxburst", 0);

	/* bind()'s own clamps */
	interval = interval < 1 ? 1 : interval > 16 ? 16 : interval;
	mult = mult > 2 ? 2 : mult;
	burst = burst > 15 ? 15 : burst;
	if (!mp) {
		bulk_pair(c, "alt 0", 0);
		c->o->ep_note =
		    xstrdup("isoc_maxpacket=0: alt 1's isochronous endpoints carry nothing");
		return;
	}
	bulk_pair(c, "alt 0 and 1", 0);
	mp = c->s <= USB_SPEED_FULL ? (mp > 1023 ? 1023 : mp) : (mp > 1024 ? 1024 : mp);
	if (c->s <= USB_SPEED_FULL)
		mult = 0;
	add(c, "alt 1", USB_XFER_ISOC, true, mp, mult + 1, burst, interval);
	add(c, "alt 1", USB_XFER_ISOC, false, mp, mult + 1, burst, interval);
	c->o->ep_note = xstrdup("alt 1 exists when the UDC has isochronous endpoints");
}

static void uvc(struct epctx *c, const struct gadget_fn_spec *f, const char *dir)
{
	unsigned interval = tunable(f, dir, "streaming_interval", 1);
	unsigned mp = tunable(f, dir, "streaming_maxpacket", 1024);
	unsigned burst = tunable(f, dir, "streaming_maxburst", 0), mult, size;

	interval = interval < 1 ? 1 : interval > 16 ? 16 : interval;
	mp = mp < 1 ? 1 : mp > 3072 ? 3072 : mp;
	burst = burst > 15 ? 15 : burst;
	/* a SuperSpeed burst needs 1024 B packets: bind rounds the size up */
	if (burst && mp % 1024)
		mp = (mp + 1023) / 1024 * 1024;
	mult = mp <= 1024 ? 1 : mp <= 2048 ? 2 : 3;
	size = mp / mult;
	add(c, "control", USB_XFER_INTERRUPT, true, 16, 1, 0, 8);
	if (c->s <= USB_SPEED_FULL)
		add(c, "streaming alt 1", USB_XFER_ISOC, true, mp > 1023 ? 1023 : mp, 1, 0,
		    interval);
	else if (c->s == USB_SPEED_HIGH) /* high bandwidth forces bInterval 1 */
		add(c, "streaming alt 1", USB_XFER_ISOC, true, size, mult, 0,
		    mult > 1 ? 1 : interval);
	else
		add(c, "streaming alt 1", USB_XFER_ISOC, true, size, mult, burst, interval);
}

int gadget_fn_endpoints(const struct gadget_fn_spec *f, const char *fn_dir, enum usb_speed s,
			struct gadget_built_fn *out)
{
	struct epctx c = {.o = out, .s = s};
	const char *p = f->profile->name;

	if (s <= USB_SPEED_UNKNOWN || s >= USB_SPEED_COUNT)
		return -EINVAL;
	if (!strcmp(p, "msc")) {
		out->ep_source = "f_mass_storage";
		bulk_pair(&c, "interface 0", 15);
	} else if (!strcmp(p, "ncm") || !strcmp(p, "ecm")) {
		out->ep_source = !strcmp(p, "ncm") ? "f_ncm" : "f_ecm";
		notify(&c, 16);
		bulk_pair(&c, "data alt 1", !strcmp(p, "ncm") ? 15 : 0);
	} else if (!strcmp(p, "rndis")) {
		out->ep_source = "f_rndis";
		notify(&c, 8);
		bulk_pair(&c, "data", 0);
	} else if (!strcmp(p, "hid")) {
		out->ep_source = "f_hid";
		hid(&c, f, fn_dir);
	} else if (!strcmp(p, "loopback")) {
		out->ep_source = "f_loopback";
		bulk_pair(&c, "interface 0", 0);
	} else if (!strcmp(p, "sourcesink")) {
		out->ep_source = "f_sourcesink";
		sourcesink(&c, f, fn_dir);
	} else if (!strcmp(p, "uvc")) {
		out->ep_source = "f_uvc";
		uvc(&c, f, fn_dir);
	} else if (!strcmp(p, "mtp")) {
		out->ep_source = "f_fs";
		out->ep_note = xstrdup("umtprd's: bulk IN, bulk OUT, interrupt IN, written to ep0; "
				       "SuperSpeed ones only if umtprd was built with "
				       "CONFIG_USB_SS_SUPPORT (up holds the gadget to high speed "
				       "unless --max-speed says otherwise)");
	} else if (!strcmp(p, "ffs")) {
		out->ep_source = "f_fs";
		out->ep_note = xstrdup("defined by the userspace daemon: the descriptors it writes "
				       "to ep0");
	}
	return 0;
}

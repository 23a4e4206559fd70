// SPDX-License-Identifier: MIT
/*
 * Class calculators over the ceilings in limits.c: UVC video over an
 * isochronous endpoint and HID reports over an interrupt endpoint. Inputs are
 * the endpoint descriptor's fields; bad ones are refused naming the option.
 */
#include "platform/usb/limits.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void usb_calc_error_release(struct usb_calc_error *e)
{
	if (!e)
		return;
	strbuf_release(&e->why);
	e->option = NULL;
}

__attribute__((format(printf, 3, 4))) static int fail(struct usb_calc_error *err,
						      const char *option, const char *fmt, ...)
{
	va_list ap;

	err->option = option;
	strbuf_reset(&err->why);
	va_start(ap, fmt);
	strbuf_vaddf(&err->why, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool speed_valid(enum usb_speed s)
{
	return s > USB_SPEED_UNKNOWN && s < USB_SPEED_COUNT;
}

static const char *const pixel_names[USB_PIXEL_COUNT] = {"yuyv", "nv12", "mjpeg"};

const char *usb_pixel_name(enum usb_pixel p)
{
	return p < USB_PIXEL_COUNT ? pixel_names[p] : "unknown";
}

int usb_pixel_parse(const char *s, enum usb_pixel *ret)
{
	unsigned i;

	for (i = 0; i < USB_PIXEL_COUNT; i++)
		if (!strcmp(s, pixel_names[i])) {
			*ret = (enum usb_pixel)i;
			return 0;
		}
	return -EINVAL;
}

/* "125 us microframe", or "8 microframes (1000 us, bInterval 4)" */
static void add_period(struct strbuf *sb, const struct usb_link *l, unsigned interval,
		       double period_us)
{
	const char *unit = l->interval_us == 1000 ? "frames"
			   : l->speed == USB_SPEED_HIGH ? "microframes"
							: "bus intervals";

	if (period_us == l->interval_us)
		strbuf_adds(sb, l->interval_name);
	else
		strbuf_addf(sb, "%.0f %s (%.0f us, bInterval %u)", period_us / l->interval_us,
			    unit, period_us, interval);
}

/* ---- UVC ---------------------------------------------------------------- */

/* high-bandwidth high speed: 2 per microframe needs 513-1024 B, 3 needs 683-1024 */
static const unsigned hs_min_packet[4] = {0, 1, 513, 683};

static unsigned uvc_default_mult(const struct usb_uvc_params *p)
{
	if (p->speed == USB_SPEED_FULL)
		return 1;
	if (p->speed >= USB_SPEED_SS)
		return p->burst ? 3 : 1;
	return p->max_packet >= hs_min_packet[3] ? 3 : p->max_packet >= hs_min_packet[2] ? 2 : 1;
}

static int uvc_defaults(struct usb_uvc_params *p, struct usb_calc_error *err)
{
	bool ss = p->speed >= USB_SPEED_SS;

	if (!speed_valid(p->speed))
		return fail(err, "speed", "unknown speed");
	if (p->speed == USB_SPEED_LOW)
		return fail(err, "speed", "low-speed has no isochronous endpoints");
	if (p->burst >= 0 && !ss)
		return fail(err, "burst", "bursts exist only at SuperSpeed and above");
	if (p->burst > 15)
		return fail(err, "burst", "bMaxBurst is 0-15");
	if (!p->max_packet)
		p->max_packet = p->speed == USB_SPEED_FULL ? 1023 : 1024;
	/* unset: the most the packet size allows (a burst needs 1024 B packets) */
	if (ss && p->burst < 0)
		p->burst = p->max_packet == 1024 ? 15 : 0;
	if (!p->mult)
		p->mult = uvc_default_mult(p);
	if (!p->interval)
		p->interval = 1;
	if (p->mjpeg_ratio == 0)
		p->mjpeg_ratio = USB_UVC_MJPEG_RATIO;
	return 0;
}

/* wMaxPacketSize, mult and burst as USB 2.0 table 9-14 and USB 3.2 9.6.7 allow */
static int uvc_check_packets(const struct usb_uvc_params *p, struct usb_calc_error *err)
{
	unsigned limit = p->speed == USB_SPEED_FULL ? 1023 : 1024;
	const char *w = usb_speed_word(p->speed);

	if (p->max_packet > limit)
		return fail(err, "maxpacket", "%s isochronous allows at most %u", w, limit);
	if (p->mult > 3)
		return fail(err, "mult", "%s isochronous allows 1-3 per interval", w);
	if (p->speed == USB_SPEED_FULL && p->mult != 1)
		return fail(err, "mult", "full-speed isochronous moves one packet per frame");
	if (p->speed == USB_SPEED_HIGH && p->max_packet < hs_min_packet[p->mult])
		return fail(err, "maxpacket", "high-speed isochronous with --mult %u needs %u-1024",
			    p->mult, hs_min_packet[p->mult]);
	if (p->speed >= USB_SPEED_SS && !p->burst && p->mult > 1)
		return fail(err, "mult", "%s Mult must be 1 when --burst is 0", w);
	if (p->speed >= USB_SPEED_SS && p->burst && p->max_packet != 1024)
		return fail(err, "maxpacket", "%s isochronous with --burst above 0 needs 1024", w);
	return 0;
}

static int uvc_check(const struct usb_uvc_params *p, struct usb_calc_error *err)
{
	int r;

	r = uvc_check_packets(p, err);
	if (r < 0)
		return r;
	if (p->interval > 16)
		return fail(err, "interval", "isochronous bInterval is 1-16 (2^(N-1) intervals)");
	if (!p->width != !p->height || p->width > USB_UVC_MAX_SIDE ||
	    p->height > USB_UVC_MAX_SIDE)
		return fail(err, "frame-size", "expected WIDTHxHEIGHT, each 1-%d", USB_UVC_MAX_SIDE);
	if (p->pixel >= USB_PIXEL_COUNT)
		return fail(err, "pixel-format", "expected yuyv, nv12 or mjpeg");
	if (!(p->mjpeg_ratio >= 1))
		return fail(err, "mjpeg-ratio", "a compression ratio is at least 1");
	return 0;
}

static double frame_bytes(unsigned w, unsigned h, enum usb_pixel px, double mjpeg_ratio)
{
	double pixels = (double)w * h;

	switch (px) {
	case USB_PIXEL_YUYV:
		return pixels * 2;
	case USB_PIXEL_NV12:
		return pixels * 1.5;
	default: /* an estimate: the YUYV frame compressed by the stated ratio */
		return pixels * 2 / mjpeg_ratio;
	}
}

/* service intervals one frame needs */
static double uvc_frame_intervals(const struct usb_uvc_result *r, double bytes)
{
	/* a frame ends its last payload: the next frame starts a new interval */
	return ceil(bytes / (r->bytes_per_interval - r->header_bytes));
}

double usb_uvc_frame_fps(const struct usb_uvc_result *r, double frame_bytes)
{
	if (!(frame_bytes > 0))
		return 0;
	return 1e6 / (uvc_frame_intervals(r, frame_bytes) * r->period_us);
}

static void uvc_add_row(struct usb_uvc_result *r, unsigned w, unsigned h, enum usb_pixel px)
{
	struct usb_uvc_fps *f = &r->rows[r->nrows++];

	f->width = w;
	f->height = h;
	f->pixel = px;
	f->frame_bytes = frame_bytes(w, h, px, r->in.mjpeg_ratio);
	f->intervals = uvc_frame_intervals(r, f->frame_bytes);
	f->fps = usb_uvc_frame_fps(r, f->frame_bytes);
}

static void uvc_rows(struct usb_uvc_result *r)
{
	static const unsigned sizes[][2] = {{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}};
	size_t i;
	int px;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned w = r->in.width ? r->in.width : sizes[i][0];
		unsigned h = r->in.width ? r->in.height : sizes[i][1];

		for (px = 0; px < USB_PIXEL_COUNT; px++)
			if (r->in.pixel < 0 || r->in.pixel == px)
				uvc_add_row(r, w, h, (enum usb_pixel)px);
		if (r->in.width)
			break;
	}
}

static void uvc_derive(struct usb_uvc_result *r, const struct usb_link *l)
{
	const struct usb_uvc_params *p = &r->in;

	strbuf_init(&r->derivation);
	if (p->speed >= USB_SPEED_SS)
		strbuf_addf(&r->derivation, "%u x %d x %u B per ", p->mult, p->burst + 1,
			    p->max_packet);
	else
		strbuf_addf(&r->derivation, "%u x %u B per ", p->mult, p->max_packet);
	add_period(&r->derivation, l, p->interval, r->period_us);
	if (p->speed >= USB_SPEED_SS && r->bytes_per_interval == p->ss_bytes_per_interval)
		strbuf_addf(&r->derivation, ", wBytesPerInterval %u", p->ss_bytes_per_interval);
}

int usb_uvc_calc(const struct usb_uvc_params *params, struct usb_uvc_result *ret,
		 struct usb_calc_error *err)
{
	struct usb_uvc_result r = {.in = *params, .header_bytes = USB_UVC_HEADER_BYTES};
	struct usb_link l;
	unsigned packets;
	int e;

	e = uvc_defaults(&r.in, err);
	if (e < 0)
		return e;
	e = uvc_check(&r.in, err);
	if (e < 0)
		return e;
	usb_link_info(r.in.speed, &l);
	packets = r.in.mult * (r.in.speed >= USB_SPEED_SS ? (unsigned)r.in.burst + 1 : 1);
	r.bytes_per_interval = (double)packets * r.in.max_packet;
	if (r.in.ss_bytes_per_interval && r.in.speed >= USB_SPEED_SS &&
	    r.in.ss_bytes_per_interval < r.bytes_per_interval)
		r.bytes_per_interval = r.in.ss_bytes_per_interval;
	if (r.bytes_per_interval <= r.header_bytes)
		return fail(err, "maxpacket", "%.0f B per interval cannot carry the %d B UVC payload "
					      "header", r.bytes_per_interval, USB_UVC_HEADER_BYTES);
	r.period_us = l.interval_us * (double)(1u << (r.in.interval - 1));
	r.bus_Bps = r.bytes_per_interval * 1e6 / r.period_us;
	r.payload_Bps = (r.bytes_per_interval - r.header_bytes) * 1e6 / r.period_us;
	uvc_rows(&r);
	uvc_derive(&r, &l);
	*ret = r;
	return 0;
}

void usb_uvc_result_release(struct usb_uvc_result *r)
{
	if (r)
		strbuf_release(&r->derivation);
}

/* ---- HID ---------------------------------------------------------------- */

static unsigned hid_max_packet(enum usb_speed s)
{
	return s == USB_SPEED_LOW ? 8 : s == USB_SPEED_FULL ? 64 : 1024;
}

static unsigned fls_u(unsigned x)
{
	unsigned n = 0;

	for (; x; x >>= 1)
		n++;
	return n;
}

/*
 * xHCI schedules periodic endpoints every 2^n x 125 us. For full- and
 * low-speed bInterval (ms) the Linux driver takes the power of two at or
 * below bInterval x 8 microframes, n clamped to 3..10 (1-128 ms): 10 ms
 * becomes 8 ms (xhci_parse_frame_interval() in drivers/usb/host/xhci-mem.c).
 */
static double xhci_period_us(enum usb_speed s, unsigned interval)
{
	unsigned n = interval - 1;

	if (s <= USB_SPEED_FULL) {
		n = fls_u(interval * 8) - 1;
		n = n < 3 ? 3 : n > 10 ? 10 : n;
	}
	return 125.0 * (double)(1u << n);
}

static int hid_defaults(struct usb_hid_params *p, struct usb_calc_error *err)
{
	bool ms = p->speed <= USB_SPEED_FULL;

	if (!speed_valid(p->speed))
		return fail(err, "speed", "unknown speed");
	if (!p->interval)
		p->interval = p->speed == USB_SPEED_LOW ? 10 : 1;
	if (!p->report_length)
		p->report_length = hid_max_packet(p->speed);
	if (ms && p->interval > 255)
		return fail(err, "interval", "%s interrupt bInterval is 1-255 (ms)",
			    usb_speed_word(p->speed));
	if (!ms && p->interval > 16)
		return fail(err, "interval", "%s interrupt bInterval is 1-16 (2^(N-1) x 125 us)",
			    usb_speed_word(p->speed));
	if (p->report_length > USB_HID_MAX_REPORT)
		return fail(err, "report-length", "at most %d bytes", USB_HID_MAX_REPORT);
	if (!p->max_packet)
		p->max_packet = hid_max_packet(p->speed);
	if (p->max_packet > hid_max_packet(p->speed))
		return fail(err, "maxpacket", "%s interrupt allows at most %u",
			    usb_speed_word(p->speed), hid_max_packet(p->speed));
	if (!p->mult)
		p->mult = 1;
	if (p->mult > 1 && p->speed != USB_SPEED_HIGH)
		return fail(err, "mult",
			    "only high-speed interrupt endpoints have transactions per "
			    "microframe (use --burst at SuperSpeed)");
	if (p->mult > 3)
		return fail(err, "mult", "high-speed interrupt allows 1-3 per microframe");
	if (p->burst && p->speed < USB_SPEED_SS)
		return fail(err, "burst", "bursts are SuperSpeed only");
	if (p->burst > 2)
		return fail(err, "burst", "SuperSpeed interrupt bMaxBurst is 0-2");
	if (p->burst && p->max_packet != 1024)
		return fail(err, "burst", "SuperSpeed interrupt bursts need wMaxPacketSize 1024");
	if (p->mult > 1 && p->max_packet < 513)
		return fail(err, "mult",
			    "high-bandwidth endpoints have wMaxPacketSize 513-1024 (USB "
			    "2.0 5.7.3)");
	return 0;
}

static void hid_rate(struct usb_hid_rate *rt, const char *basis, double period_us,
		     const struct usb_hid_result *r)
{
	rt->basis = basis;
	rt->period_us = period_us;
	rt->reports_per_s = 1e6 / (period_us * r->intervals_per_report);
	rt->Bps = rt->reports_per_s * r->in.report_length;
}

static void hid_notes(struct usb_hid_result *r)
{
	strbuf_init(&r->note);
	if (r->intervals_per_report > 1) {
		if (r->packets_per_interval > 1)
			strbuf_addf(&r->note,
				    "the report spans %u packets of up to %u B, %u per interval",
				    r->packets_per_report, r->max_packet, r->packets_per_interval);
		else
			strbuf_addf(&r->note,
				    "the report spans %u packets of up to %u B, one per interval",
				    r->packets_per_report, r->max_packet);
	}
	if (r->in.speed == USB_SPEED_LOW && r->in.interval < 10)
		strbuf_addf(&r->note, "%slow-speed periods below 10 ms are outside USB 2.0 5.7.4",
			    r->note.len ? "; " : "");
}

int usb_hid_calc(const struct usb_hid_params *params, struct usb_hid_result *ret,
		 struct usb_calc_error *err)
{
	struct usb_hid_result r = {.in = *params};
	bool ms;
	double period_us;
	int e;

	e = hid_defaults(&r.in, err);
	if (e < 0)
		return e;
	ms = r.in.speed <= USB_SPEED_FULL;
	r.max_packet = r.in.max_packet;
	r.packets_per_report = (r.in.report_length + r.max_packet - 1) / r.max_packet;
	if (!r.packets_per_report)
		r.packets_per_report = 1; /* a zero-length report still takes a packet */
	r.packets_per_interval = r.in.speed == USB_SPEED_HIGH ? r.in.mult
				 : r.in.speed >= USB_SPEED_SS ? r.in.burst + 1
							      : 1;
	r.intervals_per_report =
	    (r.packets_per_report + r.packets_per_interval - 1) / r.packets_per_interval;
	period_us = ms ? r.in.interval * 1000.0 : 125.0 * (double)(1u << (r.in.interval - 1));
	r.period_us = period_us;
	hid_rate(&r.rates[0], "descriptor", period_us, &r);
	hid_rate(&r.rates[1], "xHCI schedule", xhci_period_us(r.in.speed, r.in.interval), &r);
	hid_notes(&r);
	strbuf_init(&r.derivation);
	if (r.packets_per_interval > 1)
		strbuf_addf(
		    &r.derivation, "%u B report in %u packet%s of up to %u B, %u per %.0f us (%s)",
		    r.in.report_length, r.packets_per_report, r.packets_per_report > 1 ? "s" : "",
		    r.max_packet, r.packets_per_interval, period_us,
		    r.in.speed == USB_SPEED_HIGH ? "high-bandwidth" : "burst");
	else
		strbuf_addf(&r.derivation,
			    "%u B report in %u packet%s of up to %u B, one per %.0f us",
			    r.in.report_length, r.packets_per_report,
			    r.packets_per_report > 1 ? "s" : "", r.max_packet, period_us);
	*ret = r;
	return 0;
}

void usb_hid_result_release(struct usb_hid_result *r)
{
	if (!r)
		return;
	strbuf_release(&r->note);
	strbuf_release(&r->derivation);
}

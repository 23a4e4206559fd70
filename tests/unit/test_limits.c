// SPDX-License-Identifier: MIT
/*
 * platform/usb/limits: every ceiling against figures worked out by hand from the
 * USB 2.0 chapter 5 limits, the USB 3.2 framing and the line codings; the
 * calculators against hand-computed cases and their refusals.
 */
#include "unit.h"
#include "render/render.h"
#include "platform/usb/limits.h"
#include "platform/usb/limits_fields.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MB 1e6

struct ceiling_case {
	enum usb_speed speed;
	enum usb_xfer type;
	bool allowed;
	double max_packet, packets, interval_us;
	double Bps; /* exact where the arithmetic is */
	const char *derivation;
};

/* Hand-computed: packets x bytes / interval. Exact in double. */
static const struct ceiling_case usb2_cases[] = {
	{USB_SPEED_LOW, USB_XFER_CONTROL, true, 8, 3, 1000, 24000, "3 x 8 B per 1 ms frame"},
	{USB_SPEED_LOW, USB_XFER_BULK, false, NAN, NAN, NAN, 0, "none at low speed"},
	{USB_SPEED_LOW, USB_XFER_INTERRUPT, true, 8, 1, 10000, 800, "1 x 8 B per 10 ms"},
	{USB_SPEED_LOW, USB_XFER_ISOC, false, NAN, NAN, NAN, 0, "none at low speed"},
	{USB_SPEED_FULL, USB_XFER_CONTROL, true, 64, 13, 1000, 832000, "13 x 64 B per 1 ms frame"},
	{USB_SPEED_FULL, USB_XFER_BULK, true, 64, 19, 1000, 1216000, "19 x 64 B per 1 ms frame"},
	{USB_SPEED_FULL, USB_XFER_INTERRUPT, true, 64, 1, 1000, 64000, "1 x 64 B per 1 ms frame"},
	{USB_SPEED_FULL, USB_XFER_ISOC, true, 1023, 1, 1000, 1023000, "1 x 1023 B per 1 ms frame"},
	{USB_SPEED_HIGH, USB_XFER_CONTROL, true, 64, 31, 125, 15872000,
	 "31 x 64 B per 125 us microframe"},
	{USB_SPEED_HIGH, USB_XFER_BULK, true, 512, 13, 125, 53248000,
	 "13 x 512 B per 125 us microframe"},
	{USB_SPEED_HIGH, USB_XFER_INTERRUPT, true, 1024, 3, 125, 24576000,
	 "3 x 1024 B per 125 us microframe"},
	{USB_SPEED_HIGH, USB_XFER_ISOC, true, 1024, 3, 125, 24576000,
	 "3 x 1024 B per 125 us microframe"},
	/* SuperSpeed periodic: 1024 B x burst 3, and 1024 x 16 x 3, per 125 us */
	{USB_SPEED_SS, USB_XFER_INTERRUPT, true, 1024, 3, 125, 24576000,
	 "3 x 1024 B per 125 us bus interval (burst 3)"},
	{USB_SPEED_SS, USB_XFER_ISOC, true, 1024, 48, 125, 393216000,
	 "16 x 3 x 1024 B per 125 us bus interval (burst 16, mult 3)"},
	{USB_SPEED_SSP_G2X1, USB_XFER_ISOC, true, 1024, 96, 125, 786432000,
	 "96 x 1024 B per 125 us bus interval (2 x 16 x 3)"},
};

static void assert_same(double got, double want, const char *what)
{
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("%s = %g, expected NaN", what, got);
		return;
	}
	if (got != want)
		fail_msg("%s = %.17g, expected %.17g", what, got, want);
}

static void test_usb2_and_periodic_exact(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(usb2_cases); i++) {
		const struct ceiling_case *k = &usb2_cases[i];
		struct usb_ceiling c;

		assert_int_equal(usb_transfer_ceiling(k->speed, k->type, &c), 0);
		assert_int_equal(c.allowed, k->allowed);
		assert_same(c.max_packet, k->max_packet, "max_packet");
		assert_same(c.packets, k->packets, "packets");
		assert_same(c.interval_us, k->interval_us, "interval_us");
		assert_same(c.payload_Bps, k->Bps, "payload_Bps");
		assert_string_equal(c.derivation, k->derivation);
		assert_non_null(c.source);
	}
}

/* the derivation text says what the numbers are, so they cannot drift apart */
static void test_derivation_matches_numbers(void **state)
{
	char want[64];
	int s, t;

	(void)state;
	for (s = USB_SPEED_FULL; s <= USB_SPEED_HIGH; s++) {
		for (t = 0; t < USB_XFER_COUNT; t++) {
			struct usb_ceiling c;

			assert_int_equal(usb_transfer_ceiling(s, t, &c), 0);
			snprintf(want, sizeof(want), "%.0f x %.0f B per %s", c.packets,
				 c.max_packet,
				 s == USB_SPEED_FULL ? "1 ms frame" : "125 us microframe");
			assert_string_equal(c.derivation, want);
			assert_same(c.payload_Bps, c.packets * c.max_packet * 1e6 / c.interval_us,
				    "payload vs derivation");
		}
	}
}

/* SuperSpeed control and bulk: the text names the packet with its framing */
static void test_ss_derivation_matches_numbers(void **state)
{
	char want[64];
	int s, t;

	(void)state;
	for (s = USB_SPEED_SS; s < USB_SPEED_COUNT; s++) {
		for (t = USB_XFER_CONTROL; t <= USB_XFER_BULK; t++) {
			struct usb_ceiling c;
			struct usb_link l;

			assert_int_equal(usb_transfer_ceiling(s, t, &c), 0);
			assert_int_equal(usb_link_info(s, &l), 0);
			snprintf(want, sizeof(want), "%.0f B payload per %.0f B packet x ",
				 c.max_packet, c.max_packet + c.overhead_bytes);
			assert_non_null(strstr(c.derivation, want));
			snprintf(want, sizeof(want), "%g MB/s", l.coded_Bps / l.lanes / MB);
			assert_non_null(strstr(c.derivation, want));
			assert_near(c.payload_Bps,
				    l.coded_Bps * c.max_packet / (c.max_packet + c.overhead_bytes),
				    1e-6);
		}
	}
}

struct link_case {
	enum usb_speed speed;
	unsigned lanes;
	const char *coding;
	double coded_Bps, bulk_Bps;
	unsigned framing; /* SS: framing bytes per data packet (DPH + DPP framing + CRC) */
};

static const struct link_case link_cases[] = {
	{USB_SPEED_LOW, 1, "NRZI + bit stuffing", 187500, 0, 0},
	{USB_SPEED_FULL, 1, "NRZI + bit stuffing", 1500000, 1216000, 0},
	{USB_SPEED_HIGH, 1, "NRZI + bit stuffing", 60e6, 53248000, 0},
	/* 5 Gbit/s x 8/10 = 500 MB/s of symbols; 1024 of 1056 B carry payload */
	{USB_SPEED_SS, 1, "8b/10b", 500e6, 500e6 * 1024 / 1056, 32},
	{USB_SPEED_SSP_G1X2, 2, "8b/10b", 1000e6, 1000e6 * 1024 / 1056, 32},
	/* 10e9 x 128/132 / 8 = 1212.12 MB/s; the Gen 2 DPH adds 4 B */
	{USB_SPEED_SSP_G2X1, 1, "128b/132b", 10e9 * 128 / 132 / 8, 10e9 * 128 / 132 / 8 * 1024 / 1060,
	 36},
	{USB_SPEED_SSP_G2X2, 2, "128b/132b", 20e9 * 128 / 132 / 8, 20e9 * 128 / 132 / 8 * 1024 / 1060,
	 36},
};

static void test_links_and_bulk(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(link_cases); i++) {
		const struct link_case *k = &link_cases[i];
		struct usb_link l;
		struct usb_ceiling c;

		assert_int_equal(usb_link_info(k->speed, &l), 0);
		assert_int_equal(l.lanes, k->lanes);
		assert_string_equal(l.coding, k->coding);
		assert_near(l.coded_Bps, k->coded_Bps, 1e-3);
		assert_near(l.bulk_Bps, k->bulk_Bps, 1e-3);
		assert_near(usb_bulk_payload_Bps(k->speed), k->bulk_Bps, 1e-3);
		if (!k->framing) {
			assert_int_equal(usb_bulk_ceiling(k->speed, &c) == 0, k->bulk_Bps > 0);
			continue;
		}
		assert_int_equal(usb_bulk_ceiling(k->speed, &c), 0);
		assert_same(c.max_packet, 1024, "bulk max_packet");
		assert_same(c.burst, 16, "bulk burst");
		assert_same(c.overhead_bytes, k->framing, "framing");
	}
	assert_near(usb_bulk_payload_Bps(USB_SPEED_SS) / MB, 484.848485, 1e-6);
	assert_near(usb_bulk_payload_Bps(USB_SPEED_SSP_G2X1) / MB, 1170.954831, 1e-6);
}

static void test_bad_input(void **state)
{
	struct usb_ceiling c;
	struct usb_link l;
	struct usb_ncm_rate n;

	(void)state;
	assert_int_equal(usb_transfer_ceiling(USB_SPEED_UNKNOWN, USB_XFER_BULK, &c), -EINVAL);
	assert_int_equal(usb_transfer_ceiling(USB_SPEED_COUNT, USB_XFER_BULK, &c), -EINVAL);
	assert_int_equal(usb_transfer_ceiling(USB_SPEED_HIGH, USB_XFER_COUNT, &c), -EINVAL);
	assert_int_equal(usb_bulk_ceiling(USB_SPEED_LOW, &c), -EINVAL);
	assert_int_equal(usb_link_info(USB_SPEED_UNKNOWN, &l), -EINVAL);
	assert_int_equal(usb_ncm_reported(USB_SPEED_UNKNOWN, &n), -EINVAL);
	assert_true(usb_bulk_payload_Bps(USB_SPEED_UNKNOWN) == 0);
	assert_true(usb_bulk_payload_Bps(USB_SPEED_LOW) == 0);
	assert_string_equal(usb_xfer_name(USB_XFER_ISOC), "isochronous");
	assert_string_equal(usb_xfer_name(USB_XFER_COUNT), "unknown");
}

/* drivers/usb/gadget/function/f_ncm.c ncm_bitrate(), now gether_bitrate() */
static void test_ncm(void **state)
{
	static const struct {
		enum usb_speed s;
		uint64_t bps;
	} cases[] = {
		{USB_SPEED_LOW, 19ULL * 64 * 1 * 1000 * 8},
		{USB_SPEED_FULL, 19ULL * 64 * 1 * 1000 * 8},
		{USB_SPEED_HIGH, 13ULL * 512 * 8 * 1000 * 8},
		{USB_SPEED_SS, 3750000000ULL},
		{USB_SPEED_SSP_G1X2, 4250000000ULL},
		{USB_SPEED_SSP_G2X1, 4250000000ULL},
		{USB_SPEED_SSP_G2X2, 4250000000ULL},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct usb_ncm_rate n;

		assert_int_equal(usb_ncm_reported(cases[i].s, &n), 0);
		assert_int_equal(n.reported_bps, cases[i].bps);
		assert_true(n.bulk_Bps == usb_bulk_payload_Bps(cases[i].s));
	}
	/* the high-speed figure is the bulk ceiling itself, in bits */
	assert_true(13.0 * 512 * 8 * 1000 * 8 == usb_bulk_payload_Bps(USB_SPEED_HIGH) * 8);
}

static void test_field_refs(void **state)
{
	const struct usb_field_ref *refs;
	size_t n, i;

	(void)state;
	refs = usb_field_refs(&n);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++) {
		assert_non_null(refs[i].what);
		assert_non_null(refs[i].range);
		assert_true(refs[i].max_Bps > 0);
		/* a field figure never passes the ceiling of its bus */
		assert_true(refs[i].max_Bps < usb_bulk_payload_Bps(refs[i].speed));
	}
	assert_near(refs[0].min_Bps, 25e6, 0);
	assert_near(refs[3].max_Bps * 8, 100e6, 0);
	assert_nan(refs[2].min_Bps);
}

/* ---- UVC ---------------------------------------------------------------- */

struct uvc_case {
	struct usb_uvc_params in;
	double bytes_per_interval, period_us, bus_Bps, payload_Bps;
	const char *derivation;
	unsigned max_packet, mult;
	int burst;
};

/* params with nothing given; UVCB also gives bMaxBurst */
#define UVC(...) {.burst = -1, .pixel = -1, __VA_ARGS__}
#define UVCB(b, ...) {.burst = (b), .pixel = -1, __VA_ARGS__}

static const struct uvc_case uvc_cases[] = {
	/* 3 x 1024 B per microframe = 24.576 MB/s, less 12 B each 125 us */
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 1024, .mult = 3), 3072, 125, 24576000,
	 3060 * 8000.0, "3 x 1024 B per 125 us microframe", 1024, 3, -1},
	/* defaults: the most the speed allows */
	{UVC(.speed = USB_SPEED_HIGH), 3072, 125, 24576000, 3060 * 8000.0,
	 "3 x 1024 B per 125 us microframe", 1024, 3, -1},
	/* 600 B packets allow two per microframe */
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 600), 1200, 125, 9600000, 1188 * 8000.0,
	 "2 x 600 B per 125 us microframe", 600, 2, -1},
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 1024, .mult = 1, .interval = 4), 1024, 1000,
	 1024000, 1012000, "1 x 1024 B per 8 microframes (1000 us, bInterval 4)", 1024, 1, -1},
	{UVC(.speed = USB_SPEED_FULL), 1023, 1000, 1023000, 1011000, "1 x 1023 B per 1 ms frame",
	 1023, 1, -1},
	/* SuperSpeed: 1024 x 16 x 3 per 125 us = 393.216 MB/s */
	{UVC(.speed = USB_SPEED_SS), 49152, 125, 393216000, 49140 * 8000.0,
	 "3 x 16 x 1024 B per 125 us bus interval", 1024, 3, 15},
	{UVCB(3, .speed = USB_SPEED_SS, .mult = 2), 8192, 125, 65536000, 8180 * 8000.0,
	 "2 x 4 x 1024 B per 125 us bus interval", 1024, 2, 3},
	/* a packet size other than 1024 cannot burst */
	{UVC(.speed = USB_SPEED_SS, .max_packet = 512), 512, 125, 4096000, 500 * 8000.0,
	 "1 x 1 x 512 B per 125 us bus interval", 512, 1, 0},
};

static void test_uvc_bandwidth(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(uvc_cases); i++) {
		const struct uvc_case *k = &uvc_cases[i];
		struct usb_calc_error err = USB_CALC_ERROR_INIT;
		struct usb_uvc_result r;

		assert_int_equal(usb_uvc_calc(&k->in, &r, &err), 0);
		assert_int_equal(r.in.max_packet, k->max_packet);
		assert_int_equal(r.in.mult, k->mult);
		assert_int_equal(r.in.burst, k->burst);
		assert_same(r.bytes_per_interval, k->bytes_per_interval, "bytes_per_interval");
		assert_same(r.period_us, k->period_us, "period_us");
		assert_same(r.bus_Bps, k->bus_Bps, "bus_Bps");
		assert_same(r.payload_Bps, k->payload_Bps, "payload_Bps");
		assert_string_equal(r.derivation.buf, k->derivation);
		assert_int_equal(r.nrows, 12); /* 4 sizes x 3 formats */
		usb_uvc_result_release(&r);
		usb_calc_error_release(&err);
	}
}

static void test_uvc_fps(void **state)
{
	struct usb_uvc_params p = UVC(.speed = USB_SPEED_HIGH, .width = 1280, .height = 720);
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_uvc_result r;

	(void)state;
	assert_int_equal(usb_uvc_calc(&p, &r, &err), 0);
	assert_int_equal(r.nrows, 3);
	/* YUYV 1280 x 720 x 2 = 1 843 200 B over 3060 B per microframe: 603 of them */
	assert_int_equal(r.rows[0].pixel, USB_PIXEL_YUYV);
	assert_same(r.rows[0].frame_bytes, 1843200, "yuyv frame");
	assert_same(r.rows[0].intervals, 603, "yuyv intervals");
	assert_near(r.rows[0].fps, 1e6 / (603 * 125.0), 1e-12);
	/* NV12 1.5 B/px: 1 382 400 B, 452 microframes */
	assert_same(r.rows[1].frame_bytes, 1382400, "nv12 frame");
	assert_same(r.rows[1].intervals, 452, "nv12 intervals");
	/* MJPEG: the YUYV frame / 10 = 184 320 B, 61 microframes */
	assert_same(r.rows[2].frame_bytes, 184320, "mjpeg frame");
	assert_same(r.rows[2].intervals, 61, "mjpeg intervals");
	usb_uvc_result_release(&r);

	p.pixel = USB_PIXEL_MJPEG;
	p.mjpeg_ratio = 4;
	assert_int_equal(usb_uvc_calc(&p, &r, &err), 0);
	assert_int_equal(r.nrows, 1);
	assert_same(r.rows[0].frame_bytes, 460800, "mjpeg 4:1");
	assert_same(r.rows[0].intervals, 151, "mjpeg 4:1 intervals");
	usb_uvc_result_release(&r);
	usb_calc_error_release(&err);
}

struct refusal {
	struct usb_uvc_params in;
	const char *option, *why;
};

static const struct refusal uvc_refusals[] = {
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 4096), "maxpacket",
	 "high-speed isochronous allows at most 1024"},
	{UVC(.speed = USB_SPEED_FULL, .max_packet = 1024), "maxpacket",
	 "full-speed isochronous allows at most 1023"},
	{UVC(.speed = USB_SPEED_SS, .max_packet = 2048), "maxpacket",
	 "SuperSpeed isochronous allows at most 1024"},
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 600, .mult = 3), "maxpacket",
	 "high-speed isochronous with --mult 3 needs 683-1024"},
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 512, .mult = 2), "maxpacket",
	 "high-speed isochronous with --mult 2 needs 513-1024"},
	{UVC(.speed = USB_SPEED_HIGH, .mult = 4), "mult", "high-speed isochronous allows 1-3 per "
							  "interval"},
	{UVC(.speed = USB_SPEED_FULL, .mult = 2), "mult",
	 "full-speed isochronous moves one packet per frame"},
	{UVC(.speed = USB_SPEED_LOW), "speed", "low-speed has no isochronous endpoints"},
	{UVC(.speed = USB_SPEED_UNKNOWN), "speed", "unknown speed"},
	{UVCB(2, .speed = USB_SPEED_HIGH), "burst",
	 "bursts exist only at SuperSpeed and above"},
	{UVCB(16, .speed = USB_SPEED_SS), "burst", "bMaxBurst is 0-15"},
	{UVCB(0, .speed = USB_SPEED_SS, .mult = 2), "mult",
	 "SuperSpeed Mult must be 1 when --burst is 0"},
	{UVCB(4, .speed = USB_SPEED_SSP_G2X1, .max_packet = 512), "maxpacket",
	 "SuperSpeedPlus isochronous with --burst above 0 needs 1024"},
	{UVC(.speed = USB_SPEED_HIGH, .interval = 17), "interval",
	 "isochronous bInterval is 1-16 (2^(N-1) intervals)"},
	{UVC(.speed = USB_SPEED_HIGH, .width = 640), "frame-size", "expected WIDTHxHEIGHT, each 1-16384"},
	{UVC(.speed = USB_SPEED_HIGH, .width = 20000, .height = 10), "frame-size",
	 "expected WIDTHxHEIGHT, each 1-16384"},
	{UVC(.speed = USB_SPEED_HIGH, .mjpeg_ratio = 0.5), "mjpeg-ratio",
	 "a compression ratio is at least 1"},
	{UVC(.speed = USB_SPEED_HIGH, .mjpeg_ratio = NAN), "mjpeg-ratio",
	 "a compression ratio is at least 1"},
	{UVC(.speed = USB_SPEED_HIGH, .max_packet = 12, .mult = 1), "maxpacket",
	 "12 B per interval cannot carry the 12 B UVC payload header"},
};

static void test_uvc_refusals(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(uvc_refusals); i++) {
		const struct refusal *k = &uvc_refusals[i];
		struct usb_calc_error err = USB_CALC_ERROR_INIT;
		struct usb_uvc_result r;

		memset(&r, 0x5a, sizeof(r));
		assert_int_equal(usb_uvc_calc(&k->in, &r, &err), -EINVAL);
		assert_string_equal(err.option, k->option);
		assert_string_equal(err.why.buf, k->why);
		assert_int_equal(((unsigned char *)&r)[0], 0x5a); /* untouched */
		usb_calc_error_release(&err);
	}
}

/* ---- HID ---------------------------------------------------------------- */

struct hid_case {
	struct usb_hid_params in;
	unsigned packets;
	double period_us, xhci_period_us, reports_per_s, Bps;
	const char *note;
};

static const struct hid_case hid_cases[] = {
	/* full speed, 64 B every 1 ms: 64 000 B/s */
	{{USB_SPEED_FULL, 64, 1, 0, 0, 0}, 1, 1000, 1000, 1000, 64000, ""},
	/* bInterval 10 ms: an xHCI host polls every 8 ms */
	{{USB_SPEED_FULL, 8, 10, 0, 0, 0}, 1, 10000, 8000, 100, 800, ""},
	{{USB_SPEED_FULL, 8, 255, 0, 0, 0}, 1, 255000, 128000, 1e6 / 255000, 8e6 / 255000, ""},
	/* low speed, 8 B per 10 ms: 800 B/s */
	{{USB_SPEED_LOW, 8, 10, 0, 0, 0}, 1, 10000, 8000, 100, 800, ""},
	{{USB_SPEED_LOW, 0, 0, 0, 0, 0}, 1, 10000, 8000, 100, 800, ""}, /* defaults */
	{{USB_SPEED_LOW, 16, 4, 0, 0, 0}, 2, 4000, 4000, 125, 2000,
	 "the report spans 2 packets of up to 8 B, one per interval; low-speed periods below 10 "
	 "ms are outside USB 2.0 5.7.4"},
	/* a 100 B report at full speed: two packets, two frames */
	{{USB_SPEED_FULL, 100, 1, 0, 0, 0}, 2, 1000, 1000, 500, 50000,
	 "the report spans 2 packets of up to 64 B, one per interval"},
	/* high speed bInterval 4: 2^3 x 125 us = 1 ms */
	{{USB_SPEED_HIGH, 1024, 4, 0, 0, 0}, 1, 1000, 1000, 1000, 1024000, ""},
	{{USB_SPEED_HIGH, 64, 1, 0, 0, 0}, 1, 125, 125, 8000, 512000, ""},
	{{USB_SPEED_SS, 1024, 16, 0, 0, 0}, 1, 4096000, 4096000, 1e6 / 4096000, 1024e6 / 4096000, ""},
	/* high-bandwidth high speed: 3 x 1024 B per microframe, one 3072 B report each */
	{{USB_SPEED_HIGH, 3072, 1, 1024, 3, 0}, 3, 125, 125, 8000, 24576000, ""},
	/* the same report without high bandwidth takes 3 microframes */
	{{USB_SPEED_HIGH, 3072, 1, 1024, 1, 0}, 3, 125, 125, 8000.0 / 3, 8192000,
	 "the report spans 3 packets of up to 1024 B, one per interval"},
	/* 2 per microframe, a 3-packet report: 2 microframes */
	{{USB_SPEED_HIGH, 3000, 1, 1024, 2, 0}, 3, 125, 125, 4000, 12000000,
	 "the report spans 3 packets of up to 1024 B, 2 per interval"},
	/* a 64 B wMaxPacketSize splits a 100 B report even at high speed */
	{{USB_SPEED_HIGH, 100, 1, 64, 0, 0}, 2, 125, 125, 4000, 400000,
	 "the report spans 2 packets of up to 64 B, one per interval"},
	/* SuperSpeed burst: bMaxBurst 2, 3 packets per service interval */
	{{USB_SPEED_SS, 3072, 1, 1024, 0, 2}, 3, 125, 125, 8000, 24576000, ""},
	{{USB_SPEED_SS, 4096, 4, 1024, 0, 2}, 4, 1000, 1000, 500, 2048000,
	 "the report spans 4 packets of up to 1024 B, 3 per interval"},
};

static void test_hid(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hid_cases); i++) {
		const struct hid_case *k = &hid_cases[i];
		struct usb_calc_error err = USB_CALC_ERROR_INIT;
		struct usb_hid_result r;

		assert_int_equal(usb_hid_calc(&k->in, &r, &err), 0);
		assert_int_equal(r.packets_per_report, k->packets);
		assert_string_equal(r.rates[0].basis, "descriptor");
		assert_same(r.rates[0].period_us, k->period_us, "period");
		assert_same(r.rates[1].period_us, k->xhci_period_us, "xhci period");
		assert_near(r.rates[0].reports_per_s, k->reports_per_s, 1e-9);
		assert_near(r.rates[0].Bps, k->Bps, 1e-9);
		assert_string_equal(r.note.buf, k->note);
		usb_hid_result_release(&r);
		usb_calc_error_release(&err);
	}
}

static void test_hid_refusals(void **state)
{
	static const struct {
		struct usb_hid_params in;
		const char *option, *why;
	} cases[] = {
		{{USB_SPEED_FULL, 8, 256, 0, 0, 0}, "interval", "full-speed interrupt bInterval is 1-255 (ms)"},
		{{USB_SPEED_HIGH, 8, 17, 0, 0, 0}, "interval",
		 "high-speed interrupt bInterval is 1-16 (2^(N-1) x 125 us)"},
		{{USB_SPEED_SS, 8, 100, 0, 0, 0}, "interval",
		 "SuperSpeed interrupt bInterval is 1-16 (2^(N-1) x 125 us)"},
		{{USB_SPEED_FULL, 65536, 1, 0, 0, 0}, "report-length", "at most 65535 bytes"},
		{{USB_SPEED_UNKNOWN, 8, 1, 0, 0, 0}, "speed", "unknown speed"},
		{{USB_SPEED_HIGH, 8, 1, 1025, 0, 0}, "maxpacket",
		 "high-speed interrupt allows at most 1024"},
		{{USB_SPEED_FULL, 8, 1, 64, 2, 0}, "mult",
		 "only high-speed interrupt endpoints have transactions per microframe (use --burst "
		 "at SuperSpeed)"},
		{{USB_SPEED_HIGH, 8, 1, 1024, 4, 0}, "mult",
		 "high-speed interrupt allows 1-3 per microframe"},
		{{USB_SPEED_HIGH, 8, 1, 512, 2, 0}, "mult",
		 "high-bandwidth endpoints have wMaxPacketSize 513-1024 (USB 2.0 5.7.3)"},
		{{USB_SPEED_HIGH, 8, 1, 1024, 0, 1}, "burst", "bursts are SuperSpeed only"},
		{{USB_SPEED_SS, 8, 1, 1024, 0, 3}, "burst", "SuperSpeed interrupt bMaxBurst is 0-2"},
		{{USB_SPEED_SS, 8, 1, 512, 0, 1}, "burst",
		 "SuperSpeed interrupt bursts need wMaxPacketSize 1024"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct usb_calc_error err = USB_CALC_ERROR_INIT;
		struct usb_hid_result r;

		assert_int_equal(usb_hid_calc(&cases[i].in, &r, &err), -EINVAL);
		assert_string_equal(err.option, cases[i].option);
		assert_string_equal(err.why.buf, cases[i].why);
		usb_calc_error_release(&err);
	}
}

/* ---- schema: the field tables render what the core computed -------------- */

static const char want_hid_text[] =
	"HID interrupt IN endpoint\n"
	"  speed               full\n"
	"  report              8 B\n"
	"  bInterval           10\n"
	"  largest packet      64 B\n"
	"  packets per report  1\n"
	"  derivation          8 B report in 1 packet of up to 64 B, one per 10000 us\n"
	"\n"
	"Report rate: as the descriptor asks, and as an xHCI host schedules it\n"
	"period from    period  reports  rate\n"
	"                   us      1/s   B/s\n"
	"descriptor      10000    100.0   800\n"
	"xHCI schedule    8000    125.0  1000\n";

static void test_hid_render(void **state)
{
	struct usb_hid_params p = {USB_SPEED_FULL, 8, 10, 0, 0, 0};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_hid_result res;
	struct limits_hid_view v;
	struct report r = {.command = "limits hid"};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(usb_hid_calc(&p, &res, &err), 0);
	limits_hid_describe(&res, &v, &r);
	assert_int_equal(render_text(&r, &out), 0);
	assert_string_equal(out.buf, want_hid_text);
	strbuf_reset(&out);
	assert_int_equal(render_csv(&r, &out), 0);
	assert_string_equal(out.buf, "basis,period_us,reports_per_s,bytes_per_s\n"
				     "descriptor,10000.000,100.0000,800.000\n"
				     "xHCI schedule,8000.000,125.0000,1000.000\n");
	strbuf_release(&out);
	usb_hid_result_release(&res);
}

static void test_table_rows(void **state)
{
	struct limits_table_view v;
	struct report r = {.command = "limits"};

	(void)state;
	limits_table_describe(USB_SPEED_UNKNOWN, &v, &r);
	assert_int_equal(v.nxfers, 7 * USB_XFER_COUNT);
	assert_int_equal(v.nlinks, 7);
	assert_int_equal(v.nrefs, 5);
	assert_int_equal(r.nsec, 3);
	assert_string_equal(r.sec[0].key, "transfers"); /* CSV renders the first table */

	memset(&r, 0, sizeof(r));
	limits_table_describe(USB_SPEED_HIGH, &v, &r);
	assert_int_equal(v.nxfers, USB_XFER_COUNT);
	assert_int_equal(v.nrefs, 2);
	assert_string_equal(v.xfers[1].type, "bulk");
	assert_same(v.xfers[1].mb_s, 53.248, "HS bulk MB/s");
	assert_same(v.xfers[1].mbit_s, 425.984, "HS bulk Mbit/s");
	assert_near(v.xfers[1].mib_s, 53248000 / 1048576.0, 1e-12);
	assert_near(v.refs[0].pct_max, 100 * 35 / 53.248, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usb2_and_periodic_exact),
		cmocka_unit_test(test_derivation_matches_numbers),
		cmocka_unit_test(test_ss_derivation_matches_numbers),
		cmocka_unit_test(test_links_and_bulk),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_ncm),
		cmocka_unit_test(test_field_refs),
		cmocka_unit_test(test_uvc_bandwidth),
		cmocka_unit_test(test_uvc_fps),
		cmocka_unit_test(test_uvc_refusals),
		cmocka_unit_test(test_hid),
		cmocka_unit_test(test_hid_refusals),
		cmocka_unit_test(test_hid_render),
		cmocka_unit_test(test_table_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

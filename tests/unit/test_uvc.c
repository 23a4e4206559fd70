// SPDX-License-Identifier: MIT
/*
 * platform/usb/uvc: descriptors of real cameras (the .hex files in tests/fixtures/uvc, each
 * naming its source), the bandwidth arithmetic worked by hand in the
 * comments. Findings, sysfs and debugfs: test_uvc_findings.c.
 *
 * "test_uvc --write-corpus DIR" writes the fixtures as fuzz seeds for
 * fuzz_uvc, each behind its speed byte.
 */
#include "uvc_fixture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HS_PERIOD 125.0 /* us */

/*
 * Canyon CNE-CWC2 (Sonix 0c45:6340) at high speed: interface 1 streams,
 * alt 0 has no endpoint, alts 1-6 one isochronous IN endpoint 0x81,
 * bInterval 1 (every 125 us microframe).
 */
static void test_canyon_alt_settings(void **state)
{
	/* wMaxPacketSize, size (bits 10:0), mult (1 + bits 12:11) */
	static const struct {
		uint16_t raw, size;
		uint8_t mult;
	} want[] = {
	    {0x0080, 128, 1}, {0x0100, 256, 1}, {0x0320, 800, 1},
	    {0x0b20, 800, 2}, {0x1320, 800, 3}, {0x1400, 1024, 3},
	};
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_HIGH);
	const struct uvc_stream *s;
	size_t k;

	(void)state;
	assert_int_equal(info->vendor, 0x0c45);
	assert_int_equal(info->product, 0x6340);
	assert_true(info->has_control);
	assert_int_equal(info->control_ifnum, 0);
	assert_int_equal(info->bcd_uvc, 0x0100);
	assert_int_equal(info->n_streams, 1);
	assert_int_equal(info->flags, 0);
	s = &info->streams[0];
	assert_int_equal(s->ifnum, 1);
	assert_false(s->bulk);
	assert_int_equal(s->header_ep, 0x81);
	assert_int_equal(s->n_alts, 7);
	assert_int_equal(s->alts[0].alt, 0);
	assert_int_equal(s->alts[0].xfer, UVC_XFER_NONE);
	assert_ptr_equal(uvc_find_alt(s, 6), &s->alts[6]);
	assert_null(uvc_find_alt(s, 7));
	assert_null(uvc_find_alt(s, -1));
	for (k = 0; k < ARRAY_SIZE(want); k++) {
		const struct uvc_alt *a = &s->alts[k + 1];
		/* bytes per microframe: mult x size; 8000 microframes per second */
		double bpi = (double)want[k].mult * want[k].size;

		assert_int_equal(a->alt, k + 1);
		assert_int_equal(a->xfer, UVC_XFER_ISOC);
		assert_int_equal(a->ep_address, 0x81);
		assert_int_equal(a->max_packet_raw, want[k].raw);
		assert_int_equal(a->max_packet, want[k].size);
		assert_int_equal(a->mult, want[k].mult);
		assert_int_equal(a->interval, 1);
		assert_near(a->period_us, HS_PERIOD, 1e-9);
		assert_near(a->bytes_per_interval, bpi, 1e-9);
		assert_near(a->bus_Bps, bpi * 8000, 1e-6);
		assert_near(a->payload_Bps, (bpi - 12) * 8000, 1e-6);
		assert_string_equal(a->why, "");
	}
	/* 3 x 1024 = 3072 B per microframe: 24 576 000 B/s, 24 480 000 B/s of payload */
	assert_near(s->alts[6].bus_Bps, 24576000, 1e-6);
	assert_near(s->alts[6].payload_Bps, 24480000, 1e-6);
	assert_string_equal(s->alts[6].derivation, "3 x 1024 B per 125 us microframe");
	free(info);
}

static void test_canyon_formats(void **state)
{
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_HIGH);
	static const uint32_t vga_intervals[] = {333333, 400000, 500000, 666666, 1000000, 2000000};
	const struct uvc_format *yuy2 = &info->formats[0], *mjpg = &info->formats[1];
	const struct uvc_frame *fr;
	size_t k;

	(void)state;
	assert_int_equal(info->n_formats, 2);
	assert_int_equal(yuy2->kind, UVC_FMT_UNCOMPRESSED);
	assert_string_equal(yuy2->fourcc, "YUY2");
	assert_int_equal(yuy2->bits_per_pixel, 16);
	assert_int_equal(yuy2->index, 1);
	assert_int_equal(yuy2->n_frames, 9);
	assert_int_equal(mjpg->kind, UVC_FMT_MJPEG);
	assert_string_equal(mjpg->fourcc, "MJPG");
	assert_int_equal(mjpg->n_frames, 9);
	assert_int_equal(info->n_frames, 18);

	fr = uvc_find_frame(info, "YUY2", 640, 480);
	assert_non_null(fr);
	assert_int_equal(fr->index, 1);
	assert_int_equal(fr->max_frame_bytes, 614400);
	assert_int_equal(fr->default_interval, 333333);
	assert_false(fr->continuous);
	assert_int_equal(fr->n_intervals, ARRAY_SIZE(vga_intervals));
	for (k = 0; k < ARRAY_SIZE(vga_intervals); k++)
		assert_int_equal(fr->intervals[k], vga_intervals[k]);
	fr = uvc_find_frame(info, "MJPG", 1280, 720);
	assert_non_null(fr);
	assert_int_equal(fr->max_frame_bytes, 1843789);
	assert_int_equal(fr->default_interval, 666666);
	assert_int_equal(fr->n_intervals, 3);
	assert_null(uvc_find_frame(info, "NV12", 640, 480));
	free(info);
}

/*
 * A frame takes whole microframes of (bytes per microframe - 12 B header):
 * the frame rate an alt setting sustains is 8000 / ceil(frame / payload).
 */
static void test_canyon_need(void **state)
{
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_HIGH);
	struct uvc_need n;
	const struct uvc_frame *fr;

	(void)state;
	/*
	 * YUY2 640x480 at 333333 x 100 ns (30.00003 fps): 640 x 480 x 2 =
	 * 614 400 B, 18 432 018 B/s. Alt 4 (1600 B): ceil(614400 / 1588) = 387
	 * microframes, 20.67 fps: no. Alt 5 (2400 B): ceil(614400 / 2388) =
	 * 258, 31.01 fps: yes, with 258 x 12 B of headers a frame:
	 * 617 496 B x 30.00003 = 18 524 898.5 B/s. Alt 6 (3072 B): 201, 39.80.
	 */
	fr = uvc_find_frame(info, "YUY2", 640, 480);
	assert_int_equal(uvc_mode_need(info, fr, 0, false, &n), 0);
	assert_int_equal(n.basis, UVC_BASIS_PIXELS);
	assert_near(n.frame_bytes, 614400, 1e-9);
	assert_near(n.fps, 1e7 / 333333, 1e-12);
	assert_near(n.payload_Bps, 614400 * (1e7 / 333333), 1e-6);
	assert_int_equal(n.smallest_alt, 5);
	assert_near(n.smallest_need_Bps, 617496 * (1e7 / 333333), 1e-6);
	assert_int_equal(n.largest_alt, 6);
	assert_near(n.largest_fps, 8000.0 / 201, 1e-9);

	/* at 15 fps (666666) alt 4 (20.67 fps) is enough */
	assert_int_equal(uvc_mode_need(info, fr, 666666, false, &n), 0);
	assert_int_equal(n.smallest_alt, 4);

	/*
	 * YUY2 1600x1200 at 5 fps: 3 840 000 B. Alt 5: ceil(3840000 / 2388) =
	 * 1609 microframes, 4.972 fps: short by 0.56%. Alt 6: ceil(3840000 /
	 * 3060) = 1255, 6.37 fps: the smallest.
	 */
	fr = uvc_find_frame(info, "YUY2", 1600, 1200);
	assert_int_equal(uvc_mode_need(info, fr, 0, false, &n), 0);
	assert_near(n.frame_bytes, 3840000, 1e-9);
	assert_near(n.fps, 5, 1e-12);
	assert_int_equal(n.smallest_alt, 6);

	/*
	 * MJPEG 1280x720 at 15 fps (666666), the estimate: 1280 x 720 x 2 / 10
	 * = 184 320 B. Alt 2 (256 B): ceil(184320 / 244) = 756, 10.58 fps: no.
	 * Alt 3 (800 B): ceil(184320 / 788) = 234, 34.19 fps: yes.
	 */
	fr = uvc_find_frame(info, "MJPG", 1280, 720);
	assert_int_equal(uvc_mode_need(info, fr, 0, false, &n), 0);
	assert_int_equal(n.basis, UVC_BASIS_MJPEG_RATIO);
	assert_near(n.frame_bytes, 184320, 1e-9);
	assert_int_equal(n.smallest_alt, 3);
	/*
	 * With dwMaxVideoFrameBufferSize (1 843 789 B) nothing carries 15 fps:
	 * alt 6 needs ceil(1843789 / 3060) = 603 microframes, 13.27 fps.
	 */
	assert_int_equal(uvc_mode_need(info, fr, 0, true, &n), 0);
	assert_int_equal(n.basis, UVC_BASIS_BUFFER);
	assert_near(n.frame_bytes, 1843789, 1e-9);
	assert_int_equal(n.smallest_alt, -1);
	assert_int_equal(n.largest_alt, 6);
	assert_near(n.largest_fps, 8000.0 / 603, 1e-9);

	assert_int_equal(uvc_mode_need(info, NULL, 0, false, &n), -EINVAL);
	free(info);
}

/*
 * ESP32-S3 with TinyUSB, two cameras over bulk (high speed): each VS
 * interface has one alt setting with a 512 B bulk IN endpoint.
 */
static void test_bulk_camera(void **state)
{
	struct uvc_info *info = parse("esp32s3_tinyusb_bulk.hex", USB_SPEED_HIGH);
	const struct uvc_frame *fr;
	struct uvc_need n;
	unsigned k;

	(void)state;
	assert_int_equal(info->n_streams, 2);
	for (k = 0; k < 2; k++) {
		const struct uvc_stream *s = &info->streams[k];

		assert_int_equal(s->ifnum, 1 + 2 * k);
		assert_true(s->bulk);
		assert_int_equal(s->n_alts, 1);
		assert_int_equal(s->alts[0].xfer, UVC_XFER_BULK);
		assert_int_equal(s->alts[0].max_packet, 512);
		assert_int_equal(s->alts[0].ep_address, 0x81 + k);
		/* 13 x 512 B per microframe: 53 248 000 B/s */
		assert_near(s->bulk_Bps, 53248000, 1e-6);
		assert_nan(s->alts[0].bus_Bps);
	}
	/* continuous intervals: min = max = step = 666666 */
	fr = uvc_find_frame(info, "MJPG", 1280, 720);
	assert_non_null(fr);
	assert_int_equal(info->formats[fr->format].stream, 1);
	assert_true(fr->continuous);
	assert_int_equal(fr->n_intervals, 3);
	assert_int_equal(fr->intervals[0], 666666);
	assert_int_equal(fr->intervals[2], 666666);
	/*
	 * 1 843 200 B buffer + one 12 B header a frame at 15.0000015 fps =
	 * 27 648 207 B/s, under 53 248 000: carried; the ceiling allows
	 * 53248000 / 1843212 = 28.89 fps.
	 */
	assert_int_equal(uvc_mode_need(info, fr, 0, true, &n), 0);
	assert_int_equal(n.smallest_alt, 0);
	assert_near(n.smallest_need_Bps, 1843212 * (1e7 / 666666), 1e-6);
	assert_near(n.largest_fps, 53248000.0 / 1843212, 1e-9);
	/* at full speed the bulk ceiling is 19 x 64 B per ms: 1 216 000 B/s, 0.66 fps */
	free(info);
	info = parse("esp32s3_tinyusb_bulk.hex", USB_SPEED_FULL);
	fr = uvc_find_frame(info, "MJPG", 1280, 720);
	assert_int_equal(uvc_mode_need(info, fr, 0, true, &n), 0);
	assert_int_equal(n.smallest_alt, -1);
	assert_near(n.largest_fps, 1216000.0 / 1843212, 1e-9);
	free(info);
}

/*
 * Intel RealSense D455 at SuperSpeed, rebuilt from its lsusb -v text as far
 * as the end of the depth streaming interface (so wTotalLength claims more):
 * one alt setting with a bulk IN endpoint of 1024 B packets in bursts of 16
 * (bMaxBurst 15), two frame-based formats.
 */
static void test_d455_superspeed_bulk(void **state)
{
	struct uvc_info *info = parse("realsense_d455.hex", USB_SPEED_SS);
	const struct uvc_stream *s = &info->streams[0];
	const struct uvc_alt *a = &s->alts[0];
	const struct uvc_frame *fr;
	struct uvc_need n;
	/* 848x480 Z16 at 111111 x 100 ns: 90.0009 fps */
	double fps = 1e7 / 111111;

	(void)state;
	assert_int_equal(info->vendor, 0x8086);
	assert_int_equal(info->product, 0x0b5c);
	assert_int_equal(info->bcd_usb, 0x0320);
	assert_int_equal(info->bcd_uvc, 0x0150);
	/* the walk says the configuration is cut short; nothing UVC-specific is wrong */
	assert_int_equal(info->flags, UVC_F_DESC);
	assert_int_equal(info->n_streams, 1);
	assert_int_equal(s->ifnum, 1);
	assert_int_equal(s->header_ep, 0x82);
	assert_true(s->bulk);
	assert_int_equal(s->n_alts, 1);
	assert_int_equal(a->xfer, UVC_XFER_BULK);
	assert_int_equal(a->max_packet, 1024);
	assert_true(a->has_ss_comp);
	assert_int_equal(a->max_burst, 15);
	/* 500 MB/s after 8b/10b, 1024 of every 1056 B on the wire: 484 848 484.8 B/s */
	assert_near(s->bulk_Bps, 5e8 * 1024 / 1056, 1e-3);

	assert_int_equal(info->n_formats, 2);
	assert_int_equal(info->formats[0].kind, UVC_FMT_FRAME_BASED);
	assert_string_equal(info->formats[0].fourcc, "Z16 ");
	assert_int_equal(info->formats[0].bits_per_pixel, 16);
	assert_int_equal(info->formats[0].n_frames, 8);
	/* {50000000-...}: 'P' and three zero bytes */
	assert_string_equal(info->formats[1].fourcc, "P???");
	assert_int_equal(info->n_frames, 16);

	fr = uvc_find_frame(info, "Z16 ", 848, 480);
	assert_non_null(fr);
	assert_int_equal(fr->max_bitrate, 586137600);
	assert_int_equal(fr->default_interval, 111111);
	assert_int_equal(fr->n_intervals, 5);
	assert_int_equal(fr->intervals[4], 2000000);
	/*
	 * Frame-based: dwMaxBitRate / 8 = 73 267 200 B/s, a frame 73267200 /
	 * 90.0009 = 814 071.9 B; with one 12 B header a frame 73 268 280 B/s,
	 * under the bulk ceiling.
	 */
	assert_int_equal(uvc_mode_need(info, fr, 0, false, &n), 0);
	assert_int_equal(n.basis, UVC_BASIS_BITRATE);
	assert_near(n.payload_Bps, 73267200, 1e-6);
	assert_near(n.frame_bytes, 73267200 / fps, 1e-6);
	assert_int_equal(n.smallest_alt, 0);
	assert_near(n.smallest_need_Bps, 73267200 + 12 * fps, 1e-6);
	assert_near(n.largest_fps, 5e8 * 1024 / 1056 / (73267200 / fps + 12), 1e-9);
	free(info);
}

/*
 * No published SuperSpeed isochronous camera dump was at hand: a hand-built
 * VS interface checks the burst arithmetic and the wBytesPerInterval cap.
 */
static void test_superspeed_isoc_handmade(void **state)
{
	/* clang-format off */
	static const uint8_t cam[] = {
		18, 1, 0x20, 0x03, 0xef, 2, 1, 9, 0x34, 0x12, 0x78, 0x56, 0, 1, 0, 0, 0, 1,
		9, 2, 117, 0, 1, 1, 0, 0x80, 50,
		9, 4, 1, 0, 0, 0x0e, 2, 0, 0,
		/* input header: one format, video endpoint 0x81 */
		14, 0x24, 1, 1, 55, 0, 0x81, 0, 1, 0, 0, 0, 1, 0,
		/* MJPEG format, one frame: 3840x2160, buffer 0x3f7e00, 30 fps (333333) */
		11, 0x24, 6, 1, 1, 1, 1, 0, 0, 0, 0,
		30, 0x24, 7, 1, 0, 0x00, 0x0f, 0x70, 0x08, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x7e, 0x3f, 0x00, 0x15, 0x16, 0x05, 0x00, 1, 0x15, 0x16, 0x05, 0x00,
		/* alt 1: 16 x 1024 B, Mult 0, wBytesPerInterval 16384 */
		9, 4, 1, 1, 1, 0x0e, 2, 0, 0,
		7, 5, 0x81, 5, 0x00, 0x04, 1, 6, 0x30, 15, 0, 0x00, 0x40,
		/* alt 2: 3 x 16 x 1024 B, but wBytesPerInterval 45000 */
		9, 4, 1, 2, 1, 0x0e, 2, 0, 0,
		7, 5, 0x81, 5, 0x00, 0x04, 1, 6, 0x30, 15, 2, 0xc8, 0xaf,
	};
	/* clang-format on */
	struct uvc_info *info = calloc(1, sizeof(*info));
	const struct uvc_stream *s;
	const struct uvc_frame *fr;
	struct uvc_need n;

	(void)state;
	assert_int_equal(uvc_parse(cam, sizeof(cam), USB_SPEED_SS, info), 0);
	assert_int_equal(info->flags, 0);
	s = &info->streams[0];
	assert_int_equal(s->n_alts, 3);
	assert_false(s->bulk);
	/* 16 x 1024 = 16 384 B per 125 us bus interval: 131 072 000 B/s */
	assert_int_equal(s->alts[1].max_burst, 15);
	assert_int_equal(s->alts[1].ss_mult, 1);
	assert_near(s->alts[1].bytes_per_interval, 16384, 1e-9);
	assert_near(s->alts[1].bus_Bps, 131072000, 1e-6);
	/* 3 x 16 x 1024 = 49 152 B, capped at wBytesPerInterval 45 000: 360 000 000 B/s */
	assert_int_equal(s->alts[2].ss_mult, 3);
	assert_int_equal(s->alts[2].ss_bytes_per_interval, 45000);
	assert_near(s->alts[2].bytes_per_interval, 45000, 1e-9);
	assert_near(s->alts[2].bus_Bps, 360000000, 1e-6);
	assert_string_equal(s->alts[2].derivation,
			    "3 x 16 x 1024 B per 125 us bus interval, wBytesPerInterval 45000");
	/*
	 * MJPEG 3840x2160 at 30 fps, buffer 4 161 024 B (0x3f7e00): alt 1 needs
	 * ceil(4161024 / 16372) = 255 intervals, 31.37 fps: it carries it.
	 */
	fr = uvc_find_frame(info, "MJPG", 3840, 2160);
	assert_non_null(fr);
	assert_int_equal(uvc_mode_need(info, fr, 0, true, &n), 0);
	assert_near(n.frame_bytes, 4161024, 1e-9);
	assert_int_equal(n.smallest_alt, 1);
	assert_int_equal(n.largest_alt, 2);
	free(info);
}

/* Every prefix of every fixture parses or is refused, within bounds (ASan watches). */
static void test_truncated(void **state)
{
	static const char *const names[] = {"canyon_cne_cwc2.hex", "esp32s3_tinyusb_bulk.hex",
					    "realsense_d455.hex"};
	struct uvc_info *info = calloc(1, sizeof(*info));
	size_t k, len;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(names); k++) {
		struct fixture f = load(names[k]);

		for (len = 0; len <= f.len; len++) {
			uint8_t *copy = malloc(len ? len : 1);
			int r;

			memcpy(copy, f.buf, len);
			r = uvc_parse(copy, len, USB_SPEED_HIGH, info);
			assert_true(r == 0 || r == -EINVAL || r == -ENOENT);
			if (r == 0 && len < f.len)
				assert_true(info->flags & UVC_F_DESC);
			free(copy);
		}
		free(f.buf);
	}
	free(info);
}

static void test_not_a_camera(void **state)
{
	/* a device descriptor and a configuration with one HID interface */
	/* clang-format off */
	static const uint8_t kbd[] = {
		18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x6d, 0x04, 0x1c, 0xc3, 0, 1, 1, 2, 0, 1,
		9, 2, 25, 0, 1, 1, 0, 0xa0, 50,
		9, 4, 0, 0, 1, 3, 1, 1, 0,
		7, 5, 0x81, 3, 8, 0, 10,
	};
	/* clang-format on */
	struct uvc_info *info = calloc(1, sizeof(*info));

	(void)state;
	info->n_streams = 77;
	assert_int_equal(uvc_parse(kbd, sizeof(kbd), USB_SPEED_FULL, info), -ENOENT);
	assert_int_equal(uvc_parse(kbd, 10, USB_SPEED_FULL, info), -EINVAL);
	assert_int_equal(info->n_streams, 77); /* untouched */
	free(info);
}

static size_t put_bytes(uint8_t *b, size_t at, const uint8_t *d, size_t n)
{
	memcpy(b + at, d, n);
	return at + n;
}

/*
 * Hostile counts: 40 alt settings (32 kept), a frame before any format, a
 * format declaring 2 frames with 1, a frame declaring 20 intervals with 2.
 */
static void test_hostile_counts(void **state)
{
	static const uint8_t dev[] = {18, 1, 0, 2, 0xef, 2, 1, 64, 1, 0, 2, 0, 0, 1, 0, 0, 0, 1};
	static const uint8_t intf0[] = {9, 4, 1, 0, 0, 0x0e, 2, 0, 0};
	static const uint8_t header[] = {14, 0x24, 1, 1, 0, 0, 0x81, 0, 1, 0, 0, 0, 1, 0};
	/* an MJPEG frame with nothing before it */
	static const uint8_t orphan[26] = {26, 0x24, 7, 1};
	static const uint8_t format[11] = {11, 0x24, 6, 1, 2};
	/* 640x480 MJPEG, 20 intervals declared, 2 present (bLength 34) */
	/* clang-format off */
	static const uint8_t frame[34] = {34, 0x24, 7, 1, 0, 0x80, 2, 0xe0, 1, [25] = 20,
					  [26] = 0x15, 0x16, 5, 0, 0x2a, 0x2c, 0x0a, 0};
	/* clang-format on */
	uint8_t buf[2048];
	struct uvc_info *info = calloc(1, sizeof(*info));
	size_t at = 0, cfg;
	unsigned k;

	(void)state;
	at = put_bytes(buf, at, dev, sizeof(dev));
	cfg = at;
	at += 9;
	at = put_bytes(buf, at, intf0, sizeof(intf0));
	at = put_bytes(buf, at, header, sizeof(header));
	at = put_bytes(buf, at, orphan, sizeof(orphan));
	at = put_bytes(buf, at, format, sizeof(format));
	at = put_bytes(buf, at, frame, sizeof(frame));
	for (k = 1; k <= 40; k++) {
		/* clang-format off */
		const uint8_t alt[] = {9, 4, 1, (uint8_t)k, 1, 0x0e, 2, 0, 0,
				       7, 5, 0x81, 5, 0x00, 0x04, 1};
		/* clang-format on */

		at = put_bytes(buf, at, alt, sizeof(alt));
	}
	{
		const uint8_t c[] = {
		    9, 2, (uint8_t)(at - cfg), (uint8_t)((at - cfg) >> 8), 1, 1, 0, 0x80, 50};

		memcpy(buf + cfg, c, sizeof(c));
	}
	assert_int_equal(uvc_parse(buf, at, USB_SPEED_HIGH, info), 0);
	assert_int_equal(info->flags, UVC_F_LIMIT | UVC_F_ORPHAN | UVC_F_SHORT | UVC_F_NUM_FRAMES);
	assert_int_equal(info->streams[0].n_alts, UVC_MAX_ALTS);
	assert_int_equal(info->n_frames, 1);
	assert_int_equal(info->frames[0].n_declared, 20);
	assert_int_equal(info->frames[0].n_intervals, 2);
	assert_int_equal(info->frames[0].intervals[1], 666666);
	assert_string_equal(uvc_flag_name(UVC_F_ORPHAN), "orphan-frame");
	assert_string_equal(uvc_flag_name(UVC_F_LIMIT | UVC_F_SHORT), "unknown");
	free(info);
}

static int write_corpus(const char *dir)
{
	static const struct {
		const char *fixture, *seed;
		enum usb_speed speed;
	} seeds[] = {
	    {"canyon_cne_cwc2.hex", "canyon_hs", USB_SPEED_HIGH},
	    {"canyon_cne_cwc2.hex", "canyon_fs", USB_SPEED_FULL},
	    {"esp32s3_tinyusb_bulk.hex", "tinyusb_bulk_hs", USB_SPEED_HIGH},
	    {"realsense_d455.hex", "d455_ss", USB_SPEED_SS},
	};
	char path[512];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(seeds); k++) {
		struct fixture f = load(seeds[k].fixture);
		uint8_t sel = (uint8_t)seeds[k].speed;
		FILE *out;

		snprintf(path, sizeof(path), "%s/%s", dir, seeds[k].seed);
		out = fopen(path, "we");
		if (!out || fwrite(&sel, 1, 1, out) != 1 || fwrite(f.buf, 1, f.len, out) != f.len ||
		    fclose(out) != 0)
			return 1;
		free(f.buf);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_canyon_alt_settings),
	    cmocka_unit_test(test_canyon_formats),
	    cmocka_unit_test(test_canyon_need),
	    cmocka_unit_test(test_bulk_camera),
	    cmocka_unit_test(test_d455_superspeed_bulk),
	    cmocka_unit_test(test_superspeed_isoc_handmade),
	    cmocka_unit_test(test_truncated),
	    cmocka_unit_test(test_not_a_camera),
	    cmocka_unit_test(test_hostile_counts),
	};

	if (argc == 3 && !strcmp(argv[1], "--write-corpus"))
		return write_corpus(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

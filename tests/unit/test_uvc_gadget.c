// SPDX-License-Identifier: MIT
/*
 * classes/uvcgadget: the camera's tunables, its descriptors read back through
 * the host-side decoder (platform/usb/uvc.c, which reads real cameras), the
 * probe/commit negotiation and the controls, the payload arithmetic and
 * the frame timing. Figures worked by hand in the comments.
 */
#include "unit.h"

#include "platform/usb/uvc.h"
#include "platform/usb/uvc_bulk.h"
#include "classes/uvcgadget/uvcg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct uvcg_ident ident = {0x1d6b, 0x0104, "usbperf", "usbperf camera", "SN1", 100};

static struct uvcg_params parse_ok(const char *kv)
{
	struct uvcg_params p;
	char *why = NULL;

	if (uvcg_params_parse(kv, &p, &why) < 0)
		fail_msg("'%s': %s", kv, why);
	free(why);
	return p;
}

static void test_params(void **state)
{
	struct uvcg_params p;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	p = parse_ok("");
	assert_int_equal(p.nformats, 1);
	assert_int_equal(p.formats[0], UVCG_YUYV);
	assert_int_equal(p.frames[0].width, 640);
	assert_int_equal(p.frames[0].height, 360);
	assert_int_equal(p.fps[0], 30);
	assert_int_equal(p.max_payload, 32768);
	p = parse_ok("frames=320x240+640x480,fps=15+30,formats=mjpg,maxpayload=16K,"
		     "stream_frames=90");
	assert_int_equal(p.nframes, 2);
	assert_int_equal(p.frames[1].width, 640);
	assert_int_equal(p.nfps, 2);
	assert_int_equal(p.fps[0], 15);
	assert_int_equal(p.formats[0], UVCG_MJPG);
	assert_int_equal(p.max_payload, 16384);
	assert_int_equal(p.stream_frames, 90);
	uvcg_params_str(&p, &sb);
	assert_string_equal(sb.buf, "frames=320x240+640x480,fps=15+30,formats=mjpg,"
				    "maxpayload=16384,stream_frames=90");
	p = parse_ok("formats=mjpg+yuyv");
	assert_int_equal(p.nformats, 2);
	assert_int_equal(p.formats[1], UVCG_YUYV);
	strbuf_release(&sb);
	/* 1e7 / 30 = 333333.3 -> 333333 (100 ns units) */
	assert_int_equal(uvcg_interval(30), 333333);
	assert_int_equal(uvcg_interval(15), 666667);
}

static void test_params_refused(void **state)
{
	static const struct {
		const char *kv, *why;
	} bad[] = {
	    {"frames=640x", "WxH"},
	    {"frames=641x480", "even widths"},
	    {"frames=320x240+320x240", "given twice"},
	    {"frames=2x2+4x4+6x6+8x8+10x10", "at most 4"},
	    {"fps=0", "1 to 240"},
	    {"fps=30+", "1 to 240"},
	    {"formats=h264", "yuyv, mjpg"},
	    {"maxpayload=100", "512 to 16M"},
	    {"color=red", "unknown key 'color'"},
	    {"fps", "not KEY=VALUE"},
	    /* 2 formats x 4 sizes x 4 rates: far past 256 B */
	    {"formats=yuyv+mjpg,frames=2x2+4x4+6x6+8x8,fps=1+2+3+4", "gadgetfs answers at most 256"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct uvcg_params p;
		char *why = NULL;

		assert_true(uvcg_params_parse(bad[i].kv, &p, &why) < 0);
		if (!why || !strstr(why, bad[i].why))
			fail_msg("'%s': why '%s', expected '%s'", bad[i].kv, why, bad[i].why);
		free(why);
	}
}

/* the configuration as sysfs's descriptors file shows it: device, then configuration */
static struct uvc_info *read_back(const struct uvcg_desc *d, enum usb_speed speed)
{
	uint8_t buf[18 + UVCG_CONFIG_MAX];
	struct uvc_info *info = calloc(1, sizeof(*info));
	const uint8_t *cfg = speed == USB_SPEED_HIGH ? d->hs : d->fs;
	size_t len = speed == USB_SPEED_HIGH ? d->hs_len : d->fs_len;

	assert_non_null(info);
	memcpy(buf, d->dev, 18);
	memcpy(buf + 18, cfg, len);
	assert_int_equal(uvc_parse(buf, 18 + len, speed, info), 0);
	return info;
}

static void test_descriptors(void **state)
{
	/*
	 * 107 B fixed (configuration 9, association 8, VideoControl 9 + 52, VideoStreaming
	 * 9 + 13, endpoint 7) + 2 (bmaControls) + YUYV 27 + MJPG 11 + 2 frames of 26 + 2 x 4
	 */
	struct uvcg_params p = parse_ok("frames=640x480,fps=30+15,formats=yuyv+mjpg");
	struct uvcg_desc d;
	struct uvc_info *info;
	const struct uvc_frame *f;
	char *why = NULL;

	(void)state;
	assert_int_equal(uvcg_desc_size(&p), 107 + 2 + 27 + 11 + 2 * (26 + 8));
	assert_int_equal(uvcg_desc_build(&p, &ident, &d, &why), 0);
	assert_int_equal(d.hs_len, uvcg_desc_size(&p));
	assert_int_equal(d.hs[2] | d.hs[3] << 8, d.hs_len);
	info = read_back(&d, USB_SPEED_HIGH);
	assert_int_equal(info->flags, 0);
	assert_int_equal(info->vendor, 0x1d6b);
	assert_true(info->has_control);
	assert_int_equal(info->bcd_uvc, 0x0110);
	assert_int_equal(info->n_streams, 1);
	assert_true(info->streams[0].bulk);
	assert_int_equal(info->streams[0].n_alts, 1);
	assert_int_equal(info->streams[0].header_ep, 0x81);
	assert_int_equal(info->streams[0].alts[0].max_packet, 512);
	assert_int_equal(info->n_formats, 2);
	assert_string_equal(info->formats[0].fourcc, "YUY2");
	assert_int_equal(info->formats[0].bits_per_pixel, 16);
	assert_string_equal(info->formats[1].fourcc, "MJPG");
	assert_int_equal(info->n_frames, 2);
	f = uvc_find_frame(info, "MJPG", 640, 480);
	assert_non_null(f);
	assert_int_equal(f->index, 1);
	assert_int_equal(f->max_frame_bytes, 640 * 480 * 2);
	assert_int_equal(f->default_interval, 333333);
	/* the shortest interval first */
	assert_int_equal(f->n_intervals, 2);
	assert_int_equal(f->intervals[0], 333333);
	assert_int_equal(f->intervals[1], 666667);
	free(info);
	info = read_back(&d, USB_SPEED_FULL);
	assert_int_equal(info->streams[0].alts[0].max_packet, 64);
	free(info);
	free(why);
}

static void test_descriptors_limit(void **state)
{
	struct uvcg_params p;
	struct uvcg_desc d;
	char *why = NULL;

	(void)state;
	uvcg_params_default(&p);
	assert_int_equal(uvcg_params_set(&p, "frames", "320x240+640x480+800x600", &why), 0);
	assert_int_equal(uvcg_params_set(&p, "formats", "yuyv+mjpg", &why), 0);
	/* 109 + 27 + 11 + 6 x 30 = 327 */
	assert_int_equal(uvcg_desc_size(&p), 327);
	assert_int_equal(uvcg_params_check(&p, &why), -E2BIG);
	assert_non_null(strstr(why, "2 formats x 3 frame sizes x 1 rate take 327 B"));
	free(why);
	why = NULL;
	assert_int_equal(uvcg_desc_build(&p, &ident, &d, &why), -E2BIG);
	free(why);
}

static void test_strings(void **state)
{
	uint8_t b[64];

	(void)state;
	assert_int_equal(uvcg_desc_string(&ident, 0, b, sizeof(b)), 4);
	assert_int_equal(b[2] | b[3] << 8, 0x0409);
	assert_int_equal(uvcg_desc_string(&ident, 3, b, sizeof(b)), 2 + 6);
	assert_int_equal(b[0], 8);
	assert_int_equal(b[1], 3);
	assert_int_equal(b[2], 'S');
	assert_int_equal(b[3], 0);
	assert_int_equal(uvcg_desc_string(&ident, 4, b, sizeof(b)), -EINVAL);
	/* a short buffer: truncated, never overrun */
	assert_int_equal(uvcg_desc_string(&ident, 2, b, 6), 6);
	assert_int_equal(b[0], 6);
}

static int in(struct uvcg_ctrl *c, uint8_t req, uint8_t sel, uint16_t index, uint8_t *out,
	      uint16_t len)
{
	struct uvcg_setup s = {0xa1, req, (uint16_t)(sel << 8), index, len};

	return uvcg_ctrl_in(c, &s, out, len);
}

static int out(struct uvcg_ctrl *c, uint8_t sel, uint16_t index, const uint8_t *data,
	       size_t len)
{
	struct uvcg_setup s = {0x21, 0x01, (uint16_t)(sel << 8), index, (uint16_t)len};

	return uvcg_ctrl_out(c, &s, data, len);
}

static void test_probe_commit(void **state)
{
	/* 107 + 1 + 27 + 2 x 34 = 203 B */
	struct uvcg_params p = parse_ok("frames=320x240+640x480,fps=30+15,formats=yuyv");
	struct uvcg_ctrl c;
	struct uvcg_probe pr;
	uint8_t b[UVCG_PROBE_SIZE];

	(void)state;
	uvcg_ctrl_init(&c, &p);
	/* as uvcvideo starts: GET_DEF, SET_CUR, GET_CUR on the probe */
	assert_int_equal(in(&c, 0x87, 1, 1, b, 34), 34);
	uvcg_probe_unpack(b, 34, &pr);
	assert_int_equal(pr.format, 1);
	assert_int_equal(pr.frame, 1);
	assert_int_equal(pr.interval, 333333);
	assert_int_equal(pr.max_frame, 320 * 240 * 2);
	assert_int_equal(pr.max_payload, 32768);
	assert_int_equal(pr.clock, 48000000);
	/* 640x480 (2), 15 fps asked as 14.9: the nearest offered */
	pr = (struct uvcg_probe){.format = 1, .frame = 2, .interval = 671140};
	uvcg_probe_pack(&pr, b);
	assert_int_equal(out(&c, 1, 1, b, 34), 0);
	assert_int_equal(in(&c, 0x81, 1, 1, b, 34), 34);
	uvcg_probe_unpack(b, 34, &pr);
	assert_int_equal(pr.format, 1);
	assert_int_equal(pr.frame, 2);
	assert_int_equal(pr.interval, 666667);
	assert_int_equal(pr.max_frame, 640 * 480 * 2);
	assert_int_equal(uvcg_probe_format(&p, &pr), UVCG_YUYV);
	assert_int_equal(uvcg_probe_size(&p, &pr).width, 640);
	/* GET_MIN/GET_MAX: the shortest and the longest interval */
	assert_int_equal(in(&c, 0x82, 1, 1, b, 34), 34);
	uvcg_probe_unpack(b, 34, &pr);
	assert_int_equal(pr.interval, 333333);
	assert_int_equal(in(&c, 0x83, 1, 1, b, 34), 34);
	uvcg_probe_unpack(b, 34, &pr);
	assert_int_equal(pr.interval, 666667);
	/* a format and frame that do not exist: the first ones */
	pr = (struct uvcg_probe){.format = 9, .frame = 0, .interval = 333333};
	uvcg_probe_pack(&pr, b);
	assert_int_equal(out(&c, 2, 1, b, 34), 1);
	assert_true(c.committed);
	assert_int_equal(c.commit.format, 1);
	assert_int_equal(c.commit.frame, 1);
	assert_int_equal(in(&c, 0x81, 2, 1, b, 26), 26);
	/* GET_LEN and GET_INFO */
	assert_int_equal(in(&c, 0x85, 1, 1, b, 2), 2);
	assert_int_equal(b[0] | b[1] << 8, 34);
	assert_int_equal(in(&c, 0x86, 2, 1, b, 1), 1);
	assert_int_equal(b[0], 3);
	/* a probe too short to be one: refused, said by the error code */
	assert_int_equal(out(&c, 1, 1, b, 10), -EPIPE);
	assert_int_equal(in(&c, 0x81, 2, 0, b, 1), 1);
	assert_int_equal(b[0], 0x04);
}

static void test_controls(void **state)
{
	struct uvcg_params p = parse_ok("");
	struct uvcg_ctrl c;
	uint8_t b[4], v[2] = {0xf6, 0xff}; /* -10 */

	(void)state;
	uvcg_ctrl_init(&c, &p);
	/* brightness on the processing unit (entity 2 of interface 0) */
	assert_int_equal(in(&c, 0x86, 2, 0x0200, b, 1), 1);
	assert_int_equal(b[0], 3);
	assert_int_equal(in(&c, 0x82, 2, 0x0200, b, 2), 2);
	assert_int_equal((int16_t)(b[0] | b[1] << 8), -64);
	assert_int_equal(out(&c, 2, 0x0200, v, 2), 0);
	assert_int_equal(in(&c, 0x81, 2, 0x0200, b, 2), 2);
	assert_int_equal((int16_t)(b[0] | b[1] << 8), -10);
	/* contrast past its maximum (95): refused, the value kept */
	v[0] = 96, v[1] = 0;
	assert_int_equal(out(&c, 3, 0x0200, v, 2), -EPIPE);
	assert_int_equal(in(&c, 0x81, 2, 0, b, 1), 1);
	assert_int_equal(b[0], 0x04);
	assert_int_equal(in(&c, 0x81, 3, 0x0200, b, 2), 2);
	assert_int_equal(b[0], 32);
	/* a control not declared, a unit that does not exist, a request not class */
	assert_int_equal(in(&c, 0x81, 4, 0x0200, b, 2), -EPIPE);
	assert_int_equal(in(&c, 0x81, 2, 0, b, 1), 1);
	assert_int_equal(b[0], 0x06);
	assert_int_equal(in(&c, 0x81, 2, 0x0900, b, 2), -EPIPE);
	assert_int_equal(in(&c, 0x81, 2, 0, b, 1), 1);
	assert_int_equal(b[0], 0x05);
	assert_int_equal(c.stalls, 3);
}

static void test_payloads(void **state)
{
	uint8_t h[UVCG_HEADER_BYTES];
	/* 640x480 YUYV = 614400 B; 32768 B payloads carry 32756 B: 18 full + 24792 B */
	uint64_t n = 614400;

	(void)state;
	assert_int_equal(uvcg_payloads(n, 32768), 19);
	assert_int_equal(uvcg_payload_data(n, 32768, 0), 32756);
	assert_int_equal(uvcg_payload_data(n, 32768, 18), 614400 - 18 * 32756);
	assert_int_equal(uvcg_payload_data(n, 32768, 19), 0);
	assert_int_equal(uvcg_frame_wire_bytes(n, 32768), 614400 + 19 * 12);
	assert_int_equal(uvcg_payloads(0, 32768), 1);
	/* a short payload of whole packets needs a ZLP; a full one or a short packet does not */
	assert_true(uvcg_payload_zlp(1024, 32768, 512));
	assert_false(uvcg_payload_zlp(32768, 32768, 512));
	assert_false(uvcg_payload_zlp(1000, 32768, 512));
	uvcg_header(h, true, true, 0x11223344, 0x55667788, 0x7ff);
	assert_int_equal(h[0], 12);
	assert_int_equal(h[1], 0x80 | 0x08 | 0x04 | 0x02 | 0x01);
	assert_int_equal(h[2], 0x44);
	assert_int_equal(h[5], 0x11);
	assert_int_equal(h[6], 0x88);
	assert_int_equal(h[10], 0xff);
	assert_int_equal(h[11], 0x07);
	uvcg_header(h, false, false, 0, 0, 0x800);
	assert_int_equal(h[1], 0x80 | 0x08 | 0x04);
	assert_int_equal(h[11], 0);
	/* 48 MHz: 1 s is 48e6 ticks; the SOF count wraps at 2048 ms */
	assert_int_equal(uvcg_stc(1000000000ull), 48000000u);
	assert_int_equal(uvcg_stc(1500), 72);
	assert_int_equal(uvcg_sof(2049000000ull), 2049 % 2048);
}

static void test_pace(void **state)
{
	struct uvcg_pace p;
	uint64_t slot = 99;
	const uint64_t ms = 1000000;

	(void)state;
	/* 10 ms frames from t = 1000 ms */
	uvcg_pace_start(&p, 1000 * ms, 10 * ms, 0);
	assert_int_equal(uvcg_pace_next(&p, 995 * ms, &slot), 5 * ms);
	assert_int_equal(uvcg_pace_next(&p, 1000 * ms, &slot), 0);
	assert_int_equal(slot, 0);
	uvcg_pace_sent(&p);
	/* frame 0 went out in 4 ms: wait for slot 1 */
	assert_int_equal(uvcg_pace_next(&p, 1004 * ms, &slot), 6 * ms);
	/* slot 1 sent late by 1 ms: still itself, nothing dropped */
	assert_int_equal(uvcg_pace_next(&p, 1011 * ms, &slot), 0);
	assert_int_equal(slot, 1);
	uvcg_pace_sent(&p);
	/* it took 25 ms: slots 2 and 3 came meanwhile, 2 is dropped for 3 */
	assert_int_equal(uvcg_pace_next(&p, 1036 * ms, &slot), 0);
	assert_int_equal(slot, 3);
	assert_int_equal(p.late, 1);
	assert_int_equal(p.slots, 4);
	/* a stream of 5 frames: slot 4, then none */
	uvcg_pace_start(&p, 0, 10 * ms, 5);
	assert_int_equal(uvcg_pace_next(&p, 100 * ms, &slot), 0);
	assert_int_equal(slot, 4);
	assert_int_equal(p.late, 4);
	assert_int_equal(uvcg_pace_next(&p, 200 * ms, &slot), -ENOSPC);
}

static void test_frames(void **state)
{
	struct uvcg_frames f;
	struct uvcg_size s = {64, 48};
	const uint8_t *a, *b;
	size_t la, lb;

	(void)state;
	assert_int_equal(uvcg_frames_make(&f, UVCG_YUYV, s), 0);
	assert_int_equal(f.n, UVCG_RING);
	a = uvcg_frames_get(&f, 0, &la);
	b = uvcg_frames_get(&f, 1, &lb);
	assert_int_equal(la, 64 * 48 * 2);
	/* the bar moved */
	assert_true(memcmp(a, b, la) != 0);
	assert_ptr_equal(uvcg_frames_get(&f, UVCG_RING, &lb), a);
	uvcg_frames_release(&f);
	if (!uvcg_have_jpeg()) {
		assert_int_equal(uvcg_frames_make(&f, UVCG_MJPG, s), -ENOTSUP);
		return;
	}
	assert_int_equal(uvcg_frames_make(&f, UVCG_MJPG, s), 0);
	a = uvcg_frames_get(&f, 0, &la);
	/* a JPEG: SOI first, EOI last, smaller than the pixels */
	assert_true(la > 4 && la < 64 * 48 * 2);
	assert_int_equal(a[0], 0xff);
	assert_int_equal(a[1], 0xd8);
	assert_int_equal(a[la - 2], 0xff);
	assert_int_equal(a[la - 1], 0xd9);
	uvcg_frames_release(&f);
}

/* the ceiling's packets per frame, against the camera's own payload plan */
static void test_bulk_ceiling(void **state)
{
	struct usb_uvc_bulk_frame f;
	uint64_t i, n = 460800, packets = 0;

	(void)state;
	/* 640x360 YUYV at high speed, 32 KiB payloads: 14 x 64 packets + 2228 B in 5 */
	assert_int_equal(usb_uvc_bulk_frame(USB_SPEED_HIGH, 32768, (double)n, &f), 0);
	assert_near(f.payloads, 15, 0);
	assert_near(f.packets, 14 * 64 + 5, 0);
	assert_near(f.fps, 104000.0 / 901, 1e-9);
	assert_near(f.wire_bytes, (double)uvcg_frame_wire_bytes(n, 32768), 0);
	for (i = 0; i < uvcg_payloads(n, 32768); i++) {
		uint32_t len = uvcg_payload_data(n, 32768, i) + UVCG_HEADER_BYTES;

		packets += (len + 511) / 512 + uvcg_payload_zlp(len, 32768, 512);
	}
	assert_int_equal(packets, (uint64_t)f.packets);
	/* a 512 B payload (500 + 12) short of the maximum: one packet and a ZLP */
	assert_int_equal(usb_uvc_bulk_frame(USB_SPEED_HIGH, 1036, 500, &f), 0);
	assert_near(f.packets, 2, 0);
	assert_true(uvcg_payload_zlp(512, 1036, 512));
	/* full speed: 19 x 64 B a frame, 19000 packets a second */
	assert_int_equal(usb_uvc_bulk_frame(USB_SPEED_FULL, 32768, 1000, &f), 0);
	assert_near(f.packets, 16, 0);
	assert_near(f.fps, 19000.0 / 16, 1e-9);
	/* a payload with no room past its header; no bulk at low speed */
	assert_int_equal(usb_uvc_bulk_frame(USB_SPEED_HIGH, 12, 1000, &f), -EINVAL);
	assert_int_equal(usb_uvc_bulk_frame(USB_SPEED_LOW, 32768, 1000, &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_params),	   cmocka_unit_test(test_params_refused),
	    cmocka_unit_test(test_descriptors),	   cmocka_unit_test(test_descriptors_limit),
	    cmocka_unit_test(test_strings),	   cmocka_unit_test(test_probe_commit),
	    cmocka_unit_test(test_controls),	   cmocka_unit_test(test_payloads),
	    cmocka_unit_test(test_pace),	   cmocka_unit_test(test_frames),
	    cmocka_unit_test(test_bulk_ceiling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

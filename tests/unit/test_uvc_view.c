// SPDX-License-Identifier: MIT
/*
 * classes/video/uvc_view: a camera's UVC facts as the rows `usbperf limits uvc
 * --device` and `usbperf video` print, on the Canyon CNE-CWC2 descriptors
 * (tests/fixtures/uvc). The streaming rows are what `usbperf video` adds
 * after a pass on a USB camera: no camera here to run it for real, so the
 * pass is made by hand. Figures worked by hand in test_uvc.c and
 * tests/integration/uvc_facts.sh: alt 5 = 3 x 800 B per 125 us = 19.2 MB/s
 * bus, 19.104 MB/s payload; YUY2 640x480 at 30 fps needs 18.432 MB/s.
 */
#include "uvc_fixture.h"

#include "classes/video/uvc_view.h"

#include <math.h>
#include <string.h>

static struct uvc_camera camera(enum usb_speed s, int cur_alt)
{
	struct uvc_camera c = {.speed = s, .capable = USB_SPEED_UNKNOWN};

	c.device = strdup("1-6");
	c.dir = strdup("/sys/bus/usb/devices/1-6");
	c.info = parse("canyon_cne_cwc2.hex", s);
	for (unsigned k = 0; k < UVC_MAX_STREAMS; k++)
		c.sysfs.cur_alt[k] = -1;
	c.sysfs.cur_alt[0] = cur_alt;
	c.sysfs_read = true;
	snprintf(c.sysfs.params[0].name, sizeof(c.sysfs.params[0].name), "nodrop");
	snprintf(c.sysfs.params[0].value, sizeof(c.sysfs.params[0].value), "1");
	c.sysfs.n_params = 1;
	return c;
}

/* a pass at YUYV 640x480, 30/1 fps, achieving fps */
static struct video_pass pass(double fps)
{
	struct video_pass p = {0};

	assert_int_equal(video_fourcc_parse("YUYV", &p.set.fourcc), 0);
	p.set.width = 640;
	p.set.height = 480;
	p.set.fps_num = 30;
	p.set.fps_den = 1;
	p.st.fps = fps;
	p.st.bytes_mean = p.st.bytes_max = 614400;
	p.self_cpu_pct = 5;
	return p;
}

static bool has_finding(const struct uvc_view *v, const char *id)
{
	for (size_t i = 0; i < v->findings.n; i++)
		if (!strcmp(v->findings.v[i].id, id))
			return true;
	return false;
}

static void test_streaming_alt_carries(void **state)
{
	struct uvc_camera c = camera(USB_SPEED_HIGH, 5);
	struct uvc_view v = UVC_VIEW_INIT;
	struct video_pass p = pass(29.97);
	const struct uvc_streaming_row *r;

	(void)state;
	uvc_view_add_streaming(&v, &c, &p);
	assert_int_equal(v.nstreaming, 1);
	r = &v.streaming[0];
	assert_string_equal(r->device, "1-6");
	assert_int_equal(r->ifnum, 1);
	assert_int_equal(r->alt, 5);
	assert_string_equal(r->transfer, "isochronous");
	assert_true(fabs(r->bus_mb_s - 19.2) < 1e-9);
	assert_true(fabs(r->ceiling_mb_s - 19.104) < 1e-9);
	assert_string_equal(r->derivation, "3 x 800 B per 125 us microframe");
	/* interval 333333 x 100 ns: 30.00003 fps */
	assert_true(fabs(r->need_mb_s - 614400 * (1e7 / 333333) / 1e6) < 1e-9);
	assert_string_equal(r->basis, "pixels");
	assert_int_equal(r->smallest_alt, 5);
	assert_string_equal(r->carries, "yes");
	/* 29.97 of 30: 0.1% short, below the threshold; no drops */
	assert_false(has_finding(&v, "uvc.alt_too_small"));
	assert_false(has_finding(&v, "video.fps_below_nominal"));
	uvc_view_release(&v);
	uvc_camera_release(&c);
}

static void test_streaming_alt_too_small(void **state)
{
	struct uvc_camera c = camera(USB_SPEED_HIGH, 4);
	struct uvc_view v = UVC_VIEW_INIT;
	struct video_pass p = pass(20.5);

	(void)state;
	uvc_view_add_streaming(&v, &c, &p);
	assert_int_equal(v.streaming[0].alt, 4);
	assert_true(fabs(v.streaming[0].ceiling_mb_s - 12.704) < 1e-9);
	assert_string_equal(v.streaming[0].carries, "no");
	assert_int_equal(v.streaming[0].smallest_alt, 5);
	assert_true(has_finding(&v, "uvc.alt_too_small"));
	assert_true(has_finding(&v, "video.fps_below_nominal"));
	uvc_view_release(&v);
	uvc_camera_release(&c);
}

/* `usbperf video` has no topology findings: the link is judged here (run judges it elsewhere) */
static void test_streaming_judges_link(void **state)
{
	struct uvc_camera c = camera(USB_SPEED_FULL, 1);
	struct uvc_view v = UVC_VIEW_INIT;
	struct video_pass p = pass(30);

	(void)state;
	uvc_view_add_streaming(&v, &c, &p);
	assert_true(has_finding(&v, "uvc.full_speed_link"));
	uvc_view_release(&v);
	uvc_camera_release(&c);
}

static void test_camera_rows(void **state)
{
	struct uvc_camera c = camera(USB_SPEED_HIGH, 5);
	struct uvc_view v = UVC_VIEW_INIT;
	const struct uvc_alt_row *a6;
	const struct uvc_mode_row *m = NULL;

	(void)state;
	uvc_view_add_camera(&v, &c);
	uvc_view_add_camera(&v, &c);
	uvc_view_add_modes(&v, &c);
	assert_int_equal(v.ncams, 2);
	assert_int_equal(v.nstreams, 2);
	assert_int_equal(v.nalts, 14);
	assert_int_equal(v.nparams, 1); /* the module's parameters once */
	assert_int_equal(v.streams[0].current_alt, 5);
	assert_true(v.alts[5].current && !v.alts[6].current && !v.alts[0].current);
	assert_string_equal(v.alts[0].transfer, "none");
	assert_true(isnan(v.alts[0].bus_mb_s));
	a6 = &v.alts[6];
	assert_string_equal(a6->max_packet_raw, "0x1400");
	assert_int_equal(a6->max_packet, 1024);
	assert_int_equal(a6->mult, 3);
	assert_true(isnan(a6->burst));
	assert_true(fabs(a6->bytes_per_interval - 3072) < 1e-9);
	assert_true(fabs(a6->bus_mb_s - 24.576) < 1e-9);
	assert_true(fabs(a6->payload_mb_s - 24.48) < 1e-9);
	assert_int_equal(v.nmodes, 18);
	for (size_t i = 0; i < v.nmodes; i++)
		if (!strcmp(v.modes[i].fourcc, "YUY2") && v.modes[i].width == 1280 &&
		    v.modes[i].height == 960)
			m = &v.modes[i];
	assert_non_null(m);
	assert_int_equal(m->smallest_alt, 6);
	assert_int_equal(m->largest_alt, 6);
	assert_string_equal(m->current_carries, "no");
	uvc_view_release(&v);
	uvc_camera_release(&c);
}

/* limits --device: the camera, then its alt settings, the first table (what CSV prints) */
static void test_describe_order(void **state)
{
	struct uvc_camera c = camera(USB_SPEED_HIGH, 5);
	struct uvc_view v = UVC_VIEW_INIT;
	struct report r = {.command = "limits uvc"};

	(void)state;
	uvc_view_add_camera(&v, &c);
	uvc_view_add_modes(&v, &c);
	uvc_view_describe(&v, &r);
	assert_true(r.nsec >= 3);
	assert_string_equal(r.sec[0].key, "uvc");
	assert_int_equal(r.sec[0].kind, SECTION_OBJECT);
	assert_string_equal(r.sec[1].key, "uvc_alt_settings");
	for (size_t i = 0; i < r.nsec; i++)
		assert_string_not_equal(r.sec[i].key, "uvc_streaming");
	uvc_view_release(&v);
	uvc_camera_release(&c);
}

/* a node off USB: no camera, no sections at all (not even empty tables) */
static void test_describe_nothing_without_camera(void **state)
{
	struct uvc_view v = UVC_VIEW_INIT;
	struct report r = {.command = "video"};

	(void)state;
	uvc_view_describe(&v, &r);
	assert_int_equal(r.nsec, 0);
	uvc_view_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_streaming_alt_carries),
	    cmocka_unit_test(test_streaming_alt_too_small),
	    cmocka_unit_test(test_streaming_judges_link),
	    cmocka_unit_test(test_camera_rows),
	    cmocka_unit_test(test_describe_order),
	    cmocka_unit_test(test_describe_nothing_without_camera),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

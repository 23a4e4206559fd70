// SPDX-License-Identifier: MIT
/*
 * platform/usb/uvc: the debugfs stats parser, the sysfs/debugfs reader on a
 * made-up tree, and the findings over a real camera's descriptors
 * (tests/fixtures/uvc) with made-up measurements.
 */
#include "uvc_fixture.h"
#include "util/sysroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* uvc_video_stats_dump()'s text, as Linux 5.x-6.x prints it */
static void test_stats_parse(void **state)
{
	static const char text[] = "frames:  1200\npackets: 309600\nempty:   1434\n"
				   "errors:  3\ninvalid: 7\n"
				   "pts: 0 early, 1 initial, 1199 ok\n"
				   "scr: 1200 count ok, 1199 diff ok\n"
				   "sof: 0 <= sof <= 2047, freq 1.000 kHz\n"
				   "junk line without colon\n";
	struct uvc_kv kv[UVC_MAX_STATS];
	unsigned n;

	(void)state;
	n = uvc_parse_stats(text, kv, UVC_MAX_STATS);
	assert_int_equal(n, 13);
	assert_string_equal(uvc_kv_get(kv, n, "frames"), "1200");
	assert_string_equal(uvc_kv_get(kv, n, "packets"), "309600");
	assert_string_equal(uvc_kv_get(kv, n, "empty"), "1434");
	assert_string_equal(uvc_kv_get(kv, n, "errors"), "3");
	assert_string_equal(uvc_kv_get(kv, n, "invalid"), "7");
	assert_string_equal(uvc_kv_get(kv, n, "pts.early"), "0");
	assert_string_equal(uvc_kv_get(kv, n, "pts.ok"), "1199");
	assert_string_equal(uvc_kv_get(kv, n, "scr.diff_ok"), "1199");
	assert_string_equal(uvc_kv_get(kv, n, "sof.min"), "0");
	assert_string_equal(uvc_kv_get(kv, n, "sof.max"), "2047");
	assert_string_equal(uvc_kv_get(kv, n, "sof.freq"), "1.000");
	assert_null(uvc_kv_get(kv, n, "junk line without colon"));
	/* the cap holds */
	assert_int_equal(uvc_parse_stats(text, kv, 3), 3);
}

static void put(const char *root, const char *path, const char *data)
{
	char full[1024], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = full + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "we");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static void test_sysfs(void **state)
{
	char root[] = "/tmp/test_uvc.XXXXXX";
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_HIGH);
	struct uvc_sysfs s;
	char cmd[256];

	(void)state;
	assert_non_null(mkdtemp(root));
	put(root, "/sys/bus/usb/devices/3-1/busnum", "3\n");
	put(root, "/sys/bus/usb/devices/3-1/devnum", "7\n");
	put(root, "/sys/bus/usb/devices/3-1/bConfigurationValue", "1\n");
	/* sysfs prints bAlternateSetting with "%2d" */
	put(root, "/sys/bus/usb/devices/3-1/3-1:1.1/bAlternateSetting", " 5\n");
	put(root, "/sys/module/uvcvideo/parameters/nodrop", "Y\n");
	put(root, "/sys/module/uvcvideo/parameters/quirks", "-1\n");
	put(root, "/sys/module/uvcvideo/parameters/timeout", "5000\n");
	put(root, "/sys/kernel/debug/usb/uvcvideo/3-7-1/stats", "frames:  42\nerrors:  1\n");
	sysroot_set(root);
	assert_int_equal(uvc_read_sysfs("/sys/bus/usb/devices/3-1", info, &s), 0);
	assert_int_equal(s.cur_alt[0], 5);
	assert_int_equal(s.cur_alt[1], -1);
	assert_int_equal(s.n_params, 3);
	assert_string_equal(uvc_kv_get(s.params, s.n_params, "nodrop"), "Y");
	assert_string_equal(uvc_kv_get(s.params, s.n_params, "quirks"), "-1");
	assert_string_equal(uvc_kv_get(s.params, s.n_params, "timeout"), "5000");
	assert_true(s.has_stats);
	assert_string_equal(s.stats_dir, "3-7-1");
	assert_string_equal(uvc_kv_get(s.stats, s.n_stats, "frames"), "42");

	/* before Linux 3.13 the directory was "<bus>-<dev>" */
	snprintf(cmd, sizeof(cmd), "rm -r '%s/sys/kernel/debug/usb/uvcvideo/3-7-1'", root);
	assert_int_equal(system(cmd), 0);
	put(root, "/sys/kernel/debug/usb/uvcvideo/3-7/stats", "frames:  9\n");
	assert_int_equal(uvc_read_sysfs("/sys/bus/usb/devices/3-1", info, &s), 0);
	assert_string_equal(s.stats_dir, "3-7");
	assert_string_equal(uvc_kv_get(s.stats, s.n_stats, "frames"), "9");

	/* nothing there: unknowns, no error */
	assert_int_equal(uvc_read_sysfs("/sys/bus/usb/devices/9-9", info, &s), 0);
	assert_int_equal(s.cur_alt[0], -1);
	assert_false(s.has_stats);
	sysroot_set("");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(info);
}

static const struct finding *find(const struct finding_list *l, const char *id)
{
	size_t k;

	for (k = 0; k < l->n; k++)
		if (!strcmp(l->v[k].id, id))
			return &l->v[k];
	return NULL;
}

static void test_findings_alt(void **state)
{
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_HIGH);
	struct finding_list l = FINDING_LIST_INIT;
	struct uvc_facts f = {
	    .subject = "3-1", .info = info, .stream = 0, .cur_alt = 4, .capable = USB_SPEED_HIGH};
	const struct finding *x;

	(void)state;
	/* YUY2 640x480 at 30 fps needs alt 5; the driver sits on alt 4 (at most 20.67 fps) */
	f.frame = uvc_find_frame(info, "YUY2", 640, 480);
	uvc_findings(&f, NULL, &l);
	assert_int_equal(l.n, 1);
	x = find(&l, "uvc.alt_too_small");
	assert_non_null(x);
	assert_string_equal(x->severity, "warn");
	assert_string_equal(x->subject, "3-1");
	assert_string_equal(x->message, "the mode YUY2 640x480 at 30 fps needs more than "
					"alternate setting 4 carries: at most 20.67 fps");
	assert_non_null(strstr(x->evidence, "alt 5 carries it"));
	assert_non_null(x->fix);
	finding_list_release(&l);

	/* on alt 5: nothing to say */
	f.cur_alt = 5;
	uvc_findings(&f, NULL, &l);
	assert_int_equal(l.n, 0);
	/* 1600x1200 at 5 fps exceeds alt 5 too */
	f.frame = uvc_find_frame(info, "YUY2", 1600, 1200);
	uvc_findings(&f, NULL, &l);
	assert_non_null(find(&l, "uvc.alt_too_small"));
	finding_list_release(&l);
	free(info);
}

static void test_findings_link(void **state)
{
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_FULL);
	struct finding_list l = FINDING_LIST_INIT;
	struct uvc_facts f = {.subject = "1-1", .info = info, .cur_alt = -1};
	const struct finding *x;

	(void)state;
	/*
	 * At full speed the largest alt carries 800 - 12 B of payload per 1 ms
	 * frame: YUY2 640x480 (614 400 B) takes 780 frames, 1.28 fps.
	 */
	f.frame = uvc_find_frame(info, "YUY2", 640, 480);
	uvc_findings(&f, NULL, &l);
	assert_int_equal(l.n, 2);
	x = find(&l, "uvc.full_speed_link");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "bcdUSB 2.00"));
	x = find(&l, "uvc.mode_exceeds_link");
	assert_non_null(x);
	assert_string_equal(x->message, "the mode YUY2 640x480 at 30 fps needs more than the "
					"largest alternate setting (3) carries: at most 1.282 fps");
	finding_list_release(&l);
	free(info);
}

static void test_findings_measured(void **state)
{
	struct uvc_info *info = parse("canyon_cne_cwc2.hex", USB_SPEED_HIGH);
	struct finding_list l = FINDING_LIST_INIT;
	struct uvc_facts f = {.subject = "3-1", .info = info, .cur_alt = 3};
	struct uvc_measured m = {.nominal_fps = 30,
				 .achieved_fps = 24,
				 .drops_pct = 5,
				 .frame_bytes_mean = 150000,
				 .frame_bytes_max = 250000,
				 .self_cpu_pct = 97};
	const struct finding *x;

	(void)state;
	/* MJPEG 1280x720 at 15 fps on alt 3: carried (the estimate needs alt 3) */
	f.frame = uvc_find_frame(info, "MJPG", 1280, 720);
	uvc_findings(&f, &m, &l);
	assert_int_equal(l.n, 4);
	x = find(&l, "video.fps_below_nominal");
	assert_non_null(x);
	assert_string_equal(x->message, "achieved 24.00 fps of the nominal 30: 20.0% below");
	x = find(&l, "video.drops");
	assert_non_null(x);
	assert_string_equal(x->message, "5.0% of frames dropped");
	/* 250 000 B > 1280 x 720 x 2 / 10 = 184 320 B */
	x = find(&l, "uvc.mjpeg_above_ratio");
	assert_non_null(x);
	assert_string_equal(x->message, "MJPEG frames up to 250000 B, above the 184320 B assumed "
					"(YUYV size / 10)");
	assert_non_null(find(&l, "video.cpu_bound"));
	finding_list_release(&l);

	/* a clean pass: within 2% of nominal, no drops, small frames, idle CPU */
	m = (struct uvc_measured){.nominal_fps = 30,
				  .achieved_fps = 29.5,
				  .drops_pct = 0,
				  .frame_bytes_mean = 90000,
				  .frame_bytes_max = 120000,
				  .self_cpu_pct = 3};
	uvc_findings(&f, &m, &l);
	assert_int_equal(l.n, 0);
	free(info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats_parse),	      cmocka_unit_test(test_sysfs),
	    cmocka_unit_test(test_findings_alt),      cmocka_unit_test(test_findings_link),
	    cmocka_unit_test(test_findings_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

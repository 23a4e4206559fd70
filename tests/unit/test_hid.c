// SPDX-License-Identifier: MIT
/*
 * classes/hid: the report descriptor parser (sizes, IDs, refusals), the passes
 * on a SOCK_SEQPACKET pair standing in for a hidraw node (one read, one
 * report), the ceilings and the findings.
 */
#include "classes/hid/fields.h"
#include "render/render.h"
#include "classes/hid/io.h"
#include "classes/hid/rdesc.h"
#include "unit.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- report descriptors --------------------------------------------------- */

/* the boot keyboard (HID 1.11 appendix B.1): 8 B input, 1 B output, no IDs */
static const uint8_t keyboard[] = {
    0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05, 0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00, 0x25, 0x01,
    0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x03, 0x95, 0x05, 0x75, 0x01,
    0x05, 0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75, 0x03, 0x91, 0x03, 0x95, 0x06,
    0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xc0,
};

/* the lab's vendor descriptor: 64 x 8 bit in, 64 x 8 bit out */
static const uint8_t vendor64[] = {
    0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08,
    0x95, 0x40, 0x09, 0x01, 0x81, 0x02, 0x09, 0x01, 0x95, 0x40, 0x91, 0x02, 0xc0,
};

/*
 * numbered reports: ID 1 3 B in; Push; ID 2 1024 B in (a 2-byte count) and
 * 2 B feature; Pop; 1 more byte for ID 1; a long item
 */
static const uint8_t numbered[] = {
    0xa1, 0x01, 0x85, 0x01, 0x75, 0x08, 0x95, 0x03, 0x81, 0x02, 0xa4,
    0x85, 0x02, 0x96, 0x00, 0x04, 0x81, 0x02, 0x95, 0x02, 0xb1, 0x02,
    0xb4, 0x95, 0x01, 0x81, 0x02, 0xfe, 0x02, 0x10, 0xaa, 0xbb, /* a long item, skipped */
    0xc0,
};

static void test_rdesc_sizes(void **state)
{
	struct hid_rdesc *d = calloc(1, sizeof(*d));
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_int_equal(hid_rdesc_parse(keyboard, sizeof(keyboard), d, &why), 0);
	assert_false(d->numbered);
	assert_int_equal(d->n, 1);
	assert_int_equal(hid_report_bytes(&d->reports[0], HID_REPORT_INPUT), 8);
	assert_int_equal(hid_report_bytes(&d->reports[0], HID_REPORT_OUTPUT), 1);
	assert_int_equal(hid_report_bytes(&d->reports[0], HID_REPORT_FEATURE), 0);

	assert_int_equal(hid_rdesc_parse(vendor64, sizeof(vendor64), d, &why), 0);
	assert_int_equal(hid_report_bytes(&d->reports[0], HID_REPORT_INPUT), 64);
	assert_int_equal(hid_report_bytes(&d->reports[0], HID_REPORT_OUTPUT), 64);

	/* after Pop the ID is 1 again, with size 8: ID 1 gets 1 more byte */
	assert_int_equal(hid_rdesc_parse(numbered, sizeof(numbered), d, &why), 0);
	assert_true(d->numbered);
	assert_int_equal(d->n, 2);
	assert_int_equal(d->reports[0].id, 1);
	assert_int_equal(hid_report_bytes(&d->reports[0], HID_REPORT_INPUT), 1 + 4);
	assert_int_equal(d->reports[1].id, 2);
	assert_int_equal(hid_report_bytes(&d->reports[1], HID_REPORT_INPUT), 1 + 1024);
	assert_int_equal(hid_report_bytes(&d->reports[1], HID_REPORT_FEATURE), 1 + 2);
	assert_int_equal(hid_rdesc_largest(d, HID_REPORT_INPUT), 1);
	assert_int_equal(hid_rdesc_largest(d, HID_REPORT_OUTPUT), -ENOENT);
	strbuf_release(&why);
	free(d);
}

/*
 * The application of each top-level collection: a keyboard is Generic
 * Desktop, the lab's vendor64 0xFF00; a 32-bit Usage names its own page;
 * a Push/Pop restores the page; one desktop collection among vendor ones
 * is not vendor-only.
 */
static void test_rdesc_application(void **state)
{
	/* Usage Page 0x01 pushed, Usage Page 0xFF01, Pop (0x01 again), then a 32-bit usage 0xFF02:0001 */
	static const uint8_t extended[] = {
	    0x05, 0x01, 0xa4, 0x06, 0x01, 0xff, 0xb4, 0x0b, 0x01, 0x00, 0x02, 0xff,
	    0xa1, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xc0,
	};
	/* the same after Pop, with a 16-bit usage: the page is Generic Desktop's */
	static const uint8_t popped[] = {
	    0x05, 0x01, 0xa4, 0x06, 0x01, 0xff, 0xb4, 0x09, 0x01,
	    0xa1, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xc0,
	};
	/* a vendor collection, then a desktop one */
	static const uint8_t mixed[] = {
	    0x06, 0x00, 0xff, 0x09, 0x01, 0xa1, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xc0,
	    0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x81, 0x02, 0xc0,
	};
	struct hid_rdesc *d = calloc(1, sizeof(*d));

	(void)state;
	assert_int_equal(hid_rdesc_parse(keyboard, sizeof(keyboard), d, NULL), 0);
	assert_int_equal(d->top_collections, 1);
	assert_int_equal(d->top_usage_page, 0x01);
	assert_false(hid_rdesc_vendor_only(d));
	assert_int_equal(hid_rdesc_parse(vendor64, sizeof(vendor64), d, NULL), 0);
	assert_int_equal(d->top_usage_page, 0xff00);
	assert_true(hid_rdesc_vendor_only(d));
	assert_int_equal(hid_rdesc_parse(extended, sizeof(extended), d, NULL), 0);
	assert_int_equal(d->top_usage_page, 0xff02);
	assert_true(hid_rdesc_vendor_only(d));
	assert_int_equal(hid_rdesc_parse(popped, sizeof(popped), d, NULL), 0);
	assert_int_equal(d->top_usage_page, 0x01);
	assert_false(hid_rdesc_vendor_only(d));
	assert_int_equal(hid_rdesc_parse(mixed, sizeof(mixed), d, NULL), 0);
	assert_int_equal(d->top_collections, 2);
	assert_int_equal(d->vendor_top_collections, 1);
	assert_false(hid_rdesc_vendor_only(d));
	/* nested collections are not applications */
	assert_int_equal(hid_rdesc_parse(numbered, sizeof(numbered), d, NULL), 0);
	assert_int_equal(d->top_collections, 1);
	free(d);
}

static void test_rdesc_refusals(void **state)
{
	static const struct {
		uint8_t b[16];
		size_t len;
		const char *why;
	} cases[] = {
	    {{0x75}, 1, "truncated item (needs 1 data bytes) at byte 0"},
	    {{0x75, 0x08, 0x96, 0x00}, 4, "truncated item (needs 2 data bytes) at byte 2"},
	    {{0xfe, 0x05, 0x10, 0x00}, 4, "truncated long item at byte 0"},
	    {{0x85, 0x00}, 2, "Report ID 0 (1-255 allowed) at byte 0"},
	    {{0xb4}, 1, "Pop without Push at byte 0"},
	    {{0xc0}, 1, "End Collection without Collection at byte 0"},
	    {{0xa1, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02},
	     8,
	     "1 collection not ended at byte 8"},
	    {{0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0x85, 0x01, 0x81, 0x02},
	     10,
	     "report ID 1 after a report without ID at byte 8"},
	    {{0xa4, 0x85, 0x01, 0x75, 0x08, 0x95, 0x01, 0x81, 0x02, 0xb4, 0x81, 0x02},
	     12,
	     "a report without ID after numbered reports at byte 10"},
	    {{0x76, 0x01, 0x01}, 3, "Report Size 257 above 256 at byte 0"},
	    {{0x96, 0x01, 0x30}, 3, "Report Count 12289 above 12288 at byte 0"},
	    {{0x0c}, 1, "reserved item type at byte 0"},
	    {{0xd0}, 1, "reserved main item tag 13 at byte 0"},
	    {{0x05, 0x01}, 2, "no Input, Output or Feature item at byte 2"},
	    {{0}, 0, "descriptor of 0 bytes (1-4096 allowed) at byte 0"},
	};
	struct hid_rdesc *d = calloc(1, sizeof(*d));
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf why = STRBUF_INIT;

		d->n = 99; /* untouched on failure */
		assert_int_equal(hid_rdesc_parse(cases[i].b, cases[i].len, d, &why), -EINVAL);
		assert_string_equal(why.buf, cases[i].why);
		assert_int_equal(d->n, 99);
		strbuf_release(&why);
	}
	free(d);
}

/* a report past 64 KiB, and all 255 report IDs */
static void test_rdesc_limits(void **state)
{
	uint8_t big[] = {0x76, 0x00, 0x01, 0x96, 0x00, 0x30, 0x81, 0x02};
	uint8_t *many = malloc(256 * 4 + 8);
	struct hid_rdesc *d = calloc(1, sizeof(*d));
	struct strbuf why = STRBUF_INIT;
	size_t n = 0, i;

	(void)state;
	/* 12288 x 256 bits = 393216 B: past the 65535 B a report may have */
	assert_int_equal(hid_rdesc_parse(big, 8, d, &why), -EINVAL);
	assert_string_equal(why.buf, "report 0 is larger than 524280 bits at byte 6");
	many[n++] = 0x75, many[n++] = 0x08, many[n++] = 0x95, many[n++] = 0x01;
	for (i = 1; i <= 255; i++)
		many[n++] = 0x85, many[n++] = (uint8_t)i, many[n++] = 0x81, many[n++] = 0x02;
	assert_int_equal(hid_rdesc_parse(many, n, d, &why), 0);
	assert_int_equal(d->n, 255);
	assert_int_equal(hid_report_bytes(&d->reports[254], HID_REPORT_INPUT), 2);
	free(many);
	free(d);
	strbuf_release(&why);
}

/* ---- passes over a SOCK_SEQPACKET pair ----------------------------------- */

static void pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
}

static void test_pass_in(void **state)
{
	struct hid_io_config c = {
	    .count = 50, .report_bytes = 64, .first_timeout_s = 2, .idle_timeout_s = 1};
	uint8_t rep[64] = {0};
	struct hid_pass p;
	int sv[2], i;

	(void)state;
	pair(sv);
	for (i = 0; i < 60; i++) /* ten more than counted */
		assert_int_equal(write(sv[1], rep, sizeof(rep)), 64);
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_IN, &c, &p), 0);
	assert_string_equal(p.name, "in");
	assert_string_equal(p.ended, "count");
	assert_int_equal(p.reports, 50);
	assert_int_equal(p.bytes, 50 * 64);
	assert_int_equal(p.short_reads, 0);
	assert_true(p.reports_per_s > 0);
	assert_true(p.p50_us <= p.p99_us && p.p99_us <= p.max_us);
	assert_nan(p.ceiling_reports_per_s);
	/* ten left: the pass ends idle after them, with short reads counted */
	c.count = 0;
	c.report_bytes = 65;
	c.idle_timeout_s = 0.05;
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_IN, &c, &p), 0);
	assert_string_equal(p.ended, "idle");
	assert_int_equal(p.reports, 10);
	assert_int_equal(p.short_reads, 10);
	/* nothing at all: -ETIMEDOUT */
	c.first_timeout_s = 0.05;
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_IN, &c, &p), -ETIMEDOUT);
	assert_int_equal(p.reports, 0);
	close(sv[0]);
	close(sv[1]);
}

static void test_pass_send(void **state)
{
	struct hid_io_config c = {.count = 20, .report_bytes = 9, .report_id = 7};
	uint8_t got[64];
	struct hid_pass p;
	int sv[2], i;

	(void)state;
	pair(sv);
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_SEND, &c, &p), 0);
	assert_int_equal(p.reports, 20);
	assert_int_equal(p.bytes, 180);
	/* each report: the ID, then the sequence number little-endian */
	for (i = 0; i < 20; i++) {
		assert_int_equal(read(sv[1], got, sizeof(got)), 9);
		assert_int_equal(got[0], 7);
		assert_int_equal(got[1], i);
		assert_int_equal(got[2] | got[3] | got[4], 0);
	}
	/* hidraw: a 0 leads an unnumbered report; the report stays 9 B */
	c.report_id = 0;
	c.hidraw_write = true;
	c.count = 1;
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_OUT, &c, &p), 0);
	assert_int_equal(read(sv[1], got, sizeof(got)), 10);
	assert_int_equal(got[0], 0);
	assert_int_equal(p.bytes, 9);
	close(sv[0]);
	close(sv[1]);
}

/* the device side of the round trip, as a gadget running --echo */
struct echo_arg {
	int fd, r;
	struct hid_pass p;
};

static void *echo_thread(void *arg)
{
	struct hid_io_config c = {.count = 30, .report_bytes = 16, .first_timeout_s = 5};
	struct echo_arg *e = arg;

	e->r = hid_pass_run(e->fd, HID_PASS_ECHO, &c, &e->p);
	return NULL;
}

static void test_pass_latency(void **state)
{
	/* numbered (ID 3): what is written is what the gadget reads and echoes */
	struct hid_io_config c = {.count = 30,
				  .report_bytes = 16,
				  .report_id = 3,
				  .hidraw_write = true,
				  .first_timeout_s = 5,
				  .echo_timeout_s = 1};
	struct echo_arg echo = {0};
	struct hid_pass p;
	pthread_t t;
	int sv[2];

	(void)state;
	pair(sv);
	echo.fd = sv[1];
	assert_int_equal(pthread_create(&t, NULL, echo_thread, &echo), 0);
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_LATENCY, &c, &p), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_string_equal(p.ended, "count");
	assert_int_equal(p.reports, 30);
	assert_int_equal(p.lost, 0);
	assert_true(p.p50_us > 0 && p.p50_us <= p.max_us);
	assert_int_equal(echo.r, 0);
	assert_int_equal(echo.p.reports, 30);
	assert_string_equal(echo.p.ended, "count");
	close(sv[0]);
	close(sv[1]);
}

/* a report that never comes back is lost, not waited for forever */
static void test_pass_latency_lost(void **state)
{
	struct hid_io_config c = {.count = 1,
				  .report_bytes = 8,
				  .hidraw_write = true,
				  .first_timeout_s = 0.2,
				  .echo_timeout_s = 0.05};
	struct hid_pass p;
	int sv[2];

	(void)state;
	pair(sv);
	assert_int_equal(hid_pass_run(sv[0], HID_PASS_LATENCY, &c, &p), -ETIMEDOUT);
	assert_true(p.lost >= 2);
	assert_int_equal(p.reports, 0);
	close(sv[0]);
	close(sv[1]);
}

/* ---- ceilings and findings ----------------------------------------------- */

static struct hid_device lab_device(enum usb_speed s, unsigned max_packet, unsigned interval,
				    unsigned report)
{
	static char name[] = "hidraw0", hid[] = "0003:1D6B:0104.0001", dev[] = "2-1";
	struct hid_device d = {.name = name, .hid = hid};

	d.usb.device = dev;
	d.usb.speed = s;
	d.in = (struct hid_endpoint){.present = true,
				     .address = 0x81,
				     .max_packet = max_packet,
				     .mult = 1,
				     .interval = interval,
				     .report_bytes = report};
	d.in_bytes = report;
	assert_int_equal(hid_endpoint_ceiling(s, &d.in), 0);
	return d;
}

static bool has(const struct finding_list *l, const char *id, const char *msg)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id)) {
			if (msg && strcmp(l->v[i].message, msg))
				fail_msg("%s: '%s'", id, l->v[i].message);
			return true;
		}
	return false;
}

static void test_findings(void **state)
{
	struct hid_device d = lab_device(USB_SPEED_HIGH, 64, 4, 64);
	struct hid_pass p = {.kind = HID_PASS_IN,
			     .reports = 1000,
			     .reports_per_s = 250,
			     .p50_us = 4000,
			     .time_s = 4};
	struct finding_list l = FINDING_LIST_INIT;

	(void)state;
	/* bInterval 4 at high speed: 1 ms, 1000 reports/s of 64 B */
	assert_near(d.in.period_us, 1000, 1e-9);
	assert_near(d.in.ceiling.rates[0].reports_per_s, 1000, 1e-9);
	hid_pass_set_ceiling(&p, &d.in);
	assert_near(p.pct, 25, 1e-9);
	hid_findings(&d, &p, 1, &l);
	assert_true(has(&l, "hid.poll_slower",
			"reports arrive every 4000 us (p50), the endpoint asks for 1000 us: 4.0x "
			"slower than bInterval allows"));
	assert_false(has(&l, "hid.above_ceiling", NULL));
	assert_false(has(&l, "hid.report_split", NULL));
	assert_false(has(&l, "hid.full_speed", NULL));
	finding_list_release(&l);
	usb_hid_result_release(&d.in.ceiling);

	/* at the pace asked: no finding; faster than asked: the controller ignores bInterval */
	d = lab_device(USB_SPEED_HIGH, 64, 4, 64);
	p = (struct hid_pass){.kind = HID_PASS_IN,
			      .reports = 1000,
			      .reports_per_s = 999,
			      .p50_us = 1000,
			      .time_s = 1};
	hid_pass_set_ceiling(&p, &d.in);
	hid_findings(&d, &p, 1, &l);
	assert_int_equal(l.n, 0);
	p.reports_per_s = 2000;
	p.p50_us = 500;
	hid_findings(&d, &p, 1, &l);
	assert_true(has(&l, "hid.above_ceiling", NULL));
	assert_false(has(&l, "hid.reports_unread", NULL));
	finding_list_release(&l);

	/* the wire carried more than the reader read: hidraw's queue overflowed */
	p = (struct hid_pass){.kind = HID_PASS_IN,
			      .reports = 63,
			      .urbs_data = 1000,
			      .unread = 937,
			      .ended = "idle"};
	p.reports_per_s = 60000; /* 63 queued reports read at once: not the link's rate */
	p.p50_us = 16;
	hid_pass_set_ceiling(&p, &d.in);
	hid_findings(&d, &p, 1, &l);
	assert_false(has(&l, "hid.above_ceiling", NULL));
	assert_true(has(&l, "hid.reports_unread",
			"937 of the 1000 reports the host received were not read: the reader "
			"fell behind and hidraw's queue (63 reports) overflowed; the rate "
			"measured is the reader's, not the link's"));
	finding_list_release(&l);
	p.ended = "time";
	hid_findings(&d, &p, 1, &l);
	assert_true(has(&l, "hid.reports_unread",
			"937 of the 1000 reports the host received were not read (some may "
			"have come after the pass stopped reading): the reader fell behind and "
			"hidraw's queue (63 reports) overflowed; the rate measured is the "
			"reader's, not the link's"));
	finding_list_release(&l);
	/* none unread, or not known (no usbmon): no finding */
	p.unread = 0;
	hid_findings(&d, &p, 1, &l);
	assert_false(has(&l, "hid.reports_unread", NULL));
	p.unread = U64_UNKNOWN;
	hid_findings(&d, &p, 1, &l);
	assert_false(has(&l, "hid.reports_unread", NULL));
	finding_list_release(&l);
	usb_hid_result_release(&d.in.ceiling);

	/* full speed, 100 B reports in 64 B packets, bInterval 1 */
	d = lab_device(USB_SPEED_FULL, 64, 1, 100);
	hid_findings(&d, NULL, 0, &l);
	assert_true(has(&l, "hid.report_split",
			"the 100 B input report is split over 2 packets of up to 64 B"));
	assert_true(has(&l, "hid.full_speed",
			"full-speed HID: at most 500 reports/s; at high speed bInterval 1 allows "
			"8000/s (16x)"));
	finding_list_release(&l);
	usb_hid_result_release(&d.in.ceiling);
}

/* the text and CSV views come from the field tables: exact text */
static void test_render(void **state)
{
	struct hid_device d = lab_device(USB_SPEED_HIGH, 64, 4, 64);
	struct hid_pass p = {.kind = HID_PASS_IN,
			     .name = "in",
			     .path = "interrupt IN",
			     .ended = "idle",
			     .report_bytes = 64,
			     .reports = 300,
			     .bytes = 19200,
			     .time_s = 0.333,
			     .reports_per_s = 898.2,
			     .Bps = 57484.8,
			     .p50_us = 670,
			     .p99_us = 7455,
			     .max_us = 8949};
	static char node[] = "/dev/hidraw0", intf[] = "2-1:1.0", id[] = "1d6b:0104",
		    drv[] = "usbhid";
	struct report r = {.command = "hid"};
	struct hid_device_view v;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	d.node = node;
	d.usb.interface = intf;
	d.usb.vid_pid = id;
	d.usb.driver = drv;
	d.usb.speed_name = "high";
	d.out_bytes = 64;
	hid_pass_wire_unknown(&p); /* as hid_pass_run leaves an unmonitored pass */
	hid_pass_set_ceiling(&p, &d.in);
	hid_device_describe(&d, &v, &r);
	hid_passes_describe(&p, 1, &r);
	assert_int_equal(render_text(&r, &out), 0);
	assert_string_equal(
	    out.buf,
	    "HID device\n"
	    "  node                 /dev/hidraw0\n"
	    "  HID device           0003:1D6B:0104.0001\n"
	    "  USB device           2-1\n"
	    "  interface            2-1:1.0\n"
	    "  VID:PID              1d6b:0104\n"
	    "  speed                high\n"
	    "  driver               usbhid\n"
	    "  input report         64 B\n"
	    "  output report        64 B\n"
	    "  IN endpoint          0x81\n"
	    "  IN wMaxPacketSize    64 B\n"
	    "  IN packets/interval  1\n"
	    "  IN bInterval         4\n"
	    "  IN period            1000 us\n"
	    "  IN ceiling           1000.0 reports/s\n"
	    "  IN ceiling rate      64000 B/s\n"
	    "  OUT path             SET_REPORT (control)\n"
	    "\n"
	    "Reports (inter-arrival for in/receive/echo, time per write for out/send, round trip "
	    "for latency)\n"
	    "pass  path          reports   time       rate   rate    ceiling  of ceiling  p50   "
	    "p99   max  lost  ended by\n"
	    "                                 s  reports/s    B/s  reports/s           %   us    "
	    "us    us\n"
	    "in    interrupt IN      300  0.333      898.2  57485     1000.0        89.8  670  "
	    "7455  8949     0  idle\n");
	strbuf_reset(&out);
	assert_int_equal(render_csv(&r, &out), 0);
	assert_non_null(strstr(out.buf, "name,path,report_bytes,reports,bytes,time_s,reports_per_s,"
					"bytes_per_s,ceiling_reports_per_s,ceiling_bytes_per_s,"
					"ceiling_pct,ceiling_pct_anomaly,period_us,p50_us,p99_us,max_us,lost,short_"
					"reads,ended_by,urbs,urbs_data,urbs_empty,unread,urbs_per_s,"
					"urb_size_bytes,inflight_mean,busy_pct,"
					"urb_lat_p99_us,usb_errors,cpu_mhz,cpu_mhz_min,cpu_mhz_max,"
					"cpu_clock_pct,cpu_governor,irq_count,irq_cpu,irq_cpu_pct,"
					"irq_share_cpu,irq_share_pct,others_busy_pct,io_cpu\n"));
	strbuf_release(&out);
	usb_hid_result_release(&d.in.ceiling);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rdesc_sizes),
	    cmocka_unit_test(test_rdesc_application),
	    cmocka_unit_test(test_rdesc_refusals),
	    cmocka_unit_test(test_rdesc_limits),
	    cmocka_unit_test(test_pass_in),
	    cmocka_unit_test(test_pass_send),
	    cmocka_unit_test(test_pass_latency),
	    cmocka_unit_test(test_pass_latency_lost),
	    cmocka_unit_test(test_findings),
	    cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * platform/usb/descriptors: sysfs "descriptors" bytes built by hand from the USB,
 * UAS, UVC, HID and CDC specifications, and the names. BOS: test_descriptors_bos.c.
 *
 * "test_descriptors --write-corpus DIR" writes these byte arrays as a fuzz
 * seed corpus, each behind a selector byte: bit 0 device, bit 2 SuperSpeed.
 */
#include "unit.h"
#include "platform/usb/descriptors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W(x) ((x)&0xff), (((x) >> 8) & 0xff)
#define L(x) W((x)&0xffff), W(((x) >> 16) & 0xffff)

/* clang-format off */
/* SuperSpeed flash drive: bulk-only in alt 0, UAS in alt 1 */
static const uint8_t uas_drive[] = {
	/* device: USB 3.2, class per interface, ep0 2^9, 0781:5581, one configuration */
	18, 0x01, W(0x0320), 0x00, 0x00, 0x00, 9, W(0x0781), W(0x5581), W(0x0100), 1, 2, 3, 1,
	/* configuration 1: 121 bytes, one interface, bus powered, 112 x 8 mA */
	9, 0x02, W(121), 1, 1, 0, 0x80, 112,
	/* interface 0 alt 0: mass storage, SCSI, bulk-only */
	9, 0x04, 0, 0, 2, 0x08, 0x06, 0x50, 0,
	7, 0x05, 0x81, 0x02, W(1024), 0, 6, 0x30, 15, 0x00, W(0),
	7, 0x05, 0x02, 0x02, W(1024), 0, 6, 0x30, 15, 0x00, W(0),
	/* interface 0 alt 1: UAS; each pipe: endpoint, companion (2^5 streams), pipe usage */
	9, 0x04, 0, 1, 4, 0x08, 0x06, 0x62, 0,
	7, 0x05, 0x01, 0x02, W(1024), 0, 6, 0x30, 0, 0x00, W(0), 4, 0x24, 1, 0,
	7, 0x05, 0x82, 0x02, W(1024), 0, 6, 0x30, 0, 0x05, W(0), 4, 0x24, 2, 0,
	7, 0x05, 0x83, 0x02, W(1024), 0, 6, 0x30, 15, 0x05, W(0), 4, 0x24, 3, 0,
	7, 0x05, 0x04, 0x02, W(1024), 0, 6, 0x30, 15, 0x05, W(0), 4, 0x24, 4, 0,
};

/* high-speed UVC webcam: IAD, video control, video streaming with isochronous alt settings */
static const uint8_t webcam[] = {
	/* device: USB 2.0, misc/common/IAD (EF/02/01), ep0 64, 046d:0825 */
	18, 0x01, W(0x0200), 0xef, 0x02, 0x01, 64, W(0x046d), W(0x0825), W(0x0012), 0, 2, 1, 1,
	/* configuration 1: 196 bytes, two interfaces, remote wakeup, 250 x 2 mA */
	9, 0x02, W(196), 2, 1, 0, 0xa0, 250,
	8, 0x0b, 0, 2, 0x0e, 0x03, 0x00, 0, /* IAD: interfaces 0-1, video collection */
	9, 0x04, 0, 0, 1, 0x0e, 0x01, 0x00, 0, /* video control */
	13, 0x24, 0x01, W(0x0100), W(40), L(6000000), 1, 1, /* VC header */
	18, 0x24, 0x02, 1, W(0x0201), 0, 0, W(0), W(0), W(0), 3, 0x0e, 0x00, 0x00, /* camera */
	9, 0x24, 0x03, 2, W(0x0101), 0, 1, 0, /* output terminal: streaming */
	7, 0x05, 0x83, 0x03, W(16), 8, /* status interrupt endpoint */
	5, 0x25, 0x03, W(16), /* class-specific interrupt endpoint */
	9, 0x04, 1, 0, 0, 0x0e, 0x02, 0x00, 0, /* video streaming, zero bandwidth */
	14, 0x24, 0x01, 1, W(61), 0x81, 0x00, 2, 0, 0, 0, 1, 0x00, /* input header */
	11, 0x24, 0x06, 1, 1, 0x01, 1, 0, 0, 0, 0, /* MJPEG format */
	30, 0x24, 0x07, 1, 0x00, W(640), W(480), L(24576000), L(147456000), L(614400),
	L(333333), 1, L(333333), /* MJPEG frame 640x480 at 30 fps */
	6, 0x24, 0x0d, 1, 1, 4, /* color matching */
	/* alt settings 1-3: one asynchronous isochronous IN endpoint each */
	9, 0x04, 1, 1, 1, 0x0e, 0x02, 0x00, 0, 7, 0x05, 0x81, 0x05, W(128), 1,
	9, 0x04, 1, 2, 1, 0x0e, 0x02, 0x00, 0, 7, 0x05, 0x81, 0x05, W(0x0c00), 1, /* 1024 x 2 */
	9, 0x04, 1, 3, 1, 0x0e, 0x02, 0x00, 0, 7, 0x05, 0x81, 0x05, W(0x1400), 1, /* 1024 x 3 */
};

/* low-speed HID boot keyboard; the malformed cases below patch copies of it */
static const uint8_t keyboard[] = {
	18, 0x01, W(0x0110), 0, 0, 0, 8, W(0x046d), W(0xc31c), W(0x6400), 1, 2, 0, 1,
	9, 0x02, W(34), 1, 1, 0, 0xa0, 50,	/* offset 18 */
	9, 0x04, 0, 0, 1, 0x03, 0x01, 0x01, 0,	/* offset 27 */
	9, 0x21, W(0x0111), 0, 1, 0x22, W(65),	/* offset 36: HID */
	7, 0x05, 0x81, 0x03, W(8), 10,		/* offset 45: interrupt IN 8 B, 10 ms */
};

/* high-speed CDC NCM network function */
static const uint8_t ncm[] = {
	18, 0x01, W(0x0200), 0x02, 0x00, 0x00, 64, W(0x0525), W(0xa4a1), W(0x0100), 1, 2, 3, 1,
	9, 0x02, W(94), 2, 1, 0, 0xc0, 1,
	8, 0x0b, 0, 2, 0x02, 0x0d, 0x00, 0,		/* IAD: CDC NCM */
	9, 0x04, 0, 0, 1, 0x02, 0x0d, 0x00, 0,
	5, 0x24, 0x00, W(0x0110),			/* header */
	5, 0x24, 0x06, 0, 1,				/* union */
	13, 0x24, 0x0f, 4, L(0), W(1514), W(0), 0,	/* ethernet networking */
	6, 0x24, 0x1a, W(0x0100), 0x00,			/* NCM */
	7, 0x05, 0x81, 0x03, W(16), 9,
	9, 0x04, 1, 0, 0, 0x0a, 0x00, 0x01, 0,		/* data, no endpoints */
	9, 0x04, 1, 1, 2, 0x0a, 0x00, 0x01, 0,
	7, 0x05, 0x82, 0x02, W(512), 0,
	7, 0x05, 0x03, 0x02, W(512), 0,
};
/* clang-format on */

struct want_ep {
	uint8_t addr;
	enum usb_transfer_type type;
	uint8_t sync;
	uint16_t mps;
	uint8_t mult, interval;
	bool ss;
	uint8_t burst;
	uint32_t streams;
	uint8_t pipe;
};

struct want_intf {
	uint8_t number, alt, cls, sub, proto;
	size_t n_eps;
	unsigned n_extra;
};

struct device_case {
	const char *name;
	const uint8_t *bytes;
	size_t len;
	bool superspeed;
	uint16_t bcd_usb, vendor, product;
	uint8_t cls;
	unsigned mps0;
	/* the one configuration */
	uint8_t value, attributes;
	unsigned max_power_ma, n_numbers;
	size_t n_iads;
	const struct want_intf *intfs;
	size_t n_intfs;
	const struct want_ep *eps; /* of all alt settings, in order */
	size_t n_eps;
};

#define B USB_XFER_BULK
#define I USB_XFER_INTERRUPT
#define ISO USB_XFER_ISOC

static const struct want_intf uas_intfs[] = {
    {0, 0, 0x08, 0x06, 0x50, 2, 0},
    {0, 1, 0x08, 0x06, 0x62, 4, 4},
};
static const struct want_ep uas_eps[] = {
    {0x81, B, 0, 1024, 1, 0, true, 15, 0, 0},  {0x02, B, 0, 1024, 1, 0, true, 15, 0, 0},
    {0x01, B, 0, 1024, 1, 0, true, 0, 0, 1},   {0x82, B, 0, 1024, 1, 0, true, 0, 32, 2},
    {0x83, B, 0, 1024, 1, 0, true, 15, 32, 3}, {0x04, B, 0, 1024, 1, 0, true, 15, 32, 4},
};
static const struct want_intf webcam_intfs[] = {
    {0, 0, 0x0e, 0x01, 0, 1, 4}, {1, 0, 0x0e, 0x02, 0, 0, 4}, {1, 1, 0x0e, 0x02, 0, 1, 0},
    {1, 2, 0x0e, 0x02, 0, 1, 0}, {1, 3, 0x0e, 0x02, 0, 1, 0},
};
static const struct want_ep webcam_eps[] = {
    {0x83, I, 0, 16, 1, 8, false, 0, 0, 0},
    {0x81, ISO, 1, 128, 1, 1, false, 0, 0, 0},
    {0x81, ISO, 1, 1024, 2, 1, false, 0, 0, 0},
    {0x81, ISO, 1, 1024, 3, 1, false, 0, 0, 0},
};
static const struct want_intf keyboard_intfs[] = {{0, 0, 0x03, 0x01, 0x01, 1, 1}};
static const struct want_ep keyboard_eps[] = {{0x81, I, 0, 8, 1, 10, false, 0, 0, 0}};
static const struct want_intf ncm_intfs[] = {
    {0, 0, 0x02, 0x0d, 0, 1, 4},
    {1, 0, 0x0a, 0, 1, 0, 0},
    {1, 1, 0x0a, 0, 1, 2, 0},
};
static const struct want_ep ncm_eps[] = {
    {0x81, I, 0, 16, 1, 9, false, 0, 0, 0},
    {0x82, B, 0, 512, 1, 0, false, 0, 0, 0},
    {0x03, B, 0, 512, 1, 0, false, 0, 0, 0},
};

#define CASE(n, b, ss, usb, vid, pid, cls, mps0, val, attr, ma, nums, iads, in, ep)                \
	{                                                                                          \
		n, b, sizeof(b), ss, usb, vid, pid, cls, mps0, val, attr, ma, nums, iads, in,      \
		    ARRAY_SIZE(in), ep, ARRAY_SIZE(ep)                                             \
	}

static const struct device_case device_cases[] = {
    CASE("uas drive", uas_drive, true, 0x0320, 0x0781, 0x5581, 0x00, 512, 1, 0x80, 896, 1, 0,
	 uas_intfs, uas_eps),
    CASE("webcam", webcam, false, 0x0200, 0x046d, 0x0825, 0xef, 64, 1, 0xa0, 500, 2, 1,
	 webcam_intfs, webcam_eps),
    CASE("keyboard", keyboard, false, 0x0110, 0x046d, 0xc31c, 0x00, 8, 1, 0xa0, 100, 1, 0,
	 keyboard_intfs, keyboard_eps),
    CASE("ncm", ncm, false, 0x0200, 0x0525, 0xa4a1, 0x02, 64, 1, 0xc0, 2, 2, 1, ncm_intfs, ncm_eps),
};

/* what every parse result must satisfy, whatever the input */
static void check_invariants(const struct usb_desc_device *d, size_t len)
{
	size_t i, sum = 18;

	assert_true(d->n_configs <= USB_DESC_MAX_CONFIGS);
	for (i = 0; i < d->n_configs; i++) {
		const struct usb_desc_config *c = &d->configs[i];
		size_t j;

		sum += c->length;
		assert_true(c->n_intfs <= USB_DESC_MAX_INTERFACES);
		assert_true(c->n_iads <= USB_DESC_MAX_IADS);
		assert_int_equal(c->flags & ~d->flags, 0);
		for (j = 0; j < c->n_intfs; j++)
			assert_true(c->intfs[j].n_eps <= USB_DESC_MAX_ENDPOINTS);
	}
	/* every byte after the device descriptor is accounted for exactly once */
	assert_int_equal(sum + d->skipped, len);
}

static void check_device_case(const struct device_case *k)
{
	struct usb_desc_device d = {0};
	const struct usb_desc_config *c;
	size_t i, j, e = 0;

	print_message("  %s\n", k->name);
	assert_int_equal(usb_desc_parse(k->bytes, k->len, k->superspeed, &d), 0);
	check_invariants(&d, k->len);
	assert_int_equal(d.flags, 0);
	assert_int_equal(d.skipped, 0);
	assert_int_equal(d.length, 18);
	assert_int_equal(d.bcd_usb, k->bcd_usb);
	assert_int_equal(d.vendor, k->vendor);
	assert_int_equal(d.product, k->product);
	assert_int_equal(d.cls, k->cls);
	assert_int_equal(d.max_packet0, k->mps0);
	assert_int_equal(d.num_configurations, 1);
	assert_int_equal(d.n_configs, 1);

	c = &d.configs[0];
	assert_int_equal(c->flags, 0);
	assert_int_equal(c->value, k->value);
	assert_int_equal(c->attributes, k->attributes);
	assert_int_equal(c->max_power_ma, k->max_power_ma);
	assert_int_equal(c->total_length, k->len - 18);
	assert_int_equal(c->length, k->len - 18);
	assert_int_equal(c->num_interfaces, k->n_numbers);
	assert_int_equal(c->n_interface_numbers, k->n_numbers);
	assert_int_equal(c->n_iads, k->n_iads);
	assert_int_equal(c->n_extra, 0);
	assert_int_equal(c->n_intfs, k->n_intfs);
	for (i = 0; i < k->n_intfs; i++) {
		const struct usb_desc_interface *f = &c->intfs[i];
		const struct want_intf *wf = &k->intfs[i];

		if (f->number != wf->number || f->alt != wf->alt || f->cls != wf->cls ||
		    f->subclass != wf->sub || f->protocol != wf->proto || f->n_eps != wf->n_eps ||
		    f->num_endpoints != wf->n_eps || f->n_extra != wf->n_extra)
			fail_msg("%s intf %zu: %u.%u %02x/%02x/%02x eps %zu extra %u", k->name, i,
				 f->number, f->alt, f->cls, f->subclass, f->protocol, f->n_eps,
				 f->n_extra);
		for (j = 0; j < f->n_eps; j++, e++) {
			const struct usb_desc_endpoint *p = &f->eps[j];
			const struct want_ep *w;

			assert_true(e < k->n_eps);
			w = &k->eps[e];
			if (p->address != w->addr || p->number != (w->addr & 0x0f) ||
			    p->in != !!(w->addr & 0x80) || p->type != w->type ||
			    p->sync != w->sync || p->usage != 0 || p->max_packet != w->mps ||
			    p->mult != w->mult || p->interval != w->interval ||
			    p->has_ss_comp != w->ss || p->max_burst != w->burst ||
			    p->max_streams != w->streams || p->uas_pipe_id != w->pipe ||
			    p->has_ssp_iso_comp)
				fail_msg("%s ep %zu: %02x type %d mps %u x%u int %u ss %d burst %u "
					 "streams %u pipe %u",
					 k->name, e, p->address, p->type, p->max_packet, p->mult,
					 p->interval, p->has_ss_comp, p->max_burst, p->max_streams,
					 p->uas_pipe_id);
		}
	}
	assert_int_equal(e, k->n_eps);
	usb_desc_release(&d);
	assert_null(d.configs);
	assert_int_equal(d.n_configs, 0);
}

static void test_devices(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(device_cases); i++)
		check_device_case(&device_cases[i]);
}

static void test_raw_fields(void **state)
{
	struct usb_desc_device d = {0};
	const struct usb_desc_endpoint *e;
	const struct usb_desc_iad *a;

	(void)state;
	assert_int_equal(usb_desc_parse(webcam, sizeof(webcam), false, &d), 0);
	e = &d.configs[0].intfs[4].eps[0];
	assert_int_equal(e->max_packet_raw, 0x1400);
	assert_int_equal(e->attributes, 0x05);
	a = &d.configs[0].iads[0];
	assert_int_equal(a->first_interface, 0);
	assert_int_equal(a->interface_count, 2);
	assert_int_equal(a->cls, 0x0e);
	assert_int_equal(a->subclass, 0x03);
	usb_desc_release(&d);

	/* the same drive below SuperSpeed: bMaxPower in 2 mA, bMaxPacketSize0 as is */
	assert_int_equal(usb_desc_parse(uas_drive, sizeof(uas_drive), false, &d), 0);
	assert_int_equal(d.max_packet0, 9);
	assert_int_equal(d.max_packet0_raw, 9);
	assert_int_equal(d.configs[0].max_power_ma, 224);
	assert_int_equal(d.configs[0].max_power_raw, 112);
	e = &d.configs[0].intfs[1].eps[1];
	assert_int_equal(e->max_streams_log2, 5);
	assert_int_equal(e->ss_attributes, 0x05);
	assert_int_equal(e->ss_mult, 0); /* bulk: no mult */
	usb_desc_release(&d);
	usb_desc_release(&d);
	usb_desc_release(NULL);
}

/* clang-format off */
/* SuperSpeed isochronous endpoints with companions, and SuperSpeedPlus isochronous ones */
static const uint8_t ss_isoc[] = {
	18, 0x01, W(0x0320), 0xef, 0x02, 0x01, 9, W(0x1234), W(0x5678), W(1), 0, 0, 0, 1,
	9, 0x02, W(9 + 9 + 7 + 6 + 7 + 6 + 8), 1, 1, 0, 0x80, 10,
	9, 0x04, 0, 0, 2, 0x01, 0x02, 0x20, 0,
	7, 0x05, 0x81, 0x05, W(1024), 1, 6, 0x30, 3, 0x02, W(12288), /* 4 x 3 x 1024 */
	7, 0x05, 0x02, 0x05, W(1024), 1, 6, 0x30, 15, 0x80, W(1),
	8, 0x31, W(0), L(98304), /* SSP isochronous companion */
};
/* clang-format on */

static void test_ss_isoc(void **state)
{
	struct usb_desc_device d = {0};
	const struct usb_desc_endpoint *e;

	(void)state;
	assert_int_equal(usb_desc_parse(ss_isoc, sizeof(ss_isoc), true, &d), 0);
	check_invariants(&d, sizeof(ss_isoc));
	assert_int_equal(d.flags, 0);
	assert_int_equal(d.configs[0].max_power_ma, 80);
	e = &d.configs[0].intfs[0].eps[0];
	assert_true(e->has_ss_comp);
	assert_int_equal(e->max_burst, 3);
	assert_int_equal(e->ss_mult, 3);
	assert_int_equal(e->bytes_per_interval, 12288);
	assert_false(e->has_ssp_iso_comp);
	e = &d.configs[0].intfs[0].eps[1];
	assert_int_equal(e->ss_mult, 1);
	assert_true(e->has_ssp_iso_comp);
	assert_int_equal(e->ssp_bytes_per_interval, 98304);
	usb_desc_release(&d);
}

struct patch {
	size_t off;
	uint8_t val;
};

struct bad_case {
	const char *name;
	size_t len; /* of the keyboard bytes kept */
	struct patch p[2];
	size_t n_patches;
	int rc;
	size_t n_configs, n_intfs, n_eps, skipped;
	unsigned flags;
};

#define F(x) USB_DESC_F_##x
#define ALL SIZE_MAX

static const struct bad_case bad_cases[] = {
    {"whole", ALL, {{0}}, 0, 0, 1, 1, 1, 0, 0},
    {"empty", 0, {{0}}, 0, -EINVAL, 0, 0, 0, 0, 0},
    {"17 bytes", 17, {{0}}, 0, -EINVAL, 0, 0, 0, 0, 0},
    {"not a device", ALL, {{1, 0x02}}, 1, -EINVAL, 0, 0, 0, 0, 0},
    {"device only", 18, {{0}}, 0, 0, 0, 0, 0, 0, F(NUM_CONFIGS)},
    {"cut in config header",
     22,
     {{0}},
     0,
     0,
     0,
     0,
     0,
     4,
     F(TRUNCATED) | F(SKIPPED) | F(NUM_CONFIGS)},
    {"config header only", 27, {{0}}, 0, 0, 1, 0, 0, 0, F(TOTAL_TOO_BIG) | F(NUM_INTERFACES)},
    {"cut in endpoint",
     48,
     {{0}},
     0,
     0,
     1,
     1,
     0,
     3,
     F(TRUNCATED) | F(TOTAL_TOO_BIG) | F(NUM_ENDPOINTS) | F(SKIPPED)},
    {"one byte of endpoint",
     46,
     {{0}},
     0,
     0,
     1,
     1,
     0,
     1,
     F(TRUNCATED) | F(TOTAL_TOO_BIG) | F(NUM_ENDPOINTS) | F(SKIPPED)},
    {"bLength 0", ALL, {{36, 0}}, 1, 0, 1, 1, 0, 16, F(BAD_LENGTH) | F(NUM_ENDPOINTS) | F(SKIPPED)},
    {"bLength 1", ALL, {{36, 1}}, 1, 0, 1, 1, 0, 16, F(BAD_LENGTH) | F(NUM_ENDPOINTS) | F(SKIPPED)},
    {"bLength past the end",
     ALL,
     {{36, 0x40}},
     1,
     0,
     1,
     1,
     0,
     16,
     F(TRUNCATED) | F(NUM_ENDPOINTS) | F(SKIPPED)},
    {"wTotalLength too big", ALL, {{20, 0xff}, {21, 0x01}}, 2, 0, 1, 1, 1, 0, F(TOTAL_TOO_BIG)},
    /* ends inside the HID descriptor: the rest is junk to step over */
    {"wTotalLength too small",
     ALL,
     {{20, 25}},
     1,
     0,
     1,
     1,
     0,
     16,
     F(TOTAL_TOO_SMALL) | F(NUM_ENDPOINTS) | F(SKIPPED) | F(TRUNCATED)},
    {"wTotalLength below 9",
     ALL,
     {{20, 4}},
     1,
     0,
     1,
     0,
     0,
     25,
     F(TOTAL_TOO_SMALL) | F(NUM_INTERFACES) | F(SKIPPED)},
    {"bNumInterfaces lies", ALL, {{22, 3}}, 1, 0, 1, 1, 1, 0, F(NUM_INTERFACES)},
    {"bNumEndpoints lies", ALL, {{31, 2}}, 1, 0, 1, 1, 1, 0, F(NUM_ENDPOINTS)},
    {"bNumConfigurations lies", ALL, {{17, 2}}, 1, 0, 1, 1, 1, 0, F(NUM_CONFIGS)},
    {"bNumConfigurations 0", ALL, {{17, 0}}, 1, 0, 1, 1, 1, 0, F(NUM_CONFIGS)},
    {"device bLength 12", ALL, {{0, 12}}, 1, 0, 1, 1, 1, 0, F(BAD_TYPE)},
    {"config bLength 8",
     ALL,
     {{18, 8}},
     1,
     0,
     0,
     0,
     0,
     34,
     F(SHORT) | F(SKIPPED) | F(TRUNCATED) | F(NUM_CONFIGS)},
};

static void test_malformed(void **state)
{
	uint8_t buf[sizeof(keyboard)];
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *k = &bad_cases[i];
		struct usb_desc_device d = {.vendor = 0xdead};
		size_t len = k->len == ALL ? sizeof(buf) : k->len, n_intfs = 0, n_eps = 0;
		int rc;

		memcpy(buf, keyboard, sizeof(buf));
		for (j = 0; j < k->n_patches; j++)
			buf[k->p[j].off] = k->p[j].val;
		rc = usb_desc_parse(buf, len, false, &d);
		if (rc != k->rc)
			fail_msg("%s: rc %d, expected %d", k->name, rc, k->rc);
		if (rc < 0) {
			assert_int_equal(d.vendor, 0xdead); /* untouched */
			continue;
		}
		check_invariants(&d, len);
		for (j = 0; j < d.n_configs; j++) {
			n_intfs += d.configs[j].n_intfs;
			n_eps += d.configs[j].n_intfs ? d.configs[j].intfs[0].n_eps : 0;
		}
		if (d.n_configs != k->n_configs || n_intfs != k->n_intfs || n_eps != k->n_eps ||
		    d.skipped != k->skipped || d.flags != k->flags)
			fail_msg("%s: %zu configs %zu intfs %zu eps, %zu skipped, flags %#x",
				 k->name, d.n_configs, n_intfs, n_eps, d.skipped, d.flags);
		usb_desc_release(&d);
	}
}

/* clang-format off: one descriptor a line */
/* strays and short descriptors inside one configuration */
static const uint8_t strays[] = {
    18,	  0x01,	 W(0x0300), 0,	     0,	    0,	  9,  W(1), W(2), W(3), 0,    0,     0,	   1, 9,
    0x02, W(74), 1,	    1,	     0,	    0x80, 50, 7,    0x05, 0x81, 0x02, W(64), 0, /* endpoint
											   before
											   any
											   interface
											 */
    6,	  0x30,	 0,	    0,	     W(0),     /* companion of nothing */
    4,	  0x04,	 0,	    0,		       /* interface too short */
    7,	  0x05,	 0x82,	    0x02,    W(64), 0, /* ... so its endpoint is a stray */
    9,	  0x04,	 0,	    0,	     1,	    0xff, 0,  0,    0,	  3,	0x05, 0x83, /* endpoint
										       too
										       short
										     */
    7,	  0x05,	 0x84,	    0x02,    W(64), 0,	  6,  0x30, 1,	  0,	W(0), 6,     0x30, 2, 0,
    W(0),			     /* second companion */
    8,	  0x31,	 W(0),	    L(1000), /* SSP isochronous companion of a bulk endpoint */
    2,	  0x0b,			     /* IAD too short */
};
/* clang-format on */

static void test_strays(void **state)
{
	struct usb_desc_device d = {0};
	const struct usb_desc_interface *f;

	(void)state;
	assert_int_equal(usb_desc_parse(strays, sizeof(strays), true, &d), 0);
	check_invariants(&d, sizeof(strays));
	assert_int_equal(d.flags, USB_DESC_F_SHORT | USB_DESC_F_STRAY);
	assert_int_equal(d.configs[0].n_intfs, 1);
	assert_int_equal(d.configs[0].n_iads, 0);
	f = &d.configs[0].intfs[0];
	assert_int_equal(f->n_eps, 1);
	assert_int_equal(f->eps[0].address, 0x84);
	assert_int_equal(f->eps[0].max_burst, 1);
	assert_false(f->eps[0].has_ssp_iso_comp);
	usb_desc_release(&d);
}

/* clang-format off: one descriptor a line */
/* the kernel cuts a configuration it cannot parse; wTotalLength then overshoots */
static const uint8_t two_configs[] = {
    18,	    0x01, W(0x0200), 0,	     0,	    0,	  64,	W(1), W(2), W(3), 0,	  0,	0,
    2,	    9,	  0x02,	     W(200), 1,	    1,	  0,	0x80, 50, /* claims 200, the kernel kept 25
								   */
    9,	    0x04, 0,	     0,	     1,	    0x08, 0x06, 0x50, 0,    7,	  0x05,	  0x81, 0x02,
    W(512), 0,	  9,	     0x02,   W(25), 1,	  2,	0,    0xc0, 0,	  9,	  0x04, 0,
    0,	    1,	  0xff,	     0,	     0,	    0,	  7,	0x05, 0x82, 0x02, W(512), 0,
};
/* clang-format on */

static void test_two_configs(void **state)
{
	struct usb_desc_device d = {0};

	(void)state;
	assert_int_equal(usb_desc_parse(two_configs, sizeof(two_configs), false, &d), 0);
	check_invariants(&d, sizeof(two_configs));
	assert_int_equal(d.n_configs, 2);
	assert_int_equal(d.configs[0].flags, USB_DESC_F_TOTAL_TOO_BIG);
	assert_int_equal(d.configs[0].length, 25);
	assert_int_equal(d.configs[0].total_length, 200);
	assert_int_equal(d.configs[1].flags, 0);
	assert_int_equal(d.configs[1].value, 2);
	assert_int_equal(d.configs[1].intfs[0].eps[0].address, 0x82);
	assert_int_equal(d.flags, USB_DESC_F_TOTAL_TOO_BIG);
	assert_ptr_equal(usb_desc_config_by_value(&d, 2), &d.configs[1]);
	assert_null(usb_desc_config_by_value(&d, 3));
	usb_desc_release(&d);
}

/* input built from n copies of one descriptor after a device and a config header */
static uint8_t *build_repeated(size_t n, const uint8_t *head, size_t head_len, const uint8_t *unit,
			       size_t unit_len, size_t *ret_len)
{
	size_t len = 18 + head_len + n * unit_len, i;
	uint8_t *b = malloc(len);

	/* abort(), not assert_non_null(): gcc -O2 then knows b is not NULL below */
	if (!b)
		abort();
	memcpy(b, keyboard, 18);
	memcpy(b + 18, head, head_len);
	for (i = 0; i < n; i++)
		memcpy(b + 18 + head_len + i * unit_len, unit, unit_len);
	/* a zero wTotalLength in the head is a placeholder for the whole length */
	if (head_len >= 4 && head[2] == 0 && head[3] == 0) {
		b[20] = (uint8_t)((len - 18) & 0xff);
		b[21] = (uint8_t)((len - 18) >> 8);
	}
	*ret_len = len;
	return b;
}

static void test_caps(void **state)
{
	static const uint8_t config[] = {9, 0x02, W(9), 0, 1, 0, 0x80, 0};
	static const uint8_t cfg_one[] = {9, 0x02, W(0), 1, 1, 0, 0x80, 0};
	static const uint8_t intf40[] = {9,    0x02, W(0), 1,  1,    0, 0x80, 0, 9,
					 0x04, 0,    0,	   40, 0xff, 0, 0,    0};
	static const uint8_t ep[] = {7, 0x05, 0x81, 0x02, W(64), 0};
	static const uint8_t alt_ep[] = {9,    0x04, 0,	   0,	  1, 0xff, 0,	 0, 0, 7,
					 0x05, 0x81, 0x02, W(64), 0, 6,	   0x30, 0, 0, W(0)};
	static const uint8_t iad[] = {8, 0x0b, 0, 1, 0xff, 0, 0, 0};
	struct usb_desc_device d = {0};
	size_t len;
	uint8_t *b;

	(void)state;
	/* 40 configurations: the file holds at most 8 from Linux, the parser keeps 32 */
	b = build_repeated(39, config, sizeof(config), config, sizeof(config), &len);
	b[17] = 40;
	assert_int_equal(usb_desc_parse(b, len, false, &d), 0);
	check_invariants(&d, len);
	assert_int_equal(d.n_configs, USB_DESC_MAX_CONFIGS);
	assert_int_equal(d.skipped, 8 * 9);
	assert_int_equal(d.flags, USB_DESC_F_LIMIT | USB_DESC_F_NUM_CONFIGS);
	usb_desc_release(&d);
	free(b);

	b = build_repeated(40, intf40, sizeof(intf40), ep, sizeof(ep), &len);
	assert_int_equal(usb_desc_parse(b, len, false, &d), 0);
	check_invariants(&d, len);
	assert_int_equal(d.configs[0].intfs[0].n_eps, USB_DESC_MAX_ENDPOINTS);
	assert_int_equal(d.flags, USB_DESC_F_LIMIT | USB_DESC_F_NUM_ENDPOINTS);
	usb_desc_release(&d);
	free(b);

	/* the endpoints and companions of dropped alt settings go quietly */
	b = build_repeated(300, cfg_one, sizeof(cfg_one), alt_ep, sizeof(alt_ep), &len);
	assert_int_equal(usb_desc_parse(b, len, true, &d), 0);
	check_invariants(&d, len);
	assert_int_equal(d.configs[0].n_intfs, USB_DESC_MAX_INTERFACES);
	assert_int_equal(d.configs[0].intfs[255].n_eps, 1);
	assert_true(d.configs[0].intfs[255].eps[0].has_ss_comp);
	assert_int_equal(d.configs[0].n_interface_numbers, 1);
	assert_int_equal(d.flags, USB_DESC_F_LIMIT);
	usb_desc_release(&d);
	free(b);

	b = build_repeated(40, cfg_one, sizeof(cfg_one), iad, sizeof(iad), &len);
	b[22] = 0;
	assert_int_equal(usb_desc_parse(b, len, false, &d), 0);
	assert_int_equal(d.configs[0].n_iads, USB_DESC_MAX_IADS);
	assert_int_equal(d.flags, USB_DESC_F_LIMIT);
	usb_desc_release(&d);
	free(b);
}

/* every prefix of every good input: no crash, and every byte accounted for */
static void test_prefixes(void **state)
{
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(device_cases); i++) {
		for (len = 0; len <= device_cases[i].len; len++) {
			struct usb_desc_device d = {0};
			int rc = usb_desc_parse(device_cases[i].bytes, len, false, &d);

			assert_int_equal(rc, len < 18 ? -EINVAL : 0);
			if (rc == 0)
				check_invariants(&d, len);
			usb_desc_release(&d);
		}
	}
}

static void test_helpers(void **state)
{
	struct usb_desc_device d = {0};
	const struct usb_desc_config *c;
	const struct usb_desc_interface *f;

	(void)state;
	assert_int_equal(usb_desc_parse(uas_drive, sizeof(uas_drive), true, &d), 0);
	c = usb_desc_config_by_value(&d, 1);
	assert_non_null(c);
	assert_true(usb_desc_offers_uas(c, 0));
	assert_false(usb_desc_offers_uas(c, 1));
	f = usb_desc_find_interface(c, 0, 1);
	assert_non_null(f);
	assert_int_equal(f->protocol, 0x62);
	assert_null(usb_desc_find_interface(c, 0, 2));
	usb_desc_release(&d);

	/* bulk-only alone, a webcam, no configuration at all */
	assert_int_equal(usb_desc_parse(uas_drive, 18 + 9 + 9 + 26, true, &d), 0);
	assert_false(usb_desc_offers_uas(&d.configs[0], 0));
	usb_desc_release(&d);
	assert_int_equal(usb_desc_parse(webcam, sizeof(webcam), false, &d), 0);
	assert_false(usb_desc_offers_uas(&d.configs[0], 0));
	assert_false(usb_desc_offers_uas(&d.configs[0], 1));
	usb_desc_release(&d);
	assert_false(usb_desc_offers_uas(NULL, 0));
	assert_null(usb_desc_find_interface(NULL, 0, 0));
	assert_null(usb_desc_config_by_value(NULL, 1));
}

static void test_names(void **state)
{
	static const struct {
		unsigned code;
		const char *name;
	} classes[] =
	    {
		{0x00, "per-interface"}, {0x01, "audio"},
		{0x02, "cdc"},		 {0x03, "hid"},
		{0x04, "unknown"},	 {0x06, "image"},
		{0x07, "printer"},	 {0x08, "mass-storage"},
		{0x09, "hub"},		 {0x0a, "cdc-data"},
		{0x0b, "smart-card"},	 {0x0c, "unknown"},
		{0x0e, "video"},	 {0x0f, "personal-healthcare"},
		{0x10, "audio-video"},	 {0x11, "billboard"},
		{0x12, "type-c-bridge"}, {0x14, "mctp"},
		{0x15, "unknown"},	 {0x3c, "i3c"},
		{0xdc, "diagnostic"},	 {0xe0, "wireless"},
		{0xef, "misc"},		 {0xfe, "app-specific"},
		{0xff, "vendor"},	 {0x100, "unknown"},
	    },
	  caps[] = {
	      {0x00, "unknown"},	{0x02, "usb2-ext"}, {0x03, "superspeed"},
	      {0x04, "container-id"},	{0x05, "platform"}, {0x0a, "superspeed-plus"},
	      {0x10, "config-summary"}, {0x11, "unknown"},
	  };
	const char *seen[USB_DESC_F_COUNT];
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(classes); i++)
		assert_string_equal(usb_class_name(classes[i].code), classes[i].name);
	for (i = 0; i < ARRAY_SIZE(caps); i++)
		assert_string_equal(usb_bos_cap_name(caps[i].code), caps[i].name);
	assert_string_equal(usb_transfer_type_name(USB_XFER_CONTROL), "control");
	assert_string_equal(usb_transfer_type_name(USB_XFER_ISOC), "isochronous");
	assert_string_equal(usb_transfer_type_name(USB_XFER_BULK), "bulk");
	assert_string_equal(usb_transfer_type_name(USB_XFER_INTERRUPT), "interrupt");
	assert_string_equal(usb_transfer_type_name((enum usb_transfer_type)4), "unknown");

	assert_string_equal(usb_desc_flag_name(USB_DESC_F_TRUNCATED), "truncated");
	assert_string_equal(usb_desc_flag_name(USB_DESC_F_BAD_TYPE), "bad-type");
	for (i = 0; i < USB_DESC_F_COUNT; i++) {
		seen[i] = usb_desc_flag_name(1u << i);
		assert_string_not_equal(seen[i], "unknown");
		for (j = 0; j < i; j++)
			assert_string_not_equal(seen[i], seen[j]);
	}
	assert_string_equal(usb_desc_flag_name(0), "unknown");
	assert_string_equal(usb_desc_flag_name(3), "unknown");
	assert_string_equal(usb_desc_flag_name(1u << USB_DESC_F_COUNT), "unknown");
}

/* The fuzzer's seeds, with its selector byte: bit 0 device, bit 1 BOS, bit 2 SuperSpeed. */
static int write_corpus(const char *dir)
{
	static const struct {
		const char *name;
		uint8_t sel;
		const uint8_t *b;
		size_t len;
	} seeds[] = {
	    {"uas_drive", 1 | 4, uas_drive, sizeof(uas_drive)},
	    {"webcam", 1, webcam, sizeof(webcam)},
	    {"keyboard", 1, keyboard, sizeof(keyboard)},
	    {"ncm", 1, ncm, sizeof(ncm)},
	    {"ss_isoc", 1 | 4, ss_isoc, sizeof(ss_isoc)},
	    {"strays", 1 | 4, strays, sizeof(strays)},
	    {"two_configs", 1, two_configs, sizeof(two_configs)},
	    {"both_keyboard", 3, keyboard, sizeof(keyboard)},
	};
	char path[4096];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		f = fopen(path, "wbe");
		if (!f) {
			perror(path);
			return 1;
		}
		fputc(seeds[i].sel, f);
		fwrite(seeds[i].b, 1, seeds[i].len, f);
		if (fclose(f)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_devices), cmocka_unit_test(test_raw_fields),
	    cmocka_unit_test(test_ss_isoc), cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_strays),  cmocka_unit_test(test_two_configs),
	    cmocka_unit_test(test_caps),    cmocka_unit_test(test_prefixes),
	    cmocka_unit_test(test_helpers), cmocka_unit_test(test_names),
	};

	if (argc == 3 && !strcmp(argv[1], "--write-corpus"))
		return write_corpus(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * platform/usb/descriptors: sysfs "bos_descriptors" bytes built by hand from the
 * USB 3.2 specification's device capability layouts.
 *
 * "test_descriptors_bos --write-corpus DIR" writes these byte arrays as part
 * of the fuzz_descriptors seed corpus (first byte 2: the BOS parser).
 */
#include "unit.h"
#include "platform/usb/descriptors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W(x) ((x)&0xff), (((x) >> 8) & 0xff)
#define L(x) W((x)&0xffff), W(((x) >> 16) & 0xffff)
#define F(x) USB_DESC_F_##x
#define ALL SIZE_MAX

struct patch {
	size_t off;
	uint8_t val;
};

/* clang-format off */
/* USB 2.0 extension, SuperSpeed, SuperSpeedPlus Gen 2x1, container ID */
static const uint8_t bos_gen2x1[] = {
	5, 0x0f, W(62), 4,
	7, 0x10, 0x02, L(0x06),				/* offset 5: LPM and BESL */
	10, 0x10, 0x03, 0x00, W(0x000e), 1, 10, W(2047),	/* offset 12: full, high, 5G */
	20, 0x10, 0x0a, 0, L(0x00000001), W(0x1100), W(0), L(0x000a4030), L(0x000a40b0),
	20, 0x10, 0x04, 0, 0x5c, 0xf3, 0xee, 0x30, 0xd5, 0x07, 0x49, 0x25, 0xb0, 0x01, 0x80, 0x2d,
	0x79, 0x43, 0x4c, 0x30,
};

/* dual lane as Linux's gadget stack describes Gen 2x2: SuperSpeedPlus at 5 and 10 Gbit/s */
static const uint8_t bos_gen2x2[] = {
	5, 0x0f, W(43), 2,
	10, 0x10, 0x03, 0x00, W(0x000e), 1, 10, W(2047),
	28, 0x10, 0x0a, 0, L(0x00000023), W(0x1100), W(0), L(0x00054030), L(0x000540b0),
	L(0x000a4031), L(0x000a40b1),
};

static const uint8_t bos_odd[] = {
	5, 0x0f, W(40), 4,
	2, 0x10,			/* capability header too short */
	7, 0x11, 0x02, L(0x02),		/* not a device capability */
	6, 0x10, 0x03, 0, W(0x0e),	/* SuperSpeed capability too short */
	20, 0x10, 0x0a, 0, L(0x07), W(0x1100), W(0), L(0x000a4030), L(0x000a40b0), /* 8 of 2 */
};
/* clang-format on */

static void test_bos(void **state)
{
	static const uint8_t types[] = {0x02, 0x03, 0x0a, 0x04};
	static const uint8_t uuid[] = {0x5c, 0xf3, 0xee, 0x30, 0xd5, 0x07, 0x49, 0x25,
				       0xb0, 0x01, 0x80, 0x2d, 0x79, 0x43, 0x4c, 0x30};
	struct usb_desc_bos b;
	const struct usb_desc_sublink *s;

	(void)state;
	assert_int_equal(usb_desc_bos_parse(bos_gen2x1, sizeof(bos_gen2x1), &b), 0);
	assert_int_equal(b.flags, 0);
	assert_int_equal(b.length, sizeof(bos_gen2x1));
	assert_int_equal(b.n_caps, 4);
	assert_memory_equal(b.cap_types, types, sizeof(types));
	assert_true(b.has_usb2_ext && b.has_lpm && b.has_besl);
	assert_int_equal(b.usb2_attributes, 0x06);
	assert_true(b.ss_capable);
	assert_false(b.ltm_capable);
	assert_int_equal(b.ss_speeds, USB_SS_SPEED_FULL | USB_SS_SPEED_HIGH | USB_SS_SPEED_5G);
	assert_int_equal(b.ss_functionality, 1);
	assert_int_equal(b.u1_exit_lat, 10);
	assert_int_equal(b.u2_exit_lat, 2047);
	assert_true(b.ssp_capable);
	assert_int_equal(b.n_sublinks, 2);
	assert_int_equal(b.ssp_min_rx_lanes, 1);
	assert_int_equal(b.ssp_min_tx_lanes, 1);
	assert_int_equal(b.ssp_max_lane_mbps, 10000);
	assert_int_equal(b.ssp_lanes, 1);
	assert_true(b.has_container_id);
	assert_memory_equal(b.container_id, uuid, sizeof(uuid));
	assert_int_equal(usb_desc_bos_max_speed(&b), USB_SPEED_SSP_G2X1);

	assert_int_equal(usb_desc_bos_parse(bos_gen2x2, sizeof(bos_gen2x2), &b), 0);
	assert_int_equal(b.flags, 0);
	assert_int_equal(b.n_sublinks, 4);
	s = &b.sublinks[3];
	assert_int_equal(s->ssid, 1);
	assert_int_equal(s->exponent, 3);
	assert_true(s->tx);
	assert_false(s->asymmetric);
	assert_int_equal(s->protocol, 1);
	assert_int_equal(s->mantissa, 10);
	assert_int_equal(s->mbps, 10000);
	assert_false(b.sublinks[0].tx);
	assert_int_equal(b.sublinks[0].mbps, 5000);
	assert_int_equal(b.ssp_lanes, 2);
	assert_int_equal(usb_desc_bos_max_speed(&b), USB_SPEED_SSP_G2X2);
	assert_false(b.has_usb2_ext);
	assert_false(b.has_container_id);
}

struct ssp_case {
	const char *name;
	uint32_t attrs[4];
	size_t n;
	uint16_t functionality;
	uint32_t max_mbps;
	unsigned lanes;
	enum usb_speed speed;
};

static const struct ssp_case ssp_cases[] = {
    {"gen2x1", {0x000a4030, 0x000a40b0}, 2, 0x1100, 10000, 1, USB_SPEED_SSP_G2X1},
    /* the common hub and bridge layout: SuperSpeed at 5, SuperSpeedPlus at 10 */
    {"gen2x1 with gen1",
     {0x00050034, 0x000500b4, 0x000a4035, 0x000a40b5},
     4,
     0x1104,
     10000,
     1,
     USB_SPEED_SSP_G2X1},
    {"gen2x2",
     {0x00054030, 0x000540b0, 0x000a4031, 0x000a40b1},
     4,
     0x1100,
     10000,
     2,
     USB_SPEED_SSP_G2X2},
    {"gen1x2", {0x00054030, 0x000540b0}, 2, 0x1100, 5000, 2, USB_SPEED_SSP_G1X2},
    {"gen1 only", {0x00050030, 0x000500b0}, 2, 0x1100, 5000, 1, USB_SPEED_SS},
    {"two lanes at least", {0x000a4030, 0x000a40b0}, 2, 0x2200, 10000, 2, USB_SPEED_SSP_G2X2},
    {"20G lane", {0x00144030}, 1, 0x1100, 20000, 1, USB_SPEED_SSP_G2X2},
    {"Mb/s", {0x13880020}, 1, 0x1100, 5000, 1, USB_SPEED_SS},
    {"kb/s", {0xea600010}, 1, 0x1100, 60, 1, USB_SPEED_UNKNOWN},
    {"b/s", {0xffff0000}, 1, 0x1100, 0, 1, USB_SPEED_UNKNOWN},
    {"asymmetric", {0x000a4070, 0x000540f0}, 2, 0x1100, 10000, 1, USB_SPEED_SSP_G2X1},
};

static void test_ssp_speeds(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ssp_cases); i++) {
		const struct ssp_case *k = &ssp_cases[i];
		uint8_t buf[5 + 12 + 16], *p = buf + 5;
		size_t len = 5 + 12 + 4 * k->n;
		struct usb_desc_bos b;

		memcpy(buf, (uint8_t[]){5, 0x0f, (uint8_t)len, 0, 1}, 5);
		memcpy(p,
		       (uint8_t[]){(uint8_t)(12 + 4 * k->n), 0x10, 0x0a, 0, (uint8_t)(k->n - 1), 0,
				   0, 0, W(k->functionality), 0, 0},
		       12);
		for (j = 0; j < k->n; j++)
			memcpy(p + 12 + 4 * j, (uint8_t[]){L(k->attrs[j])}, 4);
		assert_int_equal(usb_desc_bos_parse(buf, len, &b), 0);
		if (b.flags || b.n_sublinks != k->n || b.ssp_max_lane_mbps != k->max_mbps ||
		    b.ssp_lanes != k->lanes || usb_desc_bos_max_speed(&b) != k->speed)
			fail_msg("%s: flags %#x, %zu sublinks, %u Mbit/s x%u, %s", k->name, b.flags,
				 b.n_sublinks, b.ssp_max_lane_mbps, b.ssp_lanes,
				 usb_speed_name(usb_desc_bos_max_speed(&b)));
	}
}

static void test_ss_speeds(void **state)
{
	static const struct {
		uint16_t speeds;
		enum usb_speed want;
	} cases[] = {
	    {0x000e, USB_SPEED_SS},	 {0x0008, USB_SPEED_SS},  {0x0006, USB_SPEED_HIGH},
	    {0x0002, USB_SPEED_FULL},	 {0x0001, USB_SPEED_LOW}, {0x0000, USB_SPEED_UNKNOWN},
	    {0xfff0, USB_SPEED_UNKNOWN},
	};
	static const uint8_t usb2_only[] = {5, 0x0f, W(12), 1, 7, 0x10, 0x02, L(0x02)};
	/* a BOS bLength below 5: capabilities still start after the 5 bytes */
	static const uint8_t short_header[] = {3, 0x0f, W(12), 1, 7, 0x10, 0x02, L(0x0402)};
	struct usb_desc_bos b;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint8_t buf[] = {5, 0x0f, W(15), 1, 10, 0x10, 0x03, 0x02, W(cases[i].speeds),
				 1, 0,	  W(0)};

		assert_int_equal(usb_desc_bos_parse(buf, sizeof(buf), &b), 0);
		assert_true(b.ss_capable && b.ltm_capable);
		if (usb_desc_bos_max_speed(&b) != cases[i].want)
			fail_msg("wSpeedsSupported %#x: %s", cases[i].speeds,
				 usb_speed_name(usb_desc_bos_max_speed(&b)));
	}
	assert_int_equal(usb_desc_bos_parse(usb2_only, sizeof(usb2_only), &b), 0);
	assert_int_equal(b.flags, 0);
	assert_true(b.has_lpm);
	assert_false(b.has_besl);
	assert_int_equal(usb_desc_bos_max_speed(&b), USB_SPEED_UNKNOWN);
	assert_int_equal(usb_desc_bos_max_speed(NULL), USB_SPEED_UNKNOWN);
	assert_int_equal(usb_desc_bos_parse(short_header, sizeof(short_header), &b), 0);
	assert_int_equal(b.flags, USB_DESC_F_BAD_TYPE);
	assert_int_equal(b.usb2_attributes, 0x0402);
}

struct bad_bos {
	const char *name;
	size_t len;
	struct patch p;
	int rc;
	size_t n_caps;
	unsigned flags;
};

static const struct bad_bos bad_bos_cases[] = {
    {"whole", ALL, {0, 5}, 0, 4, 0},
    {"4 bytes", 4, {0, 5}, -EINVAL, 0, 0},
    {"not a BOS", ALL, {1, 0x02}, -EINVAL, 0, 0},
    {"header only", 5, {0, 5}, 0, 0, F(TOTAL_TOO_BIG) | F(NUM_CAPS)},
    {"cut in SSP", 30, {0, 5}, 0, 2, F(TOTAL_TOO_BIG) | F(TRUNCATED) | F(NUM_CAPS)},
    {"one byte of SSP", 23, {0, 5}, 0, 2, F(TOTAL_TOO_BIG) | F(TRUNCATED) | F(NUM_CAPS)},
    {"wTotalLength too small", ALL, {2, 20}, 0, 1, F(TOTAL_TOO_SMALL) | F(NUM_CAPS)},
    {"wTotalLength too big", ALL, {2, 200}, 0, 4, F(TOTAL_TOO_BIG)},
    {"wTotalLength below 5", ALL, {2, 3}, 0, 0, F(TOTAL_TOO_SMALL) | F(NUM_CAPS)},
    {"bNumDeviceCaps lies", ALL, {4, 5}, 0, 4, F(NUM_CAPS)},
    {"cap bLength 0", ALL, {12, 0}, 0, 1, F(BAD_LENGTH) | F(NUM_CAPS)},
    {"cap bLength past the end", ALL, {42, 21}, 0, 3, F(TRUNCATED) | F(NUM_CAPS)},
    {"SSP too short", ALL, {22, 11}, 0, 3, F(SHORT) | F(BAD_LENGTH) | F(NUM_CAPS)},
};

static void test_bos_malformed(void **state)
{
	uint8_t buf[sizeof(bos_gen2x1)];
	struct usb_desc_bos b;
	size_t i, len;
	uint8_t *many;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_bos_cases); i++) {
		const struct bad_bos *k = &bad_bos_cases[i];
		int rc;

		memcpy(buf, bos_gen2x1, sizeof(buf));
		buf[k->p.off] = k->p.val;
		len = k->len == ALL ? sizeof(buf) : k->len;
		b.n_caps = 99;
		rc = usb_desc_bos_parse(buf, len, &b);
		if (rc != k->rc || (rc == 0 && (b.n_caps != k->n_caps || b.flags != k->flags)) ||
		    (rc < 0 && b.n_caps != 99))
			fail_msg("%s: rc %d, %zu caps, flags %#x", k->name, rc, b.n_caps, b.flags);
		if (rc == 0)
			assert_true(b.length <= len);
	}

	assert_int_equal(usb_desc_bos_parse(bos_odd, sizeof(bos_odd), &b), 0);
	assert_int_equal(b.flags, USB_DESC_F_SHORT | USB_DESC_F_BAD_TYPE | USB_DESC_F_NUM_CAPS);
	assert_int_equal(b.n_caps, 2);
	assert_int_equal(b.cap_types[0], 0x03);
	assert_false(b.ss_capable);
	assert_true(b.ssp_capable);
	assert_int_equal(b.n_sublinks, 2);

	/* more capabilities than kept */
	len = 5 + 40 * 3;
	many = malloc(len);
	assert_non_null(many);
	memcpy(many, (uint8_t[]){5, 0x0f, W(125), 40}, 5);
	for (i = 0; i < 40; i++)
		memcpy(many + 5 + 3 * i, (uint8_t[]){3, 0x10, 0x05}, 3);
	assert_int_equal(usb_desc_bos_parse(many, len, &b), 0);
	assert_int_equal(b.n_caps, USB_DESC_MAX_CAPS);
	assert_int_equal(b.flags, USB_DESC_F_LIMIT);
	free(many);
}

static void test_bos_prefixes(void **state)
{
	static const struct {
		const uint8_t *b;
		size_t len;
	} inputs[] = {
	    {bos_gen2x1, sizeof(bos_gen2x1)},
	    {bos_gen2x2, sizeof(bos_gen2x2)},
	    {bos_odd, sizeof(bos_odd)},
	};
	size_t i, len;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		for (len = 0; len <= inputs[i].len; len++) {
			struct usb_desc_bos b;
			int rc = usb_desc_bos_parse(inputs[i].b, len, &b);

			assert_int_equal(rc, len < 5 ? -EINVAL : 0);
			if (rc < 0)
				continue;
			assert_true(b.length <= len);
			assert_true(b.n_sublinks <= USB_DESC_MAX_SUBLINKS);
			(void)usb_desc_bos_max_speed(&b);
		}
	}
}

static int write_corpus(const char *dir)
{
	static const struct {
		const char *name;
		const uint8_t *b;
		size_t len;
	} seeds[] = {
	    {"bos_gen2x1", bos_gen2x1, sizeof(bos_gen2x1)},
	    {"bos_gen2x2", bos_gen2x2, sizeof(bos_gen2x2)},
	    {"bos_odd", bos_odd, sizeof(bos_odd)},
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
		fputc(2, f); /* the fuzzer's selector: BOS parser only */
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
	    cmocka_unit_test(test_bos),		 cmocka_unit_test(test_ssp_speeds),
	    cmocka_unit_test(test_ss_speeds),	 cmocka_unit_test(test_bos_malformed),
	    cmocka_unit_test(test_bos_prefixes),
	};

	if (argc == 3 && !strcmp(argv[1], "--write-corpus"))
		return write_corpus(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

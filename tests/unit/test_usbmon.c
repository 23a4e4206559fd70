// SPDX-License-Identifier: MIT
/*
 * platform/usbmon: the event parser, the statistics and the pcapng writer and reader,
 * on hand-built events (edge cases) and on captures recorded in the QEMU lab
 * (tests/fixtures/usbmon: a Bulk-Only and a UAS disk read, pcapng).
 */
#include "unit.h"

#include "platform/usbmon/fields.h"
#include "platform/usbmon/findings.h"
#include "platform/usbmon/pass.h"
#include "platform/usbmon/usbmon.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ev {
	char type;
	uint8_t xfer, ep, dev;
	uint16_t bus;
	uint64_t id, t_us;
	int32_t status;
	uint32_t len_urb, len_cap, ndesc;
	int32_t iso_err, iso_num;
};

/* a 64-byte header, laid out as struct mon_bin_hdr, then len_cap zero bytes */
static size_t build(const struct ev *e, uint8_t *buf, size_t cap)
{
	int64_t sec = (int64_t)(e->t_us / 1000000);
	int32_t usec = (int32_t)(e->t_us % 1000000);
	size_t n = USBMON_HDR_LEN + e->len_cap;

	assert_true(n <= cap);
	memset(buf, 0, n);
	memcpy(buf, &e->id, 8);
	buf[8] = (uint8_t)e->type;
	buf[9] = e->xfer;
	buf[10] = e->ep;
	buf[11] = e->dev;
	memcpy(buf + 12, &e->bus, 2);
	buf[14] = '-';
	memcpy(buf + 16, &sec, 8);
	memcpy(buf + 24, &usec, 4);
	memcpy(buf + 28, &e->status, 4);
	memcpy(buf + 32, &e->len_urb, 4);
	memcpy(buf + 36, &e->len_cap, 4);
	memcpy(buf + 40, &e->iso_err, 4);
	memcpy(buf + 44, &e->iso_num, 4);
	memcpy(buf + 60, &e->ndesc, 4);
	return n;
}

static void feed(struct usbmon_stats *s, const struct ev *v, size_t n)
{
	uint8_t buf[4096];

	for (size_t i = 0; i < n; i++) {
		struct usbmon_event e;
		size_t len = build(&v[i], buf, sizeof(buf));

		assert_int_equal(usbmon_event_parse(buf, len, &e, NULL), 0);
		assert_int_equal(usbmon_stats_add(s, &e), 0);
	}
}

static const struct usbmon_ep_stats *ep(const struct usbmon_stats *s, unsigned dev, unsigned a)
{
	for (size_t i = 0; i < s->neps; i++)
		if (s->eps[i].devnum == dev && s->eps[i].epnum == a)
			return &s->eps[i];
	fail_msg("no endpoint 0x%02x on device %u", a, dev);
	return NULL;
}

static void test_parse_edges(void **state)
{
	struct ev good = {.type = 'C',
			  .xfer = USBMON_BULK,
			  .ep = 0x81,
			  .dev = 2,
			  .bus = 1,
			  .id = 7,
			  .t_us = 5000001,
			  .len_urb = 512,
			  .len_cap = 16};
	struct ev iso = {.type = 'C',
			 .xfer = USBMON_ISO,
			 .ep = 0x82,
			 .dev = 2,
			 .bus = 1,
			 .t_us = 1,
			 .len_cap = 32,
			 .ndesc = 2};
	uint8_t buf[256];
	struct usbmon_event e;
	struct usbmon_isodesc d;
	size_t n, used;
	int32_t st = -EXDEV;

	(void)state;
	n = build(&good, buf, sizeof(buf));
	assert_int_equal(usbmon_event_parse(buf, n, &e, &used), 0);
	assert_int_equal(used, 80);
	assert_int_equal(e.type, 'C');
	assert_int_equal(e.epnum, 0x81);
	assert_int_equal(e.busnum, 1);
	assert_int_equal(e.len_urb, 512);
	assert_int_equal(e.data_len, 16);
	assert_true(usbmon_event_us(&e) == 5000001);
	/* truncated: the header, then the captured bytes */
	assert_int_equal(usbmon_event_parse(buf, 63, &e, NULL), -EINVAL);
	assert_int_equal(usbmon_event_parse(buf, n - 1, &e, NULL), -EINVAL);
	assert_int_equal(usbmon_event_parse(NULL, 0, &e, NULL), -EINVAL);
	buf[8] = 'X';
	assert_int_equal(usbmon_event_parse(buf, n, &e, NULL), -EINVAL);
	buf[8] = 'C';
	buf[9] = 4; /* no such transfer type */
	assert_int_equal(usbmon_event_parse(buf, n, &e, NULL), -EINVAL);
	/* a filler parses; its len_cap still has to fit */
	good.type = '@';
	n = build(&good, buf, sizeof(buf));
	assert_int_equal(usbmon_event_parse(buf, n, &e, NULL), 0);
	assert_int_equal(e.type, '@');
	/* iso descriptors: after the header, within len_cap, only on iso */
	n = build(&iso, buf, sizeof(buf));
	memcpy(buf + 64 + 16, &st, 4);
	assert_int_equal(usbmon_event_parse(buf, n, &e, NULL), 0);
	assert_int_equal(e.ndesc, 2);
	assert_int_equal(e.data_len, 0);
	usbmon_isodesc_get(&e, 1, &d);
	assert_int_equal(d.status, -EXDEV);
	iso.ndesc = 3; /* 48 bytes of descriptors in 32 */
	n = build(&iso, buf, sizeof(buf));
	assert_int_equal(usbmon_event_parse(buf, n, &e, NULL), -EINVAL);
	iso.ndesc = 2;
	iso.xfer = USBMON_BULK;
	n = build(&iso, buf, sizeof(buf));
	assert_int_equal(usbmon_event_parse(buf, n, &e, NULL), -EINVAL);
}

/* one Bulk-Only read command: CBW out, data in, CSW in */
#define BOT(id0, t0, size)                                                                         \
	{'S', USBMON_BULK, 0x02, 3, 1, id0, t0, -EINPROGRESS, 31, 31, 0, 0, 0},                    \
	    {'C', USBMON_BULK, 0x02, 3, 1, id0, t0 + 10, 0, 31, 0, 0, 0, 0},                       \
	    {'S', USBMON_BULK, 0x81, 3, 1, id0 + 1, t0 + 12, -EINPROGRESS, size, 0, 0, 0, 0},      \
	    {'C', USBMON_BULK, 0x81, 3, 1, id0 + 1, t0 + 112, 0, size, 0, 0, 0, 0},                \
	    {'S', USBMON_BULK, 0x81, 3, 1, id0 + 2, t0 + 114, -EINPROGRESS, 13, 0, 0, 0, 0},       \
	{                                                                                          \
		'C', USBMON_BULK, 0x81, 3, 1, id0 + 2, t0 + 120, 0, 13, 13, 0, 0, 0                \
	}

static void test_stats_bot(void **state)
{
	static const struct ev v[] = {BOT(100, 1000000, 122880), BOT(200, 1000200, 122880),
				      BOT(300, 1000400, 65536)};
	struct usbmon_stats s;
	const struct usbmon_ep_stats *in, *out;
	const struct usbmon_dev_stats *d;
	uint64_t cnt;

	(void)state;
	assert_int_equal(usbmon_stats_init(&s), 0);
	s.start_us = 1000000;
	feed(&s, v, ARRAY_SIZE(v));
	usbmon_stats_finish(&s, 1001000);
	assert_int_equal(s.neps, 2);
	assert_int_equal(s.ndevs, 1);
	in = ep(&s, 3, 0x81);
	out = ep(&s, 3, 0x02);
	assert_int_equal(out->completions, 3);
	assert_int_equal(out->bytes, 93);
	assert_int_equal(in->completions, 6);
	assert_int_equal(in->bytes, 2 * 122880 + 65536 + 3 * 13);
	/* by bytes moved: three 13 B CSWs do not make the URB size */
	assert_int_equal(usbmon_ep_dominant(in, &cnt), 122880);
	assert_int_equal(cnt, 2);
	assert_int_equal(usbmon_ep_dominant(out, &cnt), 31);
	assert_int_equal(cnt, 3);
	/* 13 B CSWs in [8, 16), 64 KiB and 120 KiB in [64 KiB, 128 KiB) */
	assert_int_equal(in->size_hist[4], 3);
	assert_int_equal(in->size_hist[17], 3);
	assert_int_equal(usbmon_size_bucket_low(17), 65536);
	/* latency: three 100 us data URBs, three 6 us CSWs: exact below 64 us */
	assert_int_equal(in->lat_n, 6);
	assert_near(usbmon_ep_lat_quantile(in, 0.5), 6, 0);
	assert_near(usbmon_ep_lat_quantile(in, 0.99), 100, 100.0 / 64);
	assert_int_equal(in->lat_max_us, 100);
	assert_near(usbmon_ep_lat_quantile(out, 0.5), 10, 0);
	/* one URB at a time; busy 120 of every 200 us for three commands */
	assert_int_equal(in->inflight_max, 1);
	d = usbmon_dev_find(&s, 1, 3);
	assert_non_null(d);
	assert_int_equal(d->inflight_max, 1);
	assert_int_equal(d->busy_us, 3 * (10 + 100 + 6));
	assert_near(d->inflight_area, 3 * (10 + 100 + 6), 1e-9);
	assert_near(in->inflight_area, 3 * 106, 1e-9);
	assert_near(usbmon_window_s(&s), 0.001, 1e-12);
	assert_int_equal(in->unmatched, 0);
	usbmon_stats_release(&s);
}

static void test_stats_unmatched_errors_iso(void **state)
{
	static const struct ev v[] = {
	    /* a completion whose submit came before the capture */
	    {'C', USBMON_BULK, 0x81, 4, 2, 1, 10, 0, 512, 0, 0, 0, 0},
	    /* a stall, a protocol error, an unlink, a babble, a shutdown, another */
	    {'S', USBMON_BULK, 0x01, 4, 2, 2, 20, -EINPROGRESS, 512, 0, 0, 0, 0},
	    {'C', USBMON_BULK, 0x01, 4, 2, 2, 30, -EPIPE, 0, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x83, 4, 2, 3, 20, -EINPROGRESS, 8, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x83, 4, 2, 3, 25, -EPROTO, 0, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x83, 4, 2, 3, 30, -EINPROGRESS, 8, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x83, 4, 2, 3, 35, -ENOENT, 0, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x83, 4, 2, 3, 40, -EINPROGRESS, 8, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x83, 4, 2, 3, 45, -EOVERFLOW, 8, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x83, 4, 2, 3, 50, -EINPROGRESS, 8, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x83, 4, 2, 3, 55, -ESHUTDOWN, 0, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x83, 4, 2, 3, 60, -EINPROGRESS, 8, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x83, 4, 2, 3, 65, -EREMOTEIO, 2, 0, 0, 0, 0},
	    /* a submit the HCD refused: 'E', no completion, the URB no longer in flight */
	    {'S', USBMON_BULK, 0x01, 4, 2, 4, 70, -EINPROGRESS, 512, 0, 0, 0, 0},
	    {'E', USBMON_BULK, 0x01, 4, 2, 4, 71, -ENODEV, 0, 0, 0, 0, 0},
	    /* iso: 8 packets, 3 with errors; the ring carries no descriptors here */
	    {'S', USBMON_ISO, 0x84, 4, 2, 5, 80, -EINPROGRESS, 3072, 0, 0, 0, 8},
	    {'C', USBMON_ISO, 0x84, 4, 2, 5, 1080, 0, 2048, 0, 0, 3, 8},
	};
	struct usbmon_stats s;
	const struct usbmon_ep_stats *e;

	(void)state;
	assert_int_equal(usbmon_stats_init(&s), 0);
	feed(&s, v, ARRAY_SIZE(v));
	usbmon_stats_finish(&s, 0);
	e = ep(&s, 4, 0x81);
	assert_int_equal(e->unmatched, 1);
	assert_int_equal(e->bytes, 512); /* on the wire all the same */
	assert_int_equal(e->lat_n, 0);
	assert_nan(usbmon_ep_lat_quantile(e, 0.5));
	assert_int_equal(e->inflight, 0);
	e = ep(&s, 4, 0x01);
	assert_int_equal(e->errors[USBMON_EPIPE], 1);
	assert_int_equal(e->submit_errors, 1);
	assert_int_equal(e->errors[USBMON_EOTHER], 1); /* the -ENODEV of the 'E' */
	assert_int_equal(e->completions, 1);
	assert_int_equal(e->inflight, 0);
	e = ep(&s, 4, 0x83);
	assert_int_equal(e->errors[USBMON_EPROTO], 1);
	assert_int_equal(e->errors[USBMON_ENOENT], 1);
	assert_int_equal(e->errors[USBMON_EOVERFLOW], 1);
	assert_int_equal(e->errors[USBMON_ESHUTDOWN], 1);
	assert_int_equal(e->errors[USBMON_EOTHER], 1);
	assert_int_equal(e->bytes, 10);
	e = ep(&s, 4, 0x84);
	assert_int_equal(e->iso_packets, 8);
	assert_int_equal(e->iso_packet_errors, 3);
	assert_int_equal(e->bytes, 2048);
	assert_int_equal(e->lat_max_us, 1000);
	usbmon_stats_release(&s);
}

/*
 * A HID gadget's interrupt IN as the lab recorded it (f_hid on dummy_hcd): each
 * 64 B report fills the 64 B packet and the gadget ends it with a zero-length
 * packet, on which the host's resubmitted URB completes empty; at the end the
 * host kills its URB (-ENOENT, empty but not "empty": an unlink).
 */
static void test_stats_empty(void **state)
{
	static const struct ev v[] = {
	    {'S', USBMON_INTR, 0x81, 3, 1, 7, 0, -EINPROGRESS, 64, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x81, 3, 1, 7, 100, 0, 64, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x81, 3, 1, 7, 110, -EINPROGRESS, 64, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x81, 3, 1, 7, 400, 0, 0, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x81, 3, 1, 7, 410, -EINPROGRESS, 64, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x81, 3, 1, 7, 900, 0, 64, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x81, 3, 1, 7, 910, -EINPROGRESS, 64, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x81, 3, 1, 7, 1200, 0, 0, 0, 0, 0, 0},
	    {'S', USBMON_INTR, 0x81, 3, 1, 7, 1210, -EINPROGRESS, 64, 0, 0, 0, 0},
	    {'C', USBMON_INTR, 0x81, 3, 1, 7, 5000, -ENOENT, 0, 0, 0, 0, 0},
	};
	struct usbmon_pass_figures f;
	struct usbmon_stats s;
	const struct usbmon_ep_stats *e;

	(void)state;
	assert_int_equal(usbmon_stats_init(&s), 0);
	feed(&s, v, ARRAY_SIZE(v));
	usbmon_stats_finish(&s, 0);
	e = ep(&s, 3, 0x81);
	assert_int_equal(e->completions, 5);
	assert_int_equal(e->empty, 2);
	assert_int_equal(e->size_hist[0], 3);
	assert_int_equal(e->errors[USBMON_ENOENT], 1);
	assert_int_equal(usbmon_pass_figures(&s, 1, 3, false, &f), 0);
	assert_int_equal(f.urbs, 5);
	assert_int_equal(f.urbs_data, 2);
	assert_int_equal(f.urbs_empty, 2);
	assert_int_equal(f.urb_size, 64);
	assert_int_equal(f.errors_total, 0); /* the unlink is the owner's, not an error */
	usbmon_stats_release(&s);
}

static void test_stats_inflight(void **state)
{
	/* two URBs overlap for 50 of 100 us; a submit seen twice (its completion lost) */
	static const struct ev v[] = {
	    {'S', USBMON_BULK, 0x81, 5, 1, 1, 0, -EINPROGRESS, 4096, 0, 0, 0, 0},
	    {'S', USBMON_BULK, 0x81, 5, 1, 2, 25, -EINPROGRESS, 4096, 0, 0, 0, 0},
	    {'C', USBMON_BULK, 0x81, 5, 1, 1, 75, 0, 4096, 0, 0, 0, 0},
	    {'C', USBMON_BULK, 0x81, 5, 1, 2, 100, 0, 4096, 0, 0, 0, 0},
	    {'S', USBMON_BULK, 0x81, 5, 1, 3, 200, -EINPROGRESS, 4096, 0, 0, 0, 0},
	    {'S', USBMON_BULK, 0x81, 5, 1, 3, 300, -EINPROGRESS, 4096, 0, 0, 0, 0},
	    {'C', USBMON_BULK, 0x81, 5, 1, 3, 400, 0, 4096, 0, 0, 0, 0},
	};
	struct usbmon_stats s;
	const struct usbmon_ep_stats *e;
	const struct usbmon_dev_stats *d;

	(void)state;
	assert_int_equal(usbmon_stats_init(&s), 0);
	s.start_us = 0;
	feed(&s, v, ARRAY_SIZE(v));
	usbmon_stats_finish(&s, 500);
	e = ep(&s, 5, 0x81);
	d = usbmon_dev_find(&s, 1, 5);
	assert_int_equal(e->inflight_max, 2);
	/* 0-25: 1, 25-75: 2, 75-100: 1, 200-400: 1 (the lost completion ends at 300) */
	assert_near(e->inflight_area, 25 + 100 + 25 + 200, 1e-9);
	assert_int_equal(d->busy_us, 100 + 200);
	assert_int_equal(e->lat_n, 3);
	assert_int_equal(e->lat_max_us, 100);
	assert_int_equal(e->inflight, 0);
	usbmon_stats_release(&s);
}

static void test_pending_cap(void **state)
{
	struct usbmon_stats s;
	struct ev v = {.type = 'S',
		       .xfer = USBMON_BULK,
		       .ep = 0x81,
		       .dev = 6,
		       .bus = 1,
		       .status = -EINPROGRESS};
	uint8_t buf[128];
	struct usbmon_event e;
	uint64_t i;

	(void)state;
	assert_int_equal(usbmon_stats_init(&s), 0);
	for (i = 0; i < USBMON_INFLIGHT_CAP + 10; i++) {
		v.id = 0x1000 + i * 64;
		v.t_us = i;
		build(&v, buf, sizeof(buf));
		assert_int_equal(usbmon_event_parse(buf, 64, &e, NULL), 0);
		assert_int_equal(usbmon_stats_add(&s, &e), 0);
	}
	assert_int_equal(s.pending_overflow, 10);
	/* every tracked one still matches, in any order */
	v.type = 'C';
	v.status = 0;
	for (i = USBMON_INFLIGHT_CAP; i-- > 0;) {
		v.id = 0x1000 + i * 64;
		v.t_us = USBMON_INFLIGHT_CAP + 10;
		build(&v, buf, sizeof(buf));
		assert_int_equal(usbmon_event_parse(buf, 64, &e, NULL), 0);
		assert_int_equal(usbmon_stats_add(&s, &e), 0);
	}
	assert_int_equal(s.eps[0].lat_n, USBMON_INFLIGHT_CAP);
	assert_int_equal(s.eps[0].unmatched, 0);
	assert_int_equal(s.eps[0].inflight, 0);
	usbmon_stats_release(&s);
}

struct collect {
	struct usbmon_stats *s;
	unsigned n;
};

static int collect_one(const struct usbmon_event *e, const uint8_t *raw, size_t len, void *ctx)
{
	struct collect *c = ctx;

	(void)raw;
	(void)len;
	c->n++;
	return usbmon_stats_add(c->s, e);
}

static void test_pcapng_roundtrip(void **state)
{
	static const struct ev v[] = {BOT(100, 1000000, 122880), BOT(200, 1000200, 4096)};
	struct strbuf f = STRBUF_INIT, why = STRBUF_INIT;
	struct usbmon_stats s;
	struct collect c = {.s = &s};
	uint8_t buf[256];
	size_t i;
	uint32_t bad;

	(void)state;
	usbmon_pcapng_head(&f);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		usbmon_pcapng_packet(&f, buf, build(&v[i], buf, sizeof(buf)), 0);
	assert_int_equal(usbmon_stats_init(&s), 0);
	assert_int_equal(usbmon_pcapng_read((uint8_t *)f.buf, f.len, collect_one, &c, &why), 0);
	assert_int_equal(c.n, 12);
	assert_int_equal(ep(&s, 3, 0x81)->bytes, 122880 + 4096 + 26);
	/* the EPB says the data on the wire: 64 + 122880 for the data completion */
	memcpy(&bad, f.buf + 48 + (32 + 96) + 96 + 96 + 24, 4); /* the CBW's EPB has 31 B */
	assert_int_equal(bad, 64 + 122880);
	usbmon_stats_release(&s);
	/* a snap length: the data cut, the header whole, the figures the same */
	strbuf_reset(&f);
	usbmon_pcapng_head(&f);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		usbmon_pcapng_packet(&f, buf, build(&v[i], buf, sizeof(buf)), 8);
	memcpy(&bad, f.buf + 48 + 20, 4); /* the CBW's captured length: 64 + 8 */
	assert_int_equal(bad, 72);
	memcpy(&bad, f.buf + 48 + 24, 4); /* its original length */
	assert_int_equal(bad, 95);
	assert_int_equal(usbmon_stats_init(&s), 0);
	c.n = 0;
	assert_int_equal(usbmon_pcapng_read((uint8_t *)f.buf, f.len, collect_one, &c, &why), 0);
	assert_int_equal(c.n, 12);
	assert_int_equal(ep(&s, 3, 0x02)->bytes, 62);
	assert_int_equal(ep(&s, 3, 0x81)->bytes, 122880 + 4096 + 26);
	usbmon_stats_release(&s);
	/* cut anywhere inside: refused with a reason */
	assert_int_equal(usbmon_stats_init(&s), 0);
	assert_int_equal(usbmon_pcapng_read((uint8_t *)f.buf, f.len - 3, collect_one, &c, &why),
			 -EINVAL);
	assert_true(why.len > 0);
	strbuf_reset(&why);
	/* another link type */
	f.buf[36] = 1;
	assert_int_equal(usbmon_pcapng_read((uint8_t *)f.buf, f.len, collect_one, &c, &why),
			 -EINVAL);
	assert_non_null(strstr(why.buf, "link type"));
	strbuf_reset(&why);
	assert_int_equal(usbmon_pcapng_read((uint8_t *)"hello world!", 12, collect_one, &c, &why),
			 -EINVAL);
	assert_non_null(strstr(why.buf, "not a pcapng"));
	usbmon_stats_release(&s);
	strbuf_release(&f);
	strbuf_release(&why);
}

/* a capture recorded in the lab (tests/lab/scenarios/usb-host.sh), cut to 128 B a packet */
static void read_fixture(const char *name, struct usbmon_stats *s)
{
	const char *dir = getenv("USBPERF_FIXTURES");
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT, why = STRBUF_INIT;
	struct collect c = {.s = s};
	char chunk[4096];
	size_t n;
	FILE *f;

	assert_non_null(dir);
	strbuf_addf(&path, "%s/usbmon/%s", dir, name);
	f = fopen(path.buf, "rb");
	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(&buf, chunk, n);
	fclose(f);
	assert_int_equal(usbmon_stats_init(s), 0);
	assert_int_equal(usbmon_pcapng_read((uint8_t *)buf.buf, buf.len, collect_one, &c, &why), 0);
	usbmon_stats_finish(s, 0);
	strbuf_release(&path);
	strbuf_release(&buf);
	strbuf_release(&why);
}

static uint64_t size_count(const struct usbmon_ep_stats *e, uint32_t size)
{
	for (unsigned i = 0; i < e->nsizes; i++)
		if (e->sizes[i].size == size)
			return e->sizes[i].count;
	return 0;
}

/*
 * usb-storage (Bulk-Only) at 5 Gbit/s, max_sectors_kb 1024, a 4 MiB O_DIRECT dd:
 * five READ(10) commands (the block layer split the request at 1 MiB and at a
 * page boundary), each a 31 B CBW, one data URB and a 13 B CSW.
 */
static void test_fixture_bot(void **state)
{
	struct usbmon_stats s;
	const struct usbmon_ep_stats *in, *out;
	const struct usbmon_dev_stats *d;
	uint64_t n;

	(void)state;
	read_fixture("bot-read.pcapng", &s);
	assert_int_equal(s.events, 30);
	assert_int_equal(s.ndevs, 1);
	assert_int_equal(s.neps, 2);
	out = ep(&s, 2, 0x02);
	in = ep(&s, 2, 0x81);
	assert_int_equal(out->completions, 5);
	assert_int_equal(out->bytes, 5 * 31);
	assert_int_equal(size_count(out, 31), 5);
	assert_int_equal(size_count(in, 13), 5);
	assert_int_equal(in->completions, 10);
	assert_int_equal(in->bytes - 5 * 13, 4194304);
	assert_int_equal(usbmon_ep_dominant(in, &n), 1048576);
	assert_int_equal(n, 3);
	assert_int_equal(size_count(in, 12288) + size_count(in, 1036288), 2);
	/* one URB at a time: Bulk-Only has no queue */
	assert_int_equal(in->inflight_max, 1);
	d = usbmon_dev_find(&s, 2, 2);
	assert_int_equal(d->inflight_max, 1);
	assert_int_equal(in->unmatched + out->unmatched, 0);
	assert_int_equal(in->lat_n, 10);
	assert_int_equal(s.dropped, 0);
	usbmon_stats_release(&s);
}

/*
 * uas at 5 Gbit/s, max_sectors_kb 512, the same dd: nine commands, each a 32 B
 * command IU out, a 16 B sense IU in on the status pipe, the data on data-in.
 */
static void test_fixture_uas(void **state)
{
	struct usbmon_stats s;
	const struct usbmon_ep_stats *cmd, *status, *data;
	uint64_t n;

	(void)state;
	read_fixture("uas-read.pcapng", &s);
	assert_int_equal(s.events, 54);
	cmd = ep(&s, 3, 0x01);
	status = ep(&s, 3, 0x82);
	data = ep(&s, 3, 0x83);
	assert_int_equal(size_count(cmd, 32), 9);
	assert_int_equal(size_count(status, 16), 9);
	assert_int_equal(data->bytes, 4194304);
	assert_int_equal(usbmon_ep_dominant(data, &n), 524288);
	assert_int_equal(n, 7);
	/* the command, status and data pipes overlap */
	assert_true(usbmon_dev_find(&s, 2, 3)->inflight_max > 1);
	usbmon_stats_release(&s);
}

/* the pass figures of the Bulk-Only fixture: five commands, 44 B of wrappers each */
static void test_pass_figures_bot(void **state)
{
	struct usbmon_pass_figures f;
	struct usbmon_stats s;

	(void)state;
	read_fixture("bot-read.pcapng", &s);
	assert_int_equal(usbmon_pass_figures(&s, 2, 9, true, &f), -ENOENT);
	assert_int_equal(usbmon_pass_figures(&s, 2, 2, true, &f), 0);
	assert_int_equal(f.bytes_in, 4194304 + 5 * 13);
	assert_int_equal(f.bytes_out, 5 * 31);
	assert_int_equal(f.data_ep, 0x81);
	assert_int_equal(f.urb_size, 1048576);
	assert_int_equal(f.urb_size_count, 3);
	assert_int_equal(f.urbs, 15);
	assert_int_equal(f.inflight_max, 1);
	assert_true(f.inflight_mean > 0 && f.inflight_mean <= 1);
	assert_true(f.busy_pct > 0 && f.busy_pct <= 100);
	assert_true(f.lat_p50_us <= f.lat_p99_us && f.lat_p99_us <= f.lat_max_us);
	assert_int_equal(f.bot_commands, 5);
	assert_int_equal(f.protocol_bytes, 5 * 44);
	assert_near(f.protocol_pct, 100.0 * 220 / (4194304 + 220), 1e-9);
	assert_int_equal(f.errors_total, 0);
	assert_false(f.lower_bound);
	/* the 1 MiB completions sit in the [1 MiB, 2 MiB) bucket */
	assert_int_equal(f.size_hist[21], 3);
	/* over the pass's own time (half the window): the same URBs, twice the rates */
	{
		struct usbmon_pass_figures h = f;

		usbmon_pass_figures_over(&h, f.window_s / 2);
		assert_near(h.wire_mb_s, 2 * f.wire_mb_s, 1e-9);
		assert_near(h.inflight_mean, 2 * f.inflight_mean, 1e-9);
		assert_near(h.busy_pct, fmin(100, 2 * f.busy_pct), 1e-9);
		assert_int_equal(h.bytes_in, f.bytes_in);
		h = f;
		usbmon_pass_figures_over(&h, 2 * f.window_s); /* longer than the capture: kept */
		assert_near(h.wire_mb_s, f.wire_mb_s, 1e-12);
	}
	/* not Bulk-Only: no wrappers counted */
	assert_int_equal(usbmon_pass_figures(&s, 2, 2, false, &f), 0);
	assert_int_equal(f.protocol_bytes, 0);
	assert_true(isnan(f.protocol_pct));
	usbmon_stats_release(&s);
}

/* UAS: the data pipe is the busiest endpoint, its URBs 512 KiB, several in flight */
static void test_pass_figures_uas(void **state)
{
	struct usbmon_pass_figures f;
	struct usbmon_stats s;

	(void)state;
	read_fixture("uas-read.pcapng", &s);
	assert_int_equal(usbmon_pass_figures(&s, 2, 3, false, &f), 0);
	assert_int_equal(f.data_ep, 0x83);
	assert_int_equal(f.urb_size, 524288);
	assert_true(f.inflight_max > 1);
	assert_true(f.data_inflight_max > 1); /* streams: several on the data pipe at once */
	assert_int_equal(f.bytes_in, 4194304 + 9 * 16);
	assert_int_equal(f.bytes_out, 9 * 32);
	usbmon_stats_release(&s);
}

static const struct finding *find_id(const struct finding_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id))
			return &l->v[i];
	return NULL;
}

/* a pass view from the fixture's figures, as run builds it from a disk row */
static struct usbmon_pass_view view_of(const struct usbmon_pass_figures *f, const char *pass,
				       uint64_t bs, unsigned qd)
{
	return (struct usbmon_pass_view){
	    .pass = pass,
	    .request_bytes = bs,
	    .qd = qd,
	    .urb_size = f->urb_size,
	    .urbs = f->urbs,
	    .usb_errors = f->errors_total,
	    .wire_bytes = f->bytes_in + f->bytes_out,
	    .bot_commands = f->bot ? f->bot_commands : U64_UNKNOWN,
	    .protocol_bytes = f->bot ? f->protocol_bytes : U64_UNKNOWN,
	    .inflight_mean = f->inflight_mean,
	    .inflight_max = f->inflight_max,
	    .busy_pct = f->busy_pct,
	    .protocol_pct = f->protocol_pct,
	    .data_inflight_max = f->data_inflight_max,
	};
}

/* UAS with and without streams: the data pipe's URBs in flight at once */
static void test_findings_uas_streams(void **state)
{
	struct usbmon_device_view d = {.subject = "2-2", .driver = "uas", .max_sectors_kb = 512};
	struct finding_list l = FINDING_LIST_INIT;
	struct usbmon_pass_figures f;
	struct usbmon_pass_view v;
	struct usbmon_stats s;
	const struct finding *x;

	(void)state;
	read_fixture("uas-read.pcapng", &s);
	assert_int_equal(usbmon_pass_figures(&s, 2, 3, false, &f), 0);
	usbmon_stats_release(&s);
	v = view_of(&f, "seq-read 4M", 4u << 20, 4);
	usbmon_findings(&d, &v, 1, &l);
	x = find_id(&l, "usbmon.uas_streams");
	assert_non_null(x);
	assert_string_equal(x->severity, "info");
	assert_non_null(strstr(x->evidence, "seq-read 4M: 4 requests queued"));
	finding_list_release(&l);
	/* the same device's data one command at a time at QD32: no streams */
	v.pass = "rand-read 4K Q32";
	v.qd = 32;
	v.data_inflight_max = 1;
	usbmon_findings(&d, &v, 1, &l);
	x = find_id(&l, "usbmon.uas_streams");
	assert_non_null(x);
	assert_string_equal(x->severity, "warn");
	assert_non_null(strstr(x->evidence, "at most 1 data URB in flight"));
	assert_non_null(strstr(x->fix, "SuperSpeed"));
	finding_list_release(&l);
	/* at QD1 nothing more could have been in flight; Bulk-Only has no streams to speak of */
	v.qd = 1;
	usbmon_findings(&d, &v, 1, &l);
	assert_null(find_id(&l, "usbmon.uas_streams"));
	finding_list_release(&l);
	v.qd = 32;
	d.driver = "usb-storage";
	usbmon_findings(&d, &v, 1, &l);
	assert_null(find_id(&l, "usbmon.uas_streams"));
	finding_list_release(&l);
}

/*
 * The Bulk-Only fixture read as a 4 MiB request at QD4: the wire carried 1 MiB URBs
 * one at a time. Its URBs (1 MiB) are not small, its wrappers a tiny share: those
 * findings stay away; with the same figures read as 120 KiB URBs they come.
 */
static void test_findings_bot_fixture(void **state)
{
	struct usbmon_device_view d = {
	    .subject = "2-1", .driver = "usb-storage", .block = "sdb", .max_sectors_kb = 1024};
	struct finding_list l = FINDING_LIST_INIT;
	struct usbmon_pass_figures f;
	struct usbmon_pass_view v;
	struct usbmon_stats s;
	const struct finding *x;

	(void)state;
	read_fixture("bot-read.pcapng", &s);
	assert_int_equal(usbmon_pass_figures(&s, 2, 2, true, &f), 0);
	usbmon_stats_release(&s);
	v = view_of(&f, "seq-read 4M", 4u << 20, 4);
	usbmon_findings(&d, &v, 1, &l);
	x = find_id(&l, "usbmon.one_in_flight");
	assert_non_null(x);
	assert_string_equal(x->subject, "2-1");
	assert_non_null(strstr(x->evidence, "4 requests queued"));
	assert_non_null(strstr(x->fix, "uas"));
	assert_null(find_id(&l, "usbmon.small_urbs"));	      /* 1 MiB URBs */
	assert_null(find_id(&l, "usbmon.protocol_overhead")); /* 0.005 % */
	assert_null(find_id(&l, "usbmon.errors"));
	finding_list_release(&l);
	/* at QD1 nothing more could have been in flight */
	v.qd = 1;
	usbmon_findings(&d, &v, 1, &l);
	assert_null(find_id(&l, "usbmon.one_in_flight"));
	finding_list_release(&l);
}

/* hand-built: usb-storage's 120 KiB cap, an idle bus, errors, 4K commands' wrappers */
static void test_findings_built(void **state)
{
	struct usbmon_device_view d = {
	    .subject = "1-2", .driver = "usb-storage", .block = "sdc", .max_sectors_kb = 120};
	struct usbmon_pass_view v[] = {
	    {.pass = "seq-read 1M",
	     .request_bytes = 1u << 20,
	     .qd = 1,
	     .urb_size = 122880,
	     .urbs = 300,
	     .usb_errors = 0,
	     .wire_bytes = 100u << 20,
	     .bot_commands = 100,
	     .protocol_bytes = 4400,
	     .inflight_mean = 0.9,
	     .inflight_max = 1,
	     .busy_pct = 35.5,
	     .protocol_pct = 0.004},
	    {.pass = "rand-read 4K",
	     .request_bytes = 4096,
	     .qd = 1,
	     .urb_size = 4096,
	     .urbs = 3000,
	     .usb_errors = 2,
	     .wire_bytes = 1000 * 4140,
	     .bot_commands = 1000,
	     .protocol_bytes = 44000,
	     .inflight_mean = 0.2,
	     .inflight_max = 1,
	     .busy_pct = 20,
	     .protocol_pct = 100.0 * 44 / 4140},
	};
	struct finding_list l = FINDING_LIST_INIT;
	const struct finding *x;

	(void)state;
	usbmon_findings(&d, v, 2, &l);
	x = find_id(&l, "usbmon.small_urbs");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "seq-read 1M: 1M requests went on the wire as 120K"));
	assert_non_null(strstr(x->evidence, "max_sectors_kb = 120, the same size"));
	assert_non_null(strstr(x->fix, "block.small_max_sectors"));
	/* the idle bus is the large-block pass's, not the 4K one's */
	x = find_id(&l, "usbmon.bus_idle");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "seq-read 1M: a URB in flight 35.5%"));
	x = find_id(&l, "usbmon.errors");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "rand-read 4K: 2"));
	x = find_id(&l, "usbmon.protocol_overhead");
	assert_non_null(x);
	assert_non_null(strstr(x->evidence, "rand-read 4K: 1000 commands"));
	assert_non_null(strstr(x->evidence, "44000 B"));
	assert_null(find_id(&l, "usbmon.one_in_flight")); /* QD1 */
	finding_list_release(&l);
	/* a busy bus, whole URBs, no errors: nothing to say */
	v[0].busy_pct = 97;
	v[0].urb_size = 1u << 20;
	v[1].usb_errors = 0;
	v[1].protocol_pct = 0.5;
	usbmon_findings(&d, v, 2, &l);
	assert_int_equal(l.n, 0);
	finding_list_release(&l);
}

static void test_rows(void **state)
{
	static const struct ev v[] = {BOT(100, 1000000, 122880), BOT(200, 1000200, 122880)};
	struct usbmon_stats s;
	struct usbmon_rows r;

	(void)state;
	assert_int_equal(usbmon_stats_init(&s), 0);
	s.start_us = 1000000;
	feed(&s, v, ARRAY_SIZE(v));
	usbmon_stats_finish(&s, 1001000);
	assert_int_equal(usbmon_rows_build(&s, NULL, &r), 0);
	assert_int_equal(r.ndev, 1);
	assert_int_equal(r.nep, 2);
	assert_string_equal(r.dev[0].device, "bus 1 dev 3");
	assert_int_equal(r.dev[0].urb_size, 122880);
	assert_int_equal(r.dev[0].in_bytes, 2 * 122880 + 26);
	assert_near(r.dev[0].in_mb_s, (2 * 122880 + 26) / 1e3, 1e-9);
	assert_near(r.dev[0].busy_pct, 100.0 * 2 * 116 / 1000, 1e-9);
	assert_string_equal(r.ep[0].endpoint, "0x02");
	assert_string_equal(r.ep[0].sizes, "31:2");
	assert_string_equal(r.ep[1].endpoint, "0x81");
	assert_string_equal(r.ep[1].sizes, "13:2 122880:2");
	assert_string_equal(r.ep[1].size_hist, "8:2 65536:2");
	assert_false(r.sum.lower_bound);
	usbmon_rows_release(&r);
	/* events the kernel dropped make every figure a lower bound */
	s.dropped = 2;
	assert_int_equal(usbmon_rows_build(&s, NULL, &r), 0);
	assert_true(r.sum.lower_bound);
	assert_int_equal(r.sum.dropped, 2);
	usbmon_rows_release(&r);
	usbmon_stats_release(&s);
}

/* the bytes each size moved, past 64 bits (size x count), compared exactly on 32-bit boards too */
static void test_dominant_wide(void **state)
{
	struct usbmon_ep_stats e;
	uint64_t n = 0;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.nsizes = 3;
	e.sizes[0] = (struct usbmon_size_count){13, UINT64_C(1) << 63};		 /* 2^66.7 B */
	e.sizes[1] = (struct usbmon_size_count){0xffffffffu, UINT64_C(1) << 40}; /* ~2^72 B */
	e.sizes[2] = (struct usbmon_size_count){0x80000000u, UINT64_C(1) << 41}; /* 2^72 B */
	assert_int_equal(usbmon_ep_dominant(&e, &n), 0x80000000u);
	assert_true(n == UINT64_C(1) << 41);
	/* a tie in bytes goes to the larger size */
	e.sizes[1] = (struct usbmon_size_count){0x40000000u, UINT64_C(1) << 42};
	e.nsizes = 2;
	e.sizes[0] = (struct usbmon_size_count){0x80000000u, UINT64_C(1) << 41};
	assert_int_equal(usbmon_ep_dominant(&e, &n), 0x80000000u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_edges),
	    cmocka_unit_test(test_dominant_wide),
	    cmocka_unit_test(test_stats_bot),
	    cmocka_unit_test(test_stats_unmatched_errors_iso),
	    cmocka_unit_test(test_stats_inflight),
	    cmocka_unit_test(test_stats_empty),
	    cmocka_unit_test(test_pending_cap),
	    cmocka_unit_test(test_pcapng_roundtrip),
	    cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_fixture_bot),
	    cmocka_unit_test(test_fixture_uas),
	    cmocka_unit_test(test_pass_figures_bot),
	    cmocka_unit_test(test_pass_figures_uas),
	    cmocka_unit_test(test_findings_bot_fixture),
	    cmocka_unit_test(test_findings_built),
	    cmocka_unit_test(test_findings_uas_streams),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

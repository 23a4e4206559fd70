// SPDX-License-Identifier: MIT
/*
 * Theoretical USB ceilings: line coding per speed, one endpoint's payload
 * ceiling per transfer type, field references and the NCM gadget's reported
 * bitrate. The UVC and HID calculators are in limits_calc.c.
 */
#include "platform/usb/limits.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool speed_valid(enum usb_speed s)
{
	return s > USB_SPEED_UNKNOWN && s < USB_SPEED_COUNT;
}

const char *usb_xfer_name(enum usb_xfer t)
{
	static const char *const names[USB_XFER_COUNT] = {
		[USB_XFER_CONTROL] = "control",
		[USB_XFER_BULK] = "bulk",
		[USB_XFER_INTERRUPT] = "interrupt",
		[USB_XFER_ISOC] = "isochronous",
	};

	return t < USB_XFER_COUNT ? names[t] : "unknown";
}

/*
 * Line coding. USB 2.0 signals NRZI with a stuffed bit after six ones: up to
 * 1/7 of the bits in the worst case, none for random data; the USB 2.0
 * chapter 5 limit tables ignore it and so do we. Gen 1 sends 10 bits per
 * byte (8b/10b), Gen 2 132 bits per 128 (128b/132b). x2 is two lanes.
 */
static const struct {
	const char *usb, *coding, *interval_name;
	unsigned lanes;
	double code_num, code_den, interval_us;
} links[USB_SPEED_COUNT] = {
	[USB_SPEED_LOW] = {"USB 1.0 low-speed", "NRZI + bit stuffing", "1 ms frame", 1, 1, 1, 1000},
	[USB_SPEED_FULL] = {"USB 1.0 full-speed", "NRZI + bit stuffing", "1 ms frame", 1, 1, 1, 1000},
	[USB_SPEED_HIGH] = {"USB 2.0 high-speed", "NRZI + bit stuffing", "125 us microframe", 1, 1,
			    1, 125},
	[USB_SPEED_SS] = {"USB 3.2 Gen 1x1 (USB 3.0)", "8b/10b", "125 us bus interval", 1, 8, 10,
			  125},
	[USB_SPEED_SSP_G1X2] = {"USB 3.2 Gen 1x2", "8b/10b", "125 us bus interval", 2, 8, 10, 125},
	[USB_SPEED_SSP_G2X1] = {"USB 3.2 Gen 2x1 (USB 3.1 Gen 2)", "128b/132b",
				"125 us bus interval", 1, 128, 132, 125},
	[USB_SPEED_SSP_G2X2] = {"USB 3.2 Gen 2x2", "128b/132b", "125 us bus interval", 2, 128,
				132, 125},
};

static double coded_Bps(enum usb_speed s)
{
	return usb_speed_mbps(s) * 1e6 / 8 * links[s].code_num / links[s].code_den;
}

int usb_link_info(enum usb_speed s, struct usb_link *ret)
{
	if (!speed_valid(s))
		return -EINVAL;
	*ret = (struct usb_link){
		.speed = s,
		.usb = links[s].usb,
		.signal_mbps = usb_speed_mbps(s),
		.lanes = links[s].lanes,
		.coding = links[s].coding,
		.coded_Bps = coded_Bps(s),
		.interval_us = links[s].interval_us,
		.interval_name = links[s].interval_name,
		.bulk_Bps = usb_bulk_payload_Bps(s),
	};
	return 0;
}

/*
 * USB 2.0: how many transactions of the largest packet fit a (micro)frame,
 * counted the way the chapter 5 limit tables count them: the frame's bytes
 * at the signalling rate (LS 187, FS 1500, HS 7500) over payload plus the
 * protocol overhead in each table's heading (sync, PID, address/endpoint and
 * CRC fields, handshake, inter-packet gaps and bus turnaround; for control,
 * the setup and status stages of a transfer with one data packet). Periodic
 * endpoints are then capped per endpoint: one transaction per frame at FS,
 * three per microframe at HS, one per 10 ms at LS.
 */
static const unsigned usb2_frame_bytes[] = {187, 1500, 7500}; /* LS, FS, HS */

struct usb2_rule {
	unsigned max_packet, overhead, cap, period_us;
	const char *derivation, *source, *note;
};

#define NO_LS "low-speed has no bulk or isochronous endpoints"

static const struct usb2_rule usb2_rules[3][USB_XFER_COUNT] = {
	{
		[USB_XFER_CONTROL] = {8, 46, 0, 1000, "3 x 8 B per 1 ms frame", "USB 2.0 5.5.4",
				      "setup + one 8 B data packet + status per transfer"},
		[USB_XFER_BULK] = {0, 0, 0, 0, "none at low speed", "USB 2.0 5.8", NO_LS},
		[USB_XFER_INTERRUPT] = {8, 19, 1, 10000, "1 x 8 B per 10 ms", "USB 2.0 5.7.4",
					"10 ms is the shortest low-speed period"},
		[USB_XFER_ISOC] = {0, 0, 0, 0, "none at low speed", "USB 2.0 5.6", NO_LS},
	},
	{
		[USB_XFER_CONTROL] = {64, 45, 0, 1000, "13 x 64 B per 1 ms frame", "USB 2.0 5.5.4",
				      "setup + one 64 B data packet + status per transfer"},
		[USB_XFER_BULK] = {64, 13, 0, 1000, "19 x 64 B per 1 ms frame", "USB 2.0 5.8.4",
				   NULL},
		[USB_XFER_INTERRUPT] = {64, 13, 1, 1000, "1 x 64 B per 1 ms frame",
					"USB 2.0 5.7.4", NULL},
		[USB_XFER_ISOC] = {1023, 9, 1, 1000, "1 x 1023 B per 1 ms frame", "USB 2.0 5.6.4",
				   NULL},
	},
	{
		[USB_XFER_CONTROL] = {64, 173, 0, 125, "31 x 64 B per 125 us microframe",
				      "USB 2.0 5.5.4",
				      "setup + one 64 B data packet + status per transfer"},
		[USB_XFER_BULK] = {512, 55, 0, 125, "13 x 512 B per 125 us microframe",
				   "USB 2.0 5.8.4", NULL},
		[USB_XFER_INTERRUPT] = {1024, 55, 3, 125, "3 x 1024 B per 125 us microframe",
					"USB 2.0 5.7.4", NULL},
		[USB_XFER_ISOC] = {1024, 38, 3, 125, "3 x 1024 B per 125 us microframe",
				   "USB 2.0 5.6.4", NULL},
	},
};

static void usb2_ceiling(enum usb_speed s, enum usb_xfer t, struct usb_ceiling *c)
{
	unsigned i = s - USB_SPEED_LOW;
	const struct usb2_rule *r = &usb2_rules[i][t];
	unsigned n;

	c->derivation = r->derivation;
	c->source = r->source;
	c->note = r->note;
	if (!r->max_packet)
		return;
	n = usb2_frame_bytes[i] / (r->max_packet + r->overhead);
	if (r->cap && n > r->cap)
		n = r->cap;
	c->allowed = true;
	c->max_packet = r->max_packet;
	c->packets = n;
	c->interval_us = r->period_us;
	c->overhead_bytes = r->overhead;
	c->payload_Bps = (double)n * r->max_packet * 1e6 / r->period_us;
}

/*
 * Enhanced SuperSpeed framing per data packet (USB 3.2 7.2.1): a 20-symbol
 * data packet header (HPSTART 4 + header 12 + CRC-16 2 + link control word
 * 2), 24 for a non-deferred Gen 2 DPH, which adds two 2-byte length field
 * replicas; then the payload framed by DPPSTART (4), CRC-32 (4) and DPPEND
 * (4). Gen 1: 32 B per packet, Gen 2: 36 B, after the line coding.
 * Ignored, so the ceiling stays an upper bound: link commands (LGOOD/LCRD,
 * 8 B per header packet), ACK TPs on the return path and the flow control
 * they carry (NRDY/ERDY), SKP ordered sets, ITPs, idle symbols between
 * packets and Gen 2 block placement, and the wait for an ACK when the burst
 * runs out.
 */
#define SS_DPP_FRAMING 12
#define SS_DPH_GEN1 20
#define SS_DPH_GEN2 24

static unsigned ss_framing(enum usb_speed s)
{
	bool gen2 = s == USB_SPEED_SSP_G2X1 || s == USB_SPEED_SSP_G2X2;

	return (gen2 ? SS_DPH_GEN2 : SS_DPH_GEN1) + SS_DPP_FRAMING;
}

/* per speed, from USB_SPEED_SS on: control and bulk derivations */
static const char *const ss_link_derivation[4][2] = {
	{"512 B payload per 544 B packet x 500 MB/s",
	 "1024 B payload per 1056 B packet x 500 MB/s"},
	{"512 B payload per 544 B packet x 2 x 500 MB/s",
	 "1024 B payload per 1056 B packet x 2 x 500 MB/s"},
	{"512 B payload per 548 B packet x 1212.12 MB/s",
	 "1024 B payload per 1060 B packet x 1212.12 MB/s"},
	{"512 B payload per 548 B packet x 2 x 1212.12 MB/s",
	 "1024 B payload per 1060 B packet x 2 x 1212.12 MB/s"},
};

/* control and bulk: as fast as the link, less the framing of each packet */
static void ss_link_limited(enum usb_speed s, enum usb_xfer t, struct usb_ceiling *c)
{
	bool bulk = t == USB_XFER_BULK;
	unsigned max_packet = bulk ? 1024 : 512, framing = ss_framing(s);

	c->max_packet = max_packet;
	c->burst = bulk ? 16 : 1;
	c->overhead_bytes = framing;
	c->payload_Bps = coded_Bps(s) * max_packet / (max_packet + framing);
	c->derivation = ss_link_derivation[s - USB_SPEED_SS][bulk];
	c->source = "USB 3.2 7.2.1";
	c->note = bulk ? "bursts of up to 16 keep the link busy; link commands, SKP, flow "
			 "control not counted"
		       : "no burst: each packet waits for its ACK, real rates are far lower";
}

static void ss_periodic(enum usb_speed s, unsigned packets, unsigned burst, struct usb_ceiling *c)
{
	c->max_packet = 1024;
	c->packets = packets;
	c->burst = burst;
	c->interval_us = 125;
	c->overhead_bytes = ss_framing(s);
	c->payload_Bps = packets * 1024.0 * 1e6 / 125;
}

static void ss_ceiling(enum usb_speed s, enum usb_xfer t, struct usb_ceiling *c)
{
	bool ssp = s != USB_SPEED_SS;

	c->allowed = true;
	switch (t) {
	case USB_XFER_CONTROL:
	case USB_XFER_BULK:
		ss_link_limited(s, t, c);
		break;
	case USB_XFER_INTERRUPT:
		ss_periodic(s, 3, 3, c);
		c->derivation = "3 x 1024 B per 125 us bus interval (burst 3)";
		c->source = "USB 3.2 9.6.7";
		break;
	default:
		/* SuperSpeedPlus doubled the packets per service interval (SSP Isoch
		 * Companion, USB 3.1 9.6.8; Linux xHCI commit 8ef8a9f5) */
		ss_periodic(s, ssp ? 96 : 48, 16, c);
		c->derivation = ssp ? "96 x 1024 B per 125 us bus interval (2 x 16 x 3)"
				    : "16 x 3 x 1024 B per 125 us bus interval (burst 16, mult 3)";
		c->source = ssp ? "USB 3.1 9.6.8" : "USB 3.2 9.6.7";
		c->note = ssp ? "needs the SuperSpeedPlus Isochronous Endpoint Companion" : NULL;
		break;
	}
}

int usb_transfer_ceiling(enum usb_speed s, enum usb_xfer t, struct usb_ceiling *ret)
{
	struct usb_ceiling c = {
		.speed = s,
		.type = t,
		.max_packet = NAN,
		.packets = NAN,
		.burst = NAN,
		.interval_us = NAN,
		.overhead_bytes = NAN,
	};

	if (!speed_valid(s) || t >= USB_XFER_COUNT)
		return -EINVAL;
	if (s <= USB_SPEED_HIGH)
		usb2_ceiling(s, t, &c);
	else
		ss_ceiling(s, t, &c);
	*ret = c;
	return 0;
}

int usb_bulk_ceiling(enum usb_speed s, struct usb_ceiling *ret)
{
	struct usb_ceiling c;
	int r;

	r = usb_transfer_ceiling(s, USB_XFER_BULK, &c);
	if (r < 0)
		return r;
	if (!c.allowed)
		return -EINVAL;
	*ret = c;
	return 0;
}

double usb_bulk_payload_Bps(enum usb_speed s)
{
	struct usb_ceiling c;

	return usb_bulk_ceiling(s, &c) < 0 ? 0 : c.payload_Bps;
}

/*
 * Figures published in vendor bring-up guides: what boards are seen to do,
 * not what the bus allows. Kept apart from the ceilings on purpose.
 */
static const struct usb_field_ref field_refs[] = {
	{"USB 2.0 disk (mass storage)", USB_SPEED_HIGH, "25-35 MB/s", 25e6, 35e6, NULL,
	 "usb-storage", NULL},
	{"USB 3.0 disk, no UAS (BOT)", USB_SPEED_SS, "60-100 MB/s", 60e6, 100e6, NULL,
	 "usb-storage", "usb-storage"},
	{"USB 3.0 disk with UAS", USB_SPEED_SS, "up to ~350 MB/s", NAN, 350e6, NULL, "usb-storage",
	 "uas"},
	{"USB Ethernet on USB 2.0", USB_SPEED_HIGH, "95-100 Mbit/s", 95e6 / 8, 100e6 / 8,
	 "usually a 100 Mbit/s adapter: the Ethernet side limits", "usb-net", NULL},
	{"USB Ethernet on USB 3.0", USB_SPEED_SS, "750-800 Mbit/s", 750e6 / 8, 800e6 / 8,
	 "gigabit adapters", "usb-net", NULL},
};

const struct usb_field_ref *usb_field_ref_for(enum usb_speed s, const char *kind,
					      const char *driver)
{
	for (size_t i = 0; kind && i < ARRAY_SIZE(field_refs); i++) {
		const struct usb_field_ref *f = &field_refs[i];

		if (f->speed == s && !strcmp(f->kind, kind) &&
		    (!f->driver || (driver && !strcmp(f->driver, driver))))
			return f;
	}
	return NULL;
}

const struct usb_field_ref *usb_field_refs(size_t *ret_n)
{
	*ret_n = ARRAY_SIZE(field_refs);
	return field_refs;
}

/*
 * What the Linux NCM gadget tells the host in its CDC SPEED_CHANGE
 * notification (two 32-bit bit/s fields). Source: ncm_bitrate() in
 * drivers/usb/gadget/function/f_ncm.c, since 2023 gether_bitrate() in
 * u_ether.h, shared with ECM and RNDIS: SuperSpeedPlus 4 250 000 000,
 * SuperSpeed 3 750 000 000, high speed 13 x 512 x 8 x 1000 x 8, anything
 * else 19 x 64 x 1 x 1000 x 8. Older kernels said 13 x 1024 x 8 x 1000 x 8
 * (851 968 000), then 4 000 000 000, at SuperSpeed.
 */
static const struct {
	uint64_t bps;
	const char *formula, *note;
} ncm_rates[USB_SPEED_COUNT] = {
	[USB_SPEED_LOW] = {9728000, "19 x 64 B x 1 x 1000 x 8 bit",
			   "the full-speed figure; low-speed has no bulk, NCM cannot run"},
	[USB_SPEED_FULL] = {9728000, "19 x 64 B x 1 x 1000 x 8 bit", NULL},
	[USB_SPEED_HIGH] = {425984000, "13 x 512 B x 8 x 1000 x 8 bit", NULL},
	[USB_SPEED_SS] = {3750000000ULL, "fixed", NULL},
	[USB_SPEED_SSP_G1X2] = {4250000000ULL, "fixed, any SuperSpeedPlus",
				"32-bit field: no more than 4.29 Gbit/s can be said"},
	[USB_SPEED_SSP_G2X1] = {4250000000ULL, "fixed, any SuperSpeedPlus",
				"32-bit field: no more than 4.29 Gbit/s can be said"},
	[USB_SPEED_SSP_G2X2] = {4250000000ULL, "fixed, any SuperSpeedPlus",
				"32-bit field: no more than 4.29 Gbit/s can be said"},
};

int usb_ncm_reported(enum usb_speed s, struct usb_ncm_rate *ret)
{
	if (!speed_valid(s))
		return -EINVAL;
	*ret = (struct usb_ncm_rate){
		.speed = s,
		.reported_bps = ncm_rates[s].bps,
		.formula = ncm_rates[s].formula,
		.bulk_Bps = usb_bulk_payload_Bps(s),
		.note = ncm_rates[s].note,
	};
	return 0;
}

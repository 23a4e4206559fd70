// SPDX-License-Identifier: MIT
/* The datagram-length sweep (sweep.h): one client test per length, two ceilings each. */
#include "classes/net/sweep.h"
#include "platform/usb/limits.h"
#include "model/field.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ETH 14u
#define IP4 20u
#define UDP 8u
#define TCP_TS 32u

/* packets one transfer of bytes takes: a short last one, or a zero-length one after whole ones */
static double transfer_packets(double bytes, double mps)
{
	return floor(bytes / mps) + 1;
}

/* the Ethernet frames one datagram (or segment) makes, as IP fragments them */
static unsigned frames_of(unsigned mtu, bool udp, unsigned len, unsigned frame[], unsigned max)
{
	unsigned left, fragsz, n = 0;

	if (!udp) {
		frame[0] = ETH + IP4 + TCP_TS + len;
		return 1;
	}
	left = len + UDP;
	fragsz = (mtu - IP4) & ~7u;
	while (left && n < max) {
		unsigned k = left > fragsz ? fragsz : left;

		frame[n++] = ETH + IP4 + k;
		left -= k;
	}
	return n;
}

double net_packet_ceiling(enum usb_speed speed, const struct net_framing *f, unsigned mtu,
			  bool udp, unsigned len)
{
	static const struct net_framing bare = {0, 0, 1, 0, 0};
	struct usb_ceiling c;
	unsigned frame[64], n, i;
	double packets = 0, slots;

	if (speed >= USB_SPEED_SS || usb_bulk_ceiling(speed, &c) < 0 || mtu < 576 || !len)
		return NAN;
	f = f ? f : &bare;
	n = frames_of(mtu, udp, len, frame, 64);
	for (i = 0; i < n; i++) {
		double bus = net_frame_bus_bytes(f, frame[i]);

		if (f->block && f->block_size > f->block) {
			/* an NTB of frames: its packets shared by the frames it holds */
			struct net_framing one = *f;
			double per, k;

			one.block = 0;
			per = net_frame_bus_bytes(&one, frame[i]);
			k = floor((f->block_size - f->block) / per);
			k = k > 0 ? k : 1;
			packets += transfer_packets(f->block + k * per, c.max_packet) / k;
		} else {
			packets += transfer_packets(bus, c.max_packet);
		}
	}
	slots = c.packets * 1e6 / c.interval_us;
	return slots / packets * len * 8 / 1e6;
}

static void link_facts(struct net_sweep *s, const struct net_report *rep)
{
	if (s->iface || !rep->iface)
		return;
	s->iface = xstrdup(rep->iface);
	s->mtu = rep->mtu;
	s->on_usb = rep->on_usb;
	if (rep->on_usb) {
		s->driver = rep->usb.driver ? xstrdup(rep->usb.driver) : NULL;
		s->speed = xstrdup(usb_speed_name(rep->usb.speed));
		s->framing = rep->framing ? xstrdup(rep->framing) : NULL;
	}
}

static void ceilings(struct net_sweep_row *row, const struct net_report *rep, bool udp,
		     bool reverse)
{
	const struct net_framing_info *fi = rep->on_usb ? net_framing_find(rep->usb.driver) : NULL;
	const struct net_framing *f = fi ? (reverse ? &fi->rx : &fi->tx) : NULL;
	static const struct net_framing bare = {0, 0, 1, 0, 0};
	unsigned mtu = rep->mtu == U64_UNKNOWN ? 1500 : (unsigned)rep->mtu;
	unsigned len = (unsigned)row->length;

	row->bytes_ceiling_mbit_s = row->packet_ceiling_mbit_s = row->ceiling_mbit_s = NAN;
	if (!rep->on_usb)
		return;
	if (!udp) {
		/* a segment of MSS len: the IP packet is its frame */
		unsigned seg = len + IP4 + TCP_TS < mtu ? len + IP4 + TCP_TS : mtu;

		len = seg - IP4 - TCP_TS;
		mtu = seg;
	}
	row->bytes_ceiling_mbit_s =
	    net_goodput_ceiling(rep->usb.ceiling_mb_s * 1e6, f ? f : &bare, mtu, udp, len);
	row->packet_ceiling_mbit_s = net_packet_ceiling(rep->usb.speed, f, mtu, udp, len);
	row->ceiling_mbit_s = isnan(row->packet_ceiling_mbit_s)
				  ? row->bytes_ceiling_mbit_s
				  : fmin(row->bytes_ceiling_mbit_s, row->packet_ceiling_mbit_s);
	if (row->ceiling_mbit_s > 0)
		row->efficiency_pct = 100 * row->mbit_s / row->ceiling_mbit_s;
}

static void fill(struct net_sweep_row *row, const struct net_report *rep, bool udp)
{
	const struct net_sum_row *s = net_report_received(rep);

	row->mbit_s = s ? s->mbit_s : NAN;
	row->lost = s && udp ? s->lost : FIELD_INT_UNKNOWN;
	row->packets = s && udp ? s->packets : FIELD_INT_UNKNOWN;
	row->loss_pct = s && udp ? s->loss_pct : NAN;
	row->pps = s && s->seconds > 0 ? (double)s->bytes / (double)row->length / s->seconds : NAN;
	row->cpu_pct = rep->cpu_total;
	row->peer_cpu_pct = rep->peer_cpu_total;
	row->error = rep->error;
}

int net_length_sweep(const struct net_client_config *base, const uint64_t *lens, size_t n,
		     struct net_sweep *ret, char **ret_why)
{
	bool udp = base->p.proto == NET_UDP;
	size_t i;

	*ret = (struct net_sweep){.mtu = U64_UNKNOWN};
	for (i = 0; i < n && i < NET_SWEEP_MAX && !(base->stop && *base->stop); i++) {
		struct net_client_config c = *base;
		struct net_sweep_row *row = &ret->rows[ret->n];
		struct net_report rep = {0};
		int r;

		if (udp)
			c.p.len = lens[i];
		else
			c.p.mss = lens[i];
		r = net_client_run(&c, &rep);
		if (r < 0 && !ret->n) {
			*ret_why = xstrdup(rep.error_msg ? rep.error_msg : strerror(-r));
			net_report_release(&rep);
			return r;
		}
		*row = (struct net_sweep_row){.proto = udp ? "udp" : "tcp", .length = lens[i],
					      .mbit_s = NAN, .pps = NAN, .lost = FIELD_INT_UNKNOWN,
					      .packets = FIELD_INT_UNKNOWN, .loss_pct = NAN,
					      .bytes_ceiling_mbit_s = NAN, .packet_ceiling_mbit_s = NAN,
					      .ceiling_mbit_s = NAN, .efficiency_pct = NAN,
					      .cpu_pct = NAN, .peer_cpu_pct = NAN};
		if (r < 0) {
			struct strbuf w = STRBUF_INIT;

			row->error = r;
			strbuf_addf(&w, "length %llu: not measured: %s", (unsigned long long)lens[i],
				    rep.error_msg ? rep.error_msg : strerror(-r));
			ret->warnings = xgrow(ret->warnings, &ret->nwarnings, sizeof(char *));
			ret->warnings[ret->nwarnings - 1] = strbuf_detach(&w);
		} else {
			link_facts(ret, &rep);
			fill(row, &rep, udp);
			ceilings(row, &rep, udp, base->p.reverse);
		}
		ret->n++;
		net_report_release(&rep);
	}
	return 0;
}

void net_sweep_release(struct net_sweep *s)
{
	size_t i;

	free_all(s->iface, s->driver, s->speed, s->framing);
	for (i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	*s = (struct net_sweep){0};
}

#include "classes/net/sweep.fields.h"

void net_sweep_describe(const struct net_sweep *s, struct report *out)
{
	report_add_table(out, "lengths",
			 "goodput per datagram length (MSS for TCP), next to the USB link's "
			 "ceilings: its bytes, and below SuperSpeed its packet slots (Mbit/s = "
			 "10^6 bit/s)",
			 &row_desc, s->rows, s->n, sizeof(s->rows[0]));
	report_add_object(out, "link", "the link", &link_desc, s);
	out->warnings = s->warnings;
	out->nwarnings = s->nwarnings;
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The datagram-length sweep the NCM gadget threads run by hand (iperf -u -l
 * and -M loops): one test per UDP datagram length (or TCP MSS), each rate
 * next to what the USB link allows for frames of that size. Two ceilings:
 * the bytes (link.c: the bulk ceiling x payload over bus bytes with the
 * class framing) and, below SuperSpeed, the packets: a transfer that is
 * not a whole NTB ends in a short packet that takes a transaction slot of
 * its own (13 x 512 B per high-speed microframe), so ECM's and RNDIS's one
 * frame per transfer pays a packet slot per small datagram, which the
 * bytes do not show. NCM aggregates frames into NTBs and pays it per NTB.
 */
#include "classes/net/link.h"
#include "classes/net/net.h"

#define NET_SWEEP_MAX 32

struct net_sweep_row {
	const char *proto; /* "udp" (the length is the datagram's), "tcp" (the MSS) */
	uint64_t length;
	double mbit_s;	   /* the receiver's goodput */
	double pps;	   /* datagrams (or segments) per second */
	int64_t lost, packets;
	double loss_pct;
	double bytes_ceiling_mbit_s;  /* the framing's bytes (link.c) */
	double packet_ceiling_mbit_s; /* the packet slots, below SuperSpeed; NaN above */
	double ceiling_mbit_s;	      /* the lower */
	double efficiency_pct;	      /* mbit_s of ceiling_mbit_s */
	double cpu_pct, peer_cpu_pct;
	int error; /* the test ended early: its figures partial */
};

struct net_sweep {
	struct net_sweep_row rows[NET_SWEEP_MAX];
	size_t n;
	char *iface, *driver, *speed, *framing;
	bool on_usb;
	uint64_t mtu;
	char **warnings;
	size_t nwarnings;
};

/*
 * The ceiling in Mbit/s of goodput for datagrams of len (udp) or segments of
 * MSS len (tcp) at speed through a framing (NULL: bare Ethernet), counting
 * packet slots: NaN from SuperSpeed on (the link, not the slots, limits) or
 * for an unknown speed.
 */
double net_packet_ceiling(enum usb_speed speed, const struct net_framing *f, unsigned mtu,
			  bool udp, unsigned len);
/*
 * One test per length of lens through base (its proto and direction), each
 * len as the datagram length (UDP) or the MSS (TCP). 0 with ret filled
 * (a test that failed is a row with error set); -errno when the first test
 * could not run at all (*ret_why).
 */
int net_length_sweep(const struct net_client_config *base, const uint64_t *lens, size_t n,
		     struct net_sweep *ret, char **ret_why);
void net_sweep_release(struct net_sweep *s);
struct report;
void net_sweep_describe(const struct net_sweep *s, struct report *out);

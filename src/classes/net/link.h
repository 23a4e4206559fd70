/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Where the traffic goes: the interface the kernel routes a destination
 * through, and, when that interface is on USB, the ceiling the link puts on
 * goodput once the class or vendor framing and the Ethernet, IP and TCP/UDP
 * headers are paid for.
 */
#include "classes/net/net.h"

#include <sys/socket.h>

/* The output interface of the route to dst (RTM_GETROUTE), into ifname. */
int net_route_iface(const struct sockaddr *dst, char *ifname, size_t len);

/* Per-frame framing a USB network driver adds on the bus, one direction. */
struct net_framing {
	unsigned header;  /* bytes before each Ethernet frame */
	unsigned trailer; /* bytes after it (a CRC the device hands up) */
	unsigned align;	  /* each frame is padded to a multiple of this, 1 none */
	unsigned block;	  /* bytes per transfer block (NCM NTB headers), 0 none */
	unsigned block_size; /* the transfer block those are spread over */
};

struct net_framing_info {
	const char *driver;
	struct net_framing tx, rx; /* host sends (OUT), host receives (IN) */
	const char *text;
};

/* The framing of a driver ("cdc_ncm", "rndis_host", "r8152", "cdc_ether"), NULL if unknown. */
const struct net_framing_info *net_framing_find(const char *driver);

/*
 * Bus bytes for one Ethernet frame of `frame` bytes (header included) under
 * a framing: header, padding, trailer and the block overhead spread over the
 * frames one block holds.
 */
double net_frame_bus_bytes(const struct net_framing *f, unsigned frame);

/*
 * Goodput ceiling, Mbit/s of payload: a bulk ceiling of bulk_Bps, frames
 * of an mtu, and the protocol's headers (TCP with timestamps: 52 B per
 * segment; UDP: datagrams of len bytes, fragmented as IP does).
 */
double net_goodput_ceiling(double bulk_Bps, const struct net_framing *f, unsigned mtu, bool udp,
			   unsigned len);

/*
 * Fill the report's interface facts for ifname: MTU, and when it is on USB
 * the device, driver, speed, bulk ceiling, framing and goodput ceilings.
 */
void net_link_describe(struct net_report *rep, const char *ifname, bool udp, unsigned len);
/* Notes on what the USB link means for this test: the ceiling's derivation, half duplex. */
void net_link_notes(struct net_report *rep, const struct net_params *p);

// SPDX-License-Identifier: MIT
/* The route's interface, and what a USB network link allows after its framing. */
#include "classes/net/link.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define ETH_HEADER 14u
#define IPV4_HEADER 20u
#define TCP_HEADER_TS 32u /* 20 B header + 12 B timestamp option, on by default in Linux */
#define UDP_HEADER 8u

struct route_req {
	struct nlmsghdr nh;
	struct rtmsg rt;
	char attrs[64];
};

static void add_dst(struct route_req *req, const struct sockaddr *dst)
{
	const void *addr;
	unsigned short alen;
	struct rtattr *rta;

	if (dst->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)dst)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(a)) {
			req->rt.rtm_family = AF_INET;
			addr = &a->s6_addr[12];
			alen = 4;
		} else {
			req->rt.rtm_family = AF_INET6;
			addr = a;
			alen = 16;
		}
	} else {
		req->rt.rtm_family = AF_INET;
		addr = &((const struct sockaddr_in *)dst)->sin_addr;
		alen = 4;
	}
	req->rt.rtm_dst_len = (unsigned char)(alen * 8);
	rta = (struct rtattr *)((char *)req + NLMSG_ALIGN(req->nh.nlmsg_len));
	rta->rta_type = RTA_DST;
	rta->rta_len = (unsigned short)RTA_LENGTH(alen);
	memcpy(RTA_DATA(rta), addr, alen);
	req->nh.nlmsg_len = NLMSG_ALIGN(req->nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

/* The RTA_OIF of a RTM_NEWROUTE answer, 0 if none. */
static int answer_oif(const char *buf, ssize_t n)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;
	int len = (int)n;

	for (; NLMSG_OK(nh, (unsigned)len); nh = NLMSG_NEXT(nh, len)) {
		const struct rtmsg *rt = NLMSG_DATA(nh);
		const struct rtattr *a;
		int alen;

		if (nh->nlmsg_type == NLMSG_ERROR)
			return -EHOSTUNREACH;
		if (nh->nlmsg_type != RTM_NEWROUTE)
			continue;
		alen = (int)RTM_PAYLOAD(nh);
		for (a = RTM_RTA(rt); RTA_OK(a, alen); a = RTA_NEXT(a, alen))
			if (a->rta_type == RTA_OIF && RTA_PAYLOAD(a) >= sizeof(int))
				return *(const int *)RTA_DATA(a);
	}
	return 0;
}

int net_route_iface(const struct sockaddr *dst, char *ifname, size_t len)
{
	struct route_req req;
	struct timeval tv = {.tv_sec = 1};
	char buf[4096], name[IF_NAMESIZE];
	int fd, oif;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	add_dst(&req, dst);
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0 || (n = recv(fd, buf, sizeof(buf), 0)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	close(fd);
	oif = answer_oif(buf, n);
	if (oif <= 0)
		return oif < 0 ? oif : -ENOENT;
	if (!if_indextoname((unsigned)oif, name))
		return -errno;
	snprintf(ifname, len, "%s", name);
	return 0;
}

/*
 * Per-frame framing of the Linux host drivers, from the class specs and
 * the drivers' own structures:
 *  - CDC NCM 1.0: each NTB starts with a 12-byte NTH16 (signature, header
 *    length, sequence, block length, NDP index) and carries an NDP16 of 8
 *    bytes (signature, length, next index) plus a 4-byte pointer entry
 *    (index, length) per datagram and a 4-byte zero entry ending the
 *    table; datagrams are aligned to 4 bytes. 16 KiB NTBs assumed (the
 *    Linux driver's usual size), so the block headers spread over ~10 frames.
 *  - RNDIS: a 44-byte REMOTE_NDIS_PACKET_MSG header (11 x u32: type,
 *    length, data offset and length, OOB and per-packet-info fields, VC
 *    handle, reserved) before every frame.
 *  - CDC ECM (cdc_ether): the bare Ethernet frame.
 *  - Realtek r8152/r8153: an 8-byte tx_desc before each frame sent, frames
 *    aligned to 4; a 24-byte rx_desc before each frame received, which
 *    keeps its 4-byte FCS, aligned to 8.
 */
static const struct net_framing_info framings[] = {
	{"cdc_ncm", {4, 0, 4, 24, 16384}, {4, 0, 4, 24, 16384},
	 "CDC NCM: per frame a 4 B datagram pointer and padding to 4 B; per 16 KiB NTB a 12 B "
	 "NTH16, an 8 B NDP16 header and a 4 B closing entry"},
	{"rndis_host", {44, 0, 1, 0, 0}, {44, 0, 1, 0, 0},
	 "RNDIS: a 44 B REMOTE_NDIS_PACKET_MSG header per frame"},
	{"cdc_ether", {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0},
	 "CDC ECM: bare Ethernet frames, no framing on the bus"},
	{"r8152", {8, 0, 4, 0, 0}, {24, 4, 8, 0, 0},
	 "Realtek r8152: sent frames carry an 8 B descriptor (aligned to 4 B), received ones "
	 "a 24 B descriptor and their 4 B FCS (aligned to 8 B)"},
};

const struct net_framing_info *net_framing_find(const char *driver)
{
	size_t i;

	for (i = 0; driver && i < sizeof(framings) / sizeof(framings[0]); i++)
		if (!strcmp(framings[i].driver, driver))
			return &framings[i];
	return NULL;
}

double net_frame_bus_bytes(const struct net_framing *f, unsigned frame)
{
	unsigned per = f->header + frame + f->trailer;
	double bytes;

	if (f->align > 1)
		per = (per + f->align - 1) / f->align * f->align;
	bytes = per;
	if (f->block && f->block_size > f->block + per) {
		unsigned n = (f->block_size - f->block) / per;

		bytes += (double)f->block / (n ? n : 1);
	}
	return bytes;
}

double net_goodput_ceiling(double bulk_Bps, const struct net_framing *f, unsigned mtu, bool udp,
			   unsigned len)
{
	double payload, bus = 0;

	if (!(bulk_Bps > 0) || mtu < 576)
		return NAN;
	if (!udp) {
		payload = mtu - IPV4_HEADER - TCP_HEADER_TS;
		bus = net_frame_bus_bytes(f, ETH_HEADER + mtu);
	} else {
		/* one datagram, cut into IP fragments of a multiple of 8 bytes */
		unsigned left = len + UDP_HEADER, frag = (mtu - IPV4_HEADER) & ~7u;

		payload = len;
		while (left) {
			unsigned n = left > frag ? frag : left;

			bus += net_frame_bus_bytes(f, ETH_HEADER + IPV4_HEADER + n);
			left -= n;
		}
	}
	return bulk_Bps * payload / bus * 8 / 1e6;
}

static uint64_t iface_mtu(const char *ifname)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t mtu = U64_UNKNOWN;

	strbuf_addf(&p, "/sys/class/net/%s/mtu", ifname);
	if (sysroot_read_attr(p.buf, &v) == 0 && parse_u64(v.buf, 68, 65536, &mtu) < 0)
		mtu = U64_UNKNOWN;
	strbuf_release(&p);
	strbuf_release(&v);
	return mtu;
}

void net_link_describe(struct net_report *rep, const char *ifname, bool udp, unsigned len)
{
	static const struct net_framing bare = {0, 0, 1, 0, 0};
	const struct net_framing_info *fi;
	double bulk;
	unsigned mtu;

	free(rep->iface);
	rep->iface = strdup(ifname);
	rep->mtu = iface_mtu(ifname);
	if (usb_attach_for_netdev(ifname, &rep->usb) < 0)
		return;
	rep->on_usb = true;
	fi = net_framing_find(rep->usb.driver);
	if (fi) {
		rep->framing = strdup(fi->text);
	} else {
		struct strbuf t = STRBUF_INIT;

		strbuf_addf(&t, "driver %s: its framing is not modelled, only Ethernet, IP and "
				"TCP/UDP headers are counted",
			    rep->usb.driver ? rep->usb.driver : "unknown");
		rep->framing = strbuf_detach(&t);
	}
	mtu = rep->mtu == U64_UNKNOWN ? 1500 : (unsigned)rep->mtu;
	bulk = rep->usb.ceiling_mb_s * 1e6;
	rep->frame_tx_bytes = net_frame_bus_bytes(fi ? &fi->tx : &bare, ETH_HEADER + mtu);
	rep->frame_rx_bytes = net_frame_bus_bytes(fi ? &fi->rx : &bare, ETH_HEADER + mtu);
	rep->ceiling_tx_mbit_s = net_goodput_ceiling(bulk, fi ? &fi->tx : &bare, mtu, udp, len);
	rep->ceiling_rx_mbit_s = net_goodput_ceiling(bulk, fi ? &fi->rx : &bare, mtu, udp, len);
}

void net_link_notes(struct net_report *rep, const struct net_params *p)
{
	unsigned mtu = rep->mtu == U64_UNKNOWN ? 1500 : (unsigned)rep->mtu;

	if (!rep->on_usb || !isfinite(rep->ceiling_tx_mbit_s))
		return;
	if (p->proto == NET_TCP)
		net_report_note(rep,
				"USB ceiling: %.1f MB/s of bulk payload x %u B of TCP payload per "
				"%.1f B on the bus (a %u B frame, its headers and framing) = "
				"%.1f Mbit/s of goodput sent, %.1f received",
				rep->usb.ceiling_mb_s, mtu - IPV4_HEADER - TCP_HEADER_TS,
				rep->frame_tx_bytes, ETH_HEADER + mtu, rep->ceiling_tx_mbit_s,
				rep->ceiling_rx_mbit_s);
	else
		net_report_note(rep,
				"USB ceiling: %.1f MB/s of bulk payload, %llu B datagrams with "
				"their UDP, IP and Ethernet headers and framing = %.1f Mbit/s "
				"of goodput sent, %.1f received",
				rep->usb.ceiling_mb_s, (unsigned long long)p->len,
				rep->ceiling_tx_mbit_s, rep->ceiling_rx_mbit_s);
	/* high speed and below: one half-duplex bus carries IN and OUT (and the ACKs) */
	if ((p->bidir || p->proto == NET_TCP) && rep->usb.speed <= USB_SPEED_HIGH)
		net_report_note(rep, "USB 2.0 is half duplex: %s share the one ceiling",
				p->bidir ? "both directions"
					 : "the data and the returning TCP ACKs");
}

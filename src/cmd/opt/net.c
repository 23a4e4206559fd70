// SPDX-License-Identifier: MIT
/* usbperf net's options: both roles', the server's, the client's */
#include "cmd/opt/tables.h"

const struct cmd_opt net_options[] = {
	OPT_TEXT("both roles:"),
	{"port", 'p', "N",
	 "port (default 5201)", 0},
	{"bind", 'B', "ADDR",
	 "bind to this local address", 0},
	{"bind-dev", NET_O_BIND_DEV, "IFACE",
	 "bind every socket to this interface (SO_BINDTODEVICE),\n"
	     "so the traffic really crosses it; needs CAP_NET_RAW", 0},
	{"version4", '4', NULL,
	 "IPv4 only", 0},
	{"version6", '6', NULL,
	 "IPv6 only", 0},
	{"interval", 'i', "SEC",
	 "interval rows every SEC (default 1, 0 for none)",
	 0 OPT_MAN("Interval rows every\n"
	     ".I SEC\n"
	     "seconds (default 1, 0 for none).")},
	{"timeout", NET_O_TIMEOUT, "SEC",
	 "a silent peer is given up after SEC (default 10)",
	 0 OPT_MAN("A silent peer is given up after\n"
	     ".I SEC\n"
	     "seconds (default 10).")},
	{"sysroot", NET_O_SYSROOT, "DIR|FILE",
	 "read the interface's USB facts from a recorded tree",
	 0 OPT_MAN("Read the interface's USB facts from a recorded tree or snapshot.")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	{"monitor", NET_O_MONITOR, NULL,
	 "watch the interface's USB device on usbmon (root), each\n"
	     "test: wire MB/s, the dominant URB size, USB errors, and\n"
	     "the share of the wire bytes that is not payload (TCP)",
	 0 OPT_MAN("Watch the interface's USB device on usbmon (root) during each test: the client\n"
	     "from the start of the test, the server from before it tells the client to start,\n"
	     "both until the results are exchanged. Wire MB/s (both ways, every URB's bytes), the\n"
	     "dominant URB size, USB errors, events usbmon lost, and, for TCP, the share of\n"
	     "the wire bytes that is not payload (framing, Ethernet/IP/TCP headers, the other\n"
	     "way's ACKs): the payload is what this end's streams certainly carried, counted\n"
	     "before the capture ends (bytes read plus still queued; bytes written less those\n"
	     "not yet acknowledged), so the wire holds all of it. Off USB (a gadget's own\n"
	     "netdev is not a USB device of this host), or without usbmon, the test runs and\n"
	     "says why it was not watched.")},
	OPT_TEXT("server:"),
	{"one-off", '1', NULL,
	 "serve one test, then exit", 0},
	OPT_TEXT("client:"),
	{"udp", 'u', NULL,
	 "UDP (default TCP)", 0},
	{"time", 't', "SEC",
	 "whole seconds to send (default 10)", 0},
	{"bytes", 'n', "SIZE",
	 "send SIZE bytes instead (K M G = 1024-based,\n"
	     "KB MB GB = 1000-based)",
	 0 OPT_MAN("Send\n"
	     ".I SIZE\n"
	     "bytes instead (K M G = 1024-based, KB MB GB = 1000-based).")},
	{"blocks", 'k', "N",
	 "send N blocks instead",
	 0 OPT_MAN("Send\n"
	     ".I N\n"
	     "blocks instead.")},
	{"length", 'l', "SIZE",
	 "block length: TCP write (default 128K), UDP datagram\n"
	     "(default 1460, 16..65507)",
	 0 OPT_MAN("Block length: a TCP write (default 128K) or a UDP datagram (default 1460,\n"
	     "16 to 65507).")},
	{"bitrate", 'b', "RATE",
	 "bit/s per stream, paced evenly (k m g = 10^3 10^6 10^9; UDP\n"
	     "default 1M, 0 = unlimited)",
	 0 OPT_MAN("Bits per second per stream, paced evenly (k, m, g = 10^3, 10^6, 10^9; UDP\n"
	     "default 1M, 0 = unlimited).")},
	{"parallel", 'P', "N",
	 "streams per direction, 1..128 (default 1)", 0},
	{"reverse", 'R', NULL,
	 "the server sends", 0},
	{"bidir", NET_O_BIDIR, NULL,
	 "both send at once", 0},
	{"omit", 'O', "SEC",
	 "leave the first whole SEC seconds out (TCP slow start)",
	 0 OPT_MAN("Leave the first whole\n"
	     ".I SEC\n"
	     "seconds out (TCP slow start).")},
	{"window", 'w', "SIZE",
	 "socket buffer size (SO_SNDBUF/SO_RCVBUF), both ends", 0},
	{"mss", 'M', "N",
	 "TCP maximum segment size", 0},
	{"length-sweep", NET_O_LENGTH_SWEEP, "LIST",
	 "a test per length of LIST (e.g. 64,512,1472): the UDP\n"
	     "datagram length with -u (16..65507), else the TCP MSS\n"
	     "(88..9216); a table of goodput next to the USB link's\n"
	     "ceilings for frames of that size: its bytes, and below\n"
	     "SuperSpeed its packet slots (a short packet per\n"
	     "transfer: ECM, RNDIS; NCM's NTBs share them)",
	 0 OPT_MAN("A test per length of\n"
	     ".I LIST\n"
	     "(e.g. 64,512,1472, at most 32): the UDP datagram length with\n"
	     ".B \\-u\n"
	     "(16 to 65507 B), else the TCP MSS (88 to 9216 B); not with\n"
	     ".BR \\-\\-bidir ,\n"
	     "nor with the\n"
	     ".B \\-\\-length\n"
	     "(UDP) or\n"
	     ".B \\-\\-mss\n"
	     "(TCP) it sets itself. The table \"lengths\" gives per length the goodput the\n"
	     "receiver counted (Mbit/s), datagrams per second, the loss (UDP), CPU, and, when\n"
	     "the interface is on USB, two ceilings for frames of that size: the bytes (the\n"
	     "bulk ceiling through the class framing, as for a single test) and, below\n"
	     "SuperSpeed, the packet slots (13 packets of 512 B per high-speed microframe): a\n"
	     "transfer ends in a short packet, so ECM and RNDIS, a frame per transfer, pay a\n"
	     "slot per small datagram (64 B: 104,000 a second at high speed, 53.25 Mbit/s),\n"
	     "while NCM's NTBs share theirs among the frames they hold. \"ceiling\" is the\n"
	     "lower of the two, \"of ceiling\" the goodput's share of it. The object \"link\"\n"
	     "names the interface, its driver, speed and framing.")},
	{"no-delay", 'N', NULL,
	 "TCP_NODELAY on the data streams", 0},
	{"congestion", 'C', "ALGO",
	 "TCP congestion control (cubic, bbr ...)", 0},
	{"tos", 'S', "N",
	 "IP type of service, 0..255", 0},
	{"udp-64bit", NET_O_UDP64, NULL,
	 "64-bit UDP packet counters", 0},
	OPT_END,
};

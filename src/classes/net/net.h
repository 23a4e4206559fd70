/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbperf net: network throughput over iperf3's protocol, in both roles.
 * The client and the server run tests and fill a net_report; they never
 * print. Intervals and server events reach the caller through callbacks.
 */
#include "platform/sys/passwatch.h"
#include "classes/net/proto.h"
#include "platform/usb/attach.h"
#include "platform/usbmon/pass.h"
#include "model/field.h" /* U64_UNKNOWN, FIELD_INT_UNKNOWN: unknown values */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_DEFAULT_PORT 5201u
#define NET_MAX_INTERVAL_ROWS 100000u /* a longer run keeps its totals, not every row */

/* One interval of one stream, or of all streams of one direction ("sum"). */
struct net_interval_row {
	double start_s, end_s; /* from the start of the test, omitted seconds included */
	const char *dir;       /* "tx": this end sends, "rx": this end receives */
	const char *stream;    /* "1", "3" ... or "sum" */
	bool omitted;
	uint64_t bytes;
	double seconds;
	double mb_s, mbit_s;
	int64_t retransmits; /* TCP senders */
	double jitter_ms;    /* UDP receivers */
	int64_t lost, packets;
	double loss_pct;
	int64_t ooo;
};

/* The totals of one direction, as each end counted them. */
struct net_sum_row {
	const char *dir;    /* "tx", "rx" from this end's point of view */
	const char *stream; /* "sum" or a stream id */
	const char *role;   /* "sender", "receiver" */
	const char *by;	    /* whose count: "local" or "peer" */
	uint64_t bytes;
	double seconds;
	double mb_s, mbit_s;
	int64_t retransmits;
	double jitter_ms;
	int64_t lost, packets;
	double loss_pct;
	int64_t ooo;
	double ceiling_mbit_s;	/* USB: goodput the link allows after framing; NaN off USB */
	double efficiency_pct;	/* mbit_s of that ceiling */
};

typedef void (*net_interval_fn)(void *ctx, const struct net_interval_row *rows, size_t n);
typedef void (*net_event_fn)(void *ctx, const char *msg);

struct net_report {
	const char *role;      /* "client", "server" */
	const char *protocol;  /* "tcp", "udp" */
	const char *direction; /* "forward" (client sends), "reverse", "bidir" */
	char *local, *peer;    /* control connection ends, "192.0.2.1:5201" */
	char *peer_version;    /* the iperf3 client's version (server side) */
	char *cookie;
	uint64_t streams, len, window, rate_bps, time_s, bytes_limit, blocks_limit, omit_s;
	double rate_mbit_s;    /* rate_bps in Mbit/s, per stream; NaN unpaced */
	double interval_s;
	char *iface;	       /* interface the traffic uses (bound, or the route's) */
	char *bind_dev;
	char *congestion, *peer_congestion; /* TCP congestion control used by each end */
	double cpu_total, cpu_user, cpu_sys;	/* this end, percent of one CPU */
	double peer_cpu_total, peer_cpu_user, peer_cpu_sys;
	double seconds;	       /* measured, omitted seconds left out */
	struct pass_sys sys; /* the CPU clock and interrupt placement here (platform/sys/passwatch.h) */
	uint64_t mtu;
	bool on_usb;
	struct usb_attach usb;
	char *framing;	       /* the USB framing accounted for, in words */
	/* bus bytes per full-size frame, sent and received here */
	double frame_tx_bytes, frame_rx_bytes;
	/* the goodput the USB link allows after all headers, per direction; NaN off USB */
	double ceiling_tx_mbit_s, ceiling_rx_mbit_s;
	/*
	 * --monitor: the USB device's traffic on usbmon from the start of the test
	 * to the results; NaN and unknown when not monitored (monitor_why says
	 * why, when it was asked for). Not the URBs in flight, busy share or URB
	 * latency: a network driver keeps its IN URBs queued whether data comes
	 * or not, so those say nothing of the link.
	 */
	bool monitored;
	char *monitor_why;
	struct usbmon_pass_figures wire;
	double wire_mb_s;
	uint64_t urb_size, usb_errors, wire_bytes, wire_dropped;
	/* TCP bytes this end carried across the link, any phase (net_session_delivered) */
	uint64_t payload_bytes;
	/* wire bytes that were not payload: framing, Ethernet/IP/TCP headers, ACKs */
	double overhead_pct;
	struct net_sum_row *rows;
	size_t nrows;
	struct net_interval_row *intervals;
	size_t nintervals, intervals_alloc;
	bool intervals_truncated;
	char **warnings;
	size_t nwarnings;
	int error;	  /* negative errno that ended the test early, 0 */
	char *error_msg;  /* what went wrong, in words */
	bool interrupted; /* a signal ended the test: results so far */
};

/* the receiver's sum of the test (one direction): what arrived is what counts; NULL: none */
const struct net_sum_row *net_report_received(const struct net_report *r);
void net_report_release(struct net_report *r);
__attribute__((format(printf, 2, 3))) void net_report_note(struct net_report *r,
							 const char *fmt, ...);
/* "1", "3", ... for ids up to 2 x NET_MAX_STREAMS + 2; "sum" for 0 */
const char *net_stream_label(int id);

struct net_client_config {
	const char *host;
	unsigned port;
	int family;	       /* AF_UNSPEC, AF_INET, AF_INET6 */
	const char *bind_addr; /* -B */
	const char *bind_dev;  /* --bind-dev: SO_BINDTODEVICE on every socket */
	struct net_params p;
	double interval_s;     /* 0: no interval rows */
	double timeout_s;      /* connect, and a silent server */
	bool monitor;	       /* watch the interface's USB device on usbmon */
	const volatile int *stop;
	net_interval_fn on_interval;
	net_event_fn on_event; /* warnings worth showing before the test ends */
	void *ctx;
};

/*
 * Run one test against HOST. 0 with the report filled (r->error set when
 * the test ended early and the results are partial); a negative errno with
 * *ret->error_msg when nothing could be measured.
 */
int net_client_run(const struct net_client_config *c, struct net_report *ret);

struct net_server_config {
	unsigned port;
	int family;
	const char *bind_addr;
	const char *bind_dev;
	bool one_off;	     /* serve one test, then return */
	bool monitor;	     /* watch each test's interface's USB device on usbmon */
	double interval_s;
	double timeout_s;    /* a client silent this long is dropped */
	const volatile int *stop;
	net_interval_fn on_interval;
	net_event_fn on_event;
	/* each finished test; the report is released after the call */
	void (*on_report)(void *ctx, const struct net_report *r);
	void *ctx;
};

/*
 * Serve tests one at a time until *stop (or after one with one_off). A
 * client that misbehaves ends its own test, never the server. Returns 0,
 * or a negative errno when the listener cannot be set up (*ret_why says).
 */
int net_server_run(const struct net_server_config *c, char **ret_why);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The iperf3 control protocol, as Debian's iperf3 3.12 speaks it: one-byte
 * states and length-prefixed JSON messages on a TCP control connection, a
 * 37-byte cookie naming the test on every connection, and the header at the
 * front of every UDP datagram. Pure encoding and decoding on bytes, no
 * sockets, so every parser here is unit tested and fuzzed on its own.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* a state is one signed byte on the control connection */
enum net_state {
	NET_TEST_START = 1,
	NET_TEST_RUNNING = 2,
	NET_TEST_END = 4,
	NET_PARAM_EXCHANGE = 9,
	NET_CREATE_STREAMS = 10,
	NET_SERVER_TERMINATE = 11,
	NET_CLIENT_TERMINATE = 12,
	NET_EXCHANGE_RESULTS = 13,
	NET_DISPLAY_RESULTS = 14,
	NET_IPERF_DONE = 16,
	NET_ACCESS_DENIED = -1,
	NET_SERVER_ERROR = -2, /* followed by two big-endian int32: iperf error, errno */
};

/* "TEST_START" ..., or NULL for a byte that is no state */
const char *net_state_name(int state);

/* iperf3 error numbers a SERVER_ERROR may carry that usbperf sends or names */
enum {
	NET_IE_NUMSTREAMS = 6,	  /* too many parallel streams */
	NET_IE_BLOCKSIZE = 7,	  /* block size too large */
	NET_IE_OMIT = 12,	  /* bogus --omit */
	NET_IE_UDPBLOCKSIZE = 20, /* UDP block size invalid */
	NET_IE_RECVPARAMS = 114,  /* unable to receive parameters from client */
	NET_IE_ACCESSDENIED = 121,
};
/* A short text for an iperf3 error number; a generic one for numbers we do not know. */
const char *net_ie_text(int32_t ie);

/* 36 characters from a-z2-7 (as iperf3 draws them) and a NUL */
#define NET_COOKIE_SIZE 37
int net_cookie_make(char ret[NET_COOKIE_SIZE]);
/* printable ASCII then the NUL: what a server can compare and show */
bool net_cookie_valid(const char c[NET_COOKIE_SIZE]);

/* Caps on a JSON message: iperf3 caps the parameters at 8 KiB; results grow with streams. */
#define NET_PARAMS_MAX 8192u
#define NET_RESULTS_MAX (256u * 1024)

/* The 4-byte big-endian length before a JSON message. */
void net_msg_header(size_t len, unsigned char ret[4]);
/* -EBADMSG for 0, -EMSGSIZE above max */
int net_msg_length(const unsigned char hdr[4], size_t max, size_t *ret);

enum net_proto { NET_TCP, NET_UDP };

/* Limits a server enforces (iperf3's own, or the sane ranges of the protocol notes). */
#define NET_MAX_TIME_S 86400u
#define NET_MAX_OMIT_S 600u
#define NET_MAX_STREAMS 128u
#define NET_MAX_LEN (1u << 20)
#define NET_MIN_UDP_LEN 16u
#define NET_MAX_UDP_LEN 65507u
#define NET_DEFAULT_TCP_LEN (128u * 1024)
#define NET_DEFAULT_UDP_LEN 1460u
#define NET_DEFAULT_UDP_RATE 1000000u /* iperf3's 1 Mbit/s, per stream */

/* The test as the client asks for it: the parameter message. */
struct net_params {
	enum net_proto proto;
	uint64_t time_s;   /* 0: the test ends on bytes or blocks */
	uint64_t omit_s;   /* seconds left out of the results at the start */
	uint64_t bytes;	   /* "num": total bytes to send, 0 = timed */
	uint64_t blocks;   /* "blockcount" */
	uint64_t parallel; /* streams per direction */
	bool reverse;	   /* the server sends */
	bool bidir;	   /* both send */
	uint64_t window;   /* SO_SNDBUF/SO_RCVBUF, 0: autotuning */
	uint64_t len;	   /* block (write / datagram) length */
	uint64_t rate_bps; /* per stream, 0: as fast as possible */
	uint64_t pacing_timer_us;
	uint64_t tos;
	uint64_t mss;
	bool nodelay;
	bool udp_64bit;	   /* 64-bit datagram counters */
	bool get_server_output;
	char congestion[16];	 /* TCP congestion control asked for, "" none */
	char client_version[32]; /* "3.12", "usbperf 0.1.0" */
};

/*
 * A bit rate as iperf3 takes it: a number with an optional k, m, g or t
 * (either case, powers of 1000) and an optional "bit/s" or "bps" after it.
 * -EINVAL for anything else, -ERANGE outside [0, max].
 */
int net_parse_rate(const char *s, uint64_t max, uint64_t *ret);

/* Fill the iperf3 defaults for a protocol (length, UDP rate, 10 s). */
void net_params_defaults(struct net_params *p, enum net_proto proto);

int net_params_encode(const struct net_params *p, struct strbuf *out);
/*
 * Parse and check a parameter message. On -EINVAL *why says what is wrong
 * and *ret_ie the iperf3 error number to answer with; ret is untouched.
 */
int net_params_decode(const char *buf, size_t len, struct net_params *ret, struct strbuf *why,
		      int32_t *ret_ie);

/* One stream in a results message. Integers iperf3 cannot tell are -1. */
struct net_stream_result {
	int64_t id;
	uint64_t bytes;
	int64_t retransmits;
	double jitter_s;
	int64_t errors;	 /* lost datagrams */
	int64_t packets; /* sender: sent; receiver: highest counter seen */
	int64_t omitted_errors, omitted_packets; /* -1 when not sent (iperf3 3.12 sends neither) */
	double start_s, end_s;			 /* NaN when not sent */
};

/* The results message each side sends at the end. */
struct net_results {
	double cpu_total, cpu_user, cpu_sys; /* percent of one CPU, as iperf3 */
	int64_t sender_has_retransmits;	     /* 1, 0, or -1 when this side only received */
	char congestion[16];		     /* "congestion_used", "" none */
	struct net_stream_result *streams;
	size_t nstreams;
};

int net_results_encode(const struct net_results *r, struct strbuf *out);
/* At most max_streams streams; -EINVAL with *why on anything malformed. */
int net_results_decode(const char *buf, size_t len, size_t max_streams, struct net_results *ret,
		       struct strbuf *why);
void net_results_release(struct net_results *r);

/*
 * The UDP datagram header, big-endian: u32 seconds and u32 microseconds of
 * the sender's CLOCK_MONOTONIC, then the packet counter (u32, or u64 when
 * 64-bit counters were agreed). Counters start at 1 on each stream.
 */
#define NET_UDP_HEADER 16u
void net_udp_stamp(unsigned char *buf, uint64_t now_ns, uint64_t counter, bool c64);
/* -EBADMSG for a datagram too short to hold the header */
int net_udp_parse(const unsigned char *buf, size_t len, bool c64, uint64_t *ret_sent_ns,
		  uint64_t *ret_counter);

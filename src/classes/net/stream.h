/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Data streams: one thread per stream doing blocking sends or receives, so
 * a sender never waits on a select() per block and pacing is a sleep to an
 * absolute time. The main thread only reads counters (under a per-stream
 * lock) and moves the shared phase: RUN (count) -> STOP (senders end,
 * receivers keep draining without counting) -> EXIT (receivers end).
 * Every blocking call is bounded (SO_SNDTIMEO/SO_RCVTIMEO), so a phase
 * change is seen within NET_IO_SLICE_MS.
 */
#include "classes/net/proto.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define NET_IO_SLICE_MS 100

enum net_phase { NET_PHASE_RUN = 1, NET_PHASE_STOP, NET_PHASE_EXIT };

/* What every stream of a test shares. Fields marked atomic use __atomic builtins. */
struct net_shared {
	int phase;		 /* atomic, enum net_phase */
	enum net_proto proto;
	bool udp_64bit;
	uint64_t len;		 /* block / datagram length */
	uint64_t window;	 /* socket buffers the test set, 0: the defaults */
	uint64_t rate_bps;	 /* per stream, 0: unpaced */
	uint64_t pacing_us;	 /* TCP with a rate: write what this much time carries */
	uint64_t limit_bytes;	 /* senders stop when all of them together sent this; 0 none */
	uint64_t limit_blocks;
	uint64_t claimed_bytes;	 /* atomic: bytes senders took from limit_bytes */
	uint64_t claimed_blocks; /* atomic */
	uint64_t recv_limit;	 /* receivers wake the main loop when together past it */
	uint64_t received;	 /* atomic: bytes all receivers counted */
	int wake_fd;		 /* eventfd the threads poke when they end or pass a limit */
	uint64_t t0_ns;		 /* pacing epoch (CLOCK_MONOTONIC) */
};

/*
 * Receiver accounting of one UDP stream, as iperf3 does it: a counter past
 * the highest seen plus one adds the gap to errors; one at or below it is
 * out of order and takes one error back. Jitter per RFC 3550 A.8 from the
 * transit time (arrival - sent, absolute); the first datagram (of the run,
 * and again after the omitted seconds) only sets the previous transit.
 */
struct net_udp_rx {
	uint64_t packets; /* highest counter seen */
	uint64_t errors;
	uint64_t ooo;
	double jitter_s;
	double prev_transit_s;
	bool have_prev;
};

void net_udp_rx_account(struct net_udp_rx *rx, uint64_t counter, double transit_s);

/* What the main thread reads from a stream. */
struct net_counters {
	uint64_t bytes;	  /* moved while the phase was RUN */
	uint64_t blocks;  /* whole blocks sent */
	uint64_t packets; /* UDP sender: datagrams sent; receiver: rx.packets */
	struct net_udp_rx rx;
};

struct net_stream {
	int id;		 /* iperf3's numbering: 1, 3, 4, 5 ... */
	int fd;
	bool sender;
	struct net_shared *sh;
	pthread_t thread;
	bool started;
	bool done;	 /* atomic: the thread has returned */
	int error;	 /* negative errno that ended the stream while running, 0 */
	pthread_mutex_t lock;
	struct net_counters c; /* under lock */
	uint64_t moved_all;    /* atomic: TCP bytes sent or received in any phase */
	unsigned char *buf;
	size_t buflen;
	unsigned batch;	 /* UDP datagrams (or merged buffers) per system call */
	size_t slot;	 /* bytes of buf per datagram of a batch */
};

/* iperf3's stream ids: 1, then 3, 4, 5 ... (2 is never used) */
int net_stream_id(unsigned index);

/* Allocate the buffer (random bytes, incompressible) and the lock. */
int net_stream_init(struct net_stream *s, int id, int fd, bool sender, struct net_shared *sh);
/* Start the thread with every signal blocked: signals go to the main thread. */
int net_stream_start(struct net_stream *s);
/* Wait for the thread (after the phase told it to end). */
void net_stream_join(struct net_stream *s);
/* Join if started, close the fd, free the buffer. */
void net_stream_release(struct net_stream *s);

void net_stream_snapshot(struct net_stream *s, struct net_counters *ret);
/* The end of the omitted seconds: jitter starts again from the next datagram. */
void net_stream_reset_jitter(struct net_stream *s);

static inline int net_phase_get(const struct net_shared *sh)
{
	return __atomic_load_n(&sh->phase, __ATOMIC_ACQUIRE);
}

static inline void net_phase_set(struct net_shared *sh, int phase)
{
	__atomic_store_n(&sh->phase, phase, __ATOMIC_RELEASE);
}

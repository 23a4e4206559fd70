/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * One running test, the part client and server share: the streams are
 * connected and TEST_RUNNING has been sent or received. The session starts
 * the stream threads, cuts intervals, ends the omitted seconds, watches the
 * control connection and, on the client, decides the end. Afterwards it
 * holds each stream's final counts for the results message and the report.
 */
#include "classes/net/net.h"
#include "classes/net/stream.h"

/* A stream's totals at the end; "meas" values leave the omitted seconds out. */
struct net_stream_final {
	int id;
	bool sender;
	uint64_t bytes;		  /* measured */
	int64_t retrans;	  /* measured, -1 unknown */
	/* UDP sender: datagrams sent; receiver: highest counter; in all, and at the end of omit */
	uint64_t packets, packets_omit;
	uint64_t errors, errors_omit;
	uint64_t ooo, ooo_omit;
	double jitter_s;
	int error;
};

/* This process's CPU time and the wall clock: iperf3's CPU figure is their ratio. */
struct net_cpu {
	double user_s, sys_s, wall_s;
};

enum net_end {
	NET_END_NONE,
	NET_END_DONE,	    /* time, bytes or blocks reached (client) / TEST_END (server) */
	NET_END_SIGNAL,	    /* asked to stop */
	NET_END_PEER_GONE,  /* control connection closed or failed */
	NET_END_PEER_ABORT, /* SERVER_TERMINATE, CLIENT_TERMINATE, SERVER_ERROR */
	NET_END_TIMEOUT,    /* the peer went silent */
	NET_END_STREAM,	    /* a data stream failed */
	NET_END_PROTOCOL,   /* an unexpected control message */
};

struct net_session {
	/* set up by the caller */
	const struct net_params *p;
	bool client;
	int ctrl;		/* control connection */
	int deny_fd;		/* listener to answer ACCESS_DENIED on, -1 */
	double interval_s;
	double guard_s;		/* server: give up this long after the planned end */
	double idle_s;		/* server: give up after this long without data or control */
	const volatile int *stop;
	net_interval_fn on_interval;
	void *ctx;
	struct net_report *rep; /* interval rows go here */
	struct net_shared sh;
	struct net_stream *streams;
	size_t nstreams;
	/* filled by the run */
	enum net_end end;
	int end_err;		/* errno of the failure, 0 */
	int peer_state;		/* the state byte that ended it (peer abort / protocol) */
	double seconds;		/* measured: from the end of omit to the stop */
	struct net_stream_final *finals;
	double cpu_total, cpu_user, cpu_sys; /* percent of one CPU while measuring */
	/* private */
	uint64_t t_start, t_omit, t_stop, t_tick_base;
	unsigned tick;
	bool omitting;
	double cut_s;		/* start of the current interval, from t_start */
	struct net_counters *base, *prev;
	int64_t *retr_base, *retr_prev;
	struct net_cpu cpu0;
};

/* Allocate the per-stream state; streams[] and nstreams must be set. */
int net_session_init(struct net_session *s);
void net_session_release(struct net_session *s);
/*
 * TCP bytes this end's streams have certainly carried across the link so far,
 * any phase: each receiver's bytes read and still queued (SIOCINQ), each
 * sender's bytes written less those not yet acknowledged (SIOCOUTQ).
 */
uint64_t net_session_delivered(const struct net_session *s);
/* Start the threads and run until the end; the threads are stopped and joined on return. */
void net_session_run(struct net_session *s);
/* End every thread and close the data sockets: what a server does on TEST_END. */
void net_session_close_streams(struct net_session *s);
/* The results message this end sends. */
void net_session_results(const struct net_session *s, struct net_results *ret);
/* Words for how the session ended, for a report or a server event. */
const char *net_end_text(enum net_end e);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Connections a server has accepted but not yet taken: each must send its
 * 37-byte cookie (and, for a control connection, its parameters) before its
 * own deadline. They are read all at once from one poll(), never one after
 * another, so a connection that stays silent holds up nobody but itself.
 */
#include "classes/net/proto.h"
#include "classes/net/sock.h"
#include "util/strbuf.h"

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* More pending connections than this: the oldest is dropped for the newest. */
#define NET_PENDING_MAX 128u

struct net_pending_conn {
	int fd;
	struct net_addr from;
	char who[80]; /* "192.0.2.1:40000" */
	uint64_t deadline_ns;
	char cookie[NET_COOKIE_SIZE];
	size_t got; /* cookie bytes, then parameter bytes (header included) */
	bool asked; /* PARAM_EXCHANGE sent: reading the parameters */
	unsigned char hdr[4];
	size_t len;	      /* the parameters' length, once the header is in */
	struct strbuf params; /* the parameters' JSON, NUL-terminated */
};

/*
 * A connection that ended before it was taken: err is -ETIMEDOUT (silent
 * past its deadline), -ECONNRESET (closed), -EPROTO (the first 37 bytes are
 * not a cookie), -EBADMSG or -EMSGSIZE (an empty or oversized parameter
 * message), -EOVERFLOW (dropped for a newer one: past NET_PENDING_MAX, or
 * out of file descriptors), or a socket error. Called
 * before the socket is closed, so an answer can still be sent on c->fd.
 */
typedef void (*net_pending_drop_fn)(void *ctx, const struct net_pending_conn *c, int err);

struct net_pending {
	/* set by the caller */
	bool control;	      /* control connections: send PARAM_EXCHANGE, read the parameters */
	double cookie_wait_s; /* from accept() to the whole cookie */
	double params_wait_s; /* from PARAM_EXCHANGE to the whole parameter message */
	net_pending_drop_fn on_drop;
	void *ctx;
	/* private */
	struct net_pending_conn *v;
	size_t n;
	uint64_t rest_until_ns; /* out of descriptors, nothing to drop: listener not polled */
	struct pollfd pf[NET_PENDING_MAX + 8];
};

/*
 * Wait on the listener lfd (-1: none), every pending connection and the
 * caller's extra fds (at most 6, their revents filled in) until a pending
 * connection is complete: its cookie, and for a control connection its
 * parameters too. 1: *ret is that connection, out of the set, now the
 * caller's (release it with net_pending_conn_close); 2: an extra fd has
 * events; 0: until_ns passed; -EINTR: *stop set.
 */
int net_pending_wait(struct net_pending *p, int lfd, struct pollfd *extra, size_t nextra,
		     uint64_t until_ns, const volatile int *stop, struct net_pending_conn *ret);
/* Answer every pending connection ACCESS_DENIED without waiting, and close it. */
void net_pending_deny_all(struct net_pending *p);
void net_pending_release(struct net_pending *p);
void net_pending_conn_close(struct net_pending_conn *c);

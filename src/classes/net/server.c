// SPDX-License-Identifier: MIT
/*
 * usbperf net server: iperf3's server side. One test at a time (a client
 * arriving during a test is told ACCESS_DENIED without a byte read from
 * it), every wait bounded, and whatever a client does ends only its own
 * test: the server goes on to the next.
 */
#include "classes/net/link.h"
#include "classes/net/pending.h"
#include "classes/net/result.h"
#include "classes/net/sock.h"
#include "classes/net/wire.h"
#include "util/clock.h"

#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct server {
	const struct net_server_config *c;
	struct net_addr addr;
	int lfd;
	bool lfd_tuned; /* a test set its window on the listener: take a fresh one after */
	unsigned served;
	struct net_pending pend; /* control connections not yet a test */
};

/* A cookie is sent right after connect(): a connection silent longer is not a client. */
#define COOKIE_WAIT_S 5.0

/* One client and its test. */
struct conn {
	struct server *sv;
	int ctrl;
	char who[80];
	char cookie[NET_COOKIE_SIZE];
	struct net_params p;
	struct net_report rep;
	struct net_session s;
	bool session_ready, ran;
	struct net_results peer;
	bool have_peer;
	int udp_fd; /* where the next UDP stream says hello */
	struct net_sockopts data_opts;
	struct net_pending spend; /* TCP connections during stream setup, not yet a stream */
	struct usbmon_pass *mon;  /* --monitor: from TEST_START to the end of the results */
};

__attribute__((format(printf, 2, 3))) static void event(struct server *sv, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!sv->c->on_event)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) >= 0) {
		sv->c->on_event(sv->c->ctx, msg);
		free(msg);
	}
	va_end(ap);
}

static uint64_t deadline(const struct server *sv)
{
	return clock_now_ns() + (uint64_t)(sv->c->timeout_s * 1e9);
}

static double cookie_wait(const struct server *sv)
{
	return sv->c->timeout_s < COOKIE_WAIT_S ? sv->c->timeout_s : COOKIE_WAIT_S;
}

static int send_state(struct conn *cn, signed char st)
{
	return net_write_full(cn->ctrl, &st, 1, deadline(cn->sv));
}

/*
 * SERVER_ERROR and the two numbers iperf3 clients print. Sent before any
 * test data, so it fits the socket buffer: never wait for a client that
 * does not read.
 */
static void refuse(int fd, int32_t ie, int32_t err)
{
	unsigned char b[9] = {(unsigned char)NET_SERVER_ERROR};
	uint32_t v[2] = {(uint32_t)ie, (uint32_t)err};
	int i;

	for (i = 0; i < 8; i++)
		b[1 + i] = (unsigned char)(v[i / 4] >> (24 - 8 * (i % 4)));
	if (send(fd, b, sizeof(b), MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		/* the client is gone: nothing to tell */
	}
}

static int read_json(struct conn *cn, size_t max, struct strbuf *ret)
{
	return net_read_msg(cn->ctrl, max, deadline(cn->sv), cn->sv->c->stop, ret);
}

static const char *read_error(int r)
{
	switch (r) {
	case -ETIMEDOUT: return "went silent";
	case -ECONNRESET: return "closed the connection";
	case -EBADMSG: return "sent an empty message";
	case -EMSGSIZE: return "sent an oversized message";
	case -EINTR: return "was cut off by a signal";
	}
	return strerror(-r);
}

static int decode_params(struct conn *cn, const struct strbuf *body)
{
	struct strbuf why = STRBUF_INIT;
	int32_t ie = NET_IE_RECVPARAMS;
	int r = net_params_decode(body->buf, body->len, &cn->p, &why, &ie);

	if (r < 0) {
		event(cn->sv, "%s: refused: %s", cn->who, why.buf);
		refuse(cn->ctrl, ie, 0);
	}
	strbuf_release(&why);
	return r;
}

/* A control connection that ended before its parameters were in. */
static void control_dropped(void *ctx, const struct net_pending_conn *c, int err)
{
	struct server *sv = ctx;
	const char *what = c->asked ? "parameters" : "cookie";

	switch (err) {
	case -EPROTO:
		event(sv, "%s: dropped: the first 37 bytes are not a cookie", c->who);
		return;
	case -EOVERFLOW:
		event(sv, "%s: dropped for a newer connection: too many waiting", c->who);
		return;
	case -EMSGSIZE:
	case -EBADMSG:
		refuse(c->fd, NET_IE_RECVPARAMS, -err);
		break;
	}
	event(sv, "%s: %s: the client %s", c->who, what, read_error(err));
}

static void shared_setup(struct conn *cn)
{
	struct net_shared *sh = &cn->s.sh;

	*sh = (struct net_shared){.proto = cn->p.proto,
				  .udp_64bit = cn->p.udp_64bit,
				  .len = cn->p.len,
				  .window = cn->p.window,
				  .rate_bps = cn->p.rate_bps,
				  .pacing_us = cn->p.pacing_timer_us,
				  .wake_fd = -1,
				  .limit_bytes = cn->p.bytes,
				  .limit_blocks = cn->p.blocks};
	cn->data_opts = (struct net_sockopts){
		.dev = cn->sv->c->bind_dev, .window = cn->p.window, .tos = cn->p.tos,
		.mss = cn->p.mss, .nodelay = cn->p.nodelay,
		.congestion = cn->p.congestion[0] ? cn->p.congestion : NULL,
	};
}

/* The listener takes the window before the SYNs come, so the window scale is right. */
static int prepare_listeners(struct conn *cn)
{
	struct server *sv = cn->sv;

	if (cn->p.proto == NET_UDP)
		return net_bind_udp(&sv->addr, &cn->data_opts, &cn->udp_fd);
	if (!cn->p.window)
		return 0;
	sv->lfd_tuned = true;
	return net_apply_opts(sv->lfd, sv->addr.ss.ss_family, true,
			      &(struct net_sockopts){.window = cn->p.window});
}

static void deny(int fd)
{
	signed char b = NET_ACCESS_DENIED;

	if (fd < 0)
		return;
	(void)send(fd, &b, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

/* A TCP connection during stream setup that never showed a cookie. */
static void stream_dropped(void *ctx, const struct net_pending_conn *c, int err)
{
	struct conn *cn = ctx;

	signed char b = NET_ACCESS_DENIED;

	event(cn->sv, "%s: denied %s: no cookie (the client %s)", cn->who, c->who, read_error(err));
	if (send(c->fd, &b, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		/* gone already; net_pending closes it */
	}
}

/* A TCP connection during stream setup with its cookie in: one of ours if it is our cookie. */
static int tcp_stream(struct conn *cn, struct net_pending_conn *pc, int *ret_fd)
{
	if (memcmp(pc->cookie, cn->cookie, sizeof(pc->cookie))) {
		event(cn->sv, "%s: denied %s: another test's cookie (busy)", cn->who, pc->who);
		deny(pc->fd);
		pc->fd = -1;
		net_pending_conn_close(pc);
		return 0;
	}
	if (net_apply_opts(pc->fd, pc->from.ss.ss_family, true, &cn->data_opts) < 0) {
		/* the client asked for something this kernel refuses: run without it */
	}
	*ret_fd = pc->fd;
	pc->fd = -1;
	net_pending_conn_close(pc);
	return 1;
}

/* A UDP hello: the socket becomes that stream's, a fresh one waits for the next. */
static int udp_stream(struct conn *cn, int *ret_fd)
{
	static const unsigned char reply[4] = {0x36, 0x37, 0x38, 0x39};
	struct net_addr a;
	socklen_t len = sizeof(a.ss);
	unsigned char buf[16];
	int fd = cn->udp_fd, next, r;

	if (recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&a.ss, &len) < 0)
		return 0;
	if (connect(fd, (struct sockaddr *)&a.ss, len) < 0)
		return -errno;
	r = net_bind_udp(&cn->sv->addr, &cn->data_opts, &next);
	if (r < 0)
		return r;
	cn->udp_fd = next;
	if (send(fd, reply, sizeof(reply), MSG_NOSIGNAL) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 1;
}

/* The client ends or drops its test before the streams are up. */
static int control_during_setup(struct conn *cn)
{
	signed char b;
	ssize_t n = recv(cn->ctrl, &b, 1, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -ECONNRESET;
	return b == NET_CLIENT_TERMINATE ? -ECONNRESET : -EPROTO;
}

/*
 * The next stream. TCP: the connections on the listener are read together,
 * so one that never sends a cookie delays no other; UDP: a TCP connection
 * now is another client, told busy.
 */
static int accept_one(struct conn *cn, int *ret_fd)
{
	bool udp = cn->p.proto == NET_UDP;
	struct pollfd pf[3] = {{.fd = cn->ctrl, .events = POLLIN},
			       {.fd = udp ? cn->sv->lfd : -1, .events = POLLIN},
			       {.fd = -1, .events = POLLIN}};
	uint64_t end = deadline(cn->sv);
	int r;

	for (;;) {
		struct net_pending_conn pc;

		pf[2].fd = udp ? cn->udp_fd : -1;
		r = net_pending_wait(&cn->spend, udp ? -1 : cn->sv->lfd, pf, 3, end,
				     cn->sv->c->stop, &pc);
		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0)
			return r;
		if (r == 1) {
			if (tcp_stream(cn, &pc, ret_fd))
				return 0;
			continue;
		}
		if (pf[0].revents && (r = control_during_setup(cn)) < 0)
			return r;
		if (pf[1].revents & POLLIN)
			deny(accept4(cn->sv->lfd, NULL, NULL, SOCK_CLOEXEC));
		if ((pf[2].revents & POLLIN) && (r = udp_stream(cn, ret_fd)) != 0)
			return r < 0 ? r : 0;
	}
}

static int accept_streams(struct conn *cn)
{
	size_t n = cn->p.parallel * (cn->p.bidir ? 2 : 1), i;
	int r;

	cn->s.streams = calloc(n, sizeof(*cn->s.streams));
	if (!cn->s.streams)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		cn->s.streams[i].fd = -1;
	cn->s.nstreams = n;
	cn->session_ready = true;
	cn->spend = (struct net_pending){
	    .cookie_wait_s = cookie_wait(cn->sv), .on_drop = stream_dropped, .ctx = cn};
	r = net_session_init(&cn->s);
	for (i = 0; r == 0 && i < n; i++) {
		/* the client opens its senders first: the first ones here receive */
		bool sender = cn->p.bidir ? i >= cn->p.parallel : cn->p.reverse;
		int fd = -1;

		r = accept_one(cn, &fd);
		if (r == 0) {
			r = net_stream_init(&cn->s.streams[i], net_stream_id((unsigned)i), fd,
					    sender, &cn->s.sh);
			cn->s.streams[i].fd = fd;
		}
	}
	/* the test is on: whoever else is still connecting is told busy */
	net_pending_deny_all(&cn->spend);
	net_pending_release(&cn->spend);
	if (r < 0)
		event(cn->sv, "%s: streams: %s", cn->who,
		      r == -ETIMEDOUT ? "the client went silent" : read_error(r));
	return r;
}

static double idle_limit(const struct conn *cn)
{
	double t = cn->sv->c->timeout_s;

	/* a slow UDP rate sends seldom: allow a few datagrams' time */
	if (cn->p.rate_bps) {
		double gap = (double)cn->p.len * 8 / (double)cn->p.rate_bps * 4;

		if (gap > t)
			t = gap;
	}
	return t;
}

static void run_test(struct conn *cn)
{
	struct net_session *s = &cn->s;

	s->p = &cn->p;
	s->client = false;
	s->ctrl = cn->ctrl;
	s->deny_fd = cn->sv->lfd;
	s->interval_s = cn->sv->c->interval_s;
	s->guard_s = cn->sv->c->timeout_s;
	s->idle_s = idle_limit(cn);
	s->stop = cn->sv->c->stop;
	s->on_interval = cn->sv->c->on_interval;
	s->ctx = cn->sv->c->ctx;
	s->rep = &cn->rep;
	net_session_run(s);
	cn->ran = true;
	/* what this end moved, counted while the capture runs: all of it crossed the bus */
	if (cn->mon && cn->p.proto == NET_TCP)
		cn->rep.payload_bytes = net_session_delivered(s);
	if (cn->p.proto == NET_TCP && s->nstreams) {
		char cc[16];

		net_tcp_congestion(s->streams[0].fd, cc, sizeof(cc));
		cn->rep.congestion = cc[0] ? strdup(cc) : NULL;
	}
	if (s->end == NET_END_SIGNAL) {
		/*
		 * Tell the client before its streams are reset under it, and give it a
		 * moment to read that and leave: else it may see only "connection reset".
		 */
		(void)send_state(cn, NET_SERVER_TERMINATE);
		(void)net_wait_readable(cn->ctrl, clock_now_ns() + 500000000ull, NULL);
	}
	/* iperf3 closes its streams before EXCHANGE_RESULTS; its client drains until EOF */
	net_session_close_streams(s);
}

static int exchange_results(struct conn *cn)
{
	struct strbuf body = STRBUF_INIT, why = STRBUF_INIT, msg = STRBUF_INIT;
	struct net_results mine;
	unsigned char hdr[4];
	int r;

	r = send_state(cn, NET_EXCHANGE_RESULTS);
	/* iperf3's order: the client's results first, then ours */
	if (r == 0)
		r = read_json(cn, NET_RESULTS_MAX, &body);
	if (r == 0) {
		r = net_results_decode(body.buf, body.len, cn->s.nstreams, &cn->peer, &why);
		cn->have_peer = r == 0;
		if (r < 0)
			event(cn->sv, "%s: malformed results: %s", cn->who, why.buf);
	}
	net_session_results(&cn->s, &mine);
	strbuf_reset(&body);
	if (r == 0)
		r = net_results_encode(&mine, &body);
	net_results_release(&mine);
	if (r == 0) {
		net_msg_header(body.len, hdr);
		strbuf_add(&msg, hdr, 4);
		strbuf_add(&msg, body.buf, body.len);
		r = net_write_full(cn->ctrl, msg.buf, msg.len, deadline(cn->sv));
	}
	if (r == 0)
		r = send_state(cn, NET_DISPLAY_RESULTS);
	strbuf_release(&body);
	strbuf_release(&why);
	strbuf_release(&msg);
	return r;
}

static void wait_done(struct conn *cn)
{
	signed char b;

	/* IPERF_DONE, or the client just leaving: either way the test is over */
	if (net_read_full(cn->ctrl, &b, 1, deadline(cn->sv), cn->sv->c->stop) == 0 &&
	    b != NET_IPERF_DONE)
		event(cn->sv, "%s: ended with %d instead of IPERF_DONE", cn->who, b);
}

static void after_test(struct conn *cn)
{
	struct net_session *s = &cn->s;
	int r;

	switch (s->end) {
	case NET_END_DONE:
		r = exchange_results(cn);
		if (r < 0) {
			event(cn->sv, "%s: results: the client %s", cn->who, read_error(r));
			cn->rep.error = r;
			cn->rep.error_msg = strdup("the results exchange failed");
		} else {
			wait_done(cn);
		}
		return;
	case NET_END_SIGNAL: /* SERVER_TERMINATE is sent already (run_test) */
		cn->rep.interrupted = true;
		break;
	default:
		event(cn->sv, "%s: test ended early: %s", cn->who, net_end_text(s->end));
		break;
	}
	cn->rep.error = -ECONNABORTED;
	cn->rep.error_msg = strdup(net_end_text(s->end));
}

static void describe(struct conn *cn)
{
	struct net_addr a;
	socklen_t len = sizeof(a.ss);
	char buf[80], via[IF_NAMESIZE] = "";
	const char *dev = cn->sv->c->bind_dev;

	net_report_header(&cn->rep, &cn->p, false);
	cn->rep.interval_s = cn->sv->c->interval_s;
	cn->rep.peer = strdup(cn->who);
	cn->rep.peer_version = strdup(cn->p.client_version[0] ? cn->p.client_version : "?");
	cn->rep.cookie = strdup(cn->cookie);
	cn->rep.bind_dev = dev ? strdup(dev) : NULL;
	if (getsockname(cn->ctrl, (struct sockaddr *)&a.ss, &len) == 0) {
		net_addr_str((struct sockaddr *)&a.ss, true, buf, sizeof(buf));
		cn->rep.local = strdup(buf);
	}
	len = sizeof(a.ss);
	if (!dev && getpeername(cn->ctrl, (struct sockaddr *)&a.ss, &len) == 0 &&
	    net_route_iface((struct sockaddr *)&a.ss, via, sizeof(via)) < 0)
		via[0] = '\0';
	if (dev || via[0]) {
		net_link_describe(&cn->rep, dev ? dev : via, cn->p.proto == NET_UDP,
				  (unsigned)cn->p.len);
		net_link_notes(&cn->rep, &cn->p);
	}
}

static void finish(struct conn *cn)
{
	net_wire_stop(cn->mon, &cn->rep);
	cn->mon = NULL;
	if (cn->ran) {
		net_report_totals(&cn->rep, &cn->s, cn->have_peer ? &cn->peer : NULL);
		net_wire_finish(&cn->rep);
		if (cn->sv->c->on_report)
			cn->sv->c->on_report(cn->sv->c->ctx, &cn->rep);
	}
	if (cn->session_ready)
		net_session_release(&cn->s);
	free(cn->s.streams);
	net_results_release(&cn->peer);
	net_report_release(&cn->rep);
	if (cn->udp_fd >= 0)
		close(cn->udp_fd);
	close(cn->ctrl);
}

/* The cookie and the parameters are in (net_pending): set the test up. */
static int handshake(struct conn *cn, const struct strbuf *params)
{
	int r = decode_params(cn, params);

	if (r < 0)
		return r;
	shared_setup(cn);
	describe(cn);
	event(cn->sv, "%s: %s %s, %llu stream%s, %s", cn->who, cn->p.client_version[0]
									? cn->p.client_version
									: "client",
	      cn->rep.protocol, (unsigned long long)cn->p.parallel, cn->p.parallel > 1 ? "s" : "",
	      cn->rep.direction);
	r = prepare_listeners(cn);
	if (r < 0) {
		event(cn->sv, "%s: cannot set up the data listener: %s", cn->who, strerror(-r));
		refuse(cn->ctrl, 100, -r);
		return r;
	}
	r = send_state(cn, NET_CREATE_STREAMS);
	if (r == 0)
		r = accept_streams(cn);
	/* the wire is watched before the client is told to start: from its first byte */
	if (r == 0 && cn->sv->c->monitor)
		cn->mon = net_wire_start(&cn->rep);
	if (r == 0)
		r = send_state(cn, NET_TEST_START);
	if (r == 0)
		r = send_state(cn, NET_TEST_RUNNING);
	return r;
}

static void serve(struct server *sv, struct net_pending_conn *pc)
{
	struct conn cn = {.sv = sv, .ctrl = pc->fd, .udp_fd = -1};

	pc->fd = -1; /* finish() closes it */
	memcpy(cn.cookie, pc->cookie, sizeof(cn.cookie));
	snprintf(cn.who, sizeof(cn.who), "%s", pc->who);
	cn.s.sh.wake_fd = -1;
	setsockopt(cn.ctrl, IPPROTO_TCP, TCP_NODELAY, &(int){1}, sizeof(int));
	if (handshake(&cn, &pc->params) == 0) {
		if (cn.udp_fd >= 0) {
			close(cn.udp_fd);
			cn.udp_fd = -1;
		}
		run_test(&cn);
		after_test(&cn);
		sv->served++;
	}
	finish(&cn);
}

static int listen_fresh(struct server *sv)
{
	struct net_sockopts o = {.dev = sv->c->bind_dev};

	if (sv->lfd >= 0)
		close(sv->lfd);
	sv->lfd = -1;
	sv->lfd_tuned = false;
	return net_listen_tcp(&sv->addr, &o, &sv->lfd);
}

int net_server_run(const struct net_server_config *c, char **ret_why)
{
	struct server sv = {.c = c, .lfd = -1};
	char buf[80];
	int r;

	sv.pend = (struct net_pending){.control = true,
				       .cookie_wait_s = cookie_wait(&sv),
				       .params_wait_s = c->timeout_s,
				       .on_drop = control_dropped,
				       .ctx = &sv};
	r = net_resolve(c->bind_addr, c->port, c->family, true, &sv.addr);
	if (r == 0)
		r = listen_fresh(&sv);
	net_addr_str((struct sockaddr *)&sv.addr.ss, true, buf, sizeof(buf));
	if (r < 0) {
		if ((c->bind_addr ? asprintf(ret_why, "cannot listen on %s: %s", buf, strerror(-r))
				  : asprintf(ret_why, "cannot listen on port %u: %s", c->port,
					     strerror(-r))) < 0)
			*ret_why = NULL;
		return r;
	}
	event(&sv, "listening on %s", buf);
	r = 0;
	while (!(c->stop && *c->stop) && !(c->one_off && sv.served)) {
		struct net_pending_conn pc;

		/* every waiting connection at once, each against its own deadline */
		if (net_pending_wait(&sv.pend, sv.lfd, NULL, 0, clock_now_ns() + 1000000000ull,
				     c->stop, &pc) != 1)
			continue;
		/* one test at a time: the others still connecting are told busy */
		net_pending_deny_all(&sv.pend);
		serve(&sv, &pc);
		net_pending_conn_close(&pc);
		if (sv.lfd_tuned && listen_fresh(&sv) < 0) {
			if (asprintf(ret_why, "cannot listen again on %s", buf) < 0)
				*ret_why = NULL;
			r = -EADDRINUSE;
			break;
		}
	}
	net_pending_release(&sv.pend);
	if (sv.lfd >= 0)
		close(sv.lfd);
	return r;
}

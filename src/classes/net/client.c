// SPDX-License-Identifier: MIT
/* usbperf net client: one test against an iperf3 (or usbperf) server. */
#include "classes/net/link.h"
#include "classes/net/result.h"
#include "classes/net/sock.h"
#include "classes/net/wire.h"
#include "util/clock.h"
#include "version.h"

#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct client {
	const struct net_client_config *c;
	struct net_report *rep;
	struct net_addr peer, local;
	bool have_local;
	struct net_sockopts data_opts;
	int ctrl;
	char cookie[NET_COOKIE_SIZE];
	struct net_params p;
	struct net_session s;
	bool session_ready; /* streams exist: the session owns them */
	bool ran;	    /* the test ran: there are results */
	struct net_results peer_res;
	bool have_peer;
	struct usbmon_pass *mon; /* --monitor: from TEST_RUNNING to the results */
};

__attribute__((format(printf, 3, 4))) static int fail(struct client *cl, int err,
						     const char *fmt, ...)
{
	va_list ap;

	if (!cl->rep->error_msg) {
		va_start(ap, fmt);
		if (vasprintf(&cl->rep->error_msg, fmt, ap) < 0)
			cl->rep->error_msg = NULL;
		va_end(ap);
	}
	if (!cl->rep->error)
		cl->rep->error = err;
	return err;
}

static uint64_t deadline(const struct client *cl)
{
	return clock_now_ns() + (uint64_t)(cl->c->timeout_s * 1e9);
}

static int send_state(struct client *cl, signed char st)
{
	return net_write_full(cl->ctrl, &st, 1, deadline(cl));
}

static int send_json(struct client *cl, const struct strbuf *body)
{
	struct strbuf msg = STRBUF_INIT;
	unsigned char hdr[4];
	int r;

	net_msg_header(body->len, hdr);
	strbuf_add(&msg, hdr, 4);
	strbuf_add(&msg, body->buf, body->len);
	r = net_write_full(cl->ctrl, msg.buf, msg.len, deadline(cl));
	strbuf_release(&msg);
	return r;
}

static int read_json(struct client *cl, size_t max, struct strbuf *ret)
{
	/* once the test ran, a signal still lets the results come in */
	return net_read_msg(cl->ctrl, max, deadline(cl), cl->ran ? NULL : cl->c->stop, ret);
}

static int send_params(struct client *cl)
{
	struct strbuf body = STRBUF_INIT;
	int r = net_params_encode(&cl->p, &body);

	if (r == 0)
		r = send_json(cl, &body);
	strbuf_release(&body);
	return r < 0 ? fail(cl, r, "cannot send the test parameters: %s", strerror(-r)) : 0;
}

/* A UDP stream announces itself with 4 bytes and waits for the server's 4. */
static int udp_handshake(struct client *cl, int fd)
{
	static const unsigned char hello[4] = {0x39, 0x38, 0x37, 0x36};
	uint64_t end = deadline(cl);
	unsigned char buf[16];

	if (send(fd, hello, sizeof(hello), MSG_NOSIGNAL) != sizeof(hello))
		return -errno;
	for (;;) {
		int r = net_wait_readable(fd, end, cl->c->stop);
		ssize_t n;

		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0)
			return r;
		n = recv(fd, buf, sizeof(buf), MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		/* any 4-byte reply will do (iperf3 sent 987654321 in host order before 3.11) */
		if (n == 4)
			return 0;
		/* longer: data that overtook the reply in reverse mode, dropped */
	}
}

static int connect_stream(struct client *cl, int *ret_fd)
{
	bool udp = cl->p.proto == NET_UDP;
	int fd, r;

	r = net_connect(&cl->peer, cl->have_local ? &cl->local : NULL,
			udp ? SOCK_DGRAM : SOCK_STREAM, &cl->data_opts, deadline(cl), &fd);
	if (r < 0)
		return r;
	r = udp ? udp_handshake(cl, fd) : net_write_full(fd, cl->cookie, NET_COOKIE_SIZE,
							 deadline(cl));
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

static void shared_setup(struct client *cl)
{
	struct net_shared *sh = &cl->s.sh;
	bool sends = !cl->p.reverse;

	*sh = (struct net_shared){.proto = cl->p.proto,
				  .udp_64bit = cl->p.udp_64bit,
				  .len = cl->p.len,
				  .window = cl->p.window,
				  .rate_bps = cl->p.rate_bps,
				  .pacing_us = cl->p.pacing_timer_us,
				  .wake_fd = -1};
	/* iperf3's end rule: bytes or blocks this end sent, or received when it only receives */
	if (sends) {
		sh->limit_bytes = cl->p.bytes;
		sh->limit_blocks = cl->p.blocks;
	} else {
		sh->recv_limit = cl->p.bytes ? cl->p.bytes : cl->p.blocks * cl->p.len;
	}
}

static int create_streams(struct client *cl)
{
	size_t n = cl->p.parallel * (cl->p.bidir ? 2 : 1), i;
	int r;

	shared_setup(cl);
	cl->s.streams = calloc(n, sizeof(*cl->s.streams));
	if (!cl->s.streams)
		return fail(cl, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		cl->s.streams[i].fd = -1;
	cl->s.nstreams = n;
	cl->session_ready = true;
	r = net_session_init(&cl->s);
	if (r < 0)
		return fail(cl, r, "cannot set up the streams: %s", strerror(-r));
	for (i = 0; i < n; i++) {
		/* bidir: this end's senders first, then its receivers, as iperf3 orders them */
		bool sender = cl->p.bidir ? i < cl->p.parallel : !cl->p.reverse;
		int fd;

		r = connect_stream(cl, &fd);
		if (r < 0)
			return fail(cl, r, "cannot open data stream %zu to %s: %s", i + 1,
				    cl->rep->peer, strerror(-r));
		r = net_stream_init(&cl->s.streams[i], net_stream_id((unsigned)i), fd, sender,
				    &cl->s.sh);
		if (r < 0) {
			cl->s.streams[i].fd = fd;
			return fail(cl, r, "cannot set up data stream %zu: %s", i + 1,
				    strerror(-r));
		}
	}
	return 0;
}

static int server_error(struct client *cl)
{
	unsigned char b[8];
	int32_t ie = 0, err = 0;

	if (net_read_full(cl->ctrl, b, 8, deadline(cl), NULL) == 0) {
		ie = (int32_t)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 |
			       b[3]);
		err = (int32_t)((uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 |
				b[7]);
	}
	if (err > 0)
		return fail(cl, -EPROTO, "the server refused the test: %s (iperf3 error %d: %s)",
			    net_ie_text(ie), (int)ie, strerror(err));
	return fail(cl, -EPROTO, "the server refused the test: %s (iperf3 error %d)",
		    net_ie_text(ie), (int)ie);
}

static int run_test(struct client *cl)
{
	struct net_session *s = &cl->s;
	struct passwatch pw;
	char *lines = NULL;

	s->p = &cl->p;
	s->client = true;
	s->ctrl = cl->ctrl;
	s->deny_fd = -1;
	s->interval_s = cl->c->interval_s;
	s->stop = cl->c->stop;
	s->on_interval = cl->c->on_interval;
	s->ctx = cl->c->ctx;
	s->rep = cl->rep;
	if (cl->rep->iface) {
		char path[96];

		/* the NIC's lines: its USB host controller's, or its own (MSI-X queues) */
		snprintf(path, sizeof(path), "/sys/class/net/%s", cl->rep->iface);
		(void)irq_lines_of_sysfs(path, cl->rep->iface, &lines);
	}
	(void)passwatch_start(&pw, lines);
	/* the wire is watched from before the first byte of any stream */
	if (cl->c->monitor)
		cl->mon = net_wire_start(cl->rep);
	net_session_run(s);
	passwatch_stop(&pw, 0, &cl->rep->sys);
	free(lines);
	cl->ran = true;
	switch (s->end) {
	case NET_END_SIGNAL:
		cl->rep->interrupted = true;
		/* fall through: the server still gives its results for the time so far */
	case NET_END_DONE:
		break;
	case NET_END_STREAM:
		fail(cl, -s->end_err, "a data stream failed: %s", strerror(s->end_err));
		break;
	case NET_END_PEER_ABORT:
		if (s->peer_state == NET_SERVER_ERROR)
			return server_error(cl);
		return fail(cl, -ECONNRESET, "the server ended the test (%s)",
			    net_state_name(s->peer_state));
	case NET_END_PROTOCOL:
		return fail(cl, -EPROTO, "unexpected control message %d during the test",
			    s->peer_state);
	default:
		return fail(cl, -ECONNRESET, "%s", net_end_text(s->end));
	}
	if (send_state(cl, NET_TEST_END) < 0)
		return fail(cl, -ECONNRESET, "cannot tell the server the test ended");
	return 0;
}

static int exchange_results(struct client *cl)
{
	struct strbuf body = STRBUF_INIT, why = STRBUF_INIT;
	struct net_results mine;
	int r;

	net_session_results(&cl->s, &mine);
	r = net_results_encode(&mine, &body);
	net_results_release(&mine);
	if (r == 0)
		r = send_json(cl, &body);
	if (r < 0) {
		fail(cl, r, "cannot send the results: %s", strerror(-r));
		goto out;
	}
	r = read_json(cl, NET_RESULTS_MAX, &body);
	if (r < 0) {
		fail(cl, r, "no results from the server: %s", strerror(-r));
		goto out;
	}
	r = net_results_decode(body.buf, body.len, cl->s.nstreams, &cl->peer_res, &why);
	if (r < 0) {
		fail(cl, r, "the server's results are malformed: %s", why.buf);
		goto out;
	}
	cl->have_peer = true;
out:
	/* the server has closed its streams by now: the draining receivers can stop */
	net_phase_set(&cl->s.sh, NET_PHASE_EXIT);
	strbuf_release(&body);
	strbuf_release(&why);
	return r;
}

static int on_state(struct client *cl, signed char st, bool *done)
{
	switch (st) {
	case NET_PARAM_EXCHANGE:
		return send_params(cl);
	case NET_CREATE_STREAMS:
		return create_streams(cl);
	case NET_TEST_START:
		return cl->session_ready ? 0 : fail(cl, -EPROTO, "TEST_START before the streams");
	case NET_TEST_RUNNING:
		return cl->session_ready ? run_test(cl)
					 : fail(cl, -EPROTO, "TEST_RUNNING before the streams");
	case NET_EXCHANGE_RESULTS:
		return cl->ran ? exchange_results(cl) : fail(cl, -EPROTO, "results before a test");
	case NET_DISPLAY_RESULTS:
		*done = true;
		/* the results are in hand: a server gone by now changes nothing */
		(void)send_state(cl, NET_IPERF_DONE);
		return 0;
	case NET_ACCESS_DENIED:
		return fail(cl, -EBUSY, "the server at %s is busy running a test", cl->rep->peer);
	case NET_SERVER_ERROR:
		return server_error(cl);
	case NET_SERVER_TERMINATE:
		return fail(cl, -ECONNRESET, "the server ended the test");
	}
	return fail(cl, -EPROTO, "unexpected control message %d from the server", st);
}

static int protocol(struct client *cl)
{
	bool done = false;

	while (!done) {
		signed char st;
		int r = net_read_full(cl->ctrl, &st, 1, deadline(cl), cl->ran ? NULL : cl->c->stop);

		if (r == -EINTR) {
			cl->rep->interrupted = true;
			return fail(cl, r, "interrupted before the test started");
		}
		if (r < 0)
			return fail(cl, r, "%s",
				    r == -ECONNRESET  ? "the server closed the connection"
				    : r == -ETIMEDOUT ? "the server went silent"
						      : strerror(-r));
		r = on_state(cl, st, &done);
		if (r < 0)
			return r;
	}
	return 0;
}

static void check_route(struct client *cl)
{
	char via[IF_NAMESIZE] = "";
	const char *dev = cl->c->bind_dev;

	if (net_route_iface((const struct sockaddr *)&cl->peer.ss, via, sizeof(via)) < 0)
		via[0] = '\0';
	if (dev && via[0] && strcmp(dev, via)) {
		net_report_note(cl->rep, "the route to %s goes through %s, not %s: traffic bound "
					 "to %s may not reach it",
				cl->c->host, via, dev, dev);
		if (cl->c->on_event)
			cl->c->on_event(cl->c->ctx, cl->rep->warnings[cl->rep->nwarnings - 1]);
	}
	if (dev || via[0]) {
		net_link_describe(cl->rep, dev ? dev : via, cl->p.proto == NET_UDP,
				  (unsigned)cl->p.len);
		net_link_notes(cl->rep, &cl->p);
	}
}

static int resolve(struct client *cl)
{
	const struct net_client_config *c = cl->c;
	char buf[80];
	int r;

	r = net_resolve(c->host, c->port, c->family, false, &cl->peer);
	if (r < 0)
		return fail(cl, r, "cannot resolve '%s'", c->host);
	if (c->bind_addr) {
		r = net_resolve(c->bind_addr, 0, cl->peer.ss.ss_family, true, &cl->local);
		if (r < 0)
			return fail(cl, r, "cannot resolve the bind address '%s'", c->bind_addr);
		cl->have_local = true;
	}
	net_addr_str((struct sockaddr *)&cl->peer.ss, true, buf, sizeof(buf));
	cl->rep->peer = strdup(buf);
	return 0;
}

static int connect_control(struct client *cl)
{
	struct net_sockopts ctrl_opts = {.dev = cl->c->bind_dev, .nodelay = true};
	struct net_addr a;
	socklen_t len = sizeof(a.ss);
	char buf[80];
	int r;

	r = net_connect(&cl->peer, cl->have_local ? &cl->local : NULL, SOCK_STREAM, &ctrl_opts,
			deadline(cl), &cl->ctrl);
	if (r < 0)
		return fail(cl, r, "cannot connect to %s: %s", cl->rep->peer, strerror(-r));
	if (getsockname(cl->ctrl, (struct sockaddr *)&a.ss, &len) == 0) {
		net_addr_str((struct sockaddr *)&a.ss, true, buf, sizeof(buf));
		cl->rep->local = strdup(buf);
	}
	return 0;
}

static void client_params(struct client *cl)
{
	cl->p = cl->c->p;
	snprintf(cl->p.client_version, sizeof(cl->p.client_version), "usbperf %s",
		 USBPERF_VERSION);
	cl->data_opts = (struct net_sockopts){
		.dev = cl->c->bind_dev, .window = cl->p.window, .tos = cl->p.tos,
		.mss = cl->p.mss, .nodelay = cl->p.nodelay,
		.congestion = cl->p.congestion[0] ? cl->p.congestion : NULL,
	};
}

static void finish_report(struct client *cl)
{
	struct net_report *rep = cl->rep;

	/* what this end moved, counted before the capture ends: all of it crossed the bus */
	if (cl->mon && cl->session_ready && cl->p.proto == NET_TCP)
		rep->payload_bytes = net_session_delivered(&cl->s);
	net_wire_stop(cl->mon, rep);
	cl->mon = NULL;
	if (cl->ran)
		net_report_totals(rep, &cl->s, cl->have_peer ? &cl->peer_res : NULL);
	net_wire_finish(rep);
	if (cl->ran && cl->p.proto == NET_TCP) {
		size_t i;

		for (i = 0; i < cl->s.nstreams; i++) {
			char cc[16];

			if (cl->s.streams[i].fd < 0)
				continue;
			net_tcp_congestion(cl->s.streams[i].fd, cc, sizeof(cc));
			rep->congestion = cc[0] ? strdup(cc) : NULL;
			break;
		}
	}
	rep->cookie = strdup(cl->cookie);
}

int net_client_run(const struct net_client_config *c, struct net_report *ret)
{
	struct client cl = {.c = c, .rep = ret, .ctrl = -1};
	int r;

	client_params(&cl);
	net_report_header(ret, &cl.p, true);
	ret->interval_s = c->interval_s;
	ret->bind_dev = c->bind_dev ? strdup(c->bind_dev) : NULL;
	cl.s.sh.wake_fd = -1;
	r = net_cookie_make(cl.cookie);
	if (r < 0) {
		fail(&cl, r, "no random bytes for the cookie");
		goto out;
	}
	r = resolve(&cl);
	if (r < 0)
		goto out;
	/* before connecting: a bound device the route does not use is why a connect fails */
	check_route(&cl);
	r = connect_control(&cl);
	if (r < 0)
		goto out;
	if (net_write_full(cl.ctrl, cl.cookie, NET_COOKIE_SIZE, deadline(&cl)) < 0) {
		r = fail(&cl, -ECONNRESET, "cannot send the cookie to %s", ret->peer);
		goto out;
	}
	r = protocol(&cl);
out:
	finish_report(&cl);
	if (cl.session_ready)
		net_session_release(&cl.s);
	free(cl.s.streams);
	net_results_release(&cl.peer_res);
	if (cl.ctrl >= 0)
		close(cl.ctrl);
	/* measured something: the report stands, with its error noted */
	return cl.ran ? 0 : r;
}

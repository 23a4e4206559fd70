// SPDX-License-Identifier: MIT
/*
 * Accepted connections waiting for their cookie (and parameters): one poll()
 * over all of them, each with its own deadline, so no connection's silence
 * delays another's turn.
 */
#include "classes/net/pending.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* one wait never exceeds this, so a stop flag is seen promptly */
#define SLICE_MS 200
/* accept() calls per round: a flood cannot keep the pending reads from running */
#define ACCEPTS_PER_ROUND 16

static uint64_t after_s(uint64_t now, double s)
{
	return now + (uint64_t)(s * 1e9);
}

void net_pending_conn_close(struct net_pending_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	strbuf_release(&c->params);
}

static bool complete(const struct net_pending *p, const struct net_pending_conn *c)
{
	if (!p->control)
		return c->got == NET_COOKIE_SIZE;
	return c->asked && c->got >= 4 && c->got == 4 + c->len;
}

/* take c out of the set: into *ret, or dropped for err */
static void take(struct net_pending *p, size_t i, struct net_pending_conn *ret, int err)
{
	struct net_pending_conn c = p->v[i];

	memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof(p->v[0]));
	p->n--;
	if (ret) {
		*ret = c;
		return;
	}
	if (p->on_drop)
		p->on_drop(p->ctx, &c, err);
	net_pending_conn_close(&c);
}

static void add(struct net_pending *p, int fd, const struct net_addr *from)
{
	struct net_pending_conn *c;

	if (!p->v && !(p->v = calloc(NET_PENDING_MAX, sizeof(*p->v)))) {
		close(fd);
		return;
	}
	if (p->n == NET_PENDING_MAX)
		take(p, 0, NULL, -EOVERFLOW); /* the oldest has had the longest chance */
	c = &p->v[p->n++];
	*c = (struct net_pending_conn){.fd = fd, .from = *from, .params = STRBUF_INIT};
	net_addr_str((const struct sockaddr *)&from->ss, true, c->who, sizeof(c->who));
	c->deadline_ns = after_s(clock_now_ns(), p->cookie_wait_s);
}

static void accept_some(struct net_pending *p, int lfd)
{
	int i;

	/* poll() said one is there; look again before each further accept() */
	for (i = 0; i < ACCEPTS_PER_ROUND; i++) {
		struct pollfd pf = {.fd = lfd, .events = POLLIN};
		struct net_addr from = {.len = sizeof(from.ss)};
		int fd;

		if (i > 0 && poll(&pf, 1, 0) <= 0)
			return;
		fd = accept4(lfd, (struct sockaddr *)&from.ss, &from.len, SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
			/* out of descriptors: the oldest waiting one makes room, as past the cap */
			if (!p->n) {
				p->rest_until_ns = after_s(clock_now_ns(), 0.1);
				return;
			}
			take(p, 0, NULL, -EOVERFLOW);
			fd = accept4(lfd, (struct sockaddr *)&from.ss, &from.len, SOCK_CLOEXEC);
		}
		if (fd < 0)
			return;
		add(p, fd, &from);
	}
}

static int recv_some(int fd, void *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len, MSG_DONTWAIT);

	if (n == 0)
		return -ECONNRESET;
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	return (int)n;
}

/* the cookie is in: ask for the parameters */
static int ask(struct net_pending *p, struct net_pending_conn *c)
{
	signed char b = NET_PARAM_EXCHANGE;

	if (!net_cookie_valid(c->cookie))
		return -EPROTO;
	if (send(c->fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return -errno;
	c->asked = true;
	c->got = 0;
	c->deadline_ns = after_s(clock_now_ns(), p->params_wait_s);
	return 0;
}

/* read what c has sent so far: 0, or why it is dropped */
static int advance(struct net_pending *p, struct net_pending_conn *c)
{
	for (;;) {
		int n, r;

		if (complete(p, c))
			return 0;
		if (!c->asked && c->got < NET_COOKIE_SIZE) {
			n = recv_some(c->fd, c->cookie + c->got, NET_COOKIE_SIZE - c->got);
		} else if (!c->asked) {
			r = ask(p, c);
			if (r < 0)
				return r;
			continue;
		} else if (c->got < 4) {
			n = recv_some(c->fd, c->hdr + c->got, 4 - c->got);
			if (n > 0 && c->got + (size_t)n == 4) {
				r = net_msg_length(c->hdr, NET_PARAMS_MAX, &c->len);
				if (r < 0)
					return r;
				strbuf_grow(&c->params, c->len);
			}
		} else {
			n = recv_some(c->fd, c->params.buf + (c->got - 4), c->len - (c->got - 4));
			if (n > 0 && c->got + (size_t)n == 4 + c->len) {
				c->params.len = c->len;
				c->params.buf[c->len] = '\0';
			}
		}
		if (n <= 0)
			return n;
		c->got += (size_t)n;
	}
}

static int wait_ms(const struct net_pending *p, uint64_t now, uint64_t until_ns)
{
	uint64_t end = until_ns;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].deadline_ns < end)
			end = p->v[i].deadline_ns;
	if (end <= now)
		return 0;
	if (end - now >= (uint64_t)SLICE_MS * 1000000u)
		return SLICE_MS;
	return (int)((end - now + 999999u) / 1000000u);
}

int net_pending_wait(struct net_pending *p, int lfd, struct pollfd *extra, size_t nextra,
		     uint64_t until_ns, const volatile int *stop, struct net_pending_conn *ret)
{
	const size_t base = nextra + 1;

	if (nextra > 6)
		return -EINVAL;
	for (;;) {
		uint64_t now = clock_now_ns();
		bool ready = false;
		size_t i;
		int n;

		if (stop && *stop)
			return -EINTR;
		for (i = 0; i < p->n; i++)
			if (complete(p, &p->v[i])) {
				take(p, i, ret, 0);
				return 1;
			}
		for (i = 0; i < p->n;)
			if (now >= p->v[i].deadline_ns)
				take(p, i, NULL, -ETIMEDOUT);
			else
				i++;
		if (now >= until_ns)
			return 0;
		if (nextra)
			memcpy(p->pf, extra, nextra * sizeof(*extra));
		/* no descriptor to take a connection with: leave the listener a moment */
		p->pf[nextra] =
		    (struct pollfd){.fd = now < p->rest_until_ns ? -1 : lfd, .events = POLLIN};
		for (i = 0; i < p->n; i++)
			p->pf[base + i] = (struct pollfd){.fd = p->v[i].fd, .events = POLLIN};
		n = poll(p->pf, base + p->n, wait_ms(p, now, until_ns));
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		/* read the pending ones first: their pollfd slots shift once any is taken */
		for (i = p->n; i-- > 0;) {
			int r;

			if (!p->pf[base + i].revents)
				continue;
			r = advance(p, &p->v[i]);
			if (r < 0)
				take(p, i, NULL, r);
		}
		if (p->pf[nextra].revents & POLLIN)
			accept_some(p, lfd);
		for (i = 0; i < nextra; i++) {
			extra[i].revents = p->pf[i].revents;
			ready = ready || extra[i].revents;
		}
		if (ready)
			return 2;
	}
}

void net_pending_deny_all(struct net_pending *p)
{
	signed char b = NET_ACCESS_DENIED;
	size_t i;

	for (i = 0; i < p->n; i++) {
		/* never waits: the client may not be reading */
		if (send(p->v[i].fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			/* gone already */
		}
		net_pending_conn_close(&p->v[i]);
	}
	p->n = 0;
}

void net_pending_release(struct net_pending *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		net_pending_conn_close(&p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

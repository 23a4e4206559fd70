// SPDX-License-Identifier: MIT
/* Sockets for the control and data connections: bounded waits, O_CLOEXEC everywhere. */
#include "classes/net/sock.h"
#include "classes/net/proto.h"
#include "util/clock.h"
#include "util/sysroot.h" /* read_fd_all */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* one wait never exceeds this, so a stop flag is seen promptly */
#define WAIT_SLICE_MS 200

int net_resolve(const char *host, unsigned port, int family, bool passive, struct net_addr *ret)
{
	struct addrinfo hints = {.ai_family = family, .ai_socktype = SOCK_STREAM}, *res;
	char service[8];
	int r;

	if (!host && passive && family != AF_INET) {
		/* "::" with IPV6_V6ONLY off takes IPv4 too, as iperf3's server does */
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ret->ss;

		memset(ret, 0, sizeof(*ret));
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)port);
		ret->len = sizeof(*s6);
		return 0;
	}
	snprintf(service, sizeof(service), "%u", port);
	hints.ai_flags = (passive ? AI_PASSIVE : 0) | AI_NUMERICSERV;
	r = getaddrinfo(host, service, &hints, &res);
	if (r != 0)
		return r == EAI_SYSTEM ? -errno : -EADDRNOTAVAIL;
	memset(ret, 0, sizeof(*ret));
	memcpy(&ret->ss, res->ai_addr, res->ai_addrlen);
	ret->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

void net_addr_str(const struct sockaddr *sa, bool with_port, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	bool v6 = false;

	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, ip, sizeof(ip));
	} else if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(a)) {
			inet_ntop(AF_INET, &a->s6_addr[12], ip, sizeof(ip));
		} else {
			inet_ntop(AF_INET6, a, ip, sizeof(ip));
			v6 = true;
		}
	}
	if (!with_port)
		snprintf(buf, len, "%s", ip);
	else
		snprintf(buf, len, v6 ? "[%s]:%u" : "%s:%u", ip, net_addr_port(sa));
}

unsigned net_addr_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return 0;
}

static int setopt_int(int fd, int level, int name, int v)
{
	return setsockopt(fd, level, name, &v, sizeof(v)) < 0 ? -errno : 0;
}

int net_apply_opts(int fd, int family, bool tcp, const struct net_sockopts *o)
{
	int r;

	if (o->dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, o->dev,
				 (socklen_t)strlen(o->dev) + 1) < 0)
		return -errno;
	if (o->window) {
		int w = o->window > INT32_MAX / 2 ? INT32_MAX / 2 : (int)o->window;

		r = setopt_int(fd, SOL_SOCKET, SO_SNDBUF, w);
		if (r == 0)
			r = setopt_int(fd, SOL_SOCKET, SO_RCVBUF, w);
		if (r < 0)
			return r;
	}
	if (o->tos) {
		r = family == AF_INET6 ? setopt_int(fd, IPPROTO_IPV6, IPV6_TCLASS, (int)o->tos)
				       : setopt_int(fd, IPPROTO_IP, IP_TOS, (int)o->tos);
		if (r < 0)
			return r;
	}
	if (!tcp)
		return 0;
	if (o->nodelay && (r = setopt_int(fd, IPPROTO_TCP, TCP_NODELAY, 1)) < 0)
		return r;
	if (o->mss && (r = setopt_int(fd, IPPROTO_TCP, TCP_MAXSEG, (int)o->mss)) < 0)
		return r;
	if (o->congestion && o->congestion[0] &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, o->congestion,
		       (socklen_t)strlen(o->congestion)) < 0)
		return -errno;
	return 0;
}

static int bound_socket(const struct net_addr *a, int type, const struct net_sockopts *o,
			int *ret_fd)
{
	int fd = socket(a->ss.ss_family, type | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return -errno;
	r = setopt_int(fd, SOL_SOCKET, SO_REUSEADDR, 1);
	if (r == 0 && a->ss.ss_family == AF_INET6)
		r = setopt_int(fd, IPPROTO_IPV6, IPV6_V6ONLY, 0);
	if (r == 0 && o)
		r = net_apply_opts(fd, a->ss.ss_family, type == SOCK_STREAM, o);
	if (r == 0 && bind(fd, (const struct sockaddr *)&a->ss, a->len) < 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

int net_listen_tcp(const struct net_addr *a, const struct net_sockopts *o, int *ret_fd)
{
	int fd = -1, r = bound_socket(a, SOCK_STREAM, o, &fd);

	if (r < 0)
		return r;
	if (listen(fd, 64) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

int net_bind_udp(const struct net_addr *a, const struct net_sockopts *o, int *ret_fd)
{
	return bound_socket(a, SOCK_DGRAM, o, ret_fd);
}

static int ms_left(uint64_t deadline_ns)
{
	uint64_t now = clock_now_ns();

	if (now >= deadline_ns)
		return 0;
	if (deadline_ns - now > (uint64_t)WAIT_SLICE_MS * 1000000u)
		return WAIT_SLICE_MS;
	return (int)((deadline_ns - now + 999999u) / 1000000u);
}

static int wait_fd(int fd, short events, uint64_t deadline_ns, const volatile int *stop)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = events};
		int ms, n;

		if (stop && *stop)
			return -EINTR;
		ms = ms_left(deadline_ns);
		if (ms == 0)
			return 0;
		n = poll(&p, 1, ms);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			return 1;
	}
}

int net_wait_readable(int fd, uint64_t deadline_ns, const volatile int *stop)
{
	return wait_fd(fd, POLLIN, deadline_ns, stop);
}

int net_connect(const struct net_addr *peer, const struct net_addr *local, int type,
		const struct net_sockopts *o, uint64_t deadline_ns, int *ret_fd)
{
	int fd = -1, r, err = 0;
	socklen_t elen = sizeof(err);

	if (local)
		r = bound_socket(local, type, o, &fd);
	else if ((fd = socket(peer->ss.ss_family, type | SOCK_CLOEXEC, 0)) < 0)
		r = -errno;
	else if ((r = o ? net_apply_opts(fd, peer->ss.ss_family, type == SOCK_STREAM, o) : 0) < 0)
		close(fd);
	if (r < 0)
		return r;
	/* non-blocking only for the connect, so the deadline holds */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (connect(fd, (const struct sockaddr *)&peer->ss, peer->len) < 0) {
		if (errno != EINPROGRESS) {
			r = -errno;
			goto fail;
		}
		r = wait_fd(fd, POLLOUT, deadline_ns, NULL);
		if (r == 0)
			r = -ETIMEDOUT;
		if (r < 0)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err) {
			r = err ? -err : -errno;
			goto fail;
		}
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*ret_fd = fd;
	return 0;
fail:
	close(fd);
	return r;
}

/* all len bytes into in (recv) or from out (send), each wait up to the deadline (net_read_full) */
static int move_full(int fd, char *in, const char *out, size_t len, uint64_t deadline_ns,
		     const volatile int *stop)
{
	size_t done = 0;

	while (done < len) {
		int r = wait_fd(fd, in ? POLLIN : POLLOUT, deadline_ns, stop);
		ssize_t n;

		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0)
			return r;
		if (in)
			n = recv(fd, in + done, len - done, MSG_DONTWAIT);
		else
			n = send(fd, out + done, len - done, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (in && n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}

int net_read_full(int fd, void *buf, size_t len, uint64_t deadline_ns, const volatile int *stop)
{
	return move_full(fd, buf, NULL, len, deadline_ns, stop);
}

int net_write_full(int fd, const void *buf, size_t len, uint64_t deadline_ns)
{
	return move_full(fd, NULL, buf, len, deadline_ns, NULL);
}

int net_set_io_timeout(int fd, unsigned ms)
{
	struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};

	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}

int64_t net_tcp_retrans(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_total_retrans) + sizeof(ti.tcpi_total_retrans))
		return -1;
	return ti.tcpi_total_retrans;
}

void net_tcp_congestion(int fd, char *buf, size_t len)
{
	char name[16] = "";
	socklen_t n = sizeof(name) - 1;

	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &n) < 0)
		name[0] = '\0';
	name[sizeof(name) - 1] = '\0';
	snprintf(buf, len, "%s", name);
}

unsigned net_tcp_mss(int fd)
{
	int mss = 0;
	socklen_t n = sizeof(mss);

	if (getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &n) < 0 || mss < 0)
		return 0;
	return (unsigned)mss;
}

int net_read_msg(int fd, size_t max, uint64_t deadline_ns, const volatile int *stop,
		 struct strbuf *ret)
{
	unsigned char hdr[4];
	size_t len;
	int r = net_read_full(fd, hdr, 4, deadline_ns, stop);

	if (r < 0)
		return r;
	r = net_msg_length(hdr, max, &len);
	if (r < 0)
		return r;
	strbuf_reset(ret);
	strbuf_grow(ret, len);
	r = net_read_full(fd, ret->buf, len, deadline_ns, stop);
	if (r < 0)
		return r;
	ret->len = len;
	ret->buf[len] = '\0';
	return 0;
}

int net_local_addr_check(const char *addr, int family)
{
	struct net_addr a;
	int fd, r = net_resolve(addr, 0, family, true, &a);

	if (r < 0)
		return r;
	/* bind() to port 0 is what the test's sockets will do: ask the kernel, not a list */
	fd = socket(a.ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = bind(fd, (const struct sockaddr *)&a.ss, a.len) < 0 ? -errno : 0;
	close(fd);
	return r;
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

int net_congestion_check(const char *name, struct strbuf *ret_available)
{
	int fd = open("/proc/sys/net/ipv4/tcp_available_congestion_control", O_RDONLY | O_CLOEXEC);
	int r = fd < 0 ? -errno : 0, s;

	strbuf_reset(ret_available);
	if (fd >= 0) {
		r = read_fd_all(fd, 4096, ret_available);
		close(fd);
		while (ret_available->len && (ret_available->buf[ret_available->len - 1] == '\n' ||
					      ret_available->buf[ret_available->len - 1] == ' '))
			ret_available->buf[--ret_available->len] = '\0';
	}
	if (r == 0 && word_in(ret_available->buf, name))
		return 0;
	/* not loaded yet: the kernel may load it for root, as it will for the real sockets */
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		s = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	/* any refusal means the same here: not available (qemu-user answers EINVAL, not ENOENT) */
	r = setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, name, (socklen_t)strlen(name)) < 0 ? -ENOENT
											  : 0;
	close(s);
	return r;
}

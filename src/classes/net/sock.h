/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Socket plumbing shared by client and server: addresses, listeners, connect
 * with a deadline, whole reads and writes that give up at a deadline or when
 * asked to stop, and the per-socket options a test sets. Every fd is
 * O_CLOEXEC; every wait is bounded.
 */
#include "util/strbuf.h"

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct net_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Options every socket of a test gets. */
struct net_sockopts {
	const char *dev;   /* SO_BINDTODEVICE, NULL for none */
	uint64_t window;   /* SO_SNDBUF and SO_RCVBUF, 0: autotuning */
	uint64_t tos;	   /* IP_TOS / IPV6_TCLASS, 0: leave */
	uint64_t mss;	   /* TCP_MAXSEG, 0: leave */
	const char *congestion; /* TCP_CONGESTION, NULL: leave */
	bool nodelay;
};

/*
 * host (NULL: any address) and port to an address; family AF_UNSPEC,
 * AF_INET or AF_INET6. A passive lookup of NULL gives "::" (dual stack).
 */
int net_resolve(const char *host, unsigned port, int family, bool passive, struct net_addr *ret);
/* "192.0.2.1:5201", "[2001:db8::1]:5201"; IPv4-mapped IPv6 shown as IPv4; port 0 left out */
void net_addr_str(const struct sockaddr *sa, bool with_port, char *buf, size_t len);
unsigned net_addr_port(const struct sockaddr *sa);

/* A listening TCP socket (SO_REUSEADDR, dual stack for "::"). */
int net_listen_tcp(const struct net_addr *a, const struct net_sockopts *o, int *ret_fd);
/* A UDP socket bound to a (SO_REUSEADDR: each stream takes a fresh one on the same port). */
int net_bind_udp(const struct net_addr *a, const struct net_sockopts *o, int *ret_fd);
/*
 * A socket of type SOCK_STREAM or SOCK_DGRAM connected to peer, bound first
 * to local (may be NULL) with the options applied before connect() (so a
 * window size is in the SYN). Gives up at deadline_ns (CLOCK_MONOTONIC).
 */
int net_connect(const struct net_addr *peer, const struct net_addr *local, int type,
		const struct net_sockopts *o, uint64_t deadline_ns, int *ret_fd);
/* Options after accept(): buffers, TOS, nodelay. */
int net_apply_opts(int fd, int family, bool tcp, const struct net_sockopts *o);

/*
 * Read or write exactly len bytes before deadline_ns. -ETIMEDOUT at the
 * deadline, -ECONNRESET when the peer closed (EOF), -EINTR when *stop was
 * set, or the socket error.
 */
int net_read_full(int fd, void *buf, size_t len, uint64_t deadline_ns, const volatile int *stop);
int net_write_full(int fd, const void *buf, size_t len, uint64_t deadline_ns);
/*
 * One control message: a 4-byte big-endian length (at most max) and that
 * many bytes, into ret, NUL-terminated. Errors as net_read_full, or the
 * length's (net_msg_length).
 */
int net_read_msg(int fd, size_t max, uint64_t deadline_ns, const volatile int *stop,
		 struct strbuf *ret);
/* Wait until fd is readable: 1 readable, 0 deadline passed, -EINTR stop, or an error. */
int net_wait_readable(int fd, uint64_t deadline_ns, const volatile int *stop);

/* Bound the time one blocking send/recv may take, so a thread sees a stop flag. */
int net_set_io_timeout(int fd, unsigned ms);
/* TCP_INFO tcpi_total_retrans, or -1 when the kernel does not say. */
int64_t net_tcp_retrans(int fd);
/* The congestion control in use ("cubic"), "" if unknown. */
void net_tcp_congestion(int fd, char *buf, size_t len);
/* The MSS of a connected TCP socket, 0 if unknown. */
unsigned net_tcp_mss(int fd);

/*
 * Whether addr (a name or a literal) is an address of this machine in
 * family (AF_UNSPEC for any): 0, or the error bind() gives a test's sockets
 * (-EADDRNOTAVAIL), or the lookup's.
 */
int net_local_addr_check(const char *addr, int family);
/*
 * Whether this kernel has TCP congestion control name: 0, -ENOENT when it
 * does not, -EPERM when it is not allowed for this user. ret_available gets
 * the kernel's list of loaded ones ("reno cubic"), "" when unreadable.
 */
int net_congestion_check(const char *name, struct strbuf *ret_available);

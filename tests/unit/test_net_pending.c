// SPDX-License-Identifier: MIT
/* classes/net/pending: connections read together, each against its own deadline (issue 12.7). */
#include "unit.h"
#include "classes/net/pending.h"
#include "util/clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define COOKIE "abcdefghijklmnopqrstuvwxyz2345672345"

struct drops {
	int err[NET_PENDING_MAX * 2];
	size_t n;
};

static void on_drop(void *ctx, const struct net_pending_conn *c, int err)
{
	struct drops *d = ctx;

	(void)c;
	if (d->n < ARRAY_SIZE(d->err))
		d->err[d->n++] = err;
}

static int listener(struct sockaddr_in *ret)
{
	socklen_t len = sizeof(*ret);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(ret, 0, sizeof(*ret));
	ret->sin_family = AF_INET;
	ret->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)ret, sizeof(*ret)), 0);
	assert_int_equal(listen(fd, 256), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)ret, &len), 0);
	return fd;
}

static int client(const struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (const struct sockaddr *)a, sizeof(*a)), 0);
	return fd;
}

static void say(int fd, const void *buf, size_t len)
{
	assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

static void say_params(int fd, const char *json)
{
	unsigned char hdr[4];

	net_msg_header(strlen(json), hdr);
	say(fd, hdr, 4);
	say(fd, json, strlen(json));
}

static double since(uint64_t t0)
{
	return (double)(clock_now_ns() - t0) / 1e9;
}

/* 50 silent connections ahead of a real one: the real one is taken at once */
static void test_silent_ones_do_not_delay(void **state)
{
	struct drops d = {0};
	struct net_pending p = {
	    .control = true, .cookie_wait_s = 5, .params_wait_s = 5, .on_drop = on_drop, .ctx = &d};
	struct net_pending_conn c;
	struct sockaddr_in a;
	int lfd = listener(&a), idle[50], real;
	signed char st;
	uint64_t t0;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(idle); i++)
		idle[i] = client(&a);
	real = client(&a);
	say(real, COOKIE, sizeof(COOKIE));
	t0 = clock_now_ns();
	/* the server asks for the parameters (PARAM_EXCHANGE) once the cookie is in */
	while (recv(real, &st, 1, MSG_DONTWAIT) != 1) {
		assert_int_equal(
		    net_pending_wait(&p, lfd, NULL, 0, clock_now_ns() + 100000000u, NULL, &c) == 1,
		    0);
		assert_true(since(t0) < 2);
	}
	assert_int_equal(st, NET_PARAM_EXCHANGE);
	say_params(real, "{\"tcp\":true}");
	assert_int_equal(net_pending_wait(&p, lfd, NULL, 0, clock_now_ns() + 2000000000u, NULL, &c),
			 1);
	assert_true(since(t0) < 1);
	assert_memory_equal(c.cookie, COOKIE, sizeof(COOKIE));
	assert_string_equal(c.params.buf, "{\"tcp\":true}");
	assert_int_equal(p.n, ARRAY_SIZE(idle));
	assert_int_equal(d.n, 0);
	net_pending_conn_close(&c);
	/* the others are told busy */
	net_pending_deny_all(&p);
	assert_int_equal(recv(idle[0], &st, 1, 0), 1);
	assert_int_equal(st, NET_ACCESS_DENIED);
	net_pending_release(&p);
	for (i = 0; i < ARRAY_SIZE(idle); i++)
		close(idle[i]);
	close(real);
	close(lfd);
}

struct drop_case {
	const char *what;
	const void *send;
	size_t len;
	int err;
};

static const struct drop_case drop_cases[] = {
    {"silent", "", 0, -ETIMEDOUT},
    {"half a cookie", "abcdefgh", 8, -ETIMEDOUT},
    {"not a cookie",
     "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12"
     "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x24",
     37, -EPROTO},
    {"cookie, then an empty message", COOKIE "\0\0\0\0\0", 41, -EBADMSG},
    {"cookie, then 2 GiB announced", COOKIE "\0\x7f\xff\xff\xff", 41, -EMSGSIZE},
    {"cookie, then half a length", COOKIE "\0\0\0", 39, -ETIMEDOUT},
    {"cookie, then half the JSON", COOKIE "\0\0\0\0\x20{\"tcp\"", 48, -ETIMEDOUT},
};

static void test_drops(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(drop_cases); i++) {
		const struct drop_case *dc = &drop_cases[i];
		struct drops d = {0};
		struct net_pending p = {.control = true,
					.cookie_wait_s = 0.3,
					.params_wait_s = 0.3,
					.on_drop = on_drop,
					.ctx = &d};
		struct net_pending_conn c;
		struct sockaddr_in a;
		int lfd = listener(&a), fd = client(&a), r;
		uint64_t t0 = clock_now_ns();

		if (dc->len)
			say(fd, dc->send, dc->len);
		do
			r = net_pending_wait(&p, lfd, NULL, 0, clock_now_ns() + 100000000u, NULL,
					     &c);
		while (r == 0 && d.n == 0 && since(t0) < 3);
		assert_int_equal(r, 0);
		if (d.n != 1 || d.err[0] != dc->err)
			fail_msg("%s: %zu drops, first %d, wanted %d", dc->what, d.n,
				 d.n ? d.err[0] : 0, dc->err);
		assert_int_equal(p.n, 0);
		net_pending_release(&p);
		close(fd);
		close(lfd);
	}
}

/* data streams: the cookie alone completes, nothing is sent back */
static void test_stream_cookie(void **state)
{
	struct net_pending p = {.cookie_wait_s = 1};
	struct net_pending_conn c;
	struct sockaddr_in a;
	int lfd = listener(&a), fd = client(&a);
	char b;

	(void)state;
	say(fd, COOKIE, 20);
	assert_int_equal(net_pending_wait(&p, lfd, NULL, 0, clock_now_ns() + 200000000u, NULL, &c),
			 0);
	say(fd, &COOKIE[20], sizeof(COOKIE) - 20);
	assert_int_equal(net_pending_wait(&p, lfd, NULL, 0, clock_now_ns() + 1000000000u, NULL, &c),
			 1);
	assert_memory_equal(c.cookie, COOKIE, sizeof(COOKIE));
	assert_int_equal(recv(fd, &b, 1, MSG_DONTWAIT), -1);
	net_pending_conn_close(&c);
	net_pending_release(&p);
	close(fd);
	close(lfd);
}

/* more connections than the set holds: the oldest goes */
static void test_overflow(void **state)
{
	struct drops d = {0};
	struct net_pending p = {.cookie_wait_s = 10, .on_drop = on_drop, .ctx = &d};
	struct net_pending_conn c;
	struct sockaddr_in a;
	int lfd = listener(&a), fds[NET_PENDING_MAX + 1];
	uint64_t t0 = clock_now_ns();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = client(&a);
	while (p.n + d.n < ARRAY_SIZE(fds) && since(t0) < 3)
		assert_int_equal(
		    net_pending_wait(&p, lfd, NULL, 0, clock_now_ns() + 50000000u, NULL, &c), 0);
	assert_int_equal(p.n, NET_PENDING_MAX);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.err[0], -EOVERFLOW);
	net_pending_release(&p);
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		close(fds[i]);
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_silent_ones_do_not_delay),
	    cmocka_unit_test(test_drops),
	    cmocka_unit_test(test_stream_cookie),
	    cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

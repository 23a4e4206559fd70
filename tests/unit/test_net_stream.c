// SPDX-License-Identifier: MIT
/* classes/net/stream: UDP receiver accounting as iperf3 does it, stream ids. */
#include "unit.h"
#include "classes/net/stream.h"

#include <string.h>

#define MAX_SEQ 16

struct rx_case {
	const char *what;
	uint64_t seq[MAX_SEQ]; /* counters in arrival order, 0 ends */
	uint64_t packets, errors, ooo;
};

static const struct rx_case rx_cases[] = {
	{"in order", {1, 2, 3, 4, 5}, 5, 0, 0},
	{"one lost", {1, 2, 4, 5}, 5, 1, 0},
	{"a gap of three", {1, 5}, 5, 3, 0},
	{"first ones lost", {4, 5, 6}, 6, 3, 0},
	/* 3 arrives late: counted lost at 4, then given back */
	{"reordered", {1, 2, 4, 3, 5}, 5, 0, 1},
	{"reordered twice", {1, 4, 2, 3, 5}, 5, 0, 2},
	/* a duplicate is out of order too, and takes back a loss that was real (iperf3's rule) */
	{"duplicate after a loss", {1, 3, 3, 4}, 4, 0, 1},
	{"duplicate, no loss to take back", {1, 2, 2, 3}, 3, 0, 1},
	{"tail lost: invisible here", {1, 2, 3}, 3, 0, 0},
};

static void test_rx_counting(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rx_cases); i++) {
		const struct rx_case *c = &rx_cases[i];
		struct net_udp_rx rx = {0};

		for (j = 0; j < MAX_SEQ && c->seq[j]; j++)
			net_udp_rx_account(&rx, c->seq[j], 0.001);
		if (rx.packets != c->packets || rx.errors != c->errors || rx.ooo != c->ooo)
			fail_msg("%s: packets %llu errors %llu ooo %llu, expected %llu %llu %llu",
				 c->what, (unsigned long long)rx.packets,
				 (unsigned long long)rx.errors, (unsigned long long)rx.ooo,
				 (unsigned long long)c->packets, (unsigned long long)c->errors,
				 (unsigned long long)c->ooo);
	}
}

/* RFC 3550 A.8: J += (|D| - J) / 16, D the change in transit time */
static void test_rx_jitter(void **state)
{
	struct net_udp_rx rx = {0};
	double j = 0;
	int k;

	(void)state;
	/* the first datagram only sets the reference, whatever the clocks' offset */
	net_udp_rx_account(&rx, 1, 1234.5);
	assert_near(rx.jitter_s, 0, 0);
	/* constant transit: no jitter */
	net_udp_rx_account(&rx, 2, 1234.5);
	assert_near(rx.jitter_s, 0, 0);
	/* alternating 1 ms: J converges on 1 ms from below, 1/16 at a time */
	for (k = 0; k < 200; k++) {
		net_udp_rx_account(&rx, 3 + (uint64_t)k, k % 2 ? 1234.5 : 1234.501);
		j += (0.001 - j) / 16;
	}
	assert_near(rx.jitter_s, j, 1e-12);
	assert_near(rx.jitter_s, 0.001, 1e-6);
	/* a reset (end of omit) starts from the next datagram again */
	rx.jitter_s = 0;
	rx.have_prev = false;
	net_udp_rx_account(&rx, 300, 99.0);
	assert_near(rx.jitter_s, 0, 0);
	net_udp_rx_account(&rx, 301, 99.016);
	assert_near(rx.jitter_s, 0.001, 1e-12);
}

static void test_stream_ids(void **state)
{
	(void)state;
	/* iperf3 numbers streams 1, 3, 4, 5 ...: results are matched on these */
	assert_int_equal(net_stream_id(0), 1);
	assert_int_equal(net_stream_id(1), 3);
	assert_int_equal(net_stream_id(2), 4);
	assert_int_equal(net_stream_id(255), 257);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_counting),
		cmocka_unit_test(test_rx_jitter),
		cmocka_unit_test(test_stream_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

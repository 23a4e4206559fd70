// SPDX-License-Identifier: MIT
/* classes/net/proto: iperf3 control messages, checked against what iperf3 3.12 sends. */
#include "unit.h"
#include "classes/net/proto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- framing ---- */

static void test_msg_length(void **state)
{
	static const struct {
		unsigned char hdr[4];
		size_t max;
		int ret;
		size_t want;
	} cases[] = {
		{{0, 0, 0, 123}, 8192, 0, 123},	      /* iperf3 3.12's TCP parameters */
		{{0, 0, 0x20, 0}, 8192, 0, 8192},     /* exactly the cap */
		{{0, 0, 0x20, 1}, 8192, -EMSGSIZE, 0}, /* one past it */
		{{0, 0, 0, 0}, 8192, -EBADMSG, 0},    /* empty: nothing to parse */
		{{0xff, 0xff, 0xff, 0xff}, NET_RESULTS_MAX, -EMSGSIZE, 0},
		/* a negative int32 read as a length */
		{{0x80, 0, 0, 1}, NET_RESULTS_MAX, -EMSGSIZE, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t got = 77;
		int r = net_msg_length(cases[i].hdr, cases[i].max, &got);

		if (r != cases[i].ret || (r == 0 && got != cases[i].want))
			fail_msg("case %zu: ret %d len %zu, expected %d %zu", i, r, got,
				 cases[i].ret, cases[i].want);
		if (r < 0 && got != 77)
			fail_msg("case %zu: length written on failure", i);
	}
}

static void test_msg_header_roundtrip(void **state)
{
	static const size_t lens[] = {1, 123, 285, 8192, 65536, NET_RESULTS_MAX};
	unsigned char h[4];
	size_t i, got;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		net_msg_header(lens[i], h);
		assert_int_equal(net_msg_length(h, NET_RESULTS_MAX, &got), 0);
		assert_int_equal(got, lens[i]);
	}
	net_msg_header(0x11d, h); /* 285: the header strace showed before 3.12's results */
	assert_memory_equal(h, "\0\0\x01\x1d", 4);
}

static void test_cookie(void **state)
{
	char c[NET_COOKIE_SIZE], bad[NET_COOKIE_SIZE];
	size_t i;

	(void)state;
	assert_int_equal(net_cookie_make(c), 0);
	assert_true(net_cookie_valid(c));
	for (i = 0; i < NET_COOKIE_SIZE - 1; i++)
		assert_non_null(strchr("abcdefghijklmnopqrstuvwxyz234567", c[i]));
	/* what iperf3 3.12 sent */
	assert_true(net_cookie_valid("vd3pucdf3xku3nyx6tve635mks22xbbotyes"));
	memcpy(bad, c, sizeof(bad));
	bad[NET_COOKIE_SIZE - 1] = 'x'; /* no NUL */
	assert_false(net_cookie_valid(bad));
	memcpy(bad, c, sizeof(bad));
	bad[5] = '\n';
	assert_false(net_cookie_valid(bad));
	memcpy(bad, c, sizeof(bad));
	bad[0] = '\0'; /* a binary blob starting with NUL */
	assert_false(net_cookie_valid(bad));
}

static void test_state_names(void **state)
{
	(void)state;
	assert_string_equal(net_state_name(NET_TEST_END), "TEST_END");
	assert_string_equal(net_state_name(-1), "ACCESS_DENIED");
	assert_string_equal(net_state_name(16), "IPERF_DONE");
	assert_null(net_state_name(3));
	assert_null(net_state_name(0));
	assert_string_equal(net_ie_text(NET_IE_NUMSTREAMS), "too many parallel streams");
	assert_string_equal(net_ie_text(9999), "server error");
}

/* ---- parameters ---- */

struct params_case {
	const char *json;
	int ret;
	int32_t ie;	    /* when ret < 0 */
	const char *why;    /* a part of the reason, when ret < 0 */
	enum net_proto proto;
	uint64_t time_s, omit_s, bytes, parallel, len, rate;
	bool reverse, bidir;
};

#define BAD(j, e, w) {.json = j, .ret = -EINVAL, .ie = e, .why = w}

static const struct params_case params_cases[] = {
	/* iperf3 3.12 -c -O 1 -t 1, as strace showed it */
	{"{\"tcp\":true,\"omit\":1,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":1,"
	 "\"len\":131072,\"pacing_timer\":1000,\"client_version\":\"3.12\"}",
	 0, 0, NULL, NET_TCP, 1, 1, 0, 1, 131072, 0, false, false},
	/* iperf3 3.12 -u -b 10M -l 100 */
	{"{\"udp\":true,\"omit\":1,\"time\":1,\"num\":0,\"blockcount\":0,\"parallel\":1,"
	 "\"len\":100,\"bandwidth\":10000000,\"pacing_timer\":1000,\"client_version\":\"3.12\"}",
	 0, 0, NULL, NET_UDP, 1, 1, 0, 1, 100, 10000000, false, false},
	{"{\"tcp\":true,\"time\":0,\"num\":104857600,\"parallel\":4,\"reverse\":true}", 0, 0, NULL,
	 NET_TCP, 0, 0, 104857600, 4, 131072, 0, true, false},
	{"{\"tcp\":true,\"bidirectional\":true,\"time\":5}", 0, 0, NULL, NET_TCP, 5, 0, 0, 1,
	 131072, 0, false, true},
	/* a double where an integer is usual: cJSON writes both */
	{"{\"udp\":true,\"time\":2.0,\"len\":1460.0,\"bandwidth\":1e6}", 0, 0, NULL, NET_UDP, 2, 0,
	 0, 1, 1460, 1000000, false, false},
	/* neither protocol key: iperf3's server runs TCP */
	{"{\"time\":3}", 0, 0, NULL, NET_TCP, 3, 0, 0, 1, 131072, 0, false, false},
	/* unknown keys are ignored; "reverse":false is not reverse */
	{"{\"tcp\":1,\"reverse\":false,\"title\":\"x\",\"extra_data\":\"y\",\"frob\":[1,2]}", 0, 0,
	 NULL, NET_TCP, 10, 0, 0, 1, 131072, 0, false, false},
	/* refused, with the error number iperf3 clients print */
	BAD("{\"tcp\":true,\"parallel\":129}", NET_IE_NUMSTREAMS, "parallel"),
	BAD("{\"tcp\":true,\"parallel\":0}", NET_IE_NUMSTREAMS, "parallel"),
	BAD("{\"tcp\":true,\"time\":86401}", 5, "time"),
	BAD("{\"tcp\":true,\"omit\":601}", NET_IE_OMIT, "omit"),
	BAD("{\"tcp\":true,\"len\":1048577}", NET_IE_BLOCKSIZE, "len"),
	BAD("{\"udp\":true,\"len\":15}", NET_IE_UDPBLOCKSIZE, "UDP block length"),
	BAD("{\"udp\":true,\"len\":65508}", NET_IE_UDPBLOCKSIZE, "UDP block length"),
	BAD("{\"tcp\":true,\"reverse\":true,\"bidirectional\":true}", 25, "reverse"),
	BAD("{\"tcp\":true,\"udp\":true}", NET_IE_RECVPARAMS, "protocol"),
	BAD("{\"sctp\":true}", NET_IE_RECVPARAMS, "protocol"),
	BAD("{\"tcp\":true,\"time\":-1}", 5, "time"),
	BAD("{\"tcp\":true,\"time\":\"10\"}", 5, "time"),
	BAD("{\"tcp\":true,\"time\":1e300}", 5, "time"),
	BAD("{\"tcp\":true,\"num\":18446744073709551615}", NET_IE_RECVPARAMS, "num"),
	BAD("{\"tcp\":true,\"window\":1073741824}", 8, "window"),
	BAD("[1,2,3]", NET_IE_RECVPARAMS, "object"),
	BAD("{\"tcp\":true", NET_IE_RECVPARAMS, "not JSON"),
	BAD("{\"tcp\":true} x", NET_IE_RECVPARAMS, "trailing"),
	BAD("", NET_IE_RECVPARAMS, "not JSON"),
};

static void test_params_decode(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(params_cases); i++) {
		const struct params_case *c = &params_cases[i];
		struct strbuf why = STRBUF_INIT;
		struct net_params p = {.time_s = 4242};
		int32_t ie = -7;
		int r = net_params_decode(c->json, strlen(c->json), &p, &why, &ie);

		if (r != c->ret)
			fail_msg("case %zu (%s): ret %d (%s), expected %d", i, c->json, r, why.buf,
				 c->ret);
		if (r < 0) {
			if (ie != c->ie)
				fail_msg("case %zu: iperf3 error %d, expected %d", i, ie, c->ie);
			if (!strstr(why.buf, c->why))
				fail_msg("case %zu: reason \"%s\" lacks \"%s\"", i, why.buf,
					 c->why);
			if (p.time_s != 4242)
				fail_msg("case %zu: params written on failure", i);
		} else if (p.proto != c->proto || p.time_s != c->time_s || p.omit_s != c->omit_s ||
			   p.bytes != c->bytes || p.parallel != c->parallel || p.len != c->len ||
			   p.rate_bps != c->rate || p.reverse != c->reverse ||
			   p.bidir != c->bidir) {
			fail_msg("case %zu (%s): decoded wrong", i, c->json);
		}
		strbuf_release(&why);
	}
}

static void test_params_roundtrip(void **state)
{
	struct net_params p, q;
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;

	(void)state;
	net_params_defaults(&p, NET_UDP);
	p.time_s = 7;
	p.omit_s = 2;
	p.parallel = 3;
	p.bidir = true;
	p.rate_bps = 123456789;
	p.window = 262144;
	p.udp_64bit = true;
	p.tos = 0x10;
	snprintf(p.congestion, sizeof(p.congestion), "cubic");
	snprintf(p.client_version, sizeof(p.client_version), "usbperf 0.1.0");
	assert_int_equal(net_params_encode(&p, &out), 0);
	/* the keys iperf3's server looks for */
	assert_non_null(strstr(out.buf, "\"udp\":true"));
	assert_non_null(strstr(out.buf, "\"bidirectional\":true"));
	assert_non_null(strstr(out.buf, "\"bandwidth\":123456789"));
	assert_non_null(strstr(out.buf, "\"udp_counters_64bit\":1"));
	assert_int_equal(net_params_decode(out.buf, out.len, &q, &why, NULL), 0);
	assert_int_equal(q.proto, NET_UDP);
	assert_int_equal(q.time_s, 7);
	assert_int_equal(q.omit_s, 2);
	assert_int_equal(q.parallel, 3);
	assert_true(q.bidir);
	assert_false(q.reverse);
	assert_int_equal(q.rate_bps, 123456789);
	assert_int_equal(q.window, 262144);
	assert_int_equal(q.len, NET_DEFAULT_UDP_LEN);
	assert_int_equal(q.tos, 0x10);
	assert_true(q.udp_64bit);
	assert_string_equal(q.congestion, "cubic");
	assert_string_equal(q.client_version, "usbperf 0.1.0");
	strbuf_release(&out);
	strbuf_release(&why);
}

static void test_params_strings_sanitized(void **state)
{
	static const char json[] = "{\"tcp\":true,\"client_version\":\"3.12\\u0007\\nevil and long "
				   "enough to be cut here\",\"congestion\":\"a\\u0001b\"}";
	struct strbuf why = STRBUF_INIT;
	struct net_params p;

	(void)state;
	assert_int_equal(net_params_decode(json, strlen(json), &p, &why, NULL), 0);
	assert_int_equal(strlen(p.client_version), sizeof(p.client_version) - 1);
	assert_null(strchr(p.client_version, '\n'));
	assert_null(strchr(p.client_version, '\a'));
	assert_string_equal(p.congestion, "a?b");
	strbuf_release(&why);
}

/* ---- results ---- */

/* iperf3 3.12 -s answering a TCP test: -1 written as 2^64-1 */
static const char results_312[] =
	"{\"cpu_util_total\":41.335246368207237,\"cpu_util_user\":0.17421210999050979,"
	"\"cpu_util_system\":41.1624835270606,\"sender_has_retransmits\":18446744073709551615,"
	"\"congestion_used\":\"bbr\",\"streams\":[{\"id\":1,\"bytes\":1073086464,"
	"\"retransmits\":18446744073709551615,\"jitter\":0,\"errors\":0,\"packets\":0,"
	"\"start_time\":0,\"end_time\":1.000937}]}";

static void test_results_decode_312(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct net_results r;

	(void)state;
	assert_int_equal(net_results_decode(results_312, strlen(results_312), 4, &r, &why), 0);
	assert_near(r.cpu_total, 41.335246368207237, 1e-12);
	assert_near(r.cpu_sys, 41.1624835270606, 1e-12);
	assert_int_equal(r.sender_has_retransmits, -1);
	assert_string_equal(r.congestion, "bbr");
	assert_int_equal(r.nstreams, 1);
	assert_int_equal(r.streams[0].id, 1);
	assert_int_equal(r.streams[0].bytes, 1073086464);
	assert_int_equal(r.streams[0].retransmits, -1);
	assert_int_equal(r.streams[0].omitted_packets, -1); /* 3.12 does not send them */
	assert_near(r.streams[0].end_s, 1.000937, 1e-12);
	net_results_release(&r);
	strbuf_release(&why);
}

static const struct {
	const char *json;
	size_t max_streams;
	const char *why;
} bad_results[] = {
	{"{\"cpu_util_user\":1,\"cpu_util_system\":1,\"sender_has_retransmits\":0,\"streams\":[]}",
	 4, "cpu_util_total"},
	{"{\"cpu_util_total\":\"x\",\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[]}",
	 4, "cpu_util_total"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,\"streams\":[]}", 4,
	 "sender_has_retransmits"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0}",
	 4, "streams"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":{}}",
	 4, "streams"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[1]}",
	 4, "not an object"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{\"id\":1,\"bytes\":5}]}",
	 4, "retransmits"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{\"id\":1,\"bytes\":-5,\"retransmits\":0,"
	 "\"jitter\":0,\"errors\":0,\"packets\":0}]}",
	 4, "not a number"},
	{"{\"cpu_util_total\":1,\"cpu_util_user\":1,\"cpu_util_system\":1,"
	 "\"sender_has_retransmits\":0,\"streams\":[{},{},{}]}",
	 2, "3 streams"},
};

static void test_results_decode_bad(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_results); i++) {
		struct strbuf why = STRBUF_INIT;
		struct net_results r = {.nstreams = 99};

		if (net_results_decode(bad_results[i].json, strlen(bad_results[i].json),
				       bad_results[i].max_streams, &r, &why) != -EINVAL)
			fail_msg("case %zu accepted", i);
		if (!strstr(why.buf, bad_results[i].why))
			fail_msg("case %zu: reason \"%s\" lacks \"%s\"", i, why.buf,
				 bad_results[i].why);
		assert_int_equal(r.nstreams, 99);
		strbuf_release(&why);
	}
}

static void test_results_roundtrip(void **state)
{
	struct net_stream_result s[2] = {
		{.id = 1, .bytes = 12501980, .retransmits = -1, .jitter_s = 7.36e-06, .errors = 3,
		 .packets = 8563, .omitted_errors = 1, .omitted_packets = 4281, .start_s = 0,
		 .end_s = 2.001},
		{.id = 3, .bytes = 5ull << 32, .retransmits = 17, .jitter_s = 0, .errors = 0,
		 .packets = 0, .omitted_errors = -1, .omitted_packets = -1, .start_s = NAN,
		 .end_s = NAN},
	};
	struct net_results in = {.cpu_total = 12.5, .cpu_user = 2.5, .cpu_sys = 10,
				 .sender_has_retransmits = -1, .streams = s, .nstreams = 2},
			   out;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;

	(void)state;
	snprintf(in.congestion, sizeof(in.congestion), "cubic");
	assert_int_equal(net_results_encode(&in, &buf), 0);
	assert_non_null(strstr(buf.buf, "\"sender_has_retransmits\":-1"));
	assert_null(strstr(buf.buf, "\"omitted_errors\":-1")); /* a pair or nothing */
	assert_int_equal(net_results_decode(buf.buf, buf.len, 2, &out, &why), 0);
	assert_int_equal(out.nstreams, 2);
	assert_near(out.cpu_sys, 10, 1e-9);
	assert_int_equal(out.sender_has_retransmits, -1);
	assert_string_equal(out.congestion, "cubic");
	assert_int_equal(out.streams[0].packets, 8563);
	assert_int_equal(out.streams[0].omitted_packets, 4281);
	assert_int_equal(out.streams[0].omitted_errors, 1);
	assert_near(out.streams[0].jitter_s, 7.36e-06, 1e-15);
	assert_near(out.streams[0].end_s, 2.001, 1e-9);
	assert_int_equal(out.streams[1].bytes, 5ull << 32);
	assert_int_equal(out.streams[1].retransmits, 17);
	assert_int_equal(out.streams[1].omitted_packets, -1);
	assert_nan(out.streams[1].start_s);
	net_results_release(&out);
	strbuf_release(&buf);
	strbuf_release(&why);
}

/* ---- UDP header ---- */

static void test_udp_header(void **state)
{
	/* the first datagram iperf3 3.12 sent in the strace: 0x1537 s, 0x40c04 us, counter 1 */
	static const unsigned char seen[12] = {0, 0, 0x15, 0x37, 0, 0x04, 0x0c, 0x40, 0, 0, 0, 1};
	unsigned char buf[16];
	uint64_t ns, cnt;

	(void)state;
	assert_int_equal(net_udp_parse(seen, sizeof(seen), false, &ns, &cnt), 0);
	assert_int_equal(cnt, 1);
	assert_int_equal(ns, 0x1537ull * 1000000000u + 0x40c40ull * 1000u);
	net_udp_stamp(buf, ns + 999, 1, false); /* below a microsecond is not sent */
	assert_memory_equal(buf, seen, 12);
	net_udp_stamp(buf, 5000000123456ull, 0x123456789abull, true);
	assert_int_equal(net_udp_parse(buf, 16, true, &ns, &cnt), 0);
	assert_int_equal(cnt, 0x123456789abull);
	assert_int_equal(ns, 5000000123000ull);
	assert_int_equal(net_udp_parse(buf, 11, false, &ns, &cnt), -EBADMSG);
	assert_int_equal(net_udp_parse(buf, 15, true, &ns, &cnt), -EBADMSG);
}

/* ---- rates ---- */

static void test_parse_rate(void **state)
{
	static const struct {
		const char *in;
		int ret;
		uint64_t want;
	} cases[] = {
		{"0", 0, 0},
		{"1000", 0, 1000},
		{"10M", 0, 10000000},
		{"10m", 0, 10000000},
		{"1.5G", 0, 1500000000},
		{"95mbit", 0, 95000000},
		{"100Mbit/s", 0, 100000000},
		{"750Mbps", 0, 750000000},
		{"64k", 0, 64000},
		{"2T", 0, 2000000000000},
		{"", -EINVAL, 0},
		{"M", -EINVAL, 0},
		{"-5M", -EINVAL, 0},
		{"10X", -EINVAL, 0},
		{"10MB", -EINVAL, 0}, /* bytes are not bits */
		{"1..5M", -EINVAL, 0},
		{"10M ", -EINVAL, 0},
		{"99999999999999999999T", -ERANGE, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 424242;
		int r = net_parse_rate(cases[i].in, INT64_MAX, &v);

		if (r != cases[i].ret || (r == 0 && v != cases[i].want) || (r < 0 && v != 424242))
			fail_msg("'%s': ret %d value %llu, expected %d %llu", cases[i].in, r,
				 (unsigned long long)v, cases[i].ret,
				 (unsigned long long)cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msg_length),
		cmocka_unit_test(test_msg_header_roundtrip),
		cmocka_unit_test(test_cookie),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_params_decode),
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_params_strings_sanitized),
		cmocka_unit_test(test_results_decode_312),
		cmocka_unit_test(test_results_decode_bad),
		cmocka_unit_test(test_results_roundtrip),
		cmocka_unit_test(test_udp_header),
		cmocka_unit_test(test_parse_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

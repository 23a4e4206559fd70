// SPDX-License-Identifier: MIT
/* iperf3 control messages: states, cookie, framing, parameter and results JSON. */
#include "classes/net/proto.h"
#include "util/parse.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

struct code_name {
	int code;
	const char *name;
};

static const struct code_name states[] = {
	{NET_TEST_START, "TEST_START"},
	{NET_TEST_RUNNING, "TEST_RUNNING"},
	{NET_TEST_END, "TEST_END"},
	{NET_PARAM_EXCHANGE, "PARAM_EXCHANGE"},
	{NET_CREATE_STREAMS, "CREATE_STREAMS"},
	{NET_SERVER_TERMINATE, "SERVER_TERMINATE"},
	{NET_CLIENT_TERMINATE, "CLIENT_TERMINATE"},
	{NET_EXCHANGE_RESULTS, "EXCHANGE_RESULTS"},
	{NET_DISPLAY_RESULTS, "DISPLAY_RESULTS"},
	{NET_IPERF_DONE, "IPERF_DONE"},
	{NET_ACCESS_DENIED, "ACCESS_DENIED"},
	{NET_SERVER_ERROR, "SERVER_ERROR"},
};

/* iperf3's own words for the errors a server may answer with */
static const struct code_name ie_texts[] = {
	{5, "test duration too long"},
	{NET_IE_NUMSTREAMS, "too many parallel streams"},
	{NET_IE_BLOCKSIZE, "block size too large"},
	{8, "socket buffer size too large"},
	{NET_IE_OMIT, "bogus value for --omit"},
	{NET_IE_UDPBLOCKSIZE, "block size invalid"},
	{25, "cannot be both reverse and bidirectional"},
	{27, "total required bandwidth is larger than the server's limit"},
	{100, "unable to create a new test"},
	{NET_IE_RECVPARAMS, "unable to receive parameters from the client"},
	{117, "unable to receive results"},
	{NET_IE_ACCESSDENIED, "the server is busy running a test"},
	{142, "test authorization failed"},
	{143, "unable to bind to the device"},
};

static const char *lookup(const struct code_name *t, size_t n, int code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

const char *net_state_name(int state)
{
	return lookup(states, sizeof(states) / sizeof(states[0]), state);
}

const char *net_ie_text(int32_t ie)
{
	const char *t = lookup(ie_texts, sizeof(ie_texts) / sizeof(ie_texts[0]), ie);

	return t ? t : "server error";
}

/* iperf3's alphabet: base32 without padding */
static const char cookie_chars[] = "abcdefghijklmnopqrstuvwxyz234567";

int net_cookie_make(char ret[NET_COOKIE_SIZE])
{
	unsigned char rnd[NET_COOKIE_SIZE - 1];
	size_t i;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return -EIO;
	for (i = 0; i < sizeof(rnd); i++)
		ret[i] = cookie_chars[rnd[i] % 32];
	ret[NET_COOKIE_SIZE - 1] = '\0';
	return 0;
}

bool net_cookie_valid(const char c[NET_COOKIE_SIZE])
{
	size_t i;

	for (i = 0; i < NET_COOKIE_SIZE - 1; i++)
		if (c[i] < 0x21 || c[i] > 0x7e)
			return false;
	return c[NET_COOKIE_SIZE - 1] == '\0';
}

void net_msg_header(size_t len, unsigned char ret[4])
{
	ret[0] = (unsigned char)(len >> 24);
	ret[1] = (unsigned char)(len >> 16);
	ret[2] = (unsigned char)(len >> 8);
	ret[3] = (unsigned char)len;
}

int net_msg_length(const unsigned char hdr[4], size_t max, size_t *ret)
{
	uint32_t n =
	    (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];

	if (n == 0)
		return -EBADMSG;
	if (n > max)
		return -EMSGSIZE;
	*ret = n;
	return 0;
}

int net_parse_rate(const char *s, uint64_t max, uint64_t *ret)
{
	static const struct {
		char c;
		double mult;
	} units[] = {{'k', 1e3}, {'m', 1e6}, {'g', 1e9}, {'t', 1e12}};
	size_t n = strspn(s, "0123456789."), i;
	const char *rest = s + n;
	double mult = 1, v;
	char num[64];
	int r;

	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	for (i = 0; *rest && i < sizeof(units) / sizeof(units[0]); i++) {
		if ((*rest | 0x20) == units[i].c) {
			mult = units[i].mult;
			rest++;
			break;
		}
	}
	if (*rest && strcmp(rest, "bit/s") && strcmp(rest, "bps") && strcmp(rest, "bit"))
		return -EINVAL;
	r = parse_double(num, 0, 1e300, &v);
	if (r < 0)
		return r;
	v *= mult;
	if (v > (double)max)
		return -ERANGE;
	*ret = (uint64_t)(v + 0.5);
	return 0;
}

void net_params_defaults(struct net_params *p, enum net_proto proto)
{
	*p = (struct net_params){
		.proto = proto,
		.time_s = 10,
		.parallel = 1,
		.len = proto == NET_UDP ? NET_DEFAULT_UDP_LEN : NET_DEFAULT_TCP_LEN,
		.rate_bps = proto == NET_UDP ? NET_DEFAULT_UDP_RATE : 0,
		.pacing_timer_us = 1000,
	};
}

/* ---- JSON helpers: numbers may be 64-bit integers or doubles ---- */

static json_object *parse_object(const char *buf, size_t len, struct strbuf *why)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;

	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, buf, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len) {
		strbuf_addf(why, "not JSON (%s)",
			    o ? "trailing data"
			      : json_tokener_error_desc(json_tokener_get_error(tok)));
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object)) {
		strbuf_adds(why, "not a JSON object");
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/*
 * A whole number. iperf3 3.12 writes -1 through an unsigned 64-bit print
 * (18446744073709551615): those wrap back to the negative value they were.
 */
static int json_i64(json_object *v, int64_t *ret)
{
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);

		if (i == INT64_MAX && json_object_get_uint64(v) > (uint64_t)INT64_MAX)
			i = (int64_t)json_object_get_uint64(v);
		*ret = i;
		return 0;
	}
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);

		if (!isfinite(d) || d < -9.2e18 || d > 9.2e18)
			return -ERANGE;
		*ret = (int64_t)d;
		return 0;
	}
	return -EINVAL;
}

static int json_dbl(json_object *v, double *ret)
{
	if (json_object_is_type(v, json_type_int)) {
		int64_t i;

		json_i64(v, &i);
		*ret = (double)i;
		return 0;
	}
	if (json_object_is_type(v, json_type_double) && isfinite(json_object_get_double(v))) {
		*ret = json_object_get_double(v);
		return 0;
	}
	return -EINVAL;
}

/* An optional key holding a whole number in [min, max]: 0 absent, 1 set, -EINVAL bad. */
static int get_u64(json_object *o, const char *key, uint64_t min, uint64_t max, uint64_t *ret,
		   struct strbuf *why)
{
	json_object *v;
	int64_t i;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (json_i64(v, &i) < 0 || i < 0 || (uint64_t)i < min || (uint64_t)i > max) {
		strbuf_addf(why, "\"%s\" is not a whole number in %llu..%llu", key,
			    (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*ret = (uint64_t)i;
	return 1;
}

/* iperf3 treats a flag key as set when it is present; false and 0 read as unset here. */
static bool get_flag(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return false;
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v);
	if (json_object_is_type(v, json_type_int))
		return json_object_get_int64(v) != 0;
	return true;
}

/* A short printable string: control characters become '?', longer ones are cut. */
static void get_str(json_object *o, const char *key, char *dst, size_t size)
{
	json_object *v;
	const char *s;
	size_t i;

	dst[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return;
	s = json_object_get_string(v);
	for (i = 0; i + 1 < size && s[i]; i++)
		dst[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	dst[i] = '\0';
}

static void add_u64(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_int64((int64_t)v));
}

static int finish(json_object *o, struct strbuf *out)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							     JSON_C_TO_STRING_NOSLASHESCAPE);
	int r = s ? 0 : -ENOMEM;

	if (s)
		strbuf_adds(out, s);
	json_object_put(o);
	return r;
}

/* ---- parameters ---- */

int net_params_encode(const struct net_params *p, struct strbuf *out)
{
	json_object *o = json_object_new_object();

	if (!o)
		return -ENOMEM;
	/* the keys and their order as iperf3's client sends them */
	json_object_object_add(o, p->proto == NET_UDP ? "udp" : "tcp", json_object_new_boolean(1));
	add_u64(o, "omit", p->omit_s);
	add_u64(o, "time", p->time_s);
	add_u64(o, "num", p->bytes);
	add_u64(o, "blockcount", p->blocks);
	if (p->mss)
		add_u64(o, "MSS", p->mss);
	if (p->nodelay)
		json_object_object_add(o, "nodelay", json_object_new_boolean(1));
	add_u64(o, "parallel", p->parallel);
	if (p->reverse)
		json_object_object_add(o, "reverse", json_object_new_boolean(1));
	if (p->bidir)
		json_object_object_add(o, "bidirectional", json_object_new_boolean(1));
	if (p->window)
		add_u64(o, "window", p->window);
	add_u64(o, "len", p->len);
	if (p->rate_bps)
		add_u64(o, "bandwidth", p->rate_bps);
	if (p->pacing_timer_us)
		add_u64(o, "pacing_timer", p->pacing_timer_us);
	if (p->tos)
		add_u64(o, "TOS", p->tos);
	if (p->congestion[0])
		json_object_object_add(o, "congestion", json_object_new_string(p->congestion));
	if (p->get_server_output)
		add_u64(o, "get_server_output", 1);
	if (p->udp_64bit)
		add_u64(o, "udp_counters_64bit", 1);
	json_object_object_add(o, "client_version", json_object_new_string(p->client_version));
	return finish(o, out);
}

/* the ranges a server enforces; on failure *ie is what to tell the client */
static int params_check(const struct net_params *p, struct strbuf *why, int32_t *ie)
{
	if (p->reverse && p->bidir) {
		strbuf_adds(why, "reverse and bidirectional together");
		*ie = 25;
		return -EINVAL;
	}
	if (p->proto == NET_UDP && (p->len < NET_MIN_UDP_LEN || p->len > NET_MAX_UDP_LEN)) {
		strbuf_addf(why, "UDP block length %llu outside %u..%u", (unsigned long long)p->len,
			    NET_MIN_UDP_LEN, NET_MAX_UDP_LEN);
		*ie = NET_IE_UDPBLOCKSIZE;
		return -EINVAL;
	}
	return 0;
}

static int params_numbers(json_object *o, struct net_params *p, struct strbuf *why, int32_t *ie)
{
	static const struct {
		const char *key;
		size_t off;
		uint64_t min, max;
		int32_t ie;
	} nums[] = {
	    {"omit", offsetof(struct net_params, omit_s), 0, NET_MAX_OMIT_S, NET_IE_OMIT},
	    {"time", offsetof(struct net_params, time_s), 0, NET_MAX_TIME_S, 5},
	    {"num", offsetof(struct net_params, bytes), 0, INT64_MAX, NET_IE_RECVPARAMS},
	    {"blockcount", offsetof(struct net_params, blocks), 0, INT64_MAX, NET_IE_RECVPARAMS},
	    {"MSS", offsetof(struct net_params, mss), 0, 9216, 10},
	    {"parallel", offsetof(struct net_params, parallel), 1, NET_MAX_STREAMS,
	     NET_IE_NUMSTREAMS},
	    {"window", offsetof(struct net_params, window), 0, 512u << 20, 8},
	    {"len", offsetof(struct net_params, len), 1, NET_MAX_LEN, NET_IE_BLOCKSIZE},
	    {"bandwidth", offsetof(struct net_params, rate_bps), 0, INT64_MAX, NET_IE_RECVPARAMS},
	    {"pacing_timer", offsetof(struct net_params, pacing_timer_us), 0, 1000000,
	     NET_IE_RECVPARAMS},
	    {"TOS", offsetof(struct net_params, tos), 0, 255, 21},
	};
	size_t i;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		uint64_t *dst = (uint64_t *)((char *)p + nums[i].off);

		if (get_u64(o, nums[i].key, nums[i].min, nums[i].max, dst, why) < 0) {
			*ie = nums[i].ie;
			return -EINVAL;
		}
	}
	return 0;
}

int net_params_decode(const char *buf, size_t len, struct net_params *ret, struct strbuf *why,
		      int32_t *ret_ie)
{
	json_object *o = parse_object(buf, len, why);
	struct net_params p;
	bool tcp, udp;
	int32_t ie = NET_IE_RECVPARAMS;
	int r = -EINVAL;

	if (!o)
		goto out;
	tcp = json_object_object_get_ex(o, "tcp", NULL);
	udp = json_object_object_get_ex(o, "udp", NULL);
	if (json_object_object_get_ex(o, "sctp", NULL) || (tcp && udp)) {
		strbuf_adds(why, "protocol is neither TCP nor UDP alone");
		goto out;
	}
	/* neither key: iperf3's server runs TCP */
	net_params_defaults(&p, udp ? NET_UDP : NET_TCP);
	if (params_numbers(o, &p, why, &ie) < 0)
		goto out;
	p.reverse = get_flag(o, "reverse");
	p.bidir = get_flag(o, "bidirectional");
	p.nodelay = get_flag(o, "nodelay");
	p.udp_64bit = get_flag(o, "udp_counters_64bit");
	p.get_server_output = get_flag(o, "get_server_output");
	get_str(o, "congestion", p.congestion, sizeof(p.congestion));
	get_str(o, "client_version", p.client_version, sizeof(p.client_version));
	if (!json_object_object_get_ex(o, "bandwidth", NULL))
		p.rate_bps =
		    0; /* iperf3 clients always name the UDP rate; absent means unlimited */
	if (params_check(&p, why, &ie) < 0)
		goto out;
	*ret = p;
	r = 0;
out:
	if (r < 0 && ret_ie)
		*ret_ie = ie;
	json_object_put(o);
	return r;
}

/* ---- results ---- */

int net_results_encode(const struct net_results *r, struct strbuf *out)
{
	json_object *o = json_object_new_object(), *a;
	size_t i;

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "cpu_util_total", json_object_new_double(r->cpu_total));
	json_object_object_add(o, "cpu_util_user", json_object_new_double(r->cpu_user));
	json_object_object_add(o, "cpu_util_system", json_object_new_double(r->cpu_sys));
	json_object_object_add(o, "sender_has_retransmits",
			       json_object_new_int64(r->sender_has_retransmits));
	if (r->congestion[0])
		json_object_object_add(o, "congestion_used", json_object_new_string(r->congestion));
	a = json_object_new_array();
	for (i = 0; i < r->nstreams; i++) {
		const struct net_stream_result *s = &r->streams[i];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "id", json_object_new_int64(s->id));
		json_object_object_add(j, "bytes", json_object_new_int64((int64_t)s->bytes));
		json_object_object_add(j, "retransmits", json_object_new_int64(s->retransmits));
		json_object_object_add(j, "jitter", json_object_new_double(s->jitter_s));
		json_object_object_add(j, "errors", json_object_new_int64(s->errors));
		json_object_object_add(j, "packets", json_object_new_int64(s->packets));
		if (s->omitted_errors >= 0 && s->omitted_packets >= 0) {
			json_object_object_add(j, "omitted_errors",
					       json_object_new_int64(s->omitted_errors));
			json_object_object_add(j, "omitted_packets",
					       json_object_new_int64(s->omitted_packets));
		}
		if (isfinite(s->start_s) && isfinite(s->end_s)) {
			json_object_object_add(j, "start_time", json_object_new_double(s->start_s));
			json_object_object_add(j, "end_time", json_object_new_double(s->end_s));
		}
		json_object_array_add(a, j);
	}
	json_object_object_add(o, "streams", a);
	return finish(o, out);
}

static int stream_decode(json_object *j, struct net_stream_result *s, size_t idx,
			 struct strbuf *why)
{
	static const char *const need[] = {"id", "bytes", "retransmits", "jitter", "errors",
					   "packets"};
	json_object *v[6], *oe, *op, *st, *et;
	int64_t bytes;
	size_t i;

	if (!json_object_is_type(j, json_type_object)) {
		strbuf_addf(why, "stream %zu is not an object", idx);
		return -EINVAL;
	}
	for (i = 0; i < 6; i++) {
		if (!json_object_object_get_ex(j, need[i], &v[i])) {
			strbuf_addf(why, "stream %zu has no \"%s\"", idx, need[i]);
			return -EINVAL;
		}
	}
	*s = (struct net_stream_result){.omitted_errors = -1, .omitted_packets = -1,
					.start_s = NAN, .end_s = NAN};
	if (json_i64(v[0], &s->id) < 0 || json_i64(v[1], &bytes) < 0 || bytes < 0 ||
	    json_i64(v[2], &s->retransmits) < 0 || json_dbl(v[3], &s->jitter_s) < 0 ||
	    json_i64(v[4], &s->errors) < 0 || json_i64(v[5], &s->packets) < 0) {
		strbuf_addf(why, "stream %zu has a value that is not a number", idx);
		return -EINVAL;
	}
	s->bytes = (uint64_t)bytes;
	/* a pair or nothing: one without the other is ignored, as iperf3 does */
	if (json_object_object_get_ex(j, "omitted_errors", &oe) &&
	    json_object_object_get_ex(j, "omitted_packets", &op) &&
	    (json_i64(oe, &s->omitted_errors) < 0 || json_i64(op, &s->omitted_packets) < 0)) {
		s->omitted_errors = s->omitted_packets = -1;
	}
	if (json_object_object_get_ex(j, "start_time", &st) &&
	    json_object_object_get_ex(j, "end_time", &et) &&
	    (json_dbl(st, &s->start_s) < 0 || json_dbl(et, &s->end_s) < 0)) {
		s->start_s = s->end_s = NAN;
	}
	return 0;
}

static int results_header(json_object *o, struct net_results *r, struct strbuf *why)
{
	static const char *const cpu[] = {"cpu_util_total", "cpu_util_user", "cpu_util_system"};
	double *dst[] = {&r->cpu_total, &r->cpu_user, &r->cpu_sys};
	json_object *v;
	size_t i;

	for (i = 0; i < 3; i++) {
		if (!json_object_object_get_ex(o, cpu[i], &v) || json_dbl(v, dst[i]) < 0) {
			strbuf_addf(why, "no number \"%s\"", cpu[i]);
			return -EINVAL;
		}
	}
	if (!json_object_object_get_ex(o, "sender_has_retransmits", &v) ||
	    json_i64(v, &r->sender_has_retransmits) < 0) {
		strbuf_adds(why, "no number \"sender_has_retransmits\"");
		return -EINVAL;
	}
	get_str(o, "congestion_used", r->congestion, sizeof(r->congestion));
	return 0;
}

int net_results_decode(const char *buf, size_t len, size_t max_streams, struct net_results *ret,
		       struct strbuf *why)
{
	json_object *o = parse_object(buf, len, why), *a;
	struct net_results r = {0};
	size_t i, n;
	int err = -EINVAL;

	if (!o || results_header(o, &r, why) < 0)
		goto out;
	if (!json_object_object_get_ex(o, "streams", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		strbuf_adds(why, "no \"streams\" array");
		goto out;
	}
	n = json_object_array_length(a);
	if (n > max_streams) {
		strbuf_addf(why, "%zu streams, at most %zu expected", n, max_streams);
		goto out;
	}
	r.streams = calloc(n ? n : 1, sizeof(*r.streams));
	if (!r.streams) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (stream_decode(json_object_array_get_idx(a, i), &r.streams[i], i, why) < 0)
			goto out;
	r.nstreams = n;
	*ret = r;
	r.streams = NULL;
	err = 0;
out:
	free(r.streams);
	json_object_put(o);
	return err;
}

void net_results_release(struct net_results *r)
{
	free(r->streams);
	r->streams = NULL;
	r->nstreams = 0;
}

/* ---- UDP datagram header ---- */

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void net_udp_stamp(unsigned char *buf, uint64_t now_ns, uint64_t counter, bool c64)
{
	put_be32(buf, (uint32_t)(now_ns / 1000000000u));
	put_be32(buf + 4, (uint32_t)(now_ns % 1000000000u / 1000u));
	if (c64) {
		put_be32(buf + 8, (uint32_t)(counter >> 32));
		put_be32(buf + 12, (uint32_t)counter);
	} else {
		put_be32(buf + 8, (uint32_t)counter);
	}
}

int net_udp_parse(const unsigned char *buf, size_t len, bool c64, uint64_t *ret_sent_ns,
		  uint64_t *ret_counter)
{
	uint64_t usec;

	if (len < (c64 ? 16u : 12u))
		return -EBADMSG;
	usec = get_be32(buf + 4);
	/* a garbled microsecond field still gives a time, just a wrong one: jitter shows it */
	*ret_sent_ns = (uint64_t)get_be32(buf) * 1000000000u + usec * 1000u;
	*ret_counter = c64 ? (uint64_t)get_be32(buf + 8) << 32 | get_be32(buf + 12)
			   : get_be32(buf + 8);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the iperf3 control messages a usbperf server or client
 * reads from the wire, in the order it reads them: a 37-byte cookie, a
 * length-prefixed parameter message, a length-prefixed results message,
 * then UDP datagram headers. Whatever parses must encode and parse back
 * the same.
 */
#include "classes/net/proto.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Take a length-prefixed message off the front; NULL when there is none. */
static const char *take_msg(const uint8_t **data, size_t *size, size_t max, size_t *ret_len)
{
	const char *msg;

	if (*size < 4 || net_msg_length(*data, max, ret_len) < 0 || *ret_len > *size - 4)
		return NULL;
	msg = (const char *)*data + 4;
	*data += 4 + *ret_len;
	*size -= 4 + *ret_len;
	return msg;
}

static void params(const char *msg, size_t len)
{
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	struct net_params p, q;
	int32_t ie;

	if (net_params_decode(msg, len, &p, &why, &ie) == 0) {
		if (net_params_encode(&p, &out) < 0 ||
		    net_params_decode(out.buf, out.len, &q, &why, &ie) < 0)
			abort();
		if (p.proto != q.proto || p.time_s != q.time_s || p.omit_s != q.omit_s ||
		    p.bytes != q.bytes || p.parallel != q.parallel || p.len != q.len ||
		    p.reverse != q.reverse || p.bidir != q.bidir || p.window != q.window ||
		    p.rate_bps != q.rate_bps || strcmp(p.client_version, q.client_version))
			abort();
	} else if (!why.len) {
		abort(); /* a refusal always says why */
	}
	strbuf_release(&why);
	strbuf_release(&out);
}

static void results(const char *msg, size_t len)
{
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	struct net_results r, again;
	size_t i;

	if (net_results_decode(msg, len, NET_MAX_STREAMS * 2, &r, &why) == 0) {
		if (net_results_encode(&r, &out) < 0 ||
		    net_results_decode(out.buf, out.len, NET_MAX_STREAMS * 2, &again, &why) < 0)
			abort();
		if (again.nstreams != r.nstreams ||
		    again.sender_has_retransmits != r.sender_has_retransmits)
			abort();
		for (i = 0; i < r.nstreams; i++)
			if (again.streams[i].id != r.streams[i].id ||
			    again.streams[i].bytes != r.streams[i].bytes ||
			    again.streams[i].packets != r.streams[i].packets)
				abort();
		net_results_release(&again);
		net_results_release(&r);
	}
	strbuf_release(&why);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *msg;
	size_t len;

	if (size < NET_COOKIE_SIZE)
		return 0;
	(void)net_cookie_valid((const char *)data);
	data += NET_COOKIE_SIZE;
	size -= NET_COOKIE_SIZE;
	msg = take_msg(&data, &size, NET_PARAMS_MAX, &len);
	if (msg)
		params(msg, len);
	msg = take_msg(&data, &size, NET_RESULTS_MAX, &len);
	if (msg)
		results(msg, len);
	while (size >= NET_UDP_HEADER) {
		uint64_t ns, counter;

		if (net_udp_parse(data, size, data[0] & 1, &ns, &counter) < 0)
			abort();
		data += NET_UDP_HEADER;
		size -= NET_UDP_HEADER;
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * classes/net/result: the CPU-bound warning, from the two ends' figures; the
 * interval rows as net streams them, through their field table (issue 14.7).
 */
#include "unit.h"
#include "classes/net/fields.h"
#include "classes/net/result.h"
#include "classes/net/wire.h"
#include "render/text_stream.h"

#include <math.h>
#include <string.h>

#define W(who, pct)                                                                                \
	"the " who " used " pct " % of a CPU: the figure may be the CPU's limit, not the link's"

struct cpu_case {
	const char *role, *direction;
	double here, peer;
	const char *want[2];
};

static const struct cpu_case cpu_cases[] = {
	/* the client sends forward; at 90 % exactly it is not yet bound */
	{"client", "forward", 97.2, 30, {W("sender (this end)", "97"), NULL}},
	{"client", "forward", 90.0, 90.0, {NULL, NULL}},
	{"client", "forward", 12, 99.5, {W("receiver (the peer)", "100"), NULL}},
	/* the server sends with --reverse: the sender is named first */
	{"client", "reverse", 95, 93,
	 {W("sender (the peer)", "93"), W("receiver (this end)", "95")}},
	{"server", "forward", 40, 96.6, {W("sender (the peer)", "97"), NULL}},
	{"server", "reverse", 91, 10, {W("sender (this end)", "91"), NULL}},
	{"client", "bidir", 150, NAN, {W("sender and receiver (this end)", "150"), NULL}},
	/* the peer's figure unknown (no results exchanged): nothing said of it */
	{"client", "forward", NAN, NAN, {NULL, NULL}},
};

static void test_cpu_warnings(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cpu_cases); i++) {
		const struct cpu_case *c = &cpu_cases[i];
		struct net_report rep = {.role = c->role,
					 .direction = c->direction,
					 .cpu_total = c->here,
					 .peer_cpu_total = c->peer};
		size_t n = (c->want[0] != NULL) + (c->want[1] != NULL);

		net_report_cpu_warnings(&rep);
		if (rep.nwarnings != n)
			fail_msg("case %zu: %zu warnings, expected %zu%s%s", i, rep.nwarnings, n,
				 rep.nwarnings ? ": " : "", rep.nwarnings ? rep.warnings[0] : "");
		for (size_t j = 0; j < n; j++)
			assert_string_equal(rep.warnings[j], c->want[j]);
		net_report_release(&rep);
	}
}

static struct net_interval_row irow(double start, double mb_s, int64_t retr)
{
	return (struct net_interval_row){
		.start_s = start, .end_s = start + 1, .dir = "tx", .stream = "sum",
		.seconds = 1, .mb_s = mb_s, .mbit_s = mb_s * 8, .retransmits = retr,
		.jitter_ms = NAN, .lost = FIELD_INT_UNKNOWN, .packets = FIELD_INT_UNKNOWN,
		.loss_pct = NAN, .ooo = FIELD_INT_UNKNOWN,
	};
}

/* the headers once, columns fixed by the first row (a digit of room), no bars */
/* the wire figures of a monitored test: the overhead share, the rates, a lossy capture */
static void test_wire_finish(void **state)
{
	static const struct {
		const char *what;
		uint64_t in, out, payload, dropped, omit;
		double window_s, seconds;
		double overhead_pct, wire_mb_s; /* NaN: none */
		const char *note;		/* a warning with this text, NULL none */
	} cases[] = {
	    {"ECM send: 4.6 % not payload", 1000000, 24141880, 23986176, 0, 0, 2.5, 2.0, 4.5967,
	     12.570940, NULL},
	    /* the capture holds --omit's second: the rate is over 3 s, not the 2 measured */
	    {"with --omit 1", 0, 30000000, 29000000, 0, 1, 3.4, 2.0, 3.3333, 10.0, NULL},
	    {"usbmon lost events: lower bounds said", 0, 1000, 900, 7, 0, 1.0, 1.0, 10.0, 0.001,
	     "lower bounds"},
	    {"less on the wire than carried: no share, said", 0, 800, 900, 0, 0, 1.0, 1.0, NAN,
	     0.0008, "missed part"},
	    {"no payload known (UDP): no share", 0, 800, U64_UNKNOWN, 0, 0, 1.0, 1.0, NAN, 0.0008,
	     NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct net_report rep = {0};
		bool said = false;

		net_wire_unknown(&rep);
		rep.monitored = true;
		rep.omit_s = cases[i].omit;
		rep.seconds = cases[i].seconds;
		rep.payload_bytes = cases[i].payload;
		rep.wire.bytes_in = cases[i].in;
		rep.wire.bytes_out = cases[i].out;
		rep.wire.window_s = cases[i].window_s;
		rep.wire.wire_mb_s = (double)(cases[i].in + cases[i].out) / cases[i].window_s / 1e6;
		rep.wire.urb_size = 1514;
		rep.wire.dropped = cases[i].dropped;
		net_wire_finish(&rep);
		if (isnan(cases[i].overhead_pct)
			? !isnan(rep.overhead_pct)
			: fabs(rep.overhead_pct - cases[i].overhead_pct) > 1e-3)
			fail_msg("%s: overhead %.4f", cases[i].what, rep.overhead_pct);
		if (fabs(rep.wire_mb_s - cases[i].wire_mb_s) > 1e-3 * cases[i].wire_mb_s)
			fail_msg("%s: wire %.6f MB/s", cases[i].what, rep.wire_mb_s);
		assert_int_equal(rep.wire_bytes, cases[i].in + cases[i].out);
		assert_int_equal(rep.urb_size, 1514);
		for (size_t k = 0; k < rep.nwarnings; k++)
			said |= cases[i].note && strstr(rep.warnings[k], cases[i].note);
		if (cases[i].note ? !said : rep.nwarnings != 0)
			fail_msg("%s: %zu warnings, '%s' not said", cases[i].what, rep.nwarnings,
				 cases[i].note ? cases[i].note : "");
		net_report_release(&rep);
	}
}

static void test_interval_stream(void **state)
{
	struct text_stream ts = TEXT_STREAM_INIT("intervals", &net_interval_desc);
	struct net_interval_row first = irow(0, 950.5, 3);
	struct net_interval_row later[] = {irow(1, 1200.25, 0), irow(2, 12345.5, 12)};
	struct strbuf out = STRBUF_INIT;

	(void)state;
	text_stream_rows(&ts, &first, 1, sizeof(first), &out);
	assert_string_equal(out.buf,
			    "intervals\n"
			    " from     to  dir  stream  omitted     rate     rate  retr\n"
			    "    s      s                           MB/s   Mbit/s\n"
			    " 0.00   1.00  tx   sum     no        950.50   7604.0     3\n");
	strbuf_reset(&out);
	text_stream_rows(&ts, later, 2, sizeof(later[0]), &out);
	/* a wider value than the room left pushes its row, not the columns */
	assert_string_equal(out.buf,
			    " 1.00   2.00  tx   sum     no       1200.25   9602.0     0\n"
			    " 2.00   3.00  tx   sum     no       12345.50  98764.0    12\n");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpu_warnings),
	    cmocka_unit_test(test_interval_stream),
	    cmocka_unit_test(test_wire_finish),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

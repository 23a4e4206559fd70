// SPDX-License-Identifier: MIT
/*
 * core/net/result: the CPU-bound warning, from the two ends' figures; the
 * interval rows as net streams them, through their field table (issue 14.7).
 */
#include "unit.h"
#include "core/net/fields.h"
#include "core/net/result.h"
#include "render/text_stream.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

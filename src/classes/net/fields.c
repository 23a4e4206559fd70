// SPDX-License-Identifier: MIT
/* The schema of net results: one table per struct drives text, JSON and CSV. */
#include "classes/net/fields.h"

#include "classes/net/fields.fields.h"

void net_report_describe(const struct net_report *rep, bool intervals, struct report *out)
{
	report_add_object(out, "test", NULL, &net_test_desc, rep);
	report_add_table(out, "results", "totals (MB/s = 10^6 B/s, Mbit/s = 10^6 bit/s)",
			 &net_sum_desc, rep->rows, rep->nrows, sizeof(*rep->rows));
	if (intervals && rep->interval_s > 0)
		report_add_table(out, "intervals", "intervals", &net_interval_desc, rep->intervals,
				 rep->nintervals, sizeof(*rep->intervals));
	out->warnings = rep->warnings;
	out->nwarnings = rep->nwarnings;
}

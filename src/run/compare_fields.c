// SPDX-License-Identifier: MIT
/* compare's result as fields: its summary, the metrics, what was not judged, the caveats */
#include "run/compare.h"
#include "model/field.h"

#include "run/compare_fields.fields.h"

void compare_describe(const struct compare_result *c, struct report *out)
{
	report_add_object(out, "comparison", "comparison", &compare_summary_desc, c);
	report_add_table(out, "metrics", "metrics", &compare_row_desc, c->rows, c->nrows,
			 sizeof(*c->rows));
	report_add_table(out, "not_judged", "not judged: why, and what to do",
			 &compare_unknown_desc, c->unknowns, c->nunknowns, sizeof(*c->unknowns));
	report_add_table(out, "caveats", "caveats: the runs differ in", &compare_caveat_desc,
			 c->caveats, c->ncaveats, sizeof(*c->caveats));
}

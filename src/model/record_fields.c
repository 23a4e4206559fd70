// SPDX-License-Identifier: MIT
#include "model/record_fields.h"

#include <math.h>

#include "model/record_fields.fields.h"

/* units differ from row to row: the unit is a column, not a header */

void run_record_describe(const struct run_record *r, bool metrics_first, struct report *out)
{
	report_add_object(out, "run", "run", &run_info_desc, r);
	report_add_object(out, "env", "environment", &run_env_desc, &r->env);
	if (metrics_first)
		report_add_table(out, "metrics", "metrics", &run_metric_desc, r->metrics,
				 r->nmetrics, sizeof(*r->metrics));
	report_add_table(out, "devices", "devices", &run_device_desc, r->devices, r->ndevices,
			 sizeof(*r->devices));
	report_add_table(out, "unmeasured", "found, not measured", &run_unmeasured_desc,
			 r->unmeasured, r->nunmeasured, sizeof(*r->unmeasured));
	if (!metrics_first)
		report_add_table(out, "metrics", "metrics", &run_metric_desc, r->metrics,
				 r->nmetrics, sizeof(*r->metrics));
	report_add_table(out, "findings", "findings", &finding_desc, r->findings.v, r->findings.n,
			 sizeof(*r->findings.v));
}

void fields_set_unknown(const struct record_desc *d, void *rec)
{
	for (size_t i = 0; i < d->nfields; i++)
		field_set_unknown(&d->fields[i], rec);
}

void run_record_schema(struct report *out)
{
	report_add_inline(out, "run", &run_info_desc, NULL);
	report_add_object(out, "env", NULL, &run_env_desc, NULL);
	report_add_table(out, "devices", NULL, &run_device_desc, NULL, 0, 0);
	report_add_table(out, "metrics", NULL, &run_metric_desc, NULL, 0, 0);
	report_add_table(out, "findings", NULL, &finding_desc, NULL, 0, 0);
	report_add_table(out, "verdicts", NULL, &run_verdict_desc, NULL, 0, 0);
	report_add_table(out, "notes", NULL, &run_note_desc, NULL, 0, 0);
	report_add_table(out, "unmeasured", NULL, &run_unmeasured_desc, NULL, 0, 0);
}

// SPDX-License-Identifier: MIT
/* The schema of disk results: one table per struct drives text, JSON, CSV (and SQL). */
#include "classes/disk/fields.h"

#include "classes/disk/fields.fields.h"

void disk_report_describe(const struct disk_report *rep, bool with_samples, struct report *out)
{
	report_add_object(out, "target", NULL, &disk_target_desc, rep);
	report_add_table(out, "results", NULL, &disk_row_desc, rep->rows, rep->nrows,
			 sizeof(*rep->rows));
	if (rep->npairs)
		report_add_table(out, "summary", rep->summary_title, &disk_pair_desc, rep->pairs,
				 rep->npairs, sizeof(*rep->pairs));
	if (rep->verify)
		report_add_table(out, "verify_errors",
				 "verify: data mismatches (offset in bytes from the start of the region)",
				 &disk_verr_desc, rep->verrs, rep->nverrs, sizeof(*rep->verrs));
	if (with_samples)
		report_add_table(out, "samples", NULL, &disk_sample_desc, rep->samples,
				 rep->nsamples, sizeof(*rep->samples));
	out->warnings = rep->warnings;
	out->nwarnings = rep->nwarnings;
}

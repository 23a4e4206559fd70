/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The field tables of a run record. They drive the text, JSON and CSV of
 * `usbperf show` and `run`, the keys of the export format (record_json.c)
 * and the columns of the history database (src/store/), so none of these can
 * drift from the others: a new field is added here, once (plus a schema
 * migration in src/store/migrations.c, which a unit test checks).
 */
#include "model/record.h"
#include "model/field.h"

/* struct run_record: id, started_at, duration_s, command_line */
extern const struct record_desc run_info_desc;
/* struct run_env */
extern const struct record_desc run_env_desc;
extern const struct record_desc run_device_desc;
extern const struct record_desc run_metric_desc;
/* struct run_verdict, run_note, run_unmeasured */
extern const struct record_desc run_verdict_desc, run_note_desc, run_unmeasured_desc;
/* findings use finding_desc (model/findings.h) */

/* Every field of rec unknown: NULL, NaN, U64_UNKNOWN, FIELD_INT_UNKNOWN, false. */
void fields_set_unknown(const struct record_desc *d, void *rec);

/*
 * Sections of one run for a report: "run", "env", "devices", "metrics",
 * "findings". The metrics table comes first among the tables when
 * metrics_first is set, because CSV renders the first table.
 */
void run_record_describe(const struct run_record *r, bool metrics_first, struct report *out);
/* the sections of a record as run_record_to_json writes it: the schema of show and export */
void run_record_schema(struct report *out);

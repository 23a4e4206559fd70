/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Run records as JSON: the objects of `usbperf export` files and of
 * `usbperf show --format json`. Keys come from the field tables
 * (record_fields.h); unknown values are null. Reading is strict: a wrong
 * type, an unknown key or a value out of range is an error that names where
 * it is ("metrics[3]: 'value' is not a number"), because an export file may
 * come from another board, another version or a hand edit.
 *
 *   {"id": "20261130T051200Z-3f2a", "started_at": "2026-11-30T05:12:00Z",
 *    "duration_s": 63.2, "command_line": "usbperf run",
 *    "env": {"hostname": ..., "board": ..., "kernel": ..., ...},
 *    "devices": [{"key": "2-1", "vid_pid": "0781:5583", ...}],
 *    "metrics": [{"device_key": "2-1", "test": "disk", "name": "seq-read 1M",
 *                 "metric": "mb_s", "unit": "MB/s", "value": 36.1, "stdev": 0.2,
 *                 "min": 35.9, "max": 36.3, "repeats": 3, "higher_is_better": true}],
 *    "findings": [{"severity": "warn", "id": ..., "subject": ..., ...}]}
 *
 * An export file: {"usbperf_export": 1, "usbperf": "0.1.0", "runs": [...]}.
 */
#include "model/record.h"
#include "util/strbuf.h"

#include <json-c/json.h>

#define RUN_EXPORT_FORMAT 1
/* limits on what a file may ask us to hold */
#define RUN_EXPORT_MAX_BYTES (256u << 20)
#define RUN_EXPORT_MAX_RUNS 1000000
#define RUN_MAX_STRING 65536
#define RUN_MAX_DEVICES 1024
#define RUN_MAX_METRICS 100000
#define RUN_MAX_FINDINGS 10000
#define RUN_ID_MAX 64

/*
 * What every stored or imported run satisfies (the store refuses others, so
 * whatever is in a history can be exported and imported again):
 * - id: 1 to RUN_ID_MAX of [A-Za-z0-9._:+-], not starting with '-';
 * - started_at: "YYYY-MM-DDTHH:MM:SSZ" (util/utctime.h);
 * - strings: at most RUN_MAX_STRING bytes, no control characters;
 * - devices: a key each, unique; metrics: device_key naming one of them,
 *   test, name and metric set, the four unique together; stdev >= 0,
 *   min <= max, repeats >= 1 (each when known), no infinities;
 * - findings: severity "info" or "warn", id and message set.
 * 0, or -EINVAL with the first problem in err (if given).
 */
int run_record_validate(const struct run_record *r, struct strbuf *err);
bool run_id_valid(const char *id);

/* 0 or -ENOMEM; *ret is a new object the caller puts */
int run_record_to_json(const struct run_record *r, struct json_object **ret);
/* 0, or -EINVAL with the reason in err; ret untouched on failure */
int run_record_from_json(struct json_object *o, struct run_record *ret, struct strbuf *err);

/* A new export document and its (empty) "runs" array, owned by the document. */
int run_export_new(struct json_object **ret_doc, struct json_object **ret_runs);
/*
 * Parse an export file's bytes: every run is read and validated before any
 * is returned. *ret is an array of *ret_n records (run_records_free()).
 */
int run_export_parse(const char *buf, size_t len, struct run_record **ret, size_t *ret_n,
		     struct strbuf *err);
/*
 * Any document that holds runs: an export file, one record (`usbperf show
 * --format json`) or the report of `usbperf run --format json`. Same
 * contract as run_export_parse().
 */
int run_document_parse(const char *buf, size_t len, struct run_record **ret, size_t *ret_n,
		       struct strbuf *err);
void run_records_free(struct run_record *v, size_t n);

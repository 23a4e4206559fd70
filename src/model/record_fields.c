// SPDX-License-Identifier: MIT
#include "model/record_fields.h"

#include <math.h>

#define T FF_TEXT
#define S(st, member, key, header, flags) FIELD(st, member, key, header, NULL, FT_STR, 0, flags)

static const struct field info_fields[] = {
	S(struct run_record, id, "id", "run", T),
	S(struct run_record, started_at, "started_at", "started", T),
	FIELD(struct run_record, duration_s, "duration_s", "duration", "s", FT_DBL, 1, T),
	S(struct run_record, command_line, "command_line", "command", T),
};

static const struct field env_fields[] = {
	S(struct run_env, hostname, "hostname", "host", T),
	S(struct run_env, board, "board", "board", T),
	S(struct run_env, kernel, "kernel", "kernel", T),
	S(struct run_env, kernel_build, "kernel_build", "kernel build", T),
	S(struct run_env, preempt, "preempt", "preemption", T),
	S(struct run_env, governor, "governor", "governor", T),
	S(struct run_env, usbperf_version, "usbperf_version", "usbperf", T),
	S(struct run_env, machine, "machine", "machine", T | FF_OPTIONAL),
};

/* the key is usually the port path: the text shows it once */
static const struct field device_fields[] = {
	FIELD_RENAMED(struct run_device, key, "device", "key", "device", NULL, FT_STR, 0, T),
	S(struct run_device, kind, "kind", "kind", T),
	S(struct run_device, target, "target", "target", T),
	S(struct run_device, vid_pid, "vid_pid", "VID:PID", T | FF_OPTIONAL),
	S(struct run_device, serial, "serial", "serial", T | FF_OPTIONAL),
	S(struct run_device, product, "product", "product", T | FF_OPTIONAL),
	S(struct run_device, port_path, "port_path", "port", 0),
	S(struct run_device, speed, "speed", "speed", T | FF_OPTIONAL),
	S(struct run_device, driver, "driver", "driver", T | FF_OPTIONAL),
	FIELD(struct run_device, ceiling_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1,
	      T | FF_OPTIONAL | FF_MAGNITUDE),
	S(struct run_device, capable_speed, "capable_speed", "capable of", 0),
	S(struct run_device, controller, "controller", "controller", 0),
	S(struct run_device, via, "via", "via hubs", 0),
};

/* units differ from row to row: the unit is a column, not a header */
#define M struct run_metric
static const struct field metric_fields[] = {
	FIELD_RENAMED(M, device_key, "device", "device_key", "device", NULL, FT_STR, 0, T),
	S(M, test, "test", "test", T),
	S(M, name, "name", "pass", T),
	S(M, metric, "metric", "metric", T | FF_METRIC),
	FIELD(M, value, "value", "value", NULL, FT_DBL, 2, T | FF_MAGNITUDE),
	FIELD(M, stdev, "stdev", "stdev", NULL, FT_DBL, 2, T | FF_PLUSMINUS),
	FIELD(M, min, "min", "min", NULL, FT_DBL, 2, T | FF_OPTIONAL | FF_MAGNITUDE),
	FIELD(M, max, "max", "max", NULL, FT_DBL, 2, T | FF_OPTIONAL | FF_MAGNITUDE),
	S(M, unit, "unit", "unit", T),
	FIELD(M, repeats, "repeats", "n", NULL, FT_U64, 0, T),
	/* the rate sampled within the passes (record.h): JSON, CSV and SQL only */
	FIELD(M, sample_mean, "sample_mean", "sample mean", NULL, FT_DBL, 2, 0),
	FIELD(M, sample_stdev, "sample_stdev", "sample stdev", NULL, FT_DBL, 2, 0),
	FIELD(M, sample_min, "sample_min", "sample min", NULL, FT_DBL, 2, 0),
	FIELD(M, samples, "samples", "samples", NULL, FT_U64, 0, 0),
	FIELD(M, cpu_pressure_pct, "cpu_pressure_pct", "cpu pressure", UNIT_PCT_TIME, FT_DBL, 1, 0),
	FIELD(M, cpu_busy_pct, "cpu_busy_pct", "cpu busy", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(M, ceiling, "ceiling", "ceiling", NULL, FT_DBL, 2, 0),
	FIELD(M, pass_spread, "pass_spread", "spread in the pass", NULL, FT_DBL, 3, 0),
	FIELD(M, cpu_wait_pct, "cpu_wait_pct", "cpu wait", UNIT_PCT_TIME, FT_DBL, 1, 0),
	FIELD(M, cpu_io_pct, "cpu_io_pct", "I/O cpu", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(M, higher_is_better, "higher_is_better", "higher is better", NULL, FT_BOOL, 0, 0),
};
#undef M

static const struct field verdict_fields[] = {
	FIELD_RENAMED(struct run_verdict, device_key, "device", "device_key", "device", NULL, FT_STR,
		      0, T),
	S(struct run_verdict, limiter, "limiter", "limited by", T),
	S(struct run_verdict, evidence, "evidence", "evidence", T),
	FIELD(struct run_verdict, share_pct, "share_pct", "of ceiling", "%", FT_DBL, 0, FF_CEILING_SHARE),
};

static const struct field note_fields[] = {
	S(struct run_note, text, "text", "note", T),
};

#define U struct run_unmeasured
static const struct field unmeasured_fields[] = {
	FIELD_RENAMED(U, key, "device", "key", "device", NULL, FT_STR, 0, T),
	S(U, kind, "kind", "kind", T),
	S(U, name, "name", "name", T),
	S(U, vid_pid, "vid_pid", "VID:PID", T),
	S(U, product, "product", "product", T),
	S(U, speed, "speed", "speed", T),
	S(U, controller, "controller", "controller", 0),
	S(U, via, "via", "via hubs", 0),
	S(U, why, "why", "why not measured", T),
};
#undef U
#undef S
#undef T

const struct record_desc run_info_desc = RECORD_DESC("run", info_fields);
const struct record_desc run_env_desc = RECORD_DESC("run_env", env_fields);
const struct record_desc run_device_desc = RECORD_DESC("run_device", device_fields);
const struct record_desc run_metric_desc = RECORD_DESC("run_metric", metric_fields);
const struct record_desc run_verdict_desc = RECORD_DESC("run_verdict", verdict_fields);
const struct record_desc run_note_desc = RECORD_DESC("run_note", note_fields);
const struct record_desc run_unmeasured_desc = RECORD_DESC("run_unmeasured", unmeasured_fields);

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

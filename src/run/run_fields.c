// SPDX-License-Identifier: MIT
/* The schema of `usbperf run`: one field table per struct (text, JSON, CSV, SQL). */
#include "model/record_fields.h"
#include "run/run.h"

#define T FF_TEXT
#define S(st, m, key, hdr, fl) FIELD(st, m, key, hdr, NULL, FT_STR, 0, fl)

static const struct field record_fields[] = {
	S(struct run_record, id, "id", "run", T),
	S(struct run_record, started_at, "started_at", "started", T),
	FIELD(struct run_record, duration_s, "duration_s", "took", "s", FT_DBL, 1, T),
	S(struct run_record, env.hostname, "hostname", "host", T),
	S(struct run_record, env.board, "board", "board", T),
	S(struct run_record, env.kernel, "kernel", "kernel", T),
	S(struct run_record, env.kernel_build, "kernel_build", "kernel build", 0),
	S(struct run_record, env.preempt, "preempt", "preemption", T),
	S(struct run_record, env.governor, "governor", "governor", T),
	S(struct run_record, env.usbperf_version, "usbperf_version", "usbperf", 0),
	S(struct run_record, env.machine, "machine", "machine", 0),
	S(struct run_record, command_line, "command_line", "command", 0),
};
const struct record_desc run_record_desc = RECORD_DESC("run", record_fields);

static const struct field plan_fields[] = {
	S(struct run_plan_item, device_key, "device", "device", T),
	S(struct run_plan_item, path, "target", "target", T),
	S(struct run_plan_item, kind, "kind", "kind", 0),
	FIELD(struct run_plan_item, read_only, "read_only", "read-only", NULL, FT_BOOL, 0, 0),
	S(struct run_plan_item, why, "why", "why", T),
};
const struct record_desc run_plan_desc = RECORD_DESC("plan", plan_fields);

static const struct field row_fields[] = {
	S(struct run_row, device, "device", "device", T | FF_SAME),
	S(struct run_row, target, "target", "target", 0),
	S(struct run_row, pass, "name", "pass", T),
	S(struct run_row, op, "op", "op", 0),
	FIELD(struct run_row, bs, "bs_bytes", "bs", NULL, FT_SIZE, 0, 0),
	FIELD(struct run_row, qd, "qd", "QD", NULL, FT_U64, 0, 0),
	FIELD(struct run_row, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 1, T | FF_BAR | FF_MAGNITUDE),
	FIELD(struct run_row, mb_s_sd, "mb_s_stdev", "sd", "MB/s", FT_DBL, 1, T | FF_PLUSMINUS),
	FIELD(struct run_row, mib_s, "mib_s", "rate", "MiB/s", FT_DBL, 1, T | FF_ALT | FF_MAGNITUDE),
	FIELD(struct run_row, ceiling_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1,
	      T | FF_OPTIONAL | FF_MAGNITUDE | FF_WIDE),
	FIELD(struct run_row, efficiency_pct, "efficiency_pct", "of ceil", "%", FT_DBL, 0,
	      T | FF_OPTIONAL | FF_CEILING_SHARE),
	FIELD(struct run_row, iops, "iops", "IOPS", NULL, FT_DBL, 0, T),
	FIELD(struct run_row, lat_p50_us, "lat_p50_us", "p50", "us", FT_DBL, 1, T | FF_MAGNITUDE | FF_WIDE),
	FIELD(struct run_row, lat_p90_us, "lat_p90_us", "p90", "us", FT_DBL, 1, FF_MAGNITUDE),
	FIELD(struct run_row, lat_p99_us, "lat_p99_us", "p99", "us", FT_DBL, 1, T | FF_MAGNITUDE),
	FIELD(struct run_row, self_cpu_pct, "self_cpu_pct", "cpu", UNIT_PCT_ONE_CPU, FT_DBL, 1,
	      T | FF_MAGNITUDE),
	FIELD(struct run_row, bw_min_mb_s, "bw_min_mb_s", "bw min", "MB/s", FT_DBL, 1, 0),
	FIELD(struct run_row, bw_stdev_mb_s, "bw_stdev_mb_s", "bw sd", "MB/s", FT_DBL, 1, 0),
	FIELD(struct run_row, bw_samples, "bw_samples", "samples", NULL, FT_U64, 0, 0),
	FIELD(struct run_row, util_pct, "util_pct", "util", "%", FT_DBL, 1, 0),
};
const struct record_desc run_row_desc = RECORD_DESC("result", row_fields);

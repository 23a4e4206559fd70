// SPDX-License-Identifier: MIT
/* The schema of disk results: one table per struct drives text, JSON, CSV (and SQL). */
#include "classes/disk/fields.h"

#define T FF_TEXT

static const struct field target_fields[] = {
	FIELD(struct disk_report, path, "target", "target", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, kind, "kind", "kind", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, io_path, "io_path", "tested", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, fs_type, "fs_type", "filesystem", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, mount_point, "mount_point", "mounted on", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, source, "source", "device", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, size, "size_bytes", "region", NULL, FT_SIZE, 0, T),
	FIELD(struct disk_report, time_limit_s, "time_limit_s", "time limit", "s per pass", FT_DBL,
	      1, T),
	FIELD(struct disk_report, min_time_s, "min_time_s", "min time", "s per pass", FT_DBL, 1, T),
	FIELD(struct disk_report, figures, "figures", "figures", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, cache_drop, "cache_drop", "cache drop", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, verify, "verify", "verify", NULL, FT_BOOL, 0, T),
	FIELD(struct disk_report, seed, "seed", "seed", NULL, FT_U64, 0, 0),
	FIELD(struct disk_report, verify_errors_total, "verify_errors", "verify errors", NULL,
	      FT_U64, 0, 0),
	FIELD(struct disk_report, interrupted, "interrupted", "interrupted", NULL, FT_BOOL, 0, 0),
	FIELD(struct disk_report, usb.device, "usb_device", "USB device", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, usb.vid_pid, "usb_id", "USB id", NULL, FT_STR, 0, 0),
	FIELD(struct disk_report, usb.product, "usb_product", "USB product", NULL, FT_STR, 0, 0),
	FIELD(struct disk_report, usb.driver, "usb_driver", "USB driver", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, usb.speed_name, "usb_speed", "USB speed", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, usb.ceiling_mb_s, "usb_ceiling_mb_s", "bus ceiling", "MB/s",
	      FT_DBL, 1, T | FF_OPTIONAL),
	FIELD(struct disk_report, usb.ceiling_basis, "usb_ceiling_basis", "ceiling basis", NULL,
	      FT_STR, 0, T),
	FIELD(struct disk_report, mmc.card, "mmc_card", "MMC card", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, mmc.kind, "mmc_kind", "MMC kind", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, mmc.product, "mmc_name", "MMC name", NULL, FT_STR, 0, 0),
	FIELD(struct disk_report, mmc.timing_name, "mmc_timing", "MMC timing", NULL, FT_STR, 0, T),
	FIELD(struct disk_report, mmc.ceiling_mb_s, "mmc_ceiling_mb_s", "MMC ceiling", "MB/s",
	      FT_DBL, 1, T | FF_OPTIONAL),
	FIELD(struct disk_report, mmc.nominal_mb_s, "mmc_nominal_mb_s", "MMC nominal", "MB/s",
	      FT_DBL, 1, T | FF_OPTIONAL),
	FIELD(struct disk_report, mmc.ceiling_basis, "mmc_ceiling_basis", "MMC basis", NULL,
	      FT_STR, 0, T),
};

static const struct field row_fields[] = {
	FIELD(struct disk_row, name, "name", "pass", NULL, FT_STR, 0, T),
	FIELD(struct disk_row, op, "op", "op", NULL, FT_STR, 0, T | FF_WIDE),
	FIELD(struct disk_row, access, "access", "access", NULL, FT_STR, 0, 0),
	FIELD(struct disk_row, mode, "mode", "mode", NULL, FT_STR, 0, T | FF_WIDE),
	FIELD(struct disk_row, engine, "engine", "engine", NULL, FT_STR, 0, T | FF_WIDE),
	FIELD(struct disk_row, bs, "bs_bytes", "bs", NULL, FT_SIZE, 0, 0),
	FIELD(struct disk_row, qd, "qd", "QD", NULL, FT_U64, 0, T),
	FIELD(struct disk_row, repeats, "repeats", "n", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, bytes, "bytes", "bytes", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, seconds, "seconds", "time", "s", FT_DBL, 3, T | FF_WIDE),
	FIELD(struct disk_row, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 1, T | FF_BAR),
	FIELD(struct disk_row, mb_s_sd, "mb_s_stdev", "sd", "MB/s", FT_DBL, 1, T | FF_PLUSMINUS),
	FIELD(struct disk_row, mb_s_min, "mb_s_min", "min", "MB/s", FT_DBL, 1, 0),
	FIELD(struct disk_row, mb_s_max, "mb_s_max", "max", "MB/s", FT_DBL, 1, 0),
	FIELD(struct disk_row, mib_s, "mib_s", "rate", "MiB/s", FT_DBL, 1, T | FF_ALT),
	FIELD(struct disk_row, ceiling_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1,
	      T | FF_OPTIONAL | FF_WIDE),
	FIELD(struct disk_row, efficiency_pct, "efficiency_pct", "of ceil", "%", FT_DBL, 0,
	      T | FF_OPTIONAL | FF_CEILING_SHARE),
	FIELD(struct disk_row, iops, "iops", "IOPS", NULL, FT_DBL, 0, T),
	FIELD(struct disk_row, iops_sd, "iops_stdev", "sd", NULL, FT_DBL, 0, 0),
	FIELD(struct disk_row, lat_mean_us, "lat_mean_us", "mean", "us", FT_DBL, 1, 0),
	FIELD(struct disk_row, bw_min_mb_s, "bw_min_mb_s", "bw min", "MB/s", FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, bw_max_mb_s, "bw_max_mb_s", "bw max", "MB/s", FT_DBL, 1, 0),
	FIELD(struct disk_row, bw_mean_mb_s, "bw_mean_mb_s", "bw mean", "MB/s", FT_DBL, 1, 0),
	FIELD(struct disk_row, bw_stdev_mb_s, "bw_stdev_mb_s", "bw sd", "MB/s", FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, bw_samples, "bw_samples", "samples", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, bw_interval_ms, "bw_interval_ms", "interval", "ms", FT_DBL, 3, 0),
	FIELD(struct disk_row, iops_min, "iops_min", "IOPS min", NULL, FT_DBL, 0, 0),
	FIELD(struct disk_row, iops_max, "iops_max", "IOPS max", NULL, FT_DBL, 0, 0),
	FIELD(struct disk_row, iops_mean, "iops_mean", "IOPS mean", NULL, FT_DBL, 0, 0),
	FIELD(struct disk_row, iops_sample_stdev, "iops_sample_stdev", "IOPS sd", NULL, FT_DBL, 0,
	      0),
	FIELD(struct disk_row, lat_p50_us, "lat_p50_us", "p50", "us", FT_DBL, 1, T),
	FIELD(struct disk_row, lat_p90_us, "lat_p90_us", "p90", "us", FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, lat_p99_us, "lat_p99_us", "p99", "us", FT_DBL, 1, T),
	FIELD(struct disk_row, lat_p99_sd_us, "lat_p99_stdev_us", "p99 sd", "us", FT_DBL, 1, 0),
	FIELD(struct disk_row, lat_p999_us, "lat_p999_us", "p99.9", "us", FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, lat_max_us, "lat_max_us", "max", "us", FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, util_pct, "util_pct", "util", "%", FT_DBL, 1, T | FF_OPTIONAL),
	FIELD(struct disk_row, util_sd, "util_stdev_pct", "util sd", "%", FT_DBL, 1, FF_OPTIONAL),
	FIELD(struct disk_row, cpu_user_pct, "cpu_user_pct", "usr", UNIT_PCT_ALL_CPUS, FT_DBL, 1, 0),
	FIELD(struct disk_row, cpu_sys_pct, "cpu_sys_pct", "sys", UNIT_PCT_ALL_CPUS, FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, cpu_iowait_pct, "cpu_iowait_pct", "iowait", UNIT_PCT_ALL_CPUS, FT_DBL, 1, T | FF_WIDE),
	FIELD(struct disk_row, cpu_irq_pct, "cpu_irq_pct", "irq", UNIT_PCT_ALL_CPUS, FT_DBL, 1, 0),
	FIELD(struct disk_row, self_cpu_pct, "self_cpu_pct", "self", UNIT_PCT_ONE_CPU, FT_DBL, 1, T),
	FIELD(struct disk_row, self_cpu_sd, "self_cpu_stdev_pct", "self sd", UNIT_PCT_ONE_CPU, FT_DBL,
	      1, 0),
	FIELD(struct disk_row, cpu_pressure_pct, "cpu_pressure_pct", "psi", UNIT_PCT_TIME, FT_DBL, 1, 0),
	FIELD(struct disk_row, cpu_busy_pct, "cpu_busy_pct", "busy", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(struct disk_row, cpu_wait_pct, "cpu_wait_pct", "cpu wait", UNIT_PCT_TIME, FT_DBL, 1, 0),
	FIELD(struct disk_row, cpu_io_pct, "cpu_io_pct", "I/O cpu", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(struct disk_row, cpu_s_per_gb, "self_cpu_s_per_gb", "cpu/GB", "s", FT_DBL, 3, 0),
	/* the CPU clock through the pass: shown where cpufreq is (boards), not on a VM */
	FIELD(struct disk_row, cpu_mhz_mean, "cpu_mhz", "clock", "MHz", FT_DBL, 0, T | FF_OPTIONAL),
	FIELD(struct disk_row, cpu_mhz_min, "cpu_mhz_min", "clock min", "MHz", FT_DBL, 0, 0),
	FIELD(struct disk_row, cpu_mhz_max, "cpu_mhz_max", "clock max", "MHz", FT_DBL, 0, 0),
	FIELD(struct disk_row, cpu_clock_pct, "cpu_clock_pct", "of top", UNIT_PCT_CLOCK, FT_DBL, 0,
	      T | FF_OPTIONAL),
	/* interrupt placement (issue 20.3): the controller's lines, each CPU's irq+softirq time */
	FIELD(struct disk_row, irq.count, "irq_count", "IRQs", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, irq_per_cpu, "irq_per_cpu", "IRQs per CPU", NULL, FT_STR, 0, 0),
	FIELD(struct disk_row, irq.irq_cpu, "irq_cpu", "IRQ CPU", NULL, FT_INT, 0, 0),
	FIELD(struct disk_row, irq.irq_cpu_pct, "irq_cpu_pct", "on it", UNIT_PCT_IRQS, FT_DBL, 0, 0),
	FIELD(struct disk_row, irq.busy_cpu, "irq_share_cpu", "irq+soft CPU", NULL, FT_INT, 0, 0),
	FIELD(struct disk_row, irq.busy_share_pct, "irq_share_pct", "irq+soft", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(struct disk_row, irq.others_busy_pct, "others_busy_pct", "others busy", UNIT_PCT_ONE_CPU, FT_DBL, 1,
	      0),
	FIELD(struct disk_row, irq.io_cpu, "io_cpu", "I/O CPU", NULL, FT_INT, 0, 0),
	FIELD(struct disk_row, cached_pct, "cached_pct", "cached", "%", FT_DBL, 1, 0),
	FIELD(struct disk_row, verify_errors, "verify_errors", "bad", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, status, "status", "status", NULL, FT_STR, 0, 0),
	/* on the wire: --monitor (usbmon), over all repeats of the pass */
	FIELD(struct disk_row, wire_mb_s, "wire_mb_s", "wire", "MB/s", FT_DBL, 1, T | FF_OPTIONAL),
	FIELD(struct disk_row, urb_size, "urb_size_bytes", "URB", NULL, FT_SIZE, 0, T | FF_OPTIONAL),
	FIELD(struct disk_row, inflight_mean, "inflight_mean", "in flight", NULL, FT_DBL, 2,
	      T | FF_OPTIONAL),
	FIELD(struct disk_row, inflight_max, "inflight_max", "in flight max", NULL, FT_DBL, 0, 0),
	FIELD(struct disk_row, data_inflight_max, "data_inflight_max", "data URBs in flight max",
	      NULL, FT_DBL, 0, 0),
	FIELD(struct disk_row, busy_pct, "busy_pct", "bus busy", "%", FT_DBL, 1, T | FF_OPTIONAL),
	FIELD(struct disk_row, urb_lat_p50_us, "urb_lat_p50_us", "URB p50", "us", FT_DBL, 1, 0),
	FIELD(struct disk_row, urb_lat_p99_us, "urb_lat_p99_us", "URB p99", "us", FT_DBL, 1,
	      T | FF_OPTIONAL),
	FIELD(struct disk_row, urb_lat_max_us, "urb_lat_max_us", "URB max", "us", FT_DBL, 1, 0),
	FIELD(struct disk_row, wire_bytes, "wire_bytes", "wire bytes", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, urbs, "urbs", "URBs", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, usb_errors, "usb_errors", "USB errors", NULL, FT_U64, 0,
	      T | FF_OPTIONAL),
	FIELD(struct disk_row, bot_commands, "bot_commands", "BOT commands", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, protocol_bytes, "protocol_bytes", "protocol bytes", NULL, FT_U64, 0, 0),
	FIELD(struct disk_row, protocol_pct, "protocol_pct", "protocol", "%", FT_DBL, 3, 0),
	FIELD(struct disk_row, wire_dropped, "wire_dropped", "dropped", NULL, FT_U64, 0, 0),
};

static const struct field verr_fields[] = {
	FIELD(struct verify_error, offset, "offset", "offset", NULL, FT_U64, 0, T),
	FIELD(struct verify_error, fault, "fault", "fault", NULL, FT_STR, 0, T),
	FIELD(struct verify_error, pass, "name", "found by", NULL, FT_STR, 0, T),
};

static const struct field sample_fields[] = {
	FIELD(struct disk_sample, pass, "name", "pass", NULL, FT_STR, 0, 0),
	FIELD(struct disk_sample, op, "op", "op", NULL, FT_STR, 0, 0),
	FIELD(struct disk_sample, mode, "mode", "mode", NULL, FT_STR, 0, 0),
	FIELD(struct disk_sample, repeat, "repeat", "repeat", NULL, FT_U64, 0, 0),
	FIELD(struct disk_sample, t_s, "t_s", "at", "s", FT_DBL, 4, 0),
	FIELD(struct disk_sample, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 2, 0),
	FIELD(struct disk_sample, iops, "iops", "IOPS", NULL, FT_DBL, 1, 0),
	FIELD(struct disk_sample, ramp, "ramp", "ramp", NULL, FT_BOOL, 0, 0),
};

static const struct field pair_fields[] = {
	FIELD(struct disk_pair_row, name, "name", "test", NULL, FT_STR, 0, T),
	FIELD(struct disk_pair_row, read_mb_s, "read_mb_s", "read", "MB/s", FT_DBL, 1, T),
	FIELD(struct disk_pair_row, write_mb_s, "write_mb_s", "write", "MB/s", FT_DBL, 1, T),
	FIELD(struct disk_pair_row, read_iops, "read_iops", "read", "IOPS", FT_DBL, 0, T),
	FIELD(struct disk_pair_row, write_iops, "write_iops", "write", "IOPS", FT_DBL, 0, T),
};

const struct record_desc disk_pair_desc = RECORD_DESC("disk_pair", pair_fields);
const struct record_desc disk_target_desc = RECORD_DESC("disk_target", target_fields);
const struct record_desc disk_row_desc = RECORD_DESC("disk_result", row_fields);
const struct record_desc disk_verr_desc = RECORD_DESC("verify_error", verr_fields);
const struct record_desc disk_sample_desc = RECORD_DESC("disk_sample", sample_fields);

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

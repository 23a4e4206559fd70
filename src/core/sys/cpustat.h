/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * CPU use during a measurement: system-wide from /proc/stat (all CPUs, so
 * work the kernel does for us in kworkers and interrupts shows up) and
 * usbperf's own from getrusage.
 */
#include <stdint.h>

struct cpu_times {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct cpu_sample {
	struct cpu_times sys;
	double self_user_s, self_sys_s; /* usbperf's own CPU time */
	double wall_s;			/* CLOCK_MONOTONIC */
};

/* Percent of all CPUs' time over an interval; self_pct is of one CPU. */
struct cpu_use {
	double user_pct, sys_pct, iowait_pct, irq_pct;
	double self_pct;
	double self_s;
};

/* Parse the aggregate "cpu " line of /proc/stat text. */
int cpustat_parse(const char *text, struct cpu_times *ret);
int cpu_sample_take(struct cpu_sample *ret);
void cpu_use_between(const struct cpu_sample *a, const struct cpu_sample *b, struct cpu_use *ret);

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
	double psi_some_s;		/* /proc/pressure/cpu "some" total; NaN without PSI */
	/* the calling thread's time runnable but waiting for a CPU (schedstat); NaN unknown */
	double self_wait_s;
};

/* Percent of all CPUs' time over an interval; self_pct is of one CPU. */
struct cpu_use {
	double user_pct, sys_pct, iowait_pct, irq_pct;
	double self_pct;
	double self_s;
	/*
	 * CPU pressure: the share of the wall time in which some runnable task
	 * waited for a CPU (PSI "some"). Another program competing for the CPUs
	 * shows here; a figure measured under it may be the contention's, and
	 * from one run to the next it moves with that load. NaN without PSI.
	 */
	double pressure_pct;
	/*
	 * The whole machine's busy CPU time (user, system, interrupts) per
	 * second of wall time, in % of one CPU: 100 is one CPU kept busy. A
	 * figure that needs most of a CPU (a loop device in RAM, small requests
	 * on a slow core) is the CPU's, and moves with its frequency and where
	 * the work lands from one run to the next.
	 */
	double busy_pct;
	/*
	 * The share of the wall time the calling thread (the one issuing the
	 * I/O) spent runnable, waiting for a CPU (/proc/thread-self/schedstat's
	 * run_delay). A pass whose thread mostly slept on its device was not
	 * held back by a busy CPU, whatever the machine's load; one that waited
	 * for a CPU a good share of its time was. NaN when not known.
	 */
	double wait_pct;
	/*
	 * The CPU the I/O took, per second of wall time, in % of one CPU:
	 * usbperf's own user time plus all of the kernel's (system, interrupts:
	 * the system calls, kworkers and handlers that move the data). Another
	 * program's user time is not in it (a CPU hog next to the pass), its
	 * system time is.
	 */
	double io_pct;
};

/* PSI "some" (% of a pass's time) past which its CPUs count as contended: disk's note, compare */
#define CPU_CONTENDED_PCT 10.0

/* The "some" line's total (microseconds) of /proc/pressure/cpu text, in seconds. */
int psi_parse_some(const char *text, double *ret_s);
/* The second field of /proc/PID/schedstat text (run_delay, ns), in seconds. */
int schedstat_parse_delay(const char *text, double *ret_s);
/* Parse the aggregate "cpu " line of /proc/stat text. */
int cpustat_parse(const char *text, struct cpu_times *ret);
int cpu_sample_take(struct cpu_sample *ret);
/* usbperf's own CPU time so far, user and system, in seconds; NaN when getrusage fails */
double cpu_self_s(void);
void cpu_use_between(const struct cpu_sample *a, const struct cpu_sample *b, struct cpu_use *ret);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What the machine did around one pass, for every class (issue 20.2, 20.3):
 * the CPU clock (platform/sys/freqwatch.h) and the interrupt placement
 * (platform/sys/irqwatch.h), sampled by one thread from passwatch_start() to
 * passwatch_stop(). Call both from the thread that does the pass's I/O: it
 * is the one whose CPU is sampled. Engines and run classes call this, never
 * freqwatch or irqwatch on their own.
 */
#include "platform/sys/freqwatch.h"
#include "platform/sys/irqwatch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define PASSWATCH_INTERVAL_MS 100 /* ten samples a second */

struct pass_sys {
	/*
	 * The CPU clock: the policy that ran furthest below its top under a
	 * scaling governor, else the first; kHz, NaN without cpufreq.
	 */
	double clock_min_khz, clock_mean_khz, clock_max_khz, clock_top_khz;
	char clock_governor[32]; /* "" without cpufreq */
	double clock_seconds;	 /* folding repeats: the time the mean covers */
	/* the same in MHz for the field tables (PASS_SYS_FIELDS), NaN without cpufreq */
	double cpu_mhz_min, cpu_mhz, cpu_mhz_max, cpu_clock_pct;
	const char *governor; /* clock_governor for the process's life; NULL without cpufreq */
	struct irq_use irq;
};

struct passwatch {
	struct freqwatch fw;
	struct irq_snapshot before;
	char *lines;
	int tid;
	uint64_t cpu_hits[IRQWATCH_MAX_CPUS], cpu_samples;
	pthread_t thread;
	bool running;
	atomic_bool stop;
};

/* irq_lines: the device's controller's lines ("24,25"), NULL if not known. 0 or -errno */
int passwatch_start(struct passwatch *w, const char *irq_lines);
/* the pass's figures into *ret (seconds: its time, for folding); safe after a failed start */
void passwatch_stop(struct passwatch *w, double seconds, struct pass_sys *ret);

/*
 * The pass's figures as columns of its class's field table: the clock and
 * the interrupt placement, the same keys in every command's JSON and CSV.
 */
#define PASS_SYS_FIELDS(st, m)                                                                     \
	FIELD(st, m.cpu_mhz, "cpu_mhz", "clock", "MHz", FT_DBL, 0, 0),                             \
	    FIELD(st, m.cpu_mhz_min, "cpu_mhz_min", "clock min", "MHz", FT_DBL, 0, 0),             \
	    FIELD(st, m.cpu_mhz_max, "cpu_mhz_max", "clock max", "MHz", FT_DBL, 0, 0),             \
	    FIELD(st, m.cpu_clock_pct, "cpu_clock_pct", "of top", UNIT_PCT_CLOCK, FT_DBL, 0, 0),              \
	    FIELD(st, m.governor, "cpu_governor", "governor", NULL, FT_STR, 0, 0),                 \
	    FIELD(st, m.irq.count, "irq_count", "IRQs", NULL, FT_U64, 0, 0),                       \
	    FIELD(st, m.irq.irq_cpu, "irq_cpu", "IRQ CPU", NULL, FT_INT, 0, 0),                    \
	    FIELD(st, m.irq.irq_cpu_pct, "irq_cpu_pct", "on it", UNIT_PCT_IRQS, FT_DBL, 0, 0),               \
	    FIELD(st, m.irq.busy_cpu, "irq_share_cpu", "irq+soft CPU", NULL, FT_INT, 0, 0),        \
	    FIELD(st, m.irq.busy_share_pct, "irq_share_pct", "irq+soft", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),       \
	    FIELD(st, m.irq.others_busy_pct, "others_busy_pct", "others busy", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0), \
	    FIELD(st, m.irq.io_cpu, "io_cpu", "I/O CPU", NULL, FT_INT, 0, 0)

/* nothing known */
void pass_sys_init(struct pass_sys *s);
/* a repeat into the sum: min and max of the clock, its mean weighed by time; interrupts add up */
void pass_sys_fold(struct pass_sys *sum, const struct pass_sys *o);
/*
 * The clock in MHz (min, mean, max) and the mean's share of the top (%,
 * NaN if the top is unknown); false without cpufreq.
 */
bool pass_sys_clock(const struct pass_sys *s, double *ret_min, double *ret_mean, double *ret_max,
		    double *ret_pct);

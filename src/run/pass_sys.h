/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What the machine did around each pass (platform/sys/passwatch.h), in run's
 * record for every class: the CPU clock and the interrupt placement as
 * metric rows under the class's test, named by one vocabulary every class
 * shares, and the findings read from those rows alone.
 */
#include "run/class.h"
#include "platform/sys/passwatch.h"

struct run_record;
struct run_result;

/* the shared vocabulary: key, or for per-CPU counts the prefix ("irq_count_cpu3"); NULL if none */
const struct class_metric *pass_sys_metric(const char *key);

/* the pass's clock and interrupt rows for the device (nothing for what is unknown) */
void run_add_pass_sys(struct run_record *rec, const struct measure_class *c, const char *device_key,
		      const char *pass, const struct pass_sys *s, uint64_t repeats);

/*
 * Findings over those rows: a core saturated with interrupt work while the
 * others idled (run.irq_saturated); usbperf's I/O thread on the core that
 * took the controller's interrupts (run.irq_same_cpu); a pass of a class
 * without its own clock rule (class.h own_clock_rule) at a low clock under a
 * scaling governor (run.cpu_clock_low); CPU figures above what the CPUs can
 * give (run_cpu_time_findings).
 */
void run_pass_sys_findings(struct run_result *r);
/*
 * A figure of this machine's in % of one CPU above what its NCPUS can give
 * (usbperf's own CPU time, the system's busy time): the CPU accounting and
 * the wall clock disagree, and the run says so (run.cpu_time_above_wall);
 * its verdict then names no CPU limit from those figures.
 */
void run_cpu_time_findings(struct run_result *r, unsigned ncpus);

/*
 * One core's irq+softirq share (of its time over the pass, /proc/stat) past
 * which it counts as saturated, and the others' busy share under which they
 * count as idle. 60 %: above it the core has under 40 % left for the
 * process-context half of the same I/O (the submitting thread, the block or
 * socket layer's completion work, ksoftirqd, to which the kernel defers
 * softirqs that keep re-raising), so a transfer's rate follows that core,
 * not the bus; below half, the core is busy but not the limit. 30 %: the
 * others had most of their time free, so moving the lines would help; when
 * every core is busy the machine is CPU-bound and the rule says nothing.
 */
#define IRQ_SATURATED_PCT 60.0
#define IRQ_OTHERS_IDLE_PCT 30.0
/* below this share of the hardware's top, a pass's clock followed the load, not the work */
#define PASS_CLOCK_LOW_PCT 90.0
/* usbperf's own CPU, % of one core, past which a pass was CPU-bound */
#define PASS_CPU_SATURATED_PCT 85.0
/* fewer interrupts than this in a pass say nothing about where they land */
#define IRQ_MIN_COUNT 100

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Interrupt placement during a pass (issue 20.3): the per-CPU counts of the
 * interrupt lines of the controller serving the measured device
 * (/proc/interrupts), each CPU's time in hard and soft interrupt context
 * (/proc/stat "cpuN" lines) and its I/O softirqs (/proc/softirqs NET_RX,
 * BLOCK, TASKLET), taken before and after the pass; the deltas say which
 * CPUs serviced the device and whether one of them was saturated with that
 * work while the others idled. Paths go through the sysroot, so recorded
 * files stand for a board.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPUs numbered from 0 to this - 1 are kept one by one; a CPU above is left out */
#define IRQWATCH_MAX_CPUS 64
/* a count that is not known (no line of the controller found) */
#define IRQ_UNKNOWN UINT64_MAX
/* a CPU that is not known (the field tables' FIELD_INT_UNKNOWN) */
#define IRQ_CPU_UNKNOWN INT64_MIN

struct irq_snapshot {
	unsigned ncpu;				 /* 1 + the highest CPU number seen */
	bool have_lines;			 /* a line of the list was in /proc/interrupts */
	bool have_stat;				 /* /proc/stat had per-CPU lines */
	uint64_t line[IRQWATCH_MAX_CPUS];	 /* the lines' interrupts, summed, per CPU */
	uint64_t intr_ticks[IRQWATCH_MAX_CPUS];	 /* irq + softirq time, USER_HZ ticks */
	uint64_t idle_ticks[IRQWATCH_MAX_CPUS];	 /* idle + iowait */
	uint64_t total_ticks[IRQWATCH_MAX_CPUS]; /* all eight fields */
	uint64_t softirq[IRQWATCH_MAX_CPUS];	 /* NET_RX + BLOCK + TASKLET raised */
};

/* what a pass did to the interrupts: the deltas of two snapshots */
struct irq_use {
	uint64_t count; /* the lines' interrupts on every CPU; IRQ_UNKNOWN */
	unsigned ncpu;
	uint64_t per_cpu[IRQWATCH_MAX_CPUS]; /* the lines' interrupts per CPU */
	int64_t irq_cpu;		     /* the CPU that took most of them, or unknown */
	double irq_cpu_pct;		     /* its share of them, NaN */
	/* the CPU with the most time in irq + softirq context, its share of its time */
	int64_t busy_cpu;
	double busy_share_pct;
	double others_busy_pct; /* the other CPUs' mean non-idle share, NaN with one CPU */
	uint64_t busy_softirq;	/* NET_RX + BLOCK + TASKLET raised on busy_cpu */
	int64_t io_cpu;		/* where the measuring thread ran most, or unknown */
	double io_cpu_pct;	/* its share of the samples */
};

/*
 * Parsers of the three files' text. lines: the IRQ numbers to sum ("24,25"),
 * NULL or "" for none. Each fills its part of *ret (the others untouched);
 * 0, or -EINVAL for text that is not that file.
 */
int irq_parse_interrupts(const char *text, const char *lines, struct irq_snapshot *ret);
int irq_parse_stat(const char *text, struct irq_snapshot *ret);
int irq_parse_softirqs(const char *text, struct irq_snapshot *ret);

/* all three, read now (a file that cannot be read leaves its part empty); 0 or -errno */
int irq_snapshot_take(const char *lines, struct irq_snapshot *ret);

/* b - a; io_cpu/io_pct from the sampled thread (IRQ_CPU_UNKNOWN, NaN unknown) */
void irq_use_between(const struct irq_snapshot *a, const struct irq_snapshot *b, int64_t io_cpu,
		     double io_pct, struct irq_use *ret);
/* the lines' counts per CPU that took any: "cpu0 812, cpu1 3"; NULL if unknown (caller frees) */
char *irq_use_per_cpu(const struct irq_use *u);
/* an empty use: nothing known */
void irq_use_unknown(struct irq_use *ret);
/* repeats of one pass into one: counts add up, the busiest share is the highest seen */
void irq_use_fold(struct irq_use *sum, const struct irq_use *o);

/*
 * The interrupt lines of a device: those in /proc/interrupts whose action
 * names hint as a word ("eth0", "usb1" in "xhci-hcd:usb1"), else its own or
 * its nearest ancestor's (the PCI parent) sysfs `irq` and `msi_irqs/`,
 * from the sysfs directory dev ("/sys/class/net/eth0/device"). "24,25"
 * into ret (caller frees); -ENOENT if none.
 */
int irq_lines_of_device(const char *dev, const char *hint, char **ret);

/*
 * The lines of the controller a sysfs device hangs off ("/sys/class/net/eth0",
 * "/sys/bus/usb/devices/2-1"): the USB host controller above its root hub,
 * the MMC host, else the nearest ancestor with lines, else those named hint.
 * -ENOENT for a device with none (loop, ram, dm) or none found.
 */
int irq_lines_of_sysfs(const char *path, const char *hint, char **ret);
/* the same for a block device by number, and for a character device node ("/dev/video0") */
int irq_lines_of_block(unsigned major, unsigned minor, char **ret);
int irq_lines_of_node(const char *node, char **ret);
int irq_lines_of_fd(int fd, char **ret);

/*
 * Which CPU a thread of this process last ran on: /proc/self/task/TID/stat
 * field 39 (the real /proc, never the sysroot: it is this process). -1 if
 * unknown.
 */
int irq_thread_cpu(int tid);

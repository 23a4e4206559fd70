/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Two runs side by side: every metric of A (the reference: an older run or
 * a baseline) matched with B's by (device identity, test, name, metric),
 * with a verdict that only counts a difference when it is beyond both the
 * measured spread and a relative threshold. Pure: no I/O, no printing.
 *
 * A device is the same device in both runs when VID:PID and serial match
 * (it may have moved to another port), else when the port path matches,
 * else by its key ("host").
 *
 * The noise model. Each side's spread is the standard deviation of its
 * figure from run to run, as well as one run can tell (compare_spread):
 *   1. the repeats, when the pass was repeated (repeats > 1, stdev known):
 *      how far the figure moved from pass to pass; over sqrt(repeats), the
 *      figure being their mean, but never under the spread within the
 *      passes (2.), which guards against three repeats that agree by chance;
 *   2. else the spread within the pass (pass_spread, classes/disk/batch.h): the
 *      pass cut into batches (a sixth of its minimum time: about 170 ms with run's
 *      defaults, classes/disk/batch.h), the batches' robust scatter
 *      (median absolute deviation) over sqrt(batches), and how far the whole
 *      pass's figure lies from the median batch (a ramp, a burst the next
 *      pass need not repeat). Robust to bursty passes: a blkio throttle
 *      meters in slices (its 100 ms samples swing 0 to 2x the rate while its
 *      batches of 200 ms agree within a few %), a cache fills;
 *   3. else, for a record without batches (older runs, classes that do not
 *      batch), the rate sampled within the pass when it has at least
 *      COMPARE_MIN_SAMPLES samples and held steady (their standard deviation
 *      at most COMPARE_MAX_SAMPLE_CV of their mean): that standard deviation;
 *   4. else unknown (one short pass, not sampled).
 * A share of time (CPU use, device busy, in %) has a spread of at least
 * COMPARE_SHARE_FLOOR of it (and COMPARE_SHARE_FLOOR_PTS points), whichever
 * way it came: what one pass costs moves from run to run with placement.
 * A figure that leans on the CPU is another matter: it moves with what else
 * runs and with the clock, which neither its batches nor its repeats show.
 * How far is judged on the pass's own evidence, not the machine's load (a
 * throttled disk that reads 40 MB/s with 1 % of a CPU is not slowed by two
 * CPU hogs beside it):
 *   - its I/O thread's wait for a CPU (cpu_wait_pct, schedstat's run_delay,
 *     a share of the pass). A rate can only lose to it, anything from
 *     nothing (a device that makes up for a late request: a blkio throttle
 *     meters bytes per slice, a deep queue keeps the device busy) to
 *     COMPARE_CPU_WAIT_LOSS times its share (a device left idle while the
 *     thread waits, and a kernel thread on the path, a loop device's worker
 *     or usb-storage's, that waits as long and which this thread's schedstat
 *     does not show). The same device does the same in both runs:
 *     compare_sides judges the two rates as measured and as if the waits cost
 *     all they can, and a verdict stands only where it holds at both. Two
 *     runs beside the same two hogs wait alike and are judged; a drop
 *     measured on a run that waited less than the one before is a drop.
 *     Past COMPARE_MAX_WEIGHED_WAIT_PCT the waits are the pass (a kernel
 *     thread doing the copying starves beyond any such bound: a loop device
 *     in RAM beside busy CPUs, 0.6 to 20 MB/s at random 4K from run to run
 *     with its thread waiting 38 to 74 %): no spread. Whatever else a pass
 *     measures can move either way with contention (a throttle answers a
 *     late request sooner, a starved worker keeps one in flight longer, a
 *     busy CPU costs more per request: a 1M pass's CPU use went from 2.5 to
 *     18 % of a CPU beside two hogs in the lab's guest): no spread past
 *     COMPARE_MAX_CPU_WAIT_PCT;
 *   - the I/O took more than COMPARE_MAX_CPU_BUSY_PCT of one CPU
 *     (cpu_io_pct: usbperf's user time and the machine's system time), its
 *     thread waiting no longer than COMPARE_MAX_WEIGHED_WAIT_PCT: the figure
 *     is the CPU's, steady within the pass and moving with the clock and
 *     where the work lands from run to run (a loop device in RAM, random 4K
 *     at QD1, steady to 2-8 % within each pass, 150 to 189 MB/s over 8 runs
 *     on a quiet 2-core machine): only repeats give its spread, and at least
 *     COMPARE_CPU_BOUND_FLOOR of it, repeats back to back sharing what moves
 *     it between runs. Contended or
 *     not: beside two CPU hogs such a pass's thread may barely wait and
 *     still lose (4K reads from a loop device in RAM, 524 then 377 MB/s in
 *     two unchanged runs, CI 2026-12-06), to what its schedstat does not
 *     show: a hyperthread sibling, the shared cache, the loop worker's
 *     waits, the hypervisor. Others' system time counts in cpu_io_pct, so on
 *     a machine busy in its kernel an I/O-bound pass may be taken for such a
 *     figure: left unjudged, never misjudged.
 * A record without that evidence (older runs) is judged as before: no
 * spread at all from a pass whose PSI "some" was over
 * COMPARE_MAX_CPU_PRESSURE_PCT, none from the samples of one that kept the
 * machine's CPUs busy past COMPARE_MAX_CPU_BUSY_PCT of one CPU.
 * A difference counts (better or worse) only when it is beyond the
 * threshold AND beyond COMPARE_SPREAD_K x sqrt(sd_a^2 + sd_b^2). Beyond the
 * threshold and within that it is noise. Beyond the threshold with either
 * spread unknown it is "spread unknown": the change may be noise or not, so
 * it is no regression (compare exits 0 on it; check --baseline does not
 * fail on it), and the comparison says why and what to do. Where what kept
 * it from being judged is other work on the CPUs (a side's why is one of
 * compare_why_contended's, or the waits could explain the change), the
 * verdict is "contended" instead: a figure that leans on the CPU, excused
 * by the contention it was measured beside, whose remedy is a quieter
 * machine, not repeats. Neither is a regression. Within the threshold it is
 * the same whatever the spread.
 */
#include "model/record.h"
#include "platform/sys/cpustat.h"
#include "model/field.h"

struct strbuf;

enum compare_verdict {
	VERDICT_SAME,  /* within the threshold */
	VERDICT_NOISE, /* beyond the threshold, within the spread of both runs */
	VERDICT_BETTER,
	VERDICT_WORSE,		/* a regression */
	VERDICT_UNKNOWN,	/* a value is unknown, or the units differ */
	VERDICT_MISSING,	/* in A, not in B */
	VERDICT_NEW,		/* in B, not in A */
	VERDICT_SPREAD_UNKNOWN, /* beyond the threshold, a side's spread unknown */
	VERDICT_CONTENDED, /* beyond the threshold, a figure of the CPU's beside other work */
};

const char *compare_verdict_name(enum compare_verdict v);

/* past the threshold and not judged (listed with why and what to do): no regression */
static inline bool compare_not_judged(enum compare_verdict v)
{
	return v == VERDICT_SPREAD_UNKNOWN || v == VERDICT_CONTENDED;
}

#define COMPARE_DEFAULT_THRESHOLD_PCT 5.0
/* how many standard deviations of the difference count as noise */
#define COMPARE_SPREAD_K 2.0
/* fewer interval samples than this say too little about a pass's spread */
#define COMPARE_MIN_SAMPLES 5
/* PSI "some" up to this share of a pass: the machine was not contended */
#define COMPARE_MAX_CPU_PRESSURE_PCT CPU_CONTENDED_PCT
/* a figure no wait can be weighed for has no spread past this wait (% of the pass) */
#define COMPARE_MAX_CPU_WAIT_PCT CPU_CONTENDED_PCT
/* past this wait (% of the pass) not even a rate's loss to the CPUs can be bounded */
#define COMPARE_MAX_WEIGHED_WAIT_PCT 15.0
/*
 * the most a figure may have lost to waits, as a multiple of its I/O thread's
 * wait share: the thread's own waits, and those of a kernel worker on the
 * path (a loop device's, usb-storage's) and of the completion, which its
 * schedstat does not show: at QD1 from a loop device in RAM beside busy CPUs,
 * 18.8 then 7.6 MB/s in unchanged runs whose threads waited 20 and 24 % (2.5
 * times; CI, 2026-12-06). Past COMPARE_MAX_WEIGHED_WAIT_PCT (45 % lost) not
 * bounded at all
 */
#define COMPARE_CPU_WAIT_LOSS 3.0
/* an uncontended pass whose I/O took more than this (% of one CPU): only repeats give one */
#define COMPARE_MAX_CPU_BUSY_PCT 50.0
/*
 * ... and its repeats, back to back, share the clock and the placement that
 * move such a figure from run to run, so their spread is at least this share
 * of it: a loop device in RAM, random 4K at QD1, 150 to 189 MB/s over 8 runs
 * on a quiet 2-core machine, each pass steady to 2-8 %; in the lab's
 * emulated 2-vCPU guest (its I/O at 64-79 % of a CPU), 4K reads behind an
 * unchanged throttle went 38.9 then 20.5 MB/s between runs whose three
 * repeats each agreed within 1.2 % (CI, 2026-12-06), more than any floor
 * that would still judge a real machine's CPU-bound figure
 */
#define COMPARE_CPU_BOUND_FLOOR 0.10
/*
 * A share of time a pass took (its CPU use, the device's busy time) moves from
 * run to run with where the work lands and the clock more than within a pass
 * (4K at QD1 moved 20 % with placement alone, bench/README's disk-vs-fio): its
 * spread is at least this share of it, and at least COMPARE_SHARE_FLOOR_PTS points
 */
#define COMPARE_SHARE_FLOOR 0.10
#define COMPARE_SHARE_FLOOR_PTS 1.0
/*
 * A figure of the CPU (what a pass costs in CPU: a "%" share, lower better;
 * or any figure of a pass whose I/O kept more than COMPARE_MAX_CPU_BUSY_PCT
 * of a CPU busy) while other work kept more than this (% of one CPU) busy
 * beside it moves with where the scheduler puts the pass's work beside that
 * load, its thread waiting or not, and it keeps where it landed for seconds:
 * 4K at QD32 behind a throttle beside two hogs, its thread waiting 6-8 %, CPU
 * use -49 % and +110 % between unchanged runs; 4K at QD1, 10 % against 50 %
 * of a CPU in runs a second apart, each steady through its pass, the cost in
 * the kernel waking the loop device's worker on the other CPU (a VM exit per
 * I/O in a paravirtual guest: perf, 2026-12-06), and +307 % between
 * unchanged runs whose three repeats each agreed. Not judged beside other
 * work at all, repeats or not; the rates of an I/O-bound pass are.
 */
#define COMPARE_MAX_OTHERS_BUSY_PCT 50.0
/*
 * A tail of a pass (a p99 latency, the longest interval: class_metric.tail)
 * is set by its few slowest events, and which of them a pass meets (a
 * throttle's slice, a timer, a flush) moves from run to run more than its
 * batches show: 4K reads at QD32 through an unchanged blkio throttle, p99
 * 8 and 10 % apart in unchanged runs beside two CPU hogs, each pass's
 * batches within 2 % (CI, 2026-12-06); at QD1 on a quiet machine 17 to 28 %
 * apart, one pair of six past a tenth's bound (bench/compare-noise,
 * 2026-12-06): its spread is at least this share of it
 */
#define COMPARE_TAIL_FLOOR 0.15
/*
 * ... and a tail under COMPARE_SHORT_TAIL_US (every tail is in us) is within
 * reach of the CPU's own wake-up paths (a sleeping thread woken, an IPI to
 * the CPU a kernel worker runs on, a VM exit, a timer), which move with where
 * the scheduler put the work and keep it for seconds, so a run's repeats
 * agree and runs do not: 4K reads at QD1 behind an unchanged 40 MiB/s
 * throttle on a quiet 2-vCPU machine, p99 of seq-read 4K over 10 unchanged
 * runs 58 to 163 us (mean 96, standard deviation 38: 40 %), each run's three
 * repeats 2 to 37 us apart; 5 of 6 unchanged pairs were called worse on
 * COMPARE_TAIL_FLOOR, 1 of 6 on a floor of 30 % (bench/compare-noise,
 * 2026-12-06). Its spread is at least this share of it, the spread measured
 * between runs: a change up to about 5 times is noise, a larger one is
 * judged. A tail of milliseconds (a throttle's waits, a device's flush)
 * keeps COMPARE_TAIL_FLOOR
 */
#define COMPARE_SHORT_TAIL_US 1000.0
#define COMPARE_SHORT_TAIL_FLOOR 0.40
/*
 * ... and a tail over repeats is as unsure as one repeat's: the slowest 1 %
 * of three short repeats is set by as few events as one's, so their spread
 * is not divided by their number (seq-read 64K behind a 40 MiB/s throttle
 * beside two hogs, three repeats of a second each: p99 from 48 to 95 ms
 * between unchanged runs, repeats within one run 2.4 ms apart by chance;
 * bench/compare-noise, 2026-12-06)
 */
/*
 * Beside other work (more than COMPARE_MAX_OTHERS_BUSY_PCT of a CPU) a tail
 * is not judged at all, repeats or not ("contended"): at QD1 behind an
 * unchanged throttle beside two CPU hogs, the thread at nice -10 and waiting
 * 3-4 %, p99 was 60 us in one run and 8 ms in the next (a full test run,
 * 2026-12-06): the throttle's slow requests crossed the slowest 1 % in one
 * and not the other; and the p99 of seq-read 64K from three repeats each,
 * +98 % and +138 % between unchanged runs (bench/compare-noise; CI13,
 * 2026-12-06), the repeats of each run close
 */
/* a pass whose sampled rate swung more than this (stdev / mean) gives no spread */
#define COMPARE_MAX_SAMPLE_CV 0.25

/* why a side's spread is unknown */
enum spread_why {
	SPREAD_KNOWN,
	SPREAD_CPU_WAIT,  /* its I/O thread waited for a CPU: the contention reached it */
	SPREAD_CONTENDED, /* an older record: the machine's CPUs were contended */
	SPREAD_CPU_BOUND, /* one pass of a figure that keeps a CPU busy */
	SPREAD_ONE_PASS,  /* one pass, too short or not sampled for a spread within it */
	SPREAD_UNSTEADY,  /* an older record: one pass whose samples swung too much */
	SPREAD_SHARED,	  /* a CPU share of a pass that other work ran beside */
	SPREAD_CPU_SHARED, /* a figure of a CPU-bound pass that other work ran beside */
	SPREAD_TAIL_SHARED, /* a tail of one pass that other work ran beside */
};

/* a reason that is other work on the CPUs (the verdict "contended"), not a spread too thin */
bool compare_why_contended(enum spread_why why);

/* how a figure moves with its I/O thread's waits for a CPU (the noise model above) */
enum compare_scale {
	SCALE_NONE, /* either way, or waits too long to weigh: a contended side's spread is unknown */
	SCALE_RATE, /* a rate: only shrinks */
};

/* one side of a figure, as the noise model above weighs it */
struct compare_side {
	double value;
	double sd;	     /* its spread: NaN unknown */
	const char *from;    /* where from: "repeats", "pass", "samples"; NULL unknown */
	/*
	 * SPREAD_KNOWN; else why sd is unknown, or, SPREAD_CPU_WAIT with sd
	 * known, that its waits for a CPU are weighed in (compare_sides)
	 */
	enum spread_why why;
	double wait; /* the share of the pass its I/O thread waited for a CPU, 0 to 1 */
	enum compare_scale scale;
};
void compare_side_of(const struct run_metric *m, struct compare_side *ret);

/*
 * One side's spread, NaN when unknown; *ret_from (may be NULL): "repeats",
 * "pass", "samples" or NULL; *ret_why (may be NULL): as compare_side's.
 */
double compare_spread(const struct run_metric *m, const char **ret_from,
		      enum spread_why *ret_why);
/*
 * Why, in words ("its I/O thread waited for a CPU 63 % of the pass"), and
 * what to do about it ("rerun ...").
 */
void compare_spread_why(enum spread_why why, const struct run_metric *m, struct strbuf *ret);
const char *compare_spread_todo(enum spread_why why);

/*
 * One figure. change_pct = (b - a) / |a| * 100 (NaN when a is 0 or
 * unknown). sd_a, sd_b: each side's spread, NaN unknown (the noise model
 * above).
 */
enum compare_verdict compare_metric(double a, double sd_a, double b, double sd_b,
				    bool higher_is_better, double threshold_pct,
				    double *ret_change_pct);

/*
 * Two sides: compare_metric on their values as measured, and again as they
 * would be had the waits for a CPU cost each figure COMPARE_CPU_WAIT_LOSS
 * times its wait share (the same device, the same way, in both runs): a
 * verdict that holds at both ends stands, the same and noise are noise,
 * anything else is spread unknown.
 */
enum compare_verdict compare_sides(const struct compare_side *a, const struct compare_side *b,
				   bool higher_is_better, double threshold_pct,
				   double *ret_change_pct);

/* strings borrowed from the two records: they must outlive the result */
struct compare_row {
	const char *device_key; /* B's key (A's for a missing metric) */
	const char *test, *name, *metric, *unit;
	double a, a_stdev, b, b_stdev;	 /* *_stdev: the side's spread (compare_spread) */
	const char *a_spread, *b_spread; /* where from: "repeats", "pass", "samples", NULL unknown */
	enum spread_why a_why, b_why;
	char *why;	  /* a spread unknown: why, each side ("A: ...; B: ..."); else NULL */
	const char *todo; /* ... and what to do */
	double change_pct;
	enum compare_verdict v;
	const char *verdict; /* compare_verdict_name(v), for the field tables */
	char *device_id; /* the identity they were matched by */
	bool higher_is_better;
};

/* something that differs between the runs and may explain a difference */
struct compare_caveat {
	char *subject; /* "env", or the device */
	char *what;    /* "kernel", "speed", "unit of seq-read 1M mb_s" */
	char *a, *b;   /* NULL: not there */
};

/* the metrics of one pass whose change could not be judged, why, and what to do */
struct compare_unknown {
	const char *device_key, *pass; /* borrowed */
	const char *verdict;		/* "spread unknown" or "contended" */
	char *metrics;			/* "mb_s, iops" */
	char *why;			/* "A: its I/O thread waited ...; B: ..." */
	const char *todo;
};

struct compare_result {
	const char *a_id, *b_id; /* borrowed */
	const char *baseline;	 /* the caller's: the name A was found by, or NULL */
	double threshold_pct;
	uint64_t better, worse, same, noise, spread_unknown, contended, unknown, missing, added;
	uint64_t compared; /* metrics in both runs */
	/*
	 * COMPARE_NOTHING when the runs share no metric; else "regression" when
	 * any metric is worse; else "spread unknown" when a change beyond the
	 * threshold could not be judged for want of a spread; else "contended"
	 * when one could not be judged beside other work; else "ok"
	 */
	const char *result;
	struct compare_unknown *unknowns;
	size_t nunknowns;
	struct compare_row *rows;
	size_t nrows;
	struct compare_caveat *caveats;
	size_t ncaveats;
};

#define COMPARE_NOTHING "nothing to compare"

/* 0 or -ENOMEM; rows in A's order, then B's new metrics in B's order */
int run_compare(const struct run_record *a, const struct run_record *b, double threshold_pct,
		struct compare_result *ret);
void compare_result_release(struct compare_result *c);

extern const struct record_desc compare_summary_desc; /* struct compare_result */
extern const struct record_desc compare_row_desc;
extern const struct record_desc compare_caveat_desc;
extern const struct record_desc compare_unknown_desc;
/* summary, the metrics table (CSV renders it), the spreads unknown and why, the caveats */
void compare_describe(const struct compare_result *c, struct report *out);

/* SPDX-License-Identifier: MIT */
#pragma once
#include "classes/disk/cache.h"
#include "classes/disk/batch.h"
#include "classes/disk/disk.h"

struct pass_env {
	struct disk_target *target;
	const struct disk_config *cfg;
	const struct disk_pass_spec *spec;
	unsigned pass_index, pass_count, repeat;
	struct histogram *lat;	   /* latencies are added here */
	struct rate_sampler *bw;   /* completions are counted here (reset by the pass) */
	struct disk_batches *batches; /* the pass's batches are appended here (NULL: none) */
	struct disk_report *report; /* verify errors are added here */
};

struct pass_out {
	uint64_t bytes, ios;
	double seconds;
	struct cpu_use cpu;
	int error;	 /* negative errno that ended the pass early, 0 if none */
	bool interrupted;
	double cached_pct; /* buffered reads: page-cache residency after the drop */
	enum cache_drop cache_drop;
	uint64_t verify_bad;
	uint64_t busy_ms; /* the device's io_ticks over the pass; UINT64_MAX if not read */
	uint64_t laps;	  /* times the region was started over to reach the minimum time */
	/*
	 * The CPU clock through the pass (platform/sys/freqwatch.h): the policy that
	 * ran furthest below its top under a scaling governor, else the first;
	 * kHz, NaN without cpufreq.
	 */
	double clock_min_khz, clock_mean_khz, clock_max_khz, clock_top_khz;
	char clock_governor[32];
	double clock_seconds; /* folding repeats (disk/run.c): the time the mean covers */
	struct irq_use irq;   /* interrupt placement (platform/sys/irqwatch.h) */
};

/* Returns a negative errno only when the pass could not start at all. */
int disk_pass_run(struct pass_env *env, struct pass_out *out);

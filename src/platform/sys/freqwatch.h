/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The CPU clock during a pass: each cpufreq policy's current frequency
 * (scaling_cur_freq, else cpuinfo_cur_freq) sampled every interval by a
 * thread from freqwatch_start() to freqwatch_stop(), with its governor and
 * what the hardware can reach (cpuinfo_max_freq). A machine without cpufreq
 * (a VM, a fixed-clock board) gives no policies. Paths go through the
 * sysroot, so a fake tree whose files change under it stands for a board.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FREQWATCH_MAX_POLICIES 16

struct freq_policy_use {
	char name[16];	   /* "policy0" */
	char governor[32]; /* at the start */
	uint64_t max_khz;  /* cpuinfo_max_freq: the hardware's top, 0 unknown */
	uint64_t samples;
	uint64_t min_khz, max_seen_khz;
	double mean_khz;
};

struct freqwatch {
	unsigned interval_ms;
	struct freq_policy_use pol[FREQWATCH_MAX_POLICIES];
	size_t npol;
	/* private */
	char cur_path[FREQWATCH_MAX_POLICIES][96];
	uint64_t sum[FREQWATCH_MAX_POLICIES];
	pthread_t thread;
	bool running;
	atomic_bool stop;
};

/* the policies, one sample each; then a thread samples until stop. 0 (also with no cpufreq), -errno
 */
int freqwatch_start(struct freqwatch *w, unsigned interval_ms);
/* the policies and one sample, no thread: the caller samples (platform/sys/passwatch.c) */
int freqwatch_open(struct freqwatch *w, unsigned interval_ms);
/* a last sample, the thread joined; the figures in w->pol. Safe after a failed start. */
void freqwatch_stop(struct freqwatch *w);

/* one sample of every policy now (the thread's step; tests call it directly) */
void freqwatch_sample(struct freqwatch *w);

/*
 * Of the policies that ran below their hardware top under a governor that
 * scales (not "performance"): the one furthest below, mean against max in
 * %, or NULL. The pass's clock "followed the load".
 */
const struct freq_policy_use *freqwatch_slowest(const struct freqwatch *w, double *ret_pct);

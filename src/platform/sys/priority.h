/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The measuring thread's nice value. Beside other work at nice 0 (a CI
 * worker, a farm host's other jobs) a pass that needs its CPU at each
 * completion (4K at QD1: ten thousand wake-ups a second) waits behind it:
 * 30-35 % of its time beside two CPU hogs on 2 CPUs (bench/compare-noise),
 * and its rate is then the scheduler's, not the device's. At nice -10 the
 * thread's wake-ups go ahead of nice 0 work; the device's rate is what is
 * measured again.
 */
#include <stdbool.h>

#define PRIORITY_RUN_NICE (-10) /* run's default */

struct priority_saved {
	bool changed;
	int before;
};

/*
 * Set the calling thread's nice value to nice (threads it starts after
 * inherit it). With raise_only, a thread already at nice or below is left
 * as it is. 0 or -errno (EPERM: not root, no CAP_SYS_NICE, RLIMIT_NICE);
 * *ret_now is the value it runs at either way.
 */
int priority_set(int nice, bool raise_only, struct priority_saved *saved, int *ret_now);
/* the value before priority_set; nothing when it changed nothing */
void priority_restore(const struct priority_saved *saved);

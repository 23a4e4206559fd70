/* SPDX-License-Identifier: MIT */
#pragma once
#include "util/strbuf.h"

/* the cpufreq policies (policy0, policy4...) */
#define CPUFREQ_ROOT "/sys/devices/system/cpu/cpufreq"

/*
 * 1 if some CPU's cpufreq governor is not "performance" (its name goes to
 * ret_gov), 0 if all are or there is no cpufreq (VMs), negative errno on error.
 */
int cpufreq_non_performance(struct strbuf *ret_gov);

/* SPDX-License-Identifier: MIT */
#pragma once
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: immune to wall-clock steps during a measurement. */
static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

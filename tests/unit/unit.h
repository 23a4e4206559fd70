/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What every unit test includes: cmocka's prerequisites in the order it
 * requires them, and double comparisons (cmocka 1.1.5 only compares floats,
 * which would hide errors below 1e-7).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define assert_near(actual, expected, eps)                                                     \
	do {                                                                                   \
		double a_ = (actual), e_ = (expected), d_ = (eps);                             \
		if (!(fabs(a_ - e_) <= d_))                                                    \
			fail_msg("%s = %.17g, expected %.17g (+-%g)", #actual, a_, e_, d_);    \
	} while (0)

#define assert_nan(actual)                                                                     \
	do {                                                                                   \
		double a_ = (actual);                                                          \
		if (!isnan(a_))                                                                \
			fail_msg("%s = %.17g, expected NaN", #actual, a_);                     \
	} while (0)

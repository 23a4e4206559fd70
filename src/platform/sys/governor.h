/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * run --governor: every cpufreq policy switched to one governor for the
 * run, and each put back to what it was afterwards. Paths go through the
 * sysroot (a fake tree in the tests).
 */
#include "platform/sys/freqwatch.h"

struct governor_saved {
	char name[FREQWATCH_MAX_POLICIES][16];	 /* "policy0" */
	char before[FREQWATCH_MAX_POLICIES][32]; /* its governor before the switch */
	size_t n;				 /* switched, to put back */
};

/*
 * Check first, then switch: -ENOENT no cpufreq here, -EINVAL a policy does
 * not offer gov (scaling_available_governors), -EACCES/-EPERM not allowed;
 * nothing switched on a refusal; on a failure midway, what was switched is
 * put back. *ret_why says which, malloc'ed.
 */
int governor_switch(const char *gov, struct governor_saved *saved, char **ret_why);
/* every switched policy back to its governor; the number that could not be. Idempotent. */
unsigned governor_restore(struct governor_saved *saved);

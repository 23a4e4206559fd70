/* SPDX-License-Identifier: MIT */
#include "platform/sys/priority.h"

#include <errno.h>
#include <sys/resource.h>

/* PRIO_PROCESS with 0 is the calling thread on Linux (setpriority(2), BUGS) */
static int nice_now(void)
{
	errno = 0;
	int v = getpriority(PRIO_PROCESS, 0);

	return errno ? 0 : v;
}

int priority_set(int nice, bool raise_only, struct priority_saved *saved, int *ret_now)
{
	int before = nice_now();

	saved->changed = false;
	saved->before = before;
	*ret_now = before;
	if (nice == before || (raise_only && before <= nice))
		return 0;
	if (setpriority(PRIO_PROCESS, 0, nice) < 0)
		return -errno;
	saved->changed = true;
	*ret_now = nice_now();
	return 0;
}

void priority_restore(const struct priority_saved *saved)
{
	if (saved->changed)
		(void)setpriority(PRIO_PROCESS, 0, saved->before);
}

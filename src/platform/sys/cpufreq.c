// SPDX-License-Identifier: MIT
#include "platform/sys/cpufreq.h"
#include "util/sysroot.h"

#include <string.h>

int cpufreq_non_performance(struct strbuf *ret_gov)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf path = STRBUF_INIT, v = STRBUF_INIT;
	int found = 0;
	size_t i;

	/* no cpufreq directory (VMs, fixed-clock boards): nothing scales */
	if (sysroot_list(CPUFREQ_ROOT, &l) < 0)
		return 0;
	for (i = 0; i < l.n && !found; i++) {
		if (strncmp(l.v[i], "policy", 6) != 0)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, CPUFREQ_ROOT "/%s/scaling_governor", l.v[i]);
		if (sysroot_read_attr(path.buf, &v) == 0 && strcmp(v.buf, "performance") != 0) {
			strbuf_reset(ret_gov);
			strbuf_adds(ret_gov, v.buf);
			found = 1;
		}
	}
	name_list_release(&l);
	strbuf_release(&path);
	strbuf_release(&v);
	return found;
}

// SPDX-License-Identifier: MIT
#include "core/sys/cpufreq.h"
#include "util/sysroot.h"

#include <dirent.h>
#include <string.h>

int cpufreq_non_performance(struct strbuf *ret_gov)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, v = STRBUF_INIT;
	struct dirent *de;
	int found = 0;
	DIR *dh;

	sysroot_path(&dir, "/sys/devices/system/cpu/cpufreq");
	dh = opendir(dir.buf);
	if (!dh)
		goto out;
	while ((de = readdir(dh)) && !found) {
		if (strncmp(de->d_name, "policy", 6) != 0)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/sys/devices/system/cpu/cpufreq/%s/scaling_governor", de->d_name);
		if (sysroot_read_attr(path.buf, &v) == 0 && strcmp(v.buf, "performance") != 0) {
			strbuf_reset(ret_gov);
			strbuf_adds(ret_gov, v.buf);
			found = 1;
		}
	}
	closedir(dh);
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&v);
	return found;
}

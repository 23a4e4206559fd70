// SPDX-License-Identifier: MIT
/* libFuzzer target: cpustat_parse on arbitrary /proc/stat text. */
#include "platform/sys/cpustat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpu_times t, again;
	struct cpu_sample a = {0}, b = {0};
	struct cpu_use u;
	char *text = malloc(size + 1), line[256];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (cpustat_parse(text, &t) == 0) {
		/* what was parsed, printed back the way the kernel does, parses the same */
		snprintf(line, sizeof(line), "cpu  %llu %llu %llu %llu %llu %llu %llu %llu\n",
			 (unsigned long long)t.user, (unsigned long long)t.nice,
			 (unsigned long long)t.system, (unsigned long long)t.idle,
			 (unsigned long long)t.iowait, (unsigned long long)t.irq,
			 (unsigned long long)t.softirq, (unsigned long long)t.steal);
		if (cpustat_parse(line, &again) < 0 || memcmp(&t, &again, sizeof(t)))
			abort();
		b.sys = t;
		b.wall_s = 1;
		cpu_use_between(&a, &b, &u);
	}
	free(text);
	return 0;
}

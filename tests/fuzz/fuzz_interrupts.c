// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the /proc/interrupts, /proc/softirqs and /proc/stat
 * parsers of platform/sys/irqwatch.c on arbitrary text. Invariants: a count
 * lands only on a CPU the header named, and the deltas of a snapshot with
 * itself are zero.
 */
#include "platform/sys/irqwatch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irq_snapshot s;
	struct irq_use u;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&s, 0, sizeof(s));
	if (irq_parse_interrupts(text, "0,1,24,48,125", &s) == 0) {
		for (unsigned c = s.ncpu; c < IRQWATCH_MAX_CPUS; c++)
			if (s.line[c])
				abort();
	}
	(void)irq_parse_softirqs(text, &s);
	(void)irq_parse_stat(text, &s);
	if (s.ncpu > IRQWATCH_MAX_CPUS)
		abort();
	irq_use_between(&s, &s, IRQ_CPU_UNKNOWN, 0, &u);
	if ((u.count != IRQ_UNKNOWN && u.count) || (u.busy_cpu >= 0 && u.busy_share_pct != 0))
		abort();
	free(text);
	return 0;
}

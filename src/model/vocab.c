/* SPDX-License-Identifier: MIT */
#include "model/vocab.h"
#include "model/field.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static metric_vocab_lookup_fn class_lookup;

void metric_vocab_set_lookup(metric_vocab_lookup_fn fn)
{
	class_lookup = fn;
}

/*
 * The labels agree with the field tables' headers (run_row_desc: the `run`
 * table), which test_render checks, so the text table and the page match.
 */
static const struct metric_vocab vocab[] = {
    {"mb_s", "rate", "MB/s"},
    {"mb_s_stdev", "sd", "MB/s"},
    {"mib_s", "rate", "MiB/s"},
    {"mbit_s", "rate", "Mbit/s"},
    {"iops", "IOPS", NULL},
    {"lat_p50_us", "p50", "us"},
    {"lat_p90_us", "p90", "us"},
    {"lat_p99_us", "p99", "us"},
    {"lat_p999_us", "p99.9", "us"},
    {"lat_max_us", "max latency", "us"},
    {"self_cpu_pct", "cpu", UNIT_PCT_ONE_CPU},
    {"cpu_sys_pct", "sys CPU", UNIT_PCT_ALL_CPUS},
    {"ceiling_mb_s", "ceiling", "MB/s"},
    {"efficiency_pct", "of ceil", "%"},
    {"irq_per_mb", "interrupts", "IRQ/MB"},
    {"retransmits", "retransmits", "segments"},
};

struct metric_vocab metric_vocab(const char *key, const char *unit_hint)
{
	struct metric_vocab v;

	for (size_t i = 0; key && i < sizeof(vocab) / sizeof(vocab[0]); i++)
		if (!strcmp(vocab[i].key, key))
			return vocab[i];
	/* a measurement class's own metric: the registry's lookup names it */
	if (key && class_lookup && class_lookup(key, &v))
		return v;
	return (struct metric_vocab){key, key ? key : "-", unit_hint};
}

int metric_prec(double v)
{
	v = fabs(v);
	/* none at all (no bad blocks, no errors) reads 0, not 0.000 */
	if (v == 0)
		return 0;
	return v >= 1000 ? 0 : v >= 100 ? 1 : v >= 1 ? 2 : 3;
}

void metric_format(struct strbuf *out, double v)
{
	if (isnan(v))
		strbuf_adds(out, "-");
	else
		strbuf_addf(out, "%.*f", metric_prec(v), v);
}

void ceiling_format(struct strbuf *out, double ceiling, const char *unit)
{
	strbuf_adds(out, "bus ceiling ");
	metric_format(out, ceiling);
	strbuf_addch(out, ' ');
	strbuf_adds(out, unit);
}

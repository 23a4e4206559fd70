// SPDX-License-Identifier: MIT
/* The clock and interrupt placement of every class's passes in run's record: see pass_sys.h. */
#include "run/pass_sys.h"
#include "model/findings.h"
#include "model/record.h"
#include "run/class.h"
#include "run/run.h"
#include "platform/sys/sysinfo.h"
#include "platform/usb/topology.h"
#include "util/parse.h"
#include "util/strbuf.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PER_CPU "irq_count_cpu"

/*
 * What explains a figure rather than being one: a CPU number, a count that
 * grows with the pass's length, a share of one pass with no spread to judge
 * it by. Kept as distributions are, never compared (a different CPU is not
 * a regression, and one pass's irq share would make every compare "spread
 * unknown"). The clock is compared, as disk's always was.
 */
static const struct class_metric sys_metrics[] = {
    CLASS_METRIC("cpu_mhz", "MHz", "clock", true),
    CLASS_DISTRIBUTION_PCT("cpu_clock_pct", UNIT_PCT_CLOCK, "of top clock"),
    CLASS_DISTRIBUTION_PCT("irq_share_pct", UNIT_PCT_ONE_CPU, "irq+softirq"),
    CLASS_DISTRIBUTION("irq_share_cpu", "CPU", "irq+softirq CPU"),
    CLASS_DISTRIBUTION_PCT("irq_others_busy_pct", UNIT_PCT_ONE_CPU, "other CPUs busy"),
    CLASS_DISTRIBUTION("irq_count", "IRQs", "controller IRQs"),
    CLASS_DISTRIBUTION("irq_cpu", "CPU", "IRQ CPU"),
    CLASS_DISTRIBUTION_PCT("irq_cpu_pct", UNIT_PCT_IRQS, "IRQs on it"),
    CLASS_DISTRIBUTION("io_cpu", "CPU", "I/O thread CPU"),
    CLASS_DISTRIBUTION(PER_CPU, "IRQs", "controller IRQs on a CPU"), /* per CPU: keep last */
};

/* "irq_count_cpu3" labelled "controller IRQs on CPU 3": one entry a CPU, made once */
static struct class_metric per_cpu[IRQWATCH_MAX_CPUS];
static char per_cpu_key[IRQWATCH_MAX_CPUS][24], per_cpu_label[IRQWATCH_MAX_CPUS][32];
static pthread_once_t per_cpu_once = PTHREAD_ONCE_INIT;

static void per_cpu_init(void)
{
	const struct class_metric *tmpl =
	    &sys_metrics[sizeof(sys_metrics) / sizeof(sys_metrics[0]) - 1];

	for (unsigned c = 0; c < IRQWATCH_MAX_CPUS; c++) {
		snprintf(per_cpu_key[c], sizeof(per_cpu_key[c]), PER_CPU "%u", c);
		snprintf(per_cpu_label[c], sizeof(per_cpu_label[c]), "controller IRQs on CPU %u",
			 c);
		per_cpu[c] = *tmpl;
		per_cpu[c].key = per_cpu_key[c];
		per_cpu[c].label = per_cpu_label[c];
	}
}

const struct class_metric *pass_sys_metric(const char *key)
{
	const size_t n = strlen(PER_CPU), last = sizeof(sys_metrics) / sizeof(sys_metrics[0]) - 1;
	uint64_t cpu;

	if (!key)
		return NULL;
	/* the last entry stands for "irq_count_cpu" and a CPU number, never for the bare prefix */
	if (!strncmp(key, PER_CPU, n)) {
		if (!key[n] || strspn(key + n, "0123456789") != strlen(key + n) ||
		    parse_u64(key + n, 0, UINT32_MAX, &cpu) < 0)
			return NULL;
		if (cpu >= IRQWATCH_MAX_CPUS)
			return &sys_metrics[last];
		pthread_once(&per_cpu_once, per_cpu_init);
		return &per_cpu[cpu];
	}
	for (size_t i = 0; i < last; i++)
		if (!strcmp(sys_metrics[i].key, key))
			return &sys_metrics[i];
	return NULL;
}

static void put(struct run_record *rec, const struct measure_class *c, const char *dev,
		const char *pass, const char *key, double v, uint64_t repeats)
{
	struct run_metric *m;

	if (isnan(v))
		return;
	m = run_class_add_metric(rec, c, dev, pass, key);
	m->value = v;
	m->repeats = repeats;
}

static double cpu_or_nan(int64_t cpu)
{
	return cpu >= 0 ? (double)cpu : NAN;
}

void run_add_pass_sys(struct run_record *rec, const struct measure_class *c, const char *device_key,
		      const char *pass, const struct pass_sys *s, uint64_t repeats)
{
	const struct irq_use *u = &s->irq;
	double lo, mean, hi, pct;

	if (pass_sys_clock(s, &lo, &mean, &hi, &pct)) {
		put(rec, c, device_key, pass, "cpu_mhz", mean, repeats);
		put(rec, c, device_key, pass, "cpu_clock_pct", pct, repeats);
	}
	put(rec, c, device_key, pass, "irq_share_pct", u->busy_share_pct, repeats);
	put(rec, c, device_key, pass, "irq_share_cpu", cpu_or_nan(u->busy_cpu), repeats);
	put(rec, c, device_key, pass, "irq_others_busy_pct", u->others_busy_pct, repeats);
	put(rec, c, device_key, pass, "io_cpu", cpu_or_nan(u->io_cpu), repeats);
	if (u->count == IRQ_UNKNOWN)
		return;
	put(rec, c, device_key, pass, "irq_count", (double)u->count, repeats);
	put(rec, c, device_key, pass, "irq_cpu", cpu_or_nan(u->irq_cpu), repeats);
	put(rec, c, device_key, pass, "irq_cpu_pct", u->irq_cpu_pct, repeats);
	for (unsigned k = 0; k < u->ncpu; k++) {
		char key[32];

		if (!u->per_cpu[k])
			continue;
		snprintf(key, sizeof(key), PER_CPU "%u", k);
		put(rec, c, device_key, pass, key, (double)u->per_cpu[k], repeats);
	}
}

/* the row of the same device, class and pass named key: its value, NaN if none */
static double sibling(const struct run_record *rec, const struct run_metric *m, const char *key)
{
	for (size_t i = 0; i < rec->nmetrics; i++) {
		const struct run_metric *x = &rec->metrics[i];

		if (!strcmp(x->metric, key) && !strcmp(x->device_key, m->device_key) &&
		    !strcmp(x->test, m->test) && !strcmp(x->name, m->name))
			return x->value;
	}
	return NAN;
}

/*
 * The device's controller's lines ("24,25", caller frees), NULL if not
 * known: a USB device's from the topology, a disk target's (a path) from
 * the block device under it.
 */
static char *lines_of(const struct run_result *r, const struct run_device *d)
{
	const char *key = d->key;
	size_t n = strcspn(key, "-");
	char *lines = NULL;
	struct stat st;
	uint64_t bus;
	char num[24];

	if (r->topo && key[n] && n < sizeof(num)) {
		snprintf(num, sizeof(num), "%.*s", (int)n, key);
		for (size_t i = 0; parse_u64(num, 1, UINT32_MAX, &bus) == 0 && i < r->topo->nctl;
		     i++)
			if (r->topo->ctl[i].busnum == bus && r->topo->ctl[i].irq)
				return strdup(r->topo->ctl[i].irq);
	}
	if (d->target && d->target[0] == '/' && stat(d->target, &st) == 0) {
		dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;

		if (irq_lines_of_block(major(dev), minor(dev), &lines) == 0)
			return lines;
	}
	return NULL;
}

/* the fix: the lines' affinity without the busy CPU, or irqbalance */
static void affinity_fix(const struct run_result *r, const struct run_device *d, int64_t cpu,
			 struct strbuf *fix)
{
	char *lines = lines_of(r, d);
	int64_t n = r->si ? r->si->ncpus_online : 0;
	char mask[32] = "MASK";

	if (n > 1 && n <= 64 && cpu >= 0 && cpu < n)
		snprintf(
		    mask, sizeof(mask), "%llx",
		    (unsigned long long)((n == 64 ? ~0ULL : (1ULL << n) - 1) & ~(1ULL << cpu)));
	strbuf_addf(fix, "move the controller's interrupts off CPU %lld: ", (long long)cpu);
	if (lines) {
		char *save = NULL;

		for (char *l = strtok_r(lines, ",", &save); l; l = strtok_r(NULL, ",", &save))
			strbuf_addf(fix, "echo %s > /proc/irq/%s/smp_affinity; ", mask, l);
		free(lines);
	} else {
		strbuf_addf(fix,
			    "echo %s > /proc/irq/N/smp_affinity for each of its lines "
			    "(grep the driver in /proc/interrupts); ",
			    mask);
	}
	strbuf_adds(fix, "or run irqbalance (it spreads them, and keeps doing so)");
}

/* "; or run usbperf on another core: taskset -c 0,2,3 usbperf ..." */
static void other_cpus(const struct run_result *r, int64_t cpu, struct strbuf *fix)
{
	int64_t n = r->si ? r->si->ncpus_online : 0;
	bool first = true;

	strbuf_adds(fix, "; or run usbperf on another core: taskset -c ");
	if (n < 2 || n > 64) {
		strbuf_adds(fix, "CPUS usbperf ...");
		return;
	}
	for (int64_t c = 0; c < n; c++)
		if (c != cpu) {
			strbuf_addf(fix, "%s%lld", first ? "" : ",", (long long)c);
			first = false;
		}
	strbuf_adds(fix, " usbperf ...");
}

static void irq_findings(struct run_result *r)
{
	struct run_record *rec = &r->rec;

	for (size_t d = 0; d < rec->ndevices; d++) {
		const char *dev = rec->devices[d].key;
		struct strbuf sat = STRBUF_INIT, same = STRBUF_INIT, fix = STRBUF_INIT;
		struct evidence_groups gsat = {0}, gsame = {0};
		int64_t sat_cpu = -1, same_cpu = -1;
		char pass[96], key[32];

		for (size_t i = 0; i < rec->nmetrics; i++) {
			const struct run_metric *m = &rec->metrics[i];
			double others, irq_cpu, io_cpu, count, on_pct;

			if (strcmp(m->device_key, dev) || strcmp(m->metric, "irq_share_pct"))
				continue;
			snprintf(pass, sizeof(pass), "%s %s", m->test, m->name);
			others = sibling(rec, m, "irq_others_busy_pct");
			if (m->value >= IRQ_SATURATED_PCT && others <= IRQ_OTHERS_IDLE_PCT) {
				sat_cpu = (int64_t)sibling(rec, m, "irq_share_cpu");
				snprintf(key, sizeof(key), "CPU %lld", (long long)sat_cpu);
				evidence_add(&gsat, key, pass, (double[]){m->value, others}, 2);
			}
			irq_cpu = sibling(rec, m, "irq_cpu");
			io_cpu = sibling(rec, m, "io_cpu");
			count = sibling(rec, m, "irq_count");
			on_pct = sibling(rec, m, "irq_cpu_pct");
			/* one CPU: nowhere else to go; the NaNs compare false */
			if (irq_cpu == io_cpu && count >= IRQ_MIN_COUNT && on_pct >= 50 &&
			    !isnan(others)) {
				same_cpu = (int64_t)irq_cpu;
				snprintf(key, sizeof(key), "CPU %lld", (long long)same_cpu);
				evidence_add(&gsame, key, pass, (double[]){count, on_pct}, 2);
			}
		}
		/* each clause once, the passes that share it named together (29.2.8) */
		evidence_render(&gsat, "{k} {0} % in irq+softirq, the others {1} % busy", &sat);
		evidence_render(&gsame, "{1} % of the interrupts ({0} a pass) on {k}, where "
					"usbperf's I/O thread ran",
				&same);
		evidence_release(&gsat);
		evidence_release(&gsame);
		if (sat.len) {
			strbuf_adds(&sat, " (/proc/stat, /proc/interrupts)");
			affinity_fix(r, &rec->devices[d], sat_cpu, &fix);
			finding_add(&rec->findings, FINDING_WARN, "run.irq_saturated", dev,
				    "one core was saturated with interrupt work while the others "
				    "idled: the transfer waits on that core",
				    sat.buf, fix.buf);
		}
		if (same.len) {
			strbuf_reset(&fix);
			affinity_fix(r, &rec->devices[d], same_cpu, &fix);
			other_cpus(r, same_cpu, &fix);
			finding_add(
			    &rec->findings, FINDING_INFO, "run.irq_same_cpu", dev,
			    "usbperf ran on the core that took the controller's interrupts: "
			    "the I/O thread and the interrupt work share one core",
			    same.buf, fix.buf);
		}
		strbuf_release(&sat);
		strbuf_release(&same);
		strbuf_release(&fix);
	}
}

/* a class whose analyze says a low clock itself (class.h's own_clock_rule) */
static bool clock_said_by_class(const char *test)
{
	const struct measure_class *c = run_class_find(test);

	return c && c->own_clock_rule;
}

/* the clock rule for the classes that keep no rows of their own for it (class.h's own_clock_rule) */
static void clock_findings(struct run_result *r)
{
	struct run_record *rec = &r->rec;
	const char *gov = rec->env.governor;

	if (!gov || !strcmp(gov, "performance"))
		return;
	for (size_t d = 0; d < rec->ndevices; d++) {
		const char *dev = rec->devices[d].key;
		struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT;
		struct evidence_groups g = {0};
		bool bound = false;
		char pass[96];

		for (size_t i = 0; i < rec->nmetrics; i++) {
			const struct run_metric *m = &rec->metrics[i];
			double mhz, cpu;

			if (strcmp(m->device_key, dev) || strcmp(m->metric, "cpu_clock_pct") ||
			    clock_said_by_class(m->test) ||
			    !(m->value > 0 && m->value < PASS_CLOCK_LOW_PCT))
				continue;
			mhz = sibling(rec, m, "cpu_mhz");
			cpu = sibling(rec, m, "self_cpu_pct");
			bound = bound || cpu >= PASS_CPU_SATURATED_PCT;
			snprintf(pass, sizeof(pass), "%s %s", m->test, m->name);
			evidence_add(&g, cpu >= PASS_CPU_SATURATED_PCT ? ", a core saturated" : "",
				     pass, (double[]){mhz, m->value}, 2);
		}
		evidence_render(&g, "{0} MHz mean, {1} % of the top{k}", &ev);
		evidence_release(&g);
		if (ev.len) {
			strbuf_addf(&ev, " (governor %s)", gov);
			strbuf_addf(&msg,
				    "passes ran with the CPU below its top clock under the '%s' "
				    "governor%s",
				    gov,
				    bound ? ": a pass that saturated a core was held by that clock"
					  : ": completions wait on a slow core");
			finding_add(&rec->findings, bound ? FINDING_WARN : FINDING_INFO,
				    "run.cpu_clock_low", dev, msg.buf, ev.buf,
				    "usbperf run --governor performance (it puts the governor back "
				    "after), or raise scaling_min_freq; compare the two runs with "
				    "usbperf compare");
		}
		strbuf_release(&ev);
		strbuf_release(&msg);
	}
}

/* a figure of this machine's in % of one CPU (a peer's is another machine's) */
static bool own_cpu_figure(const struct run_metric *m)
{
	return m->unit && !strcmp(m->unit, UNIT_PCT_ONE_CPU) && strncmp(m->metric, "peer_", 5) &&
	       isfinite(m->value);
}

void run_cpu_time_findings(struct run_result *r, unsigned ncpus)
{
	struct run_record *rec = &r->rec;
	/* getrusage and /proc/stat are exact to the tick: 2 % and half a point of slack */
	double most = 100.0 * ncpus * 1.02 + 0.5;

	for (size_t d = 0; ncpus && d < rec->ndevices; d++) {
		const char *dev = rec->devices[d].key;
		struct evidence_groups g = {0};
		struct strbuf ev = STRBUF_INIT, msg = STRBUF_INIT;
		char pass[96];

		for (size_t i = 0; i < rec->nmetrics; i++) {
			const struct run_metric *m = &rec->metrics[i];

			if (strcmp(m->device_key, dev) || !own_cpu_figure(m) || m->value <= most)
				continue;
			snprintf(pass, sizeof(pass), "%s %s", m->test, m->name);
			evidence_add(&g, m->metric, pass, &m->value, 1);
		}
		evidence_render(&g, "{k} {0} % of one CPU", &ev);
		evidence_release(&g);
		if (ev.len) {
			strbuf_addf(&msg,
				    "CPU figures above what this machine's %u CPU%s can give: its CPU "
				    "time and its wall clock disagree (a virtual machine's emulated "
				    "clock), so this run's CPU figures are not to be read, nor its "
				    "rates held to better than that",
				    ncpus, ncpus == 1 ? "" : "s");
			finding_add(&rec->findings, FINDING_WARN, "run.cpu_time_above_wall", dev,
				    msg.buf, ev.buf,
				    "measure CPU use on hardware, or on a VM with a stable clock source "
				    "(kvm-clock, a constant TSC): /sys/devices/system/clocksource/"
				    "clocksource0/current_clocksource");
		}
		strbuf_release(&ev);
		strbuf_release(&msg);
	}
}

void run_pass_sys_findings(struct run_result *r)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	irq_findings(r);
	clock_findings(r);
	run_cpu_time_findings(r, n > 0 ? (unsigned)n : 0);
}

// SPDX-License-Identifier: MIT
/*
 * The verdict per device: what limits it, in one line with the figure that
 * shows it; then the findings put in order, each under the device whose
 * figures it explains, the most telling first, and those that bear on no
 * measured figure last. Pure: reads the record (and the USB tree, to tell
 * which device a block device's finding is about), writes the record.
 */
#include "run/class.h"
#include "run/run.h"
#include "platform/usb/speed.h"
#include "platform/usb/topology.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BUS_PCT 75.0	/* this close to the link's ceiling: the link is the limit */
#define MEDIUM_PCT 40.0 /* this far below it: the medium is */
#define CPU_PCT 85.0	/* usbperf's own CPU in the pass, % of one core */

/* the figure a verdict rests on: the best sequential pass, its CPU, in MB/s */
struct figure {
	const char *name; /* "seq-read 1M", "tcp send" */
	double mb_s;
	double mbit_s; /* a network pass: its own unit, NaN otherwise */
	double cpu_pct;
};

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static double metric_of(const struct run_record *r, const char *key, const char *test,
			const char *name, const char *metric)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];

		if (same(m->device_key, key) && same(m->test, test) && same(m->name, name) &&
		    same(m->metric, metric))
			return m->value;
	}
	return NAN;
}

/* the best pass of test whose name starts with prefix, by metric */
static bool best_of(const struct run_record *r, const char *key, const char *test,
		    const char *prefix, const char *metric, struct figure *ret)
{
	const struct run_metric *best = NULL;

	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];

		if (!same(m->device_key, key) || !same(m->test, test) || !same(m->metric, metric) ||
		    !starts(m->name, prefix) || isnan(m->value))
			continue;
		if (!best || m->value > best->value)
			best = m;
	}
	if (!best)
		return false;
	ret->name = best->name;
	ret->mbit_s = NAN;
	if (!strcmp(metric, "mbit_s")) {
		ret->mbit_s = best->value;
		ret->mb_s = best->value / 8;
	} else {
		ret->mb_s = best->value;
	}
	ret->cpu_pct = metric_of(r, key, test, best->name, "self_cpu_pct");
	return true;
}

/* each class's headline figure, in the table's order (class.h) */
static bool figure_of(const struct run_record *r, const char *key, struct figure *ret)
{
	for (size_t k = 0; k < run_nclasses; k++) {
		const struct measure_class *c = run_classes[k];

		for (size_t h = 0; h < c->nheadline; h++)
			if (best_of(r, key, c->name, c->headline[h].prefix, c->headline[h].metric,
				    ret))
				return true;
	}
	return false;
}

static double speed_mbps(const char *name)
{
	enum usb_speed s;

	return name && usb_speed_parse(name, &s) == 0 ? usb_speed_mbps(s) : 0;
}

/* "high-speed", "super-speed", "super-plus" */
static void add_speed(struct strbuf *sb, const char *speed)
{
	if (!strcmp(speed, "low") || !strcmp(speed, "full") || !strcmp(speed, "high") ||
	    !strcmp(speed, "super"))
		strbuf_addf(sb, "%s-speed", speed);
	else
		strbuf_adds(sb, speed);
}

/* the figure as the tables print it (metric_format): "seq-read 1M 2174 MB/s", not "2174.0" */
static void add_figure(struct strbuf *sb, const struct figure *f)
{
	strbuf_addf(sb, "%s ", f->name);
	if (!isnan(f->mbit_s)) {
		metric_format(sb, f->mbit_s);
		strbuf_adds(sb, " Mbit/s (");
		metric_format(sb, f->mb_s);
		strbuf_adds(sb, " MB/s)");
	} else {
		metric_format(sb, f->mb_s);
		strbuf_adds(sb, " MB/s");
	}
}

/* "seq-read 1M 41.9 MB/s is 79 % of high-speed bulk's 53.2 MB/s ceiling" */
static void add_share(struct strbuf *sb, const struct run_device *d, const struct figure *f,
		      double pct)
{
	add_figure(sb, f);
	/* above the ceiling it is no share of it: an anomaly, said as one */
	if (pct > 100)
		strbuf_adds(sb, " is above ");
	else
		strbuf_addf(sb, " is %.0f %% of ", pct);
	add_speed(sb, d->speed ? d->speed : "the link");
	/* a USB link's is its bulk payload's; another bus's (an MMC card's mode: clock x width x DDR) its own */
	strbuf_addf(sb, " %s %.1f MB/s ceiling", speed_mbps(d->speed) > 0 ? "bulk's" : "bus's",
		    d->ceiling_mb_s);
}

/* "2-1 05e3:0610 high": the first hub above d slower than what d can do */
static char *slower_hub(const struct run_device *d, double capable)
{
	const char *p = d->via;

	while (p && *p) {
		const char *end = strstr(p, " > ");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *hop = strndup(p, n);
		const char *sp;

		if (!hop)
			abort();
		sp = strrchr(hop, ' ');
		if (sp && speed_mbps(sp + 1) > 0 && speed_mbps(sp + 1) < capable)
			return hop;
		free(hop);
		p = end ? end + 3 : NULL;
	}
	return NULL;
}

/* a USB 2.0-only host controller: EHCI, or a USB 1.1 companion */
static bool usb2_controller(const char *controller)
{
	return controller && (strstr(controller, "ehci") || strstr(controller, "ohci") ||
			      strstr(controller, "uhci"));
}

/* near the ceiling: the link is the limit; what set the link's speed is the verdict */
static const char *link_bound(const struct run_device *d, struct strbuf *ev)
{
	double now = speed_mbps(d->speed), can = speed_mbps(d->capable_speed);
	char *hub;

	if (!(now > 0 && can > now))
		return RUN_LIMITER_BUS;
	hub = slower_hub(d, can);
	if (hub) {
		strbuf_addf(ev, "; the device can do %s, the hub above it (%s) links slower",
			    d->capable_speed, hub);
		free(hub);
		return RUN_LIMITER_HUB;
	}
	if (usb2_controller(d->controller)) {
		strbuf_addf(ev, "; the device can do %s, its controller (%s) is USB 2.0 only",
			    d->capable_speed, d->controller);
		return RUN_LIMITER_CONTROLLER;
	}
	strbuf_addf(ev, "; the device can do %s: a faster port and cable would raise it",
		    d->capable_speed);
	return RUN_LIMITER_BUS;
}

static const char *decide(const struct run_record *r, const struct measure_class *c,
			  const struct run_device *d, const struct figure *f, double pct,
			  struct strbuf *ev)
{
	const struct finding *pc = finding_list_find(&r->findings, "run.page_cache", d->key);
	bool in_bits = !isnan(f->mbit_s); /* a network's figure */

	/* what the class's own findings already say limits it */
	if (c && c->limiter_of) {
		const char *l;

		add_figure(ev, f);
		l = c->limiter_of(r, d, ev);
		if (l)
			return l;
		strbuf_reset(ev);
	}
	if (pc && pc->evidence && strstr(pc->evidence, f->name)) {
		add_figure(ev, f);
		strbuf_addf(ev, " came partly from the page cache (%s): not the device's figure",
			    pc->evidence);
		return RUN_LIMITER_PAGE_CACHE;
	}
	if (pct > 100) {
		add_share(ev, d, f, pct);
		strbuf_adds(ev, ": an anomaly, not the bus's figure (an emulated or virtual link, or a "
				"cache)");
		return RUN_LIMITER_EMULATION;
	}
	/* CPU figures the wall clock contradicts are no evidence of a CPU limit */
	if (!isnan(f->cpu_pct) && f->cpu_pct >= CPU_PCT &&
	    !finding_list_find(&r->findings, "run.cpu_time_above_wall", d->key)) {
		add_figure(ev, f);
		strbuf_addf(ev, " with usbperf at %.0f %% of a core: the figure is the CPU's",
			    f->cpu_pct);
		return RUN_LIMITER_CPU;
	}
	if (isnan(pct)) {
		add_figure(ev, f);
		strbuf_adds(ev, ": no link ceiling to hold it against (not on USB)");
		return RUN_LIMITER_UNKNOWN;
	}
	add_share(ev, d, f, pct);
	if (pct >= BUS_PCT)
		return link_bound(d, ev);
	if (pct < MEDIUM_PCT && !in_bits) {
		strbuf_adds(ev, ": the bus has headroom");
		return RUN_LIMITER_MEDIUM;
	}
	strbuf_adds(ev, pct < MEDIUM_PCT ? ": far below the link's, so the adapter, the network or "
					   "the peer"
					 : ": neither near the ceiling nor far below it");
	return RUN_LIMITER_UNKNOWN;
}

/* the class that measured the device (its first figure's test), NULL if none */
static const struct measure_class *class_of_device(const struct run_record *r, const char *key)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (same(r->metrics[i].device_key, key))
			return run_class_find(r->metrics[i].test);
	return NULL;
}

void run_verdicts(struct run_record *r)
{
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct run_device *d = &r->devices[i];
		const struct measure_class *c = class_of_device(r, d->key);
		struct strbuf ev = STRBUF_INIT;
		struct run_verdict *v;
		struct figure f;
		const char *limiter;
		double pct = NAN;

		if (c && c->verdict) {
			limiter = c->verdict(r, d, &ev, &pct);
		} else if (!figure_of(r, d->key, &f)) {
			strbuf_adds(&ev, "no throughput figure was measured");
			limiter = RUN_LIMITER_UNKNOWN;
		} else {
			if (!isnan(d->ceiling_mb_s) && d->ceiling_mb_s > 0)
				pct = 100 * f.mb_s / d->ceiling_mb_s;
			limiter = decide(r, c, d, &f, pct, &ev);
		}
		v = run_record_add_verdict(r);
		v->device_key = xstrdup(d->key);
		v->limiter = xstrdup(limiter);
		v->evidence = strbuf_detach(&ev);
		v->share_pct = pct;
	}
}

/* ---- the findings in order ---- */

/* the measured device a USB path (a device, a hub above it, an interface) concerns */
static const char *device_at(const struct run_record *r, const char *path)
{
	size_t n;

	for (size_t i = 0; path && i < r->ndevices; i++) {
		const char *p = r->devices[i].port_path;

		if (!p)
			continue;
		if (!strcmp(p, path))
			return r->devices[i].key;
		n = strlen(path);
		/* a hub above it ("2-1" above "2-1.4"), or one of its interfaces ("2-1:1.0") */
		if (!strncmp(p, path, n) && (p[n] == '.'))
			return r->devices[i].key;
		n = strlen(p);
		if (!strncmp(path, p, n) && path[n] == ':')
			return r->devices[i].key;
	}
	return NULL;
}

static bool any_on_usb(const struct run_record *r)
{
	for (size_t i = 0; i < r->ndevices; i++)
		if (r->devices[i].port_path)
			return true;
	return false;
}

static const char *about(const struct run_record *r, const struct finding *f,
			 const struct usb_topology *t)
{
	if (!f->id)
		return NULL;
	for (size_t i = 0; f->subject && i < r->ndevices; i++)
		if (same(r->devices[i].key, f->subject))
			return r->devices[i].key;
	if (starts(f->id, "usb.") || starts(f->id, "block.")) {
		const char *k = device_at(r, f->subject);

		/* a block device's: the USB device it is on */
		for (size_t i = 0; !k && t && f->subject && i < t->nnode; i++)
			if (same(t->node[i].name, f->subject))
				k = device_at(r, t->node[i].device);
		return k;
	}
	/* the CPU's speed is in every figure; the USB autosuspend default in every USB one */
	if (starts(f->id, "cpu."))
		return r->ndevices ? FINDING_ABOUT_ALL : NULL;
	if (!strcmp(f->id, "usbcore.autosuspend"))
		return any_on_usb(r) ? FINDING_ABOUT_ALL : NULL;
	/* usbfs_memory_mb (libusb only), dirty pages (usbperf syncs), a gadget's UDC, ... */
	return NULL;
}

/* a class's own finding (class.h's finding_weights), else by its severity */
static int class_weight(const struct finding *f, const struct run_verdict *v)
{
	for (size_t k = 0; k < run_nclasses; k++) {
		const struct measure_class *c = run_classes[k];

		for (size_t i = 0; i < c->nfinding_weights; i++) {
			const struct class_finding_weight *w = &c->finding_weights[i];

			if (!same(f->id, w->id))
				continue;
			return v && w->limiter && same(v->limiter, w->limiter) ? 0 : w->weight;
		}
	}
	return strcmp(f->severity, "warn") ? 95 : 90;
}

/* how much a finding explains the figures: lower first */
static int weight(const struct finding *f, const struct run_verdict *v)
{
	static const struct {
		const char *id, *limiter;
		int w;
	} table[] = {
	    {"usb.fuse_filesystem", RUN_LIMITER_CPU, 20},
	    {"usb.speed_below_capability", RUN_LIMITER_HUB, 30},
	    {"usb.full_speed_data_device", RUN_LIMITER_BUS, 30},
	    {"usb.storage_without_uas", RUN_LIMITER_MEDIUM, 40},
	    {"usb.storage_bot", RUN_LIMITER_MEDIUM, 45},
	    {"usbmon.one_in_flight", NULL, 46},
	    {"block.small_max_sectors", NULL, 50},
	    {"usbmon.small_urbs", NULL, 50},
	    {"usbmon.errors", NULL, 55},
	    {"usbmon.bus_idle", NULL, 70},
	    {"usb.autosuspend", NULL, 60},
	    {"cpu.max_freq_capped", RUN_LIMITER_CPU, 80},
	    {"cpu.governor", RUN_LIMITER_CPU, 80},
	    {"usbmon.protocol_overhead", NULL, 85},
	    {"run.cpu_time_above_wall", NULL, 85},
	    {"usbmon.net_overhead", NULL, 85},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (!same(f->id, table[i].id))
			continue;
		/* the finding that states the verdict's limiter comes first */
		if (v && table[i].limiter &&
		    (same(v->limiter, table[i].limiter) ||
		     (!strcmp(f->id, "usb.speed_below_capability") &&
		      (same(v->limiter, RUN_LIMITER_BUS) ||
		       same(v->limiter, RUN_LIMITER_CONTROLLER)))))
			return 0;
		return table[i].w;
	}
	return class_weight(f, v);
}

struct ranked {
	struct finding f;
	size_t group; /* the device's index; ndevices: all of them; ndevices + 1: none */
	int weight;
	size_t seq;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight < y->weight ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void run_findings_order(struct run_record *r, const struct usb_topology *t)
{
	struct finding_list *l = &r->findings;
	struct ranked *v;

	if (!l->n)
		return;
	v = calloc(l->n, sizeof(*v));
	if (!v)
		abort();
	for (size_t i = 0; i < l->n; i++) {
		const char *a = about(r, &l->v[i], t);
		size_t g = r->ndevices + 1;

		finding_set_about(&l->v[i], a);
		for (size_t j = 0; a && j < r->ndevices; j++)
			if (same(r->devices[j].key, a))
				g = j;
		if (a && !strcmp(a, FINDING_ABOUT_ALL))
			g = r->ndevices;
		v[i] = (struct ranked){l->v[i], g, weight(&l->v[i], run_record_verdict(r, a)), i};
	}
	qsort(v, l->n, sizeof(*v), cmp_ranked);
	for (size_t i = 0; i < l->n; i++)
		l->v[i] = v[i].f;
	free(v);
}

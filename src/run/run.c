// SPDX-License-Identifier: MIT
/* usbperf run: plan the targets, measure each, build the record. */
#include "platform/sys/safety.h"
#include "run/estimate.h"
#include "run/class.h"
#include "run/pass_sys.h"
#include "run/run_priv.h"
#include "platform/sys/sysinfo.h"
#include "platform/sys/priority.h"
#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
#include "util/clock.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "version.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct run_device *run_device_find(struct run_result *r, const char *key)
{
	for (size_t i = 0; key && i < r->rec.ndevices; i++)
		if (r->rec.devices[i].key && !strcmp(r->rec.devices[i].key, key))
			return &r->rec.devices[i];
	return NULL;
}

struct run_row *run_add_row(struct run_result *r)
{
	struct run_row *row;

	r->rows = xgrow(r->rows, &r->nrows, sizeof(*r->rows));
	row = &r->rows[r->nrows - 1];
	/* what a class that takes no latency or interval samples leaves: unknown, not 0 */
	row->lat_p50_us = row->lat_p90_us = row->bw_min_mb_s = row->bw_stdev_mb_s = NAN;
	row->util_pct = NAN;
	row->bw_samples = U64_UNKNOWN;
	return row;
}

void run_note(struct run_result *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	run_record_add_note(&r->rec, sb.buf);
	strbuf_release(&sb);
}

static const struct usb_device *usb_dev_at(const struct usb_topology *t, const char *path);
static char *hubs_above(const struct usb_topology *t, const struct usb_device *u);
static char *controller_of(const struct usb_topology *t, const struct usb_device *u);

void run_unmeasured_add(struct run_result *r, const char *key, const char *kind, const char *name,
			const char *why)
{
	const struct usb_device *u = r->topo ? usb_dev_at(r->topo, key) : NULL;
	struct run_unmeasured *m;

	for (size_t i = 0; key && i < r->rec.nunmeasured; i++)
		if (!strcmp(r->rec.unmeasured[i].key, key))
			return; /* one entry a device: the first reason */
	m = run_record_add_unmeasured(&r->rec);
	m->key = xstrdup(key ? key : name);
	m->kind = xstrdup(kind);
	m->name = xstrdup(name);
	m->why = xstrdup(why);
	if (!u)
		return;
	m->vid_pid = xstrdup(u->vid_pid);
	m->product = xstrdup(u->product);
	m->speed = xstrdup(u->speed_name);
	m->controller = controller_of(r->topo, u);
	m->via = hubs_above(r->topo, u);
}

struct run_plan_item *run_plan_add(struct run_result *r, const struct measure_class *c,
				   const char *path, const char *key, const char *kind,
				   bool read_only, const char *why)
{
	struct run_plan_item *p;

	r->plan = xgrow(r->plan, &r->nplan, sizeof(*r->plan));
	p = &r->plan[r->nplan - 1];
	p->cls = c;
	p->path = xstrdup(path);
	p->device_key = xstrdup(key);
	p->kind = kind;
	p->read_only = read_only;
	p->why = xstrdup(why);
	return p;
}

void *run_class_add_row(struct run_result *r, const struct measure_class *c, size_t size)
{
	for (size_t i = 0; i < run_nclasses; i++) {
		struct run_class_rows *rows = &r->class_rows[i];
		size_t n = rows->n;
		void *row;

		if (run_classes[i] != c)
			continue;
		rows->v = xgrow(rows->v, &n, size);
		row = (char *)rows->v + rows->n * size;
		rows->n = n;
		return row;
	}
	abort(); /* a class not in the table */
}

/* No targets named: what each class finds here, else what characterises the host. */
static void discover(const struct run_options *o, struct run_result *r)
{
	size_t i;

	for (i = 0; i < run_nclasses; i++)
		if (run_classes[i]->discover)
			run_classes[i]->discover(o, r);
	for (i = 0; i < r->nplan; i++)
		if (r->plan[i].on_usb)
			return;
	r->no_usb = true;
	for (i = 0; i < run_nclasses; i++)
		if (run_classes[i]->discover_host)
			run_classes[i]->discover_host(o, r);
}

/* the class a named target belongs to: the first that claims it, else the catch-all */
static const struct measure_class *class_of_target(const char *t, const struct stat *st)
{
	size_t i;

	for (i = 0; i < run_nclasses; i++)
		if (!run_classes[i]->claims_rest && run_classes[i]->claims &&
		    run_classes[i]->claims(t, st))
			return run_classes[i];
	for (i = 0; i < run_nclasses; i++)
		if (run_classes[i]->claims_rest && run_classes[i]->claims(t, st))
			return run_classes[i];
	return NULL;
}

int run_check_targets(const struct run_options *o, char **ret_why)
{
	struct strbuf why = STRBUF_INIT;
	struct stat st;
	size_t i;

	*ret_why = NULL;
	/* what the classes' own options ask for (--copy's sides: directories with room) */
	for (i = 0; i < run_nclasses; i++)
		if (run_classes[i]->check_options && run_classes[i]->check_options(o, ret_why) < 0)
			return -EINVAL;

	for (i = 0; i < o->ntargets; i++) {
		const char *t = o->targets[i];
		bool exists = stat(t, &st) == 0;
		const struct measure_class *c = class_of_target(t, exists ? &st : NULL);

		if (c && c->check_target) {
			if (c->check_target(o, t, ret_why) < 0)
				return -EINVAL;
			continue;
		}
		if (!exists) {
			strbuf_addf(&why, "target '%s': %s", t, strerror(errno));
			*ret_why = strbuf_detach(&why);
			return -EINVAL;
		}
		if (!c) {
			strbuf_addf(&why, "target '%s': not a thing run measures", t);
			*ret_why = strbuf_detach(&why);
			return -EINVAL;
		}
	}
	return 0;
}

/* a class whose own options replace targets and discovery (--copy): true when one planned */
static bool plan_options(const struct run_options *o, struct run_result *r)
{
	for (size_t i = 0; i < run_nclasses; i++)
		if (run_classes[i]->plan_options && run_classes[i]->plan_options(o, r))
			return true;
	return false;
}

static void plan_explicit(const struct run_options *o, struct run_result *r)
{
	struct stat st;
	size_t i;

	for (i = 0; i < o->ntargets; i++) {
		const char *t = o->targets[i];
		bool exists = stat(t, &st) == 0;
		const struct measure_class *c = class_of_target(t, exists ? &st : NULL);
		struct run_plan_item *it;

		it = run_plan_add(r, c, t, NULL, "path", false, "named on the command line");
		it->named = true;
		if (c->plan_target)
			c->plan_target(o, r, it);
	}
}

/*
 * The machine, whatever it is called: FNV-1a (64 bits) over usbperf's key
 * and /etc/machine-id, as 16 hex digits. The id itself stays on the machine
 * (systemd's advice); a 64-bit digest of 128 random bits cannot give it
 * back. 0 and NULL without one.
 */
static char *machine_hash(uint64_t *ret)
{
	static const char key[] = "usbperf machine:";
	char id[64] = "";
	uint64_t h = 0xcbf29ce484222325ull;
	FILE *f = fopen("/etc/machine-id", "re");
	char *out;

	*ret = 0;
	if (!f)
		return NULL;
	if (!fgets(id, sizeof(id), f))
		id[0] = '\0';
	fclose(f);
	id[strcspn(id, "\n")] = '\0';
	if (strlen(id) < 16)
		return NULL;
	for (const char *c = key; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	for (const char *c = id; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	out = malloc(17);
	if (!out)
		abort();
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	*ret = h;
	return out;
}

static void fill_env(struct run_env *e, const struct sysinfo_facts *si, uint64_t *ret_machine)
{
	char host[256];

	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		e->hostname = xstrdup(host);
	}
	e->board = xstrdup(si->board);
	e->kernel = xstrdup(si->kernel);
	e->kernel_build = xstrdup(si->kernel_version);
	e->preempt = xstrdup(si->preempt_model);
	e->governor = si->npolicies ? xstrdup(si->policies[0].governor) : NULL;
	e->usbperf_version = xstrdup(USBPERF_VERSION);
	e->machine = machine_hash(ret_machine);
}

/*
 * "20261130T051200Z-3f2a1c": sorts by time, unique enough across a board
 * farm: two boards in the same second differ by their machines' hashes,
 * two runs of one board by the clock and the process
 */
static void make_id(struct run_record *rec, time_t now, uint64_t machine)
{
	struct strbuf sb = STRBUF_INIT;
	char ts[32];
	uint64_t salt = clock_now_ns() ^ ((uint64_t)getpid() << 20) ^ machine ^ (machine >> 24) ^
			(machine >> 48);

	strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", gmtime(&now));
	strbuf_addf(&sb, "%s-%06llx", ts, (unsigned long long)(salt & 0xffffff));
	rec->id = strbuf_detach(&sb);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	rec->started_at = xstrdup(ts);
}

static const struct usb_device *usb_dev_at(const struct usb_topology *t, const char *path)
{
	for (size_t i = 0; path && i < t->ndev; i++)
		if (!strcmp(t->dev[i].path, path))
			return &t->dev[i];
	return NULL;
}

/* "2-1 05e3:0610 high > 2-1.4 05e3:0608 high": the hubs from the root down */
static char *hubs_above(const struct usb_topology *t, const struct usb_device *u)
{
	struct strbuf sb = STRBUF_INIT, hop = STRBUF_INIT;

	for (u = usb_dev_at(t, u->parent); u && !u->is_root_hub; u = usb_dev_at(t, u->parent)) {
		strbuf_reset(&hop);
		strbuf_addf(&hop, "%s %s %s%s%s", u->path, u->vid_pid ? u->vid_pid : "-",
			    u->speed_name ? u->speed_name : "-", sb.len ? " > " : "", sb.buf);
		strbuf_reset(&sb);
		strbuf_adds(&sb, hop.buf);
	}
	strbuf_release(&hop);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* "xhci_hcd 0000:00:14.0": the host controller of u's bus */
static char *controller_of(const struct usb_topology *t, const struct usb_device *u)
{
	for (size_t j = 0; j < t->nctl; j++) {
		struct strbuf sb = STRBUF_INIT;

		if (t->ctl[j].busnum != u->busnum)
			continue;
		strbuf_addf(&sb, "%s %s", t->ctl[j].driver ? t->ctl[j].driver : "-",
			    t->ctl[j].name ? t->ctl[j].name : "-");
		return strbuf_detach(&sb);
	}
	return NULL;
}

static bool measured(const struct run_record *rec, const char *path)
{
	for (size_t i = 0; i < rec->ndevices; i++)
		if (rec->devices[i].port_path && !strcmp(rec->devices[i].port_path, path))
			return true;
	return false;
}

/* the device's class, or its first interface's when the device defers to them */
static const char *class_of(const struct usb_topology *t, const struct usb_device *u)
{
	if (u->class_name && strcmp(u->class_name, "per-interface"))
		return u->class_name;
	for (size_t i = 0; i < t->nintf; i++)
		if (t->intf[i].device && !strcmp(t->intf[i].device, u->path) &&
		    t->intf[i].class_name)
			return t->intf[i].class_name;
	return NULL;
}

/* the USB devices found and neither measured nor already listed with why */
static void unmeasured_rest(const struct run_options *o, struct run_result *r)
{
	const struct usb_topology *t = r->topo;
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; t && i < t->ndev; i++) {
		const struct usb_device *u = &t->dev[i];
		const char *cls = class_of(t, u);

		/* hubs show as the "via" of what hangs off them */
		if (u->is_root_hub || u->hub_ports || measured(&r->rec, u->path))
			continue;
		strbuf_reset(&why);
		if (o->ntargets || r->from_options) {
			strbuf_adds(&why, "not among the targets named on the command line");
		} else {
			strbuf_addf(&why, "a %s device: run measures ", cls ? cls : "USB");
			for (size_t k = 0, n = 0; k < run_nclasses; k++) {
				if (!run_classes[k]->what)
					continue;
				strbuf_addf(&why, "%s%s", n++ ? ", " : "", run_classes[k]->what);
			}
		}
		run_unmeasured_add(r, u->path, "usb", NULL, why.buf);
	}
	strbuf_release(&why);
}

/* how each USB device hangs off its controller: what the report's topology draws */
static void usb_facts(struct run_record *rec, const struct usb_topology *t)
{
	for (size_t i = 0; i < rec->ndevices; i++) {
		struct run_device *d = &rec->devices[i];
		const struct usb_device *u = usb_dev_at(t, d->port_path);

		if (!u)
			continue;
		if (!d->serial)
			d->serial = xstrdup(u->serial);
		d->capable_speed = xstrdup(u->capable_name);
		d->via = hubs_above(t, u);
		if (!d->controller)
			d->controller = controller_of(t, u);
	}
}

void run_device_attach(struct run_device *d, const struct usb_attach *a)
{
	d->vid_pid = xstrdup(a->vid_pid);
	d->product = xstrdup(a->product);
	d->port_path = xstrdup(a->device);
	d->speed = xstrdup(a->speed_name);
	d->driver = xstrdup(a->driver);
	d->ceiling_mb_s = a->ceiling_mb_s;
}

int run_prepare(const struct run_options *o, struct run_result *ret, char **ret_why)
{
	struct run_result r = {0};
	uint64_t machine;
	time_t now;
	size_t i;
	int rc;

	*ret_why = NULL;
	rc = run_check_targets(o, ret_why);
	if (rc < 0)
		return rc;
	r.t0 = clock_now_ns();
	now = time(NULL);
	r.rec.command_line = xstrdup(o->command_line);
	r.si = calloc(1, sizeof(*r.si));
	r.topo = calloc(1, sizeof(*r.topo));
	if (!r.si || !r.topo)
		abort();
	sysinfo_probe(r.si);
	fill_env(&r.rec.env, r.si, &machine);
	make_id(&r.rec, now, machine);
	usb_topology_probe(r.topo);
	/* a class's own options (--copy) are the whole plan; else the targets, else discovery */
	r.from_options = plan_options(o, &r);
	if (!r.from_options && o->ntargets)
		plan_explicit(o, &r);
	else if (!r.from_options)
		discover(o, &r);
	/* every target is opened, and so passes the safety rules, before any is measured */
	for (i = 0; i < r.nplan; i++) {
		struct run_plan_item *it = &r.plan[i];
		char *why = NULL;

		rc = it->cls->prepare ? it->cls->prepare(o, &r, it, &why) : 0;
		if (rc >= 0) {
			it->prepared = true;
			continue;
		}
		if (it->named) {
			/* a target the user named and we cannot use: say so, run nothing */
			*ret_why = why ? why : xstrdup(strerror(-rc));
			run_result_release(&r);
			return -EINVAL;
		}
		run_note(&r, "%s: not measured: %s", it->path, why ? why : strerror(-rc));
		run_unmeasured_add(&r, it->device_key, it->kind, it->path,
				   why ? why : strerror(-rc));
		free(why);
	}
	*ret = r;
	return 0;
}

static bool stopped(const struct run_options *o)
{
	return o->stop && *o->stop;
}

/* every prepared item of class c, in plan order; then the class closes what it opened */
static int measure_class(const struct run_options *o, struct run_result *r,
			 const struct measure_class *c, char **ret_why)
{
	int rc = 0;

	for (size_t i = 0; i < r->nplan && !stopped(o); i++) {
		struct run_plan_item *it = &r->plan[i];
		char *why = NULL;

		if (it->cls != c || !it->prepared)
			continue;
		rc = c->measure(o, r, it, &why);
		if (rc >= 0) {
			rc = 0;
			continue;
		}
		if (it->named || rc == -EINTR || stopped(o)) {
			/* what the user asked for failed: the run has no answer */
			*ret_why = why ? why : xstrdup(strerror(-rc));
			break;
		}
		run_note(r, "not measured: %s", why ? why : strerror(-rc));
		run_unmeasured_add(r, it->device_key, it->kind, it->path,
				   why ? why : "the test failed");
		free(why);
		rc = 0;
	}
	if (c->finish)
		c->finish(r);
	return rc;
}

/* the passes ahead of other work at nice 0 (platform/sys/priority.h); a note when they cannot be */
static void measure_priority(const struct run_options *o, struct run_record *rec,
			     struct priority_saved *saved)
{
	int want = o->nice_set ? o->nice : PRIORITY_RUN_NICE, now;
	int r = priority_set(want, !o->nice_set, saved, &now);
	char note[200];

	if (r == 0)
		return;
	snprintf(note, sizeof(note),
		 "measured at nice %d, not %d (%s): other work on the CPUs may delay the "
		 "passes' wake-ups",
		 now, want, strerror(-r));
	run_record_add_note(rec, note);
}

int run_measure(const struct run_options *o, struct run_result *r, char **ret_why)
{
	struct priority_saved prio;
	int rc = 0;

	*ret_why = NULL;
	measure_priority(o, &r->rec, &prio);
	for (size_t k = 0; k < run_nclasses && rc == 0; k++)
		rc = measure_class(o, r, run_classes[k], ret_why);
	priority_restore(&prio);
	/* what was opened is closed, even after a failure */
	for (size_t k = 0; k < run_nclasses; k++)
		if (run_classes[k]->finish)
			run_classes[k]->finish(r);
	if (rc < 0)
		return -EINVAL;
	/* how devices are attached and what the system will distort, then the figures */
	usb_facts(&r->rec, r->topo);
	unmeasured_rest(o, r);
	usb_topology_findings(r->topo, &r->rec.findings);
	if (r->topo) {
		/* measured devices behind one hub: they share its link */
		const char **ports = calloc(r->rec.ndevices + 1, sizeof(*ports));

		if (!ports)
			abort();
		for (size_t i = 0; i < r->rec.ndevices; i++)
			ports[i] = r->rec.devices[i].port_path;
		usb_shared_hub_findings(r->topo, ports, r->rec.ndevices, &r->rec.findings);
		free(ports);
	}
	sysinfo_findings(r->si, &r->rec.findings);
	r->rec.duration_s = (double)(clock_now_ns() - r->t0) / 1e9;
	run_analyze(r);
	return 0;
}

void run_analyze(struct run_result *r)
{
	for (size_t k = 0; k < run_nclasses; k++)
		if (run_classes[k]->analyze)
			run_classes[k]->analyze(r);
	run_pass_sys_findings(r);
	run_verdicts(&r->rec);
	run_findings_order(&r->rec, r->topo);
}

void run_estimate_describe(const struct run_options *o, const struct run_result *r,
			   struct strbuf *out)
{
	struct estimate e = {0};

	for (size_t i = 0; i < r->nplan; i++) {
		const struct run_plan_item *it = &r->plan[i];
		struct class_estimate ce = {0};

		if (!it->prepared || !it->cls->estimate)
			continue;
		it->cls->estimate(o, it, &e, &ce);
		/* one entry a kind of pass: "2 network passes of 6 s" */
		estimate_add_other(&e, ce.what, ce.passes, ce.pass_s);
	}
	estimate_describe(&e, out);
}

int run_execute(const struct run_options *o, struct run_result *ret, char **ret_why)
{
	int rc = run_prepare(o, ret, ret_why);

	if (rc < 0)
		return rc;
	rc = run_measure(o, ret, ret_why);
	if (rc < 0)
		run_result_release(ret);
	return rc;
}

void run_result_release(struct run_result *r)
{
	size_t i;

	for (i = 0; i < run_nclasses; i++)
		if (run_classes[i]->finish)
			run_classes[i]->finish(r);
	if (r->topo)
		usb_topology_release(r->topo);
	free(r->topo);
	if (r->si)
		sysinfo_release(r->si);
	free(r->si);
	for (i = 0; i < r->nplan; i++) {
		struct run_plan_item *it = &r->plan[i];

		if (it->cls && it->cls->release)
			it->cls->release(it);
		free_all(it->path, it->device_key, it->why);
	}
	free(r->plan);
	for (i = 0; i < RUN_MAX_CLASSES; i++)
		free(r->class_rows[i].v);
	free(r->rows);
	run_record_release(&r->rec);
	memset(r, 0, sizeof(*r));
}

// SPDX-License-Identifier: MIT
/* usbperf run: plan the targets, measure each, build the record. */
#include "core/disk/safety.h"
#include "core/run/run_priv.h"
#include "core/sys/sysinfo.h"
#include "core/usb/attach.h"
#include "core/usb/topology.h"
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

/* not iperf3's 5201: a server the user runs there stays undisturbed */
#define RUN_LOOPBACK_PORT 5299u

struct run_row *run_add_row(struct run_result *r)
{
	struct run_row *row;

	r->rows = xgrow(r->rows, &r->nrows, sizeof(*r->rows));
	row = &r->rows[r->nrows - 1];
	/* what only disk passes have: unknown, not 0, for the others */
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

/* a device found and not measured: in the record with why, for the report's topology */
static void unmeasured_add(struct run_result *r, const char *key, const char *kind,
			   const char *name, const char *why)
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

static void plan_add(struct run_result *r, const char *path, const char *key, const char *kind,
		     bool read_only, const char *why)
{
	struct run_plan_item *p;

	r->plan = xgrow(r->plan, &r->nplan, sizeof(*r->plan));
	p = &r->plan[r->nplan - 1];
	p->path = xstrdup(path);
	p->device_key = xstrdup(key);
	p->kind = kind;
	p->read_only = read_only;
	p->why = xstrdup(why);
}

/* a mounted, writable filesystem of this disk (the disk itself or a partition) */
static const struct usb_node *writable_mount(const struct usb_topology *t, const char *disk)
{
	size_t i;

	for (i = 0; i < t->nnode; i++) {
		const struct usb_node *n = &t->node[i];

		if (!n->mount_point ||
		    (strcmp(n->name, disk) && !(n->parent_name && !strcmp(n->parent_name, disk))))
			continue;
		if (access(n->mount_point, W_OK) == 0)
			return n;
	}
	return NULL;
}

static bool has_disk(const struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->nplan; i++)
		if (!r->plan[i].net_host)
			return true;
	return false;
}

/* No targets named: every USB disk, else the host's scratch directory. */
static void discover(const struct run_options *o, const struct usb_topology *t,
		     struct run_result *r)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;

	for (i = 0; i < t->nnode; i++) {
		const struct usb_node *n = &t->node[i], *m;

		if (strcmp(n->kind, "disk"))
			continue;
		strbuf_reset(&why);
		m = writable_mount(t, n->name);
		if (m) {
			strbuf_addf(&why, "%s is mounted %s on %s: a test file there", m->name,
				    m->fs_type ? m->fs_type : "", m->mount_point);
			plan_add(r, m->mount_point, n->device, "usb-storage", false, why.buf);
		} else {
			strbuf_addf(&why, "%s has no writable mount: reads of the raw device only",
				    n->dev_node);
			plan_add(r, n->dev_node, n->device, "usb-storage", true, why.buf);
		}
	}
	for (i = 0; i < t->nnode; i++) {
		const struct usb_node *n = &t->node[i];
		struct strbuf path = STRBUF_INIT;

		if (strcmp(n->kind, "net"))
			continue;
		if (!o->peer) {
			run_note(
			    r,
			    "%s (USB %s) is a network interface: 'usbperf run --peer HOST' "
			    "measures it against a usbperf or iperf3 server (usbperf net server, "
			    "iperf3 -s) reached through it",
			    n->name, n->device);
			unmeasured_add(r, n->device, "usb-net", n->name,
				       "a network interface: measured only with --peer HOST (a "
				       "usbperf net server or iperf3 -s reached through it)");
			continue;
		}
		strbuf_addf(&path, "net:%s via %s", o->peer, n->name);
		strbuf_reset(&why);
		strbuf_addf(&why,
			    "%s is a USB network interface: TCP each way to --peer %s through it",
			    n->name, o->peer);
		plan_add(r, path.buf, n->device, "usb-net", false, why.buf);
		r->plan[r->nplan - 1].net_host = xstrdup(o->peer);
		r->plan[r->nplan - 1].net_iface = xstrdup(n->name);
		r->plan[r->nplan - 1].device_key_from_usb = true;
		strbuf_release(&path);
	}
	if (!has_disk(r)) {
		r->no_usb = true;
		strbuf_reset(&why);
		strbuf_addf(&why, "no USB disk here: the host's %s characterises this machine",
			    run_scratch(o));
		plan_add(r, run_scratch(o), "host", "host-disk", false, why.buf);
		plan_add(r, "net:127.0.0.1 (loopback)", "loopback", "host-net", false,
			 "no USB network interface here: the host's loopback, against a usbperf "
			 "server run for it");
		r->plan[r->nplan - 1].net_host = xstrdup("127.0.0.1");
		r->plan[r->nplan - 1].net_port = RUN_LOOPBACK_PORT;
	}
	strbuf_release(&why);
}

const char *run_scratch(const struct run_options *o)
{
	return o->scratch ? o->scratch : "/var/tmp";
}

int run_check_targets(const struct run_options *o, char **ret_why)
{
	struct strbuf why = STRBUF_INIT;
	struct stat st;
	size_t i;

	*ret_why = NULL;
	/* --copy writes its own files into both: each must be a directory, with room */
	if (o->copy_src && run_copy_check(o->copy_src, o->copy_dst,
					  o->size ? o->size : RUN_QUICK_SIZE, ret_why) < 0)
		return -EINVAL;
	if (o->scratch && safety_check_dir(o->scratch, 0, ret_why) < 0) {
		strbuf_addf(&why, "--scratch: %s", *ret_why);
		free(*ret_why);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}

	for (i = 0; i < o->ntargets; i++) {
		const char *t = o->targets[i];

		if (!strncmp(t, "net:", 4)) {
			if (t[4])
				continue;
			strbuf_addf(&why,
				    "target '%s': expected net:HOST (a usbperf or iperf3 "
				    "server)",
				    t);
			*ret_why = strbuf_detach(&why);
			return -EINVAL;
		}
		if (stat(t, &st) < 0) {
			strbuf_addf(&why, "target '%s': %s", t, strerror(errno));
			*ret_why = strbuf_detach(&why);
			return -EINVAL;
		}
	}
	return 0;
}

static void plan_explicit(const struct run_options *o, struct run_result *r)
{
	struct stat st;
	size_t i;

	for (i = 0; i < o->ntargets; i++) {
		const char *t = o->targets[i];

		if (!strncmp(t, "net:", 4)) {
			plan_add(r, t, t, "net", false, "named on the command line: TCP each way");
			r->plan[r->nplan - 1].net_host = xstrdup(t + 4);
			continue;
		}
		if (stat(t, &st) < 0)
			st.st_mode = 0;
		plan_add(r, t, NULL, S_ISBLK(st.st_mode) ? "block-device" : "path",
			 S_ISBLK(st.st_mode) && !o->destructive, "named on the command line");
	}
}

static void fill_env(struct run_env *e, const struct sysinfo_facts *si)
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
}

/* "20261130T051200Z-3f2a1c": sorts by time, unique enough across a board farm */
static void make_id(struct run_record *rec, time_t now)
{
	struct strbuf sb = STRBUF_INIT;
	char ts[32];
	uint64_t salt = clock_now_ns() ^ ((uint64_t)getpid() << 20);

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
		if (o->ntargets || o->copy_src)
			strbuf_adds(&why, "not among the targets named on the command line");
		else
			strbuf_addf(&why,
				    "a %s device: run measures USB disks and network "
				    "interfaces",
				    cls ? cls : "USB");
		unmeasured_add(r, u->path, "usb", NULL, why.buf);
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

static int measure_copy(const struct run_options *o, struct run_result *r, char **ret_why)
{
	size_t i;
	int rc;

	rc = run_copy(o->copy_src, o->copy_dst, o->size ? o->size : RUN_QUICK_SIZE,
		      o->time_s > 0 ? o->time_s : (o->full ? RUN_FULL_TIME_S : RUN_QUICK_TIME_S),
		      o->stop, r->copy, &r->ncopy, ret_why);
	if (rc < 0)
		return rc;
	if (r->ncopy) {
		struct run_device *d = run_record_add_device(&r->rec);
		struct strbuf t = STRBUF_INIT;

		strbuf_addf(&t, "%s -> %s", o->copy_src, o->copy_dst);
		d->key = xstrdup("copy");
		d->kind = xstrdup("copy");
		d->target = strbuf_detach(&t);
	}
	for (i = 0; i < r->ncopy; i++) {
		struct run_row *row;
		struct run_metric *m;
		char sz[24], name[48];

		format_size(r->copy[i].chunk, sz, sizeof(sz));
		snprintf(name, sizeof(name), "copy %s", sz);
		m = run_record_add_metric(&r->rec, "copy", "copy", name, "mb_s", "MB/s", true);
		m->value = r->copy[i].mb_s;
		m->repeats = 1;
		row = run_add_row(r);
		row->device = "copy";
		row->target = o->copy_dst;
		row->pass = m->name; /* owned by the record, which lives as long */
		row->op = "copy";
		row->bs = r->copy[i].chunk;
		row->qd = 1;
		row->mb_s = r->copy[i].mb_s;
		row->mib_s = r->copy[i].mb_s * 1e6 / 1048576.0;
		row->mb_s_sd = row->iops = row->lat_p99_us = row->self_cpu_pct = NAN;
		row->ceiling_mb_s = row->efficiency_pct = NAN;
	}
	return 0;
}

int run_prepare(const struct run_options *o, struct run_result *ret, char **ret_why)
{
	struct run_result r = {0};
	size_t i;
	int rc;

	*ret_why = NULL;
	rc = run_check_targets(o, ret_why);
	if (rc < 0)
		return rc;
	r.t0 = clock_now_ns();
	make_id(&r.rec, time(NULL));
	r.rec.command_line = xstrdup(o->command_line);
	r.si = calloc(1, sizeof(*r.si));
	r.topo = calloc(1, sizeof(*r.topo));
	if (!r.si || !r.topo)
		abort();
	sysinfo_probe(r.si);
	fill_env(&r.rec.env, r.si);
	usb_topology_probe(r.topo);
	if (o->copy_src) {
		plan_add(&r, o->copy_src, "source", "copy-source", false, "--copy: the side read");
		plan_add(&r, o->copy_dst, "destination", "copy-destination", false,
			 "--copy: the side written");
	} else if (o->ntargets) {
		plan_explicit(o, &r);
	} else {
		discover(o, r.topo, &r);
	}
	r.disks = calloc(r.nplan ? r.nplan : 1, sizeof(*r.disks));
	r.specs = calloc(r.nplan ? r.nplan : 1, sizeof(*r.specs));
	if (!r.disks || !r.specs)
		abort();
	/* every target is opened, and so passes the safety rules, before any is measured */
	for (i = 0; i < r.nplan; i++) {
		char *why = NULL;

		if (r.plan[i].net_host)
			continue;
		rc = run_disk_open(o, &r, i, &why);
		if (rc >= 0)
			continue;
		if (o->ntargets || o->copy_src) {
			/* a target the user named and we cannot use: say so, run nothing */
			*ret_why = why ? why : xstrdup(strerror(-rc));
			run_result_release(&r);
			return -EINVAL;
		}
		run_note(&r, "%s: not measured: %s", r.plan[i].path, why ? why : strerror(-rc));
		unmeasured_add(&r, r.plan[i].device_key, r.plan[i].kind, r.plan[i].path,
			       why ? why : strerror(-rc));
		free(why);
	}
	*ret = r;
	return 0;
}

int run_measure(const struct run_options *o, struct run_result *r, char **ret_why)
{
	size_t i;
	int rc = 0;

	*ret_why = NULL;
	for (i = 0; i < r->nopen && !(o->stop && *o->stop); i++) {
		rc = run_disk_measure(r->topo, r, i);
		if (rc < 0) {
			*ret_why = xstrdup(strerror(-rc));
			break;
		}
	}
	run_disk_close_all(r);
	for (i = 0; rc == 0 && i < r->nplan && !(o->stop && *o->stop); i++) {
		char *why = NULL;

		/* after the disks: devices[0..ndisks) pair with disks[] */
		if (!r->plan[i].net_host)
			continue;
		rc = r->plan[i].net_port == RUN_LOOPBACK_PORT
			 ? run_net_loopback(o, r, &r->plan[i], &why)
			 : run_net_target(o, r, &r->plan[i], &why);
		if (rc < 0 && o->ntargets) {
			*ret_why = why;
			break;
		}
		if (rc < 0) {
			run_note(r, "not measured: %s", why);
			unmeasured_add(r, r->plan[i].device_key, r->plan[i].kind, r->plan[i].path,
				       why ? why : "the test failed");
		}
		free(rc < 0 ? why : NULL);
		rc = 0;
	}
	if (rc == 0 && o->copy_src && r->ndisks == 2 && !(o->stop && *o->stop))
		rc = measure_copy(o, r, ret_why);
	if (rc < 0)
		return -EINVAL;
	/* how devices are attached and what the system will distort, then the figures */
	usb_facts(&r->rec, r->topo);
	unmeasured_rest(o, r);
	usb_topology_findings(r->topo, &r->rec.findings);
	sysinfo_findings(r->si, &r->rec.findings);
	r->rec.duration_s = (double)(clock_now_ns() - r->t0) / 1e9;
	run_analyze(r);
	return 0;
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

	run_disk_close_all(r);
	if (r->topo)
		usb_topology_release(r->topo);
	free(r->topo);
	if (r->si)
		sysinfo_release(r->si);
	free(r->si);
	for (i = 0; i < r->nplan; i++) {
		free(r->plan[i].path);
		free(r->plan[i].device_key);
		free(r->plan[i].why);
		free(r->plan[i].net_host);
		free(r->plan[i].net_iface);
	}
	free(r->plan);
	for (i = 0; i < r->ndisks; i++)
		disk_report_release(&r->disks[i]);
	free(r->disks);
	free(r->specs);
	free(r->rows);
	run_record_release(&r->rec);
	memset(r, 0, sizeof(*r));
}

// SPDX-License-Identifier: MIT
/*
 * Raw bulk as a class of `usbperf run` (run/class.h): every Linux
 * SourceSink or Loopback gadget (0525:a4a0) the host sees is measured with
 * a short sweep through libusb, the kernel driver (usbtest) detached and
 * given back: the controller's own ceiling, with no storage or network
 * stack in the way, for the disks' figures to be held against.
 */
#include "classes/bulk/bulk.h"
#include "run/class_kit.h"
#include "run/pass_sys.h"
#include "run/run_priv.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_bulk;

#define BULK_RUN_POINT_S 0.5

struct bulk_item {
	struct bulk_sysdev dev; /* copied from the discovery */
};

/* the quick sweep: each way at 64K, and 1M reads, 8 in flight */
static const struct {
	enum bulk_dir dir;
	uint64_t size;
	unsigned depth;
} points[] = {
    {BULK_DIR_IN, 64 << 10, 8},
    {BULK_DIR_IN, 1 << 20, 8},
    {BULK_DIR_OUT, 64 << 10, 8},
    {BULK_DIR_BOTH, 64 << 10, 8},
};

static const struct class_metric bulk_metrics[] = {
    CLASS_RATE("mb_s", "MB/s", "rate"),
};

static void bulk_discover(const struct run_options *o, struct run_result *r)
{
	const struct bulk_select sel = {.name = NULL, .vid = BULK_DEFAULT_VID,
					.pid = BULK_DEFAULT_PID};
	struct bulk_sysdev *v = NULL;
	size_t n = 0;

	(void)o;
	if (bulk_find_devices(&sel, &v, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		struct bulk_item *b = calloc(1, sizeof(*b));
		struct strbuf why = STRBUF_INIT;
		struct run_plan_item *it;

		if (!b)
			abort();
		b->dev = v[i];
		b->dev.sysname = xstrdup(v[i].sysname);
		b->dev.product = xstrdup(v[i].product);
		strbuf_addf(&why,
			    "%s is a SourceSink/Loopback gadget (%04x:%04x): raw bulk through libusb, "
			    "the controller's own ceiling",
			    v[i].sysname, v[i].vid, v[i].pid);
		it = run_plan_add(r, &run_class_bulk, v[i].sysname, v[i].sysname, "usb-bulk",
				  false, why.buf);
		it->on_usb = true;
		it->device_key_from_usb = true;
		it->state = b;
		strbuf_release(&why);
	}
	bulk_sysdevs_free(v, n);
}

static void bulk_estimate(const struct run_options *o, const struct run_plan_item *it,
			  struct estimate *e, struct class_estimate *ret)
{
	(void)o;
	(void)it;
	(void)e;
	*ret = (struct class_estimate){"bulk", sizeof(points) / sizeof(points[0]),
				       BULK_RUN_POINT_S};
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct bulk_open_info *info)
{
	struct run_device *d;
	char id[16];

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	snprintf(id, sizeof(id), "%04x:%04x", info->dev.vid, info->dev.pid);
	d->vid_pid = xstrdup(id);
	d->product = xstrdup(info->dev.product);
	d->port_path = xstrdup(info->dev.sysname);
	d->speed = xstrdup(usb_speed_name(info->dev.speed));
	d->driver = xstrdup(info->detached);
	d->ceiling_mb_s = bulk_ceiling_mb_s(info->dev.speed, BULK_DIR_IN);
}

static int bulk_run_measure(const struct run_options *o, struct run_result *r,
			    struct run_plan_item *it, char **ret_why)
{
	const struct bulk_want want = {.iface = -1, .ep_in = -1, .ep_out = -1};
	struct bulk_item *b = class_item(it, &run_class_bulk);
	struct bulk_open_info info = {0};
	struct bulk_session *s = NULL;
	char why[256] = "";
	int rc;

	rc = bulk_open(&b->dev, &want, &s, &info, why, sizeof(why));
	if (rc < 0) {
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "%s: %s", it->path, why[0] ? why : strerror(-rc));
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	add_device(r, it, &info);
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]) && !(o->stop && *o->stop); i++) {
		struct bulk_point p = {
		    .dir = points[i].dir, .size = points[i].size, .depth = points[i].depth};
		struct run_metric *m;
		char name[64];

		if ((p.dir != BULK_DIR_OUT && !info.eps.ep_in) ||
		    (p.dir != BULK_DIR_IN && !info.eps.ep_out))
			continue;
		bulk_point_name(&p, name, sizeof(name));
		rc = bulk_measure(s, BULK_RUN_POINT_S, &p, why, sizeof(why));
		if (rc < 0) {
			run_note(r, "%s: %s: %s", it->path, name, why);
			continue;
		}
		if (!p.transfers) {
			run_note(r,
				 "%s: %s: no transfer completed (a Loopback gadget returns only what "
				 "it was sent)",
				 it->path, name);
			continue;
		}
		m = run_class_add_metric(&r->rec, &run_class_bulk, it->device_key, name, "mb_s");
		m->value = p.mb_s;
		m->repeats = 1;
		if (p.ceiling_mb_s > 0)
			m->ceiling = p.ceiling_mb_s;
		run_add_pass_sys(&r->rec, &run_class_bulk, it->device_key, name, &p.sys, 1);
	}
	bulk_close(s); /* usbtest given back */
	bulk_open_info_release(&info);
	return 0;
}

static void bulk_release(struct run_plan_item *it)
{
	struct bulk_item *b = class_item(it, &run_class_bulk);

	if (!b)
		return;
	bulk_sysdev_release(&b->dev);
	free(b);
	it->state = NULL;
}

/*
 * report: a point, "in-64K-q8", is its direction at that depth ("in q8")
 * against the transfer size
 */
static enum class_sweep bulk_sweep_point(const struct run_metric *m, struct class_sweep_point *ret)
{
	static const char *const dirs[] = {"in-", "out-", "both-"};
	const char *size, *q;
	char sz[24];
	uint64_t depth;
	size_t d;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (!strncmp(m->name, dirs[d], strlen(dirs[d])))
			break;
	if (d == sizeof(dirs) / sizeof(dirs[0]))
		return CLASS_SWEEP_NONE;
	size = m->name + strlen(dirs[d]);
	q = strstr(size, "-q");
	if (!q || (size_t)(q - size) >= sizeof(sz) || parse_u64(q + 2, 1, 65535, &depth) < 0)
		return CLASS_SWEEP_NONE;
	memcpy(sz, size, (size_t)(q - size));
	sz[q - size] = '\0';
	if (parse_size(sz, 1, UINT64_MAX, &ret->x) < 0 ||
	    snprintf(ret->label, sizeof(ret->label), "%.*s q%llu", (int)(strlen(dirs[d]) - 1),
		     dirs[d], (unsigned long long)depth) >= (int)sizeof(ret->label))
		return CLASS_SWEEP_NONE;
	/* the sweep's IOPS are its MB/s over the size: not drawn again */
	if (strcmp(m->metric, "mb_s"))
		return CLASS_SWEEP_OTHER;
	ret->axis = NULL; /* a block size */
	return CLASS_SWEEP_POINT;
}

/* reads first, as the disks' verdicts, against the link's bulk ceiling */
static const struct class_headline bulk_headline[] = {{"in-", "mb_s"}, {"", "mb_s"}};

const struct measure_class run_class_bulk = {
    .name = "bulk",
    .what = "SourceSink/Loopback gadgets",
    .discover = bulk_discover,
    .estimate = bulk_estimate,
    .measure = bulk_run_measure,
    .release = bulk_release,
    .metrics = bulk_metrics,
    .nmetrics = sizeof(bulk_metrics) / sizeof(bulk_metrics[0]),
    .sweep_point = bulk_sweep_point,
    .headline = bulk_headline,
    .nheadline = sizeof(bulk_headline) / sizeof(bulk_headline[0]),
};

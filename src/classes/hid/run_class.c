// SPDX-License-Identifier: MIT
/*
 * HID devices as a class of `usbperf run` (run/class.h): every hidraw
 * node of a HID device on USB, or one named on the command line, read for
 * a few seconds (input reports only: run writes nothing to a device it did
 * not make). The rate is held against the interrupt endpoint's ceiling. An
 * idle device (a keyboard nobody types on) sends nothing: that is said, not
 * measured as a rate of zero.
 */
#include "classes/hid/io.h"
#include "classes/hid/verdict.h"
#include "run/class_kit.h"
#include "run/pass_sys.h"
#include "run/run_priv.h"
#include "platform/usb/topology.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_hid;

#define HID_RUN_S 3.0
#define HID_IDLE_S 1.0 /* after the first report: none for this long ends the pass */

struct hid_item {
	struct hid_device dev;
	bool probed;
	struct hid_pass pass;
	bool measured;
};

static const struct class_metric hid_metrics[] = {
    CLASS_RATE("reports_per_s", "reports/s", "reports/s"),
    CLASS_RATE("bytes_per_s", "B/s", "B/s"),
    CLASS_TAIL("interval_p99_us", "us", "p99 interval"),
    CLASS_TAIL("interval_max_us", "us", "max interval"),
};

/* every hidraw node on USB, as list finds them */
static void hid_discover(const struct run_options *o, struct run_result *r)
{
	const struct usb_topology *t = r->topo;

	(void)o;
	for (size_t i = 0; t && i < t->nnode; i++) {
		const struct usb_node *n = &t->node[i];
		struct strbuf why = STRBUF_INIT;
		struct run_plan_item *it;

		if (strcmp(n->kind, USB_NODE_HIDRAW) || !n->dev_node)
			continue;
		strbuf_addf(&why, "%s is a HID device on USB %s: its input reports for %g s, read only",
			    n->dev_node, n->device, HID_RUN_S);
		it = run_plan_add(r, &run_class_hid, n->dev_node, n->device, "usb-hid", true, why.buf);
		/* not what the host fallback waits for: a keyboard says nothing of the machine's I/O */
		it->device_key_from_usb = true;
		strbuf_release(&why);
	}
}

static bool hid_claims(const char *target, const struct stat *st)
{
	const char *base = strrchr(target, '/');

	base = base ? base + 1 : target;
	return st && S_ISCHR(st->st_mode) && !strncmp(base, "hidraw", 6);
}

static void hid_plan_target(const struct run_options *o, struct run_result *r,
			    struct run_plan_item *it)
{
	(void)o;
	(void)r;
	it->kind = "usb-hid";
	it->read_only = true;
}

static int hid_prepare(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct hid_item *h = calloc(1, sizeof(*h));
	struct strbuf why = STRBUF_INIT;
	int rc;

	(void)o;
	(void)r;
	if (!h)
		abort();
	it->state = h;
	rc = hid_device_probe(it->path, &h->dev, &why);
	if (rc < 0) {
		*ret_why = strbuf_detach(&why);
		return rc;
	}
	strbuf_release(&why);
	h->probed = true;
	if (h->dev.usb.device) {
		free(it->device_key);
		it->device_key = xstrdup(h->dev.usb.device);
		it->device_key_from_usb = true;
	}
	return 0;
}

static double run_seconds(const struct run_options *o)
{
	return o->time_s > 0 ? o->time_s : HID_RUN_S;
}

static void hid_estimate(const struct run_options *o, const struct run_plan_item *it,
			 struct estimate *e, struct class_estimate *ret)
{
	(void)it;
	(void)e;
	*ret = (struct class_estimate){"HID", 1, run_seconds(o)};
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct hid_item *h)
{
	struct run_device *d;

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	if (h->dev.usb.device)
		run_device_attach(d, &h->dev.usb);
}

void hid_pass_add_metrics(struct run_record *rec, const struct measure_class *c,
			  const char *device_key, const char *pass, const struct hid_pass *p,
			  const char *p99_key, const char *max_key)
{
	const struct {
		const char *key;
		double value, ceiling;
	} m[] = {
	    {"reports_per_s", p->reports_per_s, p->ceiling_reports_per_s},
	    {"bytes_per_s", p->Bps, p->ceiling_Bps},
	    {p99_key, p->p99_us, NAN},
	    {max_key, p->max_us, NAN},
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct run_metric *rm;

		if (!isfinite(m[i].value))
			continue;
		rm = run_class_add_metric(rec, c, device_key, pass, m[i].key);
		rm->value = m[i].value;
		rm->repeats = 1;
		if (m[i].ceiling > 0)
			rm->ceiling = m[i].ceiling;
	}
}

static void add_metrics(struct run_result *r, const struct run_plan_item *it,
			const struct hid_pass *p)
{
	hid_pass_add_metrics(&r->rec, &run_class_hid, it->device_key, "input reports", p,
			     "interval_p99_us", "interval_max_us");
	run_add_pass_sys(&r->rec, &run_class_hid, it->device_key, "input reports", &p->sys, 1);
}

static int hid_measure(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct hid_item *h = class_item(it, &run_class_hid);
	struct hid_io_config c = {
	    .time_s = run_seconds(o),
	    .report_bytes = h->dev.in_bytes,
	    .report_id = h->dev.in_id,
	    .first_timeout_s = run_seconds(o),
	    .idle_timeout_s = HID_IDLE_S,
	};
	struct strbuf w = STRBUF_INIT;
	int fd, rc;

	if (!h->dev.in.present || !h->dev.in_bytes) {
		run_unmeasured_add(r, it->device_key, it->kind, it->path,
				   "no interrupt IN endpoint or input report: nothing to read");
		return 0;
	}
	/* read only: run writes nothing to a device it did not make */
	fd = open(it->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		rc = -errno;
		strbuf_addf(&w, "%s: %s", it->path,
			    rc == -EWOULDBLOCK ? "another usbperf measures it" : strerror(-rc));
		*ret_why = strbuf_detach(&w);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	rc = hid_pass_run(fd, HID_PASS_IN, &c, &h->pass);
	close(fd);
	if (rc == -ETIMEDOUT) {
		struct strbuf why = STRBUF_INIT;

		/* found, and nothing to measure: not a device with a rate of zero */
		strbuf_addf(&why,
			    "no input report in %g s: an idle device (a keyboard or mouse not in "
			    "use) says nothing of its rate; 'usbperf hid' while it sends does",
			    c.first_timeout_s);
		run_note(r, "%s: %s", it->path, why.buf);
		run_unmeasured_add(r, it->device_key, it->kind, it->path, why.buf);
		strbuf_release(&why);
		return 0;
	}
	add_device(r, it, h);
	if (rc < 0) {
		strbuf_addf(&w, "%s: %s", it->path, strerror(-rc));
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	h->pass.path = "interrupt IN";
	hid_pass_set_ceiling(&h->pass, &h->dev.in);
	h->measured = true;
	add_metrics(r, it, &h->pass);
	hid_findings(&h->dev, &h->pass, 1, &r->rec.findings);
	return 0;
}

static void hid_release(struct run_plan_item *it)
{
	struct hid_item *h = class_item(it, &run_class_hid);

	if (!h)
		return;
	if (h->probed)
		hid_device_release(&h->dev);
	free(h);
	it->state = NULL;
}

#define HID_ENDPOINT_PCT 90.0 /* this close to one report per bInterval: the endpoint */

const char *hid_rate_verdict(const struct run_record *r, const struct run_device *d,
			     const char *test, const struct hid_rate_words *w, struct strbuf *ev,
			     double *ret_share_pct)
{
	const struct run_metric *m = run_record_metric(r, d->key, test, NULL, "reports_per_s");

	if (!m) {
		strbuf_adds(ev, w->none);
		return RUN_LIMITER_UNKNOWN;
	}
	strbuf_addf(ev, "%s: %s%.1f reports/s", m->name, w->rate, m->value);
	if (!(m->ceiling > 0)) {
		strbuf_adds(ev, ": no endpoint ceiling to hold it against");
		return RUN_LIMITER_UNKNOWN;
	}
	*ret_share_pct = 100 * m->value / m->ceiling;
	if (*ret_share_pct > 100)
		strbuf_addf(ev, ", above the %.1f/s %s", m->ceiling, w->ceiling);
	else
		strbuf_addf(ev, ", %.0f %% of the %.1f/s %s", *ret_share_pct, m->ceiling,
			    w->ceiling);
	if (*ret_share_pct > 100) {
		strbuf_adds(ev, ": an anomaly, faster than bInterval asks (the host controller "
				"polls faster)");
		return RUN_LIMITER_EMULATION;
	}
	if (*ret_share_pct >= HID_ENDPOINT_PCT) {
		strbuf_adds(ev, ": the endpoint's bInterval is the limit");
		return RUN_LIMITER_BUS;
	}
	strbuf_adds(ev, w->slower);
	return w->slower_limiter;
}

/* the rate against the interrupt endpoint's: its bInterval, or the device sends slower */
static const char *hid_verdict(const struct run_record *r, const struct run_device *d,
			       struct strbuf *ev, double *ret_share_pct)
{
	static const struct hid_rate_words w = {
	    .none = "no input report came: an idle device has no rate to judge",
	    .rate = "",
	    .ceiling = "its interrupt endpoint's bInterval allows",
	    .slower = ": the device sends slower than its endpoint allows",
	    .slower_limiter = RUN_LIMITER_DEVICE,
	};

	return hid_rate_verdict(r, d, run_class_hid.name, &w, ev, ret_share_pct);
}

const struct measure_class run_class_hid = {
    .name = "hid",
    .what = "HID devices",
    .discover = hid_discover,
    .claims = hid_claims,
    .plan_target = hid_plan_target,
    .prepare = hid_prepare,
    .estimate = hid_estimate,
    .measure = hid_measure,
    .release = hid_release,
    .metrics = hid_metrics,
    .nmetrics = sizeof(hid_metrics) / sizeof(hid_metrics[0]),
    .verdict = hid_verdict,
};

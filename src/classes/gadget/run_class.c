// SPDX-License-Identifier: MIT
/*
 * The device side as a class of `usbperf run` (run/class.h): on a
 * board that is a USB device, each HID function of a gadget usbperf made
 * (`usbperf gadget up hid:preset=vendor64`), bound and configured by a
 * host, is fed input reports for a few seconds: the reports/s the host
 * takes, against one per bInterval that f_hid declares at the UDC's speed.
 *
 * run writes only to what it made, and only reports no host driver turns
 * into input: a gadget of someone else's, or a keyboard or mouse
 * descriptor, is listed with why and left alone. The functions the host
 * drives (mass storage, networks, SourceSink) are named in a note: their
 * figures are measured from the host's side.
 */
#include "classes/gadget/state.h"
#include "classes/hid/gadget.h"
#include "classes/hid/io.h"
#include "classes/hid/verdict.h"
#include "run/class_kit.h"
#include "run/run_priv.h"
#include "platform/usb/gadget.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_gadget;

#define GADGET_RUN_S 3.0
#define GADGET_IDLE_S 1.0 /* no report taken for this long: the host stopped reading */
#define GADGET_FEW 10	  /* reports before the host stopped: f_hid's own queue, not a stream */
#define GADGET_KIND "usb-gadget-hid"

struct gadget_item {
	struct hid_gadget_fn fn;
	int fd;
	struct hid_pass pass;
};

static const struct class_metric gadget_metrics[] = {
    CLASS_RATE("reports_per_s", "reports/s", "reports/s"),
    CLASS_RATE("bytes_per_s", "B/s", "B/s"),
    CLASS_TAIL("write_p99_us", "us", "p99 write"),
    CLASS_TAIL("write_max_us", "us", "max write"),
};

static bool made_by_usbperf(const char *gadget)
{
	struct gadget_state st;
	char *why = NULL;
	bool yes = gadget_state_load(&st, gadget, &why) == 0;

	gadget_state_release(&st);
	free(why);
	return yes;
}

/* the record's device of a gadget: its UDC */
static char *udc_key(const char *udc)
{
	struct strbuf k = STRBUF_INIT;

	strbuf_addf(&k, "udc:%s", udc ? udc : "unbound");
	return strbuf_detach(&k);
}

/* why run does not feed this function; NULL: it may */
static const char *refusal(const struct hid_gadget_fn *f, bool named, struct strbuf *why)
{
	if (!named && !made_by_usbperf(f->gadget)) {
		strbuf_addf(why,
			    "gadget '%s' is not one usbperf made: run writes only to its own "
			    "('usbperf hid --gadget %s --send' measures it)",
			    f->gadget, f->node ? f->node : "/dev/hidgN");
		return why->buf;
	}
	if (!f->rdesc || !hid_rdesc_vendor_only(f->rdesc)) {
		strbuf_addf(why,
			    "%s/%s declares %s: its reports would be input on the host (keys, "
			    "pointer moves); run feeds only vendor-defined reports (usage page "
			    "0xFF00-0xFFFF)",
			    f->gadget, f->function,
			    f->rdesc ? "a non-vendor application"
				     : "no report descriptor usbperf reads");
		if (f->rdesc)
			strbuf_addf(why, ", this one's is 0x%04X", f->rdesc->top_usage_page);
		return why->buf;
	}
	if (!f->udc) {
		strbuf_addf(why, "gadget '%s' is bound to no UDC", f->gadget);
		return why->buf;
	}
	if (!f->udc_state || strcmp(f->udc_state, "configured")) {
		strbuf_addf(why, "no host has configured gadget '%s' (UDC %s state '%s')",
			    f->gadget, f->udc, f->udc_state ? f->udc_state : "unknown");
		return why->buf;
	}
	if (!f->report_length || !f->node) {
		strbuf_addf(why, "%s/%s: its %s is not in configfs or sysfs", f->gadget,
			    f->function, f->node ? "report length" : "device node");
		return why->buf;
	}
	return NULL;
}

static void note_host_driven(struct run_result *r, const struct gadget_facts *g,
			     const struct gadget_dev *d)
{
	struct strbuf names = STRBUF_INIT;
	const struct udc_info *u = NULL;

	for (size_t i = 0; i < g->nfunctions; i++) {
		const struct gadget_function *f = &g->functions[i];

		if (strcmp(f->gadget, d->name) || !f->configs || !f->type ||
		    !strcmp(f->type, "hid"))
			continue;
		strbuf_addf(&names, "%s%s", names.len ? ", " : "", f->name);
	}
	for (size_t i = 0; i < g->nudcs; i++)
		if (g->udcs[i].name && !strcmp(g->udcs[i].name, d->udc))
			u = &g->udcs[i];
	if (names.len)
		run_note(r,
			 "gadget '%s' on %s (%s, %s): %s carry what the host drives; their figures "
			 "are measured from the host's side (usbperf run there)",
			 d->name, d->udc,
			 u && u->current_speed ? u->current_speed : "speed unknown",
			 u && u->state ? u->state : "state unknown", names.buf);
	strbuf_release(&names);
}

/* every HID function of a bound gadget; the others in one note per gadget */
static void gadget_discover(const struct run_options *o, struct run_result *r)
{
	struct gadget_facts g = {0};

	(void)o;
	gadget_probe(&g);
	for (size_t i = 0; i < g.ngadgets; i++) {
		const struct gadget_dev *d = &g.gadgets[i];

		if (!d->udc)
			continue;
		note_host_driven(r, &g, d);
		for (size_t j = 0; j < g.nfunctions; j++) {
			const struct gadget_function *f = &g.functions[j];
			struct strbuf why = STRBUF_INIT;
			struct hid_gadget_fn fn;
			char *key;

			if (strcmp(f->gadget, d->name) || !f->configs || !f->type ||
			    strcmp(f->type, "hid") || hid_gadget_fn_read(d->name, f->name, &fn) < 0)
				continue;
			key = udc_key(d->udc);
			if (refusal(&fn, false, &why)) {
				run_unmeasured_add(r, key, GADGET_KIND, fn.node ? fn.node : f->name,
						   why.buf);
			} else {
				strbuf_reset(&why);
				strbuf_addf(
				    &why,
				    "%s is HID function %s of usbperf's gadget '%s' on %s: "
				    "vendor input reports for %g s, as fast as the host takes them",
				    fn.node, fn.function, fn.gadget, fn.udc, GADGET_RUN_S);
				/* measured besides: the host fallback still runs (as for cameras)
				 */
				(void)run_plan_add(r, &run_class_gadget, fn.node, key, GADGET_KIND,
						   false, why.buf);
			}
			free(key);
			strbuf_release(&why);
			hid_gadget_fn_release(&fn);
		}
	}
	gadget_facts_release(&g);
}

static bool gadget_claims(const char *target, const struct stat *st)
{
	(void)target;
	return hid_gadget_is_node(st);
}

static void gadget_plan_target(const struct run_options *o, struct run_result *r,
			       struct run_plan_item *it)
{
	(void)o;
	(void)r;
	it->kind = GADGET_KIND;
}

static int gadget_prepare(const struct run_options *o, struct run_result *r,
			  struct run_plan_item *it, char **ret_why)
{
	struct gadget_item *h = calloc(1, sizeof(*h));
	struct strbuf why = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	(void)o;
	(void)r;
	if (!h)
		abort();
	h->fd = -1;
	it->state = h;
	/* the node opened is the node judged: no swap between the two */
	h->fd = open(it->path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (h->fd < 0 || fstat(h->fd, &st) < 0) {
		rc = -errno;
		strbuf_addf(&why, "%s: %s", it->path, strerror(-rc));
		goto out;
	}
	if (!hid_gadget_is_node(&st) ||
	    hid_gadget_fn_of_dev(major(st.st_rdev), minor(st.st_rdev), &h->fn) < 0) {
		rc = -ENOTTY;
		strbuf_addf(&why, "%s is not the node of an f_hid function in configfs", it->path);
		goto out;
	}
	if (refusal(&h->fn, it->named, &why)) {
		rc = -EPERM;
		goto out;
	}
	/* two usbperf on one node would share its reports */
	if (flock(h->fd, LOCK_EX | LOCK_NB) < 0) {
		rc = -errno;
		strbuf_addf(&why, "%s: %s", it->path,
			    rc == -EWOULDBLOCK ? "another usbperf measures it" : strerror(-rc));
		goto out;
	}
	free(it->device_key);
	it->device_key = udc_key(h->fn.udc);
out:
	if (rc < 0)
		*ret_why = strbuf_detach(&why);
	strbuf_release(&why);
	return rc;
}

static double run_seconds(const struct run_options *o)
{
	return o->time_s > 0 ? o->time_s : GADGET_RUN_S;
}

static void gadget_estimate(const struct run_options *o, const struct run_plan_item *it,
			    struct estimate *e, struct class_estimate *ret)
{
	(void)it;
	(void)e;
	*ret = (struct class_estimate){"HID gadget", 1, run_seconds(o)};
}

static char *gadget_attr(const char *gadget, const char *attr)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	char *s = NULL;

	strbuf_addf(&p, GADGET_CONFIGFS "/%s/%s", gadget, attr);
	if (sysroot_read_attr(p.buf, &v) == 0 && v.len)
		s = strbuf_detach(&v);
	strbuf_release(&p);
	strbuf_release(&v);
	return s;
}

/* "0x1d6b" -> "1d6b" */
static const char *hex4(const char *s)
{
	return s && !strncmp(s, "0x", 2) ? s + 2 : s ? s : "?";
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct gadget_item *h)
{
	char *vid, *pid, *speed;
	struct run_device *d;
	struct strbuf id = STRBUF_INIT;

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	vid = gadget_attr(h->fn.gadget, "idVendor");
	pid = gadget_attr(h->fn.gadget, "idProduct");
	strbuf_addf(&id, "%s:%s", hex4(vid), hex4(pid));
	d->vid_pid = strbuf_detach(&id);
	d->product = gadget_attr(h->fn.gadget, "strings/0x409/product");
	d->serial = gadget_attr(h->fn.gadget, "strings/0x409/serialnumber");
	d->driver = xstrdup("f_hid");
	d->controller = h->fn.udc ? xstrdup(h->fn.udc) : NULL;
	/* "high-speed" -> "high", as the host side names speeds */
	speed = h->fn.udc_speed ? xstrdup(h->fn.udc_speed) : NULL;
	if (speed && strstr(speed, "-speed"))
		*strstr(speed, "-speed") = '\0';
	d->speed = speed;
	d->ceiling_mb_s = NAN;
	free_all(vid, pid);
}

static void add_metrics(struct run_result *r, const struct run_plan_item *it,
			const struct gadget_item *h)
{
	struct strbuf pass = STRBUF_INIT;

	strbuf_addf(&pass, "%s send", h->fn.function);
	hid_pass_add_metrics(&r->rec, &run_class_gadget, it->device_key, pass.buf, &h->pass,
			     "write_p99_us", "write_max_us");
	strbuf_release(&pass);
}

static int gadget_measure(const struct run_options *o, struct run_result *r,
			  struct run_plan_item *it, char **ret_why)
{
	struct gadget_item *h = class_item(it, &run_class_gadget);
	struct hid_io_config c = {
	    .time_s = run_seconds(o),
	    .report_bytes = h->fn.report_length,
	    .first_timeout_s = GADGET_IDLE_S,
	    .idle_timeout_s = GADGET_IDLE_S,
	};
	struct hid_endpoint ep;
	struct strbuf w = STRBUF_INIT;
	bool idle;
	int rc;

	rc = hid_pass_run(h->fd, HID_PASS_SEND, &c, &h->pass);
	/*
	 * f_hid takes a report or two into its request before any host reads
	 * (a write returns once the report is queued): a few in the whole pass
	 * is a host that does not poll, not a rate.
	 */
	idle = h->pass.ended && !strcmp(h->pass.ended, "idle");
	if (rc == -ETIMEDOUT || (rc == 0 && h->pass.reports < GADGET_FEW)) {
		strbuf_addf(&w,
			    "the host took no report stream (%" PRIu64
			    " in the pass, none for %g s): "
			    "usbhid polls the interrupt endpoint only while the host's hidraw node "
			    "(or an input handler) is open",
			    rc == -ETIMEDOUT ? (uint64_t)0 : h->pass.reports, GADGET_IDLE_S);
		run_note(r, "%s: %s", it->path, w.buf);
		run_unmeasured_add(r, it->path, it->kind, it->path, w.buf);
		strbuf_release(&w);
		return 0;
	}
	add_device(r, it, h);
	if (rc < 0) {
		strbuf_addf(&w, "%s: %s", it->path, strerror(-rc));
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	h->pass.path = "hidg";
	if (hid_gadget_in_endpoint(&h->fn, &ep) == 0)
		hid_pass_set_ceiling(&h->pass, &ep);
	if (ep.has_ceiling)
		usb_hid_result_release(&ep.ceiling);
	if (idle)
		run_note(r,
			 "%s: the host stopped taking reports after %.1f s; the rate is over the "
			 "whole pass",
			 it->path, h->pass.time_s - GADGET_IDLE_S);
	add_metrics(r, it, h);
	return 0;
}

static void gadget_release(struct run_plan_item *it)
{
	struct gadget_item *h = class_item(it, &run_class_gadget);

	if (!h)
		return;
	if (h->fd >= 0)
		close(h->fd);
	hid_gadget_fn_release(&h->fn);
	free(h);
	it->state = NULL;
}

/* the reports/s the host took against one per bInterval f_hid declares */
static const char *gadget_verdict(const struct run_record *r, const struct run_device *d,
				  struct strbuf *ev, double *ret_share_pct)
{
	static const struct hid_rate_words w = {
	    .none = "the host took no report: no rate to judge",
	    .rate = "the host took ",
	    .ceiling = "f_hid's bInterval allows at this speed",
	    .slower = ": the host polls slower than the endpoint asks",
	    .slower_limiter = RUN_LIMITER_CONTROLLER,
	};

	return hid_rate_verdict(r, d, run_class_gadget.name, &w, ev, ret_share_pct);
}

const struct measure_class run_class_gadget = {
    .name = "gadget",
    .what = "HID gadget functions usbperf made",
    .discover = gadget_discover,
    .claims = gadget_claims,
    .plan_target = gadget_plan_target,
    .prepare = gadget_prepare,
    .estimate = gadget_estimate,
    .measure = gadget_measure,
    .release = gadget_release,
    .metrics = gadget_metrics,
    .nmetrics = sizeof(gadget_metrics) / sizeof(gadget_metrics[0]),
    .verdict = gadget_verdict,
};

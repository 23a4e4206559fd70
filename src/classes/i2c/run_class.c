// SPDX-License-Identifier: MIT
/*
 * I2C as a class of `usbperf run` (run/class.h). run never looks for
 * I2C devices itself: probing addresses on a bus is how a PMIC gets a stray
 * command. An address is measured only when named, "/dev/i2c-N:0xAA", and
 * only read (the write-then-read and read passes of usbperf i2c; writes are
 * usbperf i2c --destructive's). "/dev/i2c-N:0xAA@400k" gives the bus clock
 * where the device tree does not. Its figures (messages/s, payload B/s against
 * the bus clock's ceiling, p99 latency, CPU) go into the record's metric rows
 * per message size, so history, compare, check and report know them.
 */
#include "model/findings.h"
#include "classes/i2c/i2c.h"
#include "run/class_kit.h"
#include "run/run_priv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_i2c;

#define I2C_RUN_PASS_S 0.25 /* per pass, quick; --time sets it */
#define I2C_RUN_FULL_PASS_S 1.0
#define I2C_BUS_SHARE_PCT 80.0 /* this close to the ceiling: the bus clock is the limit */

struct i2c_item {
	struct i2c_target t;
	struct i2c_pass passes[3 * I2C_MAX_SIZES];
	size_t n;
	bool measured;
};

/* one pass in run's own table */
struct i2c_run_row {
	const char *device, *op;
	uint64_t size, messages, naks, errors;
	double msg_s, payload_b_s, ceiling_b_s, efficiency_pct, lat_p50_us, lat_p99_us, cpu_pct;
};

#include "classes/i2c/run_class.fields.h"

static const struct class_metric i2c_metrics[] = {
    /* payload first: the figure a pass is shown by, against the bus clock's ceiling */
    CLASS_RATE("payload_b_s", "B/s", "payload"),
    CLASS_RATE("msg_s", "msg/s", "messages/s"),
    CLASS_TAIL("lat_p99_us", "us", "p99 latency"),
    CLASS_CPU("cpu_pct", "CPU", "the whole machine's"),
    /* only when there were some: no ACK, and the bus's own failures (pass.c) */
    CLASS_METRIC("naks", "NAKs", "NAKs", false),
    CLASS_METRIC("bus_errors", "errors", "bus errors", false),
};

/*
 * "/dev/i2c-1:0x50[@400k]" -> "/dev/i2c-1" (malloc'ed), the address (malloc'ed)
 * and the clock text after '@' (NULL: none); false: no ':'
 */
static bool split_target(const char *target, char **ret_node, char **ret_addr,
			 const char **ret_clock)
{
	const char *colon = strrchr(target, ':'), *at;

	if (!colon || colon == target)
		return false;
	at = strchr(colon, '@');
	*ret_node = strndup(target, (size_t)(colon - target));
	*ret_addr = at ? strndup(colon + 1, (size_t)(at - colon - 1)) : strdup(colon + 1);
	if (!*ret_node || !*ret_addr)
		abort();
	*ret_clock = at ? at + 1 : NULL;
	return true;
}

/* the whole target: 0, or -EINVAL with why */
static int parse_target(const char *target, char **ret_node, unsigned *ret_addr,
			uint64_t *ret_clock, struct strbuf *why)
{
	const char *clock;
	char *addr_text;
	int r;

	*ret_clock = 0;
	if (!split_target(target, ret_node, &addr_text, &clock)) {
		strbuf_addf(why,
			    "name the address too, e.g. '%s:0x50' (run probes no address on its "
			    "own)",
			    target);
		*ret_node = NULL;
		return -EINVAL;
	}
	r = i2c_addr_parse(addr_text, ret_addr, why);
	free(addr_text);
	if (r == 0 && clock && i2c_clock_parse(clock, ret_clock) < 0) {
		strbuf_addf(why, "invalid bus clock '%s': expected Hz from 1k to 10M, e.g. 400k",
			    clock);
		r = -EINVAL;
	}
	if (r < 0) {
		free(*ret_node);
		*ret_node = NULL;
	}
	return r < 0 ? -EINVAL : 0;
}

static bool is_i2c_dev(const char *node, const struct stat *st)
{
	const char *base = strrchr(node, '/');
	struct stat s;

	if (!st && stat(node, &s) == 0)
		st = &s;
	if (st)
		return S_ISCHR(st->st_mode) && major(st->st_rdev) == I2C_DEV_MAJOR;
	base = base ? base + 1 : node;
	return !strncmp(base, "i2c-", 4);
}

static bool i2c_claims(const char *target, const struct stat *st)
{
	const char *clock;
	char *node, *addr;
	bool yes;

	if (st)
		return S_ISCHR(st->st_mode) && major(st->st_rdev) == I2C_DEV_MAJOR;
	if (!split_target(target, &node, &addr, &clock))
		return false;
	yes = is_i2c_dev(node, NULL);
	free_all(node, addr);
	return yes;
}

static int i2c_check_target(const struct run_options *o, const char *target, char **ret_why)
{
	struct strbuf why = STRBUF_INIT, w = STRBUF_INIT;
	struct i2c_adapter a = {0};
	char *node = NULL, *drv = NULL, *cli = NULL;
	uint64_t clock;
	unsigned addr;
	int r;

	(void)o;
	r = parse_target(target, &node, &addr, &clock, &why);
	if (r == 0)
		r = i2c_node_probe(node, &a, &why);
	if (r == 0) {
		r = i2c_addr_claimed(a.bus, addr, &drv, &cli);
		if (r > 0) {
			strbuf_addf(&why,
				    "refusing 0x%02x on i2c-%u: kernel driver '%s' has it (client "
				    "'%s'); 'usbperf i2c --force' measures it all the same",
				    addr, a.bus, drv, cli ? cli : "?");
			r = -EBUSY;
		} else if (r < 0) {
			strbuf_addf(&why, "cannot read the clients of i2c-%u: %s", a.bus,
				    strerror(-r));
		}
	}
	if (r < 0) {
		strbuf_addf(&w, "target '%s': %s", target, why.buf);
		*ret_why = strbuf_detach(&w);
	}
	strbuf_release(&why);
	i2c_adapter_release(&a);
	free_all(node, drv, cli);
	return r < 0 ? r : 0;
}

static void i2c_plan_target(const struct run_options *o, struct run_result *r,
			    struct run_plan_item *it)
{
	(void)o;
	(void)r;
	it->kind = "i2c";
	it->read_only = true;
}

static int i2c_prepare(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct i2c_item *h = calloc(1, sizeof(*h));
	struct strbuf why = STRBUF_INIT, key = STRBUF_INIT;
	struct i2c_want w = {0};
	char *node = NULL;
	unsigned addr;
	int rc;

	(void)o;
	(void)r;
	if (!h)
		abort();
	h->t = (struct i2c_target)I2C_TARGET_INIT;
	it->state = h;
	rc = parse_target(it->path, &node, &addr, &w.clock_hz, &why);
	if (rc == 0)
		rc = i2c_target_open(node, addr, &w, &h->t, &why);
	free(node);
	if (rc < 0) {
		*ret_why = strbuf_detach(&why);
		return rc;
	}
	strbuf_release(&why);
	strbuf_addf(&key, "i2c-%u:0x%02x", h->t.ad.bus, addr);
	free(it->device_key);
	it->device_key = strbuf_detach(&key);
	return 0;
}

static double pass_seconds(const struct run_options *o)
{
	return o->time_s > 0 ? o->time_s : o->full ? I2C_RUN_FULL_PASS_S : I2C_RUN_PASS_S;
}

static void i2c_estimate(const struct run_options *o, const struct run_plan_item *it,
			 struct estimate *e, struct class_estimate *ret)
{
	const struct i2c_item *h = class_item(it, &run_class_i2c);
	unsigned per = h && h->t.method == I2C_METHOD_SMBUS_BLOCK ? 1 : 2;

	(void)e;
	*ret =
	    (struct class_estimate){"I2C", (unsigned)(h ? h->t.nsizes : 9) * per, pass_seconds(o)};
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct i2c_item *h)
{
	struct run_device *d;
	struct strbuf sb = STRBUF_INIT;

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	strbuf_addf(&sb, "%s, 0x%02x", h->t.ad.name, h->t.addr);
	d->product = strbuf_detach(&sb);
	d->driver = xstrdup(i2c_method_name(h->t.method));
}

static void add_metrics(struct run_result *r, const struct run_plan_item *it,
			const struct i2c_pass *p)
{
	struct strbuf name = STRBUF_INIT;
	const struct {
		const char *key;
		double value, ceiling;
		bool count; /* kept when no message went through */
	} m[] = {
	    {"msg_s", p->msg_s, NAN, false},
	    {"payload_b_s", p->payload_b_s, p->ceiling_b_s, false},
	    {"lat_p99_us", p->lat_p99_us, NAN, false},
	    {"cpu_pct", p->cpu_pct, NAN, false},
	    {"naks", p->naks ? (double)p->naks : NAN, NAN, true},
	    {"bus_errors", p->errors ? (double)p->errors : NAN, NAN, true},
	};

	strbuf_addf(&name, "%s %llu B", p->op, (unsigned long long)p->size);
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct run_metric *rm;

		if ((!p->messages && !m[i].count) || !isfinite(m[i].value))
			continue;
		rm = run_class_add_metric(&r->rec, &run_class_i2c, it->device_key, name.buf,
					  m[i].key);
		rm->value = m[i].value;
		rm->repeats = 1;
		if (m[i].ceiling > 0)
			rm->ceiling = m[i].ceiling;
	}
	strbuf_release(&name);
}

static int i2c_measure(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct i2c_item *h = class_item(it, &run_class_i2c);
	struct i2c_fd f = {h->t.fd, h->t.addr, h->t.method};
	struct i2c_plan p = {
	    .sizes = h->t.sizes,
	    .nsizes = h->t.nsizes,
	    .method = h->t.method,
	    /* read only: run writes to no device it was not told it may */
	    .ops = 1u << I2C_OP_READ | 1u << I2C_OP_WRITE_READ,
	    .seconds = pass_seconds(o),
	    .clock_hz = h->t.clock_hz,
	    .stop = (volatile int *)o->stop,
	};
	const struct run_device *d;
	struct i2c_io io;
	uint64_t msgs = 0, naks = 0;
	int last = 0;
	int rc;

	i2c_io_fd(&io, &f);
	rc = i2c_passes_run(&io, &p, h->passes, &h->n);
	if (rc < 0) {
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "%s: %s", it->path, strerror(-rc));
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	add_device(r, it, h);
	d = run_device_find(r, it->device_key);
	for (size_t i = 0; i < h->n; i++) {
		struct i2c_run_row *row = run_class_add_row(r, &run_class_i2c, sizeof(*row));
		const struct i2c_pass *ps = &h->passes[i];

		*row = (struct i2c_run_row){.device = d ? d->key : NULL,
					    .op = ps->op,
					    .size = ps->size,
					    .messages = ps->messages,
					    .naks = ps->naks,
					    .errors = ps->errors,
					    .msg_s = ps->msg_s,
					    .payload_b_s = ps->payload_b_s,
					    .ceiling_b_s = ps->ceiling_b_s,
					    .efficiency_pct = ps->efficiency_pct,
					    .lat_p50_us = ps->lat_p50_us,
					    .lat_p99_us = ps->lat_p99_us,
					    .cpu_pct = ps->cpu_pct};
		add_metrics(r, it, ps);
		msgs += ps->messages;
		naks += ps->naks;
		if (ps->last_err)
			last = ps->last_err;
	}
	h->measured = true;
	if (!msgs)
		run_note(r, "%s: 0x%02x never answered (%s): nothing measured", it->path,
			 h->t.addr, naks || !last ? "NAK" : strerror(-last));
	return 0;
}

static void i2c_finish(struct run_result *r)
{
	for (size_t i = 0; i < r->nplan; i++) {
		struct i2c_item *h = class_item(&r->plan[i], &run_class_i2c);

		if (h && h->t.fd >= 0) {
			/* the bus is free for others once measured */
			i2c_target_release(&h->t);
		}
	}
}

static void i2c_analyze(struct run_result *r)
{
	for (size_t i = 0; i < r->nplan; i++) {
		const struct run_plan_item *it = &r->plan[i];
		const struct i2c_item *h = class_item(it, &run_class_i2c);
		size_t before = r->rec.findings.n;

		if (!h || !h->measured)
			continue;
		i2c_findings(it->device_key, h->passes, h->n, h->t.clock_hz, h->t.clock_from,
			     &r->rec.findings);
		for (size_t k = before; k < r->rec.findings.n; k++)
			finding_set_about(&r->rec.findings.v[k], it->device_key);
	}
}

static void i2c_release(struct run_plan_item *it)
{
	struct i2c_item *h = class_item(it, &run_class_i2c);

	if (!h)
		return;
	i2c_target_release(&h->t);
	free(h);
	it->state = NULL;
}

/* the largest messages' payload against the bus clock's ceiling */
static const char *i2c_verdict(const struct run_record *r, const struct run_device *d,
			       struct strbuf *ev, double *ret_share_pct)
{
	const struct run_metric *best = NULL;
	uint64_t best_size = 0;

	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];
		const char *sp;
		uint64_t size;

		if (!m->device_key || strcmp(m->device_key, d->key) || strcmp(m->test, "i2c") ||
		    strcmp(m->metric, "payload_b_s") || !(sp = strchr(m->name, ' ')))
			continue;
		size = strtoull(sp + 1, NULL, 10);
		if (!best || size > best_size || (size == best_size && m->value > best->value)) {
			best = m;
			best_size = size;
		}
	}
	if (!best) {
		strbuf_adds(ev, "no message went through: nothing to judge");
		return RUN_LIMITER_UNKNOWN;
	}
	strbuf_addf(ev, "%s: %.0f B/s", best->name, best->value);
	if (!(best->ceiling > 0)) {
		strbuf_adds(ev, ": the bus clock is unknown (name it: /dev/i2c-N:0xAA@400k), no "
				"ceiling to hold it against");
		return RUN_LIMITER_UNKNOWN;
	}
	*ret_share_pct = 100 * best->value / best->ceiling;
	strbuf_addf(ev, ", %.0f %% of the %.0f B/s the bus clock allows", *ret_share_pct,
		    best->ceiling);
	if (*ret_share_pct > 100) {
		strbuf_adds(ev, ": faster than the clock allows (no real bus, or another clock)");
		return RUN_LIMITER_EMULATION;
	}
	if (*ret_share_pct >= I2C_BUS_SHARE_PCT) {
		strbuf_adds(ev, ": the bus clock is the limit");
		return RUN_LIMITER_BUS;
	}
	strbuf_adds(ev, ": the adapter or the device is slower than the bus");
	return RUN_LIMITER_DEVICE;
}

/*
 * report: the payload of "write-read 32 B" against the message size, a
 * series per operation (the TI article's chart). Its messages/s stay bars:
 * a sensor's 1 or 2 B reads are told by how many messages a second go, a
 * figure the payload chart squeezes into its floor.
 */
static enum class_sweep i2c_sweep_point(const struct run_metric *m, struct class_sweep_point *ret)
{
	char op[16], b[2], extra;
	unsigned long long size;
	unsigned mask;

	/* one op, its size in bytes: the name add_metrics() gives a pass */
	if (strcmp(m->metric, "payload_b_s") ||
	    sscanf(m->name, "%15s %llu %1s %c", op, &size, b, &extra) != 3 || strcmp(b, "B") ||
	    !size || strchr(op, ',') || i2c_ops_parse(op, &mask) < 0)
		return CLASS_SWEEP_NONE;
	snprintf(ret->label, sizeof(ret->label), "%s", op);
	ret->x = size;
	ret->axis = "message size";
	return CLASS_SWEEP_POINT;
}

const struct measure_class run_class_i2c = {
    .name = "i2c",
    .what = NULL, /* measured only when named */
    .claims = i2c_claims,
    .check_target = i2c_check_target,
    .plan_target = i2c_plan_target,
    .prepare = i2c_prepare,
    .estimate = i2c_estimate,
    .measure = i2c_measure,
    .finish = i2c_finish,
    .release = i2c_release,
    .analyze = i2c_analyze,
    .metrics = i2c_metrics,
    .nmetrics = sizeof(i2c_metrics) / sizeof(i2c_metrics[0]),
    .sweep_point = i2c_sweep_point,
    .verdict = i2c_verdict,
    .row_desc = &i2c_row_desc,
    .row_title = "I2C (payload B/s; ceiling at the bus clock)",
    .row_key = "i2c",
    .row_size = sizeof(struct i2c_run_row),
};

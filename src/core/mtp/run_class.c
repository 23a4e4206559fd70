// SPDX-License-Identifier: MIT
/*
 * MTP devices as a class of `usbperf run` (core/run/class.h), only with
 * --mtp: a phone or camera is someone's data, so run neither probes nor
 * writes to one unless asked. Each MTP device libmtp finds gets a quick
 * send and get of one file (16 MiB; smaller with --size), the bytes back
 * compared with the bytes sent, everything made on the device deleted.
 * The rates go next to the link's bulk ceiling.
 */
#include "core/bulk/bulk.h"
#include "core/mtp/mtp.h"
#include "core/run/run_priv.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MTP_RUN_SIZE (16ULL << 20)
#define MTP_RUN_FOLDER "usbperf-run"
#define MTP_KIND "usb-mtp"

struct mtp_item {
	struct mtp_raw raw;
	struct bulk_sysdev dev;
	struct mtp_session *s;
	struct mtp_devinfo info;
	uint32_t storage;
	struct mtp_size_result res;
	bool folder_created;
};

static const struct class_metric mtp_metrics[] = {
    CLASS_METRIC("mb_s", "MB/s", "rate", true),
};

static struct mtp_item *item_of(const struct run_plan_item *it)
{
	return it->cls == &run_class_mtp ? it->state : NULL;
}

static uint64_t run_size(const struct run_options *o)
{
	return o->size && o->size < MTP_RUN_SIZE ? o->size : MTP_RUN_SIZE;
}

/* with --mtp: every MTP device libmtp finds, matched to its sysfs device */
static void mtp_discover(const struct run_options *o, struct run_result *r)
{
	const struct bulk_select any = {.name = NULL, .vid = -1, .pid = -1};
	struct bulk_sysdev *v = NULL;
	struct mtp_raw *raw = NULL;
	size_t n = 0, nraw = 0;
	char why[256] = "";

	if (!o->mtp)
		return;
	if (!mtp_available()) {
		run_note(r, "--mtp: this usbperf was built without libmtp");
		return;
	}
	if (mtp_detect(&raw, &nraw, why, sizeof(why)) < 0 || bulk_find_devices(&any, &v, &n) < 0) {
		free(raw);
		return;
	}
	for (size_t k = 0; k < nraw; k++)
		for (size_t i = 0; i < n; i++) {
			struct mtp_item *m;
			struct strbuf p = STRBUF_INIT, w = STRBUF_INIT;
			struct run_plan_item *it;

			if (v[i].busnum != raw[k].busnum || v[i].devnum != raw[k].devnum)
				continue;
			m = calloc(1, sizeof(*m));
			if (!m)
				abort();
			m->raw = raw[k];
			m->dev = v[i];
			memset(&v[i], 0, sizeof(v[i]));
			strbuf_addf(&p, "mtp:%s", m->dev.sysname);
			strbuf_addf(&w,
				    "an MTP device on USB %s (--mtp): a %llu MiB file sent and got "
				    "back, checked, deleted",
				    m->dev.sysname, (unsigned long long)(run_size(o) >> 20));
			it = run_plan_add(r, &run_class_mtp, p.buf, m->dev.sysname, MTP_KIND, false,
					  w.buf);
			it->state = m;
			/* a phone's storage stands for the machine's USB I/O, as a disk does */
			it->on_usb = true;
			strbuf_release(&p);
			strbuf_release(&w);
		}
	free(raw);
	bulk_sysdevs_free(v, n);
}

/* open the session, choose the writable storage with the most free space */
static int mtp_prepare(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct mtp_item *m = item_of(it);
	const struct mtp_storage *best = NULL;
	struct strbuf w = STRBUF_INIT;
	char why[256] = "";
	uint64_t need = mtp_space_needed((uint64_t[]){run_size(o)}, 1, 0, 0);
	int rc;

	(void)r;
	rc = mtp_open(&m->raw, &m->s, &m->info, why, sizeof(why));
	if (rc < 0) {
		strbuf_addf(&w, "%s: %s", it->path, why);
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	for (size_t i = 0; i < m->info.nstorages; i++) {
		const struct mtp_storage *st = &m->info.storages[i];

		if (!st->read_only && (!best || st->free_bytes > best->free_bytes))
			best = st;
	}
	if (!best || best->free_bytes < need) {
		strbuf_addf(&w, "%s: %s", it->path,
			    best ? "no storage has room for the test file without filling it"
				 : "no writable storage");
		*ret_why = strbuf_detach(&w);
		return -ENOSPC;
	}
	m->storage = best->id;
	return 0;
}

static void mtp_estimate(const struct run_options *o, const struct run_plan_item *it,
			 struct disk_estimate *disk, struct class_estimate *ret)
{
	(void)it;
	(void)disk;
	/* one file each way per repeat; a slow phone moves 16 MiB in about 2 s */
	*ret = (struct class_estimate){"MTP", 2 * (o->repeat ? o->repeat : 1), 2.0};
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct mtp_item *m)
{
	struct run_device *d;
	char id[16];

	if (run_device_find(r, it->device_key))
		return;
	d = run_record_add_device(&r->rec);
	snprintf(id, sizeof(id), "%04x:%04x", m->dev.vid, m->dev.pid);
	d->key = xstrdup(it->device_key);
	d->kind = xstrdup(it->kind);
	d->target = xstrdup(it->path);
	d->vid_pid = xstrdup(id);
	d->product = xstrdup(m->info.model ? m->info.model : m->dev.product);
	d->serial = m->info.serial ? xstrdup(m->info.serial) : NULL;
	d->port_path = xstrdup(m->dev.sysname);
	d->speed = xstrdup(usb_speed_name(m->dev.speed));
	d->ceiling_mb_s = bulk_ceiling_mb_s(m->dev.speed, BULK_DIR_IN);
}

static void add_metrics(struct run_result *r, const struct run_plan_item *it,
			const struct mtp_item *m)
{
	const struct {
		const char *dir;
		const struct summary *s;
	} v[] = {{"send", &m->res.send_mb_s}, {"get", &m->res.get_mb_s}};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct strbuf pass = STRBUF_INIT;
		struct run_metric *rm;

		strbuf_addf(&pass, "%s %lluM", v[i].dir, (unsigned long long)(m->res.bytes >> 20));
		rm =
		    run_class_add_metric(&r->rec, &run_class_mtp, it->device_key, pass.buf, "mb_s");
		rm->value = v[i].s->mean;
		rm->repeats = m->res.n;
		if (m->res.n > 1) {
			rm->stdev = v[i].s->stdev;
			rm->min = v[i].s->min;
			rm->max = v[i].s->max;
		}
		rm->ceiling = bulk_ceiling_mb_s(m->dev.speed, BULK_DIR_IN);
		strbuf_release(&pass);
	}
}

static int mtp_measure(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct mtp_item *m = item_of(it);
	unsigned repeat = o->repeat ? o->repeat : 1;
	struct strbuf w = STRBUF_INIT;
	char why[256] = "";
	int rc;

	rc = mtp_use_folder(m->s, m->storage, MTP_RUN_FOLDER, &m->folder_created, why, sizeof(why));
	if (rc < 0)
		goto fail;
	m->res.bytes = run_size(o);
	for (unsigned k = 0; k < repeat && rc == 0 && !signal_stop; k++)
		rc = mtp_transfer(m->s, &m->res, k + 1, why, sizeof(why));
	mtp_size_finish(&m->res);
	if (m->res.n) {
		struct mtp_analysis a = {
		    .device = it->device_key,
		    .speed = m->dev.speed,
		    .ceiling_mb_s = bulk_ceiling_mb_s(m->dev.speed, BULK_DIR_IN),
		    .sizes = &m->res,
		    .nsizes = 1,
		};

		add_device(r, it, m);
		add_metrics(r, it, m);
		mtp_findings(&a, &r->rec.findings);
	}
	if (rc == 0 || rc == -EINTR)
		return 0;
fail:
	strbuf_addf(&w, "%s: %s", it->path, why);
	*ret_why = strbuf_detach(&w);
	return rc;
}

static void mtp_release(struct run_plan_item *it)
{
	struct mtp_item *m = item_of(it);

	if (!m)
		return;
	if (m->s) {
		/* what the run made on the device, gone also after an error or a signal */
		(void)mtp_cleanup(m->s);
		mtp_close(m->s);
	}
	mtp_devinfo_release(&m->info);
	bulk_sysdev_release(&m->dev);
	free(m);
	it->state = NULL;
}

#define MTP_BUS_PCT 90.0 /* this close to the bulk ceiling: the link */

/* the slower way against the link's bulk ceiling: the bus, else the MTP stack */
static const char *mtp_verdict(const struct run_record *r, const struct run_device *d,
			       struct strbuf *ev, double *ret_share_pct)
{
	const struct run_metric *m = NULL;

	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *x = &r->metrics[i];

		if (x->device_key && !strcmp(x->device_key, d->key) &&
		    !strcmp(x->test, run_class_mtp.name) && !strcmp(x->metric, "mb_s") &&
		    (!m || x->value < m->value))
			m = x;
	}
	if (!m) {
		strbuf_adds(ev, "no transfer completed: no rate to judge");
		return RUN_LIMITER_UNKNOWN;
	}
	strbuf_addf(ev, "%s %.1f MB/s (the slower way)", m->name, m->value);
	if (!(m->ceiling > 0)) {
		strbuf_adds(ev, ": no link ceiling to hold it against");
		return RUN_LIMITER_UNKNOWN;
	}
	*ret_share_pct = 100 * m->value / m->ceiling;
	strbuf_addf(ev, " is %.0f %% of the link's %.1f MB/s bulk ceiling", *ret_share_pct,
		    m->ceiling);
	if (*ret_share_pct > 100) {
		strbuf_adds(ev, ": not the bus's figure (an emulated link)");
		return RUN_LIMITER_EMULATION;
	}
	if (*ret_share_pct >= MTP_BUS_PCT) {
		strbuf_adds(ev, ": the link is the limit");
		return RUN_LIMITER_BUS;
	}
	strbuf_adds(ev,
		    ": the link has room; the MTP responder (its buffer sizes, its storage) "
		    "or the host's MTP stack is slower (usbperf mtp --objects shows the per-object "
		    "cost)");
	return RUN_LIMITER_DEVICE;
}

static const struct class_headline mtp_headline[] = {{"", "mb_s"}};

const struct measure_class run_class_mtp = {
    .name = "mtp",
    .what = "MTP devices (--mtp)",
    .discover = mtp_discover,
    .prepare = mtp_prepare,
    .estimate = mtp_estimate,
    .measure = mtp_measure,
    .release = mtp_release,
    .metrics = mtp_metrics,
    .nmetrics = sizeof(mtp_metrics) / sizeof(mtp_metrics[0]),
    .verdict = mtp_verdict,
    .headline = mtp_headline,
    .nheadline = sizeof(mtp_headline) / sizeof(mtp_headline[0]),
};

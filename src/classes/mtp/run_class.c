// SPDX-License-Identifier: MIT
/*
 * MTP devices as a class of `usbperf run` (run/class.h), only with
 * --mtp: a phone or camera is someone's data, so run neither probes nor
 * writes to one unless asked. Each MTP device libmtp finds gets a quick
 * send and get of one file (16 MiB; smaller with --size), or with --full
 * files of 1, 16 and 256 MiB (to --size): the rate against the file size.
 * The bytes back are compared with the bytes sent, everything made on the
 * device deleted. The rates go next to the link's bulk ceiling; the passes
 * are "send 16M" and "get 16M", which report draws against the file size.
 */
#include "classes/bulk/bulk.h"
#include "classes/mtp/mtp.h"
#include "classes/mtp/sweep.h"
#include "run/class_kit.h"
#include "run/pass_sys.h"
#include "run/run_priv.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_mtp;

/* the class's options of run */
struct mtp_run_opts {
	bool mtp;	   /* --mtp: send to and get from MTP devices (someone's phone: asked for) */
	uint64_t *buffers; /* --mtp-buffers: usbperf's own gadget at each buffer size */
	size_t nbuffers;
};

static const struct mtp_run_opts *mopts(const struct run_options *o)
{
	return run_class_opts(o, &run_class_mtp);
}

static int set_mtp(void *opts, char *const *words, char **ret_why)
{
	(void)words;
	(void)ret_why;
	((struct mtp_run_opts *)opts)->mtp = true;
	return 0;
}

static int set_buffers(void *opts, char *const *words, char **ret_why)
{
	struct mtp_run_opts *m = opts;

	return mtp_buffers_parse("--mtp-buffers", words[0], &m->buffers, &m->nbuffers, ret_why);
}

static void mtp_opts_release(void *opts)
{
	free(((struct mtp_run_opts *)opts)->buffers);
}

static const struct class_option mtp_options[] = {
    {"mtp", NULL, 0, false,
     "also MTP devices (phones, cameras): a 16 MiB file sent and\n"
     "got back, checked and deleted (none is touched without it);\n"
     "with --full 1, 16 and 256 MiB files (--size the largest)",
     set_mtp},
    {"mtp-buffers", "LIST", 1, false,
     "on a machine that is both sides (dummy_hcd, a board's UDC\n"
     "looped back): usbperf's own MTP gadget with each umtprd\n"
     "buffer size of LIST (e.g. 16K,64K,256K), a 16 MiB file\n"
     "each way at each: the rate against the device's buffers",
     set_buffers},
};

#define MTP_RUN_SIZE (16ULL << 20)
#define MTP_RUN_FOLDER "usbperf-run"
#define MTP_KIND "usb-mtp"
#define MTP_RUN_MAX_SIZES 3

struct mtp_item {
	struct mtp_raw raw;
	struct bulk_sysdev dev;
	struct mtp_session *s;
	struct mtp_devinfo info;
	uint32_t storage;
	const struct mtp_storage *st; /* in info */
	struct mtp_size_result res[MTP_RUN_MAX_SIZES];
	size_t nres;
	bool folder_created;
	bool sweep; /* --mtp-buffers: usbperf's own gadget, once per buffer size */
};

static const struct class_metric mtp_metrics[] = {
    CLASS_RATE("mb_s", "MB/s", "rate"),
};

/*
 * The file sizes: 16M quick; 1M 16M 256M full, where --size is the largest
 * (--size 4M: 1M and 4M).
 */
static size_t run_sizes(const struct run_options *o, uint64_t ret[MTP_RUN_MAX_SIZES])
{
	static const uint64_t full[MTP_RUN_MAX_SIZES] = {1ULL << 20, 16ULL << 20, 256ULL << 20};
	size_t n = 0;

	if (!o->full) {
		ret[0] = o->size && o->size < MTP_RUN_SIZE ? o->size : MTP_RUN_SIZE;
		return 1;
	}
	for (size_t i = 0; i < MTP_RUN_MAX_SIZES; i++)
		if (!o->size || full[i] < o->size)
			ret[n++] = full[i];
	if (o->size && n < MTP_RUN_MAX_SIZES)
		ret[n++] = o->size < full[MTP_RUN_MAX_SIZES - 1] ? o->size : full[MTP_RUN_MAX_SIZES - 1];
	return n;
}

/* the buffer sweep's one file size: the quick size */
static uint64_t sweep_size(const struct run_options *o)
{
	return o->size && o->size < MTP_RUN_SIZE ? o->size : MTP_RUN_SIZE;
}

static void sizes_text(struct strbuf *out, const struct run_options *o)
{
	uint64_t v[MTP_RUN_MAX_SIZES];
	size_t n = run_sizes(o, v);

	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "%s%llu", i ? (i + 1 == n ? " and " : ", ") : "",
			    (unsigned long long)(v[i] >> 20));
	strbuf_addf(out, " MiB file%s", n > 1 ? "s" : "");
}

/* with --mtp: every MTP device libmtp finds, matched to its sysfs device */
static void mtp_discover(const struct run_options *o, struct run_result *r)
{
	const struct bulk_select any = {.name = NULL, .vid = -1, .pid = -1};
	struct bulk_sysdev *v = NULL;
	struct mtp_raw *raw = NULL;
	size_t n = 0, nraw = 0;
	char why[256] = "";

	if (mopts(o)->nbuffers) {
		struct mtp_item *m = calloc(1, sizeof(*m));
		struct strbuf w = STRBUF_INIT;
		struct run_plan_item *it;

		if (!m)
			abort();
		m->sweep = true;
		strbuf_addf(&w,
			    "usbperf's own MTP gadget (--mtp-buffers), once per device buffer size: "
			    "a %llu MiB file sent and got back at each",
			    (unsigned long long)(sweep_size(o) >> 20));
		it = run_plan_add(r, &run_class_mtp, "gadget:" MTP_SWEEP_GADGET, "mtp-sweep",
				  MTP_KIND, false, w.buf);
		it->state = m;
		it->on_usb = true;
		strbuf_release(&w);
	}
	if (!mopts(o)->mtp)
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
			strbuf_addf(&w, "an MTP device on USB %s (--mtp): ", m->dev.sysname);
			if (!o->full)
				strbuf_adds(&w, "a ");
			sizes_text(&w, o);
			strbuf_adds(&w, " sent and got back, checked, deleted");
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
	struct mtp_item *m = class_item(it, &run_class_mtp);
	const struct mtp_storage *best = NULL;
	struct mtp_storage_judgement j;
	uint64_t best_room = 0;
	struct strbuf w = STRBUF_INIT;
	char why[256] = "";
	uint64_t sizes[MTP_RUN_MAX_SIZES];
	uint64_t need = mtp_space_needed(sizes, run_sizes(o, sizes), 0, 0);
	int rc;

	(void)r;
	if (m->sweep) {
		if (mtp_available())
			return 0;
		*ret_why = strdup("--mtp-buffers: this usbperf was built without libmtp");
		return -EOPNOTSUPP;
	}
	rc = mtp_open(&m->raw, &m->s, &m->info, why, sizeof(why));
	if (rc < 0) {
		strbuf_addf(&w, "%s: %s", it->path, why);
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	/* the free space the figures vouch for: none when they cannot be true */
	for (size_t i = 0; i < m->info.nstorages; i++) {
		const struct mtp_storage *st = &m->info.storages[i];

		mtp_storage_judge(st->capacity, st->free_bytes, &j);
		if (!st->read_only && (!best || (j.room == UINT64_MAX ? 0 : j.room) > best_room)) {
			best = st;
			best_room = j.room == UINT64_MAX ? 0 : j.room;
		}
	}
	if (best)
		mtp_storage_judge(best->capacity, best->free_bytes, &j);
	if (!best || (j.room != UINT64_MAX && j.room < need)) {
		strbuf_addf(&w, "%s: %s", it->path,
			    best ? "no storage has room for the test file without filling it"
				 : "no writable storage");
		*ret_why = strbuf_detach(&w);
		return -ENOSPC;
	}
	m->storage = best->id;
	m->st = best;
	return 0;
}

static void mtp_estimate(const struct run_options *o, const struct run_plan_item *it,
			 struct estimate *e, struct class_estimate *ret)
{
	uint64_t sizes[MTP_RUN_MAX_SIZES];
	size_t n = run_sizes(o, sizes);
	const struct mtp_item *m = class_item(it, &run_class_mtp);
	double s = 0;

	(void)e;
	if (m && m->sweep) {
		/* per buffer size: the gadget up and down (about 2 s), a file each way */
		*ret = (struct class_estimate){
		    "MTP", (unsigned)(2 * mopts(o)->nbuffers * (o->repeat ? o->repeat : 1)),
		    1.0 + (double)sweep_size(o) / 8e6};
		return;
	}
	/* one file each way per size and repeat; a slow phone moves 8 MB/s */
	for (size_t i = 0; i < n; i++)
		s += (double)sizes[i] / 8e6;
	*ret = (struct class_estimate){"MTP", (unsigned)(2 * n * (o->repeat ? o->repeat : 1)),
				       s / (double)n};
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct mtp_item *m)
{
	struct run_device *d;
	char id[16];

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	snprintf(id, sizeof(id), "%04x:%04x", m->dev.vid, m->dev.pid);
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
	for (size_t k = 0; k < m->nres; k++) {
		const struct mtp_size_result *x = &m->res[k];
		const struct {
			const char *dir;
			const struct summary *s;
		} v[] = {{"send", &x->send_mb_s}, {"get", &x->get_mb_s}};

		for (size_t i = 0; x->n && i < sizeof(v) / sizeof(v[0]); i++) {
			struct strbuf pass = STRBUF_INIT;
			struct run_metric *rm;

			strbuf_addf(&pass, "%s %lluM", v[i].dir, (unsigned long long)(x->bytes >> 20));
			rm = run_class_add_metric(&r->rec, &run_class_mtp, it->device_key, pass.buf,
						  "mb_s");
			rm->value = v[i].s->mean;
			rm->repeats = x->n;
			if (x->n > 1) {
				rm->stdev = v[i].s->stdev;
				rm->min = v[i].s->min;
				rm->max = v[i].s->max;
			}
			rm->ceiling = bulk_ceiling_mb_s(m->dev.speed, BULK_DIR_IN);
			run_add_pass_sys(&r->rec, &run_class_mtp, it->device_key, pass.buf,
					 i ? &x->get_sys : &x->send_sys, x->n);
			strbuf_release(&pass);
		}
	}
}

/* the sweep's device, from what the first measuring child reported */
static void add_sweep_device(struct run_result *r, const struct run_plan_item *it,
			     const struct mtp_sweep_result *res)
{
	struct run_device *d;

	if (!res->dev.device)
		return;
	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	d->vid_pid = res->dev.vid_pid ? xstrdup(res->dev.vid_pid) : NULL;
	d->product = res->dev.model ? xstrdup(res->dev.model) : NULL;
	d->serial = res->dev.serial ? xstrdup(res->dev.serial) : NULL;
	d->port_path = xstrdup(res->dev.device);
	d->speed = res->speed ? xstrdup(res->speed) : NULL;
	d->ceiling_mb_s = res->dev.bulk_ceiling_mb_s;
}

/* a buffer sweep row as two metric rows: "send 16M buf 16K", "get 16M buf 16K" */
static void add_sweep_metrics(struct run_result *r, const struct run_plan_item *it,
			      const struct mtp_sweep_row *x)
{
	const struct {
		const char *dir;
		double v, sd;
	} v[] = {{"send", x->send_mb_s, x->send_sd}, {"get", x->get_mb_s, x->get_sd}};
	char buf[24];

	format_size(x->buffer, buf, sizeof(buf));
	for (size_t i = 0; x->pass && i < sizeof(v) / sizeof(v[0]); i++) {
		struct strbuf pass = STRBUF_INIT;
		struct run_metric *rm;

		if (!isfinite(v[i].v))
			continue;
		strbuf_addf(&pass, "%s %s buf %s", v[i].dir, x->pass, buf);
		rm = run_class_add_metric(&r->rec, &run_class_mtp, it->device_key, pass.buf, "mb_s");
		rm->value = v[i].v;
		rm->repeats = x->repeats;
		if (x->repeats > 1 && isfinite(v[i].sd))
			rm->stdev = v[i].sd;
		rm->ceiling = x->ceiling_mb_s;
		strbuf_release(&pass);
	}
}

static int sweep_measure(const struct run_options *o, struct run_result *r,
			 struct run_plan_item *it, char **ret_why)
{
	uint64_t size = sweep_size(o);
	const struct mtp_sweep_plan plan = {
	    .sizes = &size,
	    .nsizes = 1,
	    .repeat = o->repeat ? o->repeat : 1,
	    .folder = MTP_RUN_FOLDER,
	};
	struct mtp_sweep_result res = {0};
	int rc = 0;

	for (size_t b = 0; b < mopts(o)->nbuffers && rc == 0 && !signal_stop; b++)
		rc = mtp_sweep_one(&plan, mopts(o)->buffers[b], &res, ret_why);
	add_sweep_device(r, it, &res);
	if (run_device_find(r, it->device_key)) {
		for (size_t i = 0; i < res.nrows; i++)
			add_sweep_metrics(r, it, &res.rows[i]);
		mtp_sweep_findings(res.rows, res.nrows, it->device_key, &r->rec.findings);
	}
	mtp_sweep_result_release(&res);
	if (rc == -EINTR)
		rc = 0;
	if (rc < 0 && !*ret_why)
		*ret_why = strdup(strerror(-rc));
	return rc;
}

static int mtp_measure(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct mtp_item *m = class_item(it, &run_class_mtp);

	if (m->sweep)
		return sweep_measure(o, r, it, ret_why);
	unsigned repeat = o->repeat ? o->repeat : 1;
	uint64_t sizes[MTP_RUN_MAX_SIZES];
	size_t nsizes = run_sizes(o, sizes);
	struct strbuf w = STRBUF_INIT;
	char why[256] = "";
	int rc;

	rc = mtp_use_folder(m->s, m->storage, MTP_RUN_FOLDER, &m->folder_created, why, sizeof(why));
	if (rc < 0)
		goto fail;
	for (size_t i = 0; i < nsizes && rc == 0 && !signal_stop; i++) {
		struct mtp_size_result *x = &m->res[m->nres++];

		x->bytes = sizes[i];
		for (unsigned k = 0; k < repeat && rc == 0 && !signal_stop; k++)
			rc = mtp_transfer(m->s, x, (uint32_t)(i * MTP_MAX_REPEAT + k + 1), why,
					  sizeof(why));
		mtp_size_finish(x);
	}
	if (m->nres && m->res[0].n) {
		struct mtp_analysis a = {
		    .device = it->device_key,
		    .speed = m->dev.speed,
		    .ceiling_mb_s = bulk_ceiling_mb_s(m->dev.speed, BULK_DIR_IN),
		    .sizes = m->res,
		    .nsizes = m->nres,
		};

		struct mtp_path path;

		add_device(r, it, m);
		add_metrics(r, it, m);
		mtp_findings(&a, &r->rec.findings);
		/* where the files went and the storage's figures, in the record too */
		mtp_send_path(m->s, &path);
		mtp_path_findings(it->device_key, MTP_RUN_FOLDER, &path, &r->rec.findings);
		mtp_storage_findings(it->device_key, m->st->description, m->st->id,
				     m->st->capacity, m->st->free_bytes, &r->rec.findings);
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
	struct mtp_item *m = class_item(it, &run_class_mtp);

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
	uint64_t msize = 0;

	/*
	 * The largest file (a small one shows the per-object cost, not the
	 * link), or in a buffer sweep ("send 16M buf 256K") the largest buffers.
	 */
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *x = &r->metrics[i];
		const char *sp = strrchr(x->name, ' ');
		uint64_t size = 0;

		if (!x->device_key || strcmp(x->device_key, d->key) ||
		    strcmp(x->test, run_class_mtp.name) || strcmp(x->metric, "mb_s"))
			continue;
		if (sp)
			(void)parse_size(sp + 1, 1, UINT64_MAX, &size);
		if (!m || size > msize || (size == msize && x->value < m->value)) {
			m = x;
			msize = size;
		}
	}
	if (!m) {
		strbuf_adds(ev, "no transfer completed: no rate to judge");
		return RUN_LIMITER_UNKNOWN;
	}
	strbuf_addf(ev, "%s %.1f MB/s (the slower way, the largest size)", m->name, m->value);
	if (!(m->ceiling > 0)) {
		strbuf_adds(ev, ": no link ceiling to hold it against");
		return RUN_LIMITER_UNKNOWN;
	}
	*ret_share_pct = 100 * m->value / m->ceiling;
	if (*ret_share_pct > 100)
		strbuf_addf(ev, " is above the link's %.1f MB/s bulk ceiling", m->ceiling);
	else
		strbuf_addf(ev, " is %.0f %% of the link's %.1f MB/s bulk ceiling",
			    *ret_share_pct, m->ceiling);
	if (*ret_share_pct > 100) {
		strbuf_adds(ev, ": an anomaly, not the bus's figure (an emulated link)");
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

/*
 * report: send and get against the file size ("send 16M" -> "send" at 16M),
 * or a buffer sweep against the device's buffer size ("send 4M buf 16K" ->
 * "send 4M" at 16K)
 */
static bool mtp_sweep_name(const char *name, struct class_sweep_point *ret)
{
	char dir[8], size[16], buf[16], x[16], extra;
	uint64_t v;
	int n = sscanf(name, "%7s %15s %15s %15s %c", dir, size, buf, x, &extra);

	if ((n != 2 && n != 4) || (strcmp(dir, "send") && strcmp(dir, "get")) ||
	    parse_size(size, 1, UINT64_MAX, &v) < 0)
		return false;
	if (n == 2) {
		ret->axis = "file size";
		ret->x = v;
		return snprintf(ret->label, sizeof(ret->label), "%s", dir) < (int)sizeof(ret->label);
	}
	if (strcmp(buf, "buf") || parse_size(x, 1, UINT64_MAX, &ret->x) < 0)
		return false;
	ret->axis = "device buffer size";
	return snprintf(ret->label, sizeof(ret->label), "%s %s", dir, size) <
	       (int)sizeof(ret->label);
}

static enum class_sweep mtp_sweep_point(const struct run_metric *m, struct class_sweep_point *ret)
{
	if (!mtp_sweep_name(m->name, ret))
		return CLASS_SWEEP_NONE;
	return strcmp(m->metric, "mb_s") ? CLASS_SWEEP_OTHER : CLASS_SWEEP_POINT;
}

const struct measure_class run_class_mtp = {
    .name = "mtp",
    .options = mtp_options,
    .noptions = sizeof(mtp_options) / sizeof(mtp_options[0]),
    .opts_size = sizeof(struct mtp_run_opts),
    .opts_release = mtp_opts_release,
    .what = "MTP devices (--mtp)",
    .discover = mtp_discover,
    .prepare = mtp_prepare,
    .estimate = mtp_estimate,
    .measure = mtp_measure,
    .release = mtp_release,
    .metrics = mtp_metrics,
    .nmetrics = sizeof(mtp_metrics) / sizeof(mtp_metrics[0]),
    .sweep_point = mtp_sweep_point,
    .verdict = mtp_verdict,
    .headline = mtp_headline,
    .nheadline = sizeof(mtp_headline) / sizeof(mtp_headline[0]),
};

// SPDX-License-Identifier: MIT
/*
 * Raw flash (MTD) as a class of `usbperf run` (run/class.h): a
 * /dev/mtdN named on the command line is read over its region; with run's
 * --destructive it is erased and written at each write size of the sweep
 * (page .. eraseblock) and read back and compared. The refusals are usbperf
 * mtd's (classes/mtd/probe.c): a read-only device, one mounted or attached to
 * UBI, one named like a bootloader's (run has no --force-boot: usbperf mtd
 * does). With no target, run names the MTD devices it saw and measures none:
 * erasing someone's flash is never a default, and reading it is not USB I/O.
 */
#include "classes/mtd/mtd_run.h"
#include "run/class_kit.h"
#include "run/run_priv.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MTD_KIND "mtd"

struct mtd_item {
	struct mtd_geometry g;
	bool probed;
	uint64_t len;
	uint64_t ws[MTD_MAX_WRITE_SIZES];
	size_t nws;
	int fd;
};

/* one row of run's own table: a pass of one device, over its repeats */
struct mtd_run_row {
	const char *device, *pass;
	uint64_t io_size, repeats, failed, mismatches;
	double mb_s, mb_s_sd, blocks_per_s;
};

static const struct class_metric mtd_metrics[] = {
    CLASS_RATE("mb_s", "MB/s", "rate"),
    CLASS_RATE("eraseblocks_per_s", "eraseblocks/s", "eraseblocks/s"),
    CLASS_METRIC("failed_blocks", "eraseblocks", "failed eraseblocks", false),
    CLASS_METRIC("mismatched_pages", "pages", "mismatched pages", false),
    CLASS_METRIC("bad_blocks", "eraseblocks", "bad eraseblocks", false),
    CLASS_METRIC("bad_blocks_grown", "eraseblocks", "bad eraseblocks grown", false),
    CLASS_METRIC("ecc_corrected", "bitflips", "ECC corrected", false),
    CLASS_METRIC("ecc_failed", "errors", "ECC failed", false),
};

#include "classes/mtd/run_class.fields.h"

bool mtd_run_claims(const char *target, bool is_chr, unsigned major_nr)
{
	const char *base = strrchr(target, '/'), *p;

	if (is_chr && major_nr == MTD_CHAR_MAJOR)
		return true;
	/* mtd0, mtd12ro: whatever it is, the MTD rules judge it (and refuse it if not MTD) */
	base = base ? base + 1 : target;
	if (strncmp(base, "mtd", 3) || !base[3])
		return false;
	for (p = base + 3; *p >= '0' && *p <= '9'; p++)
		;
	return p > base + 3 && (!*p || !strcmp(p, "ro"));
}

static bool mtd_claims(const char *target, const struct stat *st)
{
	return mtd_run_claims(target, st && S_ISCHR(st->st_mode), st ? major(st->st_rdev) : 0);
}

int mtd_run_region(const struct mtd_geometry *g, uint64_t want, bool full, uint64_t *ret_len,
		   struct strbuf *why)
{
	uint64_t cap = full ? MTD_DEFAULT_CAP : MTD_RUN_QUICK_CAP;
	uint64_t len = want ? want : cap;

	if (len > g->size)
		len = g->size;
	len -= len % g->erasesize;
	if (!len) {
		strbuf_addf(why,
			    "mtd%u: --size %llu is less than one eraseblock (%llu B): nothing to "
			    "measure",
			    g->index, (unsigned long long)want, (unsigned long long)g->erasesize);
		return -EINVAL;
	}
	*ret_len = len;
	return 0;
}

/* probe, region, write sizes and (destructive) the write refusals: nothing opened */
static int plan_checks(const struct run_options *o, const char *target, struct mtd_item *m,
		       struct strbuf *why)
{
	int r;

	r = mtd_node_probe(target, &m->g, why);
	if (r < 0)
		return r;
	m->probed = true;
	r = mtd_run_region(&m->g, o->size, o->full, &m->len, why);
	if (r == 0 && o->destructive)
		r = mtd_write_sizes(&m->g, NULL, 0, m->ws, &m->nws, why);
	if (r == 0 && o->destructive)
		r = mtd_may_write(&m->g, NULL, false, why);
	return r;
}

static int mtd_check_target(const struct run_options *o, const char *target, char **ret_why)
{
	struct mtd_item m = {.fd = -1};
	struct strbuf why = STRBUF_INIT;
	int r = plan_checks(o, target, &m, &why);

	if (m.probed)
		mtd_geometry_release(&m.g);
	if (r < 0) {
		*ret_why = strbuf_detach(&why);
		return r;
	}
	strbuf_release(&why);
	return 0;
}

static void mtd_plan_target(const struct run_options *o, struct run_result *r,
			    struct run_plan_item *it)
{
	(void)r;
	it->kind = MTD_KIND;
	it->read_only = !o->destructive;
}

/* with no target: each MTD device seen, named and left alone (sysfs reads only) */
static void mtd_discover(const struct run_options *o, struct run_result *r)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf why = STRBUF_INIT, node = STRBUF_INIT;

	(void)o;
	if (sysroot_list("/sys/class/mtd", &l) < 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		struct mtd_geometry g;
		uint64_t idx;
		char size[16];

		if (strncmp(l.v[i], "mtd", 3) || parse_u64(l.v[i] + 3, 0, 1u << 20, &idx) < 0)
			continue; /* mtd0ro is mtd0 again */
		strbuf_reset(&why);
		if (mtd_geometry_read((unsigned)idx, &g, &why) < 0)
			continue;
		strbuf_reset(&why);
		strbuf_reset(&node);
		strbuf_addf(&node, "/dev/%s", l.v[i]);
		format_size(g.size, size, sizeof(size));
		strbuf_addf(&why,
			    "raw flash (%s '%s', %s): measured only when named: 'usbperf run %s' "
			    "reads it, with --destructive erases and writes it",
			    g.type, g.name, size, node.buf);
		run_unmeasured_add(r, l.v[i], MTD_KIND, node.buf, why.buf);
		mtd_geometry_release(&g);
	}
	strbuf_release(&why);
	strbuf_release(&node);
	name_list_release(&l);
}

static int mtd_prepare(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct mtd_item *m = calloc(1, sizeof(*m));
	struct strbuf why = STRBUF_INIT;
	/* the item says whether it is written: --copy's source is read whatever --destructive */
	struct run_options as_item = *o;
	int rc;

	(void)r;
	if (!m)
		abort();
	m->fd = -1;
	it->state = m;
	as_item.destructive = !it->read_only;
	rc = plan_checks(&as_item, it->path, m, &why);
	if (rc < 0)
		goto fail;
	free(it->device_key);
	strbuf_addf(&why, "mtd%u", m->g.index);
	it->device_key = strbuf_detach(&why);
	m->fd = open(it->path, (it->read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (m->fd < 0) {
		rc = -errno;
		strbuf_addf(&why, "cannot open '%s': %s", it->path, strerror(errno));
		goto fail;
	}
	/* two usbperf on one device would measure each other */
	if (flock(m->fd, LOCK_EX | LOCK_NB) < 0) {
		rc = -EBUSY;
		strbuf_addf(&why, "'%s' is busy: another usbperf measures it", it->path);
		goto fail;
	}
	/* the node must be the device sysfs described */
	rc = mtd_info_check(m->fd, &m->g, &why);
	if (rc < 0)
		goto fail;
	strbuf_release(&why);
	return 0;
fail:
	*ret_why = strbuf_detach(&why);
	return rc;
}

void mtd_run_acc_add(struct mtd_run_acc *acc, size_t *nacc, const struct mtd_pass *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct mtd_run_acc *a = NULL;
		char name[32], sz[16];

		if (!p[i].blocks && !p[i].failed)
			continue; /* stopped before its first eraseblock */
		if (!strcmp(p[i].op, "write")) {
			format_size(p[i].io_size, sz, sizeof(sz));
			snprintf(name, sizeof(name), "write %s", sz);
		} else {
			snprintf(name, sizeof(name), "%s", p[i].op);
		}
		for (size_t k = 0; k < *nacc && !a; k++)
			if (!strcmp(acc[k].name, name))
				a = &acc[k];
		if (!a) {
			if (*nacc == MTD_RUN_MAX_ACC)
				continue;
			a = &acc[(*nacc)++];
			*a = (struct mtd_run_acc){.io_size = p[i].io_size};
			memcpy(a->name, name, sizeof(name));
		}
		if (!a->n || p[i].mb_s < a->min)
			a->min = p[i].mb_s;
		if (!a->n || p[i].mb_s > a->max)
			a->max = p[i].mb_s;
		a->sum += p[i].mb_s;
		a->sumsq += p[i].mb_s * p[i].mb_s;
		a->blocks_per_s_sum += p[i].blocks_per_s;
		a->failed += p[i].failed;
		a->mismatches += p[i].mismatches;
		a->verified |= p[i].verified;
		a->n++;
	}
}

static double acc_mean(const struct mtd_run_acc *a)
{
	return a->n ? a->sum / (double)a->n : NAN;
}

static double acc_sd(const struct mtd_run_acc *a)
{
	double mean = acc_mean(a), v;

	if (a->n < 2)
		return NAN;
	v = (a->sumsq - (double)a->n * mean * mean) / (double)(a->n - 1);
	return v > 0 ? sqrt(v) : 0;
}

static void add_count(struct run_record *rec, const char *key, const char *pass, const char *metric,
		      double value)
{
	struct run_metric *m = run_class_add_metric(rec, &run_class_mtd, key, pass, metric);

	m->value = m->min = m->max = value;
	m->repeats = 1;
}

void mtd_run_add_metrics(struct run_record *rec, const char *key, const struct mtd_run_acc *acc,
			 size_t nacc, uint64_t bad_region, const struct mtd_ecc *before,
			 const struct mtd_ecc *after)
{
	for (size_t i = 0; i < nacc; i++) {
		const struct mtd_run_acc *a = &acc[i];
		struct run_metric *m;

		if (!a->n)
			continue;
		m = run_class_add_metric(rec, &run_class_mtd, key, a->name, "mb_s");
		m->value = acc_mean(a);
		m->stdev = acc_sd(a);
		m->min = a->min;
		m->max = a->max;
		m->repeats = a->n;
		m = run_class_add_metric(rec, &run_class_mtd, key, a->name, "eraseblocks_per_s");
		m->value = a->blocks_per_s_sum / (double)a->n;
		m->repeats = a->n;
		add_count(rec, key, a->name, "failed_blocks", (double)a->failed);
		if (a->verified)
			add_count(rec, key, a->name, "mismatched_pages", (double)a->mismatches);
	}
	add_count(rec, key, "region", "bad_blocks", (double)bad_region);
	if (!before->known || !after->known)
		return;
	add_count(rec, key, "ecc", "ecc_corrected", (double)(after->corrected - before->corrected));
	add_count(rec, key, "ecc", "ecc_failed", (double)(after->failed - before->failed));
	add_count(rec, key, "ecc", "bad_blocks_grown",
		  (double)(after->badblocks - before->badblocks));
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct mtd_item *m)
{
	struct run_device *d;
	struct strbuf kind = STRBUF_INIT, prod = STRBUF_INIT;
	char size[16], eb[16];

	strbuf_addf(&kind, "%s%s", MTD_KIND, it->read_only ? " (read-only)" : "");
	d = class_add_device(r, it, kind.buf);
	strbuf_release(&kind);
	if (!d)
		return;
	/* the flash's own words: type, name, size and eraseblock (no bus, no ceiling) */
	format_size(m->g.size, size, sizeof(size));
	format_size(m->g.erasesize, eb, sizeof(eb));
	strbuf_addf(&prod, "%s '%s' %s, eraseblock %s, page %llu B, OOB %llu B", m->g.type,
		    m->g.name, size, eb, (unsigned long long)m->g.writesize,
		    (unsigned long long)m->g.oobsize);
	if (m->g.parent)
		strbuf_addf(&prod, ", partition of %s", m->g.parent);
	d->product = strbuf_detach(&prod);
	d->ceiling_mb_s = NAN;
}

static void add_rows(struct run_result *r, const struct run_plan_item *it,
		     const struct mtd_run_acc *acc, size_t nacc)
{
	for (size_t i = 0; i < nacc; i++) {
		struct mtd_run_row *row;
		const char *name;

		if (!acc[i].n)
			continue;
		/* the row points into the record: its metric's name outlives the acc */
		name = NULL;
		for (size_t k = 0; k < r->rec.nmetrics && !name; k++)
			if (!strcmp(r->rec.metrics[k].test, run_class_mtd.name) &&
			    !strcmp(r->rec.metrics[k].device_key, it->device_key) &&
			    !strcmp(r->rec.metrics[k].name, acc[i].name))
				name = r->rec.metrics[k].name;
		row = run_class_add_row(r, &run_class_mtd, sizeof(*row));
		*row = (struct mtd_run_row){
		    .device = it->device_key,
		    .pass = name,
		    .io_size = acc[i].io_size,
		    .repeats = acc[i].n,
		    .failed = acc[i].failed,
		    .mismatches = acc[i].verified ? acc[i].mismatches : U64_UNKNOWN,
		    .mb_s = acc_mean(&acc[i]),
		    .mb_s_sd = acc_sd(&acc[i]),
		    .blocks_per_s = acc[i].blocks_per_s_sum / (double)acc[i].n,
		};
	}
}

static int mtd_measure(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why)
{
	struct mtd_item *m = class_item(it, &run_class_mtd);
	struct mtd_pass passes[MTD_MAX_WRITE_SIZES + 2];
	struct mtd_run_acc acc[MTD_RUN_MAX_ACC];
	struct mtd_ecc before = {0}, after = {0};
	struct mtd_plan p = {
	    .len = m->len,
	    .erasesize = m->g.erasesize,
	    .writesize = m->g.writesize,
	    .write_sizes = it->read_only ? NULL : m->ws,
	    .nwrite_sizes = it->read_only ? 0 : m->nws,
	    /* what run writes, it reads back and compares */
	    .verify = !it->read_only,
	    .stop = (volatile int *)o->stop,
	};
	unsigned repeat = o->repeat ? o->repeat : 1;
	uint64_t bad = 0;
	size_t nacc = 0;
	struct mtd_io io;
	int rc = 0;

	mtd_io_fd(&io, &m->fd);
	(void)mtd_ecc_read(m->fd, &before);
	for (unsigned k = 0; k < repeat && !(o->stop && *o->stop); k++) {
		size_t n = 0;

		rc = mtd_passes_run(&io, &p, passes, &n);
		if (rc < 0)
			break;
		for (size_t i = 0; i < n; i++)
			if (passes[i].bad_skipped > bad)
				bad = passes[i].bad_skipped;
		mtd_run_acc_add(acc, &nacc, passes, n);
	}
	if (mtd_ecc_read(m->fd, &after) < 0)
		before.known = false;
	if (rc < 0) {
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "%s: %s", it->path,
			    rc == -EIO ? "every eraseblock of the region is bad" : strerror(-rc));
		*ret_why = strbuf_detach(&w);
		return rc;
	}
	add_device(r, it, m);
	mtd_run_add_metrics(&r->rec, it->device_key, acc, nacc, bad, &before, &after);
	add_rows(r, it, acc, nacc);
	if (it->read_only && !o->destructive)
		run_note(r,
			 "%s: read only (%llu eraseblocks); --destructive erases and writes it "
			 "at each write size, page to eraseblock",
			 it->path, (unsigned long long)(m->len / m->g.erasesize));
	return 0;
}

int mtd_run_copy_sink(const struct run_plan_item *it, struct mtd_sink *s, uint64_t *ret_capacity)
{
	const struct mtd_item *m = class_item(it, &run_class_mtd);
	struct mtd_io io;

	if (!m || m->fd < 0 || it->read_only)
		return -EINVAL;
	mtd_io_fd(&io, (int *)&m->fd);
	return mtd_sink_init(s, &io, m->len, m->g.erasesize, m->g.writesize, ret_capacity);
}

int mtd_run_copy_source(const struct run_plan_item *it, uint64_t want, struct mtd_source *s,
			uint64_t *ret_size)
{
	const struct mtd_item *m = class_item(it, &run_class_mtd);
	struct mtd_io io;

	if (!m || m->fd < 0)
		return -EINVAL;
	mtd_io_fd(&io, (int *)&m->fd);
	return mtd_source_init(s, &io, m->len, m->g.erasesize, want, ret_size);
}

static void mtd_release(struct run_plan_item *it)
{
	struct mtd_item *m = class_item(it, &run_class_mtd);

	if (!m)
		return;
	if (m->fd >= 0)
		close(m->fd);
	if (m->probed)
		mtd_geometry_release(&m->g);
	free(m);
	it->state = NULL;
}

static const struct run_metric *metric_at(const struct run_record *r, const char *key,
					  const char *name, const char *metric)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];

		if (m->device_key && !strcmp(m->device_key, key) && m->test &&
		    !strcmp(m->test, run_class_mtd.name) && (!name || !strcmp(m->name, name)) &&
		    !strcmp(m->metric, metric))
			return m;
	}
	return NULL;
}

/* the fastest and the slowest write of the sweep, by MB/s */
static void write_span(const struct run_record *r, const char *key,
		       const struct run_metric **ret_lo, const struct run_metric **ret_hi)
{
	*ret_lo = *ret_hi = NULL;
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];

		if (!m->device_key || strcmp(m->device_key, key) || strcmp(m->test, "mtd") ||
		    strcmp(m->metric, "mb_s") || strncmp(m->name, "write ", 6) ||
		    !isfinite(m->value))
			continue;
		if (!*ret_lo || m->value < (*ret_lo)->value)
			*ret_lo = m;
		if (!*ret_hi || m->value > (*ret_hi)->value)
			*ret_hi = m;
	}
}

double mtd_run_read_mb_s(const struct run_record *r, const char *key)
{
	const struct run_metric *rd = metric_at(r, key, "read", "mb_s");

	return rd && rd->value > 0 ? rd->value : NAN;
}

double mtd_run_erase_write_mb_s(const struct run_record *r, const char *key, const char **ret_name)
{
	const struct run_metric *er = metric_at(r, key, "erase", "mb_s"), *lo, *hi;

	write_span(r, key, &lo, &hi);
	*ret_name = hi ? hi->name : NULL;
	if (!er || !hi || !(er->value > 0) || !(hi->value > 0))
		return NAN;
	/* the same bytes erased then written: the times add */
	return 1 / (1 / er->value + 1 / hi->value);
}

/* " B" after a size format_size left without a suffix ("512"), "" after "2K" */
static const char *bytes_unit(const char *size)
{
	size_t n = strlen(size);

	return n && size[n - 1] >= '0' && size[n - 1] <= '9' ? " B" : "";
}

/* the write pass of the smallest size ("write 512" before "write 2K") */
static const struct run_metric *smallest_write(const struct run_record *r, const char *key)
{
	const struct run_metric *best = NULL;
	uint64_t best_size = 0;

	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i];
		uint64_t size;

		if (!m->device_key || strcmp(m->device_key, key) || strcmp(m->test, "mtd") ||
		    strcmp(m->metric, "mb_s") || strncmp(m->name, "write ", 6) ||
		    !isfinite(m->value) || parse_size(m->name + 6, 1, UINT64_MAX, &size) < 0)
			continue;
		if (!best || size < best_size) {
			best = m;
			best_size = size;
		}
	}
	return best;
}

#define MTD_SMALL_WRITE_PCT 80.0 /* a write size below this share of the best: said */

static void count_finding(const struct run_record *rec, struct finding_list *out, const char *key,
			  const char *name, const char *metric, enum finding_severity sev,
			  const char *id, const char *what, const char *fix)
{
	const struct run_metric *m = metric_at(rec, key, name, metric);
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

	if (!m || !(m->value > 0))
		return;
	strbuf_addf(&msg, "%.0f %s", m->value, what);
	strbuf_addf(&ev, "%s %s = %.0f %s", m->name, m->metric, m->value, m->unit);
	finding_add(out, sev, id, key, msg.buf, ev.buf, fix);
	strbuf_release(&msg);
	strbuf_release(&ev);
}

void mtd_run_findings(const struct run_record *rec, struct finding_list *out)
{
	for (size_t d = 0; d < rec->ndevices; d++) {
		const char *key = rec->devices[d].key;
		const struct run_metric *lo, *hi;

		if (!metric_at(rec, key, NULL, "mb_s") && !metric_at(rec, key, NULL, "bad_blocks"))
			continue;
		count_finding(rec, out, key, "ecc", "ecc_failed", FINDING_WARN, "mtd.ecc_failed",
			      "uncorrectable ECC errors during the run (ECCGETSTATS failed)",
			      "the data read from these pages is wrong: the flash is worn or the "
			      "ECC too weak for it; the rates are not the flash's alone");
		count_finding(rec, out, key, "ecc", "ecc_corrected", FINDING_WARN,
			      "mtd.ecc_corrected",
			      "bitflips corrected by ECC during the run (ECCGETSTATS corrected)",
			      "a worn or disturbed flash: each correction costs the read time; "
			      "watch it grow from run to run (usbperf compare)");
		count_finding(rec, out, key, "ecc", "bad_blocks_grown", FINDING_WARN,
			      "mtd.bad_blocks_grown",
			      "eraseblocks went bad during the run (ECCGETSTATS badblocks)",
			      "the flash is wearing out: keep its data elsewhere");
		count_finding(rec, out, key, NULL, "failed_blocks", FINDING_WARN,
			      "mtd.failed_blocks", "eraseblocks failed an erase, write or read",
			      "see dmesg for the driver's errors; the rates leave them out");
		count_finding(rec, out, key, "read", "mismatched_pages", FINDING_WARN,
			      "mtd.verify_mismatch", "pages read back differently than written",
			      "the flash or its driver loses data: do not trust it");
		count_finding(rec, out, key, "region", "bad_blocks", FINDING_INFO, "mtd.bad_blocks",
			      "bad eraseblocks in the region, skipped (MEMGETBADBLOCK)", NULL);
		/* the smallest write size against the best: slower further up is not this */
		write_span(rec, key, &lo, &hi);
		lo = smallest_write(rec, key);
		if (lo && hi && lo != hi && lo->value < hi->value * MTD_SMALL_WRITE_PCT / 100) {
			struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

			strbuf_addf(&msg, "writes of %s%s are %.0f %% slower than writes of %s%s",
				    lo->name + 6, bytes_unit(lo->name + 6),
				    100 - 100 * lo->value / hi->value, hi->name + 6,
				    bytes_unit(hi->name + 6));
			strbuf_addf(&ev, "%s %.2f MB/s, %s %.2f MB/s (the write sweep, 10^6 B/s)",
				    lo->name, lo->value, hi->name, hi->value);
			finding_add(
			    out, FINDING_INFO, "mtd.small_writes", key, msg.buf, ev.buf,
			    "write in larger requests: a writer that hands the driver one page "
			    "at a time pays a call per page");
			strbuf_release(&msg);
			strbuf_release(&ev);
		}
	}
}

static void mtd_analyze(struct run_result *r)
{
	mtd_run_findings(&r->rec, &r->rec.findings);
}

/* no bus between: the rates are the flash's and its controller's, not held to a ceiling */
static const char *mtd_verdict(const struct run_record *r, const struct run_device *d,
			       struct strbuf *ev, double *ret_share_pct)
{
	const struct run_metric *rd = metric_at(r, d->key, "read", "mb_s");
	const struct run_metric *er = metric_at(r, d->key, "erase", "mb_s");
	const struct run_metric *lo, *hi;

	(void)ret_share_pct;
	write_span(r, d->key, &lo, &hi);
	if (!rd && !hi) {
		strbuf_adds(ev, "no pass completed: no rate to judge");
		return RUN_LIMITER_UNKNOWN;
	}
	if (rd)
		strbuf_addf(ev, "read %.2f MB/s", rd->value);
	if (hi)
		strbuf_addf(ev, "%s%s %.2f MB/s (the best write size)", rd ? ", " : "", hi->name,
			    hi->value);
	if (er)
		strbuf_addf(ev, ", erase %.2f MB/s", er->value);
	strbuf_adds(ev, ": raw flash has no link ceiling to hold them against");
	return RUN_LIMITER_UNKNOWN;
}

/* report: the write sweep's rate against the write size ("write 2K"); erase and read are rates */
static enum class_sweep mtd_sweep_point(const struct run_metric *m, struct class_sweep_point *ret)
{
	uint64_t size;

	if (strncmp(m->name, "write ", 6) || parse_size(m->name + 6, 1, UINT64_MAX, &size) < 0)
		return CLASS_SWEEP_NONE;
	if (strcmp(m->metric, "mb_s"))
		return CLASS_SWEEP_OTHER;
	snprintf(ret->label, sizeof(ret->label), "write");
	ret->x = size;
	ret->axis = "write size";
	return CLASS_SWEEP_POINT;
}

const struct measure_class run_class_mtd = {
    .name = "mtd",
    .what = NULL, /* run names MTD devices it saw, measures only those named */
    .discover = mtd_discover,
    .claims = mtd_claims,
    .check_target = mtd_check_target,
    .plan_target = mtd_plan_target,
    .prepare = mtd_prepare,
    .measure = mtd_measure,
    .release = mtd_release,
    .analyze = mtd_analyze,
    .metrics = mtd_metrics,
    .nmetrics = sizeof(mtd_metrics) / sizeof(mtd_metrics[0]),
    .sweep_point = mtd_sweep_point,
    .verdict = mtd_verdict,
    .row_desc = &row_desc,
    .row_title = "mtd (MB/s = 10^6 B/s)",
    .row_key = "mtd",
    .row_size = sizeof(struct mtd_run_row),
};

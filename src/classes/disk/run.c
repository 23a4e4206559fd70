// SPDX-License-Identifier: MIT
/* Orchestration: lay out the test region, run every pass and repeat, fold results into rows. */
#include "classes/disk/batch.h"
#include "classes/disk/cache.h"
#include "classes/disk/disk.h"
#include "classes/disk/iostat.h"
#include "classes/disk/pass.h"
#include "classes/disk/wire.h"
#include "platform/sys/cpufreq.h"
#include "platform/sys/mounts.h"
#include "util/clock.h"
#include "util/names.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LAYOUT_BS (1u << 20)
#define SHORT_PASS_S 0.5
#define NOISY_CV 0.10
#define CACHED_WARN_PCT 1.0

const char *disk_op_name(enum disk_op op)
{
	return op == DISK_WRITE ? "write" : "read";
}

const char *disk_access_name(enum disk_access a)
{
	return a == DISK_RAND ? "random" : "sequential";
}

const char *disk_mode_name(enum disk_mode m)
{
	return m == DISK_BUFFERED ? "buffered" : "direct";
}

static void vwarn(struct disk_report *r, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	char **nw;

	strbuf_vaddf(&sb, fmt, ap);
	nw = realloc(r->warnings, (r->nwarnings + 1) * sizeof(*nw));
	if (!nw)
		abort();
	r->warnings = nw;
	r->warnings[r->nwarnings++] = strbuf_detach(&sb);
}

__attribute__((format(printf, 2, 3))) static void warn(struct disk_report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(r, fmt, ap);
	va_end(ap);
}

void disk_report_note(struct disk_report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(r, fmt, ap);
	va_end(ap);
}

/* Write the whole region once so read passes read real data, not holes. */
static int layout(struct disk_target *t, const struct disk_config *cfg)
{
	int fd = t->direct_ok ? t->fd : t->fd_buf;
	uint64_t off, last = clock_now_ns(), t0 = last;
	struct prng rng;
	void *buf;
	int r = 0;

	if (posix_memalign(&buf, 4096, LAYOUT_BS))
		return -ENOMEM;
	prng_seed(&rng, cfg->seed ^ 0x1a70u);
	pattern_fill_random(&rng, buf, LAYOUT_BS);
	for (off = 0; off < t->size; off += LAYOUT_BS) {
		uint64_t len = t->size - off < LAYOUT_BS ? t->size - off : LAYOUT_BS;
		uint64_t now;
		ssize_t n;

		/* the tail may be shorter than the O_DIRECT alignment: write it buffered */
		int wfd = len % t->align ? t->fd_buf : fd;
		if (cfg->verify)
			pattern_fill_verify(buf, len - len % PATTERN_UNIT, off, cfg->seed);
		else
			pattern_stamp(buf, len, off, 0);
		n = pwrite(wfd, buf, len, (off_t)off);
		if (n < 0) {
			r = -errno;
			break;
		}
		if ((uint64_t)n < len) {
			r = -ENOSPC;
			break;
		}
		if (cfg->stop && *cfg->stop)
			break;
		now = clock_now_ns();
		if (cfg->progress && now - last >= 250000000ULL) {
			struct disk_progress p = {
				.phase = "layout",
				.done_bytes = off + len,
				.total_bytes = t->size,
				.elapsed_s = (double)(now - t0) / 1e9,
				.rate_Bps = (double)(off + len) / ((double)(now - t0) / 1e9),
			};
			cfg->progress(cfg->progress_ctx, &p);
			last = now;
		}
	}
	if (!r && fsync(t->fd_buf) < 0)
		r = -errno;
	free(buf);
	return r;
}

static const char *target_kind_name(enum disk_target_kind k)
{
	static const char *const names[] = {
	    [TARGET_DIR] = "directory", [TARGET_FILE] = "file", [TARGET_BLOCKDEV] = "block device"};

	return NAME_OF(names, k, "?");
}

/* what a pass's repeats write into, allocated once for every pass */
struct repeat_bufs {
	struct histogram *lat, *rlat; /* the pass's, and one repeat's */
	struct rate_sampler *bw;
	double *rates;
	double *mb, *iops, *p99_us, *cpu_pct, *util_pct; /* per repeat */
	struct disk_batches batches;			  /* the pass's, of every repeat */
};

/* what the repeats of one pass spec left, for fill_row */
struct row_in {
	unsigned n;		       /* repeats that moved data */
	const struct repeat_bufs *per; /* their figures, each repeat's (NaN unknown) */
	const struct disk_sample *smp; /* the interval samples of every repeat */
	size_t nsmp;
	double interval_s; /* of the first repeat's samples */
	uint64_t busy_ms;  /* summed over the repeats; UINT64_MAX if any was not read */
	bool best_of;
};

/* fio's bw and iops sample statistics, pooled over the repeats */
static void fill_samples(struct disk_row *row, const struct row_in *in)
{
	struct summary sb, si;
	double *v = malloc((in->nsmp ? in->nsmp : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		abort();
	/* the steady samples: each repeat's ramp left out */
	for (i = 0; i < in->nsmp; i++)
		if (!in->smp[i].ramp)
			v[n++] = in->smp[i].mb_s;
	summarize(v, n, &sb);
	n = 0;
	for (i = 0; i < in->nsmp; i++)
		if (!in->smp[i].ramp)
			v[n++] = in->smp[i].iops;
	summarize(v, n, &si);
	free(v);
	row->bw_samples = n;
	row->bw_interval_ms = n ? in->interval_s * 1e3 : NAN;
	row->bw_min_mb_s = sb.min;
	row->bw_max_mb_s = sb.max;
	row->bw_mean_mb_s = sb.mean;
	row->bw_stdev_mb_s = n > 1 ? sb.stdev : NAN; /* no spread from one sample */
	row->iops_min = si.min;
	row->iops_max = si.max;
	row->iops_mean = si.mean;
	row->iops_sample_stdev = n > 1 ? si.stdev : NAN;
}

/* each figure's spread from the batches of every repeat, against the row's figure */
static void fill_spreads(struct disk_row *row, const struct disk_batches *b)
{
	struct batch_spreads sp;

	batch_spreads_of(b->v, b->n, row->mb_s, row->iops, row->lat_p99_us, row->self_cpu_pct,
			 row->util_pct, &sp);
	row->batches = b->n;
	row->mb_s_spread = sp.mb_s;
	row->iops_spread = sp.iops;
	row->lat_p99_spread_us = sp.lat_p99_us;
	row->self_cpu_spread = sp.self_cpu_pct;
	row->util_spread = sp.util_pct;
}

/* the spread over the repeats of a figure each repeat has: NaN with one, or one unknown */
static double repeats_sd(const double *v, unsigned n)
{
	struct summary sm;

	for (unsigned k = 0; k < n; k++)
		if (isnan(v[k]))
			return NAN;
	if (n < 2)
		return NAN;
	summarize(v, n, &sm);
	return sm.stdev;
}

static void fill_row(struct disk_row *row, const struct disk_pass_spec *s, const struct row_in *in,
		     const struct histogram *lat, const struct pass_out *sum, double cached_pct)
{
	const unsigned n = in->n;
	struct summary smb, siops;

	summarize(in->per->mb, n, &smb);
	summarize(in->per->iops, n, &siops);
	row->name = s->name;
	row->op = disk_op_name(s->op);
	row->access = disk_access_name(s->access);
	row->mode = disk_mode_name(s->mode);
	row->engine = s->engine->name;
	row->bs = s->bs;
	row->qd = s->qd;
	row->repeats = n;
	row->bytes = n ? sum->bytes / n : 0;
	row->seconds = n ? sum->seconds / n : NAN;
	/* CrystalDiskMark shows the best of its passes; everything else the mean */
	row->mb_s = in->best_of ? smb.max : smb.mean;
	row->mb_s_sd = n > 1 ? smb.stdev : NAN; /* no spread from one sample */
	row->mb_s_min = smb.min;
	row->mb_s_max = smb.max;
	row->mib_s = row->mb_s * 1e6 / (1 << 20);
	row->iops = in->best_of ? siops.max : siops.mean;
	row->iops_sd = n > 1 ? siops.stdev : NAN;
	row->lat_mean_us = hist_mean(lat) / 1e3;
	row->lat_p50_us = hist_quantile(lat, 0.50) / 1e3;
	row->lat_p90_us = hist_quantile(lat, 0.90) / 1e3;
	row->lat_p99_us = hist_quantile(lat, 0.99) / 1e3;
	row->lat_p999_us = hist_quantile(lat, 0.999) / 1e3;
	row->lat_max_us = lat->count ? (double)lat->max / 1e3 : NAN;
	row->cpu_user_pct = n ? sum->cpu.user_pct / n : NAN;
	row->cpu_sys_pct = n ? sum->cpu.sys_pct / n : NAN;
	row->cpu_iowait_pct = n ? sum->cpu.iowait_pct / n : NAN;
	row->cpu_irq_pct = n ? sum->cpu.irq_pct / n : NAN;
	row->self_cpu_pct = sum->seconds > 0 ? 100.0 * sum->cpu.self_s / sum->seconds : NAN;
	/* add_out weighs each repeat's pressure by its time */
	row->cpu_pressure_pct = sum->seconds > 0 ? sum->cpu.pressure_pct / sum->seconds : NAN;
	/* each repeat's share of the wall time is weighed by its I/O time: can round past 100 */
	if (row->cpu_pressure_pct > 100)
		row->cpu_pressure_pct = 100;
	row->cpu_busy_pct = sum->seconds > 0 ? sum->cpu.busy_pct / sum->seconds : NAN;
	row->cpu_wait_pct = sum->seconds > 0 ? sum->cpu.wait_pct / sum->seconds : NAN;
	row->cpu_io_pct = sum->seconds > 0 ? sum->cpu.io_pct / sum->seconds : NAN;
	row->cpu_s_per_gb = sum->bytes ? sum->cpu.self_s / ((double)sum->bytes / 1e9) : NAN;
	row->cpu_mhz_min = row->cpu_mhz_mean = row->cpu_mhz_max = row->cpu_clock_pct = NAN;
	if (sum->clock_governor[0] && sum->clock_seconds > 0) {
		row->cpu_mhz_min = sum->clock_min_khz / 1e3;
		row->cpu_mhz_mean = sum->clock_mean_khz / sum->clock_seconds / 1e3;
		row->cpu_mhz_max = sum->clock_max_khz / 1e3;
		row->cpu_clock_pct = 100 * row->cpu_mhz_mean * 1e3 / sum->clock_top_khz;
		snprintf(row->cpu_governor, sizeof(row->cpu_governor), "%s", sum->clock_governor);
	}
	row->irq = sum->irq;
	row->irq_per_cpu = irq_use_per_cpu(&sum->irq);
	row->cached_pct = cached_pct;
	row->verify_errors = sum->verify_bad;
	row->util_pct =
	    in->busy_ms == UINT64_MAX ? NAN : iostat_util_pct(in->busy_ms, sum->seconds);
	row->lat_p99_sd_us = repeats_sd(in->per->p99_us, n);
	row->self_cpu_sd = repeats_sd(in->per->cpu_pct, n);
	row->util_sd = repeats_sd(in->per->util_pct, n); /* NaN with util_pct's NaN */
	fill_samples(row, in);
	fill_spreads(row, &in->per->batches);
}

/* one repeat's interval samples, appended to the report's list */
static void add_samples(struct disk_report *rep, const struct disk_pass_spec *s, unsigned repeat,
			const struct rate_sampler *bw, double *buf, double *ret_interval_s)
{
	uint64_t iv;
	size_t n = sampler_rates(bw, bw->last, buf, SAMPLER_SLOTS, &iv), i;
	struct disk_sample *ns;

	if (!n)
		return;
	ns = realloc(rep->samples, (rep->nsamples + n) * sizeof(*ns));
	if (!ns)
		abort();
	rep->samples = ns;
	for (i = 0; i < n; i++)
		rep->samples[rep->nsamples++] = (struct disk_sample){
		    .pass = s->name,
		    .op = disk_op_name(s->op),
		    .mode = disk_mode_name(s->mode),
		    .repeat = repeat + 1,
		    .t_s = (double)(i + 1) * (double)iv / 1e9,
		    .mb_s = buf[i] / 1e6,
		    .iops = buf[i] / s->bs,
		    .ramp = i == 0 && n > SAMPLE_MIN_COUNT,
		};
	if (isnan(*ret_interval_s))
		*ret_interval_s = (double)iv / 1e9;
}

static void add_out(struct pass_out *sum, const struct pass_out *o)
{
	sum->bytes += o->bytes;
	sum->ios += o->ios;
	sum->seconds += o->seconds;
	sum->cpu.user_pct += o->cpu.user_pct;
	sum->cpu.sys_pct += o->cpu.sys_pct;
	sum->cpu.iowait_pct += o->cpu.iowait_pct;
	sum->cpu.irq_pct += o->cpu.irq_pct;
	sum->cpu.self_s += o->cpu.self_s;
	sum->cpu.pressure_pct += o->cpu.pressure_pct * o->seconds;
	sum->cpu.busy_pct += o->cpu.busy_pct * o->seconds;
	sum->cpu.wait_pct += o->cpu.wait_pct * o->seconds;
	sum->cpu.io_pct += o->cpu.io_pct * o->seconds;
	sum->verify_bad += o->verify_bad;
	irq_use_fold(&sum->irq, &o->irq);
	/* the clock: lowest and highest seen, the mean weighed by each repeat's time */
	if (!isnan(o->clock_mean_khz)) {
		bool first = !sum->clock_governor[0];

		sum->clock_min_khz = first || o->clock_min_khz < sum->clock_min_khz ? o->clock_min_khz
										       : sum->clock_min_khz;
		sum->clock_max_khz = first || o->clock_max_khz > sum->clock_max_khz ? o->clock_max_khz
										       : sum->clock_max_khz;
		sum->clock_mean_khz = (first ? 0 : sum->clock_mean_khz) + o->clock_mean_khz * o->seconds;
		sum->clock_seconds += o->seconds;
		sum->clock_top_khz = o->clock_top_khz;
		memcpy(sum->clock_governor, o->clock_governor, sizeof(sum->clock_governor));
		if (!sum->clock_governor[0])
			sum->clock_governor[0] = '?';
	}
}

/* each figure next to the bulk ceiling of the USB link it crossed, or the MMC bus mode's */
static void usb_ceiling(struct disk_report *rep, struct disk_row *row)
{
	row->ceiling_mb_s = rep->on_usb ? rep->usb.ceiling_mb_s
			    : rep->on_mmc ? rep->mmc.ceiling_mb_s
					  : NAN;
	row->efficiency_pct = row->mb_s / row->ceiling_mb_s * 100;
	if (row->efficiency_pct > 100)
		warn(rep, "%s: %.1f MB/s is above the %.1f MB/s the %s link can carry: that "
			  "figure is not the bus's (a cache, or an emulated link)",
		     row->name, row->mb_s, row->ceiling_mb_s,
		     rep->on_usb ? rep->usb.speed_name : rep->mmc.timing_name);
}

/* an MMC/SD card under the target: its bus mode's ceiling, and how debugfs was had */
static void mmc_attach(struct disk_report *rep, const struct disk_target *t)
{
	rep->mmc.ceiling_mb_s = rep->mmc.nominal_mb_s = NAN;
	if (rep->on_usb || mmc_attach_for_block(t->dev_major, t->dev_minor, &rep->mmc) < 0)
		return;
	rep->on_mmc = true;
	if (rep->mmc.debugfs_mounted)
		warn(rep, "debugfs was mounted read-only at '%s' to read %s's bus state, and "
			  "unmounted",
		     rep->mmc.debugfs_mounted, rep->mmc.host);
	else if (rep->mmc.debugfs_missing)
		warn(rep, "no debugfs %s/ios (debugfs not mounted, or not root): the MMC bus "
			  "mode and its ceiling are unknown",
		     rep->mmc.host);
}

static void env_warnings(struct disk_target *t, struct disk_report *rep)
{
	struct strbuf gov = STRBUF_INIT;

	if (t->fs_type && (!strcmp(t->fs_type, "tmpfs") || !strcmp(t->fs_type, "ramfs")))
		warn(rep, "'%s' is on %s: that is memory, not a disk", t->path, t->fs_type);
	if (t->fs_type && fs_is_fuse(t->fs_type))
		warn(rep, "'%s' is mounted through FUSE (%s): throughput is likely CPU-bound; "
			  "a kernel driver (ntfs3, exfat) is faster",
		     t->path, t->fs_type);
	if (!t->direct_ok)
		warn(rep, "O_DIRECT is refused %s%s: direct passes ran buffered "
			  "(writes end with fsync, reads follow a cache drop)",
		     t->fs_type ? "by " : "on ", t->fs_type ? t->fs_type : t->io_path);
	if (cpufreq_non_performance(&gov) > 0)
		warn(rep, "cpufreq governor is '%s', not 'performance': frequency scaling can "
			  "lower and scatter the figures",
		     gov.buf);
	strbuf_release(&gov);
}

/* what a row's figure is: "best of 5 passes, 1 GiB" (CrystalDiskMark's words) */
static void figures(struct disk_report *rep, const struct disk_config *cfg, uint64_t size)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	unsigned u = 0;

	while (u < 4 && size >= 1024 && size % 1024 == 0) {
		size /= 1024;
		u++;
	}
	snprintf(rep->figures_buf, sizeof(rep->figures_buf), "%s of %u pass%s, %llu %s",
		 cfg->best_of ? "best" : "mean", cfg->repeat, cfg->repeat == 1 ? "" : "es",
		 (unsigned long long)size, unit[u]);
}

/*
 * usbmon copies each URB's data into its ring (up to a fifth of it) as the URB
 * completes and drops what does not fit: a burst of completions (UAS with streams,
 * QD32) can outrun the reader, and what is lost is missing from the figures
 */
static void warn_wire_lost(struct disk_report *rep, const char *pass, const struct disk_row *row)
{
	if (row->monitored && row->wire_dropped != U64_UNKNOWN && row->wire_dropped > 0)
		warn(rep,
		     "%s: usbmon lost %llu events (its ring was full): the wire figures are "
		     "lower bounds",
		     pass, (unsigned long long)row->wire_dropped);
}

static int repeat_bufs_alloc(struct repeat_bufs *b, unsigned repeat)
{
	b->lat = malloc(sizeof(*b->lat));
	b->rlat = malloc(sizeof(*b->rlat));
	b->bw = malloc(sizeof(*b->bw));
	b->rates = calloc(SAMPLER_SLOTS, sizeof(*b->rates));
	b->mb = calloc(repeat, sizeof(double));
	b->iops = calloc(repeat, sizeof(double));
	b->p99_us = calloc(repeat, sizeof(double));
	b->cpu_pct = calloc(repeat, sizeof(double));
	b->util_pct = calloc(repeat, sizeof(double));
	return b->lat && b->rlat && b->bw && b->rates && b->mb && b->iops && b->p99_us &&
			       b->cpu_pct && b->util_pct
		   ? 0
		   : -ENOMEM;
}

static void repeat_bufs_release(struct repeat_bufs *b)
{
	free_all(b->lat, b->rlat, b->bw, b->rates, b->mb, b->iops, b->p99_us, b->cpu_pct,
		 b->util_pct);
}

/* what the repeats of a pass left beyond the figures */
struct repeats_out {
	struct pass_out sum;
	double cached; /* the most of the region in the page cache before a repeat, NaN unknown */
	enum cache_drop drop;
};

/*
 * Every repeat of pass i: each one's figures into the buffers (the latencies
 * into b->lat, their own p99 of each), the sum into *out; the repeats that
 * moved data
 */
static unsigned run_repeats(struct disk_target *t, const struct disk_config *cfg,
			    struct disk_report *rep, size_t i, struct repeat_bufs *b,
			    struct row_in *in, struct repeats_out *out)
{
	const struct disk_pass_spec *s = &cfg->passes[i];
	unsigned k, n = 0;

	for (k = 0; k < cfg->repeat; k++) {
		struct pass_env env = {t,   cfg,	s, (unsigned)i, (unsigned)cfg->npasses,
				       k,   b->rlat, b->bw, &b->batches, rep};
		struct pass_out o;
		int r;

		if (cfg->stop && *cfg->stop) {
			rep->interrupted = true;
			break;
		}
		hist_init(b->rlat);
		r = disk_pass_run(&env, &o);
		if (r < 0) {
			rep->error = r;
			warn(rep, "%s could not run: %s", s->name, strerror(-r));
			break;
		}
		hist_merge(b->lat, b->rlat);
		if (o.cache_drop > out->drop)
			out->drop = o.cache_drop;
		if (!isnan(o.cached_pct) && (isnan(out->cached) || o.cached_pct > out->cached))
			out->cached = o.cached_pct;
		if (o.bytes && o.seconds > 0) {
			b->mb[n] = (double)o.bytes / o.seconds / 1e6;
			b->iops[n] = (double)o.ios / o.seconds;
			b->p99_us[n] = b->rlat->count ? hist_quantile(b->rlat, 0.99) / 1e3 : NAN;
			b->cpu_pct[n] = 100.0 * o.cpu.self_s / o.seconds;
			b->util_pct[n] = o.busy_ms == UINT64_MAX
					     ? NAN
					     : iostat_util_pct(o.busy_ms, o.seconds);
			n++;
			add_out(&out->sum, &o);
			add_samples(rep, s, k, b->bw, b->rates, &in->interval_s);
			if (o.busy_ms == UINT64_MAX || in->busy_ms == UINT64_MAX)
				in->busy_ms = UINT64_MAX;
			else
				in->busy_ms += o.busy_ms;
		}
		if (o.interrupted)
			rep->interrupted = true;
		if (o.error) {
			rep->error = o.error;
			warn(rep, "%s ended early after %llu bytes: %s", s->name,
			     (unsigned long long)o.bytes, strerror(-o.error));
			break;
		}
		if (o.interrupted)
			break;
	}
	return n;
}

/* what disk_run tallies over the passes, for its closing warnings */
struct run_tally {
	enum cache_drop drop;
	bool mon_off, no_util;
	unsigned nshort, ncontended, nutil_short; /* util unknown: too short for the ticks */
	const char *shortest;
	double shortest_s, worst_pressure;
};

/* a row's warnings, and the tally's counts */
static void row_warnings(struct disk_report *rep, const struct disk_pass_spec *s,
			 const struct repeat_bufs *b, unsigned n, const struct repeats_out *ro,
			 struct run_tally *tl)
{
	const struct disk_row *row = &rep->rows[rep->nrows];
	struct summary spread;

	if (isnan(row->util_pct) && ro->sum.seconds < IOSTAT_UTIL_MIN_S)
		tl->nutil_short++;
	else
		tl->no_util |= isnan(row->util_pct);
	if (row->cpu_pressure_pct > CPU_CONTENDED_PCT) {
		tl->ncontended++;
		tl->worst_pressure = fmax(tl->worst_pressure, row->cpu_pressure_pct);
	}
	if (!isnan(ro->cached) && ro->cached > CACHED_WARN_PCT)
		warn(rep, "%.0f%% of the region was still in the page cache before %s "
			  "(%s): that figure is partly memory speed",
		     ro->cached, s->name, disk_mode_name(s->mode));
	/* the pass's whole time, over its repeats: what its figures are the mean of */
	if (ro->sum.seconds < SHORT_PASS_S && !rep->interrupted) {
		tl->nshort++;
		if (ro->sum.seconds < tl->shortest_s) {
			tl->shortest_s = ro->sum.seconds;
			tl->shortest = s->name;
		}
	}
	/* against the mean (a best-of row shows the best); "SEQ1M Q1T1" names a read
	 * and a write row: say which */
	summarize(b->mb, n, &spread);
	if (n > 1 && spread.stdev > NOISY_CV * spread.mean)
		warn(rep, "%s%s%s varied by %.0f%% (stdev/mean) over %u repeats", s->name,
		     strstr(s->name, disk_op_name(s->op)) ? "" : " ",
		     strstr(s->name, disk_op_name(s->op)) ? "" : disk_op_name(s->op),
		     100 * spread.stdev / spread.mean, n);
}

/* pass i with its repeats, watched on the wire, folded into the report's next row */
static void run_pass(struct disk_target *t, const struct disk_config *cfg, struct disk_report *rep,
		     size_t i, struct repeat_bufs *b, struct run_tally *tl)
{
	const struct disk_pass_spec *s = &cfg->passes[i];
	struct row_in in = {.per = b, .interval_s = NAN, .best_of = cfg->best_of};
	struct repeats_out ro = {.cached = NAN, .drop = tl->drop};
	size_t first_sample = rep->nsamples;
	struct usbmon_pass *mon = NULL;
	struct strbuf why = STRBUF_INIT;
	unsigned n;
	int r;

	irq_use_unknown(&ro.sum.irq);
	hist_init(b->lat);
	/* one capture over the repeats; a monitor that cannot start is said once */
	if (!tl->mon_off && disk_wire_start(rep, &mon, &why) < 0) {
		warn(rep, "passes not monitored on the wire: %s", why.buf);
		tl->mon_off = true;
	}
	n = run_repeats(t, cfg, rep, i, b, &in, &ro);
	tl->drop = ro.drop;
	strbuf_reset(&why);
	r = disk_wire_stop(mon, ro.sum.seconds, n ? &rep->rows[rep->nrows] : NULL, &why);
	if (r < 0 && n)
		warn(rep, "%s not monitored on the wire: %s", s->name, why.buf);
	if (r == 0 && n)
		warn_wire_lost(rep, s->name, &rep->rows[rep->nrows]);
	strbuf_release(&why);
	if (n) {
		in.n = n;
		in.smp = rep->samples + first_sample;
		in.nsmp = rep->nsamples - first_sample;
		fill_row(&rep->rows[rep->nrows], s, &in, b->lat, &ro.sum, ro.cached);
		rep->rows[rep->nrows].status = rep->error	? "partial"
					       : rep->interrupted ? "interrupted"
								  : "ok";
		usb_ceiling(rep, &rep->rows[rep->nrows]);
		row_warnings(rep, s, b, n, &ro, tl);
		rep->nrows++;
	}
	disk_batches_release(&b->batches); /* and empty for the next pass */
}

int disk_run(struct disk_target *t, const struct disk_config *cfg, struct disk_report *rep)
{
	struct repeat_bufs b = {0};
	struct run_tally tl = {.drop = CACHE_DROP_NONE,
			       .mon_off = !cfg->monitor,
			       .shortest_s = INFINITY};
	bool any_read = false, any_buffered_read = false;
	size_t i;
	int r = 0;

	memset(rep, 0, sizeof(*rep));
	rep->path = t->path;
	rep->kind = target_kind_name(t->kind);
	rep->io_path = t->io_path;
	rep->fs_type = t->fs_type;
	rep->mount_point = t->mount_point;
	rep->source = t->source;
	rep->size = t->size;
	rep->seed = cfg->seed;
	rep->verify = cfg->verify;
	rep->time_limit_s = cfg->time_s;
	rep->min_time_s = cfg->min_time_s < cfg->time_s ? cfg->min_time_s : cfg->time_s;
	figures(rep, cfg, t->size);
	rep->figures = rep->figures_buf;
	rep->usb.ceiling_mb_s = NAN;
	if (t->dev_major || t->dev_minor)
		rep->on_usb = usb_attach_for_block(t->dev_major, t->dev_minor, &rep->usb) == 0;
	if (t->dev_major || t->dev_minor)
		mmc_attach(rep, t);
	rep->rows = calloc(cfg->npasses ? cfg->npasses : 1, sizeof(*rep->rows));
	rep->verrs = calloc(DISK_VERIFY_KEEP, sizeof(*rep->verrs));
	if (!rep->rows || !rep->verrs || repeat_bufs_alloc(&b, cfg->repeat) < 0) {
		r = -ENOMEM;
		goto out;
	}
	env_warnings(t, rep);

	for (i = 0; i < cfg->npasses; i++) {
		any_read |= cfg->passes[i].op == DISK_READ;
		any_buffered_read |= cfg->passes[i].op == DISK_READ &&
				     (cfg->passes[i].mode == DISK_BUFFERED || !t->direct_ok);
	}
	if (any_read && t->may_write) {
		r = layout(t, cfg);
		if (r < 0) {
			rep->error = r;
			warn(rep, "laying out the test region failed after writing: %s", strerror(-r));
			r = 0;
			goto out;
		}
	}

	for (i = 0; i < cfg->npasses && !rep->error && !rep->interrupted; i++)
		run_pass(t, cfg, rep, i, &b, &tl);
	if (tl.nshort)
		warn(rep, "%u pass%s lasted under %.1f s (shortest: %s, %.0f ms): timer and start-up "
			  "effects weigh more; raise --min-time or --size for steadier figures",
		     tl.nshort, tl.nshort > 1 ? "es" : "", SHORT_PASS_S, tl.shortest, tl.shortest_s * 1e3);
	if (tl.ncontended)
		warn(rep, "the CPUs were contended during %u pass%s (some task waited for one up to "
			  "%.0f%% of the time, PSI; usbperf's own deep queues count too): a figure that "
			  "needs the CPU moves with that load from run to run, which compare weighs by "
			  "how long the pass waited for a CPU",
		     tl.ncontended, tl.ncontended > 1 ? "es" : "", tl.worst_pressure);
	if (tl.nutil_short)
		warn(rep, "device utilisation not given for %u pass%s under %.1f s: the kernel counts "
			  "a device's busy time in timer ticks of 1-10 ms",
		     tl.nutil_short, tl.nutil_short > 1 ? "es" : "", IOSTAT_UTIL_MIN_S);
	if (tl.no_util)
		warn(rep, "device utilisation not measured: %s",
		     t->dev_major ? "the block device's stat could not be read"
			 : "no block device found under the target (a filesystem without one)");
	if (any_buffered_read)
		rep->cache_drop = cache_drop_name(tl.drop);
	if (any_buffered_read && tl.drop != CACHE_DROP_SYSTEM)
		warn(rep, "page cache dropped with fadvise for the test region only (%s): run as "
			  "root for drop_caches",
		     geteuid() ? "not root" : "drop_caches refused");
out:
	repeat_bufs_release(&b);
	return r;
}

static bool reads_laid_out(const struct disk_config *cfg, const struct disk_target *t)
{
	for (size_t i = 0; i < cfg->npasses; i++)
		if (cfg->passes[i].op == DISK_READ)
			return t->may_write;
	return false;
}

void disk_estimate_add(struct estimate *e, const struct disk_config *cfg,
		       const struct disk_target *t)
{
	/* a pass with all its repeats */
	double floor = (cfg->min_time_s < cfg->time_s ? cfg->min_time_s : cfg->time_s) * cfg->repeat;
	double cap = cfg->time_s * cfg->repeat;
	unsigned n = (unsigned)cfg->npasses;

	e->what = "disk";
	e->passes += n;
	e->floor_s += n * floor;
	e->cap_s += n * cap;
	if (floor > e->pass_floor_s)
		e->pass_floor_s = floor;
	if (cap > e->pass_cap_s)
		e->pass_cap_s = cap;
	if (reads_laid_out(cfg, t))
		e->layout_bytes += t->size;
}

int disk_report_pair(struct disk_report *r)
{
	size_t i, j;

	free(r->pairs);
	r->npairs = 0;
	snprintf(r->summary_title, sizeof(r->summary_title), "summary: %s (MB/s = 10^6 B/s)",
		 r->figures ? r->figures : "");
	r->pairs = calloc(r->nrows ? r->nrows : 1, sizeof(*r->pairs));
	if (!r->pairs)
		return -ENOMEM;
	for (i = 0; i < r->nrows; i++) {
		const struct disk_row *row = &r->rows[i];
		struct disk_pair_row *p = NULL;

		for (j = 0; j < r->npairs && !p; j++)
			if (!strcmp(r->pairs[j].name, row->name))
				p = &r->pairs[j];
		if (!p) {
			p = &r->pairs[r->npairs++];
			*p = (struct disk_pair_row){row->name, NAN, NAN, NAN, NAN};
		}
		if (!strcmp(row->op, "read")) {
			p->read_mb_s = row->mb_s;
			p->read_iops = row->iops;
		} else {
			p->write_mb_s = row->mb_s;
			p->write_iops = row->iops;
		}
	}
	return 0;
}

void disk_report_release(struct disk_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	for (i = 0; i < r->nrows; i++)
		free(r->rows[i].irq_per_cpu);
	free_all(r->rows, r->pairs, r->samples, r->verrs);
	usb_attach_release(&r->usb);
	mmc_attach_release(&r->mmc);
	memset(r, 0, sizeof(*r));
}

// SPDX-License-Identifier: MIT
/*
 * One timed pass: keep qd requests in flight through an engine until the
 * byte budget is spent and the minimum time has passed (the region is gone
 * over again from its start, as fio's time_based does), or the time cap is
 * reached, timing each request. The clock runs from the first submission to
 * the last completion, plus the fsync that makes a buffered write real (dd
 * conv=fsync semantics).
 */
#include "classes/disk/pass.h"
#include "platform/sys/passwatch.h"
#include "classes/disk/cache.h"
#include "classes/disk/iostat.h"
#include "util/clock.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PROGRESS_NS 250000000ULL

#define HUGE_ALIGN (2u << 20)

struct slots {
	struct disk_io *io;
	void *region; /* one allocation for every slot's buffer */
	void **buf;
	unsigned *free; /* stack of free slot indexes */
	unsigned nfree, n;
};

static void slots_release(struct slots *s)
{
	free_all(s->region, s->buf, s->io, s->free);
	memset(s, 0, sizeof(*s));
}

/*
 * All buffers in one 2 MiB-aligned region the kernel may back with huge
 * pages: O_DIRECT pins the user pages of every request, and pinning one huge
 * page instead of 256 small ones made 1 MiB reads ~10% faster on a RAM disk.
 */
static int slots_init(struct slots *s, unsigned n, size_t len, struct prng *rng)
{
	size_t total = ((size_t)n * len + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
	unsigned i;

	memset(s, 0, sizeof(*s));
	s->io = calloc(n, sizeof(*s->io));
	s->buf = calloc(n, sizeof(*s->buf));
	s->free = calloc(n, sizeof(*s->free));
	if (!s->io || !s->buf || !s->free)
		goto fail;
	if (posix_memalign(&s->region, HUGE_ALIGN, total))
		goto fail;
	madvise(s->region, total, MADV_HUGEPAGE); /* a hint: fine if refused */
	s->n = n;
	for (i = 0; i < n; i++) {
		/* len is a multiple of 512 and the region 2 MiB-aligned: O_DIRECT-safe */
		s->buf[i] = (char *)s->region + (size_t)i * len;
		pattern_fill_random(rng, s->buf[i], len);
		s->io[i].buf = s->buf[i];
		s->io[i].slot = i;
		s->free[i] = n - 1 - i;
	}
	s->nfree = n;
	return 0;
fail:
	slots_release(s);
	return -ENOMEM;
}

static void note_verify(struct pass_env *env, uint64_t bad_off, enum verify_fault f, uint64_t nbad)
{
	struct disk_report *rep = env->report;

	if (rep->nverrs < DISK_VERIFY_KEEP) {
		struct verify_error *v = &rep->verrs[rep->nverrs++];
		v->offset = bad_off;
		v->fault = verify_fault_name(f);
		v->pass = env->spec->name;
	}
	rep->verify_errors_total += nbad;
}

static void progress(const struct pass_env *env, const struct disk_config *cfg,
		     const struct disk_pass_spec *spec, const struct pass_out *out, uint64_t region,
		     uint64_t elapsed_ns)
{
	struct disk_progress p = {
		.spec = spec,
		.pass_index = env->pass_index + 1,
		.pass_count = env->pass_count,
		.repeat = env->repeat + 1,
		.repeats = cfg->repeat,
		.phase = "pass",
		.done_bytes = out->bytes,
		.total_bytes = region,
		.elapsed_s = (double)elapsed_ns / 1e9,
		.limit_s = cfg->time_s,
		.min_s = cfg->min_time_s < cfg->time_s ? cfg->min_time_s : cfg->time_s,
		.rate_Bps = elapsed_ns ? (double)out->bytes / ((double)elapsed_ns / 1e9) : 0,
	};

	cfg->progress(cfg->progress_ctx, &p);
}

int disk_pass_run(struct pass_env *env, struct pass_out *out)
{
	const struct disk_pass_spec *spec = env->spec;
	const struct disk_config *cfg = env->cfg;
	struct disk_target *t = env->target;
	const bool write = spec->op == DISK_WRITE;
	const bool buffered = spec->mode == DISK_BUFFERED || !t->direct_ok;
	const int fd = buffered ? t->fd_buf : t->fd;
	const uint64_t bs = spec->bs;
	const uint64_t region = t->size - t->size % bs;
	const uint64_t nblocks = region / bs;
	const uint64_t limit_ns = (uint64_t)(cfg->time_s * 1e9);
	/* the floor never outlasts the cap: --time 0.2 means passes of 0.2 s at most */
	const uint64_t min_ns =
	    (uint64_t)((cfg->min_time_s < cfg->time_s ? cfg->min_time_s : cfg->time_s) * 1e9);
	const bool drop_laps = !write && buffered;
	struct disk_engine eng = {.fd = -1};
	struct batch_clock bc = {0};
	struct disk_io *done[64];
	struct cpu_sample c0, c1;
	struct passwatch pw;
	struct pass_sys sys;
	struct slots sl;
	struct prng rng;
	uint64_t t0, now, last_progress, issued = 0, next_seq = 0, counter = 0, ticks0 = 0, ticks1;
	unsigned inflight = 0, i;
	bool cpu_ok, ticks_ok;
	int r;

	memset(out, 0, sizeof(*out));
	out->cached_pct = NAN;
	if (nblocks == 0)
		return -EINVAL;
	prng_seed(&rng, cfg->seed ^ ((uint64_t)env->pass_index << 32) ^ env->repeat);
	r = slots_init(&sl, spec->qd, bs, &rng);
	if (r < 0)
		return r;
	eng.ops = spec->engine;
	r = eng.ops->open(&eng, fd, spec->qd, sl.buf, sl.n, bs);
	if (r < 0)
		goto out_slots;
	if (env->batches && batch_clock_init(&bc, env->batches, batch_len_ns(min_ns, limit_ns),
					     t->dev_major, t->dev_minor) < 0) {
		r = -ENOMEM;
		goto out_engine;
	}

	if (!write && buffered) {
		out->cache_drop = cache_drop(fd);
		out->cached_pct = cache_resident_pct(fd, region);
		posix_fadvise(fd, 0, 0,
			      spec->access == DISK_RAND ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	}

	ticks_ok = iostat_io_ticks(t->dev_major, t->dev_minor, &ticks0) == 0;
	cpu_ok = cpu_sample_take(&c0) == 0;
	(void)passwatch_start(&pw, cfg->irq_lines);
	t0 = last_progress = now = clock_now_ns();
	sampler_init(env->bw, t0);
	if (bc.lat)
		batch_clock_begin(&bc, t0);
	for (;;) {
		bool stop_issue = out->error || out->interrupted ||
				  (issued >= region && now - t0 >= min_ns) || now - t0 >= limit_ns;
		uint64_t batch = 0;
		int n;

		while (!stop_issue && sl.nfree) {
			struct disk_io *io = &sl.io[sl.free[--sl.nfree]];

			if (issued && issued % region == 0) {
				/* another lap for the minimum time: reads come from the device
				 * again, not from what the last lap left in the page cache */
				out->laps++;
				next_seq = 0;
				if (drop_laps)
					posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
			}
			io->off = spec->access == DISK_SEQ ? next_seq
							   : (prng_next(&rng) % nblocks) * bs;
			next_seq += bs;
			io->len = (uint32_t)bs;
			io->write = write;
			if (write) {
				if (cfg->verify)
					pattern_fill_verify(io->buf, bs, io->off, cfg->seed);
				else
					pattern_stamp(io->buf, bs, io->off, ++counter);
			}
			io->lap = out->laps;
			io->t_issue = clock_now_ns();
			r = eng.ops->queue(&eng, io);
			if (r < 0) {
				sl.free[sl.nfree++] = io->slot;
				out->error = r;
				break;
			}
			inflight++;
			issued += bs;
			stop_issue = issued >= region && io->t_issue - t0 >= min_ns;
		}
		r = eng.ops->submit(&eng);
		if (r < 0 && !out->error)
			out->error = r;
		if (!inflight)
			break;
		n = eng.ops->reap(&eng, 1, done, inflight < 64 ? inflight : 64);
		now = clock_now_ns();
		if (n < 0) {
			out->error = n;
			break; /* the ring is unusable: do not wait on it again */
		}
		for (i = 0; i < (unsigned)n; i++) {
			struct disk_io *io = done[i];

			inflight--;
			sl.free[sl.nfree++] = io->slot;
			if (io->res < 0) {
				if (!out->error)
					out->error = (int)io->res;
				continue;
			}
			if ((uint64_t)io->res < io->len) {
				if (!out->error)
					out->error = write ? -ENOSPC : -EIO;
				continue;
			}
			out->bytes += io->len;
			out->ios++;
			batch += io->len;
			hist_record(env->lat, now - io->t_issue);
			if (bc.lat)
				batch_clock_record(&bc, now - io->t_issue);
			/* a sequential read checks each unit once: later laps are timed only,
			 * so a bad unit is counted once, as without laps */
			if (!write && cfg->verify && (io->lap == 0 || spec->access == DISK_RAND)) {
				uint64_t bad_off = 0;
				enum verify_fault f = VERIFY_OK;
				size_t nbad = pattern_check(io->buf, io->len, io->off, cfg->seed,
							    &bad_off, &f);
				if (nbad) {
					out->verify_bad += nbad;
					note_verify(env, bad_off, f, nbad);
				}
			}
		}
		if (batch)
			sampler_add(env->bw, now, batch);
		if (batch && bc.lat)
			batch_clock_tick(&bc, now, out->bytes, out->ios);
		if (cfg->stop && *cfg->stop)
			out->interrupted = true;
		if (cfg->progress && now - last_progress >= PROGRESS_NS) {
			progress(env, cfg, spec, out, region, now - t0);
			last_progress = now;
		}
	}
	if (bc.lat)
		batch_clock_stop(&bc, now, out->bytes, out->ios);
	if (write && buffered && !out->error && fsync(fd) < 0)
		out->error = -errno;
	now = clock_now_ns();
	out->busy_ms = ticks_ok && iostat_io_ticks(t->dev_major, t->dev_minor, &ticks1) == 0 &&
			       ticks1 >= ticks0
			   ? ticks1 - ticks0
			   : UINT64_MAX;
	if (cpu_ok && cpu_sample_take(&c1) == 0)
		cpu_use_between(&c0, &c1, &out->cpu);
	else
		out->cpu = (struct cpu_use){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
	out->seconds = (double)(now - t0) / 1e9;
	passwatch_stop(&pw, out->seconds, &sys);
	out->clock_min_khz = sys.clock_min_khz;
	out->clock_mean_khz = sys.clock_mean_khz;
	out->clock_max_khz = sys.clock_max_khz;
	out->clock_top_khz = sys.clock_top_khz;
	memcpy(out->clock_governor, sys.clock_governor, sizeof(out->clock_governor));
	out->irq = sys.irq;
	/* outside the clock: a pass shorter than the update interval still shows its rate */
	if (cfg->progress)
		progress(env, cfg, spec, out, region, now - t0);
	if (!write && buffered)
		posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
	r = 0;
out_engine:
	eng.ops->close(&eng);
out_slots:
	slots_release(&sl);
	return r;
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A pass cut into batches: stretches of about the same length, each closed
 * at a completion, with its own rate, latency, CPU and device time. How the
 * batches differ is the pass's own spread (util/stats.h batch_spread): what
 * `compare` weighs a change against when the pass ran once. A batch ends at
 * a completion, so its rate counts whole requests over the time they took:
 * a slow pass (40 requests of 1 MiB a second) is not quantised as fixed
 * intervals would be (4 or 5 requests in 100 ms: 20 % apart).
 */
#include "util/stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the most batches one pass keeps: past it, neighbours merge and batches get twice as long */
#define BATCH_MAX 64u

struct disk_batch {
	double seconds;	   /* from the batch's start (a completion, or the pass's start) */
	uint64_t bytes, ios;
	double self_s;	   /* usbperf's CPU time in it */
	double busy_ms;	   /* the device's io_ticks in it; NaN unknown */
	double lat_p99_ns; /* of its completions */
};

/* a pass's batches, appended to over its repeats */
struct disk_batches {
	struct disk_batch *v;
	size_t n;
};

void disk_batches_release(struct disk_batches *b);

/* the live state through one pass */
struct batch_clock {
	struct disk_batches *out;
	struct histogram *lat; /* the open batch's latencies */
	uint64_t len_ns;       /* a batch's length */
	uint64_t t0, bytes0, ios0;
	double self0;
	uint64_t ticks0;
	bool ticks_ok;
	unsigned dev_major, dev_minor;
	size_t first; /* this pass's first batch in out */
};

/* batches of len_ns into out; io_ticks of dev_major:dev_minor (0:0: none). -ENOMEM */
int batch_clock_init(struct batch_clock *c, struct disk_batches *out, uint64_t len_ns,
		     unsigned dev_major, unsigned dev_minor);
/* the first batch starts now */
void batch_clock_begin(struct batch_clock *c, uint64_t now_ns);
static inline void batch_clock_record(struct batch_clock *c, uint64_t lat_ns)
{
	hist_record(c->lat, lat_ns);
}
/* after the completions that brought bytes and ios (the pass's totals) at now_ns */
void batch_clock_tick(struct batch_clock *c, uint64_t now_ns, uint64_t bytes, uint64_t ios);
/* the pass's end: a last batch at least half as long as the others is kept; frees c */
void batch_clock_stop(struct batch_clock *c, uint64_t now_ns, uint64_t bytes, uint64_t ios);

/*
 * A batch's length for a pass that lasts at least min_ns (0: it may end as
 * soon as its region is read) and at most limit_ns: the shortest such pass
 * still has BATCH_MIN_COUNT of them with one to spare (a sixth of min_ns).
 */
uint64_t batch_len_ns(uint64_t min_ns, uint64_t limit_ns);

/* each figure's spread from the batches (NaN with too few), in the figure's unit */
struct batch_spreads {
	double mb_s, iops, lat_p99_us, self_cpu_pct, util_pct;
};
/*
 * From the batches, against the whole pass's figures (the row's: rate,
 * IOPS, p99 in us, usbperf's CPU in % of one CPU, utilisation in %).
 */
void batch_spreads_of(const struct disk_batch *b, size_t n, double mb_s, double iops,
		      double lat_p99_us, double self_cpu_pct, double util_pct,
		      struct batch_spreads *ret);

// SPDX-License-Identifier: MIT
/*
 * Frame accounting: pure arithmetic over the buffers a capture dequeued.
 * A gap in the sequence numbers is frames the driver never returned (lost);
 * a buffer flagged V4L2_BUF_FLAG_ERROR was returned but is corrupt; both
 * count as dropped. Rates come from the driver's timestamps (the device's
 * clock, or the kernel's at capture) and, as a cross-check, from the times
 * usbperf dequeued them.
 */
#include "classes/video/video.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const double video_hist_edges[VIDEO_HIST_BINS - 1] = {0.5, 0.9, 1.1, 1.5, 2.5, 3.5};

int video_acct_init(struct video_acct *a)
{
	memset(a, 0, sizeof(*a));
	a->bytes_min = UINT64_MAX;
	a->ival_min = UINT64_MAX;
	return 0;
}

void video_acct_release(struct video_acct *a)
{
	if (!a)
		return;
	free(a->ival_ns);
	a->ival_ns = NULL;
	a->nival = a->cap = 0;
}

static int keep_interval(struct video_acct *a, uint64_t d)
{
	double delta;

	a->nival_total++;
	delta = (double)d - a->ival_mean;
	a->ival_mean += delta / (double)a->nival_total;
	a->ival_m2 += delta * ((double)d - a->ival_mean);
	if (d > a->ival_max)
		a->ival_max = d;
	if (d < a->ival_min)
		a->ival_min = d;
	if (a->nival >= VIDEO_MAX_INTERVALS)
		return 0;
	if (a->nival == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		uint64_t *v = realloc(a->ival_ns, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		a->ival_ns = v;
		a->cap = cap;
	}
	a->ival_ns[a->nival++] = d;
	return 0;
}

int video_acct_add(struct video_acct *a, const struct video_sample *s)
{
	int r = 0;

	if (a->buffers) {
		/* unsigned: a wrap of the 32-bit counter is one step, not a reset */
		uint32_t step = s->sequence - a->prev_seq;
		if (step == 0)
			a->dups++;
		else if (step > 0x80000000u)
			a->seq_resets++;
		else
			a->lost += step - 1;
		if (s->ts_ns >= a->prev_ts)
			r = keep_interval(a, s->ts_ns - a->prev_ts);
		else
			a->backwards++;
	} else {
		a->first_ts = s->ts_ns;
		a->first_wall = s->wall_ns;
	}
	a->buffers++;
	a->prev_seq = s->sequence;
	a->prev_ts = s->ts_ns;
	a->last_ts = s->ts_ns;
	a->last_wall = s->wall_ns;
	if (s->flags & V4L2_BUF_FLAG_ERROR) {
		a->errors++;
		return r;
	}
	if (a->buffers - a->errors == 1)
		a->bytes_first = s->bytesused;
	a->bytes += s->bytesused;
	if (s->bytesused < a->bytes_min)
		a->bytes_min = s->bytesused;
	if (s->bytesused > a->bytes_max)
		a->bytes_max = s->bytesused;
	return r;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* nearest rank, as util/stats.h's histogram */
static double rank(const uint64_t *v, size_t n, double q)
{
	size_t i = (size_t)ceil(q * (double)n);

	return (double)v[i ? i - 1 : 0];
}

/* the rate over windows of about VIDEO_SAMPLE_S of consecutive intervals, in arrival order */
static void fps_samples(const struct video_acct *a, struct video_stats *st)
{
	double mean = 0, m2 = 0, min = INFINITY;
	uint64_t n = 0, acc = 0, k = 0;

	for (size_t i = 0; i < a->nival; i++) {
		double f, d;

		acc += a->ival_ns[i];
		k++;
		if ((double)acc < VIDEO_SAMPLE_S * 1e9)
			continue;
		f = (double)k * 1e9 / (double)acc;
		n++;
		d = f - mean;
		mean += d / (double)n;
		m2 += d * (f - mean);
		if (f < min)
			min = f;
		acc = k = 0;
	}
	st->fps_sample_mean = st->fps_sample_stdev = st->fps_sample_min = NAN;
	st->fps_samples = n >= 2 ? n : 0;
	if (n < 2)
		return;
	st->fps_sample_mean = mean;
	st->fps_sample_stdev = sqrt(m2 / (double)(n - 1));
	st->fps_sample_min = min;
}

void video_acct_finish(const struct video_acct *a, double nominal_fps, struct video_stats *ret)
{
	struct video_stats st = {0};
	uint64_t *sorted = NULL;
	double unit_ns;
	size_t i, b;

	st.buffers = a->buffers;
	st.errors = a->errors;
	st.frames = a->buffers - a->errors;
	st.lost = a->lost;
	st.dropped = a->lost + a->errors;
	st.seq_resets = a->seq_resets;
	st.backwards = a->backwards;
	st.intervals_capped = a->nival < a->nival_total;
	st.drop_pct = st.frames + st.dropped
			  ? 100.0 * (double)st.dropped / (double)(st.frames + st.dropped)
			  : NAN;
	st.span_s = a->buffers > 1 ? (double)(a->last_ts - a->first_ts) / 1e9 : NAN;
	st.fps = st.fps_wall = st.fps_sequence = st.mb_s = NAN;
	if (a->buffers > 1 && a->last_ts > a->first_ts) {
		/* buffers after the first, over the span; only the good ones count */
		double good = (double)(a->buffers - 1) * (double)st.frames / (double)a->buffers;
		double wall = (double)(a->last_wall - a->first_wall) / 1e9;
		st.fps = good / st.span_s;
		if (!a->seq_resets)
			st.fps_sequence = (double)(a->buffers - 1 + a->lost) / st.span_s;
		if (wall > 0)
			st.fps_wall = good / wall;
		if (st.frames > 1)
			st.mb_s = (double)(a->bytes - a->bytes_first) / st.span_s / 1e6;
	}
	st.bytes = a->bytes;
	st.bytes_min = st.frames ? (double)a->bytes_min : NAN;
	st.bytes_max = st.frames ? (double)a->bytes_max : NAN;
	st.bytes_mean = st.frames ? (double)a->bytes / (double)st.frames : NAN;
	st.ival_min_us = st.ival_p50_us = st.ival_p99_us = st.ival_max_us = NAN;
	st.ival_mean_us = st.jitter_us = st.hist_unit_us = NAN;
	if (a->nival_total) {
		st.ival_min_us = (double)a->ival_min / 1e3;
		st.ival_max_us = (double)a->ival_max / 1e3;
		st.ival_mean_us = a->ival_mean / 1e3;
		st.jitter_us =
		    a->nival_total > 1 ? sqrt(a->ival_m2 / (double)(a->nival_total - 1)) / 1e3 : 0;
	}
	fps_samples(a, &st);
	if (a->nival)
		sorted = malloc(a->nival * sizeof(*sorted));
	if (sorted) {
		memcpy(sorted, a->ival_ns, a->nival * sizeof(*sorted));
		qsort(sorted, a->nival, sizeof(*sorted), cmp_u64);
		st.ival_p50_us = rank(sorted, a->nival, 0.5) / 1e3;
		st.ival_p99_us = rank(sorted, a->nival, 0.99) / 1e3;
		unit_ns = nominal_fps > 0 ? 1e9 / nominal_fps : rank(sorted, a->nival, 0.5);
		st.hist_unit_us = unit_ns / 1e3;
		for (i = 0; i < a->nival && unit_ns > 0; i++) {
			double x = (double)sorted[i] / unit_ns;
			for (b = 0; b < VIDEO_HIST_BINS - 1 && x >= video_hist_edges[b]; b++)
				;
			st.hist[b]++;
		}
		free(sorted);
	}
	*ret = st;
}

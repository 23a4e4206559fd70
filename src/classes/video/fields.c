// SPDX-License-Identifier: MIT
/* The schema of video results: one table per struct drives text, JSON and CSV. */
#include "classes/video/fields.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes/video/fields.fields.h"

bool video_misses_rate(const struct video_pass *p)
{
	double nominal = video_mode_fps(&p->set);

	if (p->st.dropped)
		return true;
	return nominal > 0 && !(p->st.fps >= 0.99 * nominal);
}

static char *mode_name(const struct video_mode *m)
{
	char buf[64];

	video_mode_str(m, buf, sizeof(buf));
	return strdup(buf);
}

static void *grow(void *v, size_t n, size_t size)
{
	return realloc(v, (n + 1) * size);
}

int video_report_add_pass(struct video_report *r, const struct video_info *info,
			  const struct video_pass *p)
{
	struct video_row *rows = grow(r->rows, r->nrows, sizeof(*rows)), *w;
	char cc[5];
	size_t b;

	if (!rows)
		return -ENOMEM;
	r->rows = rows;
	w = &rows[r->nrows++];
	memset(w, 0, sizeof(*w));
	video_fourcc_str(p->set.fourcc, cc);
	w->device = strdup(info->path);
	w->driver = strdup(info->driver);
	w->card = strdup(info->card);
	w->bus_info = strdup(info->bus_info);
	w->mode = mode_name(&p->asked);
	w->mode_set = mode_name(&p->set);
	w->fourcc = strdup(cc);
	w->io = strdup(video_io_name(p->io));
	if (!w->device || !w->driver || !w->card || !w->bus_info || !w->mode || !w->mode_set ||
	    !w->fourcc || !w->io)
		return -ENOMEM;
	w->width = p->set.width;
	w->height = p->set.height;
	w->fps_num = p->set.fps_num;
	w->fps_den = p->set.fps_den;
	w->buffers = p->buffers;
	w->nominal_fps = video_mode_fps(&p->set) > 0 ? video_mode_fps(&p->set) : NAN;
	w->fps = p->st.fps;
	w->fps_wall = p->st.fps_wall;
	w->fps_sequence = p->st.fps_sequence;
	w->fps_of_nominal_pct = 100.0 * p->st.fps / w->nominal_fps;
	w->buffers_dq = p->st.buffers;
	w->frames = p->st.frames;
	w->lost = p->st.lost;
	w->errors = p->st.errors;
	w->dropped = p->st.dropped;
	w->drop_pct = p->st.drop_pct;
	w->span_s = p->st.span_s;
	w->wall_s = p->wall_s;
	w->ival_min_us = p->st.ival_min_us;
	w->ival_p50_us = p->st.ival_p50_us;
	w->ival_p99_us = p->st.ival_p99_us;
	w->ival_max_us = p->st.ival_max_us;
	w->ival_mean_us = p->st.ival_mean_us;
	w->jitter_us = p->st.jitter_us;
	w->bytes_min = p->st.bytes_min;
	w->bytes_mean = p->st.bytes_mean;
	w->bytes_max = p->st.bytes_max;
	w->mb_s = p->st.mb_s;
	w->first_frame_ms = p->first_frame_ms;
	w->self_cpu_pct = p->self_cpu_pct;
	w->sys_cpu_pct = p->sys_cpu_pct;
	w->cpu_us_per_frame = p->cpu_us_per_frame;
	w->sys = p->sys;
	w->misses = video_misses_rate(p);
	w->timeout = p->timeout;
	w->interrupted = p->interrupted;
	w->monitored = p->monitored;
	w->wire_mb_s = p->monitored ? p->wire.wire_mb_s : NAN;
	w->urb_size = p->monitored && p->wire.urb_size ? p->wire.urb_size : U64_UNKNOWN;
	w->usb_errors = p->monitored ? p->wire.errors_total : U64_UNKNOWN;
	w->iso_packets = p->monitored ? p->wire.iso_packets : U64_UNKNOWN;
	w->iso_packet_errors = p->monitored ? p->wire.iso_packet_errors : U64_UNKNOWN;
	w->wire_dropped = p->monitored ? p->wire.dropped : U64_UNKNOWN;

	for (b = 0; b < VIDEO_HIST_BINS; b++) {
		struct video_hist_row *h = grow(r->hist, r->nhist, sizeof(*h)), *x;
		double lo = b ? video_hist_edges[b - 1] : 0;
		double hi = b < VIDEO_HIST_BINS - 1 ? video_hist_edges[b] : NAN;
		char bin[32];

		if (!h)
			return -ENOMEM;
		r->hist = h;
		x = &h[r->nhist++];
		memset(x, 0, sizeof(*x));
		if (isnan(hi))
			snprintf(bin, sizeof(bin), ">=%gx", lo);
		else
			snprintf(bin, sizeof(bin), "%g-%gx", lo, hi);
		x->device = strdup(info->path);
		x->mode = strdup(w->mode_set);
		x->bin = strdup(bin);
		if (!x->device || !x->mode || !x->bin)
			return -ENOMEM;
		x->lo_us = lo * p->st.hist_unit_us;
		x->hi_us = hi * p->st.hist_unit_us;
		x->count = p->st.hist[b];
	}
	return 0;
}

int video_report_add_modes(struct video_report *r, const struct video_info *info)
{
	size_t i;

	for (i = 0; i < info->nmodes; i++) {
		const struct video_mode *m = &info->modes[i];
		struct video_mode_row *v = grow(r->modes, r->nmodes, sizeof(*v)), *w;
		char cc[5];

		if (!v)
			return -ENOMEM;
		r->modes = v;
		w = &v[r->nmodes++];
		memset(w, 0, sizeof(*w));
		video_fourcc_str(m->fourcc, cc);
		w->device = strdup(info->path);
		w->fourcc = strdup(cc);
		if (!w->device || !w->fourcc)
			return -ENOMEM;
		w->width = m->width;
		w->height = m->height;
		w->fps_num = m->fps_num;
		w->fps_den = m->fps_den;
		w->fps = video_mode_fps(m) > 0 ? video_mode_fps(m) : NAN;
		w->stepwise = m->stepwise;
	}
	if (info->modes_dropped)
		return video_report_note(r, "'%s' offers %zu more modes than the %d kept",
					 info->path, info->modes_dropped, VIDEO_MAX_MODES);
	return 0;
}

int video_report_note(struct video_report *r, const char *fmt, ...)
{
	char **w = grow(r->warnings, r->nwarnings, sizeof(*w));
	va_list ap;
	int n;

	if (!w)
		return -ENOMEM;
	r->warnings = w;
	va_start(ap, fmt);
	n = vasprintf(&w[r->nwarnings], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	r->nwarnings++;
	return 0;
}

void video_report_describe(const struct video_report *r, bool machine, struct report *out)
{
	if (r->nmodes)
		report_add_table(out, "modes", "modes offered", &mode_desc, r->modes, r->nmodes,
				 sizeof(*r->modes));
	if (machine)
		report_add_table(out, "passes", NULL, &row_desc, r->rows, r->nrows,
				 sizeof(*r->rows));
	else if (r->nrows == 1)
		report_add_object(out, "pass", NULL, &row_desc, r->rows);
	else if (r->nrows > 1)
		report_add_table(out, "passes", NULL, &video_run_row_desc, r->rows, r->nrows,
				 sizeof(*r->rows));
	if (r->nhist && (machine || r->nrows == 1))
		report_add_table(out, "interval_histogram",
				 "frame intervals, in multiples of the nominal interval",
				 &hist_desc, r->hist, r->nhist, sizeof(*r->hist));
	out->warnings = r->warnings;
	out->nwarnings = r->nwarnings;
}

void video_report_release(struct video_report *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		struct video_row *w = &r->rows[i];
		free(w->device), free(w->driver), free(w->card), free(w->bus_info);
		free(w->mode), free(w->mode_set), free(w->fourcc), free(w->io);
	}
	for (i = 0; i < r->nhist; i++)
		free(r->hist[i].device), free(r->hist[i].mode), free(r->hist[i].bin);
	for (i = 0; i < r->nmodes; i++)
		free(r->modes[i].device), free(r->modes[i].fourcc);
	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free_all(r->rows, r->hist, r->modes, r->warnings);
	memset(r, 0, sizeof(*r));
}

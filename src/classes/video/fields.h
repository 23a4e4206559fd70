/* SPDX-License-Identifier: MIT */
#pragma once
/* Video results as report rows: one field table drives text, JSON and CSV. */
#include "classes/video/video.h"
#include "model/field.h"

/* One measured pass, flattened for the renderers (strings owned). */
struct video_row {
	char *device, *driver, *card, *bus_info;
	char *mode, *mode_set, *fourcc, *io;
	uint64_t width, height, fps_num, fps_den, buffers;
	double nominal_fps, fps, fps_wall, fps_sequence, fps_of_nominal_pct;
	uint64_t buffers_dq, frames, lost, errors, dropped;
	double drop_pct, span_s, wall_s;
	double ival_min_us, ival_p50_us, ival_p99_us, ival_max_us, ival_mean_us, jitter_us;
	double bytes_min, bytes_mean, bytes_max, mb_s;
	double first_frame_ms, self_cpu_pct, sys_cpu_pct, cpu_us_per_frame;
	struct pass_sys sys;
	bool misses, timeout, interrupted;
	/* --monitor (usbmon): NaN and unknown when not monitored */
	bool monitored;
	double wire_mb_s;
	uint64_t urb_size, usb_errors, iso_packets, iso_packet_errors, wire_dropped;
};

struct video_hist_row {
	char *device, *mode;
	char *bin;	     /* "0.9-1.1x" of the nominal interval */
	double lo_us, hi_us; /* NaN: open end */
	uint64_t count;
};

/* One enumerated mode (--list-modes). */
struct video_mode_row {
	char *device, *fourcc;
	uint64_t width, height, fps_num, fps_den;
	double fps;
	bool stepwise;
};

struct video_report {
	struct video_row *rows;
	size_t nrows;
	struct video_hist_row *hist;
	size_t nhist;
	struct video_mode_row *modes;
	size_t nmodes;
	char **warnings;
	size_t nwarnings;
};

/* a pass in a line (run's table, --all-modes): struct video_row */
extern const struct record_desc video_run_row_desc;

/* achieved below 99% of the nominal rate, or any drop */
bool video_misses_rate(const struct video_pass *p);
/* add a pass (and its histogram): -ENOMEM */
int video_report_add_pass(struct video_report *r, const struct video_info *info,
			  const struct video_pass *p);
int video_report_add_modes(struct video_report *r, const struct video_info *info);
__attribute__((format(printf, 2, 3))) int video_report_note(struct video_report *r, const char *fmt,
							    ...);
/*
 * The view: JSON/CSV always a "passes" table; text shows one pass as an
 * object with its histogram, several as a short table (all_modes: per mode).
 */
void video_report_describe(const struct video_report *r, bool machine, struct report *out);
void video_report_release(struct video_report *r);

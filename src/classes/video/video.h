/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * V4L2 capture: what a node offers (video_probe), one measured pass of one
 * mode (video_capture), and the frame accounting both rest on (video_acct,
 * pure: fed (sequence, timestamp, flags, bytesused, wall time) per dequeued
 * buffer, unit-tested without a device). Core code: returns 0 or -errno with
 * a one-line why for the command, never prints.
 */
#include "platform/sys/passwatch.h"
#include "platform/usbmon/pass.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VIDEO_MAX_MODES 256 /* modes kept per device; the rest are counted, not kept */
#define VIDEO_MAX_WARNINGS 8
#define VIDEO_MAX_BUFFERS 32
#define VIDEO_MAX_INTERVALS (1u << 20) /* interval samples kept for percentiles */

/* One capture mode. fps = fps_num / fps_den (the V4L2 interval inverted); 0/1 unknown. */
struct video_mode {
	uint32_t fourcc;
	uint32_t width, height;
	uint32_t fps_num, fps_den;
	bool stepwise; /* from a stepwise/continuous size or interval range */
};

struct video_info {
	char path[256];
	char driver[32], card[64], bus_info[64];
	uint32_t device_caps;
	bool mplane;	      /* capture through the multi-planar API only */
	bool usb;	      /* bus_info starts "usb-" (uvcvideo: "usb-0000:00:14.0-1") */
	uint32_t formats[64]; /* every format ENUM_FMT lists (up to 64) */
	size_t nformats;
	struct video_mode modes[VIDEO_MAX_MODES];
	size_t nmodes;
	size_t modes_dropped; /* modes seen past VIDEO_MAX_MODES */
};

/* "YUYV" from V4L2's fourcc; out holds 5 bytes */
void video_fourcc_str(uint32_t fourcc, char out[5]);
/* "YUYV" (1-4 characters, padded with spaces) to the fourcc: -EINVAL */
int video_fourcc_parse(const char *s, uint32_t *ret);
double video_mode_fps(const struct video_mode *m);
/* "YUYV 320x180 @30" (fractional rates with decimals) into out */
void video_mode_str(const struct video_mode *m, char *out, size_t len);

/*
 * QUERYCAP and the enumeration of every mode (ENUM_FMT, ENUM_FRAMESIZES,
 * ENUM_FRAMEINTERVALS; discrete, stepwise and continuous). dev is a path as
 * the user gave it (opened below the sysroot's root). -EINVAL with *ret_why
 * "not a video capture device" for another node; -ENOENT, -EACCES...
 */
int video_probe(const char *dev, struct video_info *ret, char **ret_why);
/*
 * The same, enumerating the modes of fewer formats (thousands of ioctls on
 * a driver with many): which is a fourcc, or one of these (no fourcc is).
 */
#define VIDEO_MODES_ALL 0u
#define VIDEO_MODES_NONE 1u  /* capabilities and formats only */
#define VIDEO_MODES_FIRST 2u /* the first format's */
int video_probe_modes(const char *dev, uint32_t which, struct video_info *ret, char **ret_why);
/* The capture nodes under /dev (video*), USB ones first; each probed with which. */
int video_discover(uint32_t which, struct video_info **ret, size_t *ret_n);
/*
 * Who holds dev open (another process, seen in /proc/PID/fd), as "pid 123 (cheese)";
 * NULL if nobody can be seen.
 */
char *video_holder(const char *dev);

/* ---- frame accounting (pure) ---- */
struct video_sample {
	uint32_t sequence;
	uint64_t ts_ns; /* the driver's buffer timestamp */
	uint32_t flags; /* V4L2_BUF_FLAG_* */
	uint32_t bytesused;
	uint64_t wall_ns; /* CLOCK_MONOTONIC when dequeued */
};

/* the window of a rate sample (video_stats.fps_samples) */
#define VIDEO_SAMPLE_S 0.5

/* bins of the interval histogram, in multiples of the nominal interval */
#define VIDEO_HIST_BINS 7
extern const double video_hist_edges[VIDEO_HIST_BINS - 1]; /* 0.5 0.9 1.1 1.5 2.5 3.5 */

struct video_acct {
	uint64_t buffers, errors, lost, seq_resets, dups;
	uint32_t prev_seq;
	uint64_t first_ts, prev_ts, last_ts, first_wall, last_wall;
	uint64_t bytes, bytes_first, bytes_min, bytes_max;
	uint64_t *ival_ns; /* consecutive timestamp intervals, up to VIDEO_MAX_INTERVALS */
	size_t nival, cap;
	uint64_t nival_total;
	double ival_mean, ival_m2; /* Welford over every interval */
	uint64_t ival_max, ival_min;
	uint64_t backwards; /* timestamps that went back: not counted as intervals */
};

struct video_stats {
	uint64_t buffers; /* dequeued buffers, error-flagged ones included */
	uint64_t frames;  /* buffers without V4L2_BUF_FLAG_ERROR */
	uint64_t errors;  /* buffers flagged V4L2_BUF_FLAG_ERROR */
	uint64_t lost;	  /* frames missing from the sequence numbers */
	uint64_t dropped; /* lost + errors */
	double drop_pct;  /* dropped of (frames + dropped) */
	double span_s;	  /* first to last timestamp */
	double fps;	  /* good frames per second, from the driver's timestamps */
	double fps_wall;  /* the same from the dequeue times */
	/* the driver's frame clock: sequence numbers advanced per second (lost frames included) */
	double fps_sequence;
	double ival_min_us, ival_p50_us, ival_p99_us, ival_max_us, ival_mean_us;
	double jitter_us;			 /* standard deviation of the intervals */
	double bytes_min, bytes_mean, bytes_max; /* bytesused of good frames */
	uint64_t bytes;				 /* payload of good frames */
	double mb_s;				 /* payload rate, MB/s = 10^6 B/s */
	uint64_t hist[VIDEO_HIST_BINS];
	double hist_unit_us; /* the interval the bins are multiples of */
	/*
	 * The rate over consecutive windows of about VIDEO_SAMPLE_S (at least
	 * one interval each), as fio samples bandwidth: how steady the stream
	 * was, the spread compare judges a change against. 0 samples: too few.
	 */
	double fps_sample_mean, fps_sample_stdev, fps_sample_min;
	uint64_t fps_samples;
	uint64_t seq_resets; /* sequence went back (a restart or a wrap past 2^31) */
	uint64_t backwards;  /* timestamps that went back */
	bool intervals_capped;
};

int video_acct_init(struct video_acct *a);
void video_acct_release(struct video_acct *a);
/* -ENOMEM only when the interval store cannot grow (the sample is still counted) */
int video_acct_add(struct video_acct *a, const struct video_sample *s);
/*
 * The figures; nominal_fps (0: unknown) sets the histogram's unit, else
 * the median interval does. Unknown figures are NaN.
 */
void video_acct_finish(const struct video_acct *a, double nominal_fps, struct video_stats *ret);

/* ---- one capture pass ---- */
enum video_io { VIDEO_IO_MMAP, VIDEO_IO_USERPTR, VIDEO_IO_DMABUF };
const char *video_io_name(enum video_io io);
int video_io_parse(const char *s, enum video_io *ret);

struct video_config {
	const char *dev;
	struct video_mode mode; /* fourcc/size/fps asked; fps 0/1: leave the rate alone */
	enum video_io io;
	unsigned buffers;	  /* default 4 */
	double time_s;		  /* measured time after the warm-up (default 5) */
	uint64_t frames;	  /* or this many frames (0: by time) */
	unsigned warmup;	  /* buffers dequeued before counting */
	double timeout_s;	  /* without a buffer: the pass ends, partial (default 2) */
	const char *save;	  /* raw frames appended here; created, kept only on success */
	const volatile int *stop; /* non-zero: stop, partial */
	/* watch the camera's USB device on usbmon over the pass (video_capture_watched) */
	bool monitor;
	/* called once, at the first buffer dequeued, while the stream runs (may be NULL) */
	void (*on_streaming)(void *ctx);
	void *ctx;
};

struct video_pass {
	struct video_mode asked, set; /* what the driver set after S_FMT/S_PARM */
	enum video_io io;
	unsigned buffers; /* granted by REQBUFS */
	uint32_t sizeimage;
	struct video_stats st;
	double first_frame_ms;	   /* STREAMON to the first buffer */
	double wall_s;		   /* the counted part */
	double self_cpu_pct;	   /* usbperf, of one CPU */
	double sys_cpu_pct;	   /* the whole machine's busy time, of one CPU */
	double cpu_us_per_frame;   /* usbperf's CPU time per good frame */
	struct pass_sys sys; /* the CPU clock and interrupt placement (platform/sys/passwatch.h) */
	bool timeout, interrupted; /* partial results */
	/* --monitor: the camera's USB device on usbmon from STREAMON to STREAMOFF */
	bool monitored;
	struct usbmon_pass_figures wire;
	char *warnings[VIDEO_MAX_WARNINGS];
	size_t nwarnings;
};

/*
 * S_FMT + S_PARM, buffers, STREAMON, the dequeue loop, and always STREAMOFF,
 * REQBUFS(0) and unmapping. A timeout or the stop flag ends it with 0 and
 * partial results flagged; bad input (a mode refused, a busy device, an
 * io method the driver lacks) is -EINVAL/-EBUSY/-ENOTSUP with *ret_why.
 */
int video_capture(const struct video_config *c, struct video_pass *ret, char **ret_why);
/*
 * video_capture with c->monitor honoured: the pass watched on usbmon when the
 * node is on USB (ret->monitored, ret->wire), else a warning in the pass says
 * why not and it runs unwatched.
 */
int video_capture_watched(const struct video_config *c, struct video_pass *ret, char **ret_why);
void video_pass_release(struct video_pass *p);

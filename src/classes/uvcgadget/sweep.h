/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The guide's table, measured: for each frame size x format x frame rate,
 * usbperf's own bulk camera (gadget up uvc-bulk, one gadget per frame size
 * so its descriptors fit gadgetfs) streams to the host side of the same
 * machine (dummy_hcd in the lab, a board's UDC looped back to its host
 * port) and usbperf video captures it through uvcvideo. Each mode's
 * achieved rate, drops on both sides and CPU on both sides go next to the
 * frame rate the bulk endpoint carries at the link's speed (uvc_bulk.h);
 * a mode that cannot fit gets a finding naming the setting to change.
 */
#include "model/findings.h"
#include "classes/gadget/build.h"
#include "classes/uvcgadget/uvcg.h"

#define UVCG_SWEEP_ROWS (UVCG_MAX_FORMATS * UVCG_MAX_FRAMES * UVCG_MAX_FPS)
#define UVCG_SWEEP_GADGET "uvcsweep" /* the gadget: usbperf-uvcsweep */
#define UVCG_SWEEP_NOTES 16

struct uvcg_sweep_config {
	struct uvcg_params p;  /* the sizes, formats, rates and payload size swept */
	double time_s;	       /* counted time per mode */
	unsigned warmup;       /* frames before counting */
	bool monitor;	       /* each mode watched on usbmon */
	const struct gadget_fs *fs;
	const volatile int *stop;
	/* called before each mode, for a progress line (may be NULL) */
	void (*progress)(void *ctx, const char *mode);
	void *ctx;
};

struct uvcg_sweep_row {
	const char *fourcc; /* "YUYV", "MJPG" */
	uint64_t width, height;
	double nominal_fps;
	const char *speed; /* the link's, as sysfs says: "high" */
	/* the host: usbperf video on the uvcvideo node */
	double fps, fps_wall;
	uint64_t frames, lost, errors;
	double drop_pct, mb_s, frame_bytes, host_cpu_pct, host_cpu_us_per_frame;
	double wire_mb_s; /* usbmon, when monitored */
	bool timeout;
	/* the camera: the stream this mode committed */
	uint64_t stream, sent, late, aborted;
	double camera_fps, camera_cpu_pct, camera_cpu_us_per_frame;
	/* the bulk endpoint's ceiling for these frames (MJPG: their measured size) */
	uint64_t max_payload;
	double ceiling_fps, ceiling_mb_s, need_mb_s;
	bool fits;	 /* the nominal rate is within the ceiling */
	bool meets;	 /* achieved within 2 %, nothing dropped on either side */
	bool above;	 /* achieved above the ceiling: not a link (dummy_hcd) */
	const char *limit; /* "mode's rate", "bus", "camera CPU", "host CPU", "emulation", ... */
	bool measured;
};

struct uvcg_sweep {
	struct uvcg_sweep_row rows[UVCG_SWEEP_ROWS];
	size_t n;
	struct finding_list findings;
	char *notes[UVCG_SWEEP_NOTES];
	size_t nnotes;
	char *speed; /* the link's speed the camera enumerated at */
	uint64_t gadgets; /* gadgets brought up and down */
};

/*
 * Run the sweep. Nothing is left behind: each gadget is taken down before
 * the next (and on failure or *stop). -ENODEV (no free UDC, no gadgetfs),
 * -ETIMEDOUT (the host never showed the camera), others, with why.
 */
int uvcg_sweep_run(const struct uvcg_sweep_config *c, struct uvcg_sweep *ret, char **ret_why);
void uvcg_sweep_release(struct uvcg_sweep *s);
/* each row's ceiling, verdict and the findings (sweep_judge.c) */
void uvcg_sweep_judge(struct uvcg_sweep *s, const struct uvcg_params *p);
/* the table, the findings and the notes as a report */
struct report;
void uvcg_sweep_describe(const struct uvcg_sweep *s, struct report *out);
/* "YUYV 640x480 @30": a row's mode, as video names its passes */
void uvcg_sweep_mode(const struct uvcg_sweep_row *r, char *out, size_t len);
extern const struct record_desc uvcg_sweep_row_desc;

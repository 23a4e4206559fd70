/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A USB camera's UVC facts as report rows, shared by `usbperf limits uvc
 * --device` and `usbperf video`: read the camera's descriptors and state
 * from sysfs (through the sysroot), then describe them with one field table
 * per row type. Nothing here prints.
 */
#include "model/findings.h"
#include "platform/usb/uvc.h"
#include "classes/video/video.h"
#include "model/field.h"

#include <stdbool.h>
#include <stdint.h>

struct uvc_camera {
	char *device; /* "1-1" */
	char *dir;    /* "/sys/bus/usb/devices/1-1" */
	char vid_pid[10];
	enum usb_speed speed, capable;
	struct uvc_info *info;
	struct uvc_sysfs sysfs;
	bool sysfs_read;
};

/*
 * Open the camera at USB device name ("1-1") or V4L2 node ("/dev/video0",
 * resolved to its USB device). -ENODEV: no such USB device (or the node is
 * not on USB); -ENOENT: no video streaming interface; -EINVAL: descriptors
 * unreadable. *ret_why says which, for a one-line message (free it).
 */
int uvc_camera_open(const char *device, struct uvc_camera *ret, char **ret_why);
/* read the current alternate settings, uvcvideo's parameters and stats now */
void uvc_camera_read_state(struct uvc_camera *c);
void uvc_camera_release(struct uvc_camera *c);

struct uvc_cam_row {
	const char *device, *vid_pid, *speed, *capable, *uvc_version, *flags;
	uint64_t streams, formats, frames;
};

struct uvc_stream_row {
	const char *device, *transfer;
	uint64_t ifnum, alts;
	int64_t current_alt;
	double ceiling_mb_s, bus_mb_s;
};

struct uvc_alt_row {
	const char *device, *transfer, *ep, *max_packet_raw, *derivation;
	uint64_t ifnum, alt, max_packet, mult, interval;
	bool current;
	double burst, period_us, bytes_per_interval, bus_mb_s, payload_mb_s;
};

struct uvc_mode_row {
	const char *device, *fourcc, *kind, *basis, *current_carries;
	uint64_t ifnum, width, height;
	double fps, frame_bytes, need_mb_s, smallest_need_mb_s, largest_fps;
	int64_t smallest_alt, largest_alt;
};

/* the alternate setting the driver chose while a mode streamed, next to the mode's need */
struct uvc_streaming_row {
	const char *device, *mode, *transfer, *derivation, *basis, *carries;
	uint64_t ifnum;
	int64_t alt;
	double ceiling_mb_s, bus_mb_s, need_mb_s, smallest_need_mb_s;
	int64_t smallest_alt;
};

struct uvc_kv_row {
	const char *device, *name, *value;
};

struct uvc_view {
	struct uvc_cam_row *cams;
	struct uvc_stream_row *streams;
	struct uvc_alt_row *alts;
	struct uvc_mode_row *modes;
	struct uvc_streaming_row *streaming;
	struct uvc_kv_row *params, *stats;
	size_t ncams, nstreams, nalts, nmodes, nstreaming, nparams, nstats;
	bool params_taken; /* the module's parameters taken (from the first camera read) */
	struct finding_list findings;
	char **pool; /* strings the rows point to */
	size_t npool;
};

#define UVC_VIEW_INIT                                                                              \
	{                                                                                          \
		.findings = FINDING_LIST_INIT                                                      \
	}

/* the camera, its streams, alternate settings, uvcvideo parameters and stats */
void uvc_view_add_camera(struct uvc_view *v, const struct uvc_camera *c);
/* every format and frame size at its fastest interval: the bandwidth it needs */
void uvc_view_add_modes(struct uvc_view *v, const struct uvc_camera *c);
/* a capture pass's figures as uvc_findings() judges them */
struct uvc_measured uvc_view_measured(const struct video_pass *p);
/*
 * A capture pass p on the camera: the alternate setting read while it
 * streamed (uvc_camera_read_state from video_config.on_streaming), its
 * ceiling, the mode's need, and uvc_findings() on the pass.
 */
void uvc_view_add_streaming(struct uvc_view *v, const struct uvc_camera *c,
			    const struct video_pass *p);
/* its sections into r (keys "uvc", "uvc_streams", ...); v must outlive r */
void uvc_view_describe(const struct uvc_view *v, struct report *r);
void uvc_view_release(struct uvc_view *v);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * USB Video Class facts from a camera's raw descriptors (sysfs
 * <dev>/descriptors) and sysfs, the bandwidth a mode needs next to what each
 * alternate setting carries, and the findings about both.
 *
 * uvc.c decodes (over descriptors.c's walk), uvc_calc.c does the arithmetic
 * (over limits_calc.c's `usb_uvc_calc`, the `usbperf limits uvc` figures),
 * uvc_sysfs.c reads the driver's state, uvc_findings.c judges. Nothing here
 * prints. Rates are payload bytes per second (B/s).
 *
 * The bytes come from the device: counts are capped, every read is bounded,
 * and what could not be decoded is marked in flags.
 */
#include "model/findings.h"
#include "platform/usb/speed.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UVC_MAX_STREAMS 8    /* VideoStreaming interfaces kept */
#define UVC_MAX_ALTS 32	     /* alternate settings per VS interface */
#define UVC_MAX_FORMATS 64   /* all streams together */
#define UVC_MAX_FRAMES 512   /* all formats together */
#define UVC_MAX_INTERVALS 16 /* discrete intervals kept per frame */

enum uvc_flag {
	UVC_F_DESC = 1u << 0,	    /* the USB descriptor walk flagged something (see desc_flags) */
	UVC_F_SHORT = 1u << 1,	    /* a class-specific descriptor too short for its fields */
	UVC_F_LIMIT = 1u << 2,	    /* more than a UVC_MAX_* cap: the rest dropped */
	UVC_F_ORPHAN = 1u << 3,	    /* a frame without a format before it */
	UVC_F_BAD_EP = 1u << 4,	    /* an endpoint the limits arithmetic refuses (see alt.why) */
	UVC_F_NUM_FRAMES = 1u << 5, /* bNumFrameDescriptors != frames found */
};

enum uvc_format_kind {
	UVC_FMT_UNCOMPRESSED, /* VS_FORMAT_UNCOMPRESSED: GUID + bBitsPerPixel */
	UVC_FMT_MJPEG,	      /* VS_FORMAT_MJPEG */
	UVC_FMT_FRAME_BASED,  /* VS_FORMAT_FRAME_BASED: GUID (H264, ...) */
};

struct uvc_frame {
	unsigned format; /* index into uvc_info.formats */
	uint8_t index;	 /* bFrameIndex */
	uint16_t width, height;
	uint32_t max_frame_bytes;  /* dwMaxVideoFrameBufferSize (0 for frame-based: none) */
	uint32_t max_bitrate;	   /* dwMaxBitRate, bit/s */
	uint32_t default_interval; /* 100 ns units */
	bool continuous;	   /* bFrameIntervalType 0: min, max, step in intervals[0..2] */
	uint8_t n_declared;	   /* bFrameIntervalType as sent */
	uint32_t intervals[UVC_MAX_INTERVALS]; /* 100 ns units */
	unsigned n_intervals;
};

struct uvc_format {
	unsigned stream; /* index into uvc_info.streams */
	uint8_t index;	 /* bFormatIndex */
	enum uvc_format_kind kind;
	uint8_t guid[16];
	char fourcc[5];		/* from the GUID's first 4 bytes ("YUY2", "NV12", "H264"), "MJPG" */
	uint8_t bits_per_pixel; /* 0 for MJPEG */
	uint8_t n_declared;	/* bNumFrameDescriptors */
	unsigned first_frame, n_frames; /* into uvc_info.frames */
};

enum uvc_xfer { UVC_XFER_NONE, UVC_XFER_ISOC, UVC_XFER_BULK };

/* One alternate setting of a VS interface and its video IN endpoint. */
struct uvc_alt {
	uint8_t alt; /* bAlternateSetting */
	enum uvc_xfer xfer;
	uint8_t ep_address;
	uint16_t max_packet_raw; /* wMaxPacketSize as sent */
	uint16_t max_packet;	 /* bits 10:0 */
	uint8_t mult;		 /* high speed: 1 + bits 12:11 */
	uint8_t interval;	 /* bInterval */
	bool has_ss_comp;
	uint8_t max_burst;		/* bMaxBurst */
	uint8_t ss_mult;		/* 1 + Mult */
	uint16_t ss_bytes_per_interval; /* wBytesPerInterval */
	/* isochronous, at the device's speed, from usb_uvc_calc (NaN: not isochronous, or refused)
	 */
	double period_us;	   /* service interval */
	double bytes_per_interval; /* bus bytes per service interval */
	double bus_Bps;		   /* bytes per second */
	double payload_Bps;	   /* less one payload header per interval */
	char derivation[96];	   /* "3 x 1024 B per 125 us microframe" */
	char why[96];		   /* why usb_uvc_calc refused it, "" */
};

struct uvc_stream {
	uint8_t ifnum;			   /* bInterfaceNumber */
	bool bulk;			   /* a bulk video endpoint in its only alt setting */
	double bulk_Bps;		   /* bulk: the bulk payload ceiling at the speed */
	uint8_t header_ep;		   /* VS_INPUT_HEADER bEndpointAddress, 0 none */
	uint8_t n_formats_declared;	   /* VS_INPUT_HEADER bNumFormats */
	struct uvc_alt alts[UVC_MAX_ALTS]; /* in descriptor order */
	unsigned n_alts;
};

struct uvc_info {
	enum usb_speed speed;
	uint16_t bcd_usb;
	uint16_t vendor, product;
	uint8_t config;	  /* bConfigurationValue decoded */
	bool has_control; /* a VideoControl interface */
	uint8_t control_ifnum;
	uint16_t bcd_uvc; /* VC_HEADER bcdUVC, 0 unknown */
	struct uvc_stream streams[UVC_MAX_STREAMS];
	unsigned n_streams;
	struct uvc_format formats[UVC_MAX_FORMATS];
	unsigned n_formats;
	struct uvc_frame frames[UVC_MAX_FRAMES];
	unsigned n_frames;
	unsigned flags;	     /* enum uvc_flag */
	unsigned desc_flags; /* enum usb_desc_flag of the walk */
};

/*
 * Decode the Video Control and Video Streaming interfaces (class 0x0e,
 * subclass 1 and 2) of the first configuration that has any, at the speed
 * the device is connected at (which sets the units of bInterval, mult and
 * burst and the ceilings). ret can be large: allocate it, do not put it on
 * a small stack. -EINVAL: not a device descriptor; -ENOENT: no video
 * streaming interface; -ENOMEM. ret is untouched on failure.
 */
int uvc_parse(const uint8_t *buf, size_t len, enum usb_speed speed, struct uvc_info *ret);

/* name of one flag bit (UVC_F_SHORT -> "short"); "unknown" if not one flag */
const char *uvc_flag_name(unsigned flag);
/* "isochronous", "bulk", "none" */
const char *uvc_xfer_name(enum uvc_xfer x);
/* "uncompressed", "mjpeg", "frame-based" */
const char *uvc_format_kind_name(enum uvc_format_kind k);
/* alternate setting alt of s (bAlternateSetting, as sysfs gives it), or NULL */
const struct uvc_alt *uvc_find_alt(const struct uvc_stream *s, int alt);
/* the stream with that bInterfaceNumber, or NULL */
const struct uvc_stream *uvc_stream_by_ifnum(const struct uvc_info *info, unsigned ifnum);
/* the frame of format fourcc ("YUY2", "MJPG", case-sensitive) at w x h, or NULL */
const struct uvc_frame *uvc_find_frame(const struct uvc_info *info, const char *fourcc, unsigned w,
				       unsigned h);

/* ---- bandwidth a mode needs (uvc_calc.c) ---- */

/* How a frame's size was taken. */
enum uvc_frame_basis {
	UVC_BASIS_PIXELS,      /* uncompressed: width x height x bBitsPerPixel / 8 */
	UVC_BASIS_BUFFER,      /* dwMaxVideoFrameBufferSize: the largest frame the device sends */
	UVC_BASIS_MJPEG_RATIO, /* MJPEG estimate: YUYV size / USB_UVC_MJPEG_RATIO */
	UVC_BASIS_BITRATE,     /* frame-based: dwMaxBitRate / 8 / fps */
};

struct uvc_need {
	double frame_bytes;
	enum uvc_frame_basis basis;
	double fps;	    /* 1e7 / interval */
	double payload_Bps; /* frame_bytes x fps */
	/*
	 * The smallest alternate setting (fewest bytes per second) that
	 * carries the mode, -1 none; for it, the bytes per second with one
	 * payload header (USB_UVC_HEADER_BYTES) per service interval used.
	 * Bulk streams: its only alt setting when the bulk ceiling holds the
	 * payload plus one header per frame.
	 */
	int smallest_alt;
	double smallest_need_Bps;
	int largest_alt;    /* the alt setting that carries the most, -1 none */
	double largest_fps; /* the frame rate the largest one sustains for this frame size */
};

/*
 * The bandwidth of frame fr at interval_100ns (0: its default interval).
 * Uncompressed frames: their pixels. MJPEG: dwMaxVideoFrameBufferSize when
 * mjpeg_use_buffer is set and the descriptor gives one, else the
 * USB_UVC_MJPEG_RATIO estimate. Frame-based (H.264): dwMaxBitRate over the
 * frame rate. -EINVAL: a frame not in info, or no interval.
 */
int uvc_mode_need(const struct uvc_info *info, const struct uvc_frame *fr, uint32_t interval_100ns,
		  bool mjpeg_use_buffer, struct uvc_need *ret);
/*
 * Does alt setting a (isochronous, with its figures) carry frames of
 * frame_bytes at fps? The frame rate it sustains goes to *ret_fps (may be
 * NULL), the bytes per second with headers to *ret_need_Bps (may be NULL).
 */
bool uvc_alt_carries(const struct uvc_alt *a, double frame_bytes, double fps, double *ret_fps,
		     double *ret_need_Bps);
const char *
uvc_frame_basis_name(enum uvc_frame_basis b); /* "pixels", "buffer", "mjpeg-ratio", "bitrate" */

/* ---- sysfs and debugfs (uvc_sysfs.c) ---- */

#define UVC_MAX_PARAMS 16
#define UVC_MAX_STATS 32

struct uvc_kv {
	char name[32];
	char value[64]; /* sanitized */
};

struct uvc_sysfs {
	int cur_alt[UVC_MAX_STREAMS]; /* per info.streams: bAlternateSetting now, -1 unknown */
	struct uvc_kv params[UVC_MAX_PARAMS]; /* /sys/module/uvcvideo/parameters/<name> */
	unsigned n_params;
	bool has_stats;
	char stats_dir[64];		    /* the debugfs entry read: "<bus>-<dev>-<intf>" */
	struct uvc_kv stats[UVC_MAX_STATS]; /* counters from its stats file */
	unsigned n_stats;
};

/*
 * Read what sysfs and debugfs say about the camera at USB device directory
 * dev ("/sys/bus/usb/devices/1-2", through the sysroot): each stream's
 * current alternate setting, uvcvideo's module parameters, and the debugfs
 * stats of its streams where debugfs is mounted and readable. Absent files
 * are not errors. 0, or -ENOMEM.
 */
int uvc_read_sysfs(const char *dev, const struct uvc_info *info, struct uvc_sysfs *ret);
/*
 * Parse the text of a uvcvideo debugfs stats file: "name: N" lines and
 * "name: N word, N word" lines become name, name.word entries (kernel
 * versions differ: unknown lines are skipped). Returns entries kept.
 */
unsigned uvc_parse_stats(const char *text, struct uvc_kv *out, unsigned max);
/* the value of name, or NULL */
const char *uvc_kv_get(const struct uvc_kv *kv, unsigned n, const char *name);

/* ---- findings (uvc_findings.c) ---- */

/* One measured capture pass; the video engine fills it. NaN or 0: not measured. */
struct uvc_measured {
	double nominal_fps;
	double achieved_fps;
	double drops_pct;	 /* dropped frames, % of frames expected */
	double frame_bytes_mean; /* bytesused */
	double frame_bytes_max;
	double self_cpu_pct; /* usbperf's CPU, % of one core */
};

struct uvc_facts {
	const char *subject; /* the USB device ("1-2") or the node */
	const struct uvc_info *info;
	unsigned stream;	/* index into info->streams */
	int cur_alt;		/* bAlternateSetting while streaming, -1 unknown */
	enum usb_speed capable; /* what the device can do (BOS or bcdUSB); UNKNOWN: not known */
	const struct uvc_frame *frame; /* the mode captured, or NULL */
	uint32_t interval_100ns;       /* its interval; 0: the frame's default */
	/* the link's speed is judged elsewhere (run: usb.full_speed_data_device): not again */
	bool link_judged;
};

/* Thresholds, shared with tests. */
#define UVC_FPS_SHORT_PCT 2.0  /* achieved below nominal by more than this */
#define UVC_CPU_BOUND_PCT 90.0 /* self CPU near one whole core */

/*
 * Append findings about f (and m, which may be NULL). f->info NULL: a
 * capture device without UVC descriptors (not USB): what m shows only.
 */
void uvc_findings(const struct uvc_facts *f, const struct uvc_measured *m,
		  struct finding_list *out);

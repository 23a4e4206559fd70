/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbperf as a USB Video Class camera: the device side of UVC 1.1.
 *
 * The pure parts, unit-tested without a bus: the tunables (params.c), the
 * descriptors of a bulk camera (desc.c), the class requests on ep0 with the
 * probe/commit negotiation and the controls declared (ctrl.c), the payload
 * headers and the split of a frame into payloads (payload.c), and the
 * pacing and accounting of frames (pace.c) that the kernel's f_uvc frame
 * source (video --gadget /dev/videoN --send) shares. frames.c makes the
 * frames (YUYV generated, MJPG encoded by libjpeg-turbo when built with it).
 * gadgetfs.c serves all of it through the kernel's gadgetfs.
 *
 * Why gadgetfs and not FunctionFS: f_fs.c (ffs_do_single_desc, Linux 6.1
 * and mainline alike) refuses every class-specific descriptor but HID's,
 * CCID's and DFU's, so a FunctionFS function cannot declare UVC's
 * CS_INTERFACE descriptors; gadgetfs takes the whole configuration
 * descriptor as written. Its limit: GET_DESCRIPTOR answers carry at most
 * 256 bytes (RBUF_SIZE in legacy/inode.c), so the configuration is checked
 * against that here.
 *
 * Functions return 0 or a negative errno; refusals fill *ret_why (one line).
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UVCG_MAX_FORMATS 2
#define UVCG_MAX_FRAMES 4 /* frame sizes, each offered in every format */
#define UVCG_MAX_FPS 4	  /* frame rates, each offered for every frame */
#define UVCG_MAX_SIDE 4096
#define UVCG_HEADER_BYTES 12		/* 2 B + PTS + SCR, every payload */
#define UVCG_CLOCK_HZ 48000000u		/* dwClockFrequency: the PTS and SCR clock */
#define UVCG_CONFIG_MAX 256		/* gadgetfs: RBUF_SIZE bytes per control answer */
#define UVCG_PROBE_SIZE 34		/* VS_PROBE/COMMIT at bcdUVC 1.1 */
#define UVCG_MAXPAYLOAD_DEF (32u << 10) /* dwMaxPayloadTransferSize offered */
#define UVCG_MAXPAYLOAD_MIN 512
#define UVCG_MAXPAYLOAD_MAX (16u << 20)
#define UVCG_EP_ADDRESS 0x81 /* the bulk IN endpoint */
#define UVCG_JPEG_QUALITY 75

enum uvcg_format { UVCG_YUYV, UVCG_MJPG };

struct uvcg_size {
	uint16_t width, height;
};

struct uvcg_params {
	enum uvcg_format formats[UVCG_MAX_FORMATS];
	unsigned nformats;
	struct uvcg_size frames[UVCG_MAX_FRAMES];
	unsigned nframes;
	uint32_t fps[UVCG_MAX_FPS]; /* the first is each frame's default */
	unsigned nfps;
	uint32_t max_payload; /* dwMaxPayloadTransferSize offered, header included */
	uint64_t stream_frames; /* frames per stream, then idle until the next commit; 0: no end */
	uint64_t stall_ms; /* a write the host leaves this long ends a stream; 0: the default */
};

/* "yuyv", "mjpg"; the fourcc V4L2 shows: "YUYV", "MJPG" */
const char *uvcg_format_name(enum uvcg_format f);
const char *uvcg_format_fourcc(enum uvcg_format f);
/* the defaults: YUYV 640x360 at 30 fps, UVCG_MAXPAYLOAD_DEF */
void uvcg_params_default(struct uvcg_params *p);
/*
 * One tunable, as "usbperf gadget up uvc-bulk:KEY=VALUE,..." gives it:
 * frames=WxH[+WxH...], fps=N[+N...], formats=yuyv[+mjpg], maxpayload=SIZE,
 * stream_frames=N, stall_ms=N. -EINVAL with why; -ENOENT for a key that is not one.
 */
int uvcg_params_set(struct uvcg_params *p, const char *key, const char *value, char **ret_why);
/* "KEY=VALUE,..." as a whole, the defaults for the rest (not checked against gadgetfs) */
int uvcg_params_read(const char *kv, struct uvcg_params *ret, char **ret_why);
/* the same, then uvcg_params_check */
int uvcg_params_parse(const char *kv, struct uvcg_params *ret, char **ret_why);
/* the descriptors fit gadgetfs's 256 B: -E2BIG naming the size and what to cut */
int uvcg_params_check(const struct uvcg_params *p, char **ret_why);
/* "frames=640x360,fps=30,formats=yuyv,maxpayload=32768": what uvcg_params_parse reads back */
void uvcg_params_str(const struct uvcg_params *p, struct strbuf *out);
/* bytes of one uncompressed frame, and the largest any format's frame may take */
uint64_t uvcg_frame_bytes_yuyv(const struct uvcg_size *s);
/* a frame's dwFrameInterval for fps, in 100 ns units */
uint32_t uvcg_interval(uint32_t fps);

/* ---- descriptors (desc.c) ---- */

struct uvcg_ident {
	uint16_t vid, pid;
	const char *manufacturer, *product, *serial;
	unsigned max_power_ma;
};

struct uvcg_desc {
	uint8_t fs[UVCG_CONFIG_MAX], hs[UVCG_CONFIG_MAX]; /* configurations, full and high speed */
	size_t fs_len, hs_len;
	uint8_t dev[18];
	uint8_t ep_fs[7], ep_hs[7]; /* the bulk IN endpoint at each speed */
};

/* the configuration's size for p, whether or not it fits */
size_t uvcg_desc_size(const struct uvcg_params *p);
/* -E2BIG with why when the configuration does not fit UVCG_CONFIG_MAX */
int uvcg_desc_build(const struct uvcg_params *p, const struct uvcg_ident *id,
		    struct uvcg_desc *ret, char **ret_why);
/*
 * gadgetfs's ep0 message: tag 0, the full-speed and (high: the device can run at
 * high speed) the high-speed configuration, the device descriptor
 */
void uvcg_desc_gadgetfs(const struct uvcg_desc *d, bool high, struct strbuf *out);
/* gadgetfs's endpoint message: tag 1, the full-speed and the high-speed descriptor */
void uvcg_desc_gadgetfs_ep(const struct uvcg_desc *d, struct strbuf *out);
/* string descriptor index (0: the language list) in UTF-16LE: bytes, -EINVAL none */
int uvcg_desc_string(const struct uvcg_ident *id, unsigned index, uint8_t *out, size_t cap);

/* ---- class requests (ctrl.c) ---- */

/* entity IDs and interfaces of the descriptors */
#define UVCG_IF_CONTROL 0
#define UVCG_IF_STREAMING 1
#define UVCG_ID_CAMERA 1
#define UVCG_ID_PROCESSING 2
#define UVCG_ID_OUTPUT 3

struct uvcg_probe {
	uint16_t hint;
	uint8_t format, frame; /* bFormatIndex, bFrameIndex: 1-based */
	uint32_t interval;     /* 100 ns */
	uint16_t key_frame_rate, p_frame_rate, comp_quality, comp_window, delay;
	uint32_t max_frame, max_payload, clock;
	uint8_t framing, preferred, min_version, max_version;
};

/* the setup packet of a control request, host order */
struct uvcg_setup {
	uint8_t type, request;
	uint16_t value, index, length;
};

struct uvcg_ctrl {
	const struct uvcg_params *p;
	/* the interface numbers (gadgetfs: UVCG_IF_*; f_uvc: where the composite put them) */
	uint8_t if_control, if_streaming;
	struct uvcg_probe probe, commit;
	bool committed;
	int16_t brightness;
	uint16_t contrast;
	uint8_t error;	/* VC_REQUEST_ERROR_CODE_CONTROL */
	uint64_t requests, stalls, probes, commits;
};

void uvcg_ctrl_init(struct uvcg_ctrl *c, const struct uvcg_params *p);
/* a class request with an IN data stage: bytes written to out (at most cap), -EPIPE to stall */
int uvcg_ctrl_in(struct uvcg_ctrl *c, const struct uvcg_setup *s, uint8_t *out, size_t cap);
/*
 * A class request with OUT data (SET_CUR): 0 taken, 1 taken and a commit
 * (stream with c->commit now), -EPIPE refused (the error code set; gadgetfs
 * cannot stall an OUT data stage, the next GET_CUR of the error code says it).
 */
int uvcg_ctrl_out(struct uvcg_ctrl *c, const struct uvcg_setup *s, const uint8_t *data,
		  size_t len);
/* the negotiated probe for format, frame, interval asked: clamped to what p offers */
void uvcg_probe_fit(const struct uvcg_params *p, struct uvcg_probe *pr);
void uvcg_probe_pack(const struct uvcg_probe *pr, uint8_t out[UVCG_PROBE_SIZE]);
void uvcg_probe_unpack(const uint8_t *in, size_t len, struct uvcg_probe *ret);
/* the format and size a probe names (indices valid after uvcg_probe_fit) */
enum uvcg_format uvcg_probe_format(const struct uvcg_params *p, const struct uvcg_probe *pr);
struct uvcg_size uvcg_probe_size(const struct uvcg_params *p, const struct uvcg_probe *pr);

/* ---- payloads (payload.c) ---- */

#define UVCG_FID 0x01
#define UVCG_EOF 0x02
#define UVCG_PTS 0x04
#define UVCG_SCR 0x08
#define UVCG_EOH 0x80

/* a payload header: bHeaderLength 12, FID, EOF on a frame's last payload, PTS, SCR */
void uvcg_header(uint8_t out[UVCG_HEADER_BYTES], bool fid, bool eof, uint32_t pts,
		 uint32_t scr_stc, uint16_t scr_sof);
/* payloads a frame of n bytes takes with max_payload bytes each (header included) */
uint64_t uvcg_payloads(uint64_t n, uint32_t max_payload);
/* the data bytes of payload i of such a frame */
uint32_t uvcg_payload_data(uint64_t n, uint32_t max_payload, uint64_t i);
/*
 * A bulk payload shorter than dwMaxPayloadTransferSize ends with a short
 * packet; one that is a whole number of packets needs a zero-length packet
 * after it, or the host's URB would run on into the next payload.
 */
bool uvcg_payload_zlp(uint32_t len, uint32_t max_payload, uint32_t max_packet);
/* bytes on the bulk endpoint for one frame: its data plus a header per payload */
uint64_t uvcg_frame_wire_bytes(uint64_t n, uint32_t max_payload);
/* the device clock (UVCG_CLOCK_HZ) at monotonic time ns, and the 1 kHz SOF count */
uint32_t uvcg_stc(uint64_t ns);
uint16_t uvcg_sof(uint64_t ns);

/* ---- pacing and accounting (pace.c), shared with the f_uvc frame source ---- */

/*
 * A sensor's timing: a frame is captured every interval from t0 on; the
 * link sends one at a time. A frame whose slot passed while the one before
 * it was still on the link, with a newer one captured since, is dropped
 * (late): the camera keeps only the newest.
 */
struct uvcg_pace {
	uint64_t t0, interval_ns;
	uint64_t next;	/* the next slot to consider */
	uint64_t limit; /* slots in the stream, 0: no end */
	uint64_t slots, sent, late;
};

void uvcg_pace_start(struct uvcg_pace *p, uint64_t t0, uint64_t interval_ns, uint64_t limit);
/*
 * The slot to send at now: its index in *ret_slot and 0 when its time has
 * come (the older slots that passed counted late), else the ns to wait.
 * -ENOSPC: the stream's slots are used up.
 */
int64_t uvcg_pace_next(struct uvcg_pace *p, uint64_t now, uint64_t *ret_slot);
/* the slot's frame went out whole */
void uvcg_pace_sent(struct uvcg_pace *p);
/* the slot's capture time */
uint64_t uvcg_pace_slot_ns(const struct uvcg_pace *p, uint64_t slot);

/* One stream's figures, commit to stop. */
struct uvcg_stats {
	uint64_t stream;    /* 1, 2, ...: the function's streams in order */
	const char *fourcc; /* "YUYV", "MJPG" */
	uint64_t width, height;
	uint64_t interval_100ns;
	double nominal_fps;
	uint64_t max_payload;
	uint64_t frames;   /* slots: frames the sensor made */
	uint64_t sent;	   /* frames that went out whole */
	uint64_t late;	   /* dropped: the link was still busy with an older one */
	uint64_t aborted;  /* a frame cut off when the stream stopped */
	uint64_t payloads; /* bulk transfers written, each with a header */
	uint64_t zlps;	   /* zero-length packets after whole-packet payloads */
	uint64_t data_bytes, header_bytes;
	double frame_bytes_mean;
	double seconds;	   /* the first frame's slot to the last frame out */
	double fps;	   /* frames sent per second, first to last frame */
	double mb_s;	   /* frame data per second over seconds, 10^6 B/s */
	double cpu_pct;	   /* the function's CPU over the stream, % of one CPU */
	double cpu_us_per_frame;
	double make_s;	   /* making (encoding) the frames before the stream */
	bool running;
	const char *ended; /* how it ended; NULL while it runs */
};

#define UVCG_STREAMS_KEPT 64

/* The function as a whole. */
struct uvcg_function {
	const char *state;  /* "waiting", "bound", "configured", "streaming", "idle", ... */
	const char *speed;  /* the speed gadgetfs said at connect; NULL: not connected */
	const char *udc;    /* the ep0 file's name: the UDC driver's gadget name */
	uint64_t connects, setups, class_requests, stalls, probes, commits, streams;
	int64_t brightness, contrast;
	struct uvcg_stats s[UVCG_STREAMS_KEPT]; /* the last streams, oldest first */
	size_t n;
};

/* the function and its streams as a report: "uvc_function", "streams" (fields.c) */
struct report;
void uvcg_function_describe(const struct uvcg_function *f, struct report *out);

/* ---- frames (frames.c; MJPG through jpeg.c, or jpeg_none.c without libjpeg) ---- */

#define UVCG_RING 8		  /* distinct frames made, sent in turn */
#define UVCG_RING_BYTES (64u << 20) /* at most this much memory for them */
#define UVCG_PREMADE_BYTES (128u << 20) /* all rings made before streaming: at most this */

struct uvcg_frames {
	enum uvcg_format format;
	struct uvcg_size size;
	uint8_t *buf[UVCG_RING];
	size_t len[UVCG_RING];
	unsigned n;
	double make_s; /* the time it took to make (and encode) them */
};

/* built with libjpeg(-turbo): MJPG frames can be made */
bool uvcg_have_jpeg(void);
/* YUYV (4:2:2) pixels to one JPEG at quality (1-100): malloc'ed into *ret */
int uvcg_jpeg_encode(const uint8_t *yuyv, struct uvcg_size s, int quality, uint8_t **ret,
		     size_t *ret_len);
/* the ring for format and size: -ENOTSUP (MJPG without libjpeg), -ENOMEM */
int uvcg_frames_make(struct uvcg_frames *f, enum uvcg_format format, struct uvcg_size s);
void uvcg_frames_release(struct uvcg_frames *f);
/* the frame for slot (in turn), its length in *ret_len */
const uint8_t *uvcg_frames_get(const struct uvcg_frames *f, uint64_t slot, size_t *ret_len);

/* ---- serving through gadgetfs (serve.c, stream.c) ---- */

struct uvcg_serve_config {
	const char *dir; /* the gadgetfs mount: its ep0 file is the UDC's name */
	struct uvcg_params params;
	struct uvcg_ident ident;
	const char *stats; /* the figures as JSON, rewritten each second and at the end */
	/* the command's JSON renderer for stats (render_json): the class names no renderer */
	int (*to_json)(const struct report *r, struct strbuf *out);
	const volatile int *stop;
	double stall_s; /* a write the host does not take for this long: it stopped reading */
	bool full_speed; /* describe full speed only: the device never runs faster */
};

/*
 * Write the descriptors (gadgetfs binds to the first free UDC), then answer
 * ep0 and stream on every commit until *stop. ret: the figures at the end.
 * -ENODEV (no gadgetfs ep0 file in dir), -EINVAL (the descriptors
 * refused), -EBUSY and other errors of the bind, with why.
 */
int uvcg_serve(const struct uvcg_serve_config *c, struct uvcg_function *ret, char **ret_why);

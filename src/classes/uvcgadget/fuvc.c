// SPDX-License-Identifier: MIT
/* The frame source of f_uvc, and of any V4L2 output node (fuvc.h). */
#include "classes/uvcgadget/fuvc.h"
#include "model/field.h"
#include "platform/sys/cpustat.h"
#include "util/clock.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/usb/g_uvc.h>
#include <linux/videodev2.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_BUFS 16
#define STATS_EVERY_NS 1000000000ull

struct obuf {
	void *addr;
	size_t len;
	bool queued;
};

struct fsrc {
	const struct uvcg_fuvc_config *cfg;
	int fd;
	bool events; /* f_uvc: its UVC events */
	struct uvcg_params p;
	struct uvcg_ctrl ctrl;
	struct uvcg_function fn;
	struct uvcg_setup pending; /* the OUT request whose data the next DATA event is */
	bool learned;		   /* the interface numbers, from the first request */
	/* the stream */
	bool streaming;
	struct obuf b[MAX_BUFS];
	unsigned nb;
	struct uvcg_frames frames;
	struct uvcg_pace pace;
	uint64_t t_first, t_last, queued;
	uint64_t t_exhausted; /* a plain node: when its last frame was queued */
	double cpu0;
	bool fid;
};

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

bool uvcg_fuvc_is_output(const char *node)
{
	struct v4l2_capability cap = {0};
	int fd = open(node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	bool r;

	if (fd < 0)
		return false;
	r = xioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
	    ((cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities) &
	     V4L2_CAP_VIDEO_OUTPUT);
	close(fd);
	return r;
}

/* f_uvc's formats, sizes and rates, as its node enumerates them (its descriptors' order) */
static void enumerate(struct fsrc *s)
{
	struct uvcg_params *p = &s->p;
	unsigned i;

	p->nformats = p->nframes = p->nfps = 0;
	for (i = 0; p->nformats < UVCG_MAX_FORMATS; i++) {
		struct v4l2_fmtdesc f = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT};

		if (xioctl(s->fd, VIDIOC_ENUM_FMT, &f) < 0)
			break;
		if (f.pixelformat == V4L2_PIX_FMT_YUYV)
			p->formats[p->nformats++] = UVCG_YUYV;
		else if (f.pixelformat == V4L2_PIX_FMT_MJPEG)
			p->formats[p->nformats++] = UVCG_MJPG;
	}
	for (i = 0; p->nformats && p->nframes < UVCG_MAX_FRAMES; i++) {
		struct v4l2_frmsizeenum z = {
		    .index = i, .pixel_format = p->formats[0] == UVCG_YUYV ? V4L2_PIX_FMT_YUYV
									   : V4L2_PIX_FMT_MJPEG};

		if (xioctl(s->fd, VIDIOC_ENUM_FRAMESIZES, &z) < 0 ||
		    z.type != V4L2_FRMSIZE_TYPE_DISCRETE)
			break;
		p->frames[p->nframes++] = (struct uvcg_size){(uint16_t)z.discrete.width,
							     (uint16_t)z.discrete.height};
	}
	for (i = 0; p->nframes && p->nfps < UVCG_MAX_FPS; i++) {
		struct v4l2_frmivalenum v = {
		    .index = i,
		    .pixel_format = p->formats[0] == UVCG_YUYV ? V4L2_PIX_FMT_YUYV
							       : V4L2_PIX_FMT_MJPEG,
		    .width = p->frames[0].width,
		    .height = p->frames[0].height};

		if (xioctl(s->fd, VIDIOC_ENUM_FRAMEINTERVALS, &v) < 0 ||
		    v.type != V4L2_FRMIVAL_TYPE_DISCRETE || !v.discrete.numerator)
			break;
		p->fps[p->nfps++] = (uint32_t)lround((double)v.discrete.denominator /
						     v.discrete.numerator);
	}
}

static void release_bufs(struct fsrc *s)
{
	struct v4l2_requestbuffers rb = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					 .memory = V4L2_MEMORY_MMAP};
	unsigned i;

	for (i = 0; i < s->nb; i++)
		if (s->b[i].addr)
			munmap(s->b[i].addr, s->b[i].len);
	s->nb = 0;
	xioctl(s->fd, VIDIOC_REQBUFS, &rb);
}

static struct uvcg_stats *cur(struct fsrc *s)
{
	return s->fn.n ? &s->fn.s[s->fn.n - 1] : NULL;
}

static void publish(struct fsrc *s, uint64_t now)
{
	struct uvcg_stats *st = cur(s);
	double wall = (double)(now - s->pace.t0) / 1e9, cpu = cpu_self_s() - s->cpu0;

	if (!st || !st->running)
		return;
	st->frames = s->pace.slots;
	st->late = s->pace.late;
	st->sent = s->pace.sent;
	st->seconds = wall;
	st->fps = st->sent > 1 && s->t_last > s->t_first
		      ? (double)(st->sent - 1) * 1e9 / (double)(s->t_last - s->t_first)
		      : NAN;
	st->mb_s = wall > 0 ? (double)st->data_bytes / wall / 1e6 : NAN;
	st->frame_bytes_mean = st->sent ? (double)st->data_bytes / (double)st->sent : NAN;
	st->cpu_pct = wall > 0 ? cpu / wall * 100 : NAN;
	st->cpu_us_per_frame = st->sent ? cpu * 1e6 / (double)st->sent : NAN;
}

static void stream_stop(struct fsrc *s, const char *why)
{
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct uvcg_stats *st = cur(s);

	if (!s->streaming)
		return;
	xioctl(s->fd, VIDIOC_STREAMOFF, &type);
	release_bufs(s);
	publish(s, clock_now_ns());
	if (st) {
		/* buffers queued and not given back are frames the link never took */
		st->aborted = s->queued > st->sent ? s->queued - st->sent : 0;
		st->running = false;
		st->ended = why;
	}
	s->streaming = false;
	s->fn.state = s->events ? "idle" : "stopped";
}

static int map_bufs(struct fsrc *s, char **why)
{
	struct v4l2_requestbuffers rb = {.count = s->cfg->buffers ? s->cfg->buffers : 4,
					 .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					 .memory = V4L2_MEMORY_MMAP};
	unsigned i;
	int r = xioctl(s->fd, VIDIOC_REQBUFS, &rb);

	if (r < 0 || !rb.count)
		return reason_set(r < 0 ? r : -ENOMEM, why, "'%s': REQBUFS: %s", s->cfg->node,
				  strerror(r < 0 ? -r : ENOMEM));
	s->nb = rb.count < MAX_BUFS ? rb.count : MAX_BUFS;
	for (i = 0; i < s->nb; i++) {
		struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					.memory = V4L2_MEMORY_MMAP};

		r = xioctl(s->fd, VIDIOC_QUERYBUF, &b);
		s->b[i] = (struct obuf){0};
		if (r == 0) {
			s->b[i].len = b.length;
			s->b[i].addr = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
					    b.m.offset);
			if (s->b[i].addr == MAP_FAILED) {
				s->b[i].addr = NULL;
				r = -errno;
			}
		}
		if (r < 0)
			return reason_set(r, why, "'%s': cannot map buffer %u: %s", s->cfg->node, i,
					  strerror(-r));
	}
	return 0;
}

/* S_FMT, the rate, buffers, the frames, STREAMON: the stream's first slot is now */
static int stream_start(struct fsrc *s, const struct uvcg_probe *pr, char **why)
{
	enum uvcg_format f = uvcg_probe_format(&s->p, pr);
	struct uvcg_size z = uvcg_probe_size(&s->p, pr);
	struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
	struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT, r;
	struct uvcg_stats *st;

	stream_stop(s, "a new stream");
	fmt.fmt.pix.pixelformat = f == UVCG_YUYV ? V4L2_PIX_FMT_YUYV : V4L2_PIX_FMT_MJPEG;
	fmt.fmt.pix.width = z.width;
	fmt.fmt.pix.height = z.height;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	r = xioctl(s->fd, VIDIOC_S_FMT, &fmt);
	if (r < 0 || fmt.fmt.pix.width != z.width || fmt.fmt.pix.height != z.height ||
	    fmt.fmt.pix.pixelformat != (f == UVCG_YUYV ? V4L2_PIX_FMT_YUYV : V4L2_PIX_FMT_MJPEG))
		return reason_set(r < 0 ? r : -EINVAL, why, "'%s' does not take %s %ux%u",
				  s->cfg->node, uvcg_format_fourcc(f), z.width, z.height);
	/* the node's own rate where it has one (vivid's output); f_uvc paces by the link */
	parm.parm.output.timeperframe.numerator = pr->interval;
	parm.parm.output.timeperframe.denominator = 10000000;
	xioctl(s->fd, VIDIOC_S_PARM, &parm);
	if (s->frames.n && (s->frames.format != f || s->frames.size.width != z.width ||
			    s->frames.size.height != z.height))
		uvcg_frames_release(&s->frames);
	if (!s->frames.n && (r = uvcg_frames_make(&s->frames, f, z)) < 0)
		return reason_set(r, why, "cannot make %s frames: %s", uvcg_format_fourcc(f),
				  r == -ENOTSUP ? "built without libjpeg" : strerror(-r));
	r = map_bufs(s, why);
	if (r < 0) {
		release_bufs(s);
		return r;
	}
	if (s->fn.n == UVCG_STREAMS_KEPT) {
		memmove(&s->fn.s[0], &s->fn.s[1], sizeof(s->fn.s[0]) * (UVCG_STREAMS_KEPT - 1));
		s->fn.n--;
	}
	st = &s->fn.s[s->fn.n++];
	*st = (struct uvcg_stats){.stream = ++s->fn.streams, .fourcc = uvcg_format_fourcc(f),
				  .width = z.width, .height = z.height,
				  .interval_100ns = pr->interval,
				  .nominal_fps = pr->interval ? 1e7 / pr->interval : NAN,
				  .max_payload = pr->max_payload, .payloads = U64_UNKNOWN,
				  .zlps = U64_UNKNOWN, .header_bytes = U64_UNKNOWN, .running = true,
				  .make_s = s->frames.make_s};
	s->queued = s->t_first = s->t_last = s->t_exhausted = 0;
	s->cpu0 = cpu_self_s();
	uvcg_pace_start(&s->pace, clock_now_ns(), (uint64_t)pr->interval * 100,
			s->events ? 0 : s->p.stream_frames);
	r = xioctl(s->fd, VIDIOC_STREAMON, &type);
	if (r < 0) {
		release_bufs(s);
		st->running = false;
		st->ended = "STREAMON failed";
		return reason_set(r, why, "'%s': STREAMON: %s", s->cfg->node, strerror(-r));
	}
	s->streaming = true;
	s->fn.state = "streaming";
	return 0;
}

/* buffers the driver gave back: frames the link (or the node) took */
static void reap(struct fsrc *s, uint64_t now)
{
	for (;;) {
		struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					.memory = V4L2_MEMORY_MMAP};

		if (xioctl(s->fd, VIDIOC_DQBUF, &b) < 0 || b.index >= s->nb)
			break;
		s->b[b.index].queued = false;
		if (!(b.flags & V4L2_BUF_FLAG_ERROR)) {
			uvcg_pace_sent(&s->pace);
			cur(s)->data_bytes += b.bytesused;
			s->t_last = now;
			if (!s->t_first)
				s->t_first = now;
		}
	}
}

/* the frames due by now queued; a slot with no free buffer is dropped (late) */
static int64_t pump(struct fsrc *s, uint64_t now)
{
	uint64_t slot;
	int64_t wait;

	while ((wait = uvcg_pace_next(&s->pace, now, &slot)) == 0) {
		struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
					.memory = V4L2_MEMORY_MMAP};
		const uint8_t *data;
		size_t len;
		unsigned i;

		for (i = 0; i < s->nb && s->b[i].queued; i++)
			;
		if (i == s->nb) {
			s->pace.late++;
			continue;
		}
		data = uvcg_frames_get(&s->frames, slot, &len);
		len = len < s->b[i].len ? len : s->b[i].len;
		memcpy(s->b[i].addr, data, len);
		b.index = i;
		b.bytesused = (uint32_t)len;
		b.field = V4L2_FIELD_NONE;
		if (xioctl(s->fd, VIDIOC_QBUF, &b) < 0) {
			s->pace.late++;
			continue;
		}
		s->b[i].queued = true;
		s->queued++;
	}
	return wait;
}

/* UVCIOC_SEND_RESPONSE: len bytes of data (an OUT request: its data stage), -1 stalls */
static int respond(struct fsrc *s, const uint8_t *data, int len)
{
	struct uvc_request_data r = {.length = len};

	if (len > 0 && data)
		memcpy(r.data, data, (size_t)len < sizeof(r.data) ? (size_t)len : sizeof(r.data));
	return xioctl(s->fd, UVCIOC_SEND_RESPONSE, &r);
}

/* f_uvc's interfaces sit where the composite put them: learnt from the first request */
static void learn(struct fsrc *s, const struct uvcg_setup *u)
{
	uint8_t iface = (uint8_t)u->index, entity = (uint8_t)(u->index >> 8);

	if (s->learned)
		return;
	if (entity) {
		s->ctrl.if_control = iface, s->ctrl.if_streaming = (uint8_t)(iface + 1);
		s->learned = true;
	} else if (u->value >> 8 == 0x01) { /* VS_PROBE_CONTROL: the streaming interface */
		s->ctrl.if_streaming = iface, s->ctrl.if_control = (uint8_t)(iface - 1);
		s->learned = true;
	}
}

static int on_setup(struct fsrc *s, const struct usb_ctrlrequest *c)
{
	struct uvcg_setup u = {c->bRequestType, c->bRequest, c->wValue, c->wIndex, c->wLength};
	uint8_t b[60];
	int n;

	s->fn.setups++;
	s->fn.class_requests++;
	learn(s, &u);
	if (c->bRequestType & USB_DIR_IN) {
		n = uvcg_ctrl_in(&s->ctrl, &u, b, sizeof(b));
		if (n < 0)
			s->fn.stalls++;
		return respond(s, b, n < 0 ? -1 : n);
	}
	/* the data stage is armed; the data comes as UVC_EVENT_DATA */
	s->pending = u;
	return respond(s, NULL, c->wLength);
}

/* a SET_CUR's data: probe, commit (the stream starts at STREAMON) or a control */
static int on_data(struct fsrc *s, const struct uvc_request_data *d)
{
	size_t len = d->length < 0 ? 0 : (size_t)d->length;

	/* refused values stall nothing here: the error code control says it */
	if (uvcg_ctrl_out(&s->ctrl, &s->pending, d->data,
			  len < sizeof(d->data) ? len : sizeof(d->data)) < 0)
		s->fn.stalls++;
	s->fn.probes = s->ctrl.probes;
	s->fn.commits = s->ctrl.commits;
	return 0;
}

static int on_event(struct fsrc *s, const struct v4l2_event *ev, char **why)
{
	const struct uvc_event *u = (const void *)&ev->u.data;

	switch (ev->type) {
	case UVC_EVENT_CONNECT:
		s->fn.connects++;
		s->fn.speed = u->speed == USB_SPEED_SUPER ? "super"
			      : u->speed == USB_SPEED_HIGH ? "high"
							   : "full";
		s->fn.state = "connected";
		return 0;
	case UVC_EVENT_DISCONNECT:
		stream_stop(s, "disconnected");
		s->fn.state = "disconnected";
		return 0;
	case UVC_EVENT_SETUP:
		return on_setup(s, &u->req);
	case UVC_EVENT_DATA:
		return on_data(s, &u->data);
	case UVC_EVENT_STREAMON:
		/* the host set the streaming alternate setting: the committed mode */
		return stream_start(s, &s->ctrl.commit, why);
	case UVC_EVENT_STREAMOFF:
		stream_stop(s, "STREAMOFF");
		return 0;
	default:
		return 0;
	}
}

static int subscribe(struct fsrc *s)
{
	static const unsigned types[] = {UVC_EVENT_CONNECT, UVC_EVENT_DISCONNECT,
					 UVC_EVENT_SETUP,   UVC_EVENT_DATA,
					 UVC_EVENT_STREAMON, UVC_EVENT_STREAMOFF};
	size_t i;
	int r = 0;

	for (i = 0; r == 0 && i < sizeof(types) / sizeof(types[0]); i++) {
		struct v4l2_event_subscription sub = {.type = types[i]};

		r = xioctl(s->fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
	}
	return r;
}

static void write_stats(struct fsrc *s)
{
	struct report rep = {.command = "uvc-gadget"};
	struct strbuf out = STRBUF_INIT, tmp = STRBUF_INIT;
	int fd;

	if (!s->cfg->stats || !s->cfg->to_json)
		return;
	s->fn.brightness = s->ctrl.brightness;
	s->fn.contrast = s->ctrl.contrast;
	uvcg_function_describe(&s->fn, &rep);
	s->cfg->to_json(&rep, &out);
	strbuf_addf(&tmp, "%s.new", s->cfg->stats);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		bool ok = write(fd, out.buf, out.len) == (ssize_t)out.len;

		if (close(fd) == 0 && ok)
			rename(tmp.buf, s->cfg->stats);
		else
			unlink(tmp.buf);
	}
	strbuf_release(&out);
	strbuf_release(&tmp);
}

/* the node opened and what it is: f_uvc (events) or a plain output node */
static int open_node(struct fsrc *s, char **why)
{
	struct v4l2_capability cap = {0};
	uint32_t caps;
	int r;

	s->fd = open(s->cfg->node, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0)
		return reason_set(-errno, why, "cannot open '%s': %s", s->cfg->node,
				  strerror(errno));
	r = xioctl(s->fd, VIDIOC_QUERYCAP, &cap);
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
	if (r < 0 || !(caps & V4L2_CAP_VIDEO_OUTPUT) || !(caps & V4L2_CAP_STREAMING))
		return reason_set(-EINVAL, why,
				  "'%s' is not a V4L2 output node with streaming I/O (f_uvc's, or "
				  "another)",
				  s->cfg->node);
	s->events = !strcmp((const char *)cap.driver, "g_uvc");
	s->fn.udc = s->events ? "f_uvc" : NULL;
	return 0;
}

static int setup(struct fsrc *s, char **why)
{
	struct uvcg_params spec;
	int r = open_node(s, why);

	if (r < 0)
		return r;
	r = uvcg_params_read(s->cfg->spec ? s->cfg->spec : "", &spec, why);
	if (r < 0)
		return r;
	s->p = spec;
	if (s->events) {
		enumerate(s);
		if (!s->p.nformats || !s->p.nframes || !s->p.nfps)
			return reason_set(-EINVAL, why,
					  "f_uvc on '%s' lists no YUYV or MJPG format with discrete "
					  "sizes and rates",
					  s->cfg->node);
		r = subscribe(s);
		if (r < 0)
			return reason_set(r, why, "'%s': cannot subscribe to f_uvc's events: %s",
					  s->cfg->node, strerror(-r));
		s->fn.state = "waiting";
	}
	uvcg_ctrl_init(&s->ctrl, &s->p);
	return 0;
}

/*
 * A plain node's stream_frames are all queued: done when every buffer came
 * back, or none has for 3 intervals (a display keeps its last frame until the
 * next one: vivid's output does; STREAMOFF then counts it cut off).
 */
static bool plain_done(struct fsrc *s, uint64_t now)
{
	uint64_t since = s->t_last > s->t_exhausted ? s->t_last : s->t_exhausted;
	unsigned i;

	if (!s->t_exhausted)
		s->t_exhausted = now;
	for (i = 0; i < s->nb && !s->b[i].queued; i++)
		;
	return i == s->nb || now - since > 3 * s->pace.interval_ns + 300000000ull;
}

static int loop(struct fsrc *s, char **why)
{
	uint64_t last = 0;
	int r = 0;

	while (r == 0 && !(s->cfg->stop && *s->cfg->stop)) {
		struct pollfd p = {.fd = s->fd, .events = POLLPRI | (s->streaming ? POLLOUT : 0)};
		uint64_t now = clock_now_ns();
		int64_t wait = s->streaming ? pump(s, now) : 100000000;
		struct v4l2_event ev;

		if (s->streaming && wait == -ENOSPC && plain_done(s, now))
			break; /* a plain node: its stream_frames queued and taken */
		wait = wait < 0 || wait > 100000000 ? 100000000 : wait;
		if (poll(&p, 1, (int)(wait / 1000000) + 1) > 0) {
			if (p.revents & POLLPRI)
				while (r == 0 && xioctl(s->fd, VIDIOC_DQEVENT, &ev) == 0)
					r = on_event(s, &ev, why);
		}
		now = clock_now_ns();
		if (s->streaming) {
			reap(s, now);
			publish(s, now);
		}
		if (now - last >= STATS_EVERY_NS) {
			write_stats(s);
			last = now;
		}
	}
	return r;
}

int uvcg_fuvc_serve(const struct uvcg_fuvc_config *c, struct uvcg_function *ret, char **ret_why)
{
	struct fsrc *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return -ENOMEM;
	s->cfg = c;
	s->fd = -1;
	r = setup(s, ret_why);
	/* a plain output node streams its mode at once: the spec's first format, size, rate */
	if (r == 0 && !s->events) {
		struct uvcg_probe pr = {.format = 1, .frame = 1};

		uvcg_probe_fit(&s->p, &pr);
		r = stream_start(s, &pr, ret_why);
	}
	if (r == 0)
		r = loop(s, ret_why);
	stream_stop(s, c->stop && *c->stop ? "the source stopped" : "its stream_frames were sent");
	if (s->fd >= 0)
		close(s->fd);
	if (r == 0)
		s->fn.state = "stopped";
	write_stats(s);
	uvcg_frames_release(&s->frames);
	if (ret)
		*ret = s->fn;
	free(s);
	return r;
}

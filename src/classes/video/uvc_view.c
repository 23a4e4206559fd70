// SPDX-License-Identifier: MIT
/*
 * A USB camera's UVC facts as rows: what `usbperf limits uvc --device`
 * prints and what `usbperf video` adds after a pass on a USB camera. The
 * descriptors come from <dev>/descriptors, the speed from the topology,
 * the driver's state from uvc_read_sysfs(), all through the sysroot.
 */
#include "classes/video/uvc_view.h"

#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define DESC_MAX (64 << 10)
#define MB 1e6

/* "/dev/video0" -> its USB device ("1-1"); NULL off USB */
static char *usb_of_node(const char *node)
{
	struct usb_attach a = {0};
	char *key = NULL;

	if (usb_attach_for_node(node, &a) == 0) {
		key = xstrdup(a.device);
		usb_attach_release(&a);
	}
	return key;
}

static int fail(int r, char **ret_why, const char *fmt, const char *subject)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, fmt, subject);
	*ret_why = strbuf_detach(&sb);
	return r;
}

int uvc_camera_open(const char *device, struct uvc_camera *ret, char **ret_why)
{
	struct uvc_camera c = {0};
	struct usb_topology t;
	const struct usb_device *u = NULL;
	struct strbuf p = STRBUF_INIT, raw = STRBUF_INIT;
	char *key = device[0] == '/' ? usb_of_node(device) : xstrdup(device);
	int r;

	if (!key)
		return fail(-ENODEV, ret_why, "'%s' is not a V4L2 node of a USB device", device);
	r = usb_topology_probe(&t);
	if (r < 0) {
		free(key);
		return fail(r, ret_why, "cannot read the USB devices in sysfs for '%s'", device);
	}
	for (size_t i = 0; i < t.ndev; i++)
		if (!strcmp(t.dev[i].path, key))
			u = &t.dev[i];
	if (!u) {
		usb_topology_release(&t);
		free(key);
		return fail(-ENODEV, ret_why, "no USB device '%s' (see 'usbperf list')", device);
	}
	c.speed = u->speed;
	c.capable = u->capable;
	snprintf(c.vid_pid, sizeof(c.vid_pid), "%s", u->vid_pid ? u->vid_pid : "");
	usb_topology_release(&t);
	strbuf_addf(&p, "/sys/bus/usb/devices/%s", key);
	c.dir = xstrdup(p.buf);
	c.device = key;
	strbuf_adds(&p, "/descriptors");
	c.info = calloc(1, sizeof(*c.info));
	if (!c.info)
		abort();
	r = sysroot_read(p.buf, DESC_MAX, &raw);
	if (r < 0) {
		strbuf_release(&raw);
		strbuf_release(&p);
		uvc_camera_release(&c);
		return fail(-EINVAL, ret_why, "cannot read the descriptors of '%s' (sysfs)",
			    device);
	}
	r = uvc_parse((const uint8_t *)raw.buf, raw.len, c.speed, c.info);
	strbuf_release(&raw);
	strbuf_release(&p);
	if (r < 0) {
		uvc_camera_release(&c);
		if (r == -ENOENT)
			return fail(r, ret_why,
				    "'%s' is not a USB video camera: no video streaming interface",
				    device);
		return fail(r, ret_why, "cannot decode the descriptors of '%s'", device);
	}
	*ret = c;
	return 0;
}

void uvc_camera_read_state(struct uvc_camera *c)
{
	if (c && c->info && c->dir && uvc_read_sysfs(c->dir, c->info, &c->sysfs) == 0)
		c->sysfs_read = true;
}

void uvc_camera_release(struct uvc_camera *c)
{
	if (!c)
		return;
	free_all(c->device, c->dir, c->info);
	*c = (struct uvc_camera){0};
}

static const char *keep(struct uvc_view *v, const char *s)
{
	char **slot = xgrow(v->pool, &v->npool, sizeof(*v->pool));

	v->pool = slot;
	slot[v->npool - 1] = xstrdup(s);
	return slot[v->npool - 1];
}

__attribute__((format(printf, 2, 3))) static const char *keepf(struct uvc_view *v, const char *fmt,
							       ...)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s = keep(v, sb.buf);
	strbuf_release(&sb);
	return s;
}

#define ADD(v, arr, n)                                                                             \
	((v)->arr = xgrow((v)->arr, &(v)->n, sizeof(*(v)->arr)), &(v)->arr[(v)->n - 1])

static int cur_alt(const struct uvc_camera *c, unsigned stream)
{
	return c->sysfs_read && stream < UVC_MAX_STREAMS ? c->sysfs.cur_alt[stream] : -1;
}

static const char *flag_names(struct uvc_view *v, unsigned flags)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	for (unsigned b = 0; b < 32; b++)
		if (flags & (1u << b))
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", uvc_flag_name(1u << b));
	s = sb.len ? keep(v, sb.buf) : NULL;
	strbuf_release(&sb);
	return s;
}

static void add_alt(struct uvc_view *v, const struct uvc_camera *c, const struct uvc_stream *s,
		    const struct uvc_alt *a, int cur)
{
	struct uvc_alt_row *row = ADD(v, alts, nalts);
	bool ss = c->speed >= USB_SPEED_SS;

	*row = (struct uvc_alt_row){
	    .device = keep(v, c->device),
	    .transfer = uvc_xfer_name(a->xfer),
	    .ifnum = s->ifnum,
	    .alt = a->alt,
	    .current = cur == a->alt,
	    .ep = a->xfer != UVC_XFER_NONE ? keepf(v, "0x%02x", a->ep_address) : NULL,
	    .max_packet_raw =
		a->xfer != UVC_XFER_NONE ? keepf(v, "0x%04x", a->max_packet_raw) : NULL,
	    .max_packet = a->xfer != UVC_XFER_NONE ? a->max_packet : U64_UNKNOWN,
	    .mult = a->xfer != UVC_XFER_ISOC ? U64_UNKNOWN
		    : ss		     ? (a->has_ss_comp ? a->ss_mult : 1)
					     : a->mult,
	    .burst = ss && a->has_ss_comp ? a->max_burst : NAN,
	    .interval = a->xfer != UVC_XFER_NONE ? a->interval : U64_UNKNOWN,
	    .period_us = a->period_us,
	    .bytes_per_interval = a->bytes_per_interval,
	    .bus_mb_s = a->bus_Bps / MB,
	    .payload_mb_s = a->payload_Bps / MB,
	};
	if (a->xfer == UVC_XFER_BULK) {
		row->payload_mb_s = s->bulk_Bps > 0 ? s->bulk_Bps / MB : NAN;
		row->derivation =
		    keepf(v, "bulk payload ceiling at %s speed", usb_speed_name(c->speed));
	} else if (a->xfer == UVC_XFER_NONE) {
		row->derivation = "no video endpoint: no bandwidth";
	} else {
		row->derivation = keep(v, a->why[0] ? a->why : a->derivation);
	}
}

void uvc_view_add_camera(struct uvc_view *v, const struct uvc_camera *c)
{
	const struct uvc_info *in = c->info;
	struct uvc_cam_row *cam = ADD(v, cams, ncams);

	*cam = (struct uvc_cam_row){
	    .device = keep(v, c->device),
	    .vid_pid = c->vid_pid[0] ? keep(v, c->vid_pid) : NULL,
	    .speed = usb_speed_name(c->speed),
	    .capable = c->capable != USB_SPEED_UNKNOWN ? usb_speed_name(c->capable) : NULL,
	    .uvc_version =
		in->bcd_uvc ? keepf(v, "%x.%02x", in->bcd_uvc >> 8, in->bcd_uvc & 0xff) : NULL,
	    .flags = flag_names(v, in->flags),
	    .streams = in->n_streams,
	    .formats = in->n_formats,
	    .frames = in->n_frames,
	};
	for (unsigned k = 0; k < in->n_streams; k++) {
		const struct uvc_stream *s = &in->streams[k];
		const struct uvc_alt *a = uvc_find_alt(s, cur_alt(c, k));
		struct uvc_stream_row *row = ADD(v, streams, nstreams);

		*row = (struct uvc_stream_row){
		    .device = keep(v, c->device),
		    .transfer = s->bulk ? "bulk" : "isochronous",
		    .ifnum = s->ifnum,
		    .alts = s->n_alts,
		    .current_alt = cur_alt(c, k) >= 0 ? cur_alt(c, k) : FIELD_INT_UNKNOWN,
		    .ceiling_mb_s = s->bulk ? s->bulk_Bps / MB
				    : a	    ? a->payload_Bps / MB
					    : NAN,
		    .bus_mb_s = !s->bulk && a ? a->bus_Bps / MB : NAN,
		};
		for (unsigned i = 0; i < s->n_alts; i++)
			add_alt(v, c, s, &s->alts[i], cur_alt(c, k));
	}
	if (!c->sysfs_read)
		return;
	/* the module's parameters once, however many cameras */
	for (unsigned j = 0; !v->params_taken && j < c->sysfs.n_params; j++)
		*ADD(v, params, nparams) = (struct uvc_kv_row){
		    .device = "uvcvideo",
		    .name = keep(v, c->sysfs.params[j].name),
		    .value = keep(v, c->sysfs.params[j].value),
		};
	v->params_taken = true;
	for (unsigned i = 0; i < c->sysfs.n_stats; i++)
		*ADD(v, stats, nstats) = (struct uvc_kv_row){
		    .device = keepf(v, "%s (debugfs %s)", c->device, c->sysfs.stats_dir),
		    .name = keep(v, c->sysfs.stats[i].name),
		    .value = keep(v, c->sysfs.stats[i].value),
		};
}

/* the shortest interval a frame offers, 100 ns units */
static uint32_t fastest(const struct uvc_frame *fr)
{
	uint32_t best = 0;

	if (fr->continuous)
		return fr->n_intervals ? fr->intervals[0] : fr->default_interval;
	for (unsigned i = 0; i < fr->n_intervals; i++)
		if (fr->intervals[i] && (!best || fr->intervals[i] < best))
			best = fr->intervals[i];
	return best ? best : fr->default_interval;
}

/* does the current alt setting of the frame's stream carry it: "yes", "no", NULL unknown */
static const char *current_carries(const struct uvc_camera *c, const struct uvc_frame *fr,
				   const struct uvc_need *n)
{
	unsigned k = c->info->formats[fr->format].stream;
	const struct uvc_stream *s = &c->info->streams[k];
	const struct uvc_alt *a;

	if (s->bulk)
		return n->smallest_alt >= 0 ? "yes" : "no";
	a = uvc_find_alt(s, cur_alt(c, k));
	if (!a)
		return NULL;
	return uvc_alt_carries(a, n->frame_bytes, n->fps, NULL, NULL) ? "yes" : "no";
}

void uvc_view_add_modes(struct uvc_view *v, const struct uvc_camera *c)
{
	const struct uvc_info *in = c->info;

	for (unsigned i = 0; i < in->n_frames; i++) {
		const struct uvc_frame *fr = &in->frames[i];
		const struct uvc_format *f = &in->formats[fr->format];
		struct uvc_need n;
		struct uvc_mode_row *row;

		if (uvc_mode_need(in, fr, fastest(fr), false, &n) < 0)
			continue;
		row = ADD(v, modes, nmodes);
		*row = (struct uvc_mode_row){
		    .device = keep(v, c->device),
		    .fourcc = keep(v, f->fourcc),
		    .kind = uvc_format_kind_name(f->kind),
		    .basis = uvc_frame_basis_name(n.basis),
		    .current_carries = current_carries(c, fr, &n),
		    .ifnum = in->streams[f->stream].ifnum,
		    .width = fr->width,
		    .height = fr->height,
		    .fps = n.fps,
		    .frame_bytes = n.frame_bytes,
		    .need_mb_s = n.payload_Bps / MB,
		    .smallest_alt = n.smallest_alt >= 0 ? n.smallest_alt : FIELD_INT_UNKNOWN,
		    .smallest_need_mb_s = n.smallest_alt >= 0 ? n.smallest_need_Bps / MB : NAN,
		    .largest_alt = n.largest_alt >= 0 ? n.largest_alt : FIELD_INT_UNKNOWN,
		    .largest_fps = n.largest_alt >= 0 ? n.largest_fps : NAN,
		};
	}
}

/* V4L2's "YUYV" is UVC's "YUY2"; the others share their four letters */
static void uvc_fourcc(uint32_t fourcc, char out[5])
{
	video_fourcc_str(fourcc, out);
	if (!strcmp(out, "YUYV"))
		memcpy(out, "YUY2", 5);
}

/* the streaming row of frame fr (NULL: not among the descriptors) at interval_100ns on stream k */
static void add_streaming_row(struct uvc_view *v, const struct uvc_camera *c,
			      const struct uvc_frame *fr, unsigned k, uint32_t interval_100ns,
			      const char *mode)
{
	const struct uvc_stream *s = k < c->info->n_streams ? &c->info->streams[k] : NULL;
	const struct uvc_alt *a = s && !s->bulk ? uvc_find_alt(s, cur_alt(c, k)) : NULL;
	struct uvc_streaming_row *row = ADD(v, streaming, nstreaming);
	struct uvc_need n;

	*row = (struct uvc_streaming_row){
	    .device = keep(v, c->device),
	    .mode = keep(v, mode),
	    .ifnum = s ? s->ifnum : U64_UNKNOWN,
	    .alt = cur_alt(c, k) >= 0 ? cur_alt(c, k) : FIELD_INT_UNKNOWN,
	    .transfer = s ? (s->bulk ? "bulk" : "isochronous") : NULL,
	    .ceiling_mb_s = s && s->bulk ? s->bulk_Bps / MB
			    : a		 ? a->payload_Bps / MB
					 : NAN,
	    .bus_mb_s = a ? a->bus_Bps / MB : NAN,
	    .derivation = a ? keep(v, a->why[0] ? a->why : a->derivation) : NULL,
	    .need_mb_s = NAN,
	    .smallest_need_mb_s = NAN,
	    .smallest_alt = FIELD_INT_UNKNOWN,
	};
	if (!fr || uvc_mode_need(c->info, fr, interval_100ns, false, &n) < 0)
		return;
	row->need_mb_s = n.payload_Bps / MB;
	row->basis = uvc_frame_basis_name(n.basis);
	if (n.smallest_alt >= 0) {
		row->smallest_alt = n.smallest_alt;
		row->smallest_need_mb_s = n.smallest_need_Bps / MB;
	}
	row->carries = current_carries(c, fr, &n);
}

struct uvc_measured uvc_view_measured(const struct video_pass *p)
{
	return (struct uvc_measured){
	    .nominal_fps = video_mode_fps(&p->set),
	    .achieved_fps = p->st.fps,
	    .drops_pct = p->st.dropped ? p->st.drop_pct : NAN,
	    .frame_bytes_mean = p->st.bytes_mean,
	    .frame_bytes_max = p->st.bytes_max,
	    .self_cpu_pct = p->self_cpu_pct,
	};
}

void uvc_view_add_streaming(struct uvc_view *v, const struct uvc_camera *c,
			    const struct video_pass *p)
{
	const struct uvc_measured m = uvc_view_measured(p);
	uint32_t interval_100ns =
	    p->set.fps_num ? (uint32_t)llround(1e7 * (double)p->set.fps_den / p->set.fps_num) : 0;
	const struct uvc_frame *fr;
	struct uvc_facts f;
	char fourcc[5], mode[64];
	unsigned k;

	uvc_fourcc(p->set.fourcc, fourcc);
	fr = uvc_find_frame(c->info, fourcc, p->set.width, p->set.height);
	k = fr ? c->info->formats[fr->format].stream : 0;
	video_mode_str(&p->set, mode, sizeof(mode));
	add_streaming_row(v, c, fr, k, interval_100ns, mode);
	f = (struct uvc_facts){
	    .subject = c->device,
	    .info = c->info,
	    .stream = k,
	    .cur_alt = cur_alt(c, k),
	    .capable = c->capable,
	    .frame = fr,
	    .interval_100ns = interval_100ns,
	    .link_judged = false, /* video has no topology findings of its own */
	};
	uvc_findings(&f, &m, &v->findings);
}

#include "classes/video/uvc_view.fields.h"

void uvc_view_describe(const struct uvc_view *v, struct report *r)
{
	if (!v->ncams)
		return; /* no USB camera: nothing to say, not even empty tables */
	if (v->ncams == 1)
		report_add_object(r, "uvc", "UVC camera", &cam_desc, v->cams);
	if (v->nstreaming)
		report_add_table(r, "uvc_streaming",
				 "While streaming: the alternate setting the driver selected, next "
				 "to the mode's need",
				 &streaming_desc, v->streaming, v->nstreaming,
				 sizeof(*v->streaming));
	/*
	 * CSV renders the first table: limits --device, the alternate settings
	 * (the facts the rest derive from); video, its passes
	 */
	report_add_table(r, "uvc_alt_settings",
			 "USB streaming: alternate settings (MB/s = 10^6 B/s; payload less a 12 B "
			 "header per interval)",
			 &alt_desc, v->alts, v->nalts, sizeof(*v->alts));
	if (v->ncams != 1)
		report_add_table(r, "uvc", "UVC cameras", &cam_desc, v->cams, v->ncams,
				 sizeof(*v->cams));
	report_add_table(r, "uvc_streams", "Video streaming interfaces", &stream_desc, v->streams,
			 v->nstreams, sizeof(*v->streams));
	if (v->nmodes)
		report_add_table(r, "uvc_modes",
				 "Modes at their fastest interval: the bandwidth each needs, the "
				 "smallest alternate setting that carries it",
				 &mode_desc, v->modes, v->nmodes, sizeof(*v->modes));
	report_add_table(r, "uvc_parameters", "uvcvideo module parameters", &kv_desc, v->params,
			 v->nparams, sizeof(*v->params));
	report_add_table(r, "uvc_stats", "uvcvideo stream statistics (debugfs)", &kv_desc, v->stats,
			 v->nstats, sizeof(*v->stats));
	report_add_table(r, "findings", "findings", &finding_desc, v->findings.v, v->findings.n,
			 sizeof(*v->findings.v));
}

void uvc_view_release(struct uvc_view *v)
{
	for (size_t i = 0; i < v->npool; i++)
		free(v->pool[i]);
	free_all(v->pool, v->cams, v->streams, v->alts, v->modes, v->streaming, v->params,
		 v->stats);
	finding_list_release(&v->findings);
	*v = (struct uvc_view)UVC_VIEW_INIT;
}

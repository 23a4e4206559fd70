// SPDX-License-Identifier: MIT
/*
 * Cameras as a class of `usbperf run` (run/class.h): every V4L2
 * capture node (USB ones first) or one named on the command line, its
 * default mode captured for a few seconds. For a UVC camera, its
 * descriptors and the alternate setting the driver chose while streaming
 * put the payload rate next to what that setting carries.
 */
#include "run/class_kit.h"
#include "run/pass_sys.h"
#include "classes/video/html_section.h"
#include "run/run_priv.h"
#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
#include "platform/usb/uvc.h"
#include "classes/video/fields.h"
#include "classes/video/uvc_view.h"
#include "classes/video/video.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* this class (defined at the end): its rows and plan items name it */
extern const struct measure_class run_class_video;

#define V4L2_MAJOR 81
#define VIDEO_QUICK_S 3.0
#define VIDEO_FULL_S 5.0
#define VIDEO_WARMUP 5 /* frames before counting: the first ones come as the sensor starts */
#define VIDEO_DESC_MAX (64 << 10)

/* a camera plan item: what it offers, the mode measured, what was measured */
struct video_item {
	struct video_info *info;
	struct video_mode mode;
	struct video_report rep; /* its rows are the class's table rows */
	struct video_pass pass;
	bool measured;
	/* a UVC camera: its descriptors, what sysfs said while it streamed, judged (uvc_view) */
	struct uvc_camera cam;
	bool is_uvc;
	struct uvc_view view;
};

static const struct class_metric video_metrics[] = {
    /* not CLASS_RATE: the class's own report section draws fps against the nominal rate */
    CLASS_METRIC("fps", "frames/s", "fps", true),
    CLASS_METRIC("fps_wall", "frames/s", "fps (wall clock)", true),
    CLASS_METRIC("drop_pct", "%", "drops", false),
    CLASS_TAIL("interval_p99_us", "us", "p99 interval"),
    CLASS_METRIC("jitter_us", "us", "jitter", false),
    CLASS_RATE("mb_s", "MB/s", "rate"),
    CLASS_METRIC("first_frame_ms", "ms", "first frame", false),
    CLASS_CPU("self_cpu_pct", "cpu", "usbperf's own"),
    CLASS_METRIC("cpu_us_per_frame", "us", "cpu per frame", false),
    CLASS_RATE("wire_mb_s", "MB/s", "wire"),
    CLASS_METRIC("urb_size", "B", "URB size", true),
    CLASS_METRIC("iso_packet_errors", "packets", "iso errors", false),
    CLASS_METRIC("usb_errors", "errors", "USB errors", false),
    /* the frame intervals in multiples of the nominal one (video_hist_edges), for the report */
    CLASS_DISTRIBUTION("interval_bin_0", "intervals", "intervals <0.5x"),
    CLASS_DISTRIBUTION("interval_bin_1", "intervals", "intervals 0.5-0.9x"),
    CLASS_DISTRIBUTION("interval_bin_2", "intervals", "intervals 0.9-1.1x"),
    CLASS_DISTRIBUTION("interval_bin_3", "intervals", "intervals 1.1-1.5x"),
    CLASS_DISTRIBUTION("interval_bin_4", "intervals", "intervals 1.5-2.5x"),
    CLASS_DISTRIBUTION("interval_bin_5", "intervals", "intervals 2.5-3.5x"),
    CLASS_DISTRIBUTION("interval_bin_6", "intervals", "intervals >=3.5x"),
};
_Static_assert(VIDEO_HIST_BINS == 7, "one interval_bin metric per histogram bin");

/* the USB device a node is on ("1-1"), NULL off USB */
static char *usb_key_of(const char *node, struct usb_attach *ret)
{
	return usb_attach_for_node(node, ret) == 0 ? xstrdup(ret->device) : NULL;
}

/* every capture node, USB ones first */
static void video_discover_all(const struct run_options *o, struct run_result *r)
{
	struct video_info *v = NULL;
	size_t n = 0;

	(void)o;
	if (video_discover(VIDEO_MODES_NONE, &v, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		struct usb_attach a = {0};
		char *key = usb_key_of(v[i].path, &a);
		struct strbuf why = STRBUF_INIT;
		struct run_plan_item *it;

		strbuf_addf(&why, "%s is a video capture device (%s, %s): its default mode",
			    v[i].path, v[i].driver, v[i].card);
		it = run_plan_add(r, &run_class_video, v[i].path, key ? key : v[i].path,
				  key ? "usb-video" : "video", true, why.buf);
		it->device_key_from_usb = key != NULL;
		if (key)
			usb_attach_release(&a);
		free(key);
		strbuf_release(&why);
	}
	free(v);
}

/* a V4L2 node: a character device of the video4linux major */
static bool video_claims(const char *target, const struct stat *st)
{
	(void)target;
	return st && S_ISCHR(st->st_mode) && major(st->st_rdev) == V4L2_MAJOR;
}

static void video_plan_target(const struct run_options *o, struct run_result *r,
			      struct run_plan_item *it)
{
	struct usb_attach a = {0};
	char *key = usb_key_of(it->path, &a);

	(void)o;
	(void)r;
	free(it->device_key);
	it->device_key = key ? key : xstrdup(it->path);
	it->device_key_from_usb = key != NULL;
	it->kind = key ? "usb-video" : "video";
	it->read_only = true;
	if (key)
		usb_attach_release(&a);
}

/* the default mode: the largest size of the first format, at its highest rate */
static bool default_mode(const struct video_info *v, struct video_mode *ret)
{
	const struct video_mode *best = NULL;

	for (size_t i = 0; i < v->nmodes; i++) {
		const struct video_mode *m = &v->modes[i];
		uint64_t px = (uint64_t)m->width * m->height;

		if (m->fourcc != v->modes[0].fourcc)
			continue;
		if (!best || px > (uint64_t)best->width * best->height ||
		    (px == (uint64_t)best->width * best->height &&
		     video_mode_fps(m) > video_mode_fps(best)))
			best = m;
	}
	if (best)
		*ret = *best;
	return best != NULL;
}

static int video_prepare(const struct run_options *o, struct run_result *r,
			 struct run_plan_item *it, char **ret_why)
{
	struct video_item *v = calloc(1, sizeof(*v));
	struct strbuf why = STRBUF_INIT;
	int rc;

	(void)o;
	if (!v || !(v->info = calloc(1, sizeof(*v->info))))
		abort();
	it->state = v;
	rc = video_probe_modes(it->path, VIDEO_MODES_FIRST, v->info, ret_why);
	if (rc < 0)
		return rc;
	if (!default_mode(v->info, &v->mode)) {
		strbuf_addf(&why, "'%s' lists no modes (VIDIOC_ENUM_FMT)", it->path);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}
	v->view = (struct uvc_view)UVC_VIEW_INIT;
	if (it->device_key_from_usb) {
		char *no_uvc = NULL;

		/* not a camera's descriptors (or unreadable): captured all the same, without them */
		v->is_uvc = uvc_camera_open(it->device_key, &v->cam, &no_uvc) == 0;
		free(no_uvc);
	}
	(void)r;
	return 0;
}

static double run_seconds(const struct run_options *o)
{
	return o->time_s > 0 ? o->time_s : o->full ? VIDEO_FULL_S : VIDEO_QUICK_S;
}

static void video_estimate(const struct run_options *o, const struct run_plan_item *it,
			   struct estimate *e, struct class_estimate *ret)
{
	const struct video_item *v = class_item(it, &run_class_video);
	double fps = v ? video_mode_fps(&v->mode) : 0;

	(void)e;
	/* the warm-up frames and the start of the stream on top of the counted time */
	*ret = (struct class_estimate){"video", 1,
				       ceil(run_seconds(o) + (fps > 0 ? VIDEO_WARMUP / fps : 1))};
}

/* while frames flow: the alternate setting the driver chose */
static void on_streaming(void *ctx)
{
	struct video_item *v = ctx;

	if (v->is_uvc)
		uvc_camera_read_state(&v->cam);
}

/* what the alternate setting chosen (or the bulk link) carries, MB/s; NaN unknown */
static double stream_ceiling_mb_s(const struct video_item *v)
{
	const struct uvc_streaming_row *row = v->view.nstreaming ? &v->view.streaming[0] : NULL;

	return row && row->ceiling_mb_s > 0 ? row->ceiling_mb_s : NAN;
}

static void add_device(struct run_result *r, struct run_plan_item *it, const struct video_item *v)
{
	struct usb_attach a = {0};
	struct run_device *d;
	char *key;

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	key = usb_key_of(it->path, &a);
	if (key) {
		run_device_attach(d, &a);
		usb_attach_release(&a);
		free(key);
	} else {
		d->product = xstrdup(v->info->card);
		d->driver = xstrdup(v->info->driver);
	}
}

static void add_metrics(struct run_result *r, const struct run_plan_item *it,
			const struct video_item *v, const char *pass)
{
	const struct video_pass *p = &v->pass;
	const struct {
		const char *key;
		double value, ceiling;
	} m[] = {
	    {"fps", p->st.fps, video_mode_fps(&p->set)},
	    {"fps_wall", p->st.fps_wall, video_mode_fps(&p->set)},
	    {"drop_pct", p->st.drop_pct, NAN},
	    {"interval_p99_us", p->st.ival_p99_us, NAN},
	    {"jitter_us", p->st.jitter_us, NAN},
	    {"mb_s", p->st.mb_s, stream_ceiling_mb_s(v)},
	    {"first_frame_ms", p->first_frame_ms, NAN},
	    {"self_cpu_pct", p->self_cpu_pct, NAN},
	    {"cpu_us_per_frame", p->cpu_us_per_frame, NAN},
	    /* on the wire (usbmon): a USB camera's pass unless run --no-monitor */
	    {"wire_mb_s", p->monitored ? p->wire.wire_mb_s : NAN, NAN},
	    {"urb_size", p->monitored && p->wire.urb_size ? (double)p->wire.urb_size : NAN, NAN},
	    {"iso_packet_errors", p->monitored ? (double)p->wire.iso_packet_errors : NAN, NAN},
	    {"usb_errors", p->monitored ? (double)p->wire.errors_total : NAN, NAN},
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct run_metric *rm;

		if (!isfinite(m[i].value))
			continue; /* not measured (one frame has no interval): no row, not a null */
		rm = run_class_add_metric(&r->rec, &run_class_video, it->device_key, pass, m[i].key);
		rm->value = m[i].value;
		rm->repeats = 1;
		rm->cpu_busy_pct = p->sys_cpu_pct;
		if (m[i].ceiling > 0)
			rm->ceiling = m[i].ceiling;
		if (!strcmp(m[i].key, "fps") && p->st.fps_samples) {
			/* how steady the rate was over the pass: what compare holds a change to */
			rm->sample_mean = p->st.fps_sample_mean;
			rm->sample_stdev = p->st.fps_sample_stdev;
			rm->sample_min = p->st.fps_sample_min;
			rm->samples = p->st.fps_samples;
		}
	}
	run_add_pass_sys(&r->rec, &run_class_video, it->device_key, pass, &p->sys, 1);
	/* the histogram's unit is the nominal interval: without one its bins mean nothing */
	if (!(video_mode_fps(&p->set) > 0) || !p->st.frames)
		return;
	for (size_t b = 0; b < VIDEO_HIST_BINS; b++) {
		char key[24];
		struct run_metric *rm;

		snprintf(key, sizeof(key), "interval_bin_%zu", b);
		rm = run_class_add_metric(&r->rec, &run_class_video, it->device_key, pass, key);
		rm->value = (double)p->st.hist[b];
		rm->repeats = 1;
	}
}

/*
 * The pass judged: with UVC descriptors, uvc_view's findings (link, the
 * mode's bandwidth, rate, drops, MJPEG, CPU) less the link's speed, which
 * the topology's usb.full_speed_data_device already judges in run; without,
 * what the capture alone shows.
 */
static void add_findings(struct run_result *r, const struct run_plan_item *it,
			 const struct video_item *v)
{
	const struct finding_list *l = &v->view.findings;
	struct uvc_facts f = {.subject = it->device_key};
	struct uvc_measured m = uvc_view_measured(&v->pass);

	if (!v->is_uvc) {
		uvc_findings(&f, &m, &r->rec.findings);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct finding *x = &l->v[i];

		if (!strcmp(x->id, "uvc.full_speed_link"))
			continue;
		finding_add(&r->rec.findings, !strcmp(x->severity, "warn") ? FINDING_WARN
									    : FINDING_INFO,
			    x->id, it->device_key, x->message, x->evidence, x->fix);
	}
}

static int video_measure(const struct run_options *o, struct run_result *r,
			 struct run_plan_item *it, char **ret_why)
{
	struct video_item *v = class_item(it, &run_class_video);
	struct video_config c = {
	    .dev = it->path,
	    .mode = v->mode,
	    .io = VIDEO_IO_MMAP,
	    .buffers = 4,
	    .time_s = run_seconds(o),
	    .warmup = VIDEO_WARMUP,
	    .timeout_s = 2,
	    .stop = o->stop,
	    .on_streaming = on_streaming,
	    .ctx = v,
	    /* a USB camera's pass watched on usbmon, as a USB disk's is */
	    .monitor = v->is_uvc && !o->no_monitor,
	};
	char name[64];
	int rc;

	rc = video_capture_watched(&c, &v->pass, ret_why);
	if (rc == -EBUSY) {
		char *holder = video_holder(it->path);
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "%s: busy%s%s", it->path, holder ? ": held by " : "",
			    holder ? holder : "");
		free_all(holder, *ret_why);
		*ret_why = strbuf_detach(&w);
	}
	if (rc < 0)
		return rc;
	v->measured = true;
	if (v->is_uvc)
		uvc_view_add_streaming(&v->view, &v->cam, &v->pass);
	if (video_report_add_pass(&v->rep, v->info, &v->pass) < 0)
		abort();
	memcpy(run_class_add_row(r, &run_class_video, sizeof(struct video_row)),
	       &v->rep.rows[v->rep.nrows - 1], sizeof(struct video_row));
	add_device(r, it, v);
	video_mode_str(&v->pass.set, name, sizeof(name));
	add_metrics(r, it, v, name);
	add_findings(r, it, v);
	for (size_t j = 0; j < v->pass.nwarnings; j++)
		run_note(r, "%s: %s", it->path, v->pass.warnings[j]);
	if (v->pass.timeout)
		run_note(r, "%s: no frame for %g s: the pass ended early, its figures are partial",
			 it->path, c.timeout_s);
	if (v->view.nstreaming && v->view.streaming[0].alt != FIELD_INT_UNKNOWN)
		run_note(r, "%s: streamed on alternate setting %lld of interface %llu", it->path,
			 (long long)v->view.streaming[0].alt,
			 (unsigned long long)v->view.streaming[0].ifnum);
	return 0;
}

static void video_release(struct run_plan_item *it)
{
	struct video_item *v = class_item(it, &run_class_video);

	if (!v)
		return;
	free(v->info);
	if (v->is_uvc)
		uvc_camera_release(&v->cam);
	uvc_view_release(&v->view);
	if (v->measured)
		video_pass_release(&v->pass);
	video_report_release(&v->rep);
	free(v);
	it->state = NULL;
}

/* a figure of the device's first camera pass, NULL if not measured */
static const struct run_metric *figure(const struct run_record *r, const char *key,
				       const char *pass, const char *metric)
{
	return run_record_metric(r, key, "video", pass, metric);
}

#define VIDEO_CPU_PCT 85.0   /* usbperf's own CPU, % of one core: the capture is the CPU's */
#define VIDEO_FULL_RATE 0.99 /* achieved this share of nominal: the mode's rate is met */
#define VIDEO_LINK_PCT 90.0  /* the payload this close to what the link carries: the link */

/*
 * A camera's verdict: the rate its mode asks met (the mode is the limit),
 * or missed because the link carries no more, the CPU ran out, or the
 * camera itself (or its driver) delivers less with the link to spare.
 */
static const char *video_verdict(const struct run_record *r, const struct run_device *d,
				 struct strbuf *ev, double *ret_share_pct)
{
	const struct run_metric *fps = figure(r, d->key, NULL, "fps"), *drop, *mb, *cpu;
	double nominal, share = NAN;
	bool full;

	if (!fps) {
		strbuf_adds(ev, "no frame rate was measured");
		return RUN_LIMITER_UNKNOWN;
	}
	drop = figure(r, d->key, fps->name, "drop_pct");
	mb = figure(r, d->key, fps->name, "mb_s");
	cpu = figure(r, d->key, fps->name, "self_cpu_pct");
	nominal = fps->ceiling;
	strbuf_addf(ev, "%s: %.2f fps", fps->name, fps->value);
	if (nominal > 0)
		strbuf_addf(ev, " of the nominal %.4g", nominal);
	if (drop && drop->value > 0)
		strbuf_addf(ev, ", %.1f %% of frames dropped", drop->value);
	else if (drop)
		strbuf_adds(ev, ", no drops");
	if (mb && mb->ceiling > 0) {
		share = 100 * mb->value / mb->ceiling;
		strbuf_addf(ev, "; %.3g MB/s is %.0f %% of the %.3g MB/s its USB stream carries",
			    mb->value, share, mb->ceiling);
	} else if (mb) {
		strbuf_addf(ev, "; %.3g MB/s", mb->value);
	}
	*ret_share_pct = share;
	full = nominal > 0 && fps->value >= VIDEO_FULL_RATE * nominal && !(drop && drop->value > 0);
	if (full) {
		strbuf_adds(ev, ": the mode's rate is met; a faster mode is the only way up");
		return RUN_LIMITER_MODE;
	}
	if (cpu && cpu->value >= VIDEO_CPU_PCT) {
		strbuf_addf(ev, ", with usbperf at %.0f %% of a core: the figure is the CPU's",
			    cpu->value);
		return RUN_LIMITER_CPU;
	}
	if (!(nominal > 0)) {
		strbuf_adds(ev, ": no nominal rate to hold it against");
		return RUN_LIMITER_UNKNOWN;
	}
	if (share >= VIDEO_LINK_PCT) {
		strbuf_adds(ev, ": the alternate setting the driver chose carries no more");
		return RUN_LIMITER_BUS;
	}
	strbuf_adds(ev, isnan(share) ? ": the camera or its driver delivers less (no link ceiling "
				       "known to hold the payload against)"
				     : ": the link has room; the camera or its driver delivers less");
	return RUN_LIMITER_CAMERA;
}

static const struct class_headline video_headline[] = {{"", "fps"}};

const struct measure_class run_class_video = {
    .name = "video",
    .what = "cameras",
    .discover = video_discover_all,
    .claims = video_claims,
    .plan_target = video_plan_target,
    .prepare = video_prepare,
    .estimate = video_estimate,
    .measure = video_measure,
    .release = video_release,
    .metrics = video_metrics,
    .nmetrics = sizeof(video_metrics) / sizeof(video_metrics[0]),
    .verdict = video_verdict,
    .html_section = video_html_section,
    .headline = video_headline,
    .nheadline = sizeof(video_headline) / sizeof(video_headline[0]),
    .row_desc = &video_run_row_desc,
    .row_title = "cameras (MB/s = 10^6 B/s)",
    .row_key = "video",
    .row_size = sizeof(struct video_row),
};

// SPDX-License-Identifier: MIT
/* usbperf video [DEVICE]: V4L2 capture, rate, drops, jitter, bandwidth. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "cmd/paths.h"
#include "cmd/video_gadget.h"
#include "classes/video/fields.h"
#include "classes/video/uvc_view.h"
#include "classes/video/video.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TIME_S 5.0
#define DEFAULT_ALL_MODES_TIME_S 1.0
#define DEFAULT_WARMUP 3
#define DEFAULT_TIMEOUT_S 2.0
#define DEFAULT_BUFFERS 4

void usage_video(void)
{
	printf("usage: usbperf video [DEVICE] [options]\n"
	       "\n"
	       "Capture from a V4L2 node and put the achieved frame rate next to the nominal one:\n"
	       "rate from the driver's timestamps and from the wall clock, dropped frames (gaps\n"
	       "in the sequence numbers, buffers flagged as errors), frame-interval p50/p99/max\n"
	       "and jitter, payload per frame and MB/s, time to the first frame, CPU.\n"
	       "DEVICE is a capture node (/dev/videoN); without it, every capture node under\n"
	       "/dev, USB cameras first, each in its default mode.\n"
	       "\n");
	opt_usage(stdout, video_options);
	printf("\n"
	       "Rates: MB/s = 10^6 B/s. A mode misses its rate when the achieved rate is below\n"
	       "99%% of the nominal one or frames were dropped. Exit: 0 ok, 2 bad input or\n"
	       "refused (nothing written), 3 runtime error or timeout (partial results).\n");
}

struct video_opts {
	uint32_t fourcc;
	uint32_t width, height;
	double fps;
	bool all_modes, list_modes, time_set;
	struct video_config cfg;
};

#include "cmd/video.opts.h"

static int video_opt(int c, const char *arg, void *ctx)
{
	struct video_opts *o = ctx;
	uint64_t v, w, h;

	switch (c) {
	case VIDEO_O_PIXFMT:
		if (video_fourcc_parse(arg, &o->fourcc) < 0) {
			log_error("invalid --pixel-format '%s': expected a FOURCC, e.g. YUYV or MJPG",
				  arg);
			return -EINVAL;
		}
		return 0;
	case VIDEO_O_SIZE_OLD:
	case VIDEO_O_SIZE:
		if (parse_wxh(arg, 65535, &w, &h) < 0) {
			log_error("invalid --frame-size '%s': expected WIDTHxHEIGHT, e.g. 640x480",
				  arg);
			return -EINVAL;
		}
		/* said once the value is good: a bad one gets its one line alone */
		if (c == VIDEO_O_SIZE_OLD)
			log_deprecated("video", "--size", "--frame-size");
		o->width = (uint32_t)w;
		o->height = (uint32_t)h;
		return 0;
	case VIDEO_O_IO:
		if (video_io_parse(arg, &o->cfg.io) < 0) {
			log_error("invalid --io '%s': expected mmap, userptr or dmabuf", arg);
			return -EINVAL;
		}
		return 0;
	case VIDEO_O_BUFFERS:
		if (parse_u64(arg, 1, VIDEO_MAX_BUFFERS, &v) < 0) {
			log_error("invalid --buffers '%s': expected 1..%d", arg, VIDEO_MAX_BUFFERS);
			return -EINVAL;
		}
		o->cfg.buffers = (unsigned)v;
		return 0;
	case VIDEO_O_TIME:
		if (parse_duration(arg, 0.01, 86400, &o->cfg.time_s) < 0) {
			log_error(
			    "invalid --time '%s': expected seconds (0.01..86400), e.g. 5, 500ms",
			    arg);
			return -EINVAL;
		}
		o->time_set = true;
		return 0;
	}
	return -ENOENT;
}

/*
 * --format is the output format, here as everywhere (-F): a pixel format
 * given to it (the spelling this command once took) is refused with a
 * pointer to --pixel-format, before getopt calls it a bad output format
 */
static int refuse_pixel_format(int argc, char **argv)
{
	enum output_format f;

	for (int i = 1; i < argc; i++) {
		const char *v = NULL;

		if (!strcmp(argv[i], "--"))
			break;
		if ((!strcmp(argv[i], "--format") || !strcmp(argv[i], "-F")) && i + 1 < argc)
			v = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			v = argv[i] + 9;
		if (v && format_parse(v, &f) < 0) {
			log_error("invalid --format '%s': the output format is text, json or csv; a "
				  "pixel format is --pixel-format %s",
				  v, v);
			return -1;
		}
	}
	return 0;
}

static bool mode_matches(const struct video_opts *o, const struct video_mode *m)
{
	if (o->fourcc && m->fourcc != o->fourcc)
		return false;
	if (o->width && (m->width != o->width || m->height != o->height))
		return false;
	if (o->fps > 0 && fabs(video_mode_fps(m) - o->fps) > 0.005 * o->fps)
		return false;
	return true;
}

/* a stepwise range (min and max rate of one format and size) that holds o->fps */
static bool stepwise_fps(const struct video_info *v, const struct video_opts *o,
			 const struct video_mode *m)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	for (i = 0; i < v->nmodes; i++) {
		const struct video_mode *x = &v->modes[i];
		if (!x->stepwise || x->fourcc != m->fourcc || x->width != m->width ||
		    x->height != m->height)
			continue;
		lo = fmin(lo, video_mode_fps(x));
		hi = fmax(hi, video_mode_fps(x));
	}
	return o->fps >= lo * 0.995 && o->fps <= hi * 1.005;
}

/* "YUYV 320x180 @30, YUYV 640x360 @30, ... (120 more)" */
static void offered(const struct video_info *v, const struct video_opts *o, struct strbuf *sb)
{
	size_t i, shown = 0, n = 0;
	char buf[64];

	for (i = 0; i < v->nmodes; i++) {
		const struct video_mode *m = &v->modes[i];
		/* what the device has for the parts the user did give right */
		if (o->fourcc && m->fourcc != o->fourcc && i + 1 < v->nmodes)
			continue;
		n++;
		if (shown >= 6)
			continue;
		video_mode_str(m, buf, sizeof(buf));
		strbuf_addf(sb, "%s%s", shown ? ", " : "", buf);
		shown++;
	}
	if (!shown)
		for (i = 0; i < v->nmodes && i < 6; i++, shown++) {
			video_mode_str(&v->modes[i], buf, sizeof(buf));
			strbuf_addf(sb, "%s%s", shown ? ", " : "", buf);
		}
	if (n > shown)
		strbuf_addf(sb, " ... (%zu more; see --list-modes)", n - shown);
}

/* the mode to measure: what was asked, or the default (largest size of the first format, fastest)
 */
static int pick_mode(const struct video_info *v, const struct video_opts *o, struct video_mode *ret)
{
	const struct video_mode *best = NULL;
	uint32_t fourcc = o->fourcc;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!v->nmodes) {
		char cc[5];
		for (i = 0; i < v->nformats && i < 12; i++) {
			video_fourcc_str(v->formats[i], cc);
			strbuf_addf(&sb, "%s%s", i ? ", " : "", cc);
		}
		if (v->nformats > i)
			strbuf_addf(&sb, " ... (%zu more; see --list-modes)", v->nformats - i);
		video_fourcc_str(o->fourcc, cc);
		if (o->fourcc && v->nformats)
			log_error("'%s' does not offer the format %s: it offers %s", v->path, cc,
				  sb.buf);
		else
			log_error("'%s' lists no modes (VIDIOC_ENUM_FMT)", v->path);
		strbuf_release(&sb);
		return -EINVAL;
	}
	if (!fourcc && !o->width)
		fourcc = v->modes[0].fourcc;
	for (i = 0; i < v->nmodes; i++) {
		const struct video_mode *m = &v->modes[i];
		struct video_opts any = *o;
		if (fourcc && m->fourcc != fourcc)
			continue;
		any.fourcc = fourcc;
		any.fps = 0;
		if (!mode_matches(&any, m))
			continue;
		if (o->fps > 0 && !mode_matches(o, m) && !(m->stepwise && stepwise_fps(v, o, m)))
			continue;
		if (!best ||
		    (uint64_t)m->width * m->height > (uint64_t)best->width * best->height ||
		    ((uint64_t)m->width * m->height == (uint64_t)best->width * best->height &&
		     video_mode_fps(m) > video_mode_fps(best)))
			best = m;
	}
	if (!best) {
		char want[80];
		struct video_mode w = {.fourcc = o->fourcc, .width = o->width, .height = o->height};
		if (o->fps > 0) {
			w.fps_num = (uint32_t)lround(o->fps * 1000);
			w.fps_den = 1000;
		}
		video_mode_str(&w, want, sizeof(want));
		if (!o->fourcc)
			memmove(want, want + 5, strlen(want + 5) + 1);
		offered(v, o, &sb);
		log_error("'%s' does not offer %s: it offers %s", v->path, want, sb.buf);
		strbuf_release(&sb);
		return -EINVAL;
	}
	*ret = *best;
	if (o->fps > 0 && best->stepwise && !mode_matches(o, best)) {
		ret->fps_num = (uint32_t)lround(o->fps * 1000);
		ret->fps_den = 1000;
	}
	return 0;
}

static int status_of(int r)
{
	return r == -EINVAL || r == -EBUSY || r == -ENOTSUP || r == -ENOENT || r == -EACCES ||
		       r == -ENODEV || r == -ENXIO || r == -ENOTDIR
		   ? EXIT_USAGE
		   : EXIT_RUNTIME;
}

static void log_capture_error(const char *dev, int r, const char *why)
{
	char *who;

	if (r != -EBUSY) {
		log_error("%s", why ? why : strerror(-r));
		return;
	}
	who = video_holder(dev);
	if (who)
		log_error("'%s' is busy: held by %s", dev, who);
	else
		log_error("'%s' is busy (no process seen holding it: another user's, or the "
			  "kernel's)",
			  dev);
	free(who);
}

/* a USB camera measured: its UVC facts, and the view they go to */
struct usb_part {
	struct uvc_camera cam;
	bool open;
	struct uvc_view *view;
};

/* while frames flow: the alternate setting the driver selected */
static void on_streaming(void *ctx)
{
	uvc_camera_read_state(ctx);
}

/* one pass; 0, or an exit status (logged) */
static int measure(const struct global_opts *g, struct video_opts *o, const struct video_info *info,
		   const struct video_mode *m, struct video_report *rep, bool keep_going,
		   struct usb_part *usb)
{
	struct video_pass p = {0};
	char *why = NULL, name[64];
	size_t i;
	int r;

	o->cfg.dev = info->path;
	o->cfg.mode = *m;
	o->cfg.on_streaming = usb->open ? on_streaming : NULL;
	o->cfg.ctx = usb->open ? &usb->cam : NULL;
	if (g->progress) {
		video_mode_str(m, name, sizeof(name));
		fprintf(stderr, "\r\033[K%s %s ...", info->path, name);
		fflush(stderr);
	}
	r = video_capture_watched(&o->cfg, &p, &why);
	if (g->progress)
		fputs("\r\033[K", stderr);
	if (r < 0) {
		if (!keep_going) {
			log_capture_error(info->path, r, why);
			free(why);
			return status_of(r);
		}
		video_mode_str(m, name, sizeof(name));
		video_report_note(rep, "%s %s not measured: %s", info->path, name,
				  why ? why : strerror(-r));
		free(why);
		return 0;
	}
	r = video_report_add_pass(rep, info, &p);
	if (r == 0 && usb->open)
		uvc_view_add_streaming(usb->view, &usb->cam, &p);
	for (i = 0; r == 0 && i < p.nwarnings; i++)
		r = video_report_note(rep, "%s: %s", info->path, p.warnings[i]);
	video_pass_release(&p);
	if (r < 0) {
		log_error("video: out of memory");
		return EXIT_RUNTIME;
	}
	return 0;
}

static int run_modes(const struct global_opts *g, struct video_opts *o,
		     const struct video_info *info, struct video_report *rep, struct usb_part *usb)
{
	struct video_mode m;
	size_t i;
	int r;

	if (!o->all_modes) {
		if (pick_mode(info, o, &m) < 0)
			return EXIT_USAGE;
		return measure(g, o, info, &m, rep, false, usb);
	}
	for (i = 0; i < info->nmodes && !signal_stop; i++) {
		if (!mode_matches(o, &info->modes[i]))
			continue;
		/* at least 10 intervals, so that one late tick does not make a slow mode miss */
		if (!o->time_set && !o->cfg.frames)
			o->cfg.time_s = fmax(DEFAULT_ALL_MODES_TIME_S,
					     10.0 / fmax(video_mode_fps(&info->modes[i]), 0.1));
		r = measure(g, o, info, &info->modes[i], rep, true, usb);
		if (r)
			return r;
	}
	if (info->modes_dropped)
		video_report_note(
		    rep,
		    "'%s' offers %zu more modes than the %d usbperf keeps: those were not measured",
		    info->path, info->modes_dropped, VIDEO_MAX_MODES);
	return 0;
}

/*
 * The passes of one device; a USB camera's UVC facts (descriptors, the alt
 * setting read while each pass streamed) go to uv. Nodes off USB: none.
 */
static int run_device(const struct global_opts *g, struct video_opts *o,
		      const struct video_info *info, struct video_report *rep, struct uvc_view *uv)
{
	struct usb_part usb = {.view = uv};
	char *why = NULL;
	int r;

	if (o->list_modes)
		return video_report_add_modes(rep, info) < 0 ? EXIT_RUNTIME : 0;
	if (info->usb) {
		if (uvc_camera_open(info->path, &usb.cam, &why) == 0)
			usb.open = true;
		else
			video_report_note(rep, "%s: no USB streaming facts: %s", info->path, why);
		free(why);
	}
	r = run_modes(g, o, info, rep, &usb);
	if (usb.open) {
		uvc_view_add_camera(uv, &usb.cam);
		uvc_camera_release(&usb.cam);
	}
	return r;
}

static int exit_status(const struct video_report *rep)
{
	size_t i;

	if (signal_stop)
		return 128 + signal_stop;
	for (i = 0; i < rep->nrows; i++)
		if (rep->rows[i].timeout)
			return EXIT_RUNTIME;
	return EXIT_OK;
}

void schema_video(struct report *r)
{
	static const struct video_report every = {.nmodes = 1, .nhist = 1, .nrows = 1};
	/* one camera: "uvc" an object; several: a table */
	static const struct uvc_view one = {.ncams = 1, .nstreaming = 1, .nmodes = 1};
	static const struct uvc_view two = {.ncams = 2, .nstreaming = 1, .nmodes = 1};

	video_report_describe(&every, true, r);
	uvc_view_describe(&one, r);
	uvc_view_describe(&two, r);
}

int cmd_video(int argc, char **argv, struct global_opts *g)
{
	struct video_opts o = {
	    .cfg = {.io = VIDEO_IO_MMAP,
		    .buffers = DEFAULT_BUFFERS,
		    .time_s = DEFAULT_TIME_S,
		    .warmup = DEFAULT_WARMUP,
		    .timeout_s = DEFAULT_TIMEOUT_S},
	};
	struct video_report rep = {0};
	struct uvc_view uv = UVC_VIEW_INIT;
	struct report view = {.command = "video"};
	struct video_info *devs = NULL;
	size_t ndevs = 0, i;
	uint32_t which;
	char *why = NULL;
	int r, status = EXIT_USAGE;

	/* the device side of a camera: options of its own */
	if (video_wants_gadget(argc, argv))
		return cmd_video_gadget(argc, argv, g);
	if (video_wants_sweep(argc, argv))
		return cmd_video_sweep(argc, argv, g);
	if (refuse_pixel_format(argc, argv) < 0)
		return EXIT_USAGE;
	r = parse_bound(argc, argv, g, "video", video_options, usage_video, video_binds, video_opt,
			&o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (optind + 1 < argc) {
		log_error("video: unexpected argument '%s' (one DEVICE at a time)",
			  argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (o.all_modes && o.list_modes) {
		log_error("video: --all-modes measures, --list-modes only lists: pick one");
		return EXIT_USAGE;
	}
	if (o.cfg.save && (o.all_modes || optind >= argc)) {
		log_error("video: --save keeps the frames of one pass: name a DEVICE, without "
			  "--all-modes");
		return EXIT_USAGE;
	}
	if (o.all_modes && !o.time_set)
		o.cfg.time_s = DEFAULT_ALL_MODES_TIME_S;
	if (check_output_target(g, optind < argc ? argv[optind] : NULL,
				"the device being measured") < 0)
		return EXIT_USAGE;
	if (o.cfg.save && optind < argc && same_file(o.cfg.save, argv[optind])) {
		log_error("refusing to write --save '%s': it is the device being measured",
			  o.cfg.save);
		return EXIT_USAGE;
	}
	if (o.cfg.save && (check_writable("--save", o.cfg.save) < 0 ||
			   (g->output && same_file(g->output, o.cfg.save)))) {
		if (g->output && same_file(g->output, o.cfg.save))
			log_error("refusing to write --save '%s': it is the --output file",
				  o.cfg.save);
		return EXIT_USAGE;
	}
	/* a directory, a loop, a name too long: bad input, before anything is opened */
	if (optind < argc && input_check("video device", argv[optind], INPUT_DEVICE) < 0)
		return EXIT_USAGE;
	o.cfg.stop = &signal_stop;
	/* enumerate only what is needed: vivid lists 3486 modes */
	if (o.fourcc)
		which = o.fourcc;
	else if (o.list_modes || o.all_modes || o.width)
		which = VIDEO_MODES_ALL;
	else
		which = VIDEO_MODES_FIRST;

	if (optind < argc) {
		devs = calloc(1, sizeof(*devs));
		if (!devs) {
			log_error("video: out of memory");
			return EXIT_RUNTIME;
		}
		r = video_probe_modes(argv[optind], which, devs, &why);
		if (r < 0) {
			log_error("%s", why ? why : strerror(-r));
			status = status_of(r);
			goto out;
		}
		ndevs = 1;
	} else {
		r = video_discover(which, &devs, &ndevs);
		if (r < 0) {
			log_error("video: cannot list /dev: %s", strerror(-r));
			status = EXIT_RUNTIME;
			goto out;
		}
		if (!ndevs) {
			log_error("video: no video capture device under /dev");
			goto out;
		}
	}
	/* --save is registered for removal by the capture, once it has created it */
	for (i = 0; i < ndevs && !signal_stop; i++) {
		r = run_device(g, &o, &devs[i], &rep, &uv);
		/* with no DEVICE named, a device that refuses (logged) does not stop the others */
		if (r && ndevs > 1 && r == EXIT_USAGE && (i + 1 < ndevs || rep.nrows))
			continue;
		if (r) {
			status = r;
			goto out;
		}
	}
	video_report_describe(&rep, g->format != FORMAT_TEXT, &view);
	uvc_view_describe(&uv, &view);
	status = exit_status(&rep);
	if (emit_report(g, &view) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	if (status == EXIT_RUNTIME)
		log_error("video: no frame within --timeout %.1f s: the pass ended early, results "
			  "so far",
			  o.cfg.timeout_s);
out:
	free_all(why, devs);
	video_report_release(&rep);
	uvc_view_release(&uv);
	return status;
}

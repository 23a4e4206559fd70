// SPDX-License-Identifier: MIT
/*
 * usbperf video --gadget PATH --send: the device side of a camera. PATH is a
 * gadgetfs mount, where usbperf is the UVC camera itself (bulk; the daemon
 * `gadget up uvc-bulk` starts), or the V4L2 output node of the kernel's
 * f_uvc, for which usbperf is the frame source (video_fuvc.c).
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "cmd/video_gadget.h"
#include "classes/uvcgadget/uvcg.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

struct gadget_opts {
	const char *path;
	bool send;
	const char *spec;
	const char *stats;
	struct uvcg_ident id;
	double time_s;
	double stall_s;
	bool full_speed;
};


static int one_line(const char *opt, const char *v, const char **dst)
{
	if (!*v || strlen(v) > 126 || strchr(v, '\n')) {
		log_error("video: invalid %s '%s': 1 to 126 characters, one line", opt, v);
		return -EINVAL;
	}
	*dst = v;
	return 0;
}

#include "cmd/video_gadget.opts.h"

static int gadget_opt(int c, const char *arg, void *ctx)
{
	struct gadget_opts *o = ctx;
	uint64_t vid, pid;

	switch (c) {
	case VIDEO_O_ID:
		if (strlen(arg) != 9 || arg[4] != ':' ||
		    parse_hex((char[5]){arg[0], arg[1], arg[2], arg[3], 0}, 0xffff, &vid) < 0 ||
		    parse_hex(arg + 5, 0xffff, &pid) < 0) {
			log_error("video: invalid --id '%s': VID:PID in hex, e.g. 1d6b:0104", arg);
			return -EINVAL;
		}
		o->id.vid = (uint16_t)vid, o->id.pid = (uint16_t)pid;
		return 0;
	case VIDEO_O_SERIAL:
		return one_line("--serial", arg, &o->id.serial);
	case VIDEO_O_PRODUCT:
		return one_line("--product", arg, &o->id.product);
	case VIDEO_O_MANUF:
		return one_line("--manufacturer", arg, &o->id.manufacturer);
	case VIDEO_O_MAXSPEED:
		if (strcmp(arg, "full") && strcmp(arg, "high")) {
			log_error("video: invalid --max-speed '%s': full or high (gadgetfs)", arg);
			return -EINVAL;
		}
		o->full_speed = !strcmp(arg, "full");
		return 0;
	}
	return -ENOENT;
}

/* PATH a gadgetfs mount (its magic) or something else */
static bool is_gadgetfs(const char *path)
{
	struct strbuf real = STRBUF_INIT, p = STRBUF_INIT;
	struct stat st;
	bool r;

	sysroot_path(&real, path);
	r = stat(real.buf, &st) == 0 && S_ISDIR(st.st_mode);
	if (r) {
		/* a mount gadgetfs made holds the UDC's ep0 file and, once bound, ep* files */
		struct name_list l = NAME_LIST_INIT;

		r = sysroot_list(path, &l) == 0 && l.n > 0;
		name_list_release(&l);
	}
	strbuf_release(&real);
	strbuf_release(&p);
	return r;
}

/* the stop flag at --time */
static volatile int stop_flag;

static void *timer_main(void *arg)
{
	double s = *(double *)arg;
	struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};

	nanosleep(&t, NULL);
	stop_flag = 1;
	return NULL;
}

/* the stop flag the server polls: a signal or --time */
static void *signal_watch(void *arg)
{
	(void)arg;
	while (!stop_flag) {
		struct timespec t = {0, 50000000};

		if (signal_stop)
			stop_flag = 1;
		nanosleep(&t, NULL);
	}
	return NULL;
}

int video_gadget_finish(struct uvcg_function *fn, int r, char *why, bool usage,
			struct global_opts *g)
{
	struct report view = {.command = "video --gadget"};
	int status;

	if (r < 0) {
		log_error("video: %s", why ? why : strerror(-r));
		status = usage ? EXIT_USAGE : EXIT_RUNTIME;
	} else {
		uvcg_function_describe(fn, &view);
		status = emit_report(g, &view) < 0 ? EXIT_RUNTIME : EXIT_OK;
		if (signal_stop)
			status = 128 + signal_stop;
	}
	free_all(why, fn);
	return status;
}

static int serve_gadgetfs(struct gadget_opts *o, struct global_opts *g)
{
	struct uvcg_serve_config c = {.dir = o->path, .stats = o->stats, .to_json = render_json, .stop = &stop_flag,
				      .ident = o->id, .stall_s = o->stall_s,
				      .full_speed = o->full_speed};
	struct uvcg_function *fn = calloc(1, sizeof(*fn));
	pthread_t tw, tt;
	char *why = NULL;
	int r;

	if (!fn) {
		log_error("video: out of memory");
		return EXIT_RUNTIME;
	}
	if (o->spec)
		r = uvcg_params_parse(o->spec, &c.params, &why);
	else
		r = uvcg_params_parse("", &c.params, &why);
	if (r < 0) {
		log_error("video: --spec: %s", why);
		free_all(why, fn);
		return EXIT_USAGE;
	}
	if (c.params.stall_ms)
		c.stall_s = (double)c.params.stall_ms / 1000;
	pthread_create(&tw, NULL, signal_watch, NULL);
	if (o->time_s > 0)
		pthread_create(&tt, NULL, timer_main, &o->time_s);
	r = uvcg_serve(&c, fn, &why);
	stop_flag = 1;
	pthread_join(tw, NULL);
	if (o->time_s > 0) {
		pthread_cancel(tt);
		pthread_join(tt, NULL);
	}
	return video_gadget_finish(fn, r, why,
				   r == -EINVAL || r == -ENODEV || r == -EBUSY || r == -E2BIG, g);
}

int cmd_video_gadget(int argc, char **argv, struct global_opts *g)
{
	struct gadget_opts o = {
	    .id = {0x1d6b, 0x0104, "usbperf", "usbperf UVC camera (bulk)", "usbperf", 100},
	    .stall_s = 2.0,
	};
	int r;

	r = parse_bound(argc, argv, g, "video", video_options, usage_video, video_gadget_binds,
			gadget_opt, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (optind < argc) {
		log_error("video: unexpected argument '%s' with --gadget", argv[optind]);
		return EXIT_USAGE;
	}
	if (!o.path || !o.send) {
		log_error("video: the device side needs --gadget PATH and --send");
		return EXIT_USAGE;
	}
	if (check_output_target(g, o.path, "the camera's device side") < 0)
		return EXIT_USAGE;
	if (o.stats && (check_writable("--stats", o.stats) < 0 ||
			(g->output && same_file(g->output, o.stats)))) {
		if (g->output && same_file(g->output, o.stats))
			log_error("refusing to write --stats '%s': it is the --output file",
				  o.stats);
		return EXIT_USAGE;
	}
	if (video_fuvc_is_node(o.path))
		return video_fuvc_send(o.path, o.spec, o.stats, o.time_s, g);
	if (!is_gadgetfs(o.path)) {
		log_error("video: --gadget '%s' is neither a gadgetfs mount (usbperf gadget up "
			  "uvc-bulk) nor a V4L2 output node of f_uvc",
			  o.path);
		return EXIT_USAGE;
	}
	return serve_gadgetfs(&o, g);
}

/* an option of the device side among the options: its parser takes them all */
bool video_wants_gadget(int argc, char **argv)
{
	static const char *const own[] = {"--gadget", "--send",	   "--spec",	     "--stats",
					  "--id",     "--serial",  "--product",	     "--manufacturer",
					  "--stall",  "--max-speed"};
	int i;
	size_t k;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		for (k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
			size_t n = strlen(own[k]);

			if (!strncmp(argv[i], own[k], n) && (!argv[i][n] || argv[i][n] == '='))
				return true;
		}
	return false;
}

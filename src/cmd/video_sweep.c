// SPDX-License-Identifier: MIT
/*
 * usbperf video --uvc-sweep SPEC: the guide's table of frame size x format
 * x rate, through usbperf's own bulk camera on this machine's UDC and the
 * host side's uvcvideo (classes/uvcgadget/sweep.h).
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "cmd/video_gadget.h"
#include "classes/uvcgadget/sweep.h"
#include "util/parse.h"
#include "util/signals.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_TIME_S 2.0
#define SWEEP_WARMUP 2

struct sweep_opts {
	const char *spec;
	double time_s;
	unsigned warmup;
	bool monitor;
};

#include "cmd/video_sweep.opts.h"


static void progress(void *ctx, const char *mode)
{
	(void)ctx;
	fprintf(stderr, "\r\033[Kuvc sweep: %s ...", mode);
	fflush(stderr);
}

/* the sweep's status: 3 when a mode was not measured, 128+N after a signal */
static int sweep_status(const struct uvcg_sweep *s)
{
	size_t i;

	if (signal_stop)
		return 128 + signal_stop;
	for (i = 0; i < s->n; i++)
		if (!s->rows[i].measured)
			return EXIT_RUNTIME;
	return EXIT_OK;
}

int cmd_video_sweep(int argc, char **argv, struct global_opts *g)
{
	struct sweep_opts o = {.time_s = SWEEP_TIME_S, .warmup = SWEEP_WARMUP};
	struct uvcg_sweep_config c = {.fs = &gadget_fs_real, .stop = &signal_stop};
	struct report view = {.command = "video --uvc-sweep"};
	struct uvcg_sweep *s;
	char *why = NULL;
	int r, status;

	r = parse_bound(argc, argv, g, "video", video_options, usage_video, video_sweep_binds, NULL,
			&o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (optind < argc) {
		log_error("video: --uvc-sweep measures this machine's own camera: no DEVICE ('%s')",
			  argv[optind]);
		return EXIT_USAGE;
	}
	/* the whole sweep need not fit one gadget: each frame size is one */
	if (uvcg_params_read(o.spec, &c.p, &why) < 0) {
		log_error("video: --uvc-sweep: %s", why);
		free(why);
		return EXIT_USAGE;
	}
	if (c.p.stream_frames) {
		log_error("video: --uvc-sweep: stream_frames is the sweep's own (--time)");
		return EXIT_USAGE;
	}
	if (check_output(g) < 0)
		return EXIT_USAGE;
	c.time_s = o.time_s;
	c.warmup = o.warmup;
	c.monitor = o.monitor;
	if (g->progress)
		c.progress = progress;
	s = calloc(1, sizeof(*s));
	if (!s) {
		log_error("video: out of memory");
		return EXIT_RUNTIME;
	}
	r = uvcg_sweep_run(&c, s, &why);
	if (g->progress)
		fputs("\r\033[K", stderr);
	if (r < 0) {
		log_error("video: --uvc-sweep: %s", why ? why : strerror(-r));
		free(why);
		uvcg_sweep_release(s);
		free(s);
		return r == -ENODEV || r == -ENOENT || r == -EBUSY || r == -EEXIST || r == -EINVAL
			   ? EXIT_USAGE
			   : EXIT_RUNTIME;
	}
	uvcg_sweep_describe(s, &view);
	status = sweep_status(s);
	if (emit_report(g, &view) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	uvcg_sweep_release(s);
	free(s);
	return status;
}

bool video_wants_sweep(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--uvc-sweep") || !strncmp(argv[i], "--uvc-sweep=", 12))
			return true;
	return false;
}

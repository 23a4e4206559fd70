// SPDX-License-Identifier: MIT
/*
 * video --gadget /dev/videoN --send: the frame source of the kernel's f_uvc
 * (or of another V4L2 output node), classes/uvcgadget/fuvc.h.
 */
#include "cmd/video_gadget.h"
#include "classes/uvcgadget/fuvc.h"
#include "util/signals.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#define V4L2_MAJOR 81

bool video_fuvc_is_node(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == V4L2_MAJOR;
}

static volatile int stop_flag;

/* the stop the source polls: a signal, or --time */
static void *watch(void *arg)
{
	double left = *(double *)arg;

	while (!stop_flag) {
		struct timespec t = {0, 50000000};

		if (signal_stop || (left > 0 && (left -= 0.05) <= 0))
			stop_flag = 1;
		nanosleep(&t, NULL);
	}
	return NULL;
}

int video_fuvc_send(const char *node, const char *spec, const char *stats, double time_s,
		    struct global_opts *g)
{
	struct uvcg_fuvc_config c = {.node = node, .spec = spec, .stats = stats, .to_json = render_json,
				     .stop = &stop_flag};
	struct uvcg_function *fn = calloc(1, sizeof(*fn));
	pthread_t th;
	char *why = NULL;
	int r;

	if (!fn) {
		log_error("video: out of memory");
		return EXIT_RUNTIME;
	}
	if (!uvcg_fuvc_is_output(node)) {
		log_error("video: --gadget '%s' is not a V4L2 output node (f_uvc's is one)", node);
		free(fn);
		return EXIT_USAGE;
	}
	pthread_create(&th, NULL, watch, &time_s);
	r = uvcg_fuvc_serve(&c, fn, &why);
	stop_flag = 1;
	pthread_join(th, NULL);
	return video_gadget_finish(fn, r, why, r == -EINVAL || r == -EBUSY || r == -ENOENT, g);
}

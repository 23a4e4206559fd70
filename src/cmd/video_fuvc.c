// SPDX-License-Identifier: MIT
/* video --gadget /dev/videoN --send: the frame source of the kernel's f_uvc (part 2: to come). */
#include "cmd/video_gadget.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

bool video_fuvc_is_node(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 81;
}

int video_fuvc_send(const char *node, double time_s, struct global_opts *g)
{
	(void)node, (void)time_s, (void)g;
	log_error("video: --gadget on an f_uvc node is not built yet");
	return EXIT_RUNTIME;
}

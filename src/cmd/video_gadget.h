/* SPDX-License-Identifier: MIT */
#pragma once
/* video --gadget: the device side of a camera (video_gadget.c, video_fuvc.c). */
#include "cmd/commands.h"

#include <stdbool.h>

struct uvcg_function;

/* --gadget is among the options: cmd_video hands over to cmd_video_gadget */
bool video_wants_gadget(int argc, char **argv);
int cmd_video_gadget(int argc, char **argv, struct global_opts *g);
/* path is a V4L2 output node (the f_uvc function's) */
bool video_fuvc_is_node(const char *path);
/*
 * The end of serving a camera's function fn: r < 0 logs why (or r) and gives
 * EXIT_USAGE when usage, else EXIT_RUNTIME; 0 reports fn's streams, the exit
 * status 128 + a signal that ended it. Frees fn and why.
 */
int video_gadget_finish(struct uvcg_function *fn, int r, char *why, bool usage,
			struct global_opts *g);
/*
 * the frame source of f_uvc on node: events answered, frames queued at the committed rate
 * (another output node: the spec's mode); until SIGINT/SIGTERM or time_s (0: none)
 */
int video_fuvc_send(const char *node, const char *spec, const char *stats, double time_s,
		    struct global_opts *g);
/* --uvc-sweep: the table of frame size x format x rate through usbperf's own camera */
bool video_wants_sweep(int argc, char **argv);
int cmd_video_sweep(int argc, char **argv, struct global_opts *g);

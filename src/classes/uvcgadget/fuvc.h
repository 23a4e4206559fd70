/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The frame source of the kernel's f_uvc (usb_f_uvc: the isochronous UVC
 * function boards ship): its V4L2 output node gives the host's class
 * requests as events (UVC_EVENT_SETUP, and UVC_EVENT_DATA with a SET_CUR's
 * data), answered here by the same negotiation as usbperf's own camera
 * (ctrl.c) through UVCIOC_SEND_RESPONSE; at UVC_EVENT_STREAMON the committed
 * format and size are set and frames queued at the committed interval
 * (pace.c), the same frames (frames.c) and the same figures (uvcg.h's
 * uvcg_stats) as usbperf's own camera; UVC_EVENT_STREAMOFF ends the stream.
 *
 * Any other V4L2 output node (vivid's, a loopback) is streamed the mode of
 * the spec's first format, size and rate, without events: the queueing,
 * pacing and accounting on a real kernel object where no isochronous UDC is.
 * Not streamed on a real f_uvc here: no virtual UDC carries isochronous
 * endpoints (LAB.md).
 */
#include "classes/uvcgadget/uvcg.h"

struct uvcg_fuvc_config {
	const char *node;	  /* /dev/videoN */
	const char *spec;	  /* uvc-bulk's keys: the mode of a plain output node; maxpayload */
	const char *stats;	  /* the figures as JSON, rewritten each second; NULL none */
	int (*to_json)(const struct report *r, struct strbuf *out); /* as uvcg_serve_config's */
	const volatile int *stop;
	unsigned buffers;	  /* buffers queued (default 4) */
};

/*
 * Serve until *stop (a plain node: until its stream_frames are queued and
 * taken, or *stop). -EINVAL with why: not an output node, a format it does
 * not offer; -EBUSY; others.
 */
int uvcg_fuvc_serve(const struct uvcg_fuvc_config *c, struct uvcg_function *ret, char **ret_why);
/* node is a V4L2 device with an output queue */
bool uvcg_fuvc_is_output(const char *node);

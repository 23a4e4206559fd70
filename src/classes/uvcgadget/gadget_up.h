/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * gadget up uvc-bulk: usbperf's own UVC camera, a gadgetfs device (see
 * uvcg.h for why not FunctionFS). up mounts gadgetfs, starts
 * `usbperf video --gadget MOUNT --send` as the daemon that serves it and
 * waits until the descriptors bound a UDC; every step goes into the state
 * file first (mntdir, mount, file, proc), so down undoes it like any other
 * gadget: the daemon stopped (it closes ep0: the host sees the camera go),
 * its files removed, gadgetfs unmounted. configfs is not touched.
 */
#include "classes/gadget/build.h"
#include "util/strbuf.h"

#define UVCG_MOUNT "/dev/gadget"
#define UVCG_READY_MS 10000 /* its frames are made (MJPG encoded) before it binds */

/* the tunables of f make a camera that fits: -EINVAL with why */
int uvcg_spec_check(const struct gadget_fn_spec *f, char **ret_why);
/* the camera of s (its only function), as gadget_up (build.h) */
int uvcg_gadget_up(const struct gadget_spec *s, const struct gadget_fs *fs,
		   struct gadget_built *ret, char **ret_why);
/* the daemon's figures file of gadget dir: GADGET_STATE_DIR "/uvc-<dir>.json" */
void uvcg_stats_path(struct strbuf *out, const char *dir);

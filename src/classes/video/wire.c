// SPDX-License-Identifier: MIT
/* A camera's pass watched on usbmon: the USB device behind the V4L2 node. */
#include "platform/usb/attach.h"
#include "classes/video/video.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void note(struct video_pass *p, const struct strbuf *why)
{
	char *s = NULL;

	if (p->nwarnings < VIDEO_MAX_WARNINGS &&
	    asprintf(&s, "not monitored on the wire: %s", why->len ? why->buf : "?") >= 0)
		p->warnings[p->nwarnings++] = s;
}

int video_capture_watched(const struct video_config *c, struct video_pass *ret, char **ret_why)
{
	struct strbuf why = STRBUF_INIT;
	struct usbmon_pass *mon = NULL;
	struct usb_attach a = {0};
	unsigned bus, dev;
	int r;

	if (c->monitor) {
		if (usb_attach_for_node(c->dev, &a) < 0 || !a.device)
			strbuf_addf(&why, "'%s' is not on USB", c->dev);
		else if ((r = usbmon_device_numbers(a.device, &bus, &dev)) < 0)
			strbuf_addf(&why, "bus and device numbers of USB device '%s' not read: %s",
				    a.device, strerror(-r));
		else if (usbmon_pass_start(bus, dev, false, &mon, &why) < 0)
			mon = NULL;
		usb_attach_release(&a);
	}
	r = video_capture(c, ret, ret_why);
	if (mon) {
		struct strbuf stop = STRBUF_INIT;

		if (usbmon_pass_stop(mon, &ret->wire, &stop) == 0 && r == 0)
			ret->monitored = true;
		else if (r == 0)
			note(ret, &stop);
		strbuf_release(&stop);
	} else if (c->monitor && r == 0) {
		note(ret, &why);
	}
	strbuf_release(&why);
	return r;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the class requests a UVC host sends to usbperf's camera
 * (classes/uvcgadget/ctrl.c), the bytes of ep0 (setup packets and SET_CUR data)
 * from whoever is on the other end of the cable. The input is a run of
 * requests: 8 setup bytes, then for an OUT request wLength bytes of data (what
 * is left when shorter). Whatever the host sends, an answer never exceeds
 * wLength or the buffer, the negotiated probe and commit always name a format,
 * frame and interval the camera offers, and the controls stay in range.
 */
#include "classes/uvcgadget/uvcg.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool offered(const struct uvcg_params *p, const struct uvcg_probe *pr)
{
	unsigned i;

	if (pr->format < 1 || pr->format > p->nformats || pr->frame < 1 ||
	    pr->frame > p->nframes)
		return false;
	for (i = 0; i < p->nfps; i++)
		if (pr->interval == uvcg_interval(p->fps[i]))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct uvcg_params p;
	struct uvcg_ctrl c;
	char *why = NULL;

	if (uvcg_params_parse("frames=320x240+640x480,fps=30+15+5,formats=yuyv", &p, &why) < 0)
		abort();
	uvcg_ctrl_init(&c, &p);
	while (size >= 8) {
		struct uvcg_setup s = {data[0], data[1], (uint16_t)(data[2] | data[3] << 8),
				       (uint16_t)(data[4] | data[5] << 8),
				       (uint16_t)(data[6] | data[7] << 8)};
		uint8_t out[64];
		size_t n;
		int r;

		data += 8, size -= 8;
		if (s.type & 0x80) {
			/* a short buffer on purpose: the answer must fit it and wLength */
			r = uvcg_ctrl_in(&c, &s, out, 40);
			if (r > 40 || r > s.length)
				abort();
			continue;
		}
		n = s.length < size ? s.length : size;
		r = uvcg_ctrl_out(&c, &s, data, n);
		if (r == 1 && !c.committed)
			abort();
		data += n, size -= n;
	}
	if (!offered(&p, &c.probe) || !offered(&p, &c.commit))
		abort();
	if (c.brightness < -64 || c.brightness > 64 || c.contrast > 95)
		abort();
	return 0;
}

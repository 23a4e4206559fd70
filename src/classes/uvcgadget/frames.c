// SPDX-License-Identifier: MIT
/*
 * The frames the camera sends: colour bars with a white bar that moves a
 * step per frame, made once per format and size (a ring of UVCG_RING) and
 * sent in turn, so the CPU a stream costs is the sending's, not the
 * drawing's. MJPG frames are the same pictures encoded by libjpeg.
 */
#include "classes/uvcgadget/uvcg.h"
#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* BT.601 colour bars (Y, U, V): white, yellow, cyan, green, magenta, red, blue, black */
static const uint8_t bars[8][3] = {
    {235, 128, 128}, {210, 16, 146}, {170, 166, 16}, {145, 54, 34},
    {106, 202, 222}, {81, 90, 240},  {41, 240, 110}, {16, 128, 128},
};

static void draw(uint8_t *p, struct uvcg_size s, unsigned k, unsigned n)
{
	unsigned x, y, bar = s.width / 16 ? s.width / 16 : 2;
	unsigned pos = (unsigned)((uint64_t)s.width * k / (n ? n : 1)) & ~1u;
	size_t stride = (size_t)s.width * 2;

	/* vertical bars: every row is the first one */
	for (x = 0; x < s.width; x += 2) {
		const uint8_t *c = bars[(x * 8) / s.width];
		bool white = x >= pos && x < pos + bar;

		p[2 * x] = white ? 235 : c[0];
		p[2 * x + 1] = white ? 128 : c[1];
		p[2 * x + 2] = white ? 235 : c[0];
		p[2 * x + 3] = white ? 128 : c[2];
	}
	for (y = 1; y < s.height; y++)
		memcpy(p + y * stride, p, stride);
}

void uvcg_frames_release(struct uvcg_frames *f)
{
	unsigned i;

	for (i = 0; i < f->n; i++)
		free(f->buf[i]);
	*f = (struct uvcg_frames){0};
}

int uvcg_frames_make(struct uvcg_frames *f, enum uvcg_format format, struct uvcg_size s)
{
	uint64_t bytes = uvcg_frame_bytes_yuyv(&s), t0 = clock_now_ns();
	unsigned i, n;
	int r = 0;

	if (format == UVCG_MJPG && !uvcg_have_jpeg())
		return -ENOTSUP;
	if (!bytes)
		return -EINVAL;
	n = (unsigned)(UVCG_RING_BYTES / bytes);
	n = n < 1 ? 1 : n > UVCG_RING ? UVCG_RING : n;
	*f = (struct uvcg_frames){.format = format, .size = s};
	for (i = 0; i < n && r == 0; i++) {
		uint8_t *p = malloc(bytes);

		if (!p) {
			r = -ENOMEM;
			break;
		}
		draw(p, s, i, n);
		if (format == UVCG_MJPG) {
			uint8_t *jpg = NULL;
			size_t len = 0;

			r = uvcg_jpeg_encode(p, s, UVCG_JPEG_QUALITY, &jpg, &len);
			free(p);
			p = jpg;
			f->len[i] = len;
		} else {
			f->len[i] = bytes;
		}
		if (r == 0)
			f->buf[f->n++] = p;
	}
	if (r < 0)
		uvcg_frames_release(f);
	else
		f->make_s = (double)(clock_now_ns() - t0) / 1e9;
	return r;
}

const uint8_t *uvcg_frames_get(const struct uvcg_frames *f, uint64_t slot, size_t *ret_len)
{
	unsigned i = f->n ? (unsigned)(slot % f->n) : 0;

	if (!f->n) {
		*ret_len = 0;
		return NULL;
	}
	*ret_len = f->len[i];
	return f->buf[i];
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the UVC decoder (uvc_parse, over the descriptor walk),
 * its bandwidth arithmetic on every frame it found, the findings over them,
 * and the debugfs stats parser. The first byte is the link speed (modulo the
 * speed count); the rest is <dev>/descriptors. The seeds in corpus/fuzz_uvc
 * are the unit tests' camera fixtures, written by
 * "test_uvc --write-corpus DIR".
 */
#include "platform/usb/uvc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct uvc_info info;

static void check_alt(const struct uvc_stream *s, const struct uvc_alt *a)
{
	if (a->derivation[sizeof(a->derivation) - 1] || a->why[sizeof(a->why) - 1])
		abort();
	if (a->xfer != UVC_XFER_ISOC && !isnan(a->bus_Bps))
		abort();
	/* a figure, or a reason why not */
	if (a->xfer == UVC_XFER_ISOC && isnan(a->bus_Bps) == !a->why[0])
		abort();
	if (a->xfer != UVC_XFER_NONE && (a->mult < 1 || a->mult > 4 || a->max_packet > 2047))
		abort();
	if (s->bulk && (s->n_alts != 1 || a->xfer != UVC_XFER_BULK))
		abort();
}

static void check_frame(const struct uvc_frame *fr, enum usb_speed speed)
{
	const struct uvc_format *f;
	struct uvc_need n;
	struct finding_list l = FINDING_LIST_INIT;
	struct uvc_measured m = {30, 12, 3, 1e5, 1e7, 99};
	struct uvc_facts facts = {"f", &info, 0, 1, USB_SPEED_HIGH, fr, 0, false};

	if (fr->format >= info.n_formats || fr->n_intervals > UVC_MAX_INTERVALS)
		abort();
	f = &info.formats[fr->format];
	if (f->stream >= info.n_streams || fr < &info.frames[f->first_frame] ||
	    fr >= &info.frames[f->first_frame + f->n_frames])
		abort();
	facts.stream = f->stream;
	if (uvc_mode_need(&info, fr, 0, true, &n) == 0 &&
	    (!(n.frame_bytes > 0) || !(n.fps > 0) || n.smallest_alt > 255 || n.largest_alt > 255))
		abort();
	(void)uvc_mode_need(&info, fr, 1, false, &n);
	uvc_findings(&facts, &m, &l);
	finding_list_release(&l);
	(void)speed;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum usb_speed speed;
	struct uvc_kv kv[UVC_MAX_STATS];
	uint8_t *copy;
	char *text;
	unsigned k, j;

	if (size < 1)
		return 0;
	speed = (enum usb_speed)(data[0] % USB_SPEED_COUNT);
	/* exact-size heap copies, so ASan catches a read one byte past the end */
	copy = malloc(size - 1 ? size - 1 : 1);
	memcpy(copy, data + 1, size - 1);
	if (uvc_parse(copy, size - 1, speed, &info) == 0) {
		if (info.n_streams > UVC_MAX_STREAMS || info.n_formats > UVC_MAX_FORMATS ||
		    info.n_frames > UVC_MAX_FRAMES || !info.n_streams)
			abort();
		for (k = 0; k < info.n_streams; k++) {
			const struct uvc_stream *s = &info.streams[k];

			if (s->n_alts > UVC_MAX_ALTS)
				abort();
			for (j = 0; j < s->n_alts; j++)
				check_alt(s, &s->alts[j]);
		}
		for (k = 0; k < info.n_formats; k++)
			if (strlen(info.formats[k].fourcc) != 4)
				abort();
		for (k = 0; k < info.n_frames; k++)
			check_frame(&info.frames[k], speed);
	}
	free(copy);

	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	k = uvc_parse_stats(text, kv, UVC_MAX_STATS);
	if (k > UVC_MAX_STATS)
		abort();
	for (j = 0; j < k; j++)
		if (strlen(kv[j].name) >= sizeof(kv[j].name) ||
		    strlen(kv[j].value) >= sizeof(kv[j].value))
			abort();
	free(text);
	return 0;
}

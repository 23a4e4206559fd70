// SPDX-License-Identifier: MIT
/*
 * The descriptors of a UVC 1.1 camera with one bulk video endpoint: an
 * interface association, VideoControl (camera terminal -> processing unit
 * -> output terminal, no status endpoint) and VideoStreaming with a single
 * alternate setting (uvcvideo streams bulk when there is only one), one
 * format descriptor per format with a frame descriptor per size, each with
 * every rate as a discrete interval.
 */
#include "classes/uvcgadget/uvcg.h"

#include <errno.h>
#include <string.h>

/* sizes (UVC 1.1, sections 3.6, 3.7.2, 3.9.2; USB Video Payload Uncompressed and MJPEG) */
#define CONFIG_LEN 9
#define IAD_LEN 8
#define IF_LEN 9
#define VC_HEADER_LEN 13 /* one streaming interface */
#define CT_CONTROLS 3
#define CT_LEN (15 + CT_CONTROLS)
#define PU_CONTROLS 2
#define PU_LEN (10 + PU_CONTROLS)
#define OT_LEN 9
#define VS_HEADER_LEN(p) (13 + (p))
#define FMT_YUYV_LEN 27
#define FMT_MJPG_LEN 11
#define FRAME_LEN(n) (26 + 4 * (n))
#define EP_LEN 7
#define VC_CLASS_LEN (VC_HEADER_LEN + CT_LEN + PU_LEN + OT_LEN)

/* bmControls of the processing unit: brightness (bit 0) and contrast (bit 1) */
#define PU_BM_CONTROLS 0x0003

/* YUY2: 32595559-0000-0010-8000-00AA00389B71 */
static const uint8_t guid_yuy2[16] = {0x59, 0x55, 0x59, 0x32, 0x00, 0x00, 0x10, 0x00,
				      0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71};

struct out {
	uint8_t *b;
	size_t len, cap;
};

static void put8(struct out *o, unsigned v)
{
	if (o->len < o->cap)
		o->b[o->len] = (uint8_t)v;
	o->len++;
}

static void put16(struct out *o, unsigned v)
{
	put8(o, v & 0xff);
	put8(o, (v >> 8) & 0xff);
}

static void put32(struct out *o, uint32_t v)
{
	put16(o, v & 0xffff);
	put16(o, v >> 16);
}

static void set16(struct out *o, size_t at, unsigned v)
{
	if (at + 1 < o->cap) {
		o->b[at] = (uint8_t)(v & 0xff);
		o->b[at + 1] = (uint8_t)((v >> 8) & 0xff);
	}
}

static size_t vs_class_len(const struct uvcg_params *p)
{
	size_t n = VS_HEADER_LEN(p->nformats);
	unsigned i;

	for (i = 0; i < p->nformats; i++)
		n += (p->formats[i] == UVCG_YUYV ? FMT_YUYV_LEN : FMT_MJPG_LEN) +
		     p->nframes * FRAME_LEN(p->nfps);
	return n;
}

size_t uvcg_desc_size(const struct uvcg_params *p)
{
	return CONFIG_LEN + IAD_LEN + IF_LEN + VC_CLASS_LEN + IF_LEN + vs_class_len(p) + EP_LEN;
}

static void put_control(struct out *o)
{
	/* VideoControl interface: no endpoint */
	put8(o, IF_LEN), put8(o, 0x04), put8(o, UVCG_IF_CONTROL), put8(o, 0), put8(o, 0);
	put8(o, 0x0e), put8(o, 0x01), put8(o, 0x00), put8(o, 0);
	/* VC_HEADER */
	put8(o, VC_HEADER_LEN), put8(o, 0x24), put8(o, 0x01);
	put16(o, 0x0110), put16(o, VC_CLASS_LEN), put32(o, UVCG_CLOCK_HZ);
	put8(o, 1), put8(o, UVCG_IF_STREAMING);
	/* VC_INPUT_TERMINAL: a camera, no camera controls */
	put8(o, CT_LEN), put8(o, 0x24), put8(o, 0x02), put8(o, UVCG_ID_CAMERA);
	put16(o, 0x0201), put8(o, 0), put8(o, 0);
	put16(o, 0), put16(o, 0), put16(o, 0);
	put8(o, CT_CONTROLS), put8(o, 0), put8(o, 0), put8(o, 0);
	/* VC_PROCESSING_UNIT (1.1: bmVideoStandards last) */
	put8(o, PU_LEN), put8(o, 0x24), put8(o, 0x05), put8(o, UVCG_ID_PROCESSING);
	put8(o, UVCG_ID_CAMERA), put16(o, 0), put8(o, PU_CONTROLS), put16(o, PU_BM_CONTROLS);
	put8(o, 0), put8(o, 0);
	/* VC_OUTPUT_TERMINAL: USB streaming */
	put8(o, OT_LEN), put8(o, 0x24), put8(o, 0x03), put8(o, UVCG_ID_OUTPUT);
	put16(o, 0x0101), put8(o, 0), put8(o, UVCG_ID_PROCESSING), put8(o, 0);
}

static void put_frame(struct out *o, const struct uvcg_params *p, enum uvcg_format f,
		      unsigned index)
{
	const struct uvcg_size *s = &p->frames[index];
	uint64_t bytes = uvcg_frame_bytes_yuyv(s);
	uint32_t lo = p->fps[0], hi = p->fps[0];
	uint32_t iv[UVCG_MAX_FPS];
	unsigned i, j;

	for (i = 0; i < p->nfps; i++) {
		iv[i] = uvcg_interval(p->fps[i]);
		lo = p->fps[i] < lo ? p->fps[i] : lo;
		hi = p->fps[i] > hi ? p->fps[i] : hi;
	}
	/* the shortest interval first, as cameras list them */
	for (i = 1; i < p->nfps; i++)
		for (j = i; j > 0 && iv[j] < iv[j - 1]; j--) {
			uint32_t t = iv[j];

			iv[j] = iv[j - 1];
			iv[j - 1] = t;
		}
	put8(o, FRAME_LEN(p->nfps)), put8(o, 0x24), put8(o, f == UVCG_YUYV ? 0x05 : 0x07);
	put8(o, index + 1), put8(o, 0), put16(o, s->width), put16(o, s->height);
	put32(o, (uint32_t)(bytes * 8 * lo)), put32(o, (uint32_t)(bytes * 8 * hi));
	put32(o, (uint32_t)bytes), put32(o, uvcg_interval(p->fps[0]));
	put8(o, p->nfps);
	for (i = 0; i < p->nfps; i++)
		put32(o, iv[i]);
}

static void put_streaming(struct out *o, const struct uvcg_params *p, unsigned max_packet)
{
	unsigned i, j;

	/* VideoStreaming interface: its only alternate setting carries the bulk endpoint */
	put8(o, IF_LEN), put8(o, 0x04), put8(o, UVCG_IF_STREAMING), put8(o, 0), put8(o, 1);
	put8(o, 0x0e), put8(o, 0x02), put8(o, 0x00), put8(o, 0);
	/* VS_INPUT_HEADER */
	put8(o, VS_HEADER_LEN(p->nformats)), put8(o, 0x24), put8(o, 0x01), put8(o, p->nformats);
	put16(o, (unsigned)vs_class_len(p)), put8(o, UVCG_EP_ADDRESS), put8(o, 0);
	put8(o, UVCG_ID_OUTPUT), put8(o, 0), put8(o, 0), put8(o, 0), put8(o, 1);
	for (i = 0; i < p->nformats; i++)
		put8(o, 0);
	for (i = 0; i < p->nformats; i++) {
		if (p->formats[i] == UVCG_YUYV) {
			put8(o, FMT_YUYV_LEN), put8(o, 0x24), put8(o, 0x04), put8(o, i + 1);
			put8(o, p->nframes);
			for (j = 0; j < sizeof(guid_yuy2); j++)
				put8(o, guid_yuy2[j]);
			put8(o, 16), put8(o, 1), put8(o, 0), put8(o, 0), put8(o, 0), put8(o, 0);
		} else {
			put8(o, FMT_MJPG_LEN), put8(o, 0x24), put8(o, 0x06), put8(o, i + 1);
			put8(o, p->nframes), put8(o, 0), put8(o, 1);
			put8(o, 0), put8(o, 0), put8(o, 0), put8(o, 0);
		}
		for (j = 0; j < p->nframes; j++)
			put_frame(o, p, p->formats[i], j);
	}
	/* the bulk IN endpoint */
	put8(o, EP_LEN), put8(o, 0x05), put8(o, UVCG_EP_ADDRESS), put8(o, 0x02);
	put16(o, max_packet), put8(o, 0);
}

static size_t put_config(uint8_t *buf, const struct uvcg_params *p, const struct uvcg_ident *id,
			 unsigned max_packet)
{
	struct out o = {.b = buf, .cap = UVCG_CONFIG_MAX};
	unsigned ma = id->max_power_ma;

	/* bus powered, no remote wakeup: gadgetfs refuses a configuration with it */
	put8(&o, CONFIG_LEN), put8(&o, 0x02), put16(&o, 0), put8(&o, 2), put8(&o, 1);
	put8(&o, 0), put8(&o, 0x80), put8(&o, (ma > 500 ? 500 : ma) / 2);
	/* the interface association: a video interface collection */
	put8(&o, IAD_LEN), put8(&o, 0x0b), put8(&o, UVCG_IF_CONTROL), put8(&o, 2);
	put8(&o, 0x0e), put8(&o, 0x03), put8(&o, 0x00), put8(&o, 0);
	put_control(&o);
	put_streaming(&o, p, max_packet);
	set16(&o, 2, (unsigned)o.len);
	return o.len;
}

int uvcg_desc_build(const struct uvcg_params *p, const struct uvcg_ident *id,
		    struct uvcg_desc *ret, char **ret_why)
{
	struct uvcg_desc d = {0};
	struct out dev = {.b = d.dev, .cap = sizeof(d.dev)};
	struct out e;
	int r = uvcg_params_check(p, ret_why);

	if (r < 0)
		return r;
	d.fs_len = put_config(d.fs, p, id, 64);
	d.hs_len = put_config(d.hs, p, id, 512);
	/* a composite device with an interface association (USB IAD ECN) */
	put8(&dev, 18), put8(&dev, 0x01), put16(&dev, 0x0200), put8(&dev, 0xef), put8(&dev, 0x02);
	put8(&dev, 0x01), put8(&dev, 64), put16(&dev, id->vid), put16(&dev, id->pid);
	put16(&dev, 0x0100), put8(&dev, 1), put8(&dev, 2), put8(&dev, 3), put8(&dev, 1);
	e = (struct out){.b = d.ep_fs, .cap = sizeof(d.ep_fs)};
	put8(&e, EP_LEN), put8(&e, 0x05), put8(&e, UVCG_EP_ADDRESS), put8(&e, 0x02);
	put16(&e, 64), put8(&e, 0);
	e = (struct out){.b = d.ep_hs, .cap = sizeof(d.ep_hs)};
	put8(&e, EP_LEN), put8(&e, 0x05), put8(&e, UVCG_EP_ADDRESS), put8(&e, 0x02);
	put16(&e, 512), put8(&e, 0);
	*ret = d;
	return 0;
}

void uvcg_desc_gadgetfs(const struct uvcg_desc *d, bool high, struct strbuf *out)
{
	static const uint8_t tag0[4] = {0, 0, 0, 0};

	strbuf_add(out, tag0, sizeof(tag0));
	strbuf_add(out, d->fs, d->fs_len);
	if (high)
		strbuf_add(out, d->hs, d->hs_len);
	strbuf_add(out, d->dev, sizeof(d->dev));
}

void uvcg_desc_gadgetfs_ep(const struct uvcg_desc *d, struct strbuf *out)
{
	/* a host-order u32: 1 */
	uint32_t tag = 1;

	strbuf_add(out, &tag, sizeof(tag));
	strbuf_add(out, d->ep_fs, sizeof(d->ep_fs));
	strbuf_add(out, d->ep_hs, sizeof(d->ep_hs));
}

int uvcg_desc_string(const struct uvcg_ident *id, unsigned index, uint8_t *out, size_t cap)
{
	const char *s;
	size_t i, n;

	if (index == 0) {
		if (cap < 4)
			return -EINVAL;
		out[0] = 4, out[1] = 0x03, out[2] = 0x09, out[3] = 0x04;
		return 4;
	}
	s = index == 1 ? id->manufacturer : index == 2 ? id->product : index == 3 ? id->serial
										  : NULL;
	if (!s)
		return -EINVAL;
	n = strlen(s);
	/* ASCII as UTF-16LE; a descriptor holds at most 126 characters */
	if (n > 126)
		n = 126;
	if (cap < 2 + 2 * n)
		n = cap < 2 ? 0 : (cap - 2) / 2;
	if (cap < 2)
		return -EINVAL;
	out[0] = (uint8_t)(2 + 2 * n), out[1] = 0x03;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		out[2 + 2 * i] = c < 0x80 ? c : '?';
		out[3 + 2 * i] = 0;
	}
	return (int)(2 + 2 * n);
}

// SPDX-License-Identifier: MIT
/*
 * UVC descriptors: descriptors.c walks the configuration (interfaces,
 * endpoints, companions) and marks where each alt setting's class-specific
 * descriptors lie; this file decodes those (VC header, VS input header,
 * formats, frames) and the video endpoint of every VS alt setting.
 * Layouts: USB Video Class 1.5, sections 3.7-3.9 and the payload-format
 * specifications (uncompressed, MJPEG, frame based).
 */
#include "platform/usb/descriptors.h"
#include "platform/usb/uvc_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CLASS_VIDEO 0x0e
#define SC_VIDEOCONTROL 0x01
#define SC_VIDEOSTREAMING 0x02
#define CS_INTERFACE 0x24

#define VC_HEADER 0x01
#define VS_INPUT_HEADER 0x01
#define VS_FORMAT_UNCOMPRESSED 0x04
#define VS_FRAME_UNCOMPRESSED 0x05
#define VS_FORMAT_MJPEG 0x06
#define VS_FRAME_MJPEG 0x07
#define VS_FORMAT_FRAME_BASED 0x10
#define VS_FRAME_FRAME_BASED 0x11

/* the shortest each can be and still hold the fields read */
#define VC_HEADER_MIN 5
#define INPUT_HEADER_MIN 7
#define FORMAT_GUID_MIN 22 /* through bBitsPerPixel */
#define FORMAT_MJPEG_MIN 5 /* through bNumFrameDescriptors */
#define FRAME_MIN 26	   /* the fixed part before the intervals */

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

const char *uvc_flag_name(unsigned flag)
{
	switch (flag) {
	case UVC_F_DESC:
		return "descriptors";
	case UVC_F_SHORT:
		return "short";
	case UVC_F_LIMIT:
		return "limit";
	case UVC_F_ORPHAN:
		return "orphan-frame";
	case UVC_F_BAD_EP:
		return "bad-endpoint";
	case UVC_F_NUM_FRAMES:
		return "num-frames";
	default:
		return "unknown";
	}
}

const char *uvc_xfer_name(enum uvc_xfer x)
{
	return x == UVC_XFER_ISOC ? "isochronous" : x == UVC_XFER_BULK ? "bulk" : "none";
}

const char *uvc_format_kind_name(enum uvc_format_kind k)
{
	return k == UVC_FMT_UNCOMPRESSED ? "uncompressed"
	       : k == UVC_FMT_MJPEG	 ? "mjpeg"
					 : "frame-based";
}

static bool is_vs(const struct usb_desc_interface *i)
{
	return i->cls == CLASS_VIDEO && i->subclass == SC_VIDEOSTREAMING;
}

static struct uvc_stream *stream_for(struct uvc_info *info, unsigned ifnum)
{
	struct uvc_stream *s;
	unsigned k;

	for (k = 0; k < info->n_streams; k++)
		if (info->streams[k].ifnum == ifnum)
			return &info->streams[k];
	if (info->n_streams >= UVC_MAX_STREAMS) {
		info->flags |= UVC_F_LIMIT;
		return NULL;
	}
	s = &info->streams[info->n_streams++];
	memset(s, 0, sizeof(*s));
	s->ifnum = (uint8_t)ifnum;
	return s;
}

/* "YUY2" from the GUID's first four bytes; unprintable bytes become '?' */
static void guid_fourcc(const uint8_t *guid, char *out)
{
	int k;

	for (k = 0; k < 4; k++)
		out[k] = guid[k] >= 0x20 && guid[k] < 0x7f ? (char)guid[k] : '?';
	out[4] = '\0';
}

static void on_format(struct uvc_info *info, unsigned stream, const uint8_t *d, uint8_t dl)
{
	struct uvc_format *f;
	bool guid = d[2] != VS_FORMAT_MJPEG;

	if (dl < (guid ? FORMAT_GUID_MIN : FORMAT_MJPEG_MIN)) {
		info->flags |= UVC_F_SHORT;
		return;
	}
	if (info->n_formats >= UVC_MAX_FORMATS) {
		info->flags |= UVC_F_LIMIT;
		return;
	}
	f = &info->formats[info->n_formats++];
	memset(f, 0, sizeof(*f));
	f->stream = stream;
	f->index = d[3];
	f->n_declared = d[4];
	f->first_frame = info->n_frames;
	if (!guid) {
		f->kind = UVC_FMT_MJPEG;
		memcpy(f->fourcc, "MJPG", 5);
		return;
	}
	f->kind = d[2] == VS_FORMAT_UNCOMPRESSED ? UVC_FMT_UNCOMPRESSED : UVC_FMT_FRAME_BASED;
	memcpy(f->guid, d + 5, 16);
	guid_fourcc(f->guid, f->fourcc);
	f->bits_per_pixel = d[21];
}

static void on_frame(struct uvc_info *info, unsigned stream, const uint8_t *d, uint8_t dl)
{
	struct uvc_format *f = info->n_formats ? &info->formats[info->n_formats - 1] : NULL;
	bool frame_based = d[2] == VS_FRAME_FRAME_BASED;
	struct uvc_frame *fr;
	unsigned n, k, off;

	if (dl < FRAME_MIN) {
		info->flags |= UVC_F_SHORT;
		return;
	}
	/* a frame belongs to the format before it, of the same kind and stream */
	if (!f || f->stream != stream || (f->kind == UVC_FMT_FRAME_BASED) != frame_based ||
	    (f->kind == UVC_FMT_MJPEG) != (d[2] == VS_FRAME_MJPEG)) {
		info->flags |= UVC_F_ORPHAN;
		return;
	}
	if (info->n_frames >= UVC_MAX_FRAMES) {
		info->flags |= UVC_F_LIMIT;
		return;
	}
	fr = &info->frames[info->n_frames++];
	memset(fr, 0, sizeof(*fr));
	fr->format = (unsigned)(f - info->formats);
	fr->index = d[3];
	fr->width = le16(d + 5);
	fr->height = le16(d + 7);
	fr->max_bitrate = le32(d + 13);
	if (frame_based) {
		fr->default_interval = le32(d + 17);
		fr->n_declared = d[21];
	} else {
		fr->max_frame_bytes = le32(d + 17);
		fr->default_interval = le32(d + 21);
		fr->n_declared = d[25];
	}
	f->n_frames++;
	fr->continuous = fr->n_declared == 0;
	n = fr->continuous ? 3 : fr->n_declared;
	if (n > UVC_MAX_INTERVALS) {
		info->flags |= UVC_F_LIMIT;
		n = UVC_MAX_INTERVALS;
	}
	for (k = 0, off = 26; k < n; k++, off += 4) {
		if (off + 4 > dl) {
			info->flags |= UVC_F_SHORT;
			break;
		}
		fr->intervals[fr->n_intervals++] = le32(d + off);
	}
}

static void on_vs_cs(struct uvc_info *info, unsigned stream, const uint8_t *d, uint8_t dl)
{
	struct uvc_stream *s = &info->streams[stream];

	switch (d[2]) {
	case VS_INPUT_HEADER:
		if (dl < INPUT_HEADER_MIN) {
			info->flags |= UVC_F_SHORT;
			break;
		}
		s->n_formats_declared = d[3];
		s->header_ep = d[6];
		break;
	case VS_FORMAT_UNCOMPRESSED:
	case VS_FORMAT_MJPEG:
	case VS_FORMAT_FRAME_BASED:
		on_format(info, stream, d, dl);
		break;
	case VS_FRAME_UNCOMPRESSED:
	case VS_FRAME_MJPEG:
	case VS_FRAME_FRAME_BASED:
		on_frame(info, stream, d, dl);
		break;
	default: /* still image frames, color matching, MPEG2-TS, DV...: not needed */
		break;
	}
}

/* The class-specific descriptors of one alt setting; the span holds whole descriptors. */
static void walk_extra(struct uvc_info *info, const uint8_t *buf, size_t len,
		       const struct usb_desc_interface *i, unsigned stream, bool vs)
{
	size_t q = i->extra_off, end = i->extra_end;

	if (!i->n_extra || end > len || q >= end)
		return;
	while (end - q >= 3) {
		const uint8_t *d = buf + q;
		uint8_t dl = d[0];

		if (dl < 3 || dl > end - q)
			break;
		if (d[1] == CS_INTERFACE && vs)
			on_vs_cs(info, stream, d, dl);
		else if (d[1] == CS_INTERFACE && d[2] == VC_HEADER && dl >= VC_HEADER_MIN &&
			 !info->bcd_uvc)
			info->bcd_uvc = le16(d + 3);
		q += dl;
	}
}

/* The video endpoint: the one the input header names, else the first isochronous or bulk IN. */
static const struct usb_desc_endpoint *video_ep(const struct usb_desc_interface *i, uint8_t want)
{
	const struct usb_desc_endpoint *first = NULL;
	size_t k;

	for (k = 0; k < i->n_eps; k++) {
		const struct usb_desc_endpoint *e = &i->eps[k];

		if (!e->in || (e->type != USB_XFER_ISOC && e->type != USB_XFER_BULK))
			continue;
		if (want && e->address == want)
			return e;
		if (!first)
			first = e;
	}
	return first;
}

static void add_alt(struct uvc_info *info, struct uvc_stream *s, const struct usb_desc_interface *i)
{
	const struct usb_desc_endpoint *e;
	struct uvc_alt *a;

	if (s->n_alts >= UVC_MAX_ALTS) {
		info->flags |= UVC_F_LIMIT;
		return;
	}
	a = &s->alts[s->n_alts++];
	memset(a, 0, sizeof(*a));
	a->alt = i->alt;
	/* figures only for isochronous endpoints (uvc_alt_compute) */
	a->period_us = a->bytes_per_interval = a->bus_Bps = a->payload_Bps = NAN;
	e = video_ep(i, s->header_ep);
	if (!e)
		return;
	a->xfer = e->type == USB_XFER_ISOC ? UVC_XFER_ISOC : UVC_XFER_BULK;
	a->ep_address = e->address;
	a->max_packet_raw = e->max_packet_raw;
	a->max_packet = e->max_packet;
	a->mult = e->mult;
	a->interval = e->interval;
	a->has_ss_comp = e->has_ss_comp;
	a->max_burst = e->max_burst;
	a->ss_mult = e->ss_mult;
	a->ss_bytes_per_interval = e->bytes_per_interval;
}

static const struct usb_desc_config *video_config(const struct usb_desc_device *d)
{
	size_t c, k;

	for (c = 0; c < d->n_configs; c++)
		for (k = 0; k < d->configs[c].n_intfs; k++)
			if (is_vs(&d->configs[c].intfs[k]))
				return &d->configs[c];
	return NULL;
}

static void decode(struct uvc_info *info, const uint8_t *buf, size_t len,
		   const struct usb_desc_config *c)
{
	size_t k;
	unsigned n;

	/* the input header (in alt 0) names the video endpoint: decode it before the alts */
	for (k = 0; k < c->n_intfs; k++) {
		const struct usb_desc_interface *i = &c->intfs[k];
		struct uvc_stream *s;

		if (i->cls != CLASS_VIDEO)
			continue;
		if (i->subclass == SC_VIDEOCONTROL) {
			if (!info->has_control)
				info->control_ifnum = i->number;
			info->has_control = true;
			walk_extra(info, buf, len, i, 0, false);
		}
		if (!is_vs(i) || !(s = stream_for(info, i->number)))
			continue;
		walk_extra(info, buf, len, i, (unsigned)(s - info->streams), true);
	}
	for (k = 0; k < c->n_intfs; k++) {
		const struct usb_desc_interface *i = &c->intfs[k];
		struct uvc_stream *s =
		    is_vs(i) ? (struct uvc_stream *)uvc_stream_by_ifnum(info, i->number) : NULL;

		if (s)
			add_alt(info, s, i);
	}
	for (n = 0; n < info->n_formats; n++)
		if (info->formats[n].n_frames != info->formats[n].n_declared)
			info->flags |= UVC_F_NUM_FRAMES;
}

static void compute(struct uvc_info *info)
{
	unsigned n, k;

	for (n = 0; n < info->n_streams; n++) {
		struct uvc_stream *s = &info->streams[n];

		for (k = 0; k < s->n_alts; k++) {
			if (s->alts[k].xfer == UVC_XFER_ISOC)
				uvc_alt_compute(info->speed, &s->alts[k]);
			if (s->alts[k].why[0])
				info->flags |= UVC_F_BAD_EP;
		}
		/* UVC 1.5 2.4.3: a bulk video endpoint lives in the only alt setting */
		s->bulk = s->n_alts == 1 && s->alts[0].xfer == UVC_XFER_BULK;
		if (s->bulk)
			s->bulk_Bps = uvc_bulk_ceiling_Bps(info->speed);
	}
}

int uvc_parse(const uint8_t *buf, size_t len, enum usb_speed speed, struct uvc_info *ret)
{
	struct usb_desc_device d;
	const struct usb_desc_config *c;
	struct uvc_info *info;
	int r;

	r = usb_desc_parse(buf, len, speed >= USB_SPEED_SS, &d);
	if (r < 0)
		return r;
	c = video_config(&d);
	if (!c) {
		usb_desc_release(&d);
		return -ENOENT;
	}
	/* decoded aside, so ret stays untouched on failure */
	info = calloc(1, sizeof(*info));
	if (!info) {
		usb_desc_release(&d);
		return -ENOMEM;
	}
	info->speed = speed;
	info->bcd_usb = d.bcd_usb;
	info->vendor = d.vendor;
	info->product = d.product;
	info->config = c->value;
	info->desc_flags = d.flags;
	if (d.flags)
		info->flags |= UVC_F_DESC;
	decode(info, buf, len, c);
	compute(info);
	usb_desc_release(&d);
	*ret = *info;
	free(info);
	return 0;
}

const struct uvc_stream *uvc_stream_by_ifnum(const struct uvc_info *info, unsigned ifnum)
{
	unsigned k;

	for (k = 0; info && k < info->n_streams; k++)
		if (info->streams[k].ifnum == ifnum)
			return &info->streams[k];
	return NULL;
}

const struct uvc_frame *uvc_find_frame(const struct uvc_info *info, const char *fourcc, unsigned w,
				       unsigned h)
{
	unsigned k;

	for (k = 0; info && k < info->n_frames; k++) {
		const struct uvc_frame *fr = &info->frames[k];

		if (fr->width == w && fr->height == h &&
		    !strcmp(info->formats[fr->format].fourcc, fourcc))
			return fr;
	}
	return NULL;
}

const struct uvc_alt *uvc_find_alt(const struct uvc_stream *s, int alt)
{
	unsigned k;

	for (k = 0; s && alt >= 0 && k < s->n_alts; k++)
		if (s->alts[k].alt == alt)
			return &s->alts[k];
	return NULL;
}

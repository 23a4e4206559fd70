// SPDX-License-Identifier: MIT
/*
 * The class requests a UVC host sends to ep0 (UVC 1.1, 4.2 and 4.3): the
 * probe/commit negotiation on the VideoStreaming interface, the processing
 * unit's brightness and contrast, and the request error code control.
 * Everything from the host is checked: lengths, indices, ranges.
 */
#include "classes/uvcgadget/uvcg.h"

#include <errno.h>
#include <string.h>

#define SET_CUR 0x01
#define GET_CUR 0x81
#define GET_MIN 0x82
#define GET_MAX 0x83
#define GET_RES 0x84
#define GET_LEN 0x85
#define GET_INFO 0x86
#define GET_DEF 0x87

#define VS_PROBE 0x01
#define VS_COMMIT 0x02
#define VC_REQUEST_ERROR_CODE 0x02
#define PU_BRIGHTNESS 0x02
#define PU_CONTRAST 0x03

/* bRequestErrorCode (4.2.1.2) */
#define ERR_NONE 0x00
#define ERR_WRONG_STATE 0x02
#define ERR_OUT_OF_RANGE 0x04
#define ERR_INVALID_UNIT 0x05
#define ERR_INVALID_CONTROL 0x06
#define ERR_INVALID_REQUEST 0x07

#define PROBE_SIZE_10 26 /* a UVC 1.0 host's probe */
#define INFO_GET_SET 0x03

static const struct {
	uint8_t selector;
	int32_t min, max, def, res;
} pu_controls[] = {
    {PU_BRIGHTNESS, -64, 64, 0, 1},
    {PU_CONTRAST, 0, 95, 32, 1},
};

void uvcg_ctrl_init(struct uvcg_ctrl *c, const struct uvcg_params *p)
{
	*c = (struct uvcg_ctrl){.p = p, .if_control = UVCG_IF_CONTROL,
				.if_streaming = UVCG_IF_STREAMING, .brightness = 0, .contrast = 32};
	c->probe.format = 1, c->probe.frame = 1;
	uvcg_probe_fit(p, &c->probe);
	c->commit = c->probe;
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

void uvcg_probe_pack(const struct uvcg_probe *pr, uint8_t out[UVCG_PROBE_SIZE])
{
	memset(out, 0, UVCG_PROBE_SIZE);
	out[0] = (uint8_t)pr->hint, out[1] = (uint8_t)(pr->hint >> 8);
	out[2] = pr->format, out[3] = pr->frame;
	put32(out + 4, pr->interval);
	out[8] = (uint8_t)pr->key_frame_rate, out[9] = (uint8_t)(pr->key_frame_rate >> 8);
	out[10] = (uint8_t)pr->p_frame_rate, out[11] = (uint8_t)(pr->p_frame_rate >> 8);
	out[12] = (uint8_t)pr->comp_quality, out[13] = (uint8_t)(pr->comp_quality >> 8);
	out[14] = (uint8_t)pr->comp_window, out[15] = (uint8_t)(pr->comp_window >> 8);
	out[16] = (uint8_t)pr->delay, out[17] = (uint8_t)(pr->delay >> 8);
	put32(out + 18, pr->max_frame);
	put32(out + 22, pr->max_payload);
	put32(out + 26, pr->clock);
	out[30] = pr->framing, out[31] = pr->preferred, out[32] = pr->min_version;
	out[33] = pr->max_version;
}

void uvcg_probe_unpack(const uint8_t *in, size_t len, struct uvcg_probe *ret)
{
	uint8_t b[UVCG_PROBE_SIZE] = {0};

	memcpy(b, in, len < sizeof(b) ? len : sizeof(b));
	*ret = (struct uvcg_probe){
	    .hint = (uint16_t)(b[0] | b[1] << 8),
	    .format = b[2],
	    .frame = b[3],
	    .interval = le32(b + 4),
	    .key_frame_rate = (uint16_t)(b[8] | b[9] << 8),
	    .p_frame_rate = (uint16_t)(b[10] | b[11] << 8),
	    .comp_quality = (uint16_t)(b[12] | b[13] << 8),
	    .comp_window = (uint16_t)(b[14] | b[15] << 8),
	    .delay = (uint16_t)(b[16] | b[17] << 8),
	    .max_frame = le32(b + 18),
	    .max_payload = le32(b + 22),
	    .clock = le32(b + 26),
	    .framing = b[30],
	    .preferred = b[31],
	    .min_version = b[32],
	    .max_version = b[33],
	};
}

enum uvcg_format uvcg_probe_format(const struct uvcg_params *p, const struct uvcg_probe *pr)
{
	unsigned i = pr->format >= 1 && pr->format <= p->nformats ? pr->format - 1u : 0;

	return p->formats[i];
}

struct uvcg_size uvcg_probe_size(const struct uvcg_params *p, const struct uvcg_probe *pr)
{
	unsigned i = pr->frame >= 1 && pr->frame <= p->nframes ? pr->frame - 1u : 0;

	return p->frames[i];
}

/* the offered interval nearest to asked; 0 asks for the default */
static uint32_t fit_interval(const struct uvcg_params *p, uint32_t asked)
{
	uint32_t best = uvcg_interval(p->fps[0]);
	uint64_t dist = UINT64_MAX;
	unsigned i;

	if (!asked)
		return best;
	for (i = 0; i < p->nfps; i++) {
		uint32_t iv = uvcg_interval(p->fps[i]);
		uint64_t d = iv > asked ? iv - asked : asked - iv;

		if (d < dist)
			dist = d, best = iv;
	}
	return best;
}

void uvcg_probe_fit(const struct uvcg_params *p, struct uvcg_probe *pr)
{
	struct uvcg_size s;

	if (pr->format < 1 || pr->format > p->nformats)
		pr->format = 1;
	if (pr->frame < 1 || pr->frame > p->nframes)
		pr->frame = 1;
	s = uvcg_probe_size(p, pr);
	pr->interval = fit_interval(p, pr->interval);
	if (pr->comp_quality > 10000)
		pr->comp_quality = 10000;
	pr->delay = 0;
	pr->max_frame = (uint32_t)uvcg_frame_bytes_yuyv(&s);
	pr->max_payload = p->max_payload;
	pr->clock = UVCG_CLOCK_HZ;
	/* FID toggles at each frame; EOF is set on each frame's last payload */
	pr->framing = 0x03;
	pr->preferred = pr->min_version = pr->max_version = 0;
}

static int put_value(uint8_t *out, size_t cap, int32_t v, size_t len)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)((uint32_t)v >> 8)};

	len = len < cap ? len : cap;
	memcpy(out, b, len);
	return (int)len;
}

static int stall(struct uvcg_ctrl *c, uint8_t error)
{
	c->error = error;
	c->stalls++;
	return -EPIPE;
}

static int probe_in(struct uvcg_ctrl *c, uint8_t sel, uint8_t req, uint8_t *out, size_t cap)
{
	struct uvcg_probe pr;
	uint8_t b[UVCG_PROBE_SIZE];
	size_t n;

	switch (req) {
	case GET_CUR:
		pr = sel == VS_PROBE ? c->probe : c->commit;
		break;
	case GET_MIN:
	case GET_MAX:
	case GET_DEF:
		/* the first format and frame; the shortest, longest or default interval */
		pr = (struct uvcg_probe){.format = 1, .frame = 1};
		pr.interval = req == GET_MIN ? 1 : req == GET_MAX ? UINT32_MAX : 0;
		pr.comp_quality = req == GET_MAX ? 10000 : 0;
		uvcg_probe_fit(c->p, &pr);
		break;
	case GET_LEN:
		return put_value(out, cap, UVCG_PROBE_SIZE, 2);
	case GET_INFO:
		return put_value(out, cap, INFO_GET_SET, 1);
	default:
		return stall(c, ERR_INVALID_REQUEST);
	}
	uvcg_probe_pack(&pr, b);
	n = cap < sizeof(b) ? cap : sizeof(b);
	memcpy(out, b, n);
	return (int)n;
}

static int pu_in(struct uvcg_ctrl *c, uint8_t sel, uint8_t req, uint8_t *out, size_t cap)
{
	unsigned i;

	for (i = 0; i < sizeof(pu_controls) / sizeof(pu_controls[0]); i++) {
		if (pu_controls[i].selector != sel)
			continue;
		switch (req) {
		case GET_CUR:
			return put_value(out, cap,
					 sel == PU_BRIGHTNESS ? c->brightness : c->contrast, 2);
		case GET_MIN:
			return put_value(out, cap, pu_controls[i].min, 2);
		case GET_MAX:
			return put_value(out, cap, pu_controls[i].max, 2);
		case GET_DEF:
			return put_value(out, cap, pu_controls[i].def, 2);
		case GET_RES:
			return put_value(out, cap, pu_controls[i].res, 2);
		case GET_LEN:
			return put_value(out, cap, 2, 2);
		case GET_INFO:
			return put_value(out, cap, INFO_GET_SET, 1);
		default:
			return stall(c, ERR_INVALID_REQUEST);
		}
	}
	return stall(c, ERR_INVALID_CONTROL);
}

int uvcg_ctrl_in(struct uvcg_ctrl *c, const struct uvcg_setup *s, uint8_t *out, size_t cap)
{
	uint8_t sel = (uint8_t)(s->value >> 8), iface = (uint8_t)s->index,
		entity = (uint8_t)(s->index >> 8);
	int r;

	c->requests++;
	/* class, interface, device to host */
	if (s->type != 0xa1)
		return stall(c, ERR_INVALID_REQUEST);
	cap = cap < s->length ? cap : s->length;
	if (iface == c->if_streaming && entity == 0 && (sel == VS_PROBE || sel == VS_COMMIT))
		r = probe_in(c, sel, s->request, out, cap);
	else if (iface == c->if_control && entity == 0 && sel == VC_REQUEST_ERROR_CODE &&
		 (s->request == GET_CUR || s->request == GET_INFO))
		/* the code of the last request: read, it is not one itself */
		return s->request == GET_CUR ? put_value(out, cap, c->error, 1)
					     : put_value(out, cap, 0x01, 1);
	else if (iface == c->if_control && entity == UVCG_ID_PROCESSING)
		r = pu_in(c, sel, s->request, out, cap);
	else if (iface == c->if_control && (entity == UVCG_ID_CAMERA || entity == UVCG_ID_OUTPUT))
		r = stall(c, ERR_INVALID_CONTROL);
	else
		r = stall(c, iface == c->if_control ? ERR_INVALID_UNIT : ERR_INVALID_CONTROL);
	if (r >= 0)
		c->error = ERR_NONE;
	return r;
}

static int pu_out(struct uvcg_ctrl *c, uint8_t sel, const uint8_t *data, size_t len)
{
	unsigned i;
	int32_t v;

	for (i = 0; i < sizeof(pu_controls) / sizeof(pu_controls[0]); i++) {
		if (pu_controls[i].selector != sel)
			continue;
		if (len != 2)
			return stall(c, ERR_OUT_OF_RANGE);
		v = sel == PU_BRIGHTNESS ? (int16_t)(data[0] | data[1] << 8)
					 : (int32_t)(data[0] | data[1] << 8);
		if (v < pu_controls[i].min || v > pu_controls[i].max)
			return stall(c, ERR_OUT_OF_RANGE);
		if (sel == PU_BRIGHTNESS)
			c->brightness = (int16_t)v;
		else
			c->contrast = (uint16_t)v;
		c->error = ERR_NONE;
		return 0;
	}
	return stall(c, ERR_INVALID_CONTROL);
}

int uvcg_ctrl_out(struct uvcg_ctrl *c, const struct uvcg_setup *s, const uint8_t *data,
		  size_t len)
{
	uint8_t sel = (uint8_t)(s->value >> 8), iface = (uint8_t)s->index,
		entity = (uint8_t)(s->index >> 8);
	struct uvcg_probe pr;

	c->requests++;
	if (s->type != 0x21 || s->request != SET_CUR)
		return stall(c, ERR_INVALID_REQUEST);
	if (iface == c->if_control && entity == UVCG_ID_PROCESSING)
		return pu_out(c, sel, data, len);
	if (iface != c->if_streaming || entity != 0 || (sel != VS_PROBE && sel != VS_COMMIT))
		return stall(c, iface == c->if_control ? ERR_INVALID_UNIT : ERR_INVALID_CONTROL);
	if (len < PROBE_SIZE_10 || len > UVCG_PROBE_SIZE)
		return stall(c, ERR_OUT_OF_RANGE);
	uvcg_probe_unpack(data, len, &pr);
	uvcg_probe_fit(c->p, &pr);
	c->error = ERR_NONE;
	if (sel == VS_PROBE) {
		c->probe = pr;
		c->probes++;
		return 0;
	}
	c->commit = pr;
	c->committed = true;
	c->commits++;
	return 1;
}

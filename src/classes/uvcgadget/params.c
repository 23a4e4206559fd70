// SPDX-License-Identifier: MIT
/* The tunables of usbperf's UVC camera: frame sizes, rates, formats, payload size. */
#include "classes/uvcgadget/uvcg.h"
#include "util/parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[] = {"yuyv", "mjpg"};
static const char *const format_cc[] = {"YUYV", "MJPG"};

const char *uvcg_format_name(enum uvcg_format f)
{
	return format_names[f == UVCG_MJPG];
}

const char *uvcg_format_fourcc(enum uvcg_format f)
{
	return format_cc[f == UVCG_MJPG];
}

void uvcg_params_default(struct uvcg_params *p)
{
	*p = (struct uvcg_params){
	    .formats = {UVCG_YUYV},
	    .nformats = 1,
	    .frames = {{640, 360}},
	    .nframes = 1,
	    .fps = {30},
	    .nfps = 1,
	    .max_payload = UVCG_MAXPAYLOAD_DEF,
	};
}

uint64_t uvcg_frame_bytes_yuyv(const struct uvcg_size *s)
{
	return (uint64_t)s->width * s->height * 2;
}

uint32_t uvcg_interval(uint32_t fps)
{
	return fps ? (10000000u + fps / 2) / fps : 0;
}

/* calls one(item) for each '+'-separated item of v: the first error */
static int each_item(const char *v, unsigned max, int (*one)(const char *item, void *ctx),
		     void *ctx)
{
	struct strbuf item = STRBUF_INIT;
	unsigned n = 0;
	int r = 0;

	if (!*v)
		return -EINVAL;
	while (r == 0 && *v) {
		size_t len = strcspn(v, "+");

		strbuf_reset(&item);
		strbuf_add(&item, v, len);
		r = ++n > max ? -E2BIG : one(item.buf, ctx);
		v += len;
		if (*v == '+' && !*++v)
			r = -EINVAL;
	}
	strbuf_release(&item);
	return r;
}

static int one_frame(const char *item, void *ctx)
{
	struct uvcg_params *p = ctx;
	uint64_t w, h;
	unsigned i;

	if (parse_wxh(item, UVCG_MAX_SIDE, &w, &h) < 0 || w % 2)
		return -EINVAL;
	for (i = 0; i < p->nframes; i++)
		if (p->frames[i].width == w && p->frames[i].height == h)
			return -EEXIST;
	p->frames[p->nframes++] = (struct uvcg_size){(uint16_t)w, (uint16_t)h};
	return 0;
}

static int one_fps(const char *item, void *ctx)
{
	struct uvcg_params *p = ctx;
	uint64_t v;
	unsigned i;

	if (parse_u64(item, 1, 240, &v) < 0)
		return -EINVAL;
	for (i = 0; i < p->nfps; i++)
		if (p->fps[i] == v)
			return -EEXIST;
	p->fps[p->nfps++] = (uint32_t)v;
	return 0;
}

static int one_format(const char *item, void *ctx)
{
	struct uvcg_params *p = ctx;
	enum uvcg_format f;
	unsigned i;

	if (!strcmp(item, "yuyv"))
		f = UVCG_YUYV;
	else if (!strcmp(item, "mjpg") || !strcmp(item, "mjpeg"))
		f = UVCG_MJPG;
	else
		return -EINVAL;
	for (i = 0; i < p->nformats; i++)
		if (p->formats[i] == f)
			return -EEXIST;
	p->formats[p->nformats++] = f;
	return 0;
}

/* a '+'-separated list of key into p: *n reset, each item through one; what: what it takes */
static int set_list(struct uvcg_params *p, unsigned *n, int (*one)(const char *item, void *ctx),
		    unsigned max, const char *key, const char *v, const char *what, char **why)
{
	int r;

	*n = 0;
	r = each_item(v, max, one, p);
	if (r == -E2BIG)
		return reason_set(-EINVAL, why, "uvc-bulk: %s='%s': at most %u", key, v, max);
	if (r == -EEXIST)
		return reason_set(-EINVAL, why, "uvc-bulk: %s='%s': an item given twice", key, v);
	if (r < 0)
		return reason_set(-EINVAL, why, "uvc-bulk: %s='%s': %s", key, v, what);
	return 0;
}

int uvcg_params_set(struct uvcg_params *p, const char *key, const char *v, char **ret_why)
{
	uint64_t u;

	if (!strcmp(key, "frames"))
		return set_list(p, &p->nframes, one_frame, UVCG_MAX_FRAMES, key, v,
				"WxH[+WxH...], even widths up to 4096", ret_why);
	if (!strcmp(key, "fps"))
		return set_list(p, &p->nfps, one_fps, UVCG_MAX_FPS, key, v, "N[+N...], 1 to 240",
				ret_why);
	if (!strcmp(key, "formats"))
		return set_list(p, &p->nformats, one_format, UVCG_MAX_FORMATS, key, v,
				"yuyv, mjpg or yuyv+mjpg", ret_why);
	if (!strcmp(key, "maxpayload")) {
		if (parse_size(v, UVCG_MAXPAYLOAD_MIN, UVCG_MAXPAYLOAD_MAX, &u) < 0)
			return reason_set(-EINVAL, ret_why,
					  "uvc-bulk: maxpayload='%s': bytes, %u to 16M (K, M: "
					  "powers of 1024)",
					  v, UVCG_MAXPAYLOAD_MIN);
		p->max_payload = (uint32_t)u;
		return 0;
	}
	if (!strcmp(key, "stall_ms")) {
		if (parse_u64(v, 100, 3600000, &p->stall_ms) < 0)
			return reason_set(-EINVAL, ret_why,
					  "uvc-bulk: stall_ms='%s': 100 to 3600000 milliseconds", v);
		return 0;
	}
	if (!strcmp(key, "stream_frames")) {
		if (parse_u64(v, 0, 100000000, &p->stream_frames) < 0)
			return reason_set(-EINVAL, ret_why,
					  "uvc-bulk: stream_frames='%s': 0 (no end) to 100000000",
					  v);
		return 0;
	}
	return -ENOENT;
}

int uvcg_params_read(const char *kv, struct uvcg_params *ret, char **ret_why)
{
	struct uvcg_params p;
	struct strbuf item = STRBUF_INIT;
	int r = 0;

	uvcg_params_default(&p);
	while (r == 0 && *kv) {
		size_t n = strcspn(kv, ",");
		char *eq;

		strbuf_reset(&item);
		strbuf_add(&item, kv, n);
		eq = strchr(item.buf, '=');
		if (!eq) {
			r = reason_set(-EINVAL, ret_why, "uvc-bulk: '%s' is not KEY=VALUE", item.buf);
			break;
		}
		*eq = '\0';
		r = uvcg_params_set(&p, item.buf, eq + 1, ret_why);
		if (r == -ENOENT)
			r = reason_set(-EINVAL, ret_why,
				       "uvc-bulk: unknown key '%s' (frames, fps, formats, "
				       "maxpayload, stream_frames, stall_ms)",
				       item.buf);
		kv += n;
		if (*kv == ',')
			kv++;
	}
	strbuf_release(&item);
	if (r == 0)
		*ret = p;
	return r;
}

int uvcg_params_parse(const char *kv, struct uvcg_params *ret, char **ret_why)
{
	struct uvcg_params p;
	int r = uvcg_params_read(kv, &p, ret_why);

	if (r == 0)
		r = uvcg_params_check(&p, ret_why);
	if (r == 0)
		*ret = p;
	return r;
}

int uvcg_params_check(const struct uvcg_params *p, char **ret_why)
{
	size_t size = uvcg_desc_size(p);

	if (size > UVCG_CONFIG_MAX)
		return reason_set(-E2BIG, ret_why,
				  "uvc-bulk: %u format%s x %u frame size%s x %u rate%s take %zu B of "
				  "descriptors, gadgetfs answers at most %d B: give fewer",
				  p->nformats, p->nformats > 1 ? "s" : "", p->nframes,
				  p->nframes > 1 ? "s" : "", p->nfps, p->nfps > 1 ? "s" : "", size,
				  UVCG_CONFIG_MAX);
	return 0;
}

void uvcg_params_str(const struct uvcg_params *p, struct strbuf *out)
{
	unsigned i;

	strbuf_adds(out, "frames=");
	for (i = 0; i < p->nframes; i++)
		strbuf_addf(out, "%s%ux%u", i ? "+" : "", p->frames[i].width, p->frames[i].height);
	strbuf_adds(out, ",fps=");
	for (i = 0; i < p->nfps; i++)
		strbuf_addf(out, "%s%u", i ? "+" : "", p->fps[i]);
	strbuf_adds(out, ",formats=");
	for (i = 0; i < p->nformats; i++)
		strbuf_addf(out, "%s%s", i ? "+" : "", uvcg_format_name(p->formats[i]));
	strbuf_addf(out, ",maxpayload=%u", p->max_payload);
	if (p->stream_frames)
		strbuf_addf(out, ",stream_frames=%llu", (unsigned long long)p->stream_frames);
	if (p->stall_ms)
		strbuf_addf(out, ",stall_ms=%llu", (unsigned long long)p->stall_ms);
}

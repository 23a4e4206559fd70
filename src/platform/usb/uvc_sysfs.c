// SPDX-License-Identifier: MIT
/*
 * What the kernel says about a UVC camera: the current alternate setting of
 * each streaming interface, uvcvideo's module parameters, and its per-stream
 * debugfs statistics (drivers/media/usb/uvc/uvc_debugfs.c makes a directory
 * "<busnum>-<devnum>-<intfnum>" whose "stats" file uvc_video_stats_dump() in
 * uvc_video.c fills: "frames:  N", "pts: N early, N initial, N ok", ...).
 */
#include "platform/usb/uvc.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PARAMS_DIR "/sys/module/uvcvideo/parameters"
#define DEBUGFS_DIR "/sys/kernel/debug/usb/uvcvideo"
#define STATS_MAX (64 * 1024)

static void copy_text(char *dst, size_t n, const char *src, size_t len)
{
	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	sanitize_string(dst);
}

static void kv_add(struct uvc_kv *out, unsigned *n, unsigned max, const char *name, size_t nlen,
		   const char *value, size_t vlen)
{
	if (*n >= max)
		return;
	copy_text(out[*n].name, sizeof(out[*n].name), name, nlen);
	copy_text(out[*n].value, sizeof(out[*n].value), value, vlen);
	(*n)++;
}

const char *uvc_kv_get(const struct uvc_kv *kv, unsigned n, const char *name)
{
	unsigned k;

	for (k = 0; k < n; k++)
		if (!strcmp(kv[k].name, name))
			return kv[k].value;
	return NULL;
}

static size_t span_num(const char *s)
{
	size_t k = 0;

	while (isdigit((unsigned char)s[k]) || s[k] == '.')
		k++;
	return k;
}

/*
 * One comma-separated part after "name:": "N", "N word word" (name.word_word),
 * "word N unit" (name.word), "N <= sof <= N" (name.min, name.max).
 */
static void stats_part(const char *name, size_t nlen, const char *p, size_t plen,
		       struct uvc_kv *out, unsigned *n, unsigned max)
{
	char key[64], part[128];
	size_t k, num;
	const char *le;

	copy_text(part, sizeof(part), p, plen);
	p = part;
	while (*p == ' ')
		p++;
	num = span_num(p);
	le = strstr(p, "<=");
	if (num && le) {
		snprintf(key, sizeof(key), "%.*s.min", (int)nlen, name);
		kv_add(out, n, max, key, strlen(key), p, num);
		le = strrchr(p, '=');
		while (*++le == ' ')
			;
		snprintf(key, sizeof(key), "%.*s.max", (int)nlen, name);
		kv_add(out, n, max, key, strlen(key), le, span_num(le));
		return;
	}
	if (num) {
		const char *w = p + num;

		while (*w == ' ')
			w++;
		if (!*w) {
			kv_add(out, n, max, name, nlen, p, num);
			return;
		}
		snprintf(key, sizeof(key), "%.*s.%s", (int)nlen, name, w);
		/* the words after the dot; a long name fills key before them */
		for (k = nlen + 1 < strlen(key) ? nlen + 1 : strlen(key); key[k]; k++)
			if (key[k] == ' ')
				key[k] = '_';
		kv_add(out, n, max, key, strlen(key), p, num);
		return;
	}
	/* "freq 1.000 kHz" */
	for (k = 0; p[k] && p[k] != ' '; k++)
		;
	if (p[k] == ' ' && span_num(p + k + 1)) {
		snprintf(key, sizeof(key), "%.*s.%.*s", (int)nlen, name, (int)k, p);
		kv_add(out, n, max, key, strlen(key), p + k + 1, span_num(p + k + 1));
	}
}

unsigned uvc_parse_stats(const char *text, struct uvc_kv *out, unsigned max)
{
	unsigned n = 0;
	const char *line = text;

	while (line && *line && n < max) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		const char *colon = memchr(line, ':', len);
		const char *p, *end = line + len;

		if (colon && colon > line) {
			for (p = colon + 1; p < end;) {
				const char *comma = memchr(p, ',', (size_t)(end - p));
				const char *stop = comma ? comma : end;

				stats_part(line, (size_t)(colon - line), p, (size_t)(stop - p), out,
					   &n, max);
				p = stop + 1;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return n;
}

static void read_params(struct uvc_sysfs *s)
{
	struct name_list names = NAME_LIST_INIT;
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;
	size_t k;

	if (sysroot_list(PARAMS_DIR, &names) < 0)
		return;
	for (k = 0; k < names.n && s->n_params < UVC_MAX_PARAMS; k++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", PARAMS_DIR, names.v[k]);
		if (sysroot_read_attr(path.buf, &val) < 0)
			continue;
		kv_add(s->params, &s->n_params, UVC_MAX_PARAMS, names.v[k], strlen(names.v[k]),
		       val.buf, val.len);
	}
	name_list_release(&names);
	strbuf_release(&path);
	strbuf_release(&val);
}

static int read_u64(const char *dir, const char *attr, uint64_t max, uint64_t *ret)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "%s/%s", dir, attr);
	r = sysroot_read_attr(path.buf, &val);
	/* sysfs pads some ("%2d" for bAlternateSetting) */
	if (r >= 0)
		r = parse_u64(val.buf + strspn(val.buf, " "), 0, max, ret);
	strbuf_release(&path);
	strbuf_release(&val);
	return r;
}

static void read_stats(const char *dev, const struct uvc_info *info, struct uvc_sysfs *s)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	uint64_t bus, num;
	unsigned k;

	if (read_u64(dev, "busnum", 255, &bus) < 0 || read_u64(dev, "devnum", 255, &num) < 0)
		return;
	/*
	 * The first stream with a stats file: cameras have one. Before Linux
	 * 3.13 the directory had no interface number: tried last.
	 */
	for (k = 0; k <= info->n_streams && !s->has_stats; k++) {
		if (k < info->n_streams)
			snprintf(s->stats_dir, sizeof(s->stats_dir), "%u-%u-%u", (unsigned)bus,
				 (unsigned)num, info->streams[k].ifnum);
		else
			snprintf(s->stats_dir, sizeof(s->stats_dir), "%u-%u", (unsigned)bus,
				 (unsigned)num);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/stats", DEBUGFS_DIR, s->stats_dir);
		if (sysroot_read(path.buf, STATS_MAX, &text) < 0)
			continue;
		s->has_stats = true;
		s->n_stats = uvc_parse_stats(text.buf, s->stats, UVC_MAX_STATS);
	}
	if (!s->has_stats)
		s->stats_dir[0] = '\0';
	strbuf_release(&path);
	strbuf_release(&text);
}

int uvc_read_sysfs(const char *dev, const struct uvc_info *info, struct uvc_sysfs *ret)
{
	struct uvc_sysfs s;
	struct strbuf path = STRBUF_INIT;
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	uint64_t cfg, alt;
	unsigned k;

	memset(&s, 0, sizeof(s));
	for (k = 0; k < UVC_MAX_STREAMS; k++)
		s.cur_alt[k] = -1;
	if (read_u64(dev, "bConfigurationValue", 255, &cfg) < 0)
		cfg = info->config;
	for (k = 0; k < info->n_streams; k++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s:%u.%u", dev, name, (unsigned)cfg, info->streams[k].ifnum);
		if (read_u64(path.buf, "bAlternateSetting", 255, &alt) >= 0)
			s.cur_alt[k] = (int)alt;
	}
	strbuf_release(&path);
	read_params(&s);
	read_stats(dev, info, &s);
	*ret = s;
	return 0;
}

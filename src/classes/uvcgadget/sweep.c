// SPDX-License-Identifier: MIT
/*
 * The sweep (sweep.h): per frame size a uvc-bulk gadget up, its uvcvideo
 * node found by the gadget's serial number, each format x rate captured,
 * the camera's own figures read from its figures file once its last stream
 * ended, the gadget down.
 */
#include "classes/uvcgadget/gadget_up.h"
#include "classes/uvcgadget/sweep.h"
#include "classes/gadget/spec.h"
#include "platform/usb/attach.h"
#include "classes/video/video.h"
#include "util/jsonin.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NODE_WAIT_MS 15000
#define STREAM_END_MS 3000

static void nap_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
}

__attribute__((format(printf, 2, 3))) static void note(struct uvcg_sweep *s, const char *fmt,
						       ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (s->nnotes >= UVCG_SWEEP_NOTES)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s->notes[s->nnotes++] = strbuf_detach(&sb);
}

void uvcg_sweep_mode(const struct uvcg_sweep_row *r, char *out, size_t len)
{
	snprintf(out, len, "%s %llux%llu @%g", r->fourcc, (unsigned long long)r->width,
		 (unsigned long long)r->height, r->nominal_fps);
}

/* the capture node of the USB device whose serial is serial: malloc'ed path, NULL none */
static char *find_node(const char *serial, char **ret_speed)
{
	struct video_info *v = NULL;
	size_t n = 0, i;
	char *r = NULL;

	if (video_discover(VIDEO_MODES_NONE, &v, &n) < 0)
		return NULL;
	for (i = 0; i < n && !r; i++) {
		struct usb_attach a = {0};
		struct strbuf p = STRBUF_INIT, sn = STRBUF_INIT;

		if (!v[i].usb || usb_attach_for_node(v[i].path, &a) < 0)
			continue;
		strbuf_addf(&p, "/sys/bus/usb/devices/%s/serial", a.device);
		if (sysroot_read_attr(p.buf, &sn) == 0 && !strcmp(sn.buf, serial)) {
			r = xstrdup(v[i].path);
			*ret_speed = xstrdup(a.speed_name ? a.speed_name : "unknown");
		}
		usb_attach_release(&a);
		strbuf_release(&p);
		strbuf_release(&sn);
	}
	free(v);
	return r;
}

static char *wait_node(const char *serial, char **ret_speed, const volatile int *stop)
{
	char *node = NULL;
	int ms;

	for (ms = 0; ms < NODE_WAIT_MS && !node && !(stop && *stop); ms += 100) {
		node = find_node(serial, ret_speed);
		if (!node)
			nap_ms(100);
	}
	return node;
}

static double jnum(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return NAN;
	return json_object_get_double(v);
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		   ? json_object_get_string(v)
		   : NULL;
}

/* the camera's figures file, once its last stream ended: the JSON, NULL on time out */
static struct json_object *camera_figures(const char *path, uint64_t last_stream)
{
	struct json_object *root = NULL;
	int ms;

	for (ms = 0; ms < STREAM_END_MS; ms += 100) {
		struct strbuf data = STRBUF_INIT, err = STRBUF_INIT;
		struct json_object *fn, *streams;

		if (sysroot_read(path, 1 << 20, &data) == 0 &&
		    jsonin_parse(data.buf, data.len, 1 << 20, &root, &err) == 0) {
			const char *st = json_object_object_get_ex(root, "uvc_function", &fn)
					     ? jstr(fn, "state")
					     : NULL;

			if (st && strcmp(st, "streaming") &&
			    json_object_object_get_ex(root, "streams", &streams) &&
			    jnum(fn, "streams") >= (double)last_stream) {
				strbuf_release(&data);
				strbuf_release(&err);
				return root;
			}
			json_object_put(root);
			root = NULL;
		}
		strbuf_release(&data);
		strbuf_release(&err);
		nap_ms(100);
	}
	return NULL;
}

/* the camera's stream for row r: its number, mode checked */
static void take_stream(struct uvcg_sweep_row *r, struct json_object *root, uint64_t stream)
{
	struct json_object *streams, *o;
	size_t i, n;

	if (!json_object_object_get_ex(root, "streams", &streams))
		return;
	n = json_object_array_length(streams);
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(streams, i);
		if ((uint64_t)jnum(o, "stream") != stream)
			continue;
		if (!jstr(o, "fourcc") || strcmp(jstr(o, "fourcc"), r->fourcc) ||
		    (uint64_t)jnum(o, "width") != r->width ||
		    fabs(jnum(o, "nominal_fps") - r->nominal_fps) > 0.01 * r->nominal_fps)
			return;
		r->stream = stream;
		r->sent = (uint64_t)jnum(o, "sent");
		r->late = (uint64_t)jnum(o, "late");
		r->aborted = (uint64_t)jnum(o, "aborted");
		r->camera_fps = jnum(o, "fps");
		r->camera_cpu_pct = jnum(o, "cpu_pct");
		r->camera_cpu_us_per_frame = jnum(o, "cpu_us_per_frame");
		r->max_payload = (uint64_t)jnum(o, "max_payload_bytes");
		return;
	}
}

static void host_figures(struct uvcg_sweep_row *r, const struct video_pass *p)
{
	r->fps = p->st.fps;
	r->fps_wall = p->st.fps_wall;
	r->frames = p->st.frames;
	r->lost = p->st.lost;
	r->errors = p->st.errors;
	r->drop_pct = p->st.drop_pct;
	r->mb_s = p->st.mb_s;
	r->frame_bytes = p->st.bytes_mean;
	r->host_cpu_pct = p->self_cpu_pct;
	r->host_cpu_us_per_frame = p->cpu_us_per_frame;
	r->wire_mb_s = p->monitored ? p->wire.wire_mb_s : NAN;
	r->timeout = p->timeout;
	r->measured = true;
}

/* one row per format x rate of size, the gadget's streams in order */
static int capture_modes(const struct uvcg_sweep_config *c, struct uvcg_sweep *s,
			 const struct uvcg_params *g, const char *node, size_t first, char **why)
{
	size_t k = first;
	unsigned f, i;
	int r = 0;

	for (f = 0; f < g->nformats; f++)
		for (i = 0; i < g->nfps && !(c->stop && *c->stop); i++) {
			struct uvcg_sweep_row *row = &s->rows[k++];
			struct video_pass pass = {0};
			struct video_config vc = {.dev = node,
						  .io = VIDEO_IO_MMAP,
						  .buffers = 4,
						  .time_s = c->time_s,
						  .warmup = c->warmup,
						  .timeout_s = 5,
						  .stop = c->stop,
						  .monitor = c->monitor};
			char name[64], *w = NULL;

			*row = (struct uvcg_sweep_row){
			    .fourcc = uvcg_format_fourcc(g->formats[f]),
			    .width = g->frames[0].width,
			    .height = g->frames[0].height,
			    .nominal_fps = g->fps[i],
			};
			s->n = k;
			video_fourcc_parse(row->fourcc, &vc.mode.fourcc);
			vc.mode.width = g->frames[0].width;
			vc.mode.height = g->frames[0].height;
			vc.mode.fps_num = g->fps[i];
			vc.mode.fps_den = 1;
			uvcg_sweep_mode(row, name, sizeof(name));
			if (c->progress)
				c->progress(c->ctx, name);
			r = video_capture_watched(&vc, &pass, &w);
			if (r < 0) {
				note(s, "%s not measured: %s", name, w ? w : strerror(-r));
				free(w);
				r = 0;
				continue;
			}
			host_figures(row, &pass);
			video_pass_release(&pass);
		}
	(void)why;
	return r;
}

static void spec_for(struct gadget_spec *spec, const struct uvcg_sweep_config *c,
		     const struct uvcg_params *g)
{
	struct gadget_fn_spec *f;
	struct strbuf v = STRBUF_INIT;
	unsigned i;
	char *why = NULL;

	gadget_spec_init(spec);
	gadget_spec_set_name(spec, UVCG_SWEEP_GADGET, &why);
	free(why);
	spec->fns = xgrow(NULL, &spec->nfns, sizeof(*spec->fns));
	f = &spec->fns[0];
	f->profile = gadget_profile_find("uvc-bulk");
	f->instance = xstrdup("0");
#define KV(k, val)                                                                             \
	do {                                                                                   \
		f->kv = xgrow(f->kv, &f->nkv, sizeof(*f->kv));                                 \
		f->kv[f->nkv - 1] = (struct gadget_kv){xstrdup(k), xstrdup(val)};              \
	} while (0)
	strbuf_addf(&v, "%ux%u", g->frames[0].width, g->frames[0].height);
	KV("frames", v.buf);
	strbuf_reset(&v);
	for (i = 0; i < g->nfps; i++)
		strbuf_addf(&v, "%s%u", i ? "+" : "", g->fps[i]);
	KV("fps", v.buf);
	strbuf_reset(&v);
	for (i = 0; i < g->nformats; i++)
		strbuf_addf(&v, "%s%s", i ? "+" : "", uvcg_format_name(g->formats[i]));
	KV("formats", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%u", c->p.max_payload);
	KV("maxpayload", v.buf);
	/* the sweep stops reading at each mode's end: the camera need not wait long */
	KV("stall_ms", "500");
#undef KV
	strbuf_release(&v);
}

/* one gadget: up, its modes, its figures, down */
static int one_gadget(const struct uvcg_sweep_config *c, struct uvcg_sweep *s,
		      const struct uvcg_params *g, char **why)
{
	struct gadget_spec spec;
	struct gadget_built b = {0};
	struct strbuf stats = STRBUF_INIT;
	struct json_object *root;
	size_t first = s->n, k;
	char *node = NULL, *speed = NULL, *why2 = NULL;
	int64_t removed;
	int r;

	spec_for(&spec, c, g);
	r = gadget_up(&spec, c->fs, &b, why);
	gadget_built_release(&b);
	if (r < 0)
		goto out;
	s->gadgets++;
	node = wait_node(spec.dir, &speed, c->stop);
	if (!node) {
		r = reason_set(-ETIMEDOUT, why,
			       "the host side showed no capture node for gadget '%s' within %d s "
			       "(uvcvideo loaded? the UDC's host side on this machine?)",
			       spec.dir, NODE_WAIT_MS / 1000);
	} else {
		if (!s->speed)
			s->speed = xstrdup(speed);
		r = capture_modes(c, s, g, node, first, why);
	}
	uvcg_stats_path(&stats, spec.dir);
	root = r == 0 ? camera_figures(stats.buf, s->n - first) : NULL;
	for (k = first; root && k < s->n; k++) {
		s->rows[k].speed = s->speed;
		take_stream(&s->rows[k], root, k - first + 1);
	}
	if (r == 0 && !root)
		note(s, "%ux%u: the camera's figures were not read (its last stream did not end "
			"within %d s)",
		     g->frames[0].width, g->frames[0].height, STREAM_END_MS / 1000);
	json_object_put(root);
	if (gadget_down(spec.dir, false, c->fs, &removed, &why2) < 0 && r == 0)
		r = reason_set(-EIO, why, "gadget down %s: %s", spec.dir, why2 ? why2 : "?");
	free(why2);
out:
	free_all(node, speed);
	strbuf_release(&stats);
	gadget_spec_release(&spec);
	return r;
}

int uvcg_sweep_run(const struct uvcg_sweep_config *c, struct uvcg_sweep *ret, char **ret_why)
{
	struct uvcg_sweep *s = ret;
	unsigned i, f;
	int r = 0;

	*s = (struct uvcg_sweep){.findings = FINDING_LIST_INIT};
	for (i = 0; r == 0 && i < c->p.nframes && !(c->stop && *c->stop); i++) {
		struct uvcg_params g = c->p;
		char *big = NULL;
		bool fits;

		/* one frame size a gadget: every format if they fit gadgetfs's 256 B, else one */
		g.frames[0] = c->p.frames[i];
		g.nframes = 1;
		g.stream_frames = 0;
		fits = uvcg_params_check(&g, &big) == 0;
		free(big);
		if (fits) {
			r = one_gadget(c, s, &g, ret_why);
			continue;
		}
		for (f = 0; r == 0 && f < c->p.nformats; f++) {
			g.formats[0] = c->p.formats[f];
			g.nformats = 1;
			r = one_gadget(c, s, &g, ret_why);
		}
	}
	if (r == 0)
		uvcg_sweep_judge(s, &c->p);
	return r;
}

void uvcg_sweep_release(struct uvcg_sweep *s)
{
	size_t i;

	for (i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	finding_list_release(&s->findings);
	free(s->speed);
	*s = (struct uvcg_sweep){0};
}

// SPDX-License-Identifier: MIT
/*
 * run --uvc-sweep SPEC: the guide's table (sweep.h) as a class of `usbperf
 * run` (run/class.h): each mode's figures are metric rows of the
 * device "uvc-sweep" (pass "YUYV 640x480 @30"), so the history, report,
 * compare and check take them like any other.
 */
#include "run/class_kit.h"
#include "run/run_priv.h"
#include "classes/uvcgadget/sweep.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_KEY "uvc-sweep"
#define SWEEP_KIND "uvc-gadget"
#define SWEEP_RUN_S 2.0
#define SWEEP_WARMUP 2
#define SWEEP_CPU_PCT 85.0

extern const struct measure_class run_class_uvc_sweep;

/* --uvc-sweep SPEC: usbperf's own bulk camera, each frame size x format x rate of SPEC */
struct sweep_opts {
	bool given;
	struct uvcg_params p;
};

static int set_sweep(void *opts, char *const *words, char **ret_why)
{
	struct sweep_opts *s = opts;
	struct strbuf why = STRBUF_INIT;
	char *w = NULL;

	if (uvcg_params_read(words[0], &s->p, &w) < 0 || s->p.stream_frames) {
		strbuf_addf(&why, "invalid --uvc-sweep '%s': %s", words[0],
			    w ? w : "stream_frames is the sweep's own (--time)");
		free(w);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}
	s->given = true;
	return 0;
}

static const struct class_option sweep_options[] = {
    {"uvc-sweep", "SPEC", 1, false,
     "on a machine that is both sides: usbperf's own bulk camera\n"
     "(gadget up uvc-bulk, one gadget per frame size) captured\n"
     "through uvcvideo at each frame size x format x rate of\n"
     "SPEC (frames=WxH[+...],fps=N[+...],formats=yuyv[+mjpg],\n"
     "maxpayload=SIZE), next to the bulk ceiling (video -h)",
     set_sweep},
};

struct sweep_item {
	struct uvcg_params p;
	struct uvcg_sweep s;
};

static const struct class_metric sweep_metrics[] = {
    /* the nominal rate is fps's ceiling, as a camera's is; the link's is its own row */
    CLASS_METRIC("fps", "frames/s", "fps", true),
    CLASS_METRIC("ceiling_fps", "frames/s", "bulk ceiling", true),
    CLASS_METRIC("drop_pct", "%", "host drops", false),
    CLASS_METRIC("camera_late", "frames", "camera late", false),
    CLASS_RATE("mb_s", "MB/s", "rate"),
    CLASS_CPU("camera_cpu_pct", "camera cpu", "the camera's"),
    CLASS_METRIC("cpu_us_per_frame", "us", "host cpu per frame", false),
};

static void sweep_discover(const struct run_options *o, struct run_result *r)
{
	const struct sweep_opts *so = run_class_opts(o, &run_class_uvc_sweep);
	struct sweep_item *v;
	struct run_plan_item *it;

	if (!so->given)
		return;
	v = calloc(1, sizeof(*v));
	if (!v)
		abort();
	v->p = so->p; /* read and checked as the option was given */
	it = run_plan_add(r, &run_class_uvc_sweep, "gadget:usbperf-" UVCG_SWEEP_GADGET, SWEEP_KEY,
			  SWEEP_KIND, false,
			  "usbperf's own bulk camera (--uvc-sweep): each frame size x format x rate "
			  "through the host side's uvcvideo");
	it->state = v;
	it->on_usb = true;
}

static double run_seconds(const struct run_options *o)
{
	return o->time_s > 0 ? o->time_s : SWEEP_RUN_S;
}

static void sweep_estimate(const struct run_options *o, const struct run_plan_item *it,
			   struct estimate *e, struct class_estimate *ret)
{
	const struct sweep_item *v = class_item(it, &run_class_uvc_sweep);
	unsigned modes = v ? v->p.nframes * v->p.nformats * v->p.nfps : 0;

	(void)e;
	/* per frame size a gadget up and down, and the last stream's end: about 4 s */
	*ret = (struct class_estimate){"UVC camera", modes,
				       run_seconds(o) + 0.5 + (modes ? 4.0 * v->p.nframes / modes : 0)};
}

static void add_device(struct run_result *r, const struct run_plan_item *it,
		       const struct uvcg_sweep *s)
{
	struct run_device *d;

	d = class_add_device(r, it, it->kind);
	if (!d)
		return;
	d->vid_pid = xstrdup("1d6b:0104");
	d->product = xstrdup("usbperf UVC camera (bulk)");
	d->serial = xstrdup("usbperf-" UVCG_SWEEP_GADGET);
	d->driver = xstrdup("uvcvideo");
	d->speed = s->speed ? xstrdup(s->speed) : NULL;
	d->ceiling_mb_s = s->n ? s->rows[0].ceiling_mb_s : NAN;
}

static void add_metrics(struct run_result *r, const struct run_plan_item *it,
			const struct uvcg_sweep_row *x)
{
	const struct {
		const char *key;
		double value, ceiling;
	} m[] = {
	    {"fps", x->fps, x->nominal_fps},
	    {"ceiling_fps", x->ceiling_fps, NAN},
	    {"drop_pct", x->drop_pct, NAN},
	    {"camera_late", x->stream ? (double)x->late : NAN, NAN},
	    {"mb_s", x->mb_s, x->ceiling_mb_s},
	    {"camera_cpu_pct", x->stream ? x->camera_cpu_pct : NAN, NAN},
	    {"cpu_us_per_frame", x->host_cpu_us_per_frame, NAN},
	};
	char pass[64];

	uvcg_sweep_mode(x, pass, sizeof(pass));
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct run_metric *rm;

		if (!isfinite(m[i].value))
			continue;
		rm = run_class_add_metric(&r->rec, &run_class_uvc_sweep, it->device_key, pass,
					  m[i].key);
		rm->value = m[i].value;
		rm->repeats = 1;
		if (m[i].ceiling > 0)
			rm->ceiling = m[i].ceiling;
	}
}

static int sweep_measure(const struct run_options *o, struct run_result *r,
			 struct run_plan_item *it, char **ret_why)
{
	struct sweep_item *v = class_item(it, &run_class_uvc_sweep);
	struct uvcg_sweep_config c = {
	    .p = v->p,
	    .time_s = run_seconds(o),
	    .warmup = SWEEP_WARMUP,
	    .monitor = !o->no_monitor,
	    .fs = &gadget_fs_real,
	    .stop = o->stop,
	};
	size_t i;
	int rc;

	rc = uvcg_sweep_run(&c, &v->s, ret_why);
	if (rc < 0)
		return rc;
	add_device(r, it, &v->s);
	for (i = 0; i < v->s.n; i++) {
		if (!v->s.rows[i].measured)
			continue;
		memcpy(run_class_add_row(r, &run_class_uvc_sweep, sizeof(v->s.rows[i])),
		       &v->s.rows[i], sizeof(v->s.rows[i]));
		add_metrics(r, it, &v->s.rows[i]);
	}
	for (i = 0; i < v->s.findings.n; i++) {
		const struct finding *f = &v->s.findings.v[i];

		finding_add(&r->rec.findings, !strcmp(f->severity, "warn") ? FINDING_WARN
									   : FINDING_INFO,
			    f->id, it->device_key, f->message, f->evidence, f->fix);
	}
	for (i = 0; i < v->s.nnotes; i++)
		run_note(r, "uvc-sweep: %s", v->s.notes[i]);
	return 0;
}

static void sweep_release(struct run_plan_item *it)
{
	struct sweep_item *v = class_item(it, &run_class_uvc_sweep);

	if (!v)
		return;
	uvcg_sweep_release(&v->s);
	free(v);
	it->state = NULL;
}

static const struct run_metric *figure(const struct run_record *r, const char *key,
				       const char *pass, const char *metric)
{
	return run_record_metric(r, key, run_class_uvc_sweep.name, pass, metric);
}

/*
 * Every mode at its rate: the modes are the limit. Else the first mode that
 * missed says why: beyond the bulk ceiling (the bus), the camera's CPU, or
 * the camera (its frames late with the link to spare).
 */
static const char *sweep_verdict(const struct run_record *r, const struct run_device *d,
				 struct strbuf *ev, double *ret_share_pct)
{
	size_t i, modes = 0, met = 0;

	*ret_share_pct = NAN;
	for (i = 0; i < r->nmetrics; i++) {
		const struct run_metric *m = &r->metrics[i], *ceil, *late, *cpu, *drop;

		if (!m->device_key || strcmp(m->device_key, d->key) || strcmp(m->metric, "fps") ||
		    !m->test || strcmp(m->test, run_class_uvc_sweep.name))
			continue;
		modes++;
		ceil = figure(r, d->key, m->name, "ceiling_fps");
		late = figure(r, d->key, m->name, "camera_late");
		drop = figure(r, d->key, m->name, "drop_pct");
		cpu = figure(r, d->key, m->name, "camera_cpu_pct");
		if (m->value >= 0.98 * m->ceiling && !(late && late->value > 0) &&
		    !(drop && drop->value > 0)) {
			met++;
			continue;
		}
		strbuf_addf(ev, "%s: %.2f of %g fps", m->name, m->value, m->ceiling);
		if (ceil && m->ceiling > ceil->value) {
			strbuf_addf(ev, ", beyond the %.2f fps a bulk endpoint carries", ceil->value);
			return RUN_LIMITER_BUS;
		}
		if (cpu && cpu->value >= SWEEP_CPU_PCT) {
			strbuf_addf(ev, ", the camera's CPU at %.0f %%", cpu->value);
			return RUN_LIMITER_CPU;
		}
		strbuf_adds(ev, ", with the link to spare");
		return RUN_LIMITER_CAMERA;
	}
	if (!modes) {
		strbuf_adds(ev, "no mode was measured");
		return RUN_LIMITER_UNKNOWN;
	}
	strbuf_addf(ev, "%zu of %zu modes at their rate (within 2 %%, nothing dropped)", met,
		    modes);
	return RUN_LIMITER_MODE;
}

static const struct class_headline sweep_headline[] = {{"", "fps"}};

const struct measure_class run_class_uvc_sweep = {
    .name = "uvc-sweep",
    .options = sweep_options,
    .noptions = sizeof(sweep_options) / sizeof(sweep_options[0]),
    .opts_size = sizeof(struct sweep_opts),
    .what = "usbperf's own camera (--uvc-sweep)",
    .discover = sweep_discover,
    .estimate = sweep_estimate,
    .measure = sweep_measure,
    .release = sweep_release,
    .metrics = sweep_metrics,
    .nmetrics = sizeof(sweep_metrics) / sizeof(sweep_metrics[0]),
    .verdict = sweep_verdict,
    .headline = sweep_headline,
    .nheadline = sizeof(sweep_headline) / sizeof(sweep_headline[0]),
    .row_desc = &uvcg_sweep_row_desc,
    .row_title = "usbperf's camera, frame size x format x rate (fps; MB/s = 10^6 B/s)",
    .row_key = "uvc_sweep",
    .row_size = sizeof(struct uvcg_sweep_row),
};

// SPDX-License-Identifier: MIT
/*
 * The sweep judged: each mode's frames against the frame rate a bulk
 * endpoint carries at the link's speed (uvc_bulk.h), what held it back,
 * and for a mode that cannot fit, which setting would make it fit.
 */
#include "classes/uvcgadget/sweep.h"
#include "platform/usb/uvc_bulk.h"
#include "model/field.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MEET_PCT 2.0   /* achieved within this of nominal: the mode's rate is met */
#define CPU_PCT 85.0   /* a side's CPU, % of one core: its figure is the CPU's */
#define ABOVE_PCT 2.0  /* achieved past the ceiling by more: not the bus's figure */

static double bytes_of(const struct uvcg_sweep_row *r)
{
	if (!strcmp(r->fourcc, "YUYV"))
		return (double)r->width * (double)r->height * 2;
	if (r->frame_bytes > 0)
		return r->frame_bytes;
	return (double)r->width * (double)r->height * 2 / USB_UVC_MJPEG_RATIO;
}

static double ceiling_fps(enum usb_speed sp, unsigned max_payload, double bytes)
{
	struct usb_uvc_bulk_frame f;

	return usb_uvc_bulk_frame(sp, max_payload, bytes, &f) == 0 ? f.fps : NAN;
}

/* the isochronous ceiling of the same frames on a board's f_uvc at its largest */
static double iso_fps(enum usb_speed sp, double bytes)
{
	struct usb_uvc_params p = {.speed = sp, .burst = -1, .pixel = USB_PIXEL_YUYV, .width = 16,
				   .height = 16};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_uvc_result res;
	double fps;

	if (usb_uvc_calc(&p, &res, &err) < 0) {
		usb_calc_error_release(&err);
		return NAN;
	}
	fps = usb_uvc_frame_fps(&res, bytes);
	usb_uvc_result_release(&res);
	return fps;
}

static const char *limit_of(const struct uvcg_sweep_row *r)
{
	if (!r->measured)
		return "not measured";
	if (r->meets)
		return r->fits ? "mode's rate" : "emulation";
	if (!r->fits)
		return "bus";
	if (r->camera_cpu_pct >= CPU_PCT)
		return "camera CPU";
	if (r->host_cpu_pct >= CPU_PCT)
		return "host CPU";
	if (r->late)
		return "camera";
	if (r->lost || r->errors)
		return "host";
	return "not determined";
}

/* what would make row r fit: the settings that do, each with the rate it allows */
static void fixes(const struct uvcg_sweep *s, const struct uvcg_params *p,
		  const struct uvcg_sweep_row *r, enum usb_speed sp, struct strbuf *out)
{
	double bytes = bytes_of(r), f, best_f;
	unsigned i;
	int best;

	if (!strcmp(r->fourcc, "YUYV")) {
		f = ceiling_fps(sp, (unsigned)r->max_payload, bytes / USB_UVC_MJPEG_RATIO);
		strbuf_addf(out, "format MJPG (at %.0fx compression: %.1f fps)", USB_UVC_MJPEG_RATIO,
			    f);
	}
	/* the largest smaller frame size swept that fits the rate */
	for (i = 0, best = -1, best_f = 0; i < p->nframes; i++) {
		uint64_t area = (uint64_t)p->frames[i].width * p->frames[i].height;
		double b = (double)area * (bytes / ((double)r->width * (double)r->height));

		f = ceiling_fps(sp, (unsigned)r->max_payload, b);
		if (f >= r->nominal_fps && area < r->width * r->height &&
		    (best < 0 || area > (uint64_t)p->frames[best].width * p->frames[best].height))
			best = (int)i, best_f = f;
	}
	if (best >= 0)
		strbuf_addf(out, "%sframe size %ux%u (%.1f fps)", out->len ? "; " : "",
			    p->frames[best].width, p->frames[best].height, best_f);
	f = ceiling_fps(sp, (unsigned)(bytes + USB_UVC_HEADER_BYTES), bytes);
	if (f > r->ceiling_fps * 1.005)
		strbuf_addf(out, "%smaxpayload=%.0f, a frame a payload (%.1f fps)",
			    out->len ? "; " : "", bytes + USB_UVC_HEADER_BYTES, f);
	else
		strbuf_addf(out, "%snot maxpayload: a frame a payload still gives %.1f fps",
			    out->len ? "; " : "", f);
	strbuf_addf(out, "; the rate: at most %.0f fps", floor(r->ceiling_fps));
	f = iso_fps(sp, bytes);
	if (isfinite(f))
		strbuf_addf(out, "; on a board's isochronous f_uvc, streaming_maxpacket=3072: %.1f "
				 "fps",
			    f);
	(void)s;
}

static void find(struct uvcg_sweep *s, const struct uvcg_params *p, const struct uvcg_sweep_row *r,
		 enum usb_speed sp)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT, fix = STRBUF_INIT;
	struct usb_uvc_bulk_frame f = {0};
	char mode[64];

	uvcg_sweep_mode(r, mode, sizeof(mode));
	usb_uvc_bulk_frame(sp, (unsigned)r->max_payload, bytes_of(r), &f);
	strbuf_addf(&ev, "%.0f B frames in %.0f payloads of at most %llu B: %.0f bulk packets "
			 "a frame at %s speed; the camera sent %llu (%llu late), the host got %llu "
			 "at %.2f fps",
		    bytes_of(r), f.payloads, (unsigned long long)r->max_payload, f.packets,
		    usb_speed_name(sp), (unsigned long long)r->sent, (unsigned long long)r->late,
		    (unsigned long long)r->frames, r->fps);
	if (!r->fits) {
		strbuf_addf(&msg, "%s cannot fit a bulk endpoint at %s speed: it carries %.2f fps of "
				  "these frames",
			    mode, usb_speed_name(sp), r->ceiling_fps);
		fixes(s, p, r, sp, &fix);
		finding_add(&s->findings, FINDING_WARN, "uvc.bulk_cannot_fit", mode, msg.buf, ev.buf,
			    fix.buf);
	} else if (r->above) {
		strbuf_addf(&msg, "%s: %.2f fps is above the %.2f fps a %s-speed bulk endpoint "
				  "carries: not the bus's figure",
			    mode, r->fps, r->ceiling_fps, usb_speed_name(sp));
		finding_add(&s->findings, FINDING_INFO, "uvc.above_ceiling", mode, msg.buf, ev.buf,
			    "measure on a real link: a software host controller (dummy_hcd) "
			    "moves more than the bus would");
	} else if (r->measured && !r->meets) {
		strbuf_addf(&msg, "%s achieved %.2f of %g fps with the link to spare: %s", mode,
			    r->fps, r->nominal_fps, r->limit);
		finding_add(&s->findings, FINDING_WARN, "uvc.mode_missed", mode, msg.buf, ev.buf,
			    !strcmp(r->limit, "camera CPU")
				? "a faster device CPU, or MJPG frames made ahead"
			    : !strcmp(r->limit, "host CPU") ? "a faster host CPU, or fewer modes at once"
							    : "see the drops on each side");
	}
	strbuf_release(&msg);
	strbuf_release(&ev);
	strbuf_release(&fix);
}

void uvcg_sweep_judge(struct uvcg_sweep *s, const struct uvcg_params *p)
{
	enum usb_speed sp = USB_SPEED_HIGH;
	size_t i;

	if (s->speed && usb_speed_parse(s->speed, &sp) < 0)
		sp = USB_SPEED_HIGH;
	for (i = 0; i < s->n; i++) {
		struct uvcg_sweep_row *r = &s->rows[i];
		struct usb_uvc_bulk_frame f;

		if (!r->max_payload)
			r->max_payload = p->max_payload;
		if (!r->speed)
			r->speed = s->speed;
		if (usb_uvc_bulk_frame(sp, (unsigned)r->max_payload, bytes_of(r), &f) == 0) {
			r->ceiling_fps = f.fps;
			r->need_mb_s = f.wire_bytes * r->nominal_fps / 1e6;
		} else {
			r->ceiling_fps = r->need_mb_s = NAN;
		}
		r->ceiling_mb_s = usb_bulk_payload_Bps(sp) / 1e6;
		r->fits = r->nominal_fps <= r->ceiling_fps;
		r->meets = r->measured && !r->timeout &&
			   fabs(r->fps - r->nominal_fps) <= r->nominal_fps * MEET_PCT / 100 &&
			   !r->lost && !r->errors && !r->late;
		r->above = r->measured && r->fps > r->ceiling_fps * (1 + ABOVE_PCT / 100);
		r->limit = limit_of(r);
		find(s, p, r, sp);
	}
}

#include "classes/uvcgadget/sweep_judge.fields.h"

void uvcg_sweep_describe(const struct uvcg_sweep *s, struct report *out)
{
	report_add_table(out, "uvc_sweep",
			 "frame size x format x rate through usbperf's bulk camera (fps; MB/s = "
			 "10^6 B/s; the ceiling: one bulk endpoint at the link's speed)",
			 &uvcg_sweep_row_desc, s->rows, s->n, sizeof(s->rows[0]));
	report_add_table(out, "findings", "findings", &finding_desc, s->findings.v, s->findings.n,
			 sizeof(s->findings.v[0]));
	out->warnings = s->notes;
	out->nwarnings = s->nnotes;
}

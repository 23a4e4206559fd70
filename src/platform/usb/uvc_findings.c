// SPDX-License-Identifier: MIT
/*
 * Findings about a UVC camera: its descriptors and the alternate setting
 * uvcvideo chose, against the mode captured and what a pass measured.
 */
#include "platform/usb/limits.h"
#include "platform/usb/uvc.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>

#define MB 1e6

struct ctx {
	const struct uvc_facts *f;
	const struct uvc_stream *s;
	struct finding_list *out;
	struct strbuf msg, ev, fix;
};

static void emit(struct ctx *c, enum finding_severity sev, const char *id)
{
	finding_add(c->out, sev, id, c->f->subject ? c->f->subject : "camera", c->msg.buf,
		    c->ev.buf, c->fix.len ? c->fix.buf : NULL);
	strbuf_reset(&c->msg);
	strbuf_reset(&c->ev);
	strbuf_reset(&c->fix);
}

static bool measured(double v)
{
	return isfinite(v) && v > 0;
}

static void mode_text(struct strbuf *sb, const struct uvc_info *i, const struct uvc_frame *fr,
		      double fps)
{
	strbuf_addf(sb, "%s %ux%u at %.4g fps", i->formats[fr->format].fourcc, fr->width,
		    fr->height, fps);
}

static void bandwidth_findings(struct ctx *c, const struct uvc_need *n)
{
	const struct uvc_facts *f = c->f;
	const struct uvc_alt *cur = uvc_find_alt(c->s, f->cur_alt);
	double cur_fps = 0;

	if (n->largest_alt < 0 || n->smallest_alt >= 0) {
		if (!cur || c->s->bulk || cur->xfer != UVC_XFER_ISOC || n->smallest_alt < 0 ||
		    uvc_alt_carries(cur, n->frame_bytes, n->fps, &cur_fps, NULL))
			return;
		strbuf_adds(&c->msg, "the mode ");
		mode_text(&c->msg, f->info, f->frame, n->fps);
		strbuf_addf(&c->msg,
			    " needs more than alternate setting %u carries: at most %.4g fps",
			    cur->alt, cur_fps);
		strbuf_addf(&c->ev,
			    "frame %.0f B (%s) x %.4g fps = %.3f MB/s; alt %u: %s = %.3f MB/s "
			    "of payload; interface %u's bAlternateSetting is %d; alt %d carries it",
			    n->frame_bytes, uvc_frame_basis_name(n->basis), n->fps,
			    n->payload_Bps / MB, cur->alt, cur->derivation, cur->payload_Bps / MB,
			    c->s->ifnum, f->cur_alt, n->smallest_alt);
		strbuf_adds(&c->fix,
			    "the driver chose from the bandwidth the camera asked for "
			    "(dwMaxPayloadTransferSize): try uvcvideo quirks=0x80 (FIX_BANDWIDTH) "
			    "for uncompressed formats, or a smaller or compressed mode");
		emit(c, FINDING_WARN, "uvc.alt_too_small");
		return;
	}
	strbuf_adds(&c->msg, "the mode ");
	mode_text(&c->msg, f->info, f->frame, n->fps);
	if (c->s->bulk)
		strbuf_addf(&c->msg, " needs more than the %s bulk ceiling: at most %.4g fps",
			    usb_speed_label(f->info->speed), n->largest_fps);
	else
		strbuf_addf(&c->msg,
			    " needs more than the largest alternate setting (%d) carries: "
			    "at most %.4g fps",
			    n->largest_alt, n->largest_fps);
	strbuf_addf(&c->ev, "frame %.0f B (%s) x %.4g fps = %.3f MB/s at %s", n->frame_bytes,
		    uvc_frame_basis_name(n->basis), n->fps, n->payload_Bps / MB,
		    usb_speed_label(f->info->speed));
	if (c->s->bulk) {
		strbuf_addf(&c->ev, "; bulk ceiling %.3f MB/s", c->s->bulk_Bps / MB);
	} else {
		const struct uvc_alt *big = uvc_find_alt(c->s, n->largest_alt);

		if (big)
			strbuf_addf(&c->ev, "; alt %u: %s = %.3f MB/s of payload", big->alt,
				    big->derivation, big->payload_Bps / MB);
	}
	strbuf_adds(&c->fix, "use a compressed format (MJPEG, H.264), a smaller size or a lower "
			     "frame rate; a faster link if the camera supports one");
	emit(c, FINDING_WARN, "uvc.mode_exceeds_link");
}

static void link_finding(struct ctx *c)
{
	const struct uvc_facts *f = c->f;
	enum usb_speed cap = f->capable;

	if (f->info->speed != USB_SPEED_FULL)
		return;
	/* a camera that says bcdUSB 2.00 is meant for high speed */
	if (cap == USB_SPEED_UNKNOWN && f->info->bcd_usb >= 0x0200)
		cap = USB_SPEED_HIGH;
	if (cap <= USB_SPEED_FULL)
		return;
	strbuf_addf(&c->msg,
		    "USB %x.%02x camera on a full-speed link: isochronous video tops out "
		    "at one 1023 B packet per 1 ms frame (1.023 MB/s)",
		    f->info->bcd_usb >> 8, f->info->bcd_usb & 0xff);
	strbuf_addf(&c->ev, "connected at %s; the device can run at %s (bcdUSB %x.%02x)",
		    usb_speed_label(f->info->speed), usb_speed_label(cap), f->info->bcd_usb >> 8,
		    f->info->bcd_usb & 0xff);
	strbuf_adds(&c->fix, "connect it to a high-speed port directly, not through a USB 1.1 hub "
			     "or a keyboard/monitor hub, and check the cable");
	emit(c, FINDING_WARN, "uvc.full_speed_link");
}

static void measured_findings(struct ctx *c, const struct uvc_measured *m)
{
	const struct uvc_facts *f = c->f;
	double short_pct;

	if (measured(m->nominal_fps) && isfinite(m->achieved_fps)) {
		short_pct = (m->nominal_fps - m->achieved_fps) * 100 / m->nominal_fps;
		if (short_pct > UVC_FPS_SHORT_PCT) {
			strbuf_addf(&c->msg, "achieved %.2f fps of the nominal %.4g: %.1f%% below",
				    m->achieved_fps, m->nominal_fps, short_pct);
			strbuf_addf(&c->ev, "nominal %.4g fps, achieved %.2f fps", m->nominal_fps,
				    m->achieved_fps);
			if (measured(m->drops_pct))
				strbuf_addf(&c->ev, ", %.1f%% of frames dropped", m->drops_pct);
			strbuf_adds(&c->fix,
				    "frames missing (drops) point at the link or the host; "
				    "evenly late frames at the camera: auto exposure lowers "
				    "the rate in dim light (turn exposure_dynamic_framerate "
				    "off, add light)");
			emit(c, FINDING_WARN, "video.fps_below_nominal");
		}
	}
	if (measured(m->drops_pct)) {
		strbuf_addf(&c->msg, "%.1f%% of frames dropped", m->drops_pct);
		strbuf_addf(&c->ev, "sequence gaps and error-flagged buffers: %.2f%% of frames",
			    m->drops_pct);
		strbuf_adds(&c->fix,
			    "more buffers (--buffers), a less busy bus (the camera alone "
			    "on its controller), uvcvideo nodrop=1 to keep incomplete frames");
		emit(c, FINDING_WARN, "video.drops");
	}
	if (f->info && f->frame && f->info->formats[f->frame->format].kind == UVC_FMT_MJPEG &&
	    measured(m->frame_bytes_max)) {
		double assumed =
		    (double)f->frame->width * f->frame->height * 2 / USB_UVC_MJPEG_RATIO;

		if (m->frame_bytes_max > assumed) {
			strbuf_addf(&c->msg,
				    "MJPEG frames up to %.0f B, above the %.0f B assumed "
				    "(YUYV size / %g)",
				    m->frame_bytes_max, assumed, USB_UVC_MJPEG_RATIO);
			strbuf_addf(&c->ev, "%ux%u MJPEG: bytesused mean %.0f B, max %.0f B",
				    f->frame->width, f->frame->height, m->frame_bytes_mean,
				    m->frame_bytes_max);
			if (f->frame->max_frame_bytes)
				strbuf_addf(&c->ev, "; dwMaxVideoFrameBufferSize %u B",
					    f->frame->max_frame_bytes);
			strbuf_adds(&c->fix, "size bandwidth for the frames measured, not the "
					     "ratio: detailed scenes compress less");
			emit(c, FINDING_INFO, "uvc.mjpeg_above_ratio");
		}
	}
	if (measured(m->self_cpu_pct) && m->self_cpu_pct >= UVC_CPU_BOUND_PCT) {
		strbuf_addf(&c->msg, "capture is CPU-bound: usbperf used %.0f%% of a core",
			    m->self_cpu_pct);
		strbuf_addf(&c->ev, "self CPU %.1f%% of one core", m->self_cpu_pct);
		strbuf_adds(&c->fix,
			    "the figures are the host's limit, not the camera's: do not "
			    "--save, use MMAP or DMABUF I/O, a faster or less loaded host");
		emit(c, FINDING_WARN, "video.cpu_bound");
	}
}

void uvc_findings(const struct uvc_facts *f, const struct uvc_measured *m, struct finding_list *out)
{
	struct ctx c = {.f = f, .out = out};
	struct uvc_need n;

	if (!f || !out)
		return;
	strbuf_init(&c.msg);
	strbuf_init(&c.ev);
	strbuf_init(&c.fix);
	/* no descriptors (not a UVC camera): only what the capture measured */
	if (f->info && f->stream < f->info->n_streams)
		c.s = &f->info->streams[f->stream];
	if (f->info && !f->link_judged)
		link_finding(&c);
	if (c.s && f->frame && uvc_mode_need(f->info, f->frame, f->interval_100ns, false, &n) == 0)
		bandwidth_findings(&c, &n);
	if (m)
		measured_findings(&c, m);
	strbuf_release(&c.msg);
	strbuf_release(&c.ev);
	strbuf_release(&c.fix);
}

// SPDX-License-Identifier: MIT
/* What a HID measurement says about the host, the endpoint and the link. */
#include "classes/hid/io.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a host that polls slower than asked shows as a p50 gap this much above the period */
#define SLOW_POLL_RATIO 1.5
/* and a rate above the ceiling by more than clock noise */
#define ABOVE_CEILING_RATIO 1.02

static void poll_findings(const struct hid_device *d, const struct hid_pass *p,
			  struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

	if ((p->kind != HID_PASS_IN && p->kind != HID_PASS_OUT) || !(p->period_us > 0) ||
	    p->reports < 10)
		return;
	/* a reader that fell behind times its own reads, not the link (unread_finding) */
	if (p->kind == HID_PASS_IN && p->unread != U64_UNKNOWN && p->unread > 0)
		return;
	if (p->kind == HID_PASS_IN && isfinite(p->p50_us) &&
	    p->p50_us >= SLOW_POLL_RATIO * p->period_us) {
		strbuf_addf(&msg,
			    "reports arrive every %.0f us (p50), the endpoint asks for %.0f us: "
			    "%.1fx slower than bInterval allows",
			    p->p50_us, p->period_us, p->p50_us / p->period_us);
		strbuf_addf(&ev,
			    "%.1f reports/s measured, %.1f/s allowed (bInterval %u at %s speed, "
			    "endpoint 0x%02x, descriptors of %s)",
			    p->reports_per_s, p->ceiling_reports_per_s, d->in.interval,
			    usb_speed_name(d->usb.speed), d->in.address, d->usb.device);
		finding_add(
		    out, FINDING_WARN, "hid.poll_slower", d->name, msg.buf, ev.buf,
		    "if the device had reports ready all along, the host polls less often "
		    "than bInterval asks: an xHCI host rounds full-speed intervals down to a "
		    "power of two, and usbhid's 'jspoll'/'kbpoll'/'mousepoll' parameters "
		    "override it");
	}
	if (isfinite(p->reports_per_s) && p->ceiling_reports_per_s > 0 &&
	    p->reports_per_s > ABOVE_CEILING_RATIO * p->ceiling_reports_per_s) {
		strbuf_reset(&msg);
		strbuf_reset(&ev);
		strbuf_addf(&msg,
			    "%s: %.1f reports/s, above the %.1f/s one report per %.0f us allows: "
			    "the host controller does not keep bInterval",
			    p->name, p->reports_per_s, p->ceiling_reports_per_s, p->period_us);
		strbuf_addf(&ev, "%llu reports in %.3f s, %s p50 %.0f us",
			    (unsigned long long)p->reports, p->time_s,
			    p->kind == HID_PASS_IN ? "inter-arrival" : "time per write", p->p50_us);
		finding_add(out, FINDING_WARN, "hid.above_ceiling", d->name, msg.buf, ev.buf,
			    "an emulated or virtual host controller (dummy_hcd, a VM) may schedule "
			    "interrupt transfers without the interval: figures from it are not a "
			    "real bus's");
	}
	strbuf_release(&msg);
	strbuf_release(&ev);
}

static void split_finding(const struct hid_device *d, const struct hid_endpoint *e, const char *dir,
			  struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
	unsigned packets;

	if (!e->present || !e->max_packet || e->report_bytes <= e->max_packet)
		return;
	packets = (e->report_bytes + e->max_packet - 1) / e->max_packet;
	strbuf_addf(&msg, "the %u B %s report is split over %u packets of up to %u B",
		    e->report_bytes, dir, packets, e->max_packet);
	strbuf_addf(&ev, "report descriptor of %s; wMaxPacketSize %u of endpoint 0x%02x", d->hid,
		    e->max_packet, e->address);
	if (e->has_ceiling && e->ceiling.intervals_per_report > 1)
		strbuf_addf(&ev, ": %u service intervals per report",
			    e->ceiling.intervals_per_report);
	finding_add(
	    out, FINDING_INFO, "hid.report_split", d->name, msg.buf, ev.buf,
	    "a wMaxPacketSize at least the report size (high speed allows 1024 B, and up to "
	    "3 per microframe) carries one report per interval");
	strbuf_release(&msg);
	strbuf_release(&ev);
}

static void speed_finding(const struct hid_device *d, struct finding_list *out)
{
	struct usb_hid_params hs = {.speed = USB_SPEED_HIGH, .interval = 1};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_hid_result r;
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

	if (d->usb.speed != USB_SPEED_FULL || !d->in.present || !d->in.has_ceiling)
		return;
	hs.report_length = d->in.report_bytes;
	if (usb_hid_calc(&hs, &r, &err) == 0) {
		strbuf_addf(&msg,
			    "full-speed HID: at most %.0f reports/s; at high speed bInterval 1 "
			    "allows %.0f/s (%.0fx)",
			    d->in.ceiling.rates[0].reports_per_s, r.rates[0].reports_per_s,
			    r.rates[0].reports_per_s / d->in.ceiling.rates[0].reports_per_s);
		strbuf_addf(&ev, "%s at full speed, bInterval %u ms, %u B reports", d->usb.device,
			    d->in.interval, d->in.report_bytes);
		finding_add(out, FINDING_INFO, "hid.full_speed", d->name, msg.buf, ev.buf,
			    "a high-speed device (or gadget max_speed high-speed) polls every "
			    "125 us microframe instead of every 1 ms frame: 8x the reports");
		usb_hid_result_release(&r);
	}
	usb_calc_error_release(&err);
	strbuf_release(&msg);
	strbuf_release(&ev);
}

/* reports the wire carried to the host that the reader never read (hid --monitor) */
static void unread_finding(const struct hid_device *d, const struct hid_pass *p,
			   struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
	bool drained = p->ended && (!strcmp(p->ended, "idle") || !strcmp(p->ended, "timeout"));

	if (p->kind != HID_PASS_IN || p->unread == U64_UNKNOWN || !p->unread)
		return;
	strbuf_addf(&msg,
		    "%llu of the %llu reports the host received were not read%s: the "
		    "reader fell behind and hidraw's queue (63 reports) overflowed; the "
		    "rate measured is the reader's, not the link's",
		    (unsigned long long)p->unread, (unsigned long long)p->urbs_data,
		    drained ? "" : " (some may have come after the pass stopped reading)");
	strbuf_addf(&ev,
		    "usbmon: %llu interrupt-IN completions with data on %s; the reader: %llu "
		    "reports; ended by %s",
		    (unsigned long long)p->urbs_data, d->usb.device ? d->usb.device : d->node,
		    (unsigned long long)p->reports, p->ended ? p->ended : "?");
	finding_add(out, FINDING_WARN, "hid.reports_unread", d->name, msg.buf, ev.buf,
		    "a reader stalled longer than 63 report periods loses reports: measure on "
		    "a quieter CPU, or give the reader priority (nice -n -10, chrt)");
	strbuf_release(&msg);
	strbuf_release(&ev);
}

void hid_findings(const struct hid_device *d, const struct hid_pass *passes, size_t n,
		  struct finding_list *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		poll_findings(d, &passes[i], out);
		unread_finding(d, &passes[i], out);
	}
	split_finding(d, &d->in, "input", out);
	split_finding(d, &d->out, "output", out);
	speed_finding(d, out);
}

// SPDX-License-Identifier: MIT
/* Findings from the wire figures of a device's passes. */
#include "platform/usbmon/findings.h"
#include "util/parse.h"
#include "util/strbuf.h"

#include <math.h>
#include <string.h>

static bool is_bot(const struct usbmon_device_view *d)
{
	return d->driver && !strcmp(d->driver, "usb-storage");
}

/* requests larger than the URBs that carried them: split by the request-size cap */
static void small_urbs(const struct usbmon_device_view *d, const struct usbmon_pass_view *v,
		       size_t n, struct finding_list *out)
{
	const struct usbmon_pass_view *w = NULL;
	struct strbuf ev = STRBUF_INIT, fix = STRBUF_INIT;
	char req[24], urb[24];

	for (size_t i = 0; i < n; i++)
		if (v[i].urbs && v[i].urb_size && v[i].urb_size < USBMON_SMALL_URB &&
		    v[i].request_bytes > v[i].urb_size &&
		    (!w || v[i].request_bytes > w->request_bytes))
			w = &v[i];
	if (!w)
		return;
	format_size(w->request_bytes, req, sizeof(req));
	format_size(w->urb_size, urb, sizeof(urb));
	strbuf_addf(&ev,
		    "%s: %s requests went on the wire as %s URBs (the data endpoint's "
		    "dominant size, usbmon)",
		    w->pass, req, urb);
	if (d->max_sectors_kb != U64_UNKNOWN)
		strbuf_addf(&ev, "; /sys/block/%s/queue/max_sectors_kb = %llu%s",
			    d->block ? d->block : "?", (unsigned long long)d->max_sectors_kb,
			    d->max_sectors_kb * 1024 == w->urb_size ? ", the same size" : "");
	strbuf_adds(&fix, "see block.small_max_sectors: raise max_sectors_kb (usb-storage: "
			  "/sys/block/DEV/device/max_sectors) and the URBs grow with it");
	finding_add(out, FINDING_WARN, "usbmon.small_urbs", d->subject,
		    "requests capped small on the wire: each large request is split into "
		    "several small transfers",
		    ev.buf, fix.buf);
	strbuf_release(&ev);
	strbuf_release(&fix);
}

/* the host asked for a queue and the wire carried one URB at a time */
static void one_in_flight(const struct usbmon_device_view *d, const struct usbmon_pass_view *v,
			  size_t n, struct finding_list *out)
{
	const struct usbmon_pass_view *w = NULL;
	struct strbuf ev = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (v[i].urbs && v[i].qd > 1 && v[i].inflight_max <= 1 && (!w || v[i].qd > w->qd))
			w = &v[i];
	if (!w)
		return;
	strbuf_addf(&ev,
		    "%s: %u requests queued by usbperf, at most %.0f URB in flight on the "
		    "wire (mean %.2f, usbmon)",
		    w->pass, w->qd, w->inflight_max, w->inflight_mean);
	if (d->driver)
		strbuf_addf(&ev, "; driver %s", d->driver);
	finding_add(out, FINDING_WARN, "usbmon.one_in_flight", d->subject,
		    "one URB in flight: the device is given one command at a time, however "
		    "many are queued",
		    ev.buf,
		    is_bot(d)
			? "Bulk-Only (usb-storage) has no command queue: a UAS device or "
			  "adapter (driver uas) keeps several commands in flight"
			: "check the driver's queue depth (/sys/block/DEV/device/queue_depth)");
	strbuf_release(&ev);
}

/* a large-block pass during which the bus mostly had nothing in flight */
static void bus_idle(const struct usbmon_device_view *d, const struct usbmon_pass_view *v, size_t n,
		     struct finding_list *out)
{
	const struct usbmon_pass_view *w = NULL;
	struct strbuf ev = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (v[i].urbs && v[i].request_bytes >= USBMON_IDLE_MIN_BS &&
		    !isnan(v[i].busy_pct) && v[i].busy_pct < USBMON_IDLE_PCT &&
		    (!w || v[i].busy_pct < w->busy_pct))
			w = &v[i];
	if (!w)
		return;
	strbuf_addf(&ev, "%s: a URB in flight %.1f%% of the pass, none %.1f%% (usbmon)", w->pass,
		    w->busy_pct, 100 - w->busy_pct);
	finding_add(out, FINDING_INFO, "usbmon.bus_idle", d->subject,
		    "the bus sat idle for much of a large-block pass: the host or the device was "
		    "slow to queue the next transfer, not the link",
		    ev.buf,
		    "queue more (a deeper queue depth, larger requests) or look at the host's "
		    "CPU and the device's own latency; a faster link would not help");
	strbuf_release(&ev);
}

/*
 * UAS and streams: with them (SuperSpeed, a host controller that has them) the
 * data of several commands is in flight on one endpoint at once; without them
 * (high speed has none; a controller with broken streams is made to go without)
 * the data moves one command at a time, whatever the queue.
 */
static void uas_streams(const struct usbmon_device_view *d, const struct usbmon_pass_view *v,
			size_t n, struct finding_list *out)
{
	const struct usbmon_pass_view *w = NULL;
	struct strbuf ev = STRBUF_INIT;

	if (!d->driver || strcmp(d->driver, "uas"))
		return;
	for (size_t i = 0; i < n; i++)
		if (v[i].urbs && v[i].qd > 1 && !isnan(v[i].data_inflight_max) &&
		    (!w || v[i].data_inflight_max > w->data_inflight_max ||
		     (v[i].data_inflight_max == w->data_inflight_max && v[i].qd > w->qd)))
			w = &v[i];
	if (!w)
		return;
	strbuf_addf(&ev,
		    "%s: %u requests queued by usbperf, at most %.0f data URB%s in flight on its "
		    "data endpoint at once (usbmon)",
		    w->pass, w->qd, w->data_inflight_max, w->data_inflight_max == 1 ? "" : "s");
	if (w->data_inflight_max > 1)
		finding_add(out, FINDING_INFO, "usbmon.uas_streams", d->subject,
			    "UAS with streams: the data of several commands in flight on one "
			    "endpoint",
			    ev.buf, "nothing to change: the device is given a queue");
	else
		finding_add(
		    out, FINDING_WARN, "usbmon.uas_streams", d->subject,
		    "UAS without streams: one command's data on the wire at a time, "
		    "however many are queued",
		    ev.buf,
		    "streams need SuperSpeed: a USB 3 port and cable; at SuperSpeed, the host "
		    "controller lacks them or has them turned off (dmesg: 'streams', the "
		    "xhci quirk XHCI_BROKEN_STREAMS)");
	strbuf_release(&ev);
}

static void errors(const struct usbmon_device_view *d, const struct usbmon_pass_view *v, size_t n,
		   struct finding_list *out)
{
	struct strbuf ev = STRBUF_INIT;
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].usb_errors || v[i].usb_errors == U64_UNKNOWN)
			continue;
		strbuf_addf(&ev, "%s%s: %llu", ev.len ? ", " : "", v[i].pass,
			    (unsigned long long)v[i].usb_errors);
		total += v[i].usb_errors;
	}
	if (total) {
		strbuf_adds(&ev, " URBs completed with an error status (stall, protocol, babble, "
				 "unlink; usbmon)");
		finding_add(out, FINDING_WARN, "usbmon.errors", d->subject,
			    "USB errors during the passes: retries and resets cost time", ev.buf,
			    "usbperf monitor --pcap shows each one; check the cable, the hub and "
			    "the device's power");
	}
	strbuf_release(&ev);
}

static void protocol(const struct usbmon_device_view *d, const struct usbmon_pass_view *v, size_t n,
		     struct finding_list *out)
{
	const struct usbmon_pass_view *w = NULL;
	struct strbuf ev = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (v[i].bot_commands && v[i].bot_commands != U64_UNKNOWN &&
		    v[i].protocol_pct >= USBMON_PROTOCOL_PCT &&
		    (!w || v[i].protocol_pct > w->protocol_pct))
			w = &v[i];
	if (!w)
		return;
	strbuf_addf(&ev,
		    "%s: %llu commands x (31 B CBW + 13 B CSW) = %llu B of %llu wire bytes, "
		    "%.2f%% (usbmon)",
		    w->pass, (unsigned long long)w->bot_commands,
		    (unsigned long long)w->protocol_bytes, (unsigned long long)w->wire_bytes,
		    w->protocol_pct);
	finding_add(out, FINDING_INFO, "usbmon.protocol_overhead", d->subject,
		    "Bulk-Only's wrappers take a share of the wire: each command adds a 31 B "
		    "CBW and a 13 B CSW, each its own transfer",
		    ev.buf, "larger requests carry more data per command");
	strbuf_release(&ev);
}

void usbmon_findings(const struct usbmon_device_view *d, const struct usbmon_pass_view *v, size_t n,
		     struct finding_list *out)
{
	small_urbs(d, v, n, out);
	one_in_flight(d, v, n, out);
	uas_streams(d, v, n, out);
	bus_idle(d, v, n, out);
	errors(d, v, n, out);
	protocol(d, v, n, out);
}

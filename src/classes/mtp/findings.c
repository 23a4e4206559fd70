// SPDX-License-Identifier: MIT
/* usbperf mtp's findings: what its figures say about the link and the device. */
#include "classes/mtp/fields.h"
#include "classes/mtp/mtp.h"
#include "util/strbuf.h"

#include <math.h>
#include <string.h>

/* below this share of the link's bulk ceiling the device, not the link, sets the rate */
#define BELOW_CEILING_PCT 25.0
/* small objects moving less than this share of the large files' bytes/s: overhead rules */
#define OVERHEAD_PCT 25.0

/* the best mean rate over the sizes, either direction; NaN none */
static double best_rate(const struct mtp_analysis *a, const struct mtp_size_result **ret_at,
			const char **ret_dir)
{
	double best = NAN;

	for (size_t i = 0; i < a->nsizes; i++) {
		const struct mtp_size_result *r = &a->sizes[i];

		if (!r->n)
			continue;
		if (!(r->send_mb_s.mean <= best)) {
			best = r->send_mb_s.mean;
			*ret_at = r;
			*ret_dir = "send";
		}
		if (!(r->get_mb_s.mean <= best)) {
			best = r->get_mb_s.mean;
			*ret_at = r;
			*ret_dir = "get";
		}
	}
	return best;
}

void mtp_findings(const struct mtp_analysis *a, struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
	const struct mtp_size_result *at = NULL;
	const char *dir = NULL;
	double best = best_rate(a, &at, &dir);

	if (a->speed == USB_SPEED_FULL || a->speed == USB_SPEED_LOW) {
		strbuf_addf(&msg,
			    "the MTP device is on a %s-speed link: every transfer is capped "
			    "near %.1f MB/s",
			    usb_speed_name(a->speed), a->ceiling_mb_s);
		strbuf_addf(&ev, "/sys/bus/usb/devices/%s/speed", a->device);
		finding_add(out, FINDING_WARN, "mtp.full_speed_link", a->device, msg.buf, ev.buf,
			    "use a high-speed cable and port (a USB 2.0 hub or a charge-only "
			    "cable can force full speed)");
		strbuf_reset(&msg);
		strbuf_reset(&ev);
	}
	if (at && a->ceiling_mb_s > 0 && best < a->ceiling_mb_s * BELOW_CEILING_PCT / 100.0) {
		strbuf_addf(&msg,
			    "MTP moves at most %.1f MB/s, %.0f%% of the link's %.1f MB/s bulk "
			    "ceiling: the device side (its MTP server's buffers, its storage) "
			    "sets the rate, not the link",
			    best, 100.0 * best / a->ceiling_mb_s, a->ceiling_mb_s);
		strbuf_addf(&ev, "best mean: %s of %llu-byte files", dir,
			    (unsigned long long)at->bytes);
		finding_add(out, FINDING_WARN, "mtp.far_below_ceiling", a->device, msg.buf, ev.buf,
			    "larger read/write buffers in the device's MTP server (umtprd: "
			    "usb_max_rd_buffer_size, usb_max_wr_buffer_size)");
		strbuf_reset(&msg);
		strbuf_reset(&ev);
	}
	if (a->objects && a->objects->sent && at && a->objects->send_mb_s >= 0 &&
	    a->objects->send_mb_s < best * OVERHEAD_PCT / 100.0) {
		const struct mtp_objects_result *o = a->objects;

		strbuf_addf(&msg,
			    "per-object overhead dominates small files: %llu-byte objects go at "
			    "%.0f objects/s = %.2f MB/s, %.0f%% of the %.1f MB/s large files reach",
			    (unsigned long long)o->size, o->send_per_s, o->send_mb_s,
			    100.0 * o->send_mb_s / best, best);
		strbuf_addf(&ev, "%llu objects sent in %.2f s (%.1f ms each)",
			    (unsigned long long)o->sent, o->send_s,
			    1e3 * o->send_s / (double)o->sent);
		finding_add(out, FINDING_INFO, "mtp.object_overhead", a->device, msg.buf, ev.buf,
			    "copy many small files as one archive");
	}
	strbuf_release(&msg);
	strbuf_release(&ev);
}

/* a rate this much higher with the largest buffers than with the smallest: they limit it */
#define BUFFER_GAIN_PCT 20.0

void mtp_sweep_findings(const struct mtp_sweep_row *rows, size_t n, const char *device,
			struct finding_list *out)
{
	for (size_t i = 0; i < n; i++) {
		const struct mtp_sweep_row *lo = &rows[i], *hi = NULL;
		struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
		double gain_send, gain_get, gain;

		/* the first row of each file size: the smallest buffer; the largest after it */
		bool first = true;
		for (size_t k = 0; k < i; k++)
			if (rows[k].pass && lo->pass && !strcmp(rows[k].pass, lo->pass))
				first = false;
		if (!first || !lo->pass)
			continue;
		for (size_t k = i + 1; k < n; k++)
			if (rows[k].pass && !strcmp(rows[k].pass, lo->pass) &&
			    rows[k].buffer > lo->buffer && (!hi || rows[k].buffer > hi->buffer))
				hi = &rows[k];
		if (!hi)
			continue;
		gain_send = 100.0 * (hi->send_mb_s / lo->send_mb_s - 1);
		gain_get = 100.0 * (hi->get_mb_s / lo->get_mb_s - 1);
		gain = isnan(gain_get) || gain_send > gain_get ? gain_send : gain_get;
		if (!(gain >= BUFFER_GAIN_PCT))
			continue;
		strbuf_addf(&msg,
			    "the MTP responder's buffers limit it: %s files go %.1f/%.1f MB/s "
			    "(send/get) with %llu B buffers, %.1f/%.1f with %llu B (+%.0f%%)",
			    lo->pass, lo->send_mb_s, lo->get_mb_s, (unsigned long long)lo->buffer,
			    hi->send_mb_s, hi->get_mb_s, (unsigned long long)hi->buffer, gain);
		strbuf_addf(&ev, "usbperf mtp --buffer-sweep: umtprd's usb_max_rd_buffer_size and "
				 "usb_max_wr_buffer_size set per row");
		finding_add(
		    out, FINDING_WARN, "mtp.small_buffers", device, msg.buf, ev.buf,
		    "raise the responder's USB buffers (umtprd: usb_max_rd_buffer_size, "
		    "usb_max_wr_buffer_size, read_buffer_cache_size above them; Android's "
		    "MTP server: its Tx/Rx buffer sizes) to the largest size that still helped");
		strbuf_release(&msg);
		strbuf_release(&ev);
	}
}

void mtp_storage_findings(const char *device, const char *storage, uint32_t id, uint64_t capacity,
			  uint64_t free_bytes, struct finding_list *out)
{
	struct mtp_storage_judgement j;
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

	mtp_storage_judge(capacity, free_bytes, &j);
	if (!j.anomaly)
		return;
	strbuf_addf(
	    &msg,
	    "storage '%s' reports figures that cannot be true (%s): neither is printed, and "
	    "whether the test fits was checked against %s",
	    storage ? storage : "?", j.why,
	    j.room == UINT64_MAX ? "nothing" : "its capacity alone");
	strbuf_addf(&ev,
		    "GetStorageInfo of storage 0x%08x: MaxCapacity %llu B, FreeSpaceInBytes %llu B",
		    id, (unsigned long long)capacity, (unsigned long long)free_bytes);
	finding_add(out, FINDING_WARN, "mtp.storage_figures", device, msg.buf, ev.buf,
		    "the responder's storage accounting (its free space after deletes, the units "
		    "of its statfs figures)");
	strbuf_release(&msg);
	strbuf_release(&ev);
}

void mtp_path_findings(const char *device, const char *folder, const struct mtp_path *p,
		       struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

	/* the folder as asked, or no place that took a file (the failure says that) */
	if (p->place == MTP_PLACE_NONE || (p->place == MTP_PLACE_FOLDER && !p->reread) ||
	    !p->proven)
		return;
	if (p->place != MTP_PLACE_FOLDER) {
		strbuf_addf(&msg,
			    "the folder '%s' did not take the files where another place does: "
			    "they went to ",
			    folder ? folder : "?");
		if (p->place == MTP_PLACE_ROOT)
			strbuf_adds(&msg, "the storage's root (where libmtp's own tools send)");
		else
			strbuf_addf(&msg, "the folder '%s', already on the device",
				    p->folder ? p->folder : "?");
	}
	if (p->reread)
		strbuf_addf(
		    &msg,
		    "%sthe device gave handles it could not read back after each send: usbperf "
		    "found every object by its name (send times include libmtp's failed "
		    "read-back)",
		    msg.len ? "; " : "");
	strbuf_addf(&ev, "%s", p->why ? p->why : "the handle of every sent object unreadable");
	finding_add(
	    out, FINDING_INFO, "mtp.send_path", device, msg.buf, ev.buf,
	    "the responder's handling of new objects (a folder made in the same session, "
	    "the handle it answers to SendObjectInfo); usbperf deleted what it made wherever "
	    "it went");
	strbuf_release(&msg);
	strbuf_release(&ev);
}

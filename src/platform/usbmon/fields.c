// SPDX-License-Identifier: MIT
/* usbperf monitor's rows and their field tables. */
#include "platform/usbmon/fields.h"
#include "platform/usb/topology.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "platform/usbmon/fields.fields.h"

static const char *const xfer_names[] = {"iso", "interrupt", "control", "bulk"};

static double rate(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : NAN;
}

static char *dev_name(const struct usbmon_stats *s, size_t i, const struct usb_topology *t,
		      const struct usb_device **ret)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned bus = s->devs[i].busnum, dev = s->devs[i].devnum;

	*ret = NULL;
	for (size_t k = 0; t && k < t->ndev; k++)
		if (t->dev[k].busnum == bus && t->dev[k].devnum == dev) {
			*ret = &t->dev[k];
			return xstrdup(t->dev[k].path);
		}
	strbuf_addf(&sb, "bus %u dev %u", bus, dev);
	return strbuf_detach(&sb);
}

/* the interface drivers of a device, distinct, comma-separated */
static char *drivers_of(const struct usb_topology *t, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < t->nintf; i++) {
		const char *d = t->intf[i].driver;

		if (!d || strcmp(t->intf[i].device, path))
			continue;
		if (sb.len) {
			/* already there as a whole name? */
			const char *p = strstr(sb.buf, d);
			size_t n = strlen(d);

			if (p && (p == sb.buf || p[-1] == ',') && (p[n] == ',' || !p[n]))
				continue;
			strbuf_addch(&sb, ',');
		}
		strbuf_adds(&sb, d);
	}
	return sb.len ? strbuf_detach(&sb) : (strbuf_release(&sb), NULL);
}

static uint64_t max_sectors_of(const struct usb_topology *t, const char *path)
{
	for (size_t i = 0; i < t->nnode; i++)
		if (!strcmp(t->node[i].device, path) && t->node[i].kind &&
		    !strcmp(t->node[i].kind, USB_NODE_DISK))
			return t->node[i].max_sectors_kb;
	return U64_UNKNOWN;
}

static void size_hist(const struct usbmon_ep_stats *e, struct strbuf *out)
{
	for (unsigned k = 0; k < USBMON_SIZE_BUCKETS; k++)
		if (e->size_hist[k])
			strbuf_addf(out, "%s%llu:%llu", out->len ? " " : "",
				    (unsigned long long)usbmon_size_bucket_low(k),
				    (unsigned long long)e->size_hist[k]);
}

static void exact_sizes(const struct usbmon_ep_stats *e, struct strbuf *out)
{
	uint64_t last = 0;
	bool first = true;

	/* ascending without sorting the table: the next larger each time */
	for (unsigned n = 0; n < e->nsizes; n++) {
		const struct usbmon_size_count *next = NULL;

		for (unsigned i = 0; i < e->nsizes; i++)
			if ((first || e->sizes[i].size > last) &&
			    (!next || e->sizes[i].size < next->size))
				next = &e->sizes[i];
		if (!next)
			break;
		strbuf_addf(out, "%s%u:%llu", out->len ? " " : "", next->size,
			    (unsigned long long)next->count);
		last = next->size;
		first = false;
	}
}

static void ep_row(const struct usbmon_stats *s, const struct usbmon_ep_stats *e,
		   const char *device, double secs, struct usbmon_ep_row *r)
{
	struct strbuf sb = STRBUF_INIT;

	r->device = xstrdup(device);
	r->bus = e->busnum;
	r->devnum = e->devnum;
	strbuf_addf(&sb, "0x%02x", e->epnum);
	r->endpoint = strbuf_detach(&sb);
	r->dir = e->epnum & 0x80 ? "in" : "out";
	r->type = xfer_names[e->xfer_type & 3];
	r->urbs = e->completions;
	r->bytes = e->bytes;
	r->mb_s = rate(e->bytes, secs) / 1e6;
	r->urbs_s = rate(e->completions, secs);
	r->urb_size = e->completions ? usbmon_ep_dominant(e, &r->urb_size_count) : U64_UNKNOWN;
	if (!e->completions)
		r->urb_size_count = 0;
	size_hist(e, &sb);
	r->size_hist = strbuf_detach(&sb);
	exact_sizes(e, &sb);
	r->sizes = strbuf_detach(&sb);
	r->inflight_max = e->inflight_max;
	r->inflight_mean = secs > 0 ? e->inflight_area / (secs * 1e6) : NAN;
	r->lat_p50_us = usbmon_ep_lat_quantile(e, 0.50);
	r->lat_p99_us = usbmon_ep_lat_quantile(e, 0.99);
	r->lat_max_us = e->lat_n ? (double)e->lat_max_us : NAN;
	r->submits = e->submits;
	r->empty = e->empty;
	r->unmatched = e->unmatched;
	r->submit_errors = e->submit_errors;
	r->err_epipe = e->errors[USBMON_EPIPE];
	r->err_eproto = e->errors[USBMON_EPROTO];
	r->err_eoverflow = e->errors[USBMON_EOVERFLOW];
	r->err_enoent = e->errors[USBMON_ENOENT];
	r->err_econnreset = e->errors[USBMON_ECONNRESET];
	r->err_eshutdown = e->errors[USBMON_ESHUTDOWN];
	r->err_other = e->errors[USBMON_EOTHER];
	r->iso_packets = e->iso_packets;
	r->iso_packet_errors = e->iso_packet_errors;
	(void)s;
}

static void dev_row(const struct usbmon_stats *s, size_t i, const struct usb_topology *t,
		    double secs, struct usbmon_device_row *r)
{
	const struct usbmon_dev_stats *d = &s->devs[i];
	const struct usb_device *ud;
	struct usbmon_ep_stats *lat;
	uint64_t busiest = 0;
	bool any = false;

	r->device = dev_name(s, i, t, &ud);
	r->bus = d->busnum;
	r->devnum = d->devnum;
	r->ceiling_mb_s = NAN;
	r->max_sectors_kb = U64_UNKNOWN;
	r->urb_size = U64_UNKNOWN;
	if (ud) {
		r->vid_pid = xstrdup(ud->vid_pid);
		r->product = xstrdup(ud->product);
		r->speed = ud->speed_name;
		r->ceiling_mb_s = ud->bulk_ceiling_mb_s;
		r->driver = drivers_of(t, ud->path);
		r->max_sectors_kb = max_sectors_of(t, ud->path);
	}
	/* the device's latency over all its endpoints: their histograms summed */
	lat = calloc(1, sizeof(*lat));
	for (size_t k = 0; k < s->neps; k++) {
		const struct usbmon_ep_stats *e = &s->eps[k];

		if (e->busnum != d->busnum || e->devnum != d->devnum)
			continue;
		*(e->epnum & 0x80 ? &r->in_bytes : &r->out_bytes) += e->bytes;
		r->urbs += e->completions;
		for (size_t u = 0; u < USBMON_NERR; u++)
			r->errors += e->errors[u];
		r->unmatched += e->unmatched;
		/* the data endpoint that moved the most says the URB size */
		if (e->xfer_type != USBMON_CTRL && e->completions && (!any || e->bytes > busiest)) {
			busiest = e->bytes;
			any = true;
			r->urb_size = usbmon_ep_dominant(e, NULL);
		}
		if (lat) {
			for (size_t b = 0; b < USBMON_LAT_BUCKETS; b++)
				lat->lat_hist[b] += e->lat_hist[b];
			lat->lat_n += e->lat_n;
			if (e->lat_max_us > lat->lat_max_us)
				lat->lat_max_us = e->lat_max_us;
		}
	}
	r->in_mb_s = rate(r->in_bytes, secs) / 1e6;
	r->out_mb_s = rate(r->out_bytes, secs) / 1e6;
	r->urbs_s = rate(r->urbs, secs);
	r->inflight_max = d->inflight_max;
	r->inflight_mean = secs > 0 ? d->inflight_area / (secs * 1e6) : NAN;
	r->busy_pct = secs > 0 ? 100.0 * (double)d->busy_us / (secs * 1e6) : NAN;
	r->lat_p50_us = lat ? usbmon_ep_lat_quantile(lat, 0.50) : NAN;
	r->lat_p99_us = lat ? usbmon_ep_lat_quantile(lat, 0.99) : NAN;
	r->lat_max_us = lat && lat->lat_n ? (double)lat->lat_max_us : NAN;
	free(lat);
}

int usbmon_rows_build(const struct usbmon_stats *s, const struct usb_topology *t,
		      struct usbmon_rows *ret)
{
	struct usbmon_rows r = {0};
	double secs = usbmon_window_s(s);

	r.sum.bus = 0;
	r.sum.seconds = secs;
	r.sum.events = s->events;
	r.sum.dropped = s->dropped;
	r.sum.lower_bound = s->dropped > 0 || s->pending_overflow > 0 || s->ep_overflow > 0;
	r.sum.unmatched_overflow = s->pending_overflow;
	r.sum.ring_bytes = U64_UNKNOWN;
	r.sum.pcap_bytes = U64_UNKNOWN;
	r.dev = calloc(s->ndevs ? s->ndevs : 1, sizeof(*r.dev));
	r.ep = calloc(s->neps ? s->neps : 1, sizeof(*r.ep));
	if (!r.dev || !r.ep) {
		free_all(r.dev, r.ep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->ndevs; i++)
		dev_row(s, i, t, secs, &r.dev[r.ndev++]);
	/* endpoints in device order, then by address */
	for (size_t i = 0; i < r.ndev; i++)
		for (unsigned a = 0; a < 256; a++)
			for (size_t k = 0; k < s->neps; k++) {
				const struct usbmon_ep_stats *e = &s->eps[k];

				if (e->busnum == r.dev[i].bus && e->devnum == r.dev[i].devnum &&
				    e->epnum == a)
					ep_row(s, e, r.dev[i].device, secs, &r.ep[r.nep++]);
			}
	*ret = r;
	return 0;
}

void usbmon_rows_release(struct usbmon_rows *r)
{
	if (!r)
		return;
	free_all(r->sum.source, r->sum.pcap);
	for (size_t i = 0; i < r->ndev; i++)
		free_all(r->dev[i].device, r->dev[i].vid_pid, r->dev[i].product, r->dev[i].driver);
	for (size_t i = 0; i < r->nep; i++)
		free_all(r->ep[i].device, r->ep[i].endpoint, r->ep[i].size_hist, r->ep[i].sizes);
	free_all(r->dev, r->ep);
	memset(r, 0, sizeof(*r));
}

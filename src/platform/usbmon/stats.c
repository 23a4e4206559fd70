// SPDX-License-Identifier: MIT
/*
 * Figures per endpoint and device from a stream of usbmon events.
 *
 * What len_urb means (mon_bin_event() in drivers/usb/mon/mon_bin.c): on 'S' it is
 * urb->transfer_buffer_length, the bytes asked for, for IN and OUT alike; on 'C' it is
 * urb->actual_length, the bytes that crossed the bus, again for both directions (for
 * an isochronous URB the HCD sums the packets' actual lengths into it). So the bytes
 * counted are len_urb of the 'C' events only, per direction (epnum's 0x80 bit is the
 * URB's direction, which also splits endpoint 0's IN and OUT control transfers).
 * len_cap is what was copied into the ring and can be less (the ring's fifth, no
 * transfer buffer, highmem pages): it never counts. A control transfer's 8-byte
 * SETUP packet is not in len_urb and is not counted either.
 */
#include "platform/usbmon/usbmon.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const usbmon_err_names[USBMON_NERR] = {
    "epipe", "eproto", "eoverflow", "enoent", "econnreset", "eshutdown", "other",
};

/* the URB-id table: open addressing, linear probing, grown up to the cap */
struct pending_slot {
	uint64_t id;
	uint64_t ts_us;
	uint32_t ep; /* index into eps */
	uint32_t used;
};

struct usbmon_pending {
	struct pending_slot *v;
	size_t cap, n; /* cap: a power of two */
};

#define PENDING_MIN 256
#define PENDING_MAX (2 * USBMON_INFLIGHT_CAP)

static size_t slot_of(const struct usbmon_pending *p, uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (p->cap - 1);
}

static struct pending_slot *pending_find(struct usbmon_pending *p, uint64_t id)
{
	size_t i = slot_of(p, id);

	while (p->v[i].used) {
		if (p->v[i].id == id)
			return &p->v[i];
		i = (i + 1) & (p->cap - 1);
	}
	return NULL;
}

/* backward-shift deletion keeps every probe chain unbroken */
static void pending_remove(struct usbmon_pending *p, struct pending_slot *s)
{
	size_t i = (size_t)(s - p->v), j = i;

	for (;;) {
		size_t home;

		j = (j + 1) & (p->cap - 1);
		if (!p->v[j].used)
			break;
		home = slot_of(p, p->v[j].id);
		/* move j into the hole at i when its home is not in (i, j] */
		if (((j - home) & (p->cap - 1)) >= ((j - i) & (p->cap - 1))) {
			p->v[i] = p->v[j];
			i = j;
		}
	}
	p->v[i].used = 0;
	p->n--;
}

static void pending_put(struct usbmon_pending *p, uint64_t id, uint64_t ts, uint32_t ep)
{
	size_t i = slot_of(p, id);

	while (p->v[i].used)
		i = (i + 1) & (p->cap - 1);
	p->v[i] = (struct pending_slot){.id = id, .ts_us = ts, .ep = ep, .used = 1};
	p->n++;
}

static int pending_grow(struct usbmon_pending *p)
{
	struct usbmon_pending np = {.cap = p->cap * 2};
	size_t i;

	np.v = calloc(np.cap, sizeof(*np.v));
	if (!np.v)
		return -ENOMEM;
	for (i = 0; i < p->cap; i++)
		if (p->v[i].used)
			pending_put(&np, p->v[i].id, p->v[i].ts_us, p->v[i].ep);
	free(p->v);
	*p = np;
	return 0;
}

int usbmon_stats_init(struct usbmon_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->pending = calloc(1, sizeof(*s->pending));
	if (!s->pending)
		return -ENOMEM;
	s->pending->cap = PENDING_MIN;
	s->pending->v = calloc(PENDING_MIN, sizeof(*s->pending->v));
	if (!s->pending->v) {
		free(s->pending);
		s->pending = NULL;
		return -ENOMEM;
	}
	return 0;
}

void usbmon_stats_release(struct usbmon_stats *s)
{
	if (!s)
		return;
	free_all(s->eps, s->devs);
	if (s->pending)
		free(s->pending->v);
	free(s->pending);
	memset(s, 0, sizeof(*s));
}

static uint64_t window_start(const struct usbmon_stats *s)
{
	return s->start_us ? s->start_us : s->first_us;
}

static struct usbmon_dev_stats *dev_get(struct usbmon_stats *s, unsigned bus, unsigned dev)
{
	struct usbmon_dev_stats *d;
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		if (s->devs[i].busnum == bus && s->devs[i].devnum == dev)
			return &s->devs[i];
	if (s->ndevs >= USBMON_MAX_DEVICES)
		return NULL;
	d = realloc(s->devs, (s->ndevs + 1) * sizeof(*d));
	if (!d)
		return NULL;
	s->devs = d;
	d = &s->devs[s->ndevs++];
	*d = (struct usbmon_dev_stats){
	    .busnum = (uint16_t)bus, .devnum = (uint8_t)dev, .last_us = window_start(s)};
	return d;
}

static long ep_get(struct usbmon_stats *s, const struct usbmon_event *e)
{
	struct usbmon_ep_stats *v;
	size_t i;

	for (i = 0; i < s->neps; i++)
		if (s->eps[i].busnum == e->busnum && s->eps[i].devnum == e->devnum &&
		    s->eps[i].epnum == e->epnum)
			return (long)i;
	if (s->neps >= USBMON_MAX_ENDPOINTS)
		return -ENOSPC;
	/* the device first, so that an endpoint never exists without it */
	if (!dev_get(s, e->busnum, e->devnum))
		return s->ndevs >= USBMON_MAX_DEVICES ? -ENOSPC : -ENOMEM;
	v = realloc(s->eps, (s->neps + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->eps = v;
	v = &s->eps[s->neps];
	memset(v, 0, sizeof(*v));
	v->busnum = e->busnum;
	v->devnum = e->devnum;
	v->epnum = e->epnum;
	v->last_us = window_start(s);
	return (long)s->neps++;
}

/* the in-flight integrals up to t (a clock stepped back integrates nothing) */
static void ep_advance(struct usbmon_ep_stats *ep, uint64_t t)
{
	if (t > ep->last_us) {
		ep->inflight_area += (double)ep->inflight * (double)(t - ep->last_us);
		ep->last_us = t;
	}
}

static void dev_advance(struct usbmon_dev_stats *d, uint64_t t)
{
	if (t > d->last_us) {
		d->inflight_area += (double)d->inflight * (double)(t - d->last_us);
		d->last_us = t;
	}
}

static void urb_started(struct usbmon_ep_stats *ep, struct usbmon_dev_stats *d, uint64_t t)
{
	if (++ep->inflight > ep->inflight_max)
		ep->inflight_max = ep->inflight;
	if (d->inflight++ == 0)
		d->busy_since = t;
	if (d->inflight > d->inflight_max)
		d->inflight_max = d->inflight;
}

static void urb_ended(struct usbmon_ep_stats *ep, struct usbmon_dev_stats *d, uint64_t t)
{
	if (ep->inflight)
		ep->inflight--;
	if (d->inflight && --d->inflight == 0 && t > d->busy_since)
		d->busy_us += t - d->busy_since;
}

static unsigned size_bucket(uint32_t v)
{
	return v ? 32u - (unsigned)__builtin_clz(v) : 0;
}

uint64_t usbmon_size_bucket_low(unsigned k)
{
	return k ? 1ULL << (k - 1) : 0;
}

static unsigned lat_bucket(uint64_t us)
{
	unsigned p;

	if (us < 64)
		return (unsigned)us;
	p = 63u - (unsigned)__builtin_clzll(us); /* 6.. */
	if (p > 31)
		return USBMON_LAT_BUCKETS - 1;
	return 64 + (p - 6) * USBMON_LAT_SUB + (unsigned)((us >> (p - 6)) & (USBMON_LAT_SUB - 1));
}

static double lat_bucket_low(unsigned k)
{
	unsigned p;

	if (k < 64)
		return k;
	p = (k - 64) / USBMON_LAT_SUB + 6;
	return ldexp(1.0, (int)p) + (double)((k - 64) % USBMON_LAT_SUB) * ldexp(1.0, (int)p - 6);
}

static enum usbmon_err err_class(int32_t status)
{
	switch (status) {
	case -EPIPE:
		return USBMON_EPIPE;
	case -EPROTO:
		return USBMON_EPROTO;
	case -EOVERFLOW:
		return USBMON_EOVERFLOW;
	case -ENOENT:
		return USBMON_ENOENT;
	case -ECONNRESET:
		return USBMON_ECONNRESET;
	case -ESHUTDOWN:
		return USBMON_ESHUTDOWN;
	}
	return USBMON_EOTHER;
}

static void count_size(struct usbmon_ep_stats *ep, uint32_t len)
{
	unsigned i;

	ep->size_hist[size_bucket(len)]++;
	for (i = 0; i < ep->nsizes; i++)
		if (ep->sizes[i].size == len) {
			ep->sizes[i].count++;
			return;
		}
	if (ep->nsizes < USBMON_SIZES_EXACT)
		ep->sizes[ep->nsizes++] = (struct usbmon_size_count){len, 1};
	else
		ep->sizes_other++;
}

static void completed(struct usbmon_stats *s, struct usbmon_ep_stats *ep,
		      struct usbmon_dev_stats *d, const struct usbmon_event *e, uint64_t t)
{
	struct pending_slot *p = pending_find(s->pending, e->id);

	if (p && s->eps[p->ep].epnum == e->epnum && s->eps[p->ep].busnum == e->busnum &&
	    s->eps[p->ep].devnum == e->devnum) {
		if (e->type == 'C') {
			uint64_t lat = t > p->ts_us ? t - p->ts_us : 0;

			ep->lat_hist[lat_bucket(lat)]++;
			ep->lat_n++;
			if (lat > ep->lat_max_us)
				ep->lat_max_us = lat;
		}
		pending_remove(s->pending, p);
		urb_ended(ep, d, t);
	} else if (e->type == 'C') {
		ep->unmatched++;
	}
	if (e->type == 'E') {
		ep->submit_errors++;
		ep->errors[err_class(e->status)]++;
		return;
	}
	ep->completions++;
	ep->bytes += e->len_urb;
	if (e->status == 0 && e->len_urb == 0)
		ep->empty++;
	count_size(ep, e->len_urb);
	if (e->status != 0)
		ep->errors[err_class(e->status)]++;
	/* the URB's own counts: exact past the 128 descriptors the ring carries */
	if (e->xfer_type == USBMON_ISO) {
		if (e->iso_numdesc > 0)
			ep->iso_packets += (uint64_t)e->iso_numdesc;
		if (e->iso_error_count > 0)
			ep->iso_packet_errors += (uint64_t)e->iso_error_count;
	}
}

static int submitted(struct usbmon_stats *s, long epi, struct usbmon_dev_stats *d,
		     const struct usbmon_event *e, uint64_t t)
{
	struct usbmon_pending *pd = s->pending;
	struct usbmon_ep_stats *ep = &s->eps[epi];
	struct pending_slot *p = pending_find(pd, e->id);
	int r;

	ep->submits++;
	if (p) {
		/* its completion was lost (a dropped event): end it where it stood */
		struct usbmon_ep_stats *old = &s->eps[p->ep];
		struct usbmon_dev_stats *od = dev_get(s, old->busnum, old->devnum);

		ep_advance(old, t);
		if (od) {
			dev_advance(od, t);
			urb_ended(old, od, t);
		}
		pending_remove(pd, p);
	}
	if (pd->n >= USBMON_INFLIGHT_CAP) {
		s->pending_overflow++;
		return 0;
	}
	if ((pd->n + 1) * 2 > pd->cap && pd->cap < PENDING_MAX) {
		r = pending_grow(pd);
		if (r < 0)
			return r;
	}
	pending_put(pd, e->id, t, (uint32_t)epi);
	urb_started(ep, d, t);
	return 0;
}

int usbmon_stats_add(struct usbmon_stats *s, const struct usbmon_event *e)
{
	struct usbmon_dev_stats *d;
	struct usbmon_ep_stats *ep;
	uint64_t t;
	long epi;

	if (e->type == '@') {
		s->fillers++;
		return 0;
	}
	/* the real-time clock stepped back: no time passes, the order stays */
	t = usbmon_event_us(e);
	if (s->events && t < s->last_us)
		t = s->last_us;
	if (!s->events++)
		s->first_us = t;
	s->last_us = t;
	epi = ep_get(s, e);
	if (epi == -ENOSPC) {
		s->ep_overflow++;
		return 0;
	}
	if (epi < 0)
		return (int)epi;
	ep = &s->eps[epi];
	d = dev_get(s, e->busnum, e->devnum);
	if (!d)
		return -ENOMEM;
	ep->xfer_type = e->xfer_type;
	ep_advance(ep, t);
	dev_advance(d, t);
	if (e->type == 'S')
		return submitted(s, epi, d, e, t);
	completed(s, ep, d, e, t);
	return 0;
}

void usbmon_stats_finish(struct usbmon_stats *s, uint64_t end_us)
{
	size_t i;

	if (!end_us)
		end_us = s->last_us;
	if (end_us < window_start(s))
		end_us = window_start(s);
	s->end_us = end_us;
	for (i = 0; i < s->neps; i++)
		ep_advance(&s->eps[i], end_us);
	for (i = 0; i < s->ndevs; i++) {
		struct usbmon_dev_stats *d = &s->devs[i];

		dev_advance(d, end_us);
		/* still busy at the end: the time up to it counts, once */
		if (d->inflight && end_us > d->busy_since) {
			d->busy_us += end_us - d->busy_since;
			d->busy_since = end_us;
		}
	}
}

double usbmon_window_s(const struct usbmon_stats *s)
{
	uint64_t a = window_start(s), b = s->end_us ? s->end_us : s->last_us;

	return b > a ? (double)(b - a) / 1e6 : 0.0;
}

/* size x count exactly, as 96 bits in two halves: no 128-bit type on 32-bit boards */
struct bytes96 {
	uint64_t hi, lo;
};

static struct bytes96 bytes_of(uint32_t size, uint64_t count)
{
	uint64_t lo = (uint64_t)size * (count & 0xffffffffu);
	uint64_t hi = (uint64_t)size * (count >> 32);
	struct bytes96 r = {hi >> 32, lo + (hi << 32)};

	r.hi += r.lo < lo; /* the carry out of the low half */
	return r;
}

static int bytes_cmp(struct bytes96 a, struct bytes96 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	return a.lo < b.lo ? -1 : a.lo > b.lo;
}

uint32_t usbmon_ep_dominant(const struct usbmon_ep_stats *e, uint64_t *ret_count)
{
	struct bytes96 best = {0, 0};
	uint64_t count = 0;
	uint32_t size = 0;
	unsigned i;

	/*
	 * The size that moved the most bytes: on a Bulk-Only IN endpoint a 13 B CSW
	 * follows every data URB, as many of them, and is not what the transfers
	 * are made of. Zero-length completions count only when nothing else came.
	 */
	for (i = 0; i < e->nsizes; i++) {
		struct bytes96 b = bytes_of(e->sizes[i].size, e->sizes[i].count);
		int c = bytes_cmp(b, best);

		if (c > 0 || (c == 0 && e->sizes[i].size > size) ||
		    (!count && !e->sizes[i].size)) {
			if (!e->sizes[i].size && count)
				continue;
			best = b;
			count = e->sizes[i].count;
			size = e->sizes[i].size;
		}
	}
	if (ret_count)
		*ret_count = count;
	return size;
}

double usbmon_ep_lat_quantile(const struct usbmon_ep_stats *e, double q)
{
	uint64_t want, seen = 0;
	unsigned k;

	if (!e->lat_n)
		return NAN;
	if (q >= 1.0)
		return (double)e->lat_max_us;
	/* the smallest value with at least ceil(q * n) samples at or below it */
	want = (uint64_t)ceil(q * (double)e->lat_n);
	if (want < 1)
		want = 1;
	for (k = 0; k < USBMON_LAT_BUCKETS; k++) {
		seen += e->lat_hist[k];
		if (seen >= want)
			return fmin(lat_bucket_low(k), (double)e->lat_max_us);
	}
	return (double)e->lat_max_us;
}

const struct usbmon_dev_stats *usbmon_dev_find(const struct usbmon_stats *s, unsigned bus,
					       unsigned dev)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		if (s->devs[i].busnum == bus && s->devs[i].devnum == dev)
			return &s->devs[i];
	return NULL;
}

// SPDX-License-Identifier: MIT
/*
 * <dev>/descriptors: device descriptor plus every configuration.
 *
 * The walk runs twice over the bytes: once to count what will be kept, once
 * to fill one exactly sized allocation. Both passes run the same code; the
 * counting pass hands out scratch records, so every decision (caps, strays,
 * companions) is the same in both and the counts cannot disagree.
 */
#include "platform/usb/descriptors.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DT_DEVICE 0x01
#define DT_CONFIG 0x02
#define DT_INTERFACE 0x04
#define DT_ENDPOINT 0x05
#define DT_IAD 0x0b
#define DT_CS_INTERFACE 0x24 /* also the UAS pipe usage descriptor */
#define DT_SS_EP_COMP 0x30
#define DT_SSP_ISO_EP_COMP 0x31

#define DEVICE_SIZE 18
#define CONFIG_SIZE 9
#define INTERFACE_SIZE 9
#define ENDPOINT_SIZE 7
#define IAD_SIZE 8
#define SS_EP_COMP_SIZE 6
#define SSP_ISO_EP_COMP_SIZE 8
#define PIPE_USAGE_SIZE 4

#define CLASS_MASS_STORAGE 0x08
#define MSC_SUBCLASS_SCSI 0x06
#define MSC_PROTO_UAS 0x62

/* one block holds the arrays back to back: each must start aligned for the next */
_Static_assert(sizeof(struct usb_desc_config) % _Alignof(struct usb_desc_interface) == 0, "");
_Static_assert(sizeof(struct usb_desc_interface) % _Alignof(struct usb_desc_endpoint) == 0, "");
_Static_assert(sizeof(struct usb_desc_endpoint) % _Alignof(struct usb_desc_iad) == 0, "");

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

struct walk {
	bool store; /* second pass: fill the arrays below */
	bool superspeed;
	const uint8_t *p;
	size_t len;

	/* counts in the first pass, fill positions in the second */
	size_t n_configs, n_intfs, n_eps, n_iads;
	struct usb_desc_config *configs;
	struct usb_desc_interface *intfs;
	struct usb_desc_endpoint *eps;
	struct usb_desc_iad *iads;

	/* the counting pass decodes into these and forgets */
	struct usb_desc_config scratch_config;
	struct usb_desc_interface scratch_intf;
	struct usb_desc_endpoint scratch_ep;
	struct usb_desc_iad scratch_iad;

	size_t skipped;
	unsigned flags; /* device level */
};

/* The state of one configuration's walk. */
struct config_walk {
	struct usb_desc_config *cfg;
	struct usb_desc_interface *intf; /* the alt setting descriptors attach to, or NULL */
	struct usb_desc_endpoint *ep;	 /* the endpoint companions attach to, or NULL */
	bool dropped; /* the last interface or endpoint went over a cap: its followers go too */
	uint8_t seen[256 / 8]; /* interface numbers found */
};

static struct usb_desc_config *new_config(struct walk *w)
{
	struct usb_desc_config *c = w->store ? &w->configs[w->n_configs] : &w->scratch_config;

	w->n_configs++;
	memset(c, 0, sizeof(*c));
	return c;
}

static struct usb_desc_interface *new_intf(struct walk *w, struct usb_desc_config *c)
{
	struct usb_desc_interface *i = w->store ? &w->intfs[w->n_intfs] : &w->scratch_intf;

	w->n_intfs++;
	memset(i, 0, sizeof(*i));
	/* alt settings of one configuration are appended back to back */
	if (c->n_intfs++ == 0 && w->store)
		c->intfs = i;
	return i;
}

static struct usb_desc_endpoint *new_ep(struct walk *w, struct usb_desc_interface *i)
{
	struct usb_desc_endpoint *e = w->store ? &w->eps[w->n_eps] : &w->scratch_ep;

	w->n_eps++;
	memset(e, 0, sizeof(*e));
	if (i->n_eps++ == 0 && w->store)
		i->eps = e;
	return e;
}

static struct usb_desc_iad *new_iad(struct walk *w, struct usb_desc_config *c)
{
	struct usb_desc_iad *a = w->store ? &w->iads[w->n_iads] : &w->scratch_iad;

	w->n_iads++;
	memset(a, 0, sizeof(*a));
	if (c->n_iads++ == 0 && w->store)
		c->iads = a;
	return a;
}

/* An alt setting is complete when the next one (or the configuration's end) comes. */
static void close_intf(struct config_walk *cw)
{
	if (cw->intf && cw->intf->n_eps != cw->intf->num_endpoints)
		cw->cfg->flags |= USB_DESC_F_NUM_ENDPOINTS;
	cw->intf = NULL;
	cw->ep = NULL;
	cw->dropped = false;
}

static void on_interface(struct walk *w, struct config_walk *cw, const uint8_t *d, uint8_t dl)
{
	struct usb_desc_interface *i;

	close_intf(cw);
	if (dl < INTERFACE_SIZE) {
		/* its endpoints would otherwise land in the previous alt setting */
		cw->cfg->flags |= USB_DESC_F_SHORT;
		return;
	}
	cw->seen[d[2] / 8] |= (uint8_t)(1u << (d[2] % 8));
	if (cw->cfg->n_intfs >= USB_DESC_MAX_INTERFACES) {
		cw->cfg->flags |= USB_DESC_F_LIMIT;
		cw->dropped = true;
		return;
	}
	i = new_intf(w, cw->cfg);
	i->number = d[2];
	i->alt = d[3];
	i->num_endpoints = d[4];
	i->cls = d[5];
	i->subclass = d[6];
	i->protocol = d[7];
	cw->intf = i;
}

static void on_endpoint(struct walk *w, struct config_walk *cw, const uint8_t *d, uint8_t dl)
{
	struct usb_desc_endpoint *e;
	uint16_t mps;

	cw->ep = NULL;
	if (dl < ENDPOINT_SIZE) {
		cw->cfg->flags |= USB_DESC_F_SHORT;
		return;
	}
	if (!cw->intf) {
		if (!cw->dropped)
			cw->cfg->flags |= USB_DESC_F_STRAY;
		return;
	}
	if (cw->intf->n_eps >= USB_DESC_MAX_ENDPOINTS) {
		cw->cfg->flags |= USB_DESC_F_LIMIT;
		cw->dropped = true;
		return;
	}
	cw->dropped = false;
	e = new_ep(w, cw->intf);
	e->address = d[2];
	e->number = d[2] & 0x0f;
	e->in = d[2] & 0x80;
	e->attributes = d[3];
	e->type = (enum usb_transfer_type)(d[3] & 0x03);
	e->sync = (d[3] >> 2) & 0x03;
	e->usage = (d[3] >> 4) & 0x03;
	mps = le16(d + 4);
	e->max_packet_raw = mps;
	e->max_packet = mps & 0x07ff;
	/* high-bandwidth endpoints: extra transactions per microframe */
	e->mult = (uint8_t)(1 + ((mps >> 11) & 0x03));
	e->interval = d[6];
	cw->ep = e;
}

static void on_ss_comp(struct config_walk *cw, const uint8_t *d, uint8_t dl)
{
	struct usb_desc_endpoint *e = cw->ep;
	uint8_t attr;

	if (dl < SS_EP_COMP_SIZE) {
		cw->cfg->flags |= USB_DESC_F_SHORT;
		return;
	}
	if (!e || e->has_ss_comp) {
		if (!cw->dropped)
			cw->cfg->flags |= USB_DESC_F_STRAY;
		return;
	}
	attr = d[3];
	e->has_ss_comp = true;
	e->max_burst = d[2];
	e->ss_attributes = attr;
	e->bytes_per_interval = le16(d + 4);
	if (e->type == USB_XFER_BULK) {
		e->max_streams_log2 = attr & 0x1f;
		/* 1..16 are defined; above is reserved, so claim nothing */
		if (e->max_streams_log2 >= 1 && e->max_streams_log2 <= 16)
			e->max_streams = 1u << e->max_streams_log2;
	} else if (e->type == USB_XFER_ISOC) {
		e->ss_mult = (uint8_t)((attr & 0x03) + 1);
	}
}

static void on_ssp_iso_comp(struct config_walk *cw, const uint8_t *d, uint8_t dl)
{
	struct usb_desc_endpoint *e = cw->ep;

	if (dl < SSP_ISO_EP_COMP_SIZE) {
		cw->cfg->flags |= USB_DESC_F_SHORT;
		return;
	}
	/* it follows the SuperSpeed companion of an isochronous endpoint */
	if (!e || e->type != USB_XFER_ISOC || !e->has_ss_comp || e->has_ssp_iso_comp) {
		if (!cw->dropped)
			cw->cfg->flags |= USB_DESC_F_STRAY;
		return;
	}
	e->has_ssp_iso_comp = true;
	e->ssp_bytes_per_interval = le32(d + 4);
}

static void on_iad(struct walk *w, struct config_walk *cw, const uint8_t *d, uint8_t dl)
{
	struct usb_desc_iad *a;

	if (dl < IAD_SIZE) {
		cw->cfg->flags |= USB_DESC_F_SHORT;
		return;
	}
	if (cw->cfg->n_iads >= USB_DESC_MAX_IADS) {
		cw->cfg->flags |= USB_DESC_F_LIMIT;
		return;
	}
	a = new_iad(w, cw->cfg);
	a->first_interface = d[2];
	a->interface_count = d[3];
	a->cls = d[4];
	a->subclass = d[5];
	a->protocol = d[6];
}

static void on_other(const struct walk *w, struct config_walk *cw, const uint8_t *d, uint8_t dl)
{
	struct usb_desc_interface *i = cw->intf;
	size_t off = (size_t)(d - w->p);

	/* UAS tells its four pipes apart only by the usage descriptor after each endpoint */
	if (d[1] == DT_CS_INTERFACE && dl >= PIPE_USAGE_SIZE && i && cw->ep &&
	    i->cls == CLASS_MASS_STORAGE && i->protocol == MSC_PROTO_UAS && !cw->ep->uas_pipe_id)
		cw->ep->uas_pipe_id = d[2];
	if (i) {
		if (!i->n_extra++)
			i->extra_off = off;
		i->extra_end = off + dl;
	} else
		cw->cfg->n_extra++;
}

static bool at_config(const uint8_t *p, size_t len, size_t pos)
{
	return len - pos >= 2 && p[pos + 1] == DT_CONFIG && p[pos] >= CONFIG_SIZE;
}

static unsigned popcount8(uint8_t v)
{
	unsigned n = 0;

	for (; v; v &= (uint8_t)(v - 1))
		n++;
	return n;
}

/*
 * One configuration starting at pos (a config descriptor header, whole in
 * the input). Returns where the next one may start.
 */
static size_t walk_config(struct walk *w, size_t pos)
{
	const uint8_t *p = w->p;
	const uint8_t *d = p + pos;
	struct config_walk cw = {.cfg = new_config(w)};
	struct usb_desc_config *c = cw.cfg;
	size_t limit, q, next, span, k;
	uint8_t bl = d[0];

	c->total_length = le16(d + 2);
	c->num_interfaces = d[4];
	c->value = d[5];
	c->attributes = d[7];
	c->max_power_raw = d[8];
	c->max_power_ma = d[8] * (w->superspeed ? 8u : 2u);

	span = c->total_length;
	if (span < bl) {
		c->flags |= USB_DESC_F_TOTAL_TOO_SMALL;
		span = bl;
	}
	limit = w->len - pos < span ? w->len : pos + span;
	if (limit < pos + span)
		c->flags |= USB_DESC_F_TOTAL_TOO_BIG;
	next = limit;

	for (q = pos + bl; q < limit;) {
		uint8_t dl, dt;

		if (limit - q < 2) {
			c->flags |=
			    limit == w->len ? USB_DESC_F_TRUNCATED : USB_DESC_F_TOTAL_TOO_SMALL;
			break;
		}
		dl = p[q];
		dt = p[q + 1];
		if (dt == DT_CONFIG && dl >= CONFIG_SIZE) {
			/*
			 * The kernel drops what it could not parse and starts
			 * the next configuration right there.
			 */
			c->flags |= USB_DESC_F_TOTAL_TOO_BIG;
			next = q;
			break;
		}
		if (dl < 2) {
			c->flags |= USB_DESC_F_BAD_LENGTH;
			break;
		}
		if (dl > limit - q) {
			c->flags |=
			    limit == w->len ? USB_DESC_F_TRUNCATED : USB_DESC_F_TOTAL_TOO_SMALL;
			break;
		}
		switch (dt) {
		case DT_INTERFACE:
			on_interface(w, &cw, p + q, dl);
			break;
		case DT_ENDPOINT:
			on_endpoint(w, &cw, p + q, dl);
			break;
		case DT_SS_EP_COMP:
			on_ss_comp(&cw, p + q, dl);
			break;
		case DT_SSP_ISO_EP_COMP:
			on_ssp_iso_comp(&cw, p + q, dl);
			break;
		case DT_IAD:
			on_iad(w, &cw, p + q, dl);
			break;
		default:
			on_other(w, &cw, p + q, dl);
			break;
		}
		q += dl;
	}
	close_intf(&cw);

	c->length = q - pos;
	if (next > q) {
		c->flags |= USB_DESC_F_SKIPPED;
		w->skipped += next - q;
	}
	for (k = 0; k < sizeof(cw.seen); k++)
		c->n_interface_numbers += popcount8(cw.seen[k]);
	if (c->n_interface_numbers != c->num_interfaces)
		c->flags |= USB_DESC_F_NUM_INTERFACES;
	w->flags |= c->flags;
	return next;
}

/* Everything after the device descriptor: configurations, and junk between them. */
static void walk_configs(struct walk *w)
{
	size_t pos = DEVICE_SIZE;

	while (pos < w->len) {
		size_t left = w->len - pos;
		uint8_t bl;

		if (at_config(w->p, w->len, pos) && left >= CONFIG_SIZE && left >= w->p[pos]) {
			if (w->n_configs >= USB_DESC_MAX_CONFIGS) {
				w->flags |= USB_DESC_F_LIMIT;
				w->skipped += left;
				return;
			}
			pos = walk_config(w, pos);
			continue;
		}
		/* not a whole config descriptor: step over it by its length */
		bl = left >= 2 ? w->p[pos] : 0;
		if (left < 2 || bl > left) {
			w->flags |= USB_DESC_F_TRUNCATED;
		} else if (bl < 2) {
			w->flags |= USB_DESC_F_BAD_LENGTH;
		} else {
			if (w->p[pos + 1] == DT_CONFIG)
				w->flags |= USB_DESC_F_SHORT;
			w->flags |= USB_DESC_F_SKIPPED;
			w->skipped += bl;
			pos += bl;
			continue;
		}
		w->flags |= USB_DESC_F_SKIPPED;
		w->skipped += left;
		return;
	}
}

static void decode_device(const uint8_t *d, bool superspeed, struct usb_desc_device *dev)
{
	dev->length = d[0];
	dev->bcd_usb = le16(d + 2);
	dev->cls = d[4];
	dev->subclass = d[5];
	dev->protocol = d[6];
	dev->max_packet0_raw = d[7];
	/* at SuperSpeed the field is an exponent: 9 means 512 bytes */
	if (superspeed)
		dev->max_packet0 = d[7] < 16 ? 1u << d[7] : 0;
	else
		dev->max_packet0 = d[7];
	dev->vendor = le16(d + 8);
	dev->product = le16(d + 10);
	dev->bcd_device = le16(d + 12);
	dev->num_configurations = d[17];
	if (dev->length != DEVICE_SIZE)
		dev->flags |= USB_DESC_F_BAD_TYPE;
}

int usb_desc_parse(const void *data, size_t len, bool superspeed, struct usb_desc_device *ret)
{
	const uint8_t *p = data;
	struct walk count = {.superspeed = superspeed, .p = p, .len = len};
	struct walk fill = count;
	struct usb_desc_device dev = {0};
	size_t sz_c, sz_i, sz_e, sz_a;
	char *block;

	if (!data || len < DEVICE_SIZE || p[1] != DT_DEVICE)
		return -EINVAL;
	decode_device(p, superspeed, &dev);

	walk_configs(&count);
	/* the caps bound every count, so these products cannot overflow */
	sz_c = count.n_configs * sizeof(struct usb_desc_config);
	sz_i = count.n_intfs * sizeof(struct usb_desc_interface);
	sz_e = count.n_eps * sizeof(struct usb_desc_endpoint);
	sz_a = count.n_iads * sizeof(struct usb_desc_iad);
	if (count.n_configs) {
		block = calloc(1, sz_c + sz_i + sz_e + sz_a);
		if (!block)
			return -ENOMEM;
		fill.store = true;
		fill.configs = (struct usb_desc_config *)block;
		fill.intfs = (struct usb_desc_interface *)(block + sz_c);
		fill.eps = (struct usb_desc_endpoint *)(block + sz_c + sz_i);
		fill.iads = (struct usb_desc_iad *)(block + sz_c + sz_i + sz_e);
	}
	/* without a configuration this pass only counts again: same flags, same skips */
	walk_configs(&fill);

	dev.configs = fill.store ? fill.configs : NULL;
	dev.n_configs = fill.n_configs;
	dev.skipped = fill.skipped;
	dev.flags |= fill.flags;
	if (dev.n_configs != dev.num_configurations)
		dev.flags |= USB_DESC_F_NUM_CONFIGS;
	*ret = dev;
	return 0;
}

void usb_desc_release(struct usb_desc_device *d)
{
	if (!d)
		return;
	/* configs is the start of the one block that holds every array */
	free(d->configs);
	memset(d, 0, sizeof(*d));
}

const struct usb_desc_config *usb_desc_config_by_value(const struct usb_desc_device *d,
						       unsigned value)
{
	size_t i;

	for (i = 0; d && i < d->n_configs; i++)
		if (d->configs[i].value == value)
			return &d->configs[i];
	return NULL;
}

const struct usb_desc_interface *usb_desc_find_interface(const struct usb_desc_config *c,
							 unsigned ifnum, unsigned alt)
{
	size_t i;

	for (i = 0; c && i < c->n_intfs; i++)
		if (c->intfs[i].number == ifnum && c->intfs[i].alt == alt)
			return &c->intfs[i];
	return NULL;
}

bool usb_desc_offers_uas(const struct usb_desc_config *c, unsigned ifnum)
{
	size_t i;

	for (i = 0; c && i < c->n_intfs; i++) {
		const struct usb_desc_interface *f = &c->intfs[i];

		if (f->number == ifnum && f->cls == CLASS_MASS_STORAGE &&
		    f->subclass == MSC_SUBCLASS_SCSI && f->protocol == MSC_PROTO_UAS)
			return true;
	}
	return false;
}

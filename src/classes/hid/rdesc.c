// SPDX-License-Identifier: MIT
/* A strict reader of HID report descriptors: report IDs and sizes only. */
#include "classes/hid/rdesc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Linux's hid-core limits on one field (hid_parser_global) */
#define MAX_REPORT_SIZE 256
#define MAX_REPORT_COUNT 12288

enum { TYPE_MAIN = 0, TYPE_GLOBAL = 1, TYPE_LOCAL = 2, TYPE_RESERVED = 3 };
enum {
	MAIN_INPUT = 8,
	MAIN_OUTPUT = 9,
	MAIN_COLLECTION = 10,
	MAIN_FEATURE = 11,
	MAIN_END_COLLECTION = 12,
};
enum {
	GLOBAL_USAGE_PAGE = 0,
	GLOBAL_REPORT_SIZE = 7,
	GLOBAL_REPORT_ID = 8,
	GLOBAL_REPORT_COUNT = 9,
	GLOBAL_PUSH = 10,
	GLOBAL_POP = 11,
};

struct globals {
	uint32_t size, count, id, page;
};

#define LOCAL_USAGE 0
#define VENDOR_PAGE_FIRST 0xff00u /* HID Usage Tables: 0xFF00-0xFFFF vendor-defined */

struct parser {
	struct hid_rdesc d;
	struct globals g, stack[HID_RDESC_MAX_DEPTH];
	unsigned sp, depth;
	uint32_t usage_page; /* of an extended (32-bit) Usage since the last main item */
	size_t off;
	bool unnumbered_used;
	struct strbuf *why;
};

__attribute__((format(printf, 2, 3))) static int bad(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->why) {
		strbuf_reset(p->why);
		va_start(ap, fmt);
		strbuf_vaddf(p->why, fmt, ap);
		va_end(ap);
		strbuf_addf(p->why, " at byte %zu", p->off);
	}
	return -EINVAL;
}

static struct hid_report_info *slot(struct parser *p, uint8_t id)
{
	size_t i;

	for (i = 0; i < p->d.n; i++)
		if (p->d.reports[i].id == id)
			return &p->d.reports[i];
	if (p->d.n == HID_RDESC_MAX_REPORTS)
		return NULL;
	p->d.reports[p->d.n] = (struct hid_report_info){.id = id};
	return &p->d.reports[p->d.n++];
}

static int main_data(struct parser *p, enum hid_report_kind k)
{
	struct hid_report_info *r;
	uint64_t bits;

	if (p->g.id == 0 && p->d.numbered)
		return bad(p, "a report without ID after numbered reports");
	if (p->g.id != 0 && p->unnumbered_used)
		return bad(p, "report ID %u after a report without ID", p->g.id);
	if (p->g.id == 0)
		p->unnumbered_used = true;
	else
		p->d.numbered = true;
	r = slot(p, (uint8_t)p->g.id);
	if (!r)
		return bad(p, "more than %d reports", HID_RDESC_MAX_REPORTS);
	bits = (uint64_t)r->bits[k] + (uint64_t)p->g.size * p->g.count;
	if (bits > HID_RDESC_MAX_BITS)
		return bad(p, "report %u is larger than %u bits", p->g.id, HID_RDESC_MAX_BITS);
	r->bits[k] = (uint32_t)bits;
	return 0;
}

static int main_item(struct parser *p, unsigned tag)
{
	switch (tag) {
	case MAIN_INPUT:
		return main_data(p, HID_REPORT_INPUT);
	case MAIN_OUTPUT:
		return main_data(p, HID_REPORT_OUTPUT);
	case MAIN_FEATURE:
		return main_data(p, HID_REPORT_FEATURE);
	case MAIN_COLLECTION:
		if (p->depth == HID_RDESC_MAX_DEPTH)
			return bad(p, "collections nested deeper than %d", HID_RDESC_MAX_DEPTH);
		if (!p->depth) {
			uint32_t page = p->usage_page ? p->usage_page : p->g.page;

			if (!p->d.top_collections)
				p->d.top_usage_page = page;
			p->d.top_collections++;
			if (page >= VENDOR_PAGE_FIRST)
				p->d.vendor_top_collections++;
		}
		p->depth++;
		p->d.collections++;
		return 0;
	case MAIN_END_COLLECTION:
		if (!p->depth)
			return bad(p, "End Collection without Collection");
		p->depth--;
		return 0;
	default:
		return bad(p, "reserved main item tag %u", tag);
	}
}

static int global_item(struct parser *p, unsigned tag, uint32_t v)
{
	switch (tag) {
	case GLOBAL_USAGE_PAGE:
		p->g.page = v;
		return 0;
	case GLOBAL_REPORT_SIZE:
		if (v > MAX_REPORT_SIZE)
			return bad(p, "Report Size %u above %d", v, MAX_REPORT_SIZE);
		p->g.size = v;
		return 0;
	case GLOBAL_REPORT_COUNT:
		if (v > MAX_REPORT_COUNT)
			return bad(p, "Report Count %u above %d", v, MAX_REPORT_COUNT);
		p->g.count = v;
		return 0;
	case GLOBAL_REPORT_ID:
		if (v == 0 || v > 255)
			return bad(p, "Report ID %u (1-255 allowed)", v);
		p->g.id = v;
		return 0;
	case GLOBAL_PUSH:
		if (p->sp == HID_RDESC_MAX_DEPTH)
			return bad(p, "Push nested deeper than %d", HID_RDESC_MAX_DEPTH);
		p->stack[p->sp++] = p->g;
		return 0;
	case GLOBAL_POP:
		if (!p->sp)
			return bad(p, "Pop without Push");
		p->g = p->stack[--p->sp];
		return 0;
	default:
		return 0; /* logical and physical ranges, units: not sizes */
	}
}

int hid_rdesc_parse(const void *data, size_t len, struct hid_rdesc *ret, struct strbuf *why)
{
	static const unsigned sizes[4] = {0, 1, 2, 4};
	const uint8_t *b = data;
	struct parser *p;
	int r = 0;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->why = why;
	if (len == 0 || len > HID_RDESC_MAX_LEN) {
		r = bad(p, "descriptor of %zu bytes (1-%d allowed)", len, HID_RDESC_MAX_LEN);
		goto out;
	}
	while (p->off < len && r == 0) {
		unsigned prefix = b[p->off], type, tag, n, i;
		uint32_t v = 0;

		if (prefix == 0xfe) { /* long item: bDataSize, bLongItemTag, data */
			if (len - p->off < 3 || len - p->off - 3 < b[p->off + 1]) {
				r = bad(p, "truncated long item");
				break;
			}
			p->off += 3u + b[p->off + 1];
			continue;
		}
		n = sizes[prefix & 3];
		type = (prefix >> 2) & 3;
		tag = prefix >> 4;
		if (len - p->off - 1 < n) {
			r = bad(p, "truncated item (needs %u data bytes)", n);
			break;
		}
		for (i = 0; i < n; i++)
			v |= (uint32_t)b[p->off + 1 + i] << (8 * i);
		if (type == TYPE_MAIN) {
			r = main_item(p, tag);
			p->usage_page = 0; /* local items end with each main item */
		} else if (type == TYPE_LOCAL && tag == LOCAL_USAGE && n == 4)
			p->usage_page = v >> 16; /* an extended usage names its page */
		else if (type == TYPE_GLOBAL)
			r = global_item(p, tag, v);
		else if (type == TYPE_RESERVED)
			r = bad(p, "reserved item type");
		if (r == 0)
			p->off += 1 + n;
	}
	if (r == 0 && p->depth)
		r = bad(p, "%u collection%s not ended", p->depth, p->depth > 1 ? "s" : "");
	if (r == 0 && p->d.n == 0)
		r = bad(p, "no Input, Output or Feature item");
	if (r == 0)
		*ret = p->d;
out:
	free(p);
	return r;
}

uint32_t hid_report_bytes(const struct hid_report_info *r, enum hid_report_kind k)
{
	if (!r->bits[k])
		return 0;
	return (r->bits[k] + 7) / 8 + (r->id ? 1 : 0);
}

int hid_rdesc_largest(const struct hid_rdesc *d, enum hid_report_kind k)
{
	uint32_t best = 0;
	int at = -ENOENT;
	size_t i;

	for (i = 0; i < d->n; i++)
		if (hid_report_bytes(&d->reports[i], k) > best) {
			best = hid_report_bytes(&d->reports[i], k);
			at = (int)i;
		}
	return at;
}

bool hid_rdesc_vendor_only(const struct hid_rdesc *d)
{
	return d->top_collections && d->vendor_top_collections == d->top_collections;
}

const char *hid_report_kind_name(enum hid_report_kind k)
{
	static const char *const names[HID_REPORT_KINDS] = {"input", "output", "feature"};

	return k < HID_REPORT_KINDS ? names[k] : "unknown";
}

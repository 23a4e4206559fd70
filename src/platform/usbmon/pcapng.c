// SPDX-License-Identifier: MIT
/*
 * pcapng with LINKTYPE_USB_LINUX_MMAPPED (220): each packet is the 64-byte usbmon
 * header, the iso descriptors, then the captured data, exactly as the ring holds
 * it, which is what Wireshark's and libpcap's usbmon captures carry. Written in the
 * host's byte order (the header is host order too; the section header's byte-order
 * magic tells readers). The reader takes the same files back, so a recorded
 * capture is a test fixture that tshark can also open.
 */
#include "platform/usbmon/usbmon.h"
#include "util/strbuf.h"

#include <errno.h>
#include <string.h>

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_EPB 0x00000006u
#define BOM 0x1A2B3C4Du
#define MAX_IFACES 64

static void put16(struct strbuf *o, uint16_t v)
{
	strbuf_add(o, &v, sizeof(v));
}

static void put32(struct strbuf *o, uint32_t v)
{
	strbuf_add(o, &v, sizeof(v));
}

void usbmon_pcapng_head(struct strbuf *out)
{
	/* section header: no options, section length unknown (-1) */
	put32(out, BT_SHB);
	put32(out, 28);
	put32(out, BOM);
	put16(out, 1);
	put16(out, 0);
	put32(out, 0xffffffffu);
	put32(out, 0xffffffffu);
	put32(out, 28);
	/* one interface: no snap length limit, timestamps in microseconds (the default) */
	put32(out, BT_IDB);
	put32(out, 20);
	put16(out, USBMON_LINKTYPE);
	put16(out, 0);
	put32(out, 0);
	put32(out, 20);
}

void usbmon_pcapng_packet(struct strbuf *out, const uint8_t *ev, size_t ev_len, uint32_t snaplen)
{
	static const uint8_t zero[4];
	struct usbmon_event e;
	uint64_t ts = 0, orig = ev_len;
	size_t cap = ev_len, pad;

	if (usbmon_event_parse(ev, ev_len, &e, NULL) == 0 && e.type != '@') {
		bool in = e.epnum & 0x80;

		ts = usbmon_event_us(&e);
		/* the wire carried len_urb where this event is the one with the data */
		if ((e.type == 'C' && in) || (e.type == 'S' && !in)) {
			uint64_t full =
			    USBMON_HDR_LEN + (uint64_t)e.ndesc * USBMON_ISODESC_LEN + e.len_urb;
			if (full > orig && full <= UINT32_MAX)
				orig = full;
		}
		if (snaplen && e.data_len > snaplen)
			cap = ev_len - (e.data_len - snaplen);
	}
	pad = (4 - cap % 4) % 4;
	put32(out, BT_EPB);
	put32(out, (uint32_t)(32 + cap + pad));
	put32(out, 0);
	put32(out, (uint32_t)(ts >> 32));
	put32(out, (uint32_t)ts);
	put32(out, (uint32_t)cap);
	put32(out, (uint32_t)orig);
	strbuf_add(out, ev, cap);
	strbuf_add(out, zero, pad);
	put32(out, (uint32_t)(32 + cap + pad));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t swap32(uint32_t v)
{
	return __builtin_bswap32(v);
}

int usbmon_pcapng_read(const uint8_t *buf, size_t len,
		       int (*fn)(const struct usbmon_event *e, const uint8_t *raw, size_t raw_len,
				 void *ctx),
		       void *ctx, struct strbuf *why)
{
	uint16_t linktype[MAX_IFACES];
	size_t off = 0, nifaces = 0, packets = 0;
	bool section = false;

	while (off < len) {
		uint32_t type, blen;
		const uint8_t *b = buf + off;

		if (len - off < 12) {
			strbuf_addf(why, "truncated block at offset %zu", off);
			return -EINVAL;
		}
		type = get32(b);
		blen = get32(b + 4);
		if (type == BT_SHB) {
			uint32_t bom;

			if (len - off < 28) {
				strbuf_addf(why, "truncated section header at offset %zu", off);
				return -EINVAL;
			}
			bom = get32(b + 8);
			if (bom == swap32(BOM)) {
				strbuf_adds(why, "written in the other byte order (not supported)");
				return -EINVAL;
			}
			if (bom != BOM) {
				strbuf_addf(why, "bad byte-order magic at offset %zu", off);
				return -EINVAL;
			}
			section = true;
			nifaces = 0;
		} else if (!section) {
			strbuf_adds(why, "not a pcapng file (no section header block)");
			return -EINVAL;
		}
		if (blen < 12 || blen % 4 || blen > len - off || get32(b + blen - 4) != blen) {
			strbuf_addf(why, "block at offset %zu has a bad length %u", off, blen);
			return -EINVAL;
		}
		if (type == BT_IDB) {
			if (blen < 20) {
				strbuf_addf(why, "short interface block at offset %zu", off);
				return -EINVAL;
			}
			if (nifaces >= MAX_IFACES) {
				strbuf_addf(why, "more than %d interfaces", MAX_IFACES);
				return -EINVAL;
			}
			memcpy(&linktype[nifaces++], b + 8, sizeof(uint16_t));
		} else if (type == BT_EPB) {
			struct usbmon_event e;
			uint32_t iface, cap;
			size_t used = 0;
			int r;

			if (blen < 32) {
				strbuf_addf(why, "short packet block at offset %zu", off);
				return -EINVAL;
			}
			iface = get32(b + 8);
			cap = get32(b + 20);
			if (iface >= nifaces) {
				strbuf_addf(why, "packet %zu names interface %u, not described",
					    packets + 1, iface);
				return -EINVAL;
			}
			if (linktype[iface] != USBMON_LINKTYPE) {
				strbuf_addf(why, "interface %u has link type %u, not usbmon's %u",
					    iface, linktype[iface], USBMON_LINKTYPE);
				return -EINVAL;
			}
			if (cap > blen - 32) {
				strbuf_addf(why, "packet %zu is longer than its block",
					    packets + 1);
				return -EINVAL;
			}
			packets++;
			r = usbmon_event_parse(b + 28, cap, &e, &used);
			/* cut by a snap length (editcap -s): the header whole, data shorter */
			if (r < 0 && cap >= USBMON_HDR_LEN) {
				uint8_t h[USBMON_HDR_LEN];
				uint32_t lc = cap - USBMON_HDR_LEN;

				memcpy(h, b + 28, sizeof(h));
				memcpy(h + 36, &lc, sizeof(lc));
				if (usbmon_event_parse(h, sizeof(h) + lc, &e, NULL) == 0 &&
				    get32(b + 28 + 36) > lc) {
					e.len_cap = get32(b + 28 + 36);
					e.desc = b + 28 + USBMON_HDR_LEN;
					e.data = e.desc + e.ndesc * USBMON_ISODESC_LEN;
					used = cap;
					r = 0;
				}
			}
			if (r < 0) {
				strbuf_addf(why, "packet %zu is not a usbmon event (or truncated)",
					    packets);
				return -EINVAL;
			}
			r = fn(&e, b + 28, used, ctx);
			if (r < 0)
				return r;
		}
		off += blen;
	}
	if (!section) {
		strbuf_adds(why, "empty file");
		return -EINVAL;
	}
	return 0;
}

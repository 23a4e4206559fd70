// SPDX-License-Identifier: MIT
/* One usbmon event header (struct mon_bin_hdr, the 64-byte mmapped form) from bytes. */
#include "platform/usbmon/usbmon.h"

#include <errno.h>
#include <string.h>

/* offsets in struct mon_bin_hdr (drivers/usb/mon/mon_bin.c), host byte order */
enum {
	OFF_ID = 0,
	OFF_TYPE = 8,
	OFF_XFER = 9,
	OFF_EPNUM = 10,
	OFF_DEVNUM = 11,
	OFF_BUSNUM = 12,
	OFF_FLAG_SETUP = 14,
	OFF_FLAG_DATA = 15,
	OFF_TS_SEC = 16,
	OFF_TS_USEC = 24,
	OFF_STATUS = 28,
	OFF_LEN_URB = 32,
	OFF_LEN_CAP = 36,
	OFF_SETUP = 40, /* or iso error_count (40) and numdesc (44) */
	OFF_INTERVAL = 48,
	OFF_START_FRAME = 52,
	OFF_XFER_FLAGS = 56,
	OFF_NDESC = 60,
};

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int usbmon_event_parse(const uint8_t *buf, size_t len, struct usbmon_event *ret, size_t *ret_size)
{
	struct usbmon_event e;
	uint16_t bus;

	if (!buf || len < USBMON_HDR_LEN)
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	e.id = get64(buf + OFF_ID);
	e.type = (char)buf[OFF_TYPE];
	e.xfer_type = buf[OFF_XFER];
	e.epnum = buf[OFF_EPNUM];
	e.devnum = buf[OFF_DEVNUM];
	memcpy(&bus, buf + OFF_BUSNUM, sizeof(bus));
	e.busnum = bus;
	e.flag_setup = (char)buf[OFF_FLAG_SETUP];
	e.flag_data = (char)buf[OFF_FLAG_DATA];
	e.ts_sec = (int64_t)get64(buf + OFF_TS_SEC);
	e.ts_usec = (int32_t)get32(buf + OFF_TS_USEC);
	e.status = (int32_t)get32(buf + OFF_STATUS);
	e.len_urb = get32(buf + OFF_LEN_URB);
	e.len_cap = get32(buf + OFF_LEN_CAP);
	e.iso_error_count = (int32_t)get32(buf + OFF_SETUP);
	e.iso_numdesc = (int32_t)get32(buf + OFF_SETUP + 4);
	e.interval = (int32_t)get32(buf + OFF_INTERVAL);
	e.start_frame = (int32_t)get32(buf + OFF_START_FRAME);
	e.xfer_flags = get32(buf + OFF_XFER_FLAGS);
	e.ndesc = get32(buf + OFF_NDESC);

	if (e.type != 'S' && e.type != 'C' && e.type != 'E' && e.type != '@')
		return -EINVAL;
	if (e.len_cap > len - USBMON_HDR_LEN)
		return -EINVAL;
	if (e.type != '@') {
		if (e.xfer_type > USBMON_BULK || e.ts_usec < 0 || e.ts_usec >= 1000000 ||
		    e.ts_sec < 0)
			return -EINVAL;
		/* only isochronous URBs carry descriptors, at most ISODESC_MAX of them */
		if (e.ndesc > USBMON_ISODESC_MAX || (e.ndesc && e.xfer_type != USBMON_ISO) ||
		    e.ndesc * USBMON_ISODESC_LEN > e.len_cap)
			return -EINVAL;
		e.desc = buf + USBMON_HDR_LEN;
		e.data = e.desc + e.ndesc * USBMON_ISODESC_LEN;
		e.data_len = e.len_cap - e.ndesc * USBMON_ISODESC_LEN;
	}
	*ret = e;
	if (ret_size)
		*ret_size = USBMON_HDR_LEN + (size_t)e.len_cap;
	return 0;
}

void usbmon_isodesc_get(const struct usbmon_event *e, unsigned i, struct usbmon_isodesc *ret)
{
	const uint8_t *p = e->desc + (size_t)i * USBMON_ISODESC_LEN;

	ret->status = (int32_t)get32(p);
	ret->offset = get32(p + 4);
	ret->len = get32(p + 8);
}

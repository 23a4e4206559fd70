// SPDX-License-Identifier: MIT
/* <dev>/bos_descriptors: the BOS descriptor and the device capabilities that follow it. */
#include "platform/usb/descriptors.h"

#include <errno.h>
#include <string.h>

#define DT_BOS 0x0f
#define DT_DEVICE_CAPABILITY 0x10

#define CAP_USB2_EXT 0x02
#define CAP_SUPERSPEED 0x03
#define CAP_CONTAINER_ID 0x04
#define CAP_SUPERSPEED_PLUS 0x0a

#define BOS_SIZE 5
#define CAP_HEADER_SIZE 3
#define USB2_EXT_SIZE 7
#define SS_CAP_SIZE 10
#define CONTAINER_ID_SIZE 20
#define SSP_CAP_SIZE 12 /* without its sublink speed attributes, 4 bytes each */

#define LP_SUPERSPEED_PLUS 1
#define GEN1_LANE_MBPS 5000
#define GEN2_LANE_MBPS 10000

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void decode_usb2_ext(struct usb_desc_bos *b, const uint8_t *d)
{
	b->has_usb2_ext = true;
	b->usb2_attributes = le32(d + 3);
	b->has_lpm = b->usb2_attributes & (1u << 1);
	b->has_besl = b->usb2_attributes & (1u << 2);
}

static void decode_ss(struct usb_desc_bos *b, const uint8_t *d)
{
	b->ss_capable = true;
	b->ss_attributes = d[3];
	b->ltm_capable = d[3] & (1u << 1);
	b->ss_speeds = le16(d + 4);
	b->ss_functionality = d[6];
	b->u1_exit_lat = d[7];
	b->u2_exit_lat = le16(d + 8);
}

static uint32_t lane_mbps(unsigned exponent, uint32_t mantissa)
{
	switch (exponent) {
	case 0:
		return mantissa / 1000000;
	case 1:
		return mantissa / 1000;
	case 2:
		return mantissa;
	default:
		return mantissa * 1000;
	}
}

static void decode_ssp(struct usb_desc_bos *b, const uint8_t *d, uint8_t dl)
{
	size_t n, room, i;

	b->ssp_capable = true;
	b->ssp_attributes = le32(d + 4);
	b->ssp_functionality = le16(d + 8);
	b->ssp_min_ssid = b->ssp_functionality & 0x0f;
	b->ssp_min_rx_lanes = (b->ssp_functionality >> 8) & 0x0f;
	b->ssp_min_tx_lanes = (b->ssp_functionality >> 12) & 0x0f;

	/* the count field holds the number of attributes minus one */
	n = (b->ssp_attributes & 0x1f) + 1;
	room = (size_t)(dl - SSP_CAP_SIZE) / 4;
	if (n > room) {
		b->flags |= USB_DESC_F_SHORT;
		n = room;
	}
	b->ssp_lanes = 1;
	if (b->ssp_min_rx_lanes > 1 || b->ssp_min_tx_lanes > 1)
		b->ssp_lanes = 2;
	for (i = 0; i < n; i++) {
		uint32_t a = le32(d + SSP_CAP_SIZE + 4 * i);
		struct usb_desc_sublink *s = &b->sublinks[i];

		s->ssid = a & 0x0f;
		s->exponent = (a >> 4) & 0x03;
		s->asymmetric = a & (1u << 6);
		s->tx = a & (1u << 7);
		s->protocol = (a >> 14) & 0x03;
		s->mantissa = (uint16_t)(a >> 16);
		s->mbps = lane_mbps(s->exponent, s->mantissa);
		if (s->mbps > b->ssp_max_lane_mbps)
			b->ssp_max_lane_mbps = s->mbps;
		/*
		 * USB 3.2 runs the SuperSpeedPlus protocol at Gen 1 rate only
		 * on two lanes (Gen 1x2): the one place the BOS shows x2.
		 * Asymmetric sublinks are inter-chip (SSIC) and say nothing.
		 */
		if (s->protocol == LP_SUPERSPEED_PLUS && !s->asymmetric &&
		    s->mbps >= GEN1_LANE_MBPS && s->mbps < GEN2_LANE_MBPS)
			b->ssp_lanes = 2;
	}
	b->n_sublinks = n;
}

static void decode_cap(struct usb_desc_bos *b, const uint8_t *d, uint8_t dl)
{
	static const uint8_t min_size[] = {
	    [CAP_USB2_EXT] = USB2_EXT_SIZE,
	    [CAP_SUPERSPEED] = SS_CAP_SIZE,
	    [CAP_CONTAINER_ID] = CONTAINER_ID_SIZE,
	    [CAP_SUPERSPEED_PLUS] = SSP_CAP_SIZE,
	};
	uint8_t type = d[2];

	if (b->n_caps >= USB_DESC_MAX_CAPS) {
		b->flags |= USB_DESC_F_LIMIT;
		return;
	}
	b->cap_types[b->n_caps++] = type;
	if (type >= sizeof(min_size) || !min_size[type])
		return;
	if (dl < min_size[type]) {
		b->flags |= USB_DESC_F_SHORT;
		return;
	}
	switch (type) {
	case CAP_USB2_EXT:
		decode_usb2_ext(b, d);
		break;
	case CAP_SUPERSPEED:
		decode_ss(b, d);
		break;
	case CAP_CONTAINER_ID:
		b->has_container_id = true;
		memcpy(b->container_id, d + 4, sizeof(b->container_id));
		break;
	case CAP_SUPERSPEED_PLUS:
		decode_ssp(b, d, dl);
		break;
	}
}

int usb_desc_bos_parse(const void *data, size_t len, struct usb_desc_bos *ret)
{
	const uint8_t *p = data;
	struct usb_desc_bos b = {0};
	size_t pos, end, found = 0;

	if (!data || len < BOS_SIZE || p[1] != DT_BOS)
		return -EINVAL;
	b.total_length = le16(p + 2);
	b.num_caps = p[4];

	/* the kernel corrects wTotalLength to what it parsed; a device need not */
	end = b.total_length;
	if (end > len) {
		b.flags |= USB_DESC_F_TOTAL_TOO_BIG;
		end = len;
	} else if (end < len) {
		b.flags |= USB_DESC_F_TOTAL_TOO_SMALL;
	}
	pos = p[0];
	if (pos < BOS_SIZE || pos > len) {
		b.flags |= USB_DESC_F_BAD_TYPE;
		pos = BOS_SIZE;
	}
	if (end < pos)
		end = pos;

	while (pos < end) {
		uint8_t dl, dt;

		if (end - pos < 2) {
			b.flags |= end == len ? USB_DESC_F_TRUNCATED : USB_DESC_F_TOTAL_TOO_SMALL;
			break;
		}
		dl = p[pos];
		dt = p[pos + 1];
		if (dl < 2) {
			b.flags |= USB_DESC_F_BAD_LENGTH;
			break;
		}
		if (dl > end - pos) {
			b.flags |= end == len ? USB_DESC_F_TRUNCATED : USB_DESC_F_TOTAL_TOO_SMALL;
			break;
		}
		if (dt != DT_DEVICE_CAPABILITY)
			b.flags |= USB_DESC_F_BAD_TYPE;
		else if (dl < CAP_HEADER_SIZE)
			b.flags |= USB_DESC_F_SHORT;
		else {
			decode_cap(&b, p + pos, dl);
			found++;
		}
		pos += dl;
	}
	b.length = pos;
	if (found != b.num_caps)
		b.flags |= USB_DESC_F_NUM_CAPS;
	*ret = b;
	return 0;
}

static enum usb_speed ssp_speed(const struct usb_desc_bos *b)
{
	bool gen2 = b->ssp_max_lane_mbps >= GEN2_LANE_MBPS;
	bool x2 = b->ssp_lanes >= 2;

	/* below Gen 1 the lane speeds are nonsense: let wSpeedsSupported speak */
	if (!b->ssp_capable || b->ssp_max_lane_mbps < GEN1_LANE_MBPS)
		return USB_SPEED_UNKNOWN;
	/* no single lane runs above Gen 2: a faster sublink speed means two lanes */
	if (b->ssp_max_lane_mbps > GEN2_LANE_MBPS)
		return USB_SPEED_SSP_G2X2;
	if (gen2)
		return x2 ? USB_SPEED_SSP_G2X2 : USB_SPEED_SSP_G2X1;
	return x2 ? USB_SPEED_SSP_G1X2 : USB_SPEED_SS;
}

static enum usb_speed ss_speed(const struct usb_desc_bos *b)
{
	if (!b->ss_capable)
		return USB_SPEED_UNKNOWN;
	if (b->ss_speeds & USB_SS_SPEED_5G)
		return USB_SPEED_SS;
	if (b->ss_speeds & USB_SS_SPEED_HIGH)
		return USB_SPEED_HIGH;
	if (b->ss_speeds & USB_SS_SPEED_FULL)
		return USB_SPEED_FULL;
	if (b->ss_speeds & USB_SS_SPEED_LOW)
		return USB_SPEED_LOW;
	return USB_SPEED_UNKNOWN;
}

enum usb_speed usb_desc_bos_max_speed(const struct usb_desc_bos *b)
{
	enum usb_speed ssp, ss;

	if (!b)
		return USB_SPEED_UNKNOWN;
	ssp = ssp_speed(b);
	ss = ss_speed(b);
	/* the enum is ordered by rate (G1X2 and G2X1 both 10G: either will do) */
	return ssp > ss ? ssp : ss;
}

// SPDX-License-Identifier: MIT
/*
 * UVC payloads on a bulk endpoint (UVC 1.1, 2.4.3.2): every payload starts
 * with a header; a frame is cut into payloads of at most
 * dwMaxPayloadTransferSize bytes, header included; uvcvideo finds a
 * payload's end by a short transfer or by that size.
 */
#include "classes/uvcgadget/uvcg.h"

void uvcg_header(uint8_t out[UVCG_HEADER_BYTES], bool fid, bool eof, uint32_t pts,
		 uint32_t scr_stc, uint16_t scr_sof)
{
	out[0] = UVCG_HEADER_BYTES;
	out[1] = (uint8_t)(UVCG_EOH | UVCG_PTS | UVCG_SCR | (fid ? UVCG_FID : 0) |
			   (eof ? UVCG_EOF : 0));
	out[2] = (uint8_t)pts, out[3] = (uint8_t)(pts >> 8), out[4] = (uint8_t)(pts >> 16);
	out[5] = (uint8_t)(pts >> 24);
	out[6] = (uint8_t)scr_stc, out[7] = (uint8_t)(scr_stc >> 8);
	out[8] = (uint8_t)(scr_stc >> 16), out[9] = (uint8_t)(scr_stc >> 24);
	out[10] = (uint8_t)(scr_sof & 0xff), out[11] = (uint8_t)((scr_sof >> 8) & 0x07);
}

static uint32_t data_per_payload(uint32_t max_payload)
{
	return max_payload > UVCG_HEADER_BYTES ? max_payload - UVCG_HEADER_BYTES : 1;
}

uint64_t uvcg_payloads(uint64_t n, uint32_t max_payload)
{
	uint32_t d = data_per_payload(max_payload);

	/* an empty frame is still one payload: its header carries EOF */
	return n ? (n + d - 1) / d : 1;
}

uint32_t uvcg_payload_data(uint64_t n, uint32_t max_payload, uint64_t i)
{
	uint32_t d = data_per_payload(max_payload);
	uint64_t off = i * d;

	if (off >= n)
		return 0;
	return n - off < d ? (uint32_t)(n - off) : d;
}

bool uvcg_payload_zlp(uint32_t len, uint32_t max_payload, uint32_t max_packet)
{
	return len < max_payload && max_packet && len % max_packet == 0;
}

uint64_t uvcg_frame_wire_bytes(uint64_t n, uint32_t max_payload)
{
	return n + uvcg_payloads(n, max_payload) * UVCG_HEADER_BYTES;
}

uint32_t uvcg_stc(uint64_t ns)
{
	/* 48 MHz: 48 ticks per microsecond, the 32-bit counter wraps */
	return (uint32_t)((ns / 1000) * (UVCG_CLOCK_HZ / 1000000u) +
			  (ns % 1000) * (UVCG_CLOCK_HZ / 1000000u) / 1000);
}

uint16_t uvcg_sof(uint64_t ns)
{
	/* the 1 kHz frame counter's 11 bits (gadgetfs does not give the bus's own) */
	return (uint16_t)((ns / 1000000u) & 0x7ff);
}

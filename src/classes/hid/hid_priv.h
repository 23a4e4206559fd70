/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Shared by the hid probe's files; not an API. Kept free of limits.h:
 * descriptors.h and limits.h both name the transfer types.
 */
#include <stdbool.h>
#include <stdint.h>

struct hid_ep_desc {
	bool present;
	uint8_t address;
	unsigned max_packet, mult, burst, interval;
};

/*
 * The first interrupt IN and OUT endpoints of the interface's current
 * alternate setting ("2-1:1.0"), from <device>/descriptors; ifnum from the
 * interface name. Endpoints not found stay !present.
 */
void hid_read_endpoints(const char *device, const char *interface, bool superspeed,
			unsigned *ret_ifnum, struct hid_ep_desc *ret_in,
			struct hid_ep_desc *ret_out);

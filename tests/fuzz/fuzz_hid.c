// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the HID report descriptor parser (classes/hid/rdesc.c), the
 * bytes a device hands over in <hid>/report_descriptor. Whatever it accepts
 * must hold together: IDs unique and 1-255 when numbered, no report above
 * the size limit, the largest report really the largest; whatever it
 * refuses must say why. The seeds in corpus/fuzz_hid are a boot keyboard,
 * the lab's 64 B vendor descriptor, a numbered one with Push/Pop and a long
 * item, and a few the parser refuses.
 */
#include "classes/hid/rdesc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct hid_rdesc d;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT;
	int r = hid_rdesc_parse(data, size, &d, &why);
	size_t i, j;
	unsigned k;

	if (r < 0) {
		if (r != -EINVAL || !why.len)
			abort();
		strbuf_release(&why);
		return 0;
	}
	if (why.len || d.n == 0 || d.n > HID_RDESC_MAX_REPORTS)
		abort();
	for (i = 0; i < d.n; i++) {
		if (d.numbered != (d.reports[i].id != 0))
			abort();
		for (j = i + 1; j < d.n; j++)
			if (d.reports[i].id == d.reports[j].id)
				abort();
		for (k = 0; k < HID_REPORT_KINDS; k++)
			if (d.reports[i].bits[k] > HID_RDESC_MAX_BITS)
				abort();
	}
	for (k = 0; k < HID_REPORT_KINDS; k++) {
		int at = hid_rdesc_largest(&d, (enum hid_report_kind)k);

		for (i = 0; at >= 0 && i < d.n; i++)
			if (hid_report_bytes(&d.reports[i], (enum hid_report_kind)k) >
			    hid_report_bytes(&d.reports[at], (enum hid_report_kind)k))
				abort();
	}
	strbuf_release(&why);
	return 0;
}

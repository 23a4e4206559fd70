// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the sysfs "descriptors" and "bos_descriptors" parsers on
 * arbitrary bytes. The first byte picks the parser: bit 0 the device one,
 * bit 1 the BOS one (neither bit: both), bit 2 SuperSpeed units. The seeds in
 * corpus/fuzz_descriptors are the unit tests' byte arrays, written by
 * "test_descriptors --write-corpus DIR" and "test_descriptors_bos --write-corpus DIR".
 */
#include "platform/usb/descriptors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *s)
{
	if (!s || !*s)
		abort();
}

/* reads every field, so ASan sees any pointer that leaves the allocation */
static void check_interface(const struct usb_desc_interface *f)
{
	size_t i;

	if (f->n_eps > USB_DESC_MAX_ENDPOINTS || (f->n_eps && !f->eps) || (!f->n_eps && f->eps))
		abort();
	check_name(usb_class_name(f->cls));
	for (i = 0; i < f->n_eps; i++) {
		const struct usb_desc_endpoint *e = &f->eps[i];

		check_name(usb_transfer_type_name(e->type));
		if (e->max_packet > 2047 || e->mult < 1 || e->mult > 4 || e->number > 15)
			abort();
		if (e->has_ssp_iso_comp && (!e->has_ss_comp || e->type != USB_XFER_ISOC))
			abort();
		if (e->max_streams > 65536 || (e->max_streams && e->type != USB_XFER_BULK))
			abort();
	}
}

static void check_device(const uint8_t *p, size_t len, bool superspeed)
{
	struct usb_desc_device d;
	size_t i, j, sum = 18;

	if (usb_desc_parse(p, len, superspeed, &d) < 0) {
		if (len >= 18 && p[1] == 0x01)
			abort(); /* a device descriptor must always parse */
		return;
	}
	if (d.n_configs > USB_DESC_MAX_CONFIGS || (d.n_configs && !d.configs))
		abort();
	for (i = 0; i < d.n_configs; i++) {
		const struct usb_desc_config *c = &d.configs[i];

		sum += c->length;
		if (c->n_intfs > USB_DESC_MAX_INTERFACES || c->n_iads > USB_DESC_MAX_IADS ||
		    (c->flags & ~d.flags) || c->n_interface_numbers > 256)
			abort();
		for (j = 0; j < c->n_intfs; j++) {
			const struct usb_desc_interface *f = &c->intfs[j];

			check_interface(f);
			/* the class-specific span is inside the input, empty without extras */
			if (f->n_extra ? f->extra_off >= f->extra_end || f->extra_end > len
				       : f->extra_off || f->extra_end)
				abort();
			if (usb_desc_find_interface(c, f->number, f->alt) == NULL)
				abort();
			(void)usb_desc_offers_uas(c, f->number);
		}
		for (j = 0; j < c->n_iads; j++)
			check_name(usb_class_name(c->iads[j].cls));
		if (usb_desc_config_by_value(&d, c->value) == NULL)
			abort();
	}
	/* every byte after the device descriptor is accounted for exactly once */
	if (sum + d.skipped != len)
		abort();
	for (i = 0; i < USB_DESC_F_COUNT; i++)
		if (d.flags & (1u << i))
			check_name(usb_desc_flag_name(1u << i));
	usb_desc_release(&d);
	usb_desc_release(&d);
}

static void check_bos(const uint8_t *p, size_t len)
{
	struct usb_desc_bos b;
	enum usb_speed s;
	size_t i;

	if (usb_desc_bos_parse(p, len, &b) < 0) {
		if (len >= 5 && p[1] == 0x0f)
			abort();
		return;
	}
	if (b.length > len || b.n_caps > USB_DESC_MAX_CAPS ||
	    b.n_sublinks > USB_DESC_MAX_SUBLINKS ||
	    (b.ssp_lanes && b.ssp_lanes != 1 && b.ssp_lanes != 2))
		abort();
	for (i = 0; i < b.n_caps; i++)
		check_name(usb_bos_cap_name(b.cap_types[i]));
	for (i = 0; i < b.n_sublinks; i++)
		if (b.sublinks[i].mbps > b.ssp_max_lane_mbps)
			abort();
	s = usb_desc_bos_max_speed(&b);
	if (s >= USB_SPEED_COUNT)
		abort();
	check_name(usb_speed_name(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned sel;
	uint8_t *copy;

	if (size < 1)
		return 0;
	sel = data[0];
	/* an exact-size heap copy, so ASan catches a read one byte past the end */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if ((sel & 1) || !(sel & 3))
		check_device(copy, size - 1, sel & 4);
	if ((sel & 2) || !(sel & 3))
		check_bos(copy, size - 1);
	free(copy);
	return 0;
}

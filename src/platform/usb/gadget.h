/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The USB device (gadget) side of a board: gadgets composed in configfs
 * (/sys/kernel/config/usb_gadget/<g>: IDs, strings, configs c.N with the
 * functions linked into them, the UDC it is bound to), the settings of each
 * function that govern its throughput, and every USB device controller
 * (/sys/class/udc/<udc>: state, negotiated and maximum speed).
 *
 * Strings are malloc'ed and NULL when unknown; integers are
 * FIELD_INT_UNKNOWN (model/field.h) when absent, unreadable or garbled.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GADGET_CONFIGFS "/sys/kernel/config/usb_gadget"
#define UDC_CLASS "/sys/class/udc"

struct gadget_dev {
	char *name;	       /* directory name under usb_gadget/ */
	char *udc;	       /* UDC it is bound to; NULL when unbound */
	char *id_vendor;       /* "0x1d6b", as configfs shows it */
	char *id_product;
	char *bcd_usb;
	char *bcd_device;
	char *max_speed;       /* the gadget's own cap: "super-speed" ... */
	char *manufacturer;    /* strings/0x409 (or the first language) */
	char *product;
	char *serialnumber;
	int64_t nconfigs, nfunctions;
};

struct gadget_config {
	char *gadget;
	char *name;	       /* "c.1" */
	char *label;	       /* strings/<lang>/configuration */
	char *bm_attributes;   /* "0x80" */
	char *functions;       /* linked functions, space-separated: "ncm.usb0 uvc.0" */
	int64_t max_power_ma;
};

struct gadget_function {
	char *gadget;
	char *name;	       /* "ncm.usb0": type.instance */
	char *type;	       /* "ncm" */
	char *instance;	       /* "usb0" */
	char *configs;	       /* configs linking it, "c.1 c.2"; NULL when in none */
	char *settings;	       /* the attributes below that are set, "attr=value ..." */
	/* network functions: ncm, ecm, eem, rndis, geth */
	char *ifname, *dev_addr, *host_addr;
	int64_t qmult;
	/* uvc */
	int64_t streaming_maxpacket, streaming_maxburst, streaming_interval;
	/* hid */
	int64_t report_length, protocol, subclass;
	/* SourceSink and Loopback */
	int64_t pattern, bulk_buflen, bulk_qlen, iso_qlen, qlen;
	int64_t isoc_interval, isoc_maxpacket, isoc_mult, isoc_maxburst;
	/* mass_storage */
	int64_t stall, num_buffers, nluns;
};

struct gadget_lun {
	char *gadget;
	char *function;	       /* "mass_storage.0" */
	char *name;	       /* "lun.0" */
	char *file;	       /* backing file; NULL when none (an ejected removable LUN) */
	int64_t ro, removable, cdrom, nofua;
};

struct udc_info {
	char *name;	       /* "fc000000.usb" */
	char *state;	       /* "configured", "not-attached" ... */
	char *function;	       /* the bound gadget driver (the configfs gadget name) */
	char *current_speed;   /* "high-speed"; "UNKNOWN" while not connected */
	char *maximum_speed;
	int64_t is_selfpowered, is_otg, is_a_peripheral;
	int64_t b_hnp_enable, a_hnp_support, a_alt_hnp_support;
};

struct gadget_facts {
	bool configfs;	       /* usb_gadget in configfs exists (libcomposite loaded) */
	struct gadget_dev *gadgets;
	size_t ngadgets;
	struct gadget_config *configs;
	size_t nconfigs;
	struct gadget_function *functions;
	size_t nfunctions;
	struct gadget_lun *luns;
	size_t nluns;
	struct udc_info *udcs;
	size_t nudcs;
};

/* Fill ret from the sysroot; missing pieces are unknowns, never errors. Always 0. */
int gadget_probe(struct gadget_facts *ret);
void gadget_facts_release(struct gadget_facts *g);

/*
 * Order of the UDC speed names (usb_speed_string() in the kernel): 0 for
 * "UNKNOWN" or anything unrecognised, then low, full, high (and wireless),
 * super, super-plus. Only for comparing two speeds.
 */
int udc_speed_rank(const char *s);
/* The gadget bound to a UDC, or NULL. */
const struct gadget_dev *gadget_on_udc(const struct gadget_facts *g, const char *udc);

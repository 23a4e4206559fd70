/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The endpoints a gadget function declares, computed: configfs does not show
 * them, so they are derived from what each function driver in Linux 6.1
 * puts in its descriptors (drivers/usb/gadget/function/f_*.c) for the
 * tunables given, at the gadget's maximum speed. They are the descriptors,
 * not what the host scheduled on the bus. Pure computation, no printing.
 */
#include "classes/gadget/build.h"
#include "platform/usb/limits.h"
#include "platform/usb/speed.h"

struct gadget_ep {
	const char *iface;   /* "data", "notify", "alt 1 (iso)", ...: where it sits */
	const char *type;    /* usb_xfer_name(): "bulk", "interrupt", "isochronous" */
	const char *dir;     /* "in" or "out" */
	uint64_t max_packet; /* wMaxPacketSize bits 10:0, bytes */
	uint64_t mult;	     /* packets (HS) or bursts (SS Mult) per interval, 1-3 */
	uint64_t maxburst;   /* SuperSpeed bMaxBurst 0-15 (burst of maxburst + 1); 0 below */
	double interval_us;  /* the service interval; NaN for bulk */
	double ceiling_Bps;  /* payload ceiling of the endpoint, B/s; NaN when not computed */
	double ceiling_mb_s; /* the same in MB/s (10^6 B/s) */
	char *ceiling_basis; /* how the ceiling was derived, or why it was not */
};

/* the report of up's endpoints: one table for one function's (a "endpoints" section) */
struct report;
void gadget_eps_describe(const struct gadget_built_fn *fn, struct report *out);
/* text: a heading naming the speed, then per function one line per endpoint */
struct strbuf;
void gadget_endpoints_text(const struct gadget_built *b, struct strbuf *out);

/* "high-speed" -> USB_SPEED_HIGH (super-speed-plus: Gen 2x1); USB_SPEED_UNKNOWN otherwise */
enum usb_speed gadget_speed_parse(const char *configfs_name);
/*
 * The speed the functions describe themselves at: the lower of the gadget's
 * max_speed and the UDC's maximum_speed (either NULL when unknown); high
 * speed, and *ret_assumed set, when neither is known.
 */
enum usb_speed gadget_ep_speed(const char *gadget_max, const char *udc_max, bool *ret_assumed);

/*
 * The endpoints f declares at speed s into out->eps (and out->ep_source, the
 * driver file, out->ep_note for caveats). A tunable not given in f is read
 * back from fn_dir (its configfs directory; NULL: none) or taken as the 6.1
 * default. 0 or -EINVAL (an unknown speed).
 */
int gadget_fn_endpoints(const struct gadget_fn_spec *f, const char *fn_dir, enum usb_speed s,
			struct gadget_built_fn *out);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The passes of usbperf hid, on an open hidraw node (host side) or an
 * f_hid gadget node /dev/hidgN (device side). Each report written carries a
 * 32-bit sequence number after its report ID byte, so that an echo can be
 * matched to the report it answers. Blocking reads and writes, paced by the
 * endpoint: f_hid holds one IN request at a time, hidraw's write waits for
 * the transfer. No printing; signal_stop ends a pass early with what it has.
 */
#include "platform/sys/passwatch.h"
#include "classes/hid/hid.h"

#include <stdbool.h>
#include <stdint.h>

#define HID_IO_MAX_REPORT 65536

enum hid_pass_kind {
	HID_PASS_IN,	  /* host: read input reports as they come */
	HID_PASS_OUT,	  /* host: write output reports */
	HID_PASS_LATENCY, /* host: write a report, wait for its echo */
	HID_PASS_SEND,	  /* gadget: write input reports as fast as the endpoint takes them */
	HID_PASS_ECHO,	  /* gadget: write back each report received */
	HID_PASS_RECEIVE, /* gadget: read the host's output reports */
	HID_PASS_KINDS,
};

struct hid_io_config {
	double time_s;		/* counted time; 0: until count */
	uint64_t count;		/* reports; 0: until time */
	unsigned report_bytes;	/* bytes per read or write, report ID included: 1-65536 */
	uint8_t report_id;	/* the first byte of every report written; 0: none */
	bool hidraw_write;	/* hidraw: a report ID byte leads every write, 0 unnumbered */
	double first_timeout_s; /* end with -ETIMEDOUT when no first report came; 0: wait */
	double idle_timeout_s;	/* after the first report, end when none came; 0: never */
	double echo_timeout_s;	/* latency: a report not echoed within this is lost */
};

struct hid_pass {
	enum hid_pass_kind kind;
	const char *name;  /* "in", "out", "latency", "send", "echo", "receive" */
	const char *path;  /* "interrupt IN", "interrupt OUT", "SET_REPORT", "hidg" */
	const char *ended; /* "time", "count", "idle", "signal", "timeout" */
	unsigned report_bytes;
	uint64_t reports, bytes;
	uint64_t lost;	      /* latency: reports never echoed in time */
	uint64_t short_reads; /* reads shorter than report_bytes */
	double time_s;	      /* in/receive: first to last report; else the whole pass */
	double reports_per_s, Bps;
	/* in/receive/echo: inter-arrival; out/send: time per write; latency: round trip */
	double p50_us, p99_us, max_us;
	/* the interrupt endpoint's ceiling for these reports; NaN when none applies */
	double period_us, ceiling_reports_per_s, ceiling_Bps, pct;
	/* on the wire (hid --monitor, usbmon): the device's URBs; unknown unmonitored */
	uint64_t urbs, urb_size, usb_errors;
	/*
	 * of the URBs, those with report bytes and those with none (no error): f_hid
	 * ends each report that fills its packets with a zero-length packet, and the
	 * host's interrupt URB completes on it, empty
	 */
	uint64_t urbs_data, urbs_empty;
	/*
	 * in: reports the wire carried that the reader did not read (urbs_data less
	 * reports; unknown unmonitored or when usbmon lost events). hidraw queues 63
	 * reports per open node and drops what comes while they wait.
	 */
	uint64_t unread;
	double urbs_per_s, inflight_mean, busy_pct, urb_lat_p99_us;
	struct pass_sys sys; /* the CPU clock and interrupt placement (platform/sys/passwatch.h) */
};

/* the wire figures unknown: a pass not watched on usbmon (hid_pass_run starts so) */
void hid_pass_wire_unknown(struct hid_pass *p);

/* "in", "out", ... */
const char *hid_pass_name(enum hid_pass_kind k);

/*
 * Run one pass on fd. 0: ret holds the figures (possibly ended by signal or
 * idleness); -ETIMEDOUT: nothing came within first_timeout_s; -EINVAL bad
 * config; another -errno: an I/O error ended it, ret holds what was counted.
 */
int hid_pass_run(int fd, enum hid_pass_kind k, const struct hid_io_config *c, struct hid_pass *ret);

/* Put the pass next to an endpoint's ceiling (NaN when e is NULL or has none). */
void hid_pass_set_ceiling(struct hid_pass *p, const struct hid_endpoint *e);

/*
 * Findings on a host-side measurement: the host polls slower than bInterval
 * asks (by how much), a rate above the ceiling (the host controller does not
 * keep bInterval), a report split over several packets, full-speed HID where
 * high speed would give 8x.
 */
void hid_findings(const struct hid_device *d, const struct hid_pass *passes, size_t n,
		  struct finding_list *out);

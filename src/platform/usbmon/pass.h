/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * One measurement pass watched on the wire: usbmon captures one device's events in a
 * background thread from the start of the pass to its end, and the pass gets the
 * device's figures (bytes each way, the dominant URB size, URBs in flight, the bus's
 * busy share, completion latency, errors, and Bulk-Only's protocol bytes). Nothing is
 * printed; a monitor that cannot start says why and the pass runs unmonitored.
 */
#include "platform/usbmon/usbmon.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>

#define USBMON_BOT_CBW 31 /* Bulk-Only Transport: command block wrapper, bulk OUT */
#define USBMON_BOT_CSW 13 /* command status wrapper, bulk IN */

struct usbmon_pass_figures {
	double window_s;
	uint64_t bytes_in, bytes_out; /* actual_length of the completed URBs, every endpoint */
	double wire_mb_s;	      /* (in + out) / window, 10^6 B/s */
	uint8_t data_ep;	      /* the bulk/iso/interrupt endpoint that moved the most */
	uint32_t urb_size;	      /* its dominant completed size (moved the most bytes) */
	uint32_t data_inflight_max;   /* its URBs in flight at once, at most (UAS: streams) */
	uint64_t urb_size_count;
	uint64_t size_hist[USBMON_SIZE_BUCKETS]; /* its completed URBs by size */
	uint64_t urbs;				 /* completions, every endpoint */
	uint64_t urbs_data;			 /* of them, those that carried bytes */
	uint64_t urbs_empty; /* no byte and no error (a zero-length packet, IN) */
	double inflight_mean;			 /* the device's URBs in flight, time-weighted */
	uint32_t inflight_max;
	double busy_pct;      /* share of the window with at least one URB in flight */
	uint64_t busy_us;     /* the time behind busy_pct */
	double inflight_area; /* URB-microseconds behind inflight_mean */
	double lat_p50_us, lat_p99_us, lat_max_us; /* the data endpoint's submit -> complete */
	uint64_t iso_packets, iso_packet_errors;   /* isochronous packets, every endpoint */
	uint64_t errors[USBMON_NERR];
	uint64_t errors_total; /* stalls, protocol, babble, shutdown, other: not unlinks */
	uint64_t dropped; /* events the kernel lost on the bus: figures are a lower bound */
	bool lower_bound;
	/* Bulk-Only: 31 B CBWs on bulk OUT, 13 B CSWs on bulk IN (bot set by the caller) */
	bool bot;
	uint64_t bot_commands; /* CSWs completed: one per command */
	uint64_t protocol_bytes;
	double protocol_pct; /* protocol bytes over the wire bytes */
};

/*
 * The figures of device bus/dev from finished statistics (a live capture's or a
 * recorded stream's). bot: count Bulk-Only wrappers. -ENOENT: no event of the device.
 */
int usbmon_pass_figures(const struct usbmon_stats *s, unsigned bus, unsigned dev, bool bot,
			struct usbmon_pass_figures *ret);

/*
 * The rates again over the measured pass's own time (seconds, its clock from the first
 * request to the last completion) instead of the capture's window, which also holds
 * the pass's setup: the URBs all fall inside the pass, the idle time around it is not
 * the pass's. Nothing changes for seconds <= 0 or longer than the window.
 */
void usbmon_pass_figures_over(struct usbmon_pass_figures *f, double seconds);

/* the bus and device numbers of a USB device's sysfs name ("2-1"), below the sysroot */
int usbmon_device_numbers(const char *sysname, unsigned *ret_bus, unsigned *ret_dev);

struct usbmon_pass;

/*
 * Load usbmon if needed and start watching bus/dev. 0 with *ret running; -errno
 * with why filled ("usbmon not loadable: ...", "/dev/usbmon2: Permission denied"),
 * and the caller measures without it.
 */
int usbmon_pass_start(unsigned bus, unsigned dev, bool bot, struct usbmon_pass **ret,
		      struct strbuf *why);
/*
 * The same for traffic of many small URBs (a network's frames, HID reports): a
 * ring large enough to hold them between two wake-ups of the reader, and a
 * second of 64 B reports (about 320 B of events each) while the process waits.
 */
int usbmon_pass_start_small(unsigned bus, unsigned dev, struct usbmon_pass **ret,
			    struct strbuf *why);
/*
 * End the capture and free p. 0 and *ret; -errno (the capture failed, or saw nothing
 * of the device) with why filled. p may be NULL (-EINVAL).
 */
int usbmon_pass_stop(struct usbmon_pass *p, struct usbmon_pass_figures *ret, struct strbuf *why);

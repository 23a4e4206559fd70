/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The live side of usbmon: make sure the binary interface is there (loading the
 * module when it is one), then read /dev/usbmonN through its memory-mapped ring
 * (MON_IOCX_MFETCH), count every event into usbmon_stats and copy the chosen ones
 * into a pcapng file. Nothing is printed here.
 */
#include "platform/usbmon/usbmon.h"
#include "util/strbuf.h"

#include <stdatomic.h>
#include <stdbool.h>

enum usbmon_state {
	USBMON_PRESENT, /* the interface was there */
	USBMON_LOADED,	/* modprobe usbmon made it appear */
};

/*
 * 0 and *ret_state; -ENOENT: not built (no module for the running kernel, not built
 * in); -EIO: a module is there but modprobe did not load it; why says which, with
 * the kernel release or modprobe's exit status.
 */
int usbmon_ensure(enum usbmon_state *ret_state, struct strbuf *why);

/* the device node of a bus (0: every bus), below the sysroot */
void usbmon_node(unsigned bus, struct strbuf *out);

struct usbmon_capture {
	unsigned bus;	  /* 0: all buses */
	double time_s;	  /* 0: until a signal */
	int pcap_fd;	  /* -1: none; else written from its current position */
	uint32_t snaplen; /* data bytes per event into the pcap (0: what usbmon copied) */
	/*
	 * the ring to ask for (0: the largest, 1200 KiB). usbmon copies up to a fifth of
	 * it of each URB's data, in the completion path: a capture that needs no data
	 * (the figures only) asks for a small one and costs the measured I/O less
	 */
	uint32_t ring_want;
	/* sleep this long after each drain (0: none): fewer wake-ups, the ring fills meanwhile */
	uint32_t batch_us;
	/* which events count (NULL: all); the pcap gets the same ones */
	bool (*want)(const struct usbmon_event *e, void *ctx);
	void *want_ctx;
	/* about once a second, and never when NULL */
	void (*tick)(const struct usbmon_stats *s, void *ctx);
	void *tick_ctx;
	/* set by another thread to end the capture (within POLL_STOP_MS); NULL: none */
	const atomic_bool *stop;
	/* out */
	atomic_bool started; /* the ring is mapped and the window open: events count from here */
	uint32_t ring_bytes;
	uint64_t pcap_bytes;
	bool interrupted; /* a signal ended it */
};

/*
 * Capture into s (initialised by the caller). 0; -errno from open (-EACCES not
 * root, -ENODEV no such bus), mmap, the ioctls, or a pcap write (-ENOSPC...); the
 * figures so far stay in s and are finished either way.
 */
int usbmon_capture_run(struct usbmon_capture *c, struct usbmon_stats *s);

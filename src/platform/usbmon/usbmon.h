/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * usbmon's binary interface (Documentation/usb/usbmon.rst, drivers/usb/mon/mon_bin.c):
 * the 64-byte event header of the mmapped ring and of LINKTYPE_USB_LINUX_MMAPPED
 * captures, the statistics built from a stream of events, and the pcapng files that
 * carry such a stream. Everything here is pure: bytes in, structs out, no I/O, no
 * printing, so the unit tests and the fuzzer feed it directly. The capture itself
 * (open /dev/usbmonN, ring, MFETCH) is in capture.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USBMON_HDR_LEN 64      /* struct mon_bin_hdr, API 1 (the mmapped form) */
#define USBMON_ISODESC_LEN 16  /* struct mon_bin_isodesc */
#define USBMON_ISODESC_MAX 128 /* the kernel's ISODESC_MAX */

enum usbmon_xfer { USBMON_ISO = 0, USBMON_INTR = 1, USBMON_CTRL = 2, USBMON_BULK = 3 };

/* One event as the kernel wrote it, in host byte order. data and desc point into the input. */
struct usbmon_event {
	uint64_t id;	   /* the URB's kernel address: pairs a submit with its completion */
	char type;	   /* 'S' submit, 'C' complete, 'E' submit error, '@' ring filler */
	uint8_t xfer_type; /* enum usbmon_xfer */
	uint8_t epnum;	   /* endpoint number; 0x80: the URB's direction is IN */
	uint8_t devnum;
	uint16_t busnum;
	char flag_setup, flag_data;
	int64_t ts_sec;
	int32_t ts_usec;
	int32_t status;	  /* -EINPROGRESS on submit; the URB's status on completion */
	uint32_t len_urb; /* see usbmon_stats_add(): requested on 'S', actual on 'C' */
	uint32_t len_cap; /* bytes after the header: the iso descriptors, then data */
	int32_t iso_error_count, iso_numdesc;
	int32_t interval, start_frame;
	uint32_t xfer_flags;
	uint32_t ndesc;	     /* iso descriptors that follow the header */
	const uint8_t *desc; /* ndesc * 16 bytes */
	const uint8_t *data; /* len_cap - ndesc * 16 bytes of captured data */
	uint32_t data_len;
};

struct usbmon_isodesc {
	int32_t status;
	uint32_t offset, len;
};

/*
 * One event from buf (the header, then len_cap bytes). 0; -EINVAL for a header that
 * cannot be one (truncated, len_cap past the end, descriptors past len_cap, unknown
 * type or transfer type). A filler ('@') parses; callers skip it. *ret_size: the
 * bytes the event occupies (64 + len_cap).
 */
int usbmon_event_parse(const uint8_t *buf, size_t len, struct usbmon_event *ret, size_t *ret_size);
/* iso descriptor i (< ndesc) of a parsed event */
void usbmon_isodesc_get(const struct usbmon_event *e, unsigned i, struct usbmon_isodesc *ret);
static inline uint64_t usbmon_event_us(const struct usbmon_event *e)
{
	return (uint64_t)e->ts_sec * 1000000u + (uint32_t)e->ts_usec;
}

/* ---- statistics ---- */

#define USBMON_SIZE_BUCKETS 34 /* 0 B, then [2^(k-1), 2^k) for k = 1..32, then 4 GiB */
#define USBMON_LAT_SUB 64      /* latency histogram: 64 steps per power of two above 64 us */
#define USBMON_LAT_BUCKETS (64 + 26 * USBMON_LAT_SUB)
#define USBMON_SIZES_EXACT 32 /* distinct URB sizes counted exactly per endpoint */
#define USBMON_MAX_ENDPOINTS 512
#define USBMON_MAX_DEVICES 128
#define USBMON_INFLIGHT_CAP 65536 /* URBs matched at once; past it completions go unmatched */

enum usbmon_err {
	USBMON_EPIPE,	   /* stall */
	USBMON_EPROTO,	   /* bitstuff, CRC, timeout on the wire */
	USBMON_EOVERFLOW,  /* babble */
	USBMON_ENOENT,	   /* unlinked synchronously (usb_kill_urb) */
	USBMON_ECONNRESET, /* unlinked asynchronously */
	USBMON_ESHUTDOWN,  /* device or host controller gone */
	USBMON_EOTHER,
	USBMON_NERR,
};
extern const char *const usbmon_err_names[USBMON_NERR]; /* "epipe", ... */

struct usbmon_size_count {
	uint32_t size;
	uint64_t count;
};

/* One endpoint in one direction of one device: the figures of issue 18. */
struct usbmon_ep_stats {
	uint16_t busnum;
	uint8_t devnum;
	uint8_t epnum;	   /* with 0x80 for IN */
	uint8_t xfer_type; /* as the last event said */
	uint64_t submits;
	uint64_t completions;	/* 'C' events, matched or not */
	uint64_t unmatched;	/* completions whose submit was not seen (before the capture) */
	uint64_t submit_errors; /* 'E' events */
	uint64_t bytes;		/* sum of len_urb of the 'C' events: actual_length */
	/*
	 * completions without error and without a byte: on an IN endpoint a zero-length
	 * packet ended the URB (a device that ends each full-packet transfer with one)
	 */
	uint64_t empty;
	uint64_t size_hist[USBMON_SIZE_BUCKETS]; /* completed URBs by actual length */
	struct usbmon_size_count sizes[USBMON_SIZES_EXACT];
	unsigned nsizes;
	uint64_t sizes_other; /* completions whose size found the exact table full */
	uint64_t lat_hist[USBMON_LAT_BUCKETS];
	uint64_t lat_n, lat_max_us;
	uint32_t inflight, inflight_max;
	double inflight_area; /* URB-microseconds */
	uint64_t last_us;
	uint64_t errors[USBMON_NERR];
	uint64_t iso_packets, iso_packet_errors;
};

struct usbmon_dev_stats {
	uint16_t busnum;
	uint8_t devnum;
	uint32_t inflight, inflight_max;
	double inflight_area;
	uint64_t busy_us, busy_since, last_us;
};

struct usbmon_pending; /* the URB-id table */

struct usbmon_stats {
	struct usbmon_ep_stats *eps;
	size_t neps;
	struct usbmon_dev_stats *devs;
	size_t ndevs;
	struct usbmon_pending *pending;
	uint64_t events, fillers, first_us, last_us;
	uint64_t start_us, end_us; /* the window: set by the capture, else the events' span */
	uint64_t pending_overflow; /* submits not tracked: the table was full */
	uint64_t ep_overflow;	   /* events of endpoints past USBMON_MAX_ENDPOINTS */
	uint64_t dropped;	   /* the kernel's count of events lost to a full ring */
};

int usbmon_stats_init(struct usbmon_stats *s);
void usbmon_stats_release(struct usbmon_stats *s);
/* count one event; -ENOMEM only */
int usbmon_stats_add(struct usbmon_stats *s, const struct usbmon_event *e);
/* close the window at end_us (0: the last event): in-flight areas and busy time */
void usbmon_stats_finish(struct usbmon_stats *s, uint64_t end_us);

/* derived figures, for renderers and tests */
double usbmon_window_s(const struct usbmon_stats *s);
/* the completed size that moved the most bytes (count x size); ties go to the larger */
uint32_t usbmon_ep_dominant(const struct usbmon_ep_stats *e, uint64_t *ret_count);
/* latency quantile q (0..1) in us, NaN with no samples; exact below 64 us, else within 1/64 */
double usbmon_ep_lat_quantile(const struct usbmon_ep_stats *e, double q);
/* the lower edge of a size-histogram bucket */
uint64_t usbmon_size_bucket_low(unsigned k);
const struct usbmon_dev_stats *usbmon_dev_find(const struct usbmon_stats *s, unsigned bus,
					       unsigned dev);

/* ---- pcapng ---- */

#define USBMON_LINKTYPE 220 /* LINKTYPE_USB_LINUX_MMAPPED */

/* the section header and interface description blocks, appended to out */
struct strbuf;
void usbmon_pcapng_head(struct strbuf *out);
/*
 * One enhanced packet block for an event of ev_len bytes (header + len_cap), with at
 * most snaplen bytes of its data (the header and iso descriptors always whole;
 * 0: all). The block's original length is what the URB carried.
 */
void usbmon_pcapng_packet(struct strbuf *out, const uint8_t *ev, size_t ev_len, uint32_t snaplen);
/*
 * Every event of a pcapng file in memory (ours, or tshark/dumpcap's of a usbmon
 * interface) to fn, which returns 0 or -errno to stop. -EINVAL with why filled for a
 * file that is no pcapng, a block that does not hold together, an interface that is
 * not LINKTYPE_USB_LINUX_MMAPPED, a byte order other than the host's.
 */
int usbmon_pcapng_read(const uint8_t *buf, size_t len,
		       int (*fn)(const struct usbmon_event *e, const uint8_t *raw, size_t raw_len,
				 void *ctx),
		       void *ctx, struct strbuf *why);

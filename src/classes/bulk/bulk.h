/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Raw bulk (and isochronous) throughput against a USB device's own
 * endpoints, with libusb-1.0's asynchronous API: N transfers of S bytes in
 * flight for a time, per direction. Meant for a SourceSink or Loopback
 * gadget (0525:a4a0) or any interface with a bulk IN+OUT pair: the
 * controller's own ceiling, no storage or network stack in the way.
 *
 * The device is found through sysfs (util/sysroot.h, so tests use a tree)
 * and opened through its usbfs node, which libusb wraps: libusb does no
 * device discovery of its own (no udev, so the static binary has no
 * libudev). The kernel driver holding the interface (usbtest) is detached
 * and attached again when the session closes, whatever ended it.
 *
 * Rates are payload bytes per second; MB/s = 10^6 B/s.
 */
#include "platform/sys/passwatch.h"
#include "platform/usb/speed.h"
#include "platform/usbmon/pass.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BULK_DEFAULT_VID 0x0525 /* NetChip: the Linux gadget zero/SourceSink IDs */
#define BULK_DEFAULT_PID 0xa4a0
#define BULK_MAX_SIZE (16u << 20) /* one transfer */
#define BULK_MAX_DEPTH 256u	  /* transfers in flight per direction */
#define BULK_MAX_POINTS 64u	  /* sizes and depths each */

enum bulk_dir {
	BULK_DIR_IN = 1,
	BULK_DIR_OUT = 2,
	BULK_DIR_BOTH = 4, /* IN and OUT at once, depth each */
};

/* "in", "out", "both" */
const char *bulk_dir_name(enum bulk_dir d);
/* "in", "out", "both" (all three), or a comma list: a mask of enum bulk_dir; -EINVAL */
int bulk_dirs_parse(const char *s, unsigned *ret_mask);

/* One device on the bus as sysfs shows it. */
struct bulk_sysdev {
	char *sysname; /* "1-1" */
	unsigned busnum, devnum;
	unsigned vid, pid;
	enum usb_speed speed;
	char *product; /* NULL unknown */
};

void bulk_sysdev_release(struct bulk_sysdev *d);

/*
 * Which device: name is a sysfs name ("1-1"), a usbfs node
 * ("/dev/bus/usb/001/002") or "VID:PID"; NULL: vid/pid (-1: the default
 * 0525:a4a0 first, else any device whose interface has a bulk IN+OUT pair:
 * *ret_any set, the caller checks the interfaces). -ENODEV when none,
 * -EINVAL for a name that is none of these.
 */
struct bulk_select {
	const char *name;
	int vid, pid;
};
int bulk_find_devices(const struct bulk_select *sel, struct bulk_sysdev **ret_v, size_t *ret_n);
void bulk_sysdevs_free(struct bulk_sysdev *v, size_t n);

/* The driver bound to interface ifnum of dev ("usbtest"), NULL if none; malloc'ed. */
char *bulk_iface_driver(const struct bulk_sysdev *dev, unsigned ifnum);

/* The endpoints chosen from the configuration descriptor. */
struct bulk_eps {
	int iface;		    /* bInterfaceNumber */
	int alt;		    /* bAlternateSetting */
	unsigned ep_in, ep_out;	    /* addresses, 0: none */
	unsigned mps_in, mps_out;   /* wMaxPacketSize (size bits), bytes */
	unsigned mult_in, mult_out; /* iso: transactions per (micro)frame or burst x mult at SS */
	unsigned interval_in, interval_out; /* iso bInterval */
};

/* what the user asked for: -1 any */
struct bulk_want {
	int iface, ep_in, ep_out;
	bool iso;
};

struct libusb_config_descriptor;
/*
 * Pick the interface and endpoints: a bulk IN+OUT pair in an interface's
 * alt setting 0 (iso: an alt setting with isochronous endpoints, SourceSink's
 * alt 1), the first such unless want names them. -ENOENT: no interface
 * (or not the one named) has them; why says which, in a line.
 */
int bulk_pick_endpoints(const struct libusb_config_descriptor *cfg, const struct bulk_want *want,
			struct bulk_eps *ret, char *why, size_t why_len);

/* One measured point. */
struct bulk_point {
	enum bulk_dir dir;
	bool iso;
	uint64_t size;	/* bytes per transfer */
	unsigned depth; /* transfers in flight per direction */
	double seconds; /* measured time */
	uint64_t bytes_in, bytes_out;
	uint64_t transfers;
	uint64_t packets, packet_errors; /* iso only */
	double mb_s, in_mb_s, out_mb_s;	 /* MB/s (10^6 B/s); mb_s = in + out */
	double ceiling_mb_s;		 /* the link's bulk (or iso endpoint) ceiling for dir */
	double share_pct;		 /* mb_s / ceiling */
	bool interrupted;		 /* a signal ended it early */
	bool monitored;			 /* --monitor: wire holds the point's usbmon figures */
	struct usbmon_pass_figures wire;
	struct pass_sys sys; /* the CPU clock and interrupt placement (platform/sys/passwatch.h) */
};

/* ceiling for a point (MB/s): bulk per direction; both: twice at SuperSpeed (dual simplex) */
double bulk_ceiling_mb_s(enum usb_speed s, enum bulk_dir d);
/* the isochronous endpoint's ceiling, MB/s, from its descriptor: mps x mult per interval */
double bulk_iso_ceiling_mb_s(enum usb_speed s, unsigned mps, unsigned mult, unsigned interval);
/* fill mb_s, in/out, share from bytes, seconds and ceiling */
void bulk_point_finish(struct bulk_point *p);
/* the pass name of a point: "in-64K-q8", "both-1M-q32", "iso-in" */
void bulk_point_name(const struct bulk_point *p, char *buf, size_t len);

/* An open device with the interface claimed. */
struct bulk_session;

struct bulk_open_info {
	struct bulk_sysdev dev; /* copied */
	struct bulk_eps eps;
	char *detached; /* the driver detached from the interface ("usbtest"), or NULL */
};

/*
 * Open dev's usbfs node, pick the endpoints, detach the kernel driver,
 * claim the interface (and select the alt setting). -ENODEV gone, -EACCES,
 * -ENOENT no such endpoints, -EBUSY claimed by another program; why holds
 * a line for the user.
 */
int bulk_open(const struct bulk_sysdev *dev, const struct bulk_want *want,
	      struct bulk_session **ret, struct bulk_open_info *info, char *why, size_t why_len);
/*
 * One point: p->dir, size, depth (iso: dir IN or OUT only) for time_s; the
 * rest filled. Polls signal_stop. -EIO a transfer failed (why), -ENODEV the
 * device went away, -EINTR a signal (the point is kept, flagged).
 */
int bulk_measure(struct bulk_session *s, double time_s, struct bulk_point *p, char *why,
		 size_t why_len);
/* Release the interface, attach the driver again, close. NULL-safe. */
void bulk_close(struct bulk_session *s);
void bulk_open_info_release(struct bulk_open_info *i);

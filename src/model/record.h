/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * One run of `usbperf run`, as it is rendered, stored in the history
 * (src/store/) and exported: where it ran (environment fingerprint), what it
 * measured (devices), every figure (metrics, each with unit, repeats and
 * spread) and the findings. Plain data; strings are malloc'ed, NULL unknown.
 */
#include "model/findings.h"

#include <stddef.h>
#include <stdint.h>

/* what two runs must share to be compared without a caveat */
struct run_env {
	char *hostname;
	char *board;	       /* device-tree model or DMI */
	char *kernel;	       /* uname -r */
	char *kernel_build;    /* uname -v: tells two builds of one release apart */
	char *preempt;	       /* PREEMPT_RT, PREEMPT_DYNAMIC ... */
	char *governor;	       /* cpufreq governor of policy0, NULL without cpufreq */
	char *usbperf_version;
	/*
	 * The machine, whatever its name: 16 hex digits of a hash of
	 * /etc/machine-id and usbperf's own key, never the id itself (systemd
	 * asks that it not leave the machine). NULL: none, or a run from before.
	 */
	char *machine;
};

/* a thing that was measured: a USB device, or the host itself */
struct run_device {
	char *key;	 /* stable within the run: the USB path "2-1", or "host" */
	char *kind;	 /* "usb-storage", "usb-net", "host-disk", "host-net" */
	char *target;	 /* what was tested: "/media/usb", "/dev/sdb", "net:10.0.0.2" */
	char *vid_pid;	 /* "0781:5583" */
	char *serial;
	char *product;
	char *port_path; /* bus-port path: "2-1" */
	char *speed;	 /* negotiated: "high", "super" */
	char *driver;	 /* "uas", "usb-storage", "cdc_ncm" */
	double ceiling_mb_s; /* bulk payload ceiling of the link, NaN off USB */
	char *capable_speed; /* the fastest it says it can do (BOS, else bcdUSB): "super" */
	char *controller;    /* the host controller of its bus: "xhci_hcd 0000:00:14.0" */
	/*
	 * The hubs between the root hub and the device, nearest the root first,
	 * each "PATH VID:PID SPEED" (unknowns as "-"), joined by " > ":
	 * "2-1 05e3:0610 high > 2-1.4 05e3:0608 high". NULL: directly on a root
	 * port (or off USB).
	 */
	char *via;
};

/* one figure: e.g. device "2-1", test "disk", name "seq-read 1M", metric "mb_s" */
struct run_metric {
	char *device_key;
	char *test;   /* "disk", "net" */
	char *name;   /* the pass: "seq-read 1M", "tcp send" */
	char *metric; /* "mb_s", "iops", "lat_p99_us", "cpu_sys_pct" */
	char *unit;   /* "MB/s", "IOPS", "us", "%" */
	double value; /* mean over repeats */
	double stdev; /* NaN with one repeat */
	double min, max;
	uint64_t repeats;
	/*
	 * The spread within the passes: the rate sampled in intervals (fio's
	 * bandwidth samples), pooled over the repeats, in the value's unit.
	 * NaN and 0 when the pass was not sampled (older runs, latencies).
	 */
	double sample_mean, sample_stdev, sample_min;
	uint64_t samples;
	/*
	 * The CPU pressure (PSI "some", % of the wall time) while the pass ran:
	 * another program competing for the CPUs moves a figure from run to
	 * run in ways its own samples do not show. NaN when not known.
	 */
	double cpu_pressure_pct;
	/*
	 * The machine's busy CPU time per second while the pass ran, in % of
	 * one CPU: a figure that kept a CPU busy is the CPU's, and moves from
	 * run to run with its clock and placement. NaN when not known.
	 */
	double cpu_busy_pct;
	/*
	 * The figure's spread from within its pass (classes/disk/batch.h): the
	 * pass cut into batches, robust to a throttle's or a cache's bursts, in
	 * the value's unit; over every repeat. NaN when not known (too short a
	 * pass, a class that does not batch, older runs).
	 */
	double pass_spread;
	/*
	 * The evidence of whether the figure leans on the CPU, the pass's own
	 * (platform/sys/cpustat.h): the share of the pass its I/O thread waited for
	 * a CPU (%), and the CPU the I/O took (usbperf's user time and the
	 * kernel's, % of one CPU). NaN when not known.
	 */
	double cpu_wait_pct, cpu_io_pct;
	/*
	 * The most the figure can be, in its unit: the link's payload ceiling
	 * for a rate (after framing for a network), the mode's nominal rate for
	 * a camera's frames per second. NaN when none applies or is known.
	 */
	double ceiling;
	bool higher_is_better; /* for compare: MB/s up is good, latency up is bad */
};

/*
 * What limits one measured device, in one line: the limiter (RUN_LIMITER_*)
 * and the figure that shows it ("seq-read 1M 41.9 MB/s is 79 % of high-speed
 * bulk's 53.2 MB/s ceiling"). The findings whose about is the device's key
 * explain it further, in the order analyze put them.
 */
struct run_verdict {
	char *device_key;
	char *limiter;
	char *evidence;
	double share_pct; /* the figure's share of the link's ceiling, NaN without one */
};

#define RUN_LIMITER_BUS "bus"
#define RUN_LIMITER_MEDIUM "medium"
#define RUN_LIMITER_CPU "host CPU"
#define RUN_LIMITER_CONTROLLER "host controller"
#define RUN_LIMITER_HUB "hub"
#define RUN_LIMITER_PAGE_CACHE "page cache"
#define RUN_LIMITER_EMULATION "emulation"
#define RUN_LIMITER_MODE "mode's rate"	/* a camera delivers all its mode asks */
#define RUN_LIMITER_CAMERA "camera"	/* ... less, with the link to spare */
#define RUN_LIMITER_DEVICE "device"	/* a HID or MTP device is slower than its link allows */
#define RUN_LIMITER_UNKNOWN "not determined"

/*
 * What to run next where the verdict is uncertain (not determined, the page
 * cache's, the emulation's, the CPU's, a target that is no medium): one
 * sentence, NULL where the verdict stands on its own (verdict_next.c)
 */
struct run_record;
const char *run_verdict_next(const struct run_record *r, const struct run_verdict *v);
/* the verdict's evidence says what */
bool run_verdict_says(const struct run_verdict *v, const char *what);

/* a caveat of the run: a pass too short, a device skipped and how to include it */
struct run_note {
	char *text;
};

/* a device the run found but did not measure, and why not */
struct run_unmeasured {
	char *key;  /* the USB path "2-1.3", or the target */
	char *kind; /* "usb-net", "usb-storage", "usb" */
	char *name; /* "eth1", "/dev/sdc", NULL */
	char *vid_pid;
	char *product;
	char *speed;
	char *controller; /* as run_device's */
	char *via;	  /* as run_device's */
	char *why;	  /* why it was not measured, and how to measure it */
};

struct run_record {
	char *id;	  /* "20261130T051200Z-3f2a": sortable, unique */
	char *started_at; /* ISO 8601 UTC */
	double duration_s;
	char *command_line;
	struct run_env env;
	struct run_device *devices;
	size_t ndevices;
	struct run_metric *metrics;
	size_t nmetrics;
	struct finding_list findings;
	struct run_verdict *verdicts; /* one per measured device, in devices' order */
	size_t nverdicts;
	struct run_note *notes;
	size_t nnotes;
	struct run_unmeasured *unmeasured;
	size_t nunmeasured;
};

void run_record_release(struct run_record *r);
/* append (all strings copied); return the new element */
struct run_device *run_record_add_device(struct run_record *r);
struct run_verdict *run_record_add_verdict(struct run_record *r);
void run_record_add_note(struct run_record *r, const char *text);
struct run_unmeasured *run_record_add_unmeasured(struct run_record *r);
/* the verdict of a device, NULL if it has none */
const struct run_verdict *run_record_verdict(const struct run_record *r, const char *device_key);
/* the strings of an environment or a metric (not the struct itself) */
void run_env_release(struct run_env *e);
void run_metric_release(struct run_metric *m);
struct run_metric *run_record_add_metric(struct run_record *r, const char *device_key,
					 const char *test, const char *name, const char *metric,
					 const char *unit, bool higher_is_better);
/* the first metric of device_key, test, pass name (NULL: any) and key metric in r; NULL */
const struct run_metric *run_record_metric(const struct run_record *r, const char *device_key,
					   const char *test, const char *name, const char *metric);

/*
 * The same device in two runs: "VID:PID serial" when both are known (it may
 * have moved to another port), else "port 2-1", else the key. malloc'ed.
 */
char *run_device_identity(const struct run_device *d);

/*
 * A device's kind may carry a qualifier: "usb-storage (read-only)" is what
 * run calls a raw USB disk it only reads, and is a "usb-storage" all the
 * same. The length of the kind without it; whether kind is base, with or
 * without one.
 */
size_t run_kind_base_len(const char *kind);
bool run_kind_is(const char *kind, const char *base);

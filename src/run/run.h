/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * `usbperf run`: find what to measure (USB disks, or the host when there
 * is no USB), measure each the right way, put every figure next to its
 * ceiling, and say where the bottleneck is. The result is a run_record
 * (what the history keeps) plus one row per pass for the report.
 */
#include "model/record.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* where a run is, for a progress line: each class says what it has */
struct run_progress {
	const char *phase; /* "layout" (preparing: done_bytes of total_bytes), "pass" */
	const char *pass;  /* "seq-read 1M" */
	unsigned pass_index, pass_count; /* 1-based */
	uint64_t done_bytes, total_bytes;
	double rate_Bps;
};

typedef void (*run_progress_fn)(void *ctx, const struct run_progress *p);

/* the most classes run's table holds (class.h) */
#define RUN_MAX_CLASSES 16

struct run_options {
	char *const *targets; /* explicit targets; none: discover */
	size_t ntargets;
	bool full;	  /* the complete sweeps; default quick */
	bool destructive; /* allow writes to a raw block device named explicitly */
	bool no_monitor;  /* passes not watched on usbmon (run --no-monitor) */
	uint64_t size;	 /* test region per target */
	double time_s;	 /* cap per pass */
	unsigned repeat; /* each pass this many times (0: once) */
	/* --nice: the measuring thread's nice value; unset: PRIORITY_RUN_NICE, raised only */
	int nice;
	bool nice_set;
	/*
	 * The options a class owns (class.h's options: --copy, --peer, --mtp ...),
	 * each class's own struct by its index in run_classes[]; NULL: none of
	 * them given. run_class_opts() reads them, run_class_opts_release() frees.
	 */
	void *class_opts[RUN_MAX_CLASSES];
	const char *command_line;
	const volatile int *stop;
	run_progress_fn progress;
	void *progress_ctx;
};

struct usb_topology;
struct sysinfo_facts;

/* one pass of one target: the report's table */
struct run_row {
	const char *device; /* run_device.key */
	const char *target;
	const char *pass, *op;
	uint64_t bs, qd;
	double mb_s, mb_s_sd, mib_s, iops, lat_p50_us, lat_p90_us, lat_p99_us, self_cpu_pct;
	/* its rate's interval samples and the device's busy share: NaN, unknown where the
	   class takes none */
	double bw_min_mb_s, bw_stdev_mb_s, util_pct;
	uint64_t bw_samples;
	double ceiling_mb_s, efficiency_pct;
};

struct measure_class;

/* one target as planned: what, why, how it is attached, and which class measures it */
struct run_plan_item {
	char *path;	  /* "/media/usb", "/dev/sdb", "/var/tmp", "/dev/video0" */
	char *device_key; /* "2-1", "host" */
	const char *kind; /* "usb-storage", "host-disk" */
	bool read_only;	  /* a raw device: reads only */
	char *why;	  /* how it was chosen, for the report */
	bool named;	  /* named on the command line: a failure ends the run */
	/*
	 * Found on USB by a class whose discover_host stands in for it when
	 * nothing is (class.h): it stands for the machine's USB I/O, so the
	 * host fallback is not needed. A class that only measures besides
	 * leaves it false.
	 */
	bool on_usb;
	bool device_key_from_usb;
	bool prepared; /* passed the class's prepare: measured next */
	const struct measure_class *cls;
	void *state; /* the class's, freed by its release */
};

/* a class's own result rows (class.h row_desc), in run's output only */
struct run_class_rows {
	void *v;
	size_t n;
};

struct run_result {
	struct run_record rec;
	struct run_plan_item *plan;
	size_t nplan;
	struct run_row *rows; /* the throughput passes: disks, networks, --copy */
	size_t nrows;
	struct run_class_rows class_rows[RUN_MAX_CLASSES]; /* by index in run_classes[] */
	bool no_usb; /* nothing on USB: the host was characterised */
	bool from_options; /* a class's own options were the plan (--copy): nothing discovered */
	struct usb_topology *topo;
	struct sysinfo_facts *si;
	uint64_t t0;
};

/*
 * Plan (discover or take the explicit targets) and open every target
 * (the classes' prepare), so each passes the safety rules before anything is measured. -EINVAL with
 * *ret_why for a target that cannot be used: nothing written, nothing left.
 */
int run_prepare(const struct run_options *o, struct run_result *ret, char **ret_why);
/* Measure what run_prepare opened, then analyse; -EINVAL with *ret_why on failure. */
int run_measure(const struct run_options *o, struct run_result *r, char **ret_why);
/* how long run_measure will take, from the prepared plan: one line, nothing if no pass */
void run_estimate_describe(const struct run_options *o, const struct run_result *r,
			   struct strbuf *out);
/* Both. */
int run_execute(const struct run_options *o, struct run_result *ret, char **ret_why);
void run_result_release(struct run_result *r);
/* The explicit targets exist and are of a kind run measures: -EINVAL with *ret_why if not. */
int run_check_targets(const struct run_options *o, char **ret_why);

/*
 * Findings about the bottleneck, from the measured figures (analyze.c),
 * then the verdicts and the findings' order (below).
 */
void run_analyze(struct run_result *r);
/* one verdict per device of the record, from its figures and findings (verdict.c) */
void run_verdicts(struct run_record *r);
/*
 * Each finding's about (the measured device whose figures it bears on, all
 * of them, or none), and the list in order: by device, the finding that
 * states the verdict first, then by how much each explains the figures;
 * those that bear on no figure last. t (may be NULL) maps block devices to
 * their USB device.
 */
void run_findings_order(struct run_record *r, const struct usb_topology *t);

/* the run's own tables; devices and metrics use record_fields.h's */
extern const struct record_desc run_record_desc, run_row_desc, run_plan_desc;

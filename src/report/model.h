/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What `usbperf report` draws, taken apart from one or more run records:
 * for each device (matched across runs as `compare` matches them), its
 * sweeps — throughput against block size, one series per run and direction
 * — with the bus ceiling and the published field reference of its speed and
 * class, the other throughput figures (random I/O, network, copy), CPU use
 * per pass, and the findings. Pure: no I/O; everything points into the
 * records, which must outlive the model.
 */
#include "model/record.h"
#include "model/vocab.h"
#include "platform/usb/limits.h"

#include <stddef.h>
#include <stdint.h>

/* beyond this a chart stops being readable: one colour per run */
#define REPORT_MAX_RUNS 8

/* one point of a sweep: a metric of the pass "seq-read 64K" */
struct rm_point {
	uint64_t block; /* bytes */
	const struct run_metric *m;
};

/* throughput against block size: "seq-read" of run 0 */
struct rm_series {
	size_t run;	    /* index into the model's runs */
	char *label;	    /* "seq-read", "seq-write", "copy": its class's (run/class.h) */
	enum sweep_role role; /* its line, and the glance's best read or write */
	const char *unit;   /* "MB/s" */
	struct rm_point *pts; /* by block size, ascending */
	size_t npts;
};

/* one pass of one run on one device ("seq-read 64K"): its metrics in the record's order */
struct rm_pass {
	const char *device_key, *name; /* borrowed from the record */
	const struct run_metric *const *v;
	size_t n;
};

/* a row of the report: a pass, shown by its headline figure */
struct rm_row {
	/* the first of its class's rates (class.h) the pass has, in the class's order */
	const struct run_metric *x;
	const struct rm_pass *pass;
};

/* the best figure of a unit on a device, across the runs */
struct rm_top {
	const char *unit; /* "" for none */
	double top;
};

struct rm_device {
	char *identity;					 /* run_device_identity() */
	const struct run_device *dev[REPORT_MAX_RUNS];	 /* NULL: not in that run */
	const struct run_device *first;			 /* the first run's that has it */
	const struct run_verdict *verdict[REPORT_MAX_RUNS]; /* what limits it, NULL: none kept */
	double ceiling_mb_s;				 /* NaN off USB */
	const char *ceiling_how; /* "13 x 512 B per 125 us microframe", or NULL */
	const struct usb_field_ref *ref; /* the published range of its class, or NULL */
	/*
	 * What the sweeps run against, one axis a device: "block size" (disk,
	 * bulk), "file size" (MTP), "device buffer size" (an MTP buffer sweep).
	 * NULL until a sweep's point is added.
	 */
	const char *axis;
	struct rm_series *sweeps;
	size_t nsweeps;
	/* throughput and rate figures outside the sweeps, in run order */
	const struct run_metric **rates;
	size_t nrates;
	/* CPU use, one per pass and run ("self_cpu_pct", "cpu_sys_pct") */
	const struct run_metric **cpu;
	size_t ncpu;
	/* each run's rows of this device, in the order of their headline figures */
	struct rm_row *rows[REPORT_MAX_RUNS];
	size_t nrows[REPORT_MAX_RUNS];
	/* by unit: report_device_top() */
	struct rm_top *tops;
	size_t ntops;
};

struct rm_key; /* a device by its key in a run (model_index.c) */

struct report_model {
	const struct run_record *runs;
	size_t nruns;
	struct rm_device *devices;
	size_t ndevices;
	/* each run's passes, by device key and name: report_model_pass() */
	struct rm_pass *passes[REPORT_MAX_RUNS];
	size_t npasses[REPORT_MAX_RUNS];
	/* the indexes behind them */
	const struct run_metric **sorted[REPORT_MAX_RUNS];
	struct rm_key *keys[REPORT_MAX_RUNS];
	size_t nkeys[REPORT_MAX_RUNS];
};

/* the run of a metric in the model (by address) */
size_t report_model_run_of(const struct report_model *m, const struct run_metric *x);

/* a device's verdict in one run, as the glance lists them: by device, then by run */
struct rm_verdict_at {
	size_t device, run; /* m->devices[device], in m->runs[run] */
	const struct run_verdict *v;
	const char *where; /* the device in that run: its port path, else its key */
	const char *next;  /* the newest run's uncertain verdict: what to run next; else NULL */
	size_t pos;	   /* where the next call goes on from */
};

/* the verdict after *at (a zeroed one: the first) into *at; false when there is none */
bool report_next_verdict(const struct report_model *m, struct rm_verdict_at *at);

/*
 * 0, -EINVAL when nruns is 0 or above REPORT_MAX_RUNS, -ENOMEM. Devices in
 * the order they first appear.
 */
int report_model_build(const struct run_record *runs, size_t nruns, struct report_model *ret);
void report_model_release(struct report_model *m);

/*
 * The x of a sweep: a block size unless its class names another (a class's
 * sweep_point: "file size", "write size"); a block size's axis is a log one.
 */
#define RM_AXIS_BLOCK "block size"

/*
 * The model is built in O(n log n) of the metrics, and these look up in log
 * time, or in the size of one pass: a renderer that goes through a run's
 * rows with them stays near linear (a run may hold 100,000 metrics).
 */
/* run's pass name of the device with this key, or NULL */
const struct rm_pass *report_model_pass(const struct report_model *m, size_t run,
					const char *device_key, const char *name);
/* the pass's metric of this key ("urb_size"), the first in the record; NULL */
const struct run_metric *report_pass_metric(const struct rm_pass *p, const char *metric);
/* the pass's first metric in this unit ("IOPS"); unit NULL: its CPU use (report_is_cpu); NULL */
const struct run_metric *report_pass_unit(const struct rm_pass *p, const char *unit);
/* the device's best figure in this unit across the runs, 0 when none is above 0 */
double report_device_top(const struct rm_device *d, const char *unit);

/* a metric's unit, "" when the record has none */
const char *report_unit(const struct run_metric *m);
bool report_unit_is(const struct run_metric *m, const char *unit);
bool report_same_unit(const struct run_metric *a, const struct run_metric *b);
/*
 * CPU use of a pass in % of one CPU, as its class declares it (class.h's
 * cpu_use): whose use it is ("usbperf's own"), NULL for any other figure
 * (an interrupt share on one CPU is not CPU use)
 */
const char *report_cpu_use(const struct run_metric *m);
bool report_is_cpu(const struct run_metric *m);

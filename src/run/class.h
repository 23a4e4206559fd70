/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What `usbperf run` measures, one class at a time: storage, networks,
 * cameras... Each class is an ops table in its own room (src/classes/disk/,
 * src/classes/net/, ...); run walks the table in run_classes[] and has no
 * branch per class. A class finds its devices, checks and opens them before
 * anything is measured, measures each into the record's generic metric
 * rows (record.h) and its own result table, and adds its bottleneck rules.
 * report, compare and check read the metric rows; the class's metric
 * vocabulary (below) names them.
 *
 * Adding a class: its folder src/classes/NAME/ with a `const struct
 * measure_class` (class_kit.h has the item and device helpers every adapter
 * needs) and a meson.build of its sources, one line in classes/registry.c,
 * one subdir() line in classes/meson.build, its command, its tests; the
 * unit test test_classes checks its entry is complete (docs/architecture.md).
 */
#include "model/field.h"
#include "model/vocab.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct run_options;
struct run_result;
struct run_plan_item;
struct run_record;
struct run_metric;
struct report_model;
struct rm_device;
struct run_device;
struct run_verdict;
struct strbuf;
struct estimate;

/* one metric a class records: what report, compare and check call it */
struct class_metric {
	const char *key;   /* "mb_s", "fps" */
	const char *unit;  /* "MB/s", "frames/s" */
	const char *label; /* the column: "rate", "fps" */
	bool higher_is_better;
	/* a bin of a distribution (a histogram): kept and drawn, never compared */
	bool distribution;
	/*
	 * a throughput or a rate of the pass (MB/s, IOPS, msg/s): report gives
	 * it a row and a bar; not a latency, a count, a clock or a share
	 */
	bool rate;
	/*
	 * a tail of the pass (a p99, a maximum): set by its few slowest events,
	 * which move from run to run more than within a pass (run/compare.h)
	 */
	bool tail;
	/*
	 * CPU use during the pass, in % of one CPU (100: one CPU kept busy):
	 * the report's CPU chart draws these, one chart per key, titled with
	 * whose use it is ("usbperf's own", "the whole machine's")
	 */
	const char *cpu_use;
	/*
	 * the unit records kept for this metric before it was named (a bare
	 * "%"): a record read from the history or a file with it gets unit
	 * instead (run_record_upgrade_units), so old and new runs compare
	 */
	const char *was_unit;
	/*
	 * how the pass ran, not what it reached (the device's busy share): shown
	 * and checked against criteria, never compared as better or worse (a
	 * throttle in front of a device moved it -81 % and +214 % between
	 * unchanged runs)
	 */
	bool context;
};

#define CLASS_METRIC(key, unit, label, higher)                                                   \
	{key, unit, label, higher, false, false, false, NULL, NULL, false}
#define CLASS_RATE(key, unit, label) {key, unit, label, true, false, true, false, NULL, NULL, false}
#define CLASS_DISTRIBUTION(key, unit, label)                                                     \
	{key, unit, label, false, true, false, false, NULL, NULL, false}
/* a tail: lower is better (a latency's p99, the longest interval) */
#define CLASS_TAIL(key, unit, label) {key, unit, label, false, false, false, true, NULL, NULL, false}
/* CPU use in % of one CPU, whose ("usbperf's own"); records before had "%" */
#define CLASS_CPU(key, label, whose)                                                             \
	{key, UNIT_PCT_ONE_CPU, label, false, false, false, false, whose, "%", false}
/* a distribution whose unit now says of what ("% of IRQs"); records before had "%" */
#define CLASS_DISTRIBUTION_PCT(key, unit, label)                                                 \
	{key, unit, label, false, true, false, false, NULL, "%", false}
/* context: shown and checked, never compared */
#define CLASS_CONTEXT(key, unit, label)                                                          \
	{key, unit, label, false, false, false, false, NULL, NULL, true}

/*
 * A pass drawn as a point of a sweep (a figure against a size): its series
 * ("seq-read"), its x (the size, in bytes), what the x is (a label:
 * "write size"; NULL a block size, drawn on a log scale) and the series' role (model/vocab.h: 0 a plain line).
 */
struct class_sweep_point {
	char label[32];
	uint64_t x;
	const char *axis;
	enum sweep_role role;
};

/* what a class's sweep_point hook says of a metric row */
enum class_sweep {
	CLASS_SWEEP_NONE,  /* not a sweep's pass: a rate gets its bar */
	CLASS_SWEEP_POINT, /* the sweep's figure at *ret */
	CLASS_SWEEP_OTHER, /* another figure of a sweep's pass, not drawn again */
};

/* the figure a device's verdict rests on: the best pass whose name starts with prefix */
struct class_headline {
	const char *prefix; /* "seq-read", "" any */
	const char *metric; /* "mb_s" */
};

/* what a class adds to run's estimate: passes of about pass_s each */
struct class_estimate {
	const char *what; /* "network", "video" */
	unsigned passes;
	double pass_s;
};

/*
 * How much one of the class's findings explains a device's figures, for the
 * order findings are listed in (run/verdict.c): lower first. A finding that
 * states the verdict's limiter comes first of all.
 */
struct class_finding_weight {
	const char *id;	     /* "mmc.worn" */
	const char *limiter; /* RUN_LIMITER_* it states, NULL: none */
	int weight;	     /* 0-100: the framework's own run at 5-85, unweighted warnings 90 */
};

/*
 * One option of `usbperf run` a class owns, as fio's ioengines carry theirs:
 * run parses it from the class's table, lists it in -h and hands its words
 * to set, which fills the class's own struct (allocated zeroed, opts_size
 * bytes, when the first of its options is given).
 */
struct class_option {
	const char *name; /* "copy": --copy */
	const char *args; /* its words in -h: "SRC DST", "LIST"; NULL: a flag */
	unsigned nargs;	  /* how many words it takes: 0 (a flag), 1 or 2 */
	bool paths;	  /* the words are paths the run reads or writes: -o may not be one */
	const char *help; /* -h's text after the option, lines joined by '\n' */
	/* the words into opts: 0, or -EINVAL with *ret_why (allocated, one line) */
	int (*set)(void *opts, char *const *words, char **ret_why);
};

struct measure_class {
	const char *name; /* the record's test: "disk", "net", "video" */
	/* run's options the class owns, and its struct they fill (class_option) */
	const struct class_option *options;
	size_t noptions;
	size_t opts_size;
	/* free what set allocated in opts (may be NULL: nothing), not opts itself */
	void (*opts_release)(void *opts);
	const char *what; /* what it measures, for "run measures ...": "USB disks"; NULL: say nothing */
	/*
	 * run's options the class owns, checked before anything is opened (copy:
	 * --copy's sides): -EINVAL with *ret_why, 0 fine or not asked (may be NULL)
	 */
	int (*check_options)(const struct run_options *o, char **ret_why);
	/*
	 * Plan what the class's own options ask for, in place of targets and
	 * discovery (copy: --copy SRC DST is all the run measures): true when it
	 * did (may be NULL)
	 */
	bool (*plan_options)(const struct run_options *o, struct run_result *r);
	/* no target named: plan what this class measures here (may be NULL) */
	void (*discover)(const struct run_options *o, struct run_result *r);
	/* nothing on USB to measure: what characterises the host (may be NULL) */
	void (*discover_host)(const struct run_options *o, struct run_result *r);
	/*
	 * A target named on the command line: whether it is this class's (st
	 * NULL: no such path), and then a one-line why if it cannot be one.
	 */
	bool (*claims)(const char *target, const struct stat *st);
	bool claims_rest; /* takes an existing path no other class claims (disk) */
	int (*check_target)(const struct run_options *o, const char *target, char **ret_why);
	/* plan a named target (may leave the defaults plan_explicit set) */
	void (*plan_target)(const struct run_options *o, struct run_result *r,
			    struct run_plan_item *it);
	/*
	 * Check and open the item before anything of the run is measured: the
	 * safety rules. -errno with *ret_why: not measured. May be NULL.
	 */
	int (*prepare)(const struct run_options *o, struct run_result *r,
		       struct run_plan_item *it, char **ret_why);
	/*
	 * What measuring the item adds to the estimate: passes between a floor
	 * and a cap into e (run/estimate.h, as disk's), passes of a fixed
	 * length into ret (may be NULL)
	 */
	void (*estimate)(const struct run_options *o, const struct run_plan_item *it,
			 struct estimate *e, struct class_estimate *ret);
	/* passes -> the record's devices, metrics, notes and the class's rows */
	int (*measure)(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		       char **ret_why);
	/* after every item of the class was measured: close what prepare opened */
	void (*finish)(struct run_result *r);
	/* the item's state, closed and freed (NULL-safe, after finish or instead of it) */
	void (*release)(struct run_plan_item *it);
	/*
	 * its analyze says itself when a pass ran below the CPU's top clock (from
	 * rows of its own): run's generic clock rule passes its figures by
	 */
	bool own_clock_rule;
	/* the class's bottleneck rules over what it measured (may be NULL) */
	void (*analyze)(struct run_result *r);
	const struct class_metric *metrics;
	size_t nmetrics;
	/*
	 * report: whether a metric row of this class is a point of a sweep
	 * (NULL: the record's generic pass names, "seq-read 64K", decide)
	 */
	enum class_sweep (*sweep_point)(const struct run_metric *m, struct class_sweep_point *ret);
	/*
	 * The verdict of a device this class measured, from the record: the
	 * limiter (RUN_LIMITER_*), its evidence into ev, the figure's share of
	 * its ceiling into *ret_share_pct (NaN none). NULL: the generic
	 * verdict over the headline figure against the link's bulk ceiling.
	 */
	const char *(*verdict)(const struct run_record *r, const struct run_device *d,
			       struct strbuf *ev, double *ret_share_pct);
	/*
	 * The generic verdict's limiter when the class's own findings already
	 * name it (copy: which side of the copy is slower), its evidence added
	 * to ev after the figure; NULL (or a NULL hook): the generic rules
	 */
	const char *(*limiter_of)(const struct run_record *r, const struct run_device *d,
				  struct strbuf *ev);
	/*
	 * What to run next where a verdict on a device this class measured is
	 * uncertain (a page cache's figure, a peer that may be the limit), the
	 * class's own advice; NULL (or a NULL hook): run_verdict_next's general
	 * one (verdict_next.c)
	 */
	const char *(*next_step)(const struct run_record *r, const struct run_verdict *v);
	/* the weights of the findings the class adds (may be NULL) */
	const struct class_finding_weight *finding_weights;
	size_t nfinding_weights;
	/* the verdict's figure, tried in order; none: no generic verdict */
	const struct class_headline *headline;
	size_t nheadline;
	/* its own charts in a device's section of the HTML report (may be NULL: none) */
	void (*html_section)(struct strbuf *out, const struct report_model *m,
			     const struct rm_device *d);
	/* the class's own results table in run's output, and its rows (may be NULL) */
	const struct record_desc *row_desc;
	const char *row_title; /* "video (MB/s = 10^6 B/s)" */
	const char *row_key;   /* the JSON array: "video" */
	size_t row_size;       /* sizeof one row */
};

extern const struct measure_class *const run_classes[];
extern const size_t run_nclasses;

/* the largest options struct a class may have (opts_size) */
#define RUN_CLASS_OPTS_MAX 512
/*
 * class c's options in o (its opts_size struct): all zero (every option at
 * its default) when none of them was given; NULL only for a class with none
 */
const void *run_class_opts(const struct run_options *o, const struct measure_class *c);
/* class c's options in o, allocated zeroed if not yet: for the parser (NULL: c owns none) */
void *run_class_opts_get(struct run_options *o, const struct measure_class *c);
/* every class's options freed, o->class_opts emptied */
void run_class_opts_release(struct run_options *o);

/* the class named name ("disk"), NULL if none */
const struct measure_class *run_class_find(const char *name);
/* a class's metric by key, NULL if it records none so named */
const struct class_metric *run_class_metric(const struct measure_class *c, const char *key);
/* a metric row's entry in its class's table (its test names the class), NULL if none */
const struct class_metric *run_class_metric_of(const char *test, const char *key);
/* a metric by key in any class (report and check label by key alone) */
const struct class_metric *run_class_metric_any(const char *key);

/*
 * The metrics whose unit was renamed (class_metric's was_unit: a bare "%"
 * that is now "% of one CPU") get the new name: a record read from the
 * history or a file before it is shown, compared or checked. The stored
 * data is left as it is.
 */
void run_record_upgrade_units(struct run_record *r);
/* unit is what metric of test now has, and was what records had before (a criterion's "%") */
bool run_metric_unit_was(const char *test, const char *metric, const char *unit, const char *was);

/*
 * A metric row of the item's device, named by the class's vocabulary: its
 * unit and direction come from the class's table (a key not in it is a bug:
 * abort). The value, spread and ceiling are the caller's to fill.
 */
struct run_metric *run_class_add_metric(struct run_record *rec, const struct measure_class *c,
					const char *device_key, const char *pass, const char *key);

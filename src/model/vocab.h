/* SPDX-License-Identifier: MIT */
#pragma once
#include "util/strbuf.h"

#include <stdbool.h>

/*
 * One vocabulary for the metrics of a run record ("mb_s", "lat_p99_us", ...):
 * the label and unit every view prints for a key, so `run`, `show`,
 * `compare`, the report and the HTML page name a figure alike. CSV and JSON
 * keep the keys, which carry their unit ("mb_s", "lat_p99_us").
 */
struct metric_vocab {
	const char *key;   /* "mb_s" */
	const char *label; /* "rate" */
	const char *unit;  /* "MB/s", "us", "%", or NULL for a count ("IOPS") */
};
/* the key's entry; an unknown key gets itself as label and unit_hint as unit */
struct metric_vocab metric_vocab(const char *key, const char *unit_hint);
/* decimals for a figure by its magnitude: about four significant digits, at most 3 */
int metric_prec(double v);
/* v with metric_prec() decimals, "-" for NaN */
void metric_format(struct strbuf *out, double v);
/* "bus ceiling 484.8 MB/s": the one way a ceiling is written, on a chart or a line */
void ceiling_format(struct strbuf *out, double ceiling, const char *unit);

/*
 * What a series of a sweep (a figure against a size) is: it sets the
 * series' line on a chart and where the report's glance looks. The class
 * whose pass it is says (run/class.h's sweep_point).
 */
enum sweep_role {
	SWEEP_PLAIN, /* a solid line, circles */
	SWEEP_READ,  /* the same line; the glance's "best read" */
	SWEEP_WRITE, /* dashed, squares; the glance's "best write" */
	SWEEP_THIRD, /* dotted, diamonds (a copy between two devices) */
};

/*
 * Where a measurement class's own metrics are named: the class registry
 * (classes/registry.c) hands its lookup over when the program starts, so
 * the model names no class and depends on nothing above it. Until then (a
 * program without the classes) a key the common vocabulary lacks is itself.
 */
typedef bool (*metric_vocab_lookup_fn)(const char *key, struct metric_vocab *ret);
void metric_vocab_set_lookup(metric_vocab_lookup_fn fn);

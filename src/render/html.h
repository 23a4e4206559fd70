/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script,
 * no external resource) that reads on a desk, a phone and paper. Sections,
 * each with a stable id a test or a reader can link to:
 *   #summary     per device and run: attachment, best read and write against the ceiling
 *   #setup       the environment of every run, side by side
 *   #topology    each run's devices as a tree of buses and ports
 *   #device-N    per device: the sweep chart with ceiling and field
 *                reference, the other rates, CPU use, the figures table
 *   #checks      with criteria or a baseline: each check and its result
 *   #findings    what usbperf concluded, per run
 *   #comparison  two or more runs: every metric against the first run
 */
#include "check/check.h"
#include "report/model.h"
#include "run/compare.h"
#include "util/strbuf.h"

struct html_input {
	const struct report_model *model;
	/* run 0 against run i + 1, for i < model->nruns - 1; NULL with one run */
	const struct compare_result *cmp;
	const char *generated_at; /* "2026-11-30T08:00:00Z" */
	/* the runs held against criteria or a baseline (#checks); NULL none */
	const struct check_result *checks;
};

void html_report(struct strbuf *out, const struct html_input *in);

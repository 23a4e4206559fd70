/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * `usbperf report` on a terminal: each device with its ceiling and field
 * reference, each sweep as a sparkline over the block sizes, each rate with
 * a bar against the bus ceiling (or the device's best figure), CPU use,
 * the findings and, for several runs, what changed against the first.
 */
#include "report/model.h"
#include "run/compare.h"
#include "util/strbuf.h"

#include <stdbool.h>

/* cmp as in struct html_input: run 0 against run i + 1, NULL with one run */
void report_text(struct strbuf *out, const struct report_model *m,
		 const struct compare_result *cmp, bool utf8);

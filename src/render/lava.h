/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A check result (check/check.h) as LAVA test shell signals, the lines
 * the LAVA dispatcher reads from a board's console, as lava-test-case
 * prints them:
 *
 *   <LAVA_SIGNAL_TESTSET START 20261130T051200Z-3f2a>
 *   <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.seq-read_1M.mb_s RESULT=pass
 *    MEASUREMENT=182.4 UNITS=MB/s>     (one line)
 *   <LAVA_SIGNAL_TESTSET STOP>
 *
 * The dispatcher matches <LAVA_SIGNAL_(\S+) ([^>]+)>, splits the rest on
 * whitespace and each part on '=', which must give exactly two pieces; and
 * lava-test-case uses the id as a directory name. So ids keep only
 * [A-Za-z0-9._-] (anything else becomes '_'), units [A-Za-z0-9._/%-]
 * ("MB/s" stays), both at most LAVA_ID_MAX bytes. RESULT is pass, fail,
 * skip or unknown (a measurement nothing was asked of); MEASUREMENT (and
 * with it UNITS) only for a known value. One test
 * set per run; within it, a repeated id gets ".2", ".3" (after the cut).
 */
#include "check/check.h"
#include "util/strbuf.h"

#define LAVA_ID_MAX 100

/*
 * Appended to out. The checks are the pass/fail test cases (pass, fail,
 * skip); a figure nothing was asked of that is a measurement
 * (check_row_is_measurement: not a CPU number, an interrupt count or a
 * histogram bin) is a case carrying its value and unit with the result
 * "unknown": measured, not judged (LAVA's results are pass, fail, skip and
 * unknown). The rest is left out.
 */
void render_lava(const struct check_result *c, struct strbuf *out);

/* s as a TEST_CASE_ID (units: false) or UNITS (units: true), appended to out */
void lava_sanitize(const char *s, bool units, struct strbuf *out);

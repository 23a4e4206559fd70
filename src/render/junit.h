/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A check result (check/check.h) as JUnit XML, the report CI systems
 * (Jenkins, GitLab, GitHub actions) read: one <testsuite> per run, named by
 * the run id, with the host, board and kernel as properties; one
 * <testcase> per row, classname "usbperf.<device>.<test>", name
 * "<pass> <metric>"; <failure> for a failed or missing check, <skipped>
 * for an optional criterion that matched nothing; the value in
 * <system-out>. The metrics nothing was asked of are no test cases (a
 * property counts them), unless measurements (report --junit without
 * criteria): then each measurement (check_row_is_measurement) is a passing
 * test case. Every string is escaped (device names come from USB
 * descriptors: untrusted).
 */
#include "check/check.h"
#include "util/strbuf.h"

/* appended to out */
void render_junit(const struct check_result *c, bool measurements, struct strbuf *out);

/*
 * s as XML character data or an attribute value: & < > " ' escaped, tab,
 * newline and CR as character references, other control characters and
 * bytes that are not UTF-8 (XML 1.0 cannot hold them) as '?'.
 */
void xml_escape(struct strbuf *out, const char *s);

/* SPDX-License-Identifier: MIT */
#pragma once
#include "classes/net/net.h"
#include "model/field.h"

extern const struct record_desc net_test_desc;
extern const struct record_desc net_sum_desc;
extern const struct record_desc net_interval_desc;

/*
 * Sections of a net report: the test, the totals (the CSV: the first table),
 * the intervals unless left out (text shows them first, as they come).
 */
void net_report_describe(const struct net_report *rep, bool intervals, struct report *out);

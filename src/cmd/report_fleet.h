/* SPDX-License-Identifier: MIT */
#pragma once
/* `usbperf report --fleet` (report_fleet.c) */
#include "cmd/db.h"
#include "util/utctime.h"

struct fleet_opts {
	const char *db, *html, *board;
	const char *since, *until; /* NULL or the bound as the history compares it */
	double threshold_pct;
};

/* the fleet view of the history o->db; the exit status */
int report_fleet(const struct global_opts *g, const struct fleet_opts *o);

/* SPDX-License-Identifier: MIT */
#pragma once
/* The fleet view as one self-contained HTML page (report --fleet --html). */
#include "report/fleet.h"
#include "util/strbuf.h"

struct fleet_page {
	const struct fleet *fleet;
	const char *generated_at;
	const char *since, *until, *board; /* the range and board asked for, NULL: any */
};

void html_fleet(struct strbuf *out, const struct fleet_page *p);

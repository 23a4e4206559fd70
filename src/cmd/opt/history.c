// SPDX-License-Identifier: MIT
/* usbperf history's options */
#include "cmd/opt/tables.h"

const struct cmd_opt history_options[] = {
	{"device", HISTORY_O_DEVICE, "TEXT",
	 "runs that measured a device whose VID:PID, serial or port\n"
	     "path contains TEXT (any case)", 0},
	{"since", HISTORY_O_SINCE, "DATE",
	 "started at or after DATE (YYYY-MM-DD, or\n"
	     "YYYY-MM-DDTHH:MM:SSZ; UTC)", 0},
	{"until", HISTORY_O_UNTIL, "DATE",
	 "started before DATE (a day: up to its end)", 0},
	OPT_ENTRY_BOARD("the runs of one board:\n" OPT_BOARD_WHICH),
	{"limit", HISTORY_O_LIMIT, "N",
	 "the newest N", 0},
	{"check", HISTORY_O_CHECK, NULL,
	 "check the database instead: its schema (every table and\n"
	     "column this usbperf uses), SQLite's integrity and\n"
	     "foreign key checks, and what it holds", 0},
	OPT_ENTRY_DB,
	OPT_ENTRY_FORMAT("text, json or csv (csv: the runs)"),
	OPT_ENTRY_OUTPUT,
	OPT_END,
};

// SPDX-License-Identifier: MIT
/* usbperf snapshot's options */
#include "cmd/opt/tables.h"

const struct cmd_opt snapshot_options[] = {
	{"force", SNAPSHOT_O_FORCE, NULL,
	 "overwrite FILE if it exists",
	 "Overwrite\n"
	     ".I FILE\n"
	     "if it exists.", 0},
	{"sysroot", SNAPSHOT_O_SYSROOT, "DIR",
	 "record from a directory tree (a copy of /sys and /proc)",
	 NULL, 0},
	OPT_ENTRY_FORMAT("text or json: what was written"),
	{"output", 'o', "FILE",
	 "write the summary to FILE",
	 "Write the summary to\n"
	     ".IR FILE .", 0},
	OPT_END,
};

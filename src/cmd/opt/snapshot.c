// SPDX-License-Identifier: MIT
/* usbperf snapshot's options */
#include "cmd/opt/tables.h"

const struct cmd_opt snapshot_options[] = {
	{"force", SNAPSHOT_O_FORCE, NULL,
	 "overwrite FILE if it exists",
	 0 OPT_MAN("Overwrite\n"
	     ".I FILE\n"
	     "if it exists.")},
	{"sysroot", SNAPSHOT_O_SYSROOT, "DIR",
	 "record from a directory tree (a copy of /sys and /proc)", 0},
	OPT_ENTRY_FORMAT("text or json: what was written"),
	OPT_ENTRY_OUTPUT_OF("summary"),
	OPT_END,
};

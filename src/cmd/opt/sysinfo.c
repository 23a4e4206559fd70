// SPDX-License-Identifier: MIT
/* usbperf sysinfo's options */
#include "cmd/opt/tables.h"

const struct cmd_opt sysinfo_options[] = {
	{"sysroot", SYSINFO_O_SYSROOT, "DIR|FILE",
	 "read /sys and /proc below DIR, or from a snapshot file",
	 0 OPT_MAN("Read /sys and /proc below\n"
	     ".IR DIR ,\n"
	     "or from a snapshot file.")},
	OPT_ENTRY_FORMAT("text, json or csv (csv: the cpufreq table)"),
	OPT_ENTRY_OUTPUT_OF("report"),
	OPT_ENTRY_QUIET,
	OPT_END,
};

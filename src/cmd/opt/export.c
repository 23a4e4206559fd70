// SPDX-License-Identifier: MIT
/* usbperf export's options */
#include "cmd/opt/tables.h"

const struct cmd_opt export_options[] = {
	OPT_ENTRY_DB,
	{"output", 'o', "FILE",
	 "write to FILE (atomically) instead of stdout",
	 0 OPT_MAN("Write to\n"
	     ".I FILE\n"
	     "(atomically) instead of standard output.")},
	OPT_END,
};

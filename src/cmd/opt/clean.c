// SPDX-License-Identifier: MIT
/* usbperf clean's options */
#include "cmd/opt/tables.h"

const struct cmd_opt clean_options[] = {
	OPT_ENTRY_DB,
	{"format", 'F', "FMT",
	 "text, json or csv",
	 "The list as text, json or csv.", 0},
	{"output", 'o', "FILE",
	 "write the list to FILE",
	 "Write the list to\n"
	     ".IR FILE .", 0},
	OPT_END,
};

// SPDX-License-Identifier: MIT
/* usbperf clean's options */
#include "cmd/opt/tables.h"

const struct cmd_opt clean_options[] = {
	OPT_ENTRY_DB,
	{"format", 'F', "FMT",
	 "text, json or csv",
	 0 OPT_MAN("The list as text, json or csv.")},
	OPT_ENTRY_OUTPUT_OF("list"),
	OPT_END,
};

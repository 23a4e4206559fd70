// SPDX-License-Identifier: MIT
/* usbperf import's options */
#include "cmd/opt/tables.h"

const struct cmd_opt import_options[] = {
	OPT_ENTRY_DB,
	{"format", 'F', "FMT",
	 "text, json or csv (the counts)",
	 0 OPT_MAN("The counts as text, json or csv.")},
	OPT_ENTRY_OUTPUT_OF("counts"),
	OPT_END,
};

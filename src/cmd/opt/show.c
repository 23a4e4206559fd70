// SPDX-License-Identifier: MIT
/* usbperf show's options */
#include "cmd/opt/tables.h"

const struct cmd_opt show_options[] = {
	OPT_ENTRY_DB,
	{"format", 'F', "FMT",
	 "text, json (the run as 'usbperf export' writes it) or\n"
	     "csv (the metrics)",
	 0 OPT_MAN("Text, json (the run as\n"
	     ".B export\n"
	     "writes it) or csv (the metrics).")},
	OPT_ENTRY_OUTPUT,
	OPT_END,
};

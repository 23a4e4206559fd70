// SPDX-License-Identifier: MIT
/* usbperf compare's options */
#include "cmd/opt/tables.h"

const struct cmd_opt compare_options[] = {
	{"baseline", OPT_BASELINE, "NAME",
	 "compare RUN against this baseline ('usbperf baseline')",
	 0 OPT_MAN("Compare\n"
	     ".I RUN\n"
	     "against this baseline (its run is\n"
	     ".IR A ).")},
	OPT_ENTRY_BOARD("'last', 'last~N' and no RUN: the runs of one board:\n" OPT_BOARD_WHICH),
	{"threshold", OPT_THRESHOLD, "PCT",
	 "smallest change that counts, in percent (default 5)", 0},
	OPT_ENTRY_DB,
	OPT_ENTRY_FORMAT("text, json or csv (csv: the metrics)"),
	OPT_ENTRY_OUTPUT,
	OPT_END,
};

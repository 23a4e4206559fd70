// SPDX-License-Identifier: MIT
/* usbperf check's options */
#include "cmd/opt/tables.h"

const struct cmd_opt check_options[] = {
	OPT_ENTRY_CRITERIA,
	OPT_ENTRY_BASELINE_GATE,
	{"threshold", OPT_THRESHOLD, "PCT",
	 "smallest change from the baseline that counts (default 5)", 0},
	OPT_ENTRY_JUNIT,
	{"lava", OPT_LAVA, NULL,
	 "also print the checks as LAVA test-case signals on stdout,\n"
	     "after the table (-q: the signals alone): one test set per\n"
	     "run, one test case per check (the metrics nothing was\n"
	     "asked of are not test cases, in JUnit neither); ids like\n"
	     "2-1.disk.seq-read_1M.mb_s or the criterion's id. With\n"
	     "-F json or csv the table goes only to --output",
	 0 OPT_MAN(OPT_LAVA_MAN)},
	OPT_ENTRY_DB,
	{"all", CHECK_O_ALL, NULL,
	 "text: also the metrics nothing was asked of ('measured';\n"
	     "JSON and CSV always have them)",
	 0 OPT_MAN("Text: also the measured rows (JSON and CSV always have them).")},
	OPT_ENTRY_FORMAT("text, json or csv (csv: the checks)"),
	OPT_ENTRY_OUTPUT,
	OPT_END,
};

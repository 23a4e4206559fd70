// SPDX-License-Identifier: MIT
/* usbperf report's options */
#include "cmd/opt/tables.h"

const struct cmd_opt report_options[] = {
	{"html", REPORT_O_HTML, "FILE",
	 "write the HTML page to FILE (the text report is not printed)",
	 0 OPT_MAN("Write the HTML page to\n"
	     ".I FILE\n"
	     "(the text report is not printed).")},
	OPT_ENTRY_CRITERIA,
	OPT_ENTRY_BASELINE_GATE,
	{"threshold", OPT_THRESHOLD, "PCT",
	 "smallest change from the baseline that counts (default 5);\n"
	     "also what the comparison of runs counts",
	 0 OPT_MAN("Smallest change from the baseline that counts (default 5); also what the\n"
	     "comparison of runs counts.")},
	OPT_ENTRY_JUNIT,
	{"lava", OPT_LAVA, NULL,
	 "also print the checks as LAVA test-case signals on stdout,\n"
	     "after the text report (-q: the signals alone), as check does",
	 0 OPT_MAN("Also print LAVA test-case signals on standard output, after the text report\n"
	     "(with\n"
	     ".BR \\-q ,\n"
	     "the signals alone), as\n"
	     ".B check\n"
	     "does.")},
	OPT_ENTRY_DB,
	OPT_ENTRY_OUTPUT_OF("text report"),
	OPT_END,
};

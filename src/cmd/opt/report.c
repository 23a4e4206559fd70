// SPDX-License-Identifier: MIT
/* usbperf report's options */
#include "cmd/opt/tables.h"

const struct cmd_opt report_options[] = {
	{"html", REPORT_O_HTML, "FILE",
	 "write the HTML page to FILE (the text report is not printed)",
	 0 OPT_MAN("Write the HTML page to\n"
	     ".I FILE\n"
	     "(the text report is not printed).")},
	{"fleet", REPORT_O_FLEET, NULL,
	 "many boards in one table from the history: each board's\n"
	     "headline figures, latest against first in the range, with\n"
	     "ceiling, verdict and trend (text, json, csv or --html)",
	 0 OPT_MAN("Many boards in one view, from the history (no RUN): for each board (by its\n"
	     "machine, else its hostname) and device, each headline figure (what its\n"
	     "verdict rests on, else its rates) of its latest run against its first in the\n"
	     "range, judged as\n"
	     ".B compare\n"
	     "judges them, next to its link ceiling, with a trend over the runs (text: a\n"
	     "sparkline; HTML: the figure, its spread as a band and each kernel change\n"
	     "marked; JSON: every point). Read in one query, whatever the number of runs.")},
	{"since", REPORT_O_SINCE, "DATE",
	 "with --fleet: runs started at or after DATE (YYYY-MM-DD or\n"
	     "YYYY-MM-DDTHH:MM:SSZ, UTC)", 0},
	{"until", REPORT_O_UNTIL, "DATE",
	 "with --fleet: runs started before DATE (a day: to its end)", 0},
	OPT_ENTRY_BOARD("with --fleet: the runs of one board:\n" OPT_BOARD_WHICH),
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

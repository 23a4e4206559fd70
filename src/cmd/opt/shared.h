/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Options several commands share, as table entries (opt.h) and the keys
 * getopt returns for them: the history's --db (cmd/db.h) and the pass/fail
 * options of check and report (cmd/check_opts.h).
 */
#include "cmd/opt/opt.h"

/* keys no letter and no command's own table can take (theirs start at OPT_KEY) */
#define OPT_CRITERIA 0x1c1
#define OPT_BASELINE 0x1c2
#define OPT_THRESHOLD 0x1c3
#define OPT_JUNIT 0x1c4
#define OPT_LAVA 0x1c5
#define OPT_DB 0x1db
#define OPT_BOARD 0x1b0
#define OPT_WIDE 0x1d1de   /* --wide, a global option */
#define OPT_SCHEMA 0x1d1df /* --schema, before or after the command (cmd/common.c) */

/* the common options as most commands list them; a command that says more writes its own */
#define OPT_ENTRY_FORMAT(help) {"format", 'F', "FMT", (help), 0}
/* -o written as "write the WHAT to FILE" (a string literal: "report", "list") */
#define OPT_ENTRY_OUTPUT_OF(what)                                                                \
	{"output", 'o', "FILE", "write the " what " to FILE",                                    \
	 0 OPT_MAN("Write the " what " to\n.IR FILE .")}
#define OPT_ENTRY_OUTPUT OPT_ENTRY_OUTPUT_OF("result")
#define OPT_ENTRY_QUIET {"quiet", 'q', NULL, "no progress on stderr", 0}

#define OPT_DB_HELP                                                                              \
	"the history: a file (default: $USBPERF_DB, else\n"                                      \
	"$XDG_DATA_HOME/usbperf/history.db or ~/.local/share/usbperf/\n"                         \
	"history.db), or a PostgreSQL server's, postgresql://HOST/DB"
/* --board: the runs of one machine of a shared history; help: what it does with them */
#define OPT_BOARD_WHICH "its hostname or board model contains NAME (any\ncase), or its machine hash is NAME"
#define OPT_ENTRY_BOARD(help) {"board", OPT_BOARD, "NAME", help, 0}
/* --db as the history's readers list it */
#define OPT_ENTRY_DB {"db", OPT_DB, "PATH", OPT_DB_HELP, 0 OPT_MAN("The history database.")}

/* the pass/fail options check and report share; their --threshold and --lava say more */
#define OPT_ENTRY_CRITERIA                                                                       \
	{"criteria", OPT_CRITERIA, "FILE", "thresholds per metric (docs/criteria.md)",           \
	 0 OPT_MAN("Thresholds per metric (docs/criteria.md).")}
#define OPT_ENTRY_BASELINE_GATE                                                                  \
	{"baseline", OPT_BASELINE, "NAME", "a metric 'worse' than in this baseline fails",       \
	 0 OPT_MAN("A metric worse than in this baseline fails.")}
#define OPT_THRESHOLD_HELP "smallest change from the baseline that counts (default 5)"
#define OPT_ENTRY_JUNIT                                                                          \
	{"junit", OPT_JUNIT, "FILE", "also write the checks as JUnit XML to FILE",                \
	 0 OPT_MAN("Also write the checks as JUnit XML to\n.IR FILE .")}
#define OPT_LAVA_HELP                                                                            \
	"also print the checks as LAVA test-case signals on stdout,\n"                          \
	"after the table (-q: the signals alone)"
#define OPT_LAVA_MAN                                                                             \
	"Also print LAVA test-case signals on standard output, after the table (with\n"         \
	".BR \\-q ,\n"                                                                           \
	"the signals alone; with\n"                                                              \
	".B \\-F json\n"                                                                         \
	"or\n"                                                                                   \
	".BR csv ,\n"                                                                            \
	"the table only to the output file): one test set per run, test case ids like\n"       \
	"2\\-1.disk.seq\\-read_1M.mb_s or the criterion's id. The checks pass, fail or\n"       \
	"skip; every other measurement is a case with its value, its unit and the\n"           \
	"result unknown (measured, not judged); a CPU number or a histogram bin is none.\n"    \
	"JUnit has the checks alone as test cases."

// SPDX-License-Identifier: MIT
/* the options every command accepts, before it and after it (cmd/common.c's global_option) */
#include "cmd/opt/tables.h"

const struct cmd_opt global_options[] = {
	{NULL, 0, NULL, "global options (also accepted after the command):", OPT_HELP_ONLY},
	{"format", 'F', "FMT",
	 "text (default), json or csv",
	 0 OPT_MAN(".BR text \" (default), \" json \" or \" csv .")},
	{"output", 'o', "FILE",
	 "write the result to FILE instead of stdout",
	 0 OPT_MAN("Write the result to\n"
	     ".I FILE\n"
	     "(atomically: aside, then renamed) instead of standard output.")},
	{"quiet", 'q', NULL,
	 "no progress on stderr",
	 0 OPT_MAN("No progress on standard error (progress is shown only when it is a terminal).")},
	{"schema", OPT_SCHEMA, NULL,
	 "the command's JSON, described: Markdown, or with -F json a\n"
	     "JSON Schema its output validates against (docs/schema/)",
	 0 OPT_MAN("The command's JSON, described from the field tables that write it: Markdown,\n"
	     "or with\n"
	     ".B \\-F json\n"
	     "a JSON Schema (draft 2020-12) its output validates against; only\n"
	     ".BR \\-F \" and \" \\-o\n"
	     "go with it. The files are in docs/schema/ of the source.")},
	{"wide", OPT_WIDE, NULL,
	 "text: every column and every clause, whatever the width\n"
	     "(by default a table fits 100 columns)",
	 0 OPT_MAN("Text: every column of a table and every clause on one line. By default a\n"
	     "table keeps to 100 columns (its other columns are in the JSON and with\n"
	     ".BR \\-\\-wide )\n"
	     "and findings, notes and warnings wrap at 100 columns.")},
	{"version", 'V', NULL,
	 "print the version",
	 0 OPT_MAN("Print the version.")},
	{"help", 'h', NULL,
	 "list the commands; after a command, its options",
	 OPT_MAN_ONLY OPT_MAN("List the commands; after a command, its options.")},
	OPT_END,
};

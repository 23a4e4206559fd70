/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A command's options, declared once (git's parse-options, curl's
 * cmdline-opts): each entry gives the long name, the key getopt returns (a
 * letter when there is a short form), the value's name and the help. From one
 * table come the getopt arrays (cmd/common.c's parse_table), the OPTIONS
 * block of 'usbperf CMD -h' (opt_usage) and the man page's items
 * (opt_roff, run at build time by mkman). The tables are data only, in
 * cmd/opt/CMD.c, so the native man page generator links them without the
 * rest of usbperf.
 */
#include <stdbool.h>
#include <stdio.h>

struct cmd_opt {
	const char *name; /* long name, no "--"; NULL: a heading (help, man) or the table's end */
	int key;	  /* a letter for a short form (-X), else an id from OPT_KEY up */
	const char *arg;  /* the value's name ("SIZE", "LIST"); NULL for a flag */
	const char *help; /* 'CMD -h': lines split at '\n' */
	unsigned flags;
#ifdef OPT_WITH_MAN
	const char *man; /* the man page's item, roff; NULL: the help as one paragraph */
#endif
	/*
	 * The words it takes, for the bash completion ('usbperf CMD
	 * --completion-values OPTION'), space-separated; NULL: none to offer,
	 * or a path where arg says so (opt_path_kind). Given by name after the
	 * others: { ..., 0 OPT_MAN("roff"), .values = "a b c" }. --format's are
	 * the command's formats (main.c's commands[]), not written here.
	 */
	const char *values;
};

/*
 * An entry's man page item, after its flags: { ..., help, 0 OPT_MAN("roff") }.
 * Only where mkman builds the pages (OPT_WITH_MAN) does the table hold it;
 * usbperf itself, whose -h prints the help, carries no roff and no pointer
 * for it (on a board some 30 KB nothing reads).
 */
#ifdef OPT_WITH_MAN
#define OPT_MAN(roff) , (roff)
#else
#define OPT_MAN(roff)
#endif

#define OPT_KEY 256	    /* the first key without a letter */
#define OPT_HIDDEN 0x1u	    /* an old spelling: accepted, not listed */
#define OPT_MAN_ONLY 0x2u   /* listed in the man page, not by -h (a heading's note) */
#define OPT_AGAIN 0x4u	    /* an option listed before, described again in another group */
#define OPT_HELP_ONLY 0x8u  /* listed by -h, not in the man page (a heading the page words itself) */
#define OPT_LIST 0x10u	    /* its values are a comma-separated list of them ("seq-read,rand-read") */

/* what 'usbperf CMD' takes first for the completion's question (cmd/common.c) */
#define OPT_COMPLETION_VALUES "--completion-values"

/* the end of a table */
#define OPT_END {.name = NULL, .help = NULL}
/* a line of its own between options: a group's heading or a note */
#define OPT_TEXT(text) {.name = NULL, .help = (text)}
/* a heading whose man page paragraph says more (roff) */
#define OPT_TEXT_MAN(text, roff) {NULL, 0, NULL, (text), 0 OPT_MAN(roff)}

struct cmd_opt_table {
	const char *command; /* as typed: "disk", "net client" */
	const struct cmd_opt *opts;
};

/* the tables mkman knows, NULL-ended (cmd/opt/tables.c) */
extern const struct cmd_opt_table cmd_opt_tables[];

/* what a value named arg is: "dir" (DIR), "file" (FILE, PATH, DIR|FILE, SRC DST), or NULL */
const char *opt_path_kind(const char *arg);
/* option ("--tests", "-q") in t, else NULL */
const struct cmd_opt *opt_lookup(const struct cmd_opt *t, const char *option);
/*
 * The completion's answer for an option: "@list" first for an OPT_LIST,
 * then its values a line each; "@dir" or "@file" for a path; nothing for
 * one that takes something else (a number) or no value
 */
void opt_print_values(FILE *f, const struct cmd_opt *o);

/* the entry for KEY, or NULL */
const struct cmd_opt *opt_find(const struct cmd_opt *t, int key);
/* the number of entries that are options (hidden ones too, not those listed again) */
unsigned opt_count(const struct cmd_opt *t);
/*
 * "options:" and one entry per visible option as 'CMD -h' shows it: the
 * names from column 2, the help from column 22 (on the next line when the
 * names are longer), continuation lines under it; a heading flush left
 */
void opt_usage(FILE *f, const struct cmd_opt *t);
#ifdef OPT_WITH_MAN
/* the man page's items: .TP per option, .PP before a heading (mkman) */
void opt_roff(FILE *f, const struct cmd_opt *t);
#endif

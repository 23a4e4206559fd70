/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What the commands that touch the history share: the --db option, opening
 * the database with one-line errors, and finding a run by its id or prefix.
 * `usbperf run` saves through these too.
 */
#include "cmd/common.h"
#include "store/store.h"

/* a getopt value no letter can take */
#define OPT_DB 0x1db
#define DB_LONG_OPTION {"db", required_argument, NULL, OPT_DB}
#define DB_OPTION_HELP                                                                           \
	"  --db PATH          the history (default: $XDG_DATA_HOME/usbperf/history.db or\n"        \
	"                     ~/.local/share/usbperf/history.db)\n"

/*
 * Options of a command that takes only --db and the common ones (show,
 * export, import): 0 parsed (operands from optind), 1 -h shown, -1 bad
 * (one line logged).
 */
int db_parse_args(int argc, char **argv, struct global_opts *g, const char *cmd,
		  void (*usage)(void), const char **ret_db);

/* --db PATH: refused at once when empty */
int db_option(const char *arg, const char **ret);

/*
 * Open the history at db (NULL: the default path). create: make it when
 * missing (with the default path's directories; an explicit --db must be
 * in an existing directory, so a mistyped path creates nothing). Logs one
 * line; returns -errno, for db_exit_status().
 */
int db_open(const char *db, bool create, struct store **ret);
/* EXIT_USAGE when the path is at fault (missing, not a history), else EXIT_RUNTIME */
int db_exit_status(int r);

/* A run by id or unique prefix; logs one line on failure (same statuses). */
int db_load_run(struct store *s, const char *arg, struct run_record *ret);
int db_resolve_run(struct store *s, const char *arg, char **ret_id);

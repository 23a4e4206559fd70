/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What the commands that touch the history share: the --db option, opening
 * the database with one-line errors, and finding a run by its id or prefix.
 * `usbperf run` saves through these too.
 */
#include "cmd/common.h"
#include "cmd/opt/shared.h"
#include "store/store.h"

/*
 * Options of a command that takes only --db and the common ones (show,
 * export, import): 0 parsed (operands from optind), 1 -h shown, -1 bad
 * (one line logged).
 */
int db_parse_args(int argc, char **argv, struct global_opts *g, const char *cmd,
		  const struct cmd_opt *table, void (*usage)(void), const char **ret_db);

/*
 * The history named: --db's db, else $USBPERF_DB when set and not empty
 * (a farm's server for every command), else NULL (the default file)
 */
const char *db_given(const char *db);

/*
 * --since/--until DATE into ret (UTC_TIME_LEN + 1 bytes) as the history
 * compares it; a day given to --until (end) counts whole
 */
int db_date_option(const char *opt, const char *arg, bool end, char *ret);
/* --board NAME: 1 to 256 characters */
int board_option(const char *arg, const char **ret);

/* --db PATH: refused at once when empty */
int db_option(const char *arg, const char **ret);

/*
 * How a command opens the history: every command goes through db_open().
 *   DB_READ    history, show, compare, export, check, report, baseline
 *              listing: SQLITE_OPEN_READONLY, never creates, migrates or
 *              writes a byte (an older schema is migrated in memory), and
 *              reads a database on a read-only mount or without write
 *              permission. A missing file: one line, exit 2.
 *   DB_WRITE   baseline set/delete: read-write and migrated; must exist.
 *   DB_CREATE  import, run's save: as DB_WRITE, created when missing (with
 *              the default path's directories; an explicit --db must be in
 *              an existing directory, so a mistyped path creates nothing).
 */
enum db_mode {
	DB_READ,
	DB_WRITE,
	DB_CREATE,
};

/*
 * Open the history at db (NULL: the default path). Logs one line on
 * failure; returns -errno, for db_exit_status(). Every refusal names its
 * cause: "'F' is not a regular file", "'F' is not a usbperf history
 * database" (exit 2), "cannot read the history 'F': database disk image is
 * malformed" (exit 3), "cannot write the history 'F': Read-only file
 * system" / "Permission denied" (exit 2), "file name too long" (exit 2).
 */
int db_open(const char *db, enum db_mode mode, struct store **ret);
/* The same, the line in *why instead of on stderr (appended) */
int db_open_quiet(const char *db, enum db_mode mode, struct store **ret, struct strbuf *why);

/*
 * For `run`, before anything is measured: can the run be saved at db
 * (NULL: the default path)? Creates nothing. An existing file is opened
 * (DB_WRITE: checked and migrated) and kept open in *ret; a missing one
 * needs an existing, writable directory (the default path: its nearest
 * existing ancestor) and *ret is NULL. Logs one line; -errno for
 * db_exit_status(). At save time, when *ret was NULL:
 * db_open(db, DB_CREATE, &s), so a refused or failed run leaves no file.
 */
int db_prepare_save(const char *db, struct store **ret);

/*
 * `run`'s save of rec into the history at db: *s as db_prepare_save() left
 * it (NULL: opened now, created if missing; the caller closes it). Saved:
 * "run ID saved" on stderr unless quiet, 0. Not saved (the history locked
 * beyond the busy timeout, a full disk, ...): nothing measured is lost, the
 * run is kept as an export of one run that `usbperf import` takes, new
 * (O_EXCL, mode 0600) in db_pending_dir() as ID.json, else (that cannot be
 * written) in $XDG_STATE_HOME/usbperf/pending/ (~/.local/state/...). One
 * line says why and where: "run ID not saved: the history 'H' is locked by
 * another process; kept in 'P' ('usbperf import P' adds it)"; -errno (exit 3).
 */
int db_save_run(const char *db, struct store **s, const struct run_record *rec, bool quiet);
/* Where runs that could not be saved into the history db wait: "H.pending", appended */
int db_pending_dir(const char *db, struct strbuf *ret);
/* How many of them the history s (at db) does not hold yet */
size_t db_pending_count(struct store *s, const char *db);
/* The run of the file name ("ID.json") in that directory is in the history s already */
bool db_pending_in_history(struct store *s, const char *name);

/*
 * A store call on an open history failed with r: one line, the same for
 * every command ("cannot read the history 'F': ..." or "'F' is not a
 * usbperf history database"); returns the exit status (db_exit_status).
 */
int db_failed(struct store *s, int r);

/* EXIT_USAGE when the path is at fault (missing, not a history), else EXIT_RUNTIME */
int db_exit_status(int r);

/* The history at db (NULL: the default path) with its -wal, -shm and -journal, as inputs */
int db_inputs_add_db(struct inputs *in, const char *db);
/* The usual case: the history db against --output */
int db_refuse_output_db(const char *db, const char *output);

/*
 * A run by id, unique prefix or "last" (store_resolve_run); logs one line on
 * failure (same statuses).
 */
int db_load_run(struct store *s, const char *arg, struct run_record *ret);
int db_resolve_run(struct store *s, const char *arg, char **ret_id);

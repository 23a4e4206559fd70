/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The history: every run in one SQLite file, or in a PostgreSQL database
 * many boards share (store_is_server()), so that a later run can be
 * compared with it; which one is the back end's (sql.h), never the
 * caller's concern. A schema version with migrations, foreign keys on, and
 * every save in one transaction: a process killed mid-save leaves the
 * database as it was (SQLite: in WAL mode, readers never block the writer).
 * Columns are the keys of the run record's field tables (record_fields.h).
 * Every function returns 0 or a negative errno; ret_* are untouched on
 * failure. store_errmsg() has the back end's words for the last failure.
 */
#include "model/record.h"
#include "model/field.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdint.h>

struct store;

/*
 * $XDG_DATA_HOME/usbperf/history.db, else $HOME/.local/share/usbperf/
 * history.db; with no usable HOME (unset, relative or "/", as for a root
 * service on a board) the home directory from the password database, and
 * for root without one "/root". -ENOENT when there is none.
 */
int store_default_path(char **ret);

/* a libpq URI ("postgresql://", "postgres://"): the history on a PostgreSQL server */
bool store_is_server(const char *path);
/* path as output may show it: a server URI's password as "***" (allocated) */
char *store_display_name(const char *path);
/* why the last store_open() of a server failed, in its words ("" for a file) */
const char *store_open_error(const char *path);

enum {
	/* the file must exist: -ENOENT otherwise */
	STORE_OPEN_EXISTING = 1 << 0,
	/*
	 * Read only (SQLITE_OPEN_READONLY): never creates, migrates or writes
	 * a byte, and leaves no -wal/-shm beside the file. A database at rest
	 * (no -wal) is read as immutable while holding SQLite's shared lock,
	 * so it reads on a read-only mount, in a directory the user cannot
	 * write, or from a file the user cannot write. An older schema is
	 * migrated in a copy in memory. Implies STORE_OPEN_EXISTING.
	 */
	STORE_OPEN_READ = 1 << 1,
};

/*
 * Open and check that the file is a usbperf history. Without
 * STORE_OPEN_READ: read-write, creating the file and its missing parent
 * directories (mode 0700) unless STORE_OPEN_EXISTING, and migrating the
 * schema to the current version. Errors:
 *   -ENOENT, -ENOTDIR, -EACCES, -EROFS, -ELOOP  the path (write mode: the
 *                      file, or its directory for the -wal, not writable)
 *   -ENAMETOOLONG      over NAME_MAX, PATH_MAX or SQLite's 511 bytes
 *   -EISDIR, -ENODEV   a directory; not a regular file (FIFO, device,
 *                      socket: never opened, so a FIFO cannot block)
 *   -EBADMSG           not a usbperf history (not SQLite, another SQLite
 *                      file, or in read mode an empty file)
 *   -EUCLEAN           a damaged SQLite file (SQLITE_CORRUPT)
 *   -EPROTONOSUPPORT   written by a newer usbperf
 *   -EBUSY             locked beyond the busy timeout
 * A server's (store_is_server(), PostgreSQL): -ECONNREFUSED not reached,
 * -EKEYREJECTED refused (password, pg_hba.conf), -ENXIO no such database,
 * -ECONNRESET gone mid-way, -ENOENT no history's schema in it yet (read, or
 * STORE_OPEN_EXISTING), -EOPNOTSUPP an older schema opened to read (a
 * writer migrates it); store_open_error() has the server's words.
 * Every later call may also fail with -EBADMSG / -EUCLEAN as above.
 */
int store_open(const char *path, struct store **ret);
int store_open_flags(const char *path, unsigned flags, struct store **ret);
void store_close(struct store *s);
/*
 * After a writer was killed (SIGKILL, a power cut): the history at path
 * opened read-write, which replays what its -wal holds, checkpointed and
 * closed, so that SQLite removes the -wal and -shm (when no other process
 * has the history open). Neither created, nor migrated: -ENOENT, -EBADMSG
 * and the other errors of store_open(). The back end's own files only.
 */
int store_recover(const char *path);
const char *store_errmsg(const struct store *s);
const char *store_path(const struct store *s);
int store_schema_version(void);

/*
 * -EEXIST: a run with this id is stored; -EINVAL: see run_record_validate(),
 * or an id store_run_id_reserved() refuses
 */
int store_save_run(struct store *s, const struct run_record *r);
/*
 * Before a run is measured: may this connection save one? -EACCES (its
 * words as store_errmsg()) when a server's role may not add to its tables
 */
int store_check_writable(struct store *s);

/*
 * A run by its id or a unique prefix of it, like git: an exact id wins;
 * STORE_RUN_LAST ("last") is the newest run (the first `history` lists),
 * "last~N" the Nth before it ("last~0" is "last").
 * -ENOENT: no such run (or no run at all), -EINVAL: the prefix matches
 * several. Every command that names a run goes through here.
 */
#define STORE_RUN_LAST "last"
/* N of "last" (0) or "last~N" (a strict decimal number); -EINVAL: not that form */
int store_run_last_offset(const char *arg, uint64_t *ret);
/*
 * An id that names something else where a run is named ("last", "last~N"):
 * a run saved under it could never be reached by its id, and an export of
 * the history would write the newest run in its place. Never stored.
 */
bool store_run_id_reserved(const char *id);
/* how many runs the history holds */
int store_count_runs(struct store *s, uint64_t *ret);
int store_resolve_run(struct store *s, const char *id_or_prefix, char **ret_id);
/*
 * From now on "last" and "last~N" count only the runs of board (as
 * store_filter's board; NULL: every run): 'compare --board'. -ENOMEM.
 */
int store_scope_board(struct store *s, const char *board);
int store_load_run(struct store *s, const char *id_or_prefix, struct run_record *ret);
/* The run with exactly this id, never a prefix or "last": -ENOENT when there is none */
int store_load_run_id(struct store *s, const char *id, struct run_record *ret);

struct store_filter {
	const char *device; /* substring of a device's VID:PID, serial or port path */
	const char *since;  /* UTC "YYYY-MM-DDTHH:MM:SSZ": started at or after */
	const char *until;  /* started before */
	const char *board;  /* substring of its hostname or board model, or its machine hash */
	uint64_t limit;	    /* at most this many (the newest); 0: all */
	bool oldest_first;  /* default: newest first */
};

/* one line of `usbperf history` */
struct run_summary {
	char *id;
	char *started_at;
	double duration_s;
	char *hostname;
	char *board;
	char *kernel;
	char *devices; /* "0781:5583@2-1, host" */
	uint64_t nmetrics;
	uint64_t nfindings;
	uint64_t nwarnings; /* findings of severity warn */
	char *baselines;    /* names pointing at this run, or NULL */
};

int store_list_runs(struct store *s, const struct store_filter *f, struct run_summary **ret,
		    size_t *ret_n);
void run_summaries_free(struct run_summary *v, size_t n);
extern const struct record_desc run_summary_desc;

/*
 * One figure of one run, with where the run was made: what the fleet view
 * (report --fleet) draws its table and trends from.
 */
struct store_point {
	char *run_id, *started_at, *kernel;
	struct run_env env; /* hostname, board, machine ... of the run */
	struct run_metric m;
	char *vid_pid, *serial, *product; /* of the figure's device, NULL unknown */
	double ceiling_mb_s;		  /* its link's bulk ceiling, NaN unknown */
};

/*
 * The figures of the runs f selects (since, until, board; not device or
 * limit) whose metric key is one of metrics[0..n), oldest run first, in
 * each run the order it recorded them. One query, whatever the number of
 * runs: a farm's history of 10,000 runs is read in one go.
 */
int store_points(struct store *s, const struct store_filter *f, const char *const *metrics,
		 size_t n, struct store_point **ret, size_t *ret_n);
void store_points_free(struct store_point *v, size_t n);

/* baseline names: what run_id_valid() accepts */
struct store_baseline {
	char *name;
	char *run_id;
	char *set_at;
	char *started_at; /* of the run */
	char *board, *kernel;
};

/* set or move NAME to the run; -ENOENT / -EINVAL as store_resolve_run() */
int store_baseline_set(struct store *s, const char *name, const char *id_or_prefix);
/* -ENOENT: no such baseline */
int store_baseline_get(struct store *s, const char *name, char **ret_run_id);
int store_baseline_delete(struct store *s, const char *name);
int store_list_baselines(struct store *s, struct store_baseline **ret, size_t *ret_n);
void store_baselines_free(struct store_baseline *v, size_t n);
extern const struct record_desc store_baseline_desc;

/*
 * `usbperf history --check`: the schema against the one this usbperf
 * writes (every table, column and index its migrations make, and the
 * version), SQLite's integrity and foreign key checks, counts (unknown for
 * a table that is missing).
 */
struct store_stats {
	const char *path; /* borrowed from the store */
	uint64_t schema_version;
	char *journal_mode;
	uint64_t runs, devices, metrics, findings, baselines;
	char *schema; /* "ok", or what is missing: "table 'verdicts', column 'metrics.ceiling'" */
	char *integrity; /* "ok", or the problems SQLite found, "; "-separated */
	bool schema_ok;	 /* nothing missing: every command can read it */
	bool ok;	 /* schema_ok and no damage */
};

int store_check(struct store *s, struct store_stats *ret);
/* SQLite's quick_check: 0, or -EUCLEAN with what it found as store_errmsg() */
int store_quick_check(struct store *s);
void store_stats_release(struct store_stats *st);
extern const struct record_desc store_stats_desc;

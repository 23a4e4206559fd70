/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The RUN operands of `show`, `compare`, `report` and `check`. Each one is:
 *   - a JSON file, when it is "-" (stdin), contains a '/' or ends in
 *     ".json": an export, one record (`show -F json`) or the report of
 *     `run -F json`; every run in it is taken;
 *   - "last": the newest run in the history, "last~N" the Nth before it;
 *   - else a run id or unique prefix in the history.
 * So a board farm can check the file `run -F json -o run.json` wrote without
 * any history, and a desk user can name runs as `history` lists them.
 */
#include "model/record.h"

#include <stdbool.h>
#include <stddef.h>

#define RUNS_ARG_HELP                                                                            \
	"RUN: a run id or unique prefix in the history, 'last' for the newest, 'last~N'\n"     \
	"for the Nth before it, or a JSON file (a path with '/' or ending in .json; '-'\n"     \
	"for stdin) written by 'usbperf run -F json', 'show -F json' or 'export'.\n"

/*
 * Load every run named by args[0..n) in order; db is --db (NULL: default).
 * Logs one line on failure and returns -errno for db_exit_status() (a bad
 * file gives -EINVAL: exit 2). *ret: run_records_free().
 */
int runs_load(const char *db, char *const *args, size_t n, struct run_record **ret,
	      size_t *ret_n);

/* As runs_load(), but exactly n runs (one per operand); else one line, -EINVAL (exit 2) */
/* "last" and "last~N" among the runs of board from now on (compare --board; NULL: all) */
void runs_scope_board(const char *board);
int runs_load_n(const char *db, char *const *args, size_t n, const char *cmd,
		struct run_record **ret);

/*
 * -o OUTPUT against the run files among args[0..n) and, when a run is read
 * from it (or n is 0), the history: one line and -EINVAL when it is one of them.
 */
int runs_refuse_output(const char *db, char *const *args, size_t n, const char *output);

/* A RUN operand that names a file (else a run in the history) */
bool runs_arg_is_file(const char *a);

/*
 * An id a RUN operand would read as something else: "last", "last~N"
 * (store_run_id_reserved) or a file name ("x.json"). Such a run could be
 * stored but never named; import refuses it. The reason in *ret_why (static).
 */
bool runs_arg_id_reserved(const char *id, const char **ret_why);

/* The runs of one file (an export, a record, a run report; '-' for stdin), as above. */
int runs_load_file(const char *file, struct run_record **ret, size_t *ret_n);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * SIGINT/SIGTERM/SIGHUP end every command with exit 128+N and no output
 * file, partial or complete. How depends on the command:
 *  - one that measures polls signal_stop: the first signal asks it to stop
 *    (it finishes the current request, reports what it has on stdout,
 *    removes its files); a second one removes the registered files at once
 *    and exits;
 *  - any other command ends at the first signal: the registered files are
 *    removed and the process exits.
 * An output file is written aside and renamed into place (write_file_atomic):
 * the file aside is registered here, and the rename does not happen once a
 * signal has arrived. run_command turns any return into 128+N after a signal.
 */
#include <signal.h>
#include <stdbool.h>

extern volatile sig_atomic_t signal_stop; /* the signal number, 0 if none */

/* polls: the command checks signal_stop (a measurement); else the first signal exits */
void signals_install(bool polls);
/* The file to unlink if a second signal arrives, replacing all others; NULL to clear. */
void signals_set_cleanup(const char *path);
/*
 * One more file to unlink with the others (up to 40; NULL is ignored).
 * Register only a file this process has created (O_EXCL succeeded): a path
 * registered before that could be someone else's file, unlinked by a second
 * signal. Create and register with the signals held (signals_hold) so that
 * no signal falls between the two.
 */
void signals_add_cleanup(const char *path);
/* That file is no longer to be unlinked (kept, or already removed) */
void signals_remove_cleanup(const char *path);
/* An output written aside (its temporary name), unlinked on exit by signal; NULL to clear. */
void signals_set_output(const char *path);
/*
 * Block the signals (true) around the last check and the rename that
 * commits an output; unblock (false) after it. A signal that arrives while
 * blocked is delivered at the unblock.
 */
void signals_hold(bool hold);

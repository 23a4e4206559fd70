/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * SIGINT/SIGTERM: the first asks the run to stop (it finishes the current
 * request, reports what it has, removes its files); a second one removes the
 * registered file at once and exits.
 */
#include <signal.h>

extern volatile sig_atomic_t signal_stop; /* the signal number, 0 if none */

void signals_install(void);
/* The file to unlink if a second signal arrives, replacing all others; NULL to clear. */
void signals_set_cleanup(const char *path);
/* One more file to unlink with the others (up to 40; NULL is ignored). */
void signals_add_cleanup(const char *path);

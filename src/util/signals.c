// SPDX-License-Identifier: MIT
#include "util/signals.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t signal_stop;
/*
 * Every test file that exists at once (run opens all its targets before
 * measuring; a copy test has a source and a destination), and one more slot,
 * the last, for an output written aside.
 */
#define CLEANUP_SLOTS 40
#define OUTPUT_SLOT CLEANUP_SLOTS
static char cleanup_path[CLEANUP_SLOTS + 1][PATH_MAX];
static volatile sig_atomic_t exit_at_first; /* the command does not poll signal_stop */

static void on_signal(int sig)
{
	if (signal_stop || exit_at_first) {
		for (int i = 0; i <= OUTPUT_SLOT; i++)
			if (cleanup_path[i][0])
				unlink(cleanup_path[i]); /* async-signal-safe */
		_exit(128 + sig);
	}
	signal_stop = sig;
}

static void signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void signals_hold(bool hold)
{
	sigset_t set;

	signal_set(&set);
	sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void signals_install(bool polls)
{
	struct sigaction sa;

	exit_at_first = !polls;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking wait returns EINTR and the loop sees the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* past ulimit -f a write fails with EFBIG, handled as a full disk, not a silent death */
	signal(SIGXFSZ, SIG_IGN);
}

/* slot -1: clear the test-file slots; the signal handler sees either the old or the new path */
static void set_slot(int slot, const char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (slot < 0)
		memset(cleanup_path, 0, sizeof(cleanup_path[0]) * CLEANUP_SLOTS);
	else if (path && strlen(path) < sizeof(cleanup_path[slot]))
		memcpy(cleanup_path[slot], path, strlen(path) + 1);
	else
		cleanup_path[slot][0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void signals_set_cleanup(const char *path)
{
	set_slot(-1, NULL);
	if (path)
		set_slot(0, path);
}

void signals_add_cleanup(const char *path)
{
	for (int i = 0; path && i < CLEANUP_SLOTS; i++) {
		if (!cleanup_path[i][0]) {
			set_slot(i, path);
			return;
		}
	}
}

void signals_remove_cleanup(const char *path)
{
	for (int i = 0; path && i < CLEANUP_SLOTS; i++)
		if (!strcmp(cleanup_path[i], path))
			set_slot(i, NULL);
}

void signals_set_output(const char *path)
{
	set_slot(OUTPUT_SLOT, path);
}

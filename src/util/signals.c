// SPDX-License-Identifier: MIT
#include "util/signals.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t signal_stop;
static char cleanup_path[2][PATH_MAX]; /* a copy test has a source and a destination */

static void on_signal(int sig)
{
	if (signal_stop) {
		if (cleanup_path[0][0])
			unlink(cleanup_path[0]); /* async-signal-safe */
		if (cleanup_path[1][0])
			unlink(cleanup_path[1]);
		_exit(128 + sig);
	}
	signal_stop = sig;
}

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking wait returns EINTR and the loop sees the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void set_slot(int slot, const char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (path && strlen(path) < sizeof(cleanup_path[slot]))
		memcpy(cleanup_path[slot], path, strlen(path) + 1);
	else
		cleanup_path[slot][0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void signals_set_cleanup(const char *path)
{
	set_slot(1, NULL);
	set_slot(0, path);
}

void signals_add_cleanup(const char *path)
{
	set_slot(1, path);
}

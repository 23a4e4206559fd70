// SPDX-License-Identifier: MIT
#include "util/signals.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t signal_stop;
static char cleanup_path[PATH_MAX];

static void on_signal(int sig)
{
	if (signal_stop) {
		if (cleanup_path[0])
			unlink(cleanup_path); /* async-signal-safe */
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

void signals_set_cleanup(const char *path)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (path && strlen(path) < sizeof(cleanup_path))
		memcpy(cleanup_path, path, strlen(path) + 1);
	else
		cleanup_path[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
}

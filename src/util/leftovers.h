/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What usbperf creates and removes itself (a test file, an output written
 * aside) outlives a process killed with SIGKILL or a power cut. Each such
 * file is recorded, once created, in the journal of its process:
 * $XDG_STATE_HOME/usbperf/leftovers/BOOT-PID-START (else under
 * ~/.local/state), one line "DEV INO LEN PATH" a file. BOOT, PID and START
 * (the process's start time since boot) name the process exactly: a pid
 * used again by another process, or the same pid after a reboot, is not it.
 *
 * leftovers_sweep() goes through the journals of processes that are gone
 * and removes each file only when it is still the file that was recorded:
 * the same device and inode, a regular file with one link, owned by this
 * user, named as usbperf names them with that process's pid
 * ("usbperf-TAG-PID-RANDOM.tmp", "NAME.tmp-PID"). Anything else is left
 * where it is, and said. Then the journal goes. The first file recorded in
 * a process sweeps first, so the next run cleans up after a killed one.
 * A history's -wal and -shm are SQLite's: never touched here.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

/* Record the file just created (fd open on it); best effort: no journal, no record */
void leftovers_add(const char *path, int fd);

struct leftover {
	char *path;
	bool removed;
	const char *why; /* removed: "left by process N, which is gone"; kept: why not removed */
};

/* Remove the files of journals whose process is gone (above); what was found in *ret */
int leftovers_sweep(struct leftover **ret, size_t *ret_n);
void leftovers_free(struct leftover *v, size_t n);

/* The directory of the journals (for the messages), appended to ret; -ENOENT: no home */
int leftovers_dir(struct strbuf *ret);

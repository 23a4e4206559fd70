/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The state file of a gadget usbperf built: a header line, then one line per
 * path created, "<kind> <path>", in creation order, each appended before
 * the next step is taken. Kinds: dir (rmdir), link (unlink), bind (write an
 * empty UDC), mntdir (rmdir of a mount point made), mount (umount), file (a
 * file below GADGET_STATE_DIR: unlink), store (a daemon's storage directory
 * below it: rmdir, kept with a note when not empty), proc ("PID EXE": a
 * daemon started, stopped only while /proc/PID/exe is still EXE).
 */
#include "classes/gadget/build.h"
#include "util/strbuf.h"

#define GADGET_STATE_MAGIC "usbperf-gadget 1"

struct gadget_step {
	char kind[8];
	char *path;
};

struct gadget_state {
	char *dir;  /* the gadget directory name */
	char *file; /* the state file, below the root */
	int fd;	    /* open for appending while up runs; -1 */
	struct gadget_step *v;
	size_t n;
};

void gadget_state_path(struct strbuf *sb, const char *dir);
/* create the file (O_EXCL: -EEXIST when one is there) with its header */
int gadget_state_create(struct gadget_state *st, const char *dir);
/* append one step (written before returning) */
int gadget_state_add(struct gadget_state *st, const char *kind, const char *path);
/* read the state of gadget dir: -ENOENT when none; -EINVAL when malformed or foreign paths */
int gadget_state_load(struct gadget_state *st, const char *dir, char **ret_why);
void gadget_state_release(struct gadget_state *st);
/*
 * Undo the steps in reverse; a path already gone counts as undone. On a
 * failure the file is rewritten with the steps left and the error returned;
 * when all are undone the file is removed. ret_undone counts the steps undone.
 * On success *ret_why may hold a note (a storage directory kept).
 */
/* a proc step's "PID EXE": valid (pid 2.., an absolute exe), and its parts */
bool gadget_proc_step(const char *v, int *ret_pid, const char **ret_exe);
int gadget_state_undo(struct gadget_state *st, const struct gadget_fs *fs, int64_t *ret_undone,
		      char **ret_why);

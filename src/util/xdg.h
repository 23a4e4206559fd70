/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Where usbperf keeps its files, after the XDG base directory spec: the
 * history under $XDG_DATA_HOME (~/.local/share), what is only state (runs
 * not saved yet, the journal of test files) under $XDG_STATE_HOME
 * (~/.local/state). A relative $XDG_* is invalid and ignored, as the spec says.
 */
#include "util/strbuf.h"

/*
 * $HOME when absolute and not "/" (what init and service managers leave
 * root), else the home directory from the password database, else "/root"
 * for root; NULL when there is none.
 */
const char *xdg_home(void);

/*
 * "$ENV/usbperf/NAME", else "HOME/FALLBACK/usbperf/NAME" (fallback
 * ".local/state"); appended to ret. -ENOENT when there is no home.
 */
int xdg_path(const char *env, const char *fallback, const char *name, struct strbuf *ret);

/* The missing directories above path, mode 0700 (they hold serials and host names) */
int xdg_make_parents(const char *path);

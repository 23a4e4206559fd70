/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The mtp profile: a FunctionFS function served by umtprd (Debian's
 * umtp-responder), started with a configuration usbperf writes. Every file,
 * directory and the daemon's pid go into the gadget's state file (state.h:
 * file, store, proc) before the next step, so down and a failed up undo
 * them like configfs paths.
 */
#include "classes/gadget/state.h"
#include "util/strbuf.h"

#include <stdint.h>

#define MTP_DAEMON "umtprd"
#define MTP_PACKAGE "umtp-responder"
/* umtprd's own defaults (its umtprd.conf) */
#define MTP_RD_BUFFER_DEF 0x10000
#define MTP_WR_BUFFER_DEF 0x10000
#define MTP_CACHE_DEF 0x100000
/* how long umtprd has to write its descriptors to ep0 */
#define MTP_READY_MS 5000

struct gadget_mtp_conf {
	const char *gadget;  /* the configfs directory name: the serial number */
	const char *storage; /* the shared directory, a real path */
	const char *ffs_dir; /* the functionfs mount, a real path */
	uint16_t vid, pid;
	uint64_t rd_buffer, wr_buffer, cache;
};

/* the tunables' rules umtprd states: -EINVAL with the reason */
int gadget_mtp_check(const struct gadget_fn_spec *f, char **ret_why);
/* f's buffer sizes, the defaults where not given */
void gadget_mtp_sizes(const struct gadget_fn_spec *f, uint64_t *ret_rd, uint64_t *ret_wr,
		      uint64_t *ret_cache);
/* umtprd's configuration file for c */
void gadget_mtp_config(const struct gadget_mtp_conf *c, struct strbuf *out);
/* before anything is made: umtprd is installed (-ENOENT naming the package) */
int gadget_mtp_preflight(const struct gadget_fs *fs, char **ret_why);

struct gadget_mtp_started {
	int pid;
	uint64_t rd_buffer, wr_buffer, cache;
};
/*
 * f's functionfs instance is mounted on mnt (below the root): write the
 * configuration, start umtprd, wait until it has written its descriptors
 * (the endpoint files appear in mnt). Each step recorded in st.
 */
int gadget_mtp_start(struct gadget_state *st, const struct gadget_fs *fs,
		     const struct gadget_spec *s, const struct gadget_fn_spec *f, const char *mnt,
		     struct gadget_mtp_started *ret, struct strbuf *set, char **ret_why);

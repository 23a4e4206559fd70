/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The libmtp engine's session, shared by engine.c (the session, the
 * transfers) and engine_place.c (where files go, what is left on the
 * device).
 */
#include "classes/mtp/mtp.h"

#include <libmtp.h>

struct mtp_session {
	LIBMTP_mtpdevice_t *dev;
	unsigned busnum, devnum;
	uint32_t storage, folder;
	bool folder_created;
	char *folder_name;
	/* where files go now; quirks.c decides when they move */
	enum mtp_place place;
	uint32_t parent; /* the handle they are sent under: 0 the root (as mtp-sendfile) */
	char *existing;	 /* MTP_PLACE_EXISTING: the folder's name */
	uint32_t existing_id;
	bool proven;	 /* a file went there whole */
	bool reread;	 /* objects found by name: the handles the device gave are not readable */
	char *moved_why; /* the failure that moved them, or had them found by name */
	unsigned places; /* bit per place files were sent to: where cleanup looks */
	/* every name usbperf gives starts with it: "usbperf-1a2b3c4d-", this session's own */
	char prefix[32];
	uint32_t *tracked; /* objects created and not yet deleted */
	size_t ntracked, alloc;
	char last_msg[256]; /* libmtp's last line on stderr */
	char *irq_lines;    /* the host controller's, NULL unknown */
};

/* libmtp's own output kept off usbperf's streams (it prints to stdout and stderr) */
struct quiet {
	int out, err, cap;
};
void quiet_begin(struct quiet *q);
/* restore the streams; the last line libmtp wrote on stderr into msg (if any) */
void quiet_end(struct quiet *q, char *msg, size_t len);

/* a failed call's status: -EINTR signal_stop, -ENODEV the device gone, -EIO (why) */
int mtp_failed(struct mtp_session *s, const char *what, char *why, size_t why_len);
/* the device's last error (its stack cleared), else libmtp's last line, else fallback */
void mtp_why_from(struct mtp_session *s, const char *what, const char *fallback, char *why,
		  size_t why_len);

int mtp_track(struct mtp_session *s, uint32_t id);
void mtp_untrack(struct mtp_session *s, uint32_t id);
bool mtp_tracked(const struct mtp_session *s, uint32_t id);
/* DeleteObject; untracked when it worked; -EIO */
int mtp_delete_object(struct mtp_session *s, uint32_t id);

/* the parent handle to list the place files go now (libmtp's root value for the root) */
uint32_t mtp_list_parent(uint32_t parent);
/*
 * After a send whose bytes all went but whose object cannot be read back by
 * the handle the device gave (old): the object looked up by name and size
 * where it was sent, its handle tracked in place of old. -ENOENT not found.
 */
int mtp_reread(struct mtp_session *s, const char *name, uint64_t bytes, uint32_t old,
	       uint32_t *ret_id);
/* files go to place from now on (an existing folder looked for); -ENOENT none there */
int mtp_move_to(struct mtp_session *s, enum mtp_place place, const char *why);

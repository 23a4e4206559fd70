/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * MTP transfer rates from the host side, through libmtp: for each file size
 * a generated file is sent to the device, got back and compared while it
 * streams (no file on the host), each way timed; then N small objects sent,
 * listed and deleted (objects/s). Everything created on the device is
 * tracked and deleted, also after an error or a signal (signal_stop ends the
 * run after the file in flight: a cancelled MTP transfer leaves responders
 * such as umtprd unable to delete it).
 *
 * libmtp is optional (Debian ships no static libmtp): without it
 * mtp_available() is false and every engine call returns -EOPNOTSUPP.
 * The bookkeeping (pattern, sizes, space, summaries, findings) is plain C in
 * plan.c and findings.c and always built.
 *
 * Rates: MB/s = 10^6 B/s.
 */
#include "platform/sys/passwatch.h"
#include "model/findings.h"
#include "platform/usb/speed.h"
#include "util/stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MTP_MAX_REPEAT 64u
#define MTP_MAX_SIZES 16u
#define MTP_MAX_SIZE (4ULL << 30) /* one file: 4 GiB, MTP's 32-bit object size */
#define MTP_MAX_OBJECTS 100000u
#define MTP_DEFAULT_OBJECT_SIZE 4096u
/* free space kept beyond what the sweep needs, so the test never fills a device */
#define MTP_SPACE_MARGIN (1ULL << 20)

/* --- bookkeeping (plan.c) --- */

/*
 * The generated file content: byte o of file seed, independent of how the
 * stream is cut, so a chunk anywhere in a transfer can be made or checked
 * on its own. Not zeros, not repeating within a file.
 */
void mtp_pattern_fill(uint32_t seed, uint64_t offset, unsigned char *buf, size_t len);
/* the first offset in [0, len) where buf differs from the pattern at offset, or -1 */
int64_t mtp_pattern_mismatch(uint32_t seed, uint64_t offset, const unsigned char *buf, size_t len);

/*
 * The device space the run needs at its peak: one file at a time (the
 * largest), all the small objects at once, and the margin.
 */
uint64_t mtp_space_needed(const uint64_t *sizes, size_t nsizes, uint64_t objects,
			  uint64_t object_size);

/* one file size: per repeat, seconds each way; the rates' summaries */
struct mtp_size_result {
	uint64_t bytes;
	size_t n; /* repeats completed both ways (and verified) */
	double send_s[MTP_MAX_REPEAT], get_s[MTP_MAX_REPEAT];
	struct summary send_mb_s, get_mb_s; /* MB/s (10^6 B/s) over the repeats */
	bool verified;			    /* every byte back equal to the byte sent */
	/* the CPU clock and interrupt placement over the repeats, each way (platform/sys/passwatch) */
	struct pass_sys send_sys, get_sys;
};
/* the summaries from bytes and the seconds */
void mtp_size_finish(struct mtp_size_result *r);

/* the per-object cost: count objects of size sent, listed, deleted */
struct mtp_objects_result {
	uint64_t count, size;
	uint64_t sent; /* objects sent before an error or a signal */
	double send_s, list_s, delete_s;
	double send_per_s, list_per_s, delete_per_s; /* objects/s */
	double send_mb_s;			     /* the same sends as bytes, MB/s */
};
void mtp_objects_finish(struct mtp_objects_result *r);

/* --- responders as they are (quirks.c) --- */

/*
 * More than any MTP device holds (the largest phones and cameras hold a few
 * TB): a storage figure above it is not a fact. 1 PiB.
 */
#define MTP_STORAGE_MAX (1ULL << 50)

/*
 * A storage's capacity and free space as the device reports them (all ones:
 * libmtp's "not reported"), judged: free above capacity, a capacity of 0 or
 * a figure above MTP_STORAGE_MAX cannot be true.
 */
struct mtp_storage_judgement {
	bool anomaly;
	char why[160];		       /* the anomaly with the figures as reported; "" none */
	uint64_t capacity, free_bytes; /* the figures to print; UINT64_MAX: none to print */
	uint64_t room; /* the free space to plan with (at most); UINT64_MAX unknown */
};
void mtp_storage_judge(uint64_t capacity, uint64_t free_bytes, struct mtp_storage_judgement *ret);

/*
 * Where usbperf's files go: its folder (made, or --folder's), the storage's
 * root (where libmtp's own tools send), or a folder already on the device.
 */
enum mtp_place { MTP_PLACE_FOLDER, MTP_PLACE_ROOT, MTP_PLACE_EXISTING, MTP_PLACE_NONE };

/* how a send failed, from what libmtp and the device said */
struct mtp_send_outcome {
	bool stopped;	/* signal_stop */
	bool gone;	/* the device disconnected */
	bool made;	/* the device gave the object a handle (its info was taken) */
	bool all_taken; /* every byte was handed to libmtp */
	bool accepted;	/* the device answered the send itself OK: libmtp failed after it */
};
enum mtp_send_fault {
	MTP_FAULT_REFUSED, /* no object made */
	MTP_FAULT_DATA,	   /* made, its data refused or cut */
	MTP_FAULT_REREAD,  /* delivered whole, but not readable by the handle the device gave */
	MTP_FAULT_GONE,
	MTP_FAULT_STOPPED,
};
enum mtp_send_fault mtp_send_fault_of(const struct mtp_send_outcome *o);
/*
 * After a send into at failed with fault: the place to try the same file
 * next, MTP_PLACE_NONE when the failure stands (a place that took a file
 * before is not the cause, proven; a signal or a disconnect is no quirk).
 * Folder, then root, then an existing folder. A REREAD fault is first
 * answered by looking the object up by name where it was sent (engine.c).
 */
enum mtp_place mtp_next_place(enum mtp_place at, bool proven, enum mtp_send_fault fault);
/* "folder", "root", "existing-folder" */
const char *mtp_place_name(enum mtp_place p);

/* --- the device (engine.c with libmtp, engine_none.c without) --- */

bool mtp_available(void);

/* an MTP device libmtp detected on the bus */
struct mtp_raw {
	unsigned busnum, devnum;
	unsigned vid, pid;
};
/* libmtp's detection: -ENODEV none, -EIO (why) */
int mtp_detect(struct mtp_raw **ret_v, size_t *ret_n, char *why, size_t why_len);

struct mtp_storage {
	uint32_t id;
	char *description;
	uint64_t capacity, free_bytes;
	bool read_only;
};

struct mtp_devinfo {
	char *manufacturer, *model, *serial, *version; /* libmtp's; NULL unknown */
	struct mtp_storage *storages;
	size_t nstorages;
};
void mtp_devinfo_release(struct mtp_devinfo *d);

struct mtp_session;
/*
 * Open the device (libmtp's session), read its facts and storages. -EACCES
 * locked or waiting for the user's approval (why: libmtp's error), -ENODEV
 * gone, -EIO.
 */
int mtp_open(const struct mtp_raw *dev, struct mtp_session **ret, struct mtp_devinfo *info,
	     char *why, size_t why_len);
/*
 * Where the files go: storage id, and a folder named name in its root,
 * created (and removed by mtp_cleanup) unless one of that name exists
 * (then only what usbperf put there is removed). -EIO (why).
 */
int mtp_use_folder(struct mtp_session *s, uint32_t storage, const char *name, bool *ret_created,
		   char *why, size_t why_len);
/*
 * Send a file of r->bytes (pattern seed), get it back comparing the bytes,
 * delete it; append the two times to r (r->n). -EINTR signal_stop (after the
 * send, the file deleted), -EBADMSG the bytes back differ (why: where), -ENODEV the device
 * went away, -EIO (why).
 */
int mtp_transfer(struct mtp_session *s, struct mtp_size_result *r, uint32_t seed, char *why,
		 size_t why_len);
/* the small objects: sent, the folder listed, each deleted; r->count and size set */
int mtp_objects(struct mtp_session *s, struct mtp_objects_result *r, char *why, size_t why_len);
/* where the files went and how; valid after mtp_use_folder, until mtp_close */
struct mtp_path {
	enum mtp_place place;
	const char *folder; /* the folder they went into; NULL the storage's root */
	bool reread;	    /* found by name: the handles the device gave were not readable */
	bool proven;	    /* a file went there whole (else it is the last place tried) */
	const char *why;    /* the failure that moved them, or had them found by name; NULL none */
};
void mtp_send_path(const struct mtp_session *s, struct mtp_path *ret);
/*
 * Delete what is left of usbperf's objects (those it tracked, and its
 * session's names wherever it sent) and the folder it created; the number
 * of its objects the device still shows. Safe after any error; once.
 */
unsigned mtp_cleanup(struct mtp_session *s);
/* end the session; NULL-safe */
void mtp_close(struct mtp_session *s);

/* --- findings (findings.c) --- */

struct mtp_analysis {
	const char *device; /* "1-1" */
	enum usb_speed speed;
	double ceiling_mb_s; /* the link's bulk ceiling per direction, 0 unknown */
	const struct mtp_size_result *sizes;
	size_t nsizes;
	const struct mtp_objects_result *objects; /* NULL: not measured */
};
void mtp_findings(const struct mtp_analysis *a, struct finding_list *out);
/* "mtp.storage_figures" when the storage's figures cannot be true (mtp_storage_judge) */
void mtp_storage_findings(const char *device, const char *storage, uint32_t id, uint64_t capacity,
			  uint64_t free_bytes, struct finding_list *out);
/* "mtp.send_path" when the files went elsewhere than folder, or were found by name */
void mtp_path_findings(const char *device, const char *folder, const struct mtp_path *p,
		       struct finding_list *out);

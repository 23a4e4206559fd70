/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Lab test equipment, not part of usbperf: mtp-sim, an MTP responder of its
 * own (a FunctionFS function), written for the lab as a second, separate
 * implementation of the device side beside Debian's umtprd. See mtp-sim.c
 * for what it serves and the quirks it can reproduce.
 *
 * mtp-sim.c: options, FunctionFS (descriptors, ep0, the bulk container
 * stream); mtp-sim-store.c: the object store over a directory, the
 * datasets; mtp-sim-ops.c: the operations.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define SIM_MAX_STORAGES 4
#define SIM_ROOT 0xffffffffu /* ParentObject meaning a storage's root, as parameters carry it */

/* the field quirks it reproduces on request (--quirk) */
enum {
	/* objects sent into a folder made in this session cannot be re-read or deleted by
	 * their handle after SendObject, nor are they listed: the folder's index is stale;
	 * deleting the folder removes them with it */
	QUIRK_STALE_NEW_FOLDER = 1 << 0,
	/* an object's handle changes when its data arrives: the handle SendObjectInfo or
	 * SendObjectPropList answered is no longer valid, the listing has the new one */
	QUIRK_NEW_HANDLE = 1 << 1,
	/* no files in a storage's root (folders only), as some cameras and players */
	QUIRK_NO_ROOT_FILES = 1 << 2,
	/* no new folders: the host gets AccessDenied for one */
	QUIRK_NO_NEW_FOLDERS = 1 << 3,
};

struct sim_storage {
	uint32_t id;
	char *dir;
	char *desc;
	bool ro;
};

struct sim_obj {
	uint32_t storage;
	uint32_t parent; /* a handle; 0: the storage's root */
	char *name;
	uint64_t size;
	time_t mtime;
	bool folder;
	bool live;	   /* not deleted, handle not retired */
	bool stale;	   /* QUIRK_STALE_NEW_FOLDER: invisible by its handle */
	bool session_made; /* a folder made in the open session */
	bool partial;	   /* its data never arrived whole */
};

struct sim {
	/* what it serves */
	struct sim_storage st[SIM_MAX_STORAGES];
	unsigned nst;
	uint64_t capacity, free_bytes; /* UINT64_MAX: the filesystem's own figure */
	unsigned quirks;
	unsigned long fail_send_from; /* SendObject number N and later answer StoreFull; 0 never */
	size_t packet, bufsize;
	const char *manufacturer, *model, *serial;
	/* FunctionFS */
	int ep0, in, out;
	unsigned char *buf;
	/* the session and the objects (handle = index + 1, never reused) */
	bool open;
	struct sim_obj *obj;
	size_t nobj, alloc;
	uint32_t pending; /* the object SendObject fills, 0 none */
	unsigned long sends;
	/* what it served, printed at exit */
	unsigned long ops, refused, bytes_in, bytes_out;
};

/* one command container */
struct sim_cmd {
	uint16_t code;
	uint32_t tid;
	uint32_t p[5];
	unsigned np;
};

/* --- PTP and MTP codes (PIMA 15740, MTP 1.1) --- */

/* responses */
#define RC_OK 0x2001
#define RC_GENERAL_ERROR 0x2002
#define RC_SESSION_NOT_OPEN 0x2003
#define RC_OPERATION_NOT_SUPPORTED 0x2005
#define RC_PARAMETER_NOT_SUPPORTED 0x2006
#define RC_INVALID_STORAGE_ID 0x2008
#define RC_INVALID_OBJECT_HANDLE 0x2009
#define RC_STORE_FULL 0x200c
#define RC_STORE_READ_ONLY 0x200e
#define RC_ACCESS_DENIED 0x200f
#define RC_NO_VALID_OBJECT_INFO 0x2015
#define RC_INVALID_PARENT_OBJECT 0x201a
#define RC_INVALID_PARAMETER 0x201d
#define RC_INVALID_OBJECT_PROP_CODE 0xa801
#define RC_SPEC_BY_GROUP_UNSUPPORTED 0xa807
#define RC_SPEC_BY_DEPTH_UNSUPPORTED 0xa808

#define FMT_UNDEFINED 0x3000
#define FMT_ASSOCIATION 0x3001

/* object properties and their data types */
#define PROP_STORAGE_ID 0xdc01
#define PROP_OBJECT_FORMAT 0xdc02
#define PROP_PROTECTION 0xdc03
#define PROP_OBJECT_SIZE 0xdc04
#define PROP_FILE_NAME 0xdc07
#define PROP_DATE_MODIFIED 0xdc09
#define PROP_PARENT 0xdc0b
#define PROP_NAME 0xdc44
#define DT_UINT8 0x0002
#define DT_UINT16 0x0004
#define DT_UINT32 0x0006
#define DT_UINT64 0x0008
#define DT_STR 0xffff

/* --- the store and the datasets (mtp-sim-store.c) --- */

/* a dataset being built: little-endian integers, PTP strings and arrays */
struct pk {
	unsigned char *p;
	size_t n, alloc;
	bool oom;
};
void sim_put(struct pk *b, uint64_t v, unsigned bytes);
/* a PTP string: a count of UTF-16 units with the terminating NUL, then the units */
void sim_put_str(struct pk *b, const char *s);
void sim_put_arr16(struct pk *b, const uint16_t *v, size_t n);
/* a PTP string at p (len bytes left) to UTF-8 in out; the bytes it took, 0 malformed */
size_t sim_get_str(const unsigned char *p, size_t len, char *out, size_t outlen);
/* the dataset as the command's data phase, then OK (GeneralError out of memory); b freed */
void sim_reply_data(struct sim *s, const struct sim_cmd *c, struct pk *b);

struct sim_storage *sim_storage_of(struct sim *s, uint32_t id);
/* the object a handle names as the host may see it: live and not hidden by a quirk */
struct sim_obj *sim_lookup(struct sim *s, uint32_t h);
uint32_t sim_handle_of(const struct sim *s, const struct sim_obj *o);
/* a new object; its handle, 0 out of memory */
uint32_t sim_add_obj(struct sim *s, uint32_t storage, uint32_t parent, const char *name,
		     bool folder, uint64_t size, time_t mtime);
/* the object's path on disk; -1 too long */
int sim_path_of(const struct sim *s, const struct sim_obj *o, char *buf, size_t len);

/* --- the container stream (mtp-sim.c) --- */

/* the response container; 0 or -1 */
int sim_respond(struct sim *s, const struct sim_cmd *c, uint16_t code, unsigned np,
		const uint32_t *p);
/* a data container device -> host from memory */
int sim_send_data(struct sim *s, const struct sim_cmd *c, const void *data, size_t len);
/* a data container device -> host from a file descriptor, size bytes */
int sim_send_fd(struct sim *s, const struct sim_cmd *c, int fd, uint64_t size);
/*
 * The data container host -> device of the command: each piece of its
 * payload to sink (NULL: dropped); the payload's length. announced stands in
 * for a length field of 0xffffffff (a payload of 4 GiB or more). -1: the
 * stream broke (the host went away, or sent no data container).
 */
typedef int (*sim_sink)(void *ctx, const unsigned char *p, size_t n);
int sim_recv_data(struct sim *s, const struct sim_cmd *c, uint64_t announced, sim_sink sink,
		  void *ctx, uint64_t *ret_len);

/* every storage's tree as objects (mtp-sim-store.c); -1 (said on stderr) */
int sim_scan(struct sim *s);
/* the host reset the device or closed the session (mtp-sim-store.c) */
void sim_session_end(struct sim *s);

/* --- the operations (mtp-sim-ops.c) --- */

/* one operation: its data phase if any, its response */
void sim_dispatch(struct sim *s, const struct sim_cmd *c);

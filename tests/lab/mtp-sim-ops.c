// SPDX-License-Identifier: MIT
/*
 * mtp-sim's operations (see mtp-sim.c), each from the PTP and MTP
 * specifications (PIMA 15740 5.x, MTP 1.1 5.x and appendix B): its data
 * phase if any, its response.
 */
#define _GNU_SOURCE
#include "mtp-sim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* operations */
#define OP_GET_DEVICE_INFO 0x1001
#define OP_OPEN_SESSION 0x1002
#define OP_CLOSE_SESSION 0x1003
#define OP_GET_STORAGE_IDS 0x1004
#define OP_GET_STORAGE_INFO 0x1005
#define OP_GET_NUM_OBJECTS 0x1006
#define OP_GET_OBJECT_HANDLES 0x1007
#define OP_GET_OBJECT_INFO 0x1008
#define OP_GET_OBJECT 0x1009
#define OP_DELETE_OBJECT 0x100b
#define OP_SEND_OBJECT_INFO 0x100c
#define OP_SEND_OBJECT 0x100d
#define OP_GET_OBJECT_PROPS_SUPPORTED 0x9801
#define OP_GET_OBJECT_PROP_DESC 0x9802
#define OP_GET_OBJECT_PROP_VALUE 0x9803
#define OP_GET_OBJ_PROP_LIST 0x9805
#define OP_SEND_OBJECT_PROP_LIST 0x9808

static const uint16_t ops[] = {
    OP_GET_DEVICE_INFO,
    OP_OPEN_SESSION,
    OP_CLOSE_SESSION,
    OP_GET_STORAGE_IDS,
    OP_GET_STORAGE_INFO,
    OP_GET_NUM_OBJECTS,
    OP_GET_OBJECT_HANDLES,
    OP_GET_OBJECT_INFO,
    OP_GET_OBJECT,
    OP_DELETE_OBJECT,
    OP_SEND_OBJECT_INFO,
    OP_SEND_OBJECT,
    OP_GET_OBJECT_PROPS_SUPPORTED,
    OP_GET_OBJECT_PROP_DESC,
    OP_GET_OBJECT_PROP_VALUE,
    OP_GET_OBJ_PROP_LIST,
    OP_SEND_OBJECT_PROP_LIST,
};

static const struct {
	uint16_t code, type;
	bool settable;
} props[] = {
    {PROP_STORAGE_ID, DT_UINT32, false}, {PROP_OBJECT_FORMAT, DT_UINT16, false},
    {PROP_PROTECTION, DT_UINT16, false}, {PROP_OBJECT_SIZE, DT_UINT64, false},
    {PROP_FILE_NAME, DT_STR, true},	 {PROP_DATE_MODIFIED, DT_STR, false},
    {PROP_PARENT, DT_UINT32, false},	 {PROP_NAME, DT_STR, false},
};
#define NPROPS (sizeof(props) / sizeof(props[0]))

/* --- device, session, storages --- */

static void op_device_info(struct sim *s, const struct sim_cmd *c)
{
	static const uint16_t formats[] = {FMT_UNDEFINED, FMT_ASSOCIATION};
	struct pk b = {0};

	sim_put(&b, 100, 2); /* PTP 1.00 */
	sim_put(&b, 6, 4);   /* the MTP vendor extension */
	sim_put(&b, 100, 2);
	sim_put_str(&b, "microsoft.com: 1.0;");
	sim_put(&b, 0, 2); /* functional mode */
	sim_put_arr16(&b, ops, sizeof(ops) / sizeof(ops[0]));
	sim_put_arr16(&b, NULL, 0); /* events */
	sim_put_arr16(&b, NULL, 0); /* device properties */
	sim_put_arr16(&b, NULL, 0); /* capture formats */
	sim_put_arr16(&b, formats, 2);
	sim_put_str(&b, s->manufacturer);
	sim_put_str(&b, s->model);
	sim_put_str(&b, "1.0");
	sim_put_str(&b, s->serial);
	sim_reply_data(s, c, &b);
}

static void op_storage_ids(struct sim *s, const struct sim_cmd *c)
{
	struct pk b = {0};

	sim_put(&b, s->nst, 4);
	for (unsigned i = 0; i < s->nst; i++)
		sim_put(&b, s->st[i].id, 4);
	sim_reply_data(s, c, &b);
}

static void op_storage_info(struct sim *s, const struct sim_cmd *c)
{
	struct sim_storage *st = sim_storage_of(s, c->p[0]);
	struct statvfs v;
	uint64_t cap = 0, avail = 0;
	struct pk b = {0};

	if (!st) {
		sim_respond(s, c, RC_INVALID_STORAGE_ID, 0, NULL);
		return;
	}
	if (statvfs(st->dir, &v) == 0) {
		cap = (uint64_t)v.f_blocks * v.f_frsize;
		avail = (uint64_t)v.f_bavail * v.f_frsize;
	}
	sim_put(&b, 3, 2);		/* fixed RAM */
	sim_put(&b, 2, 2);		/* generic hierarchical */
	sim_put(&b, st->ro ? 1 : 0, 2); /* read-write, or read-only without delete */
	sim_put(&b, s->capacity != UINT64_MAX ? s->capacity : cap, 8);
	sim_put(&b, s->free_bytes != UINT64_MAX ? s->free_bytes : avail, 8);
	sim_put(&b, 0xffffffffu, 4); /* free space in objects: not used */
	sim_put_str(&b, st->desc);
	sim_put_str(&b, "");
	sim_reply_data(s, c, &b);
}

/* --- listing and reading --- */

/* what GetObjectHandles and GetNumObjects select: storage, format, parent; -1 refused */
static long select_objs(struct sim *s, const struct sim_cmd *c, uint32_t *out)
{
	uint32_t storage = c->p[0], format = c->p[1], parent = c->p[2];
	long n = 0;

	if (storage != 0xffffffffu && !sim_storage_of(s, storage))
		return -RC_INVALID_STORAGE_ID;
	/* 0xffffffff: the root; 0: every object; else a folder the host can see */
	if (parent != SIM_ROOT && parent != 0 &&
	    (!sim_lookup(s, parent) || !s->obj[parent - 1].folder))
		return -RC_INVALID_PARENT_OBJECT;
	for (size_t i = 0; i < s->nobj; i++) {
		const struct sim_obj *o = &s->obj[i];

		if (!o->live || o->stale || (storage != 0xffffffffu && o->storage != storage) ||
		    (format && format != (o->folder ? FMT_ASSOCIATION : FMT_UNDEFINED)))
			continue;
		if (parent == SIM_ROOT ? o->parent != 0 : parent && o->parent != parent)
			continue;
		if (out)
			out[n] = (uint32_t)i + 1;
		n++;
	}
	return n;
}

static void op_handles(struct sim *s, const struct sim_cmd *c)
{
	uint32_t *v = malloc((s->nobj + 1) * sizeof(*v));
	long n = v ? select_objs(s, c, v) : -RC_GENERAL_ERROR;
	struct pk b = {0};

	if (n < 0) {
		sim_respond(s, c, (uint16_t)-n, 0, NULL);
	} else if (c->code == OP_GET_NUM_OBJECTS) {
		uint32_t p = (uint32_t)n;

		sim_respond(s, c, RC_OK, 1, &p);
	} else {
		sim_put(&b, (uint64_t)n, 4);
		for (long i = 0; i < n; i++)
			sim_put(&b, v[i], 4);
		sim_reply_data(s, c, &b);
	}
	free(v);
}

static void date_of(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y%m%dT%H%M%S", &tm);
}

static void op_object_info(struct sim *s, const struct sim_cmd *c)
{
	const struct sim_obj *o = sim_lookup(s, c->p[0]);
	struct pk b = {0};
	char date[32];

	if (!o) {
		sim_respond(s, c, RC_INVALID_OBJECT_HANDLE, 0, NULL);
		return;
	}
	date_of(o->mtime, date, sizeof(date));
	sim_put(&b, o->storage, 4);
	sim_put(&b, o->folder ? FMT_ASSOCIATION : FMT_UNDEFINED, 2);
	sim_put(&b, 0, 2); /* no protection */
	sim_put(&b, o->size > 0xfffffffeu ? 0xffffffffu : o->size, 4);
	sim_put(&b, 0, 2); /* no thumbnail: format, size, width, height */
	sim_put(&b, 0, 4);
	sim_put(&b, 0, 4);
	sim_put(&b, 0, 4);
	sim_put(&b, 0, 4); /* image width, height, depth */
	sim_put(&b, 0, 4);
	sim_put(&b, 0, 4);
	sim_put(&b, o->parent, 4);
	sim_put(&b, o->folder ? 1 : 0, 2); /* generic folder */
	sim_put(&b, 0, 4);
	sim_put(&b, 0, 4);
	sim_put_str(&b, o->name);
	sim_put_str(&b, "");
	sim_put_str(&b, date);
	sim_put_str(&b, "");
	sim_reply_data(s, c, &b);
}

static void op_get_object(struct sim *s, const struct sim_cmd *c)
{
	const struct sim_obj *o = sim_lookup(s, c->p[0]);
	char path[4096];
	int fd;

	if (!o || o->folder || sim_path_of(s, o, path, sizeof(path)) < 0) {
		sim_respond(s, c, RC_INVALID_OBJECT_HANDLE, 0, NULL);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		sim_respond(s, c, RC_GENERAL_ERROR, 0, NULL);
		return;
	}
	if (sim_send_fd(s, c, fd, o->size) == 0)
		sim_respond(s, c, RC_OK, 0, NULL);
	close(fd);
}

/* --- object properties --- */

static int prop_index(uint32_t code)
{
	for (unsigned i = 0; i < NPROPS; i++)
		if (props[i].code == code)
			return (int)i;
	return -1;
}

static void put_value(struct pk *b, const struct sim_obj *o, uint16_t code)
{
	char date[32];

	switch (code) {
	case PROP_STORAGE_ID:
		sim_put(b, o->storage, 4);
		break;
	case PROP_OBJECT_FORMAT:
		sim_put(b, o->folder ? FMT_ASSOCIATION : FMT_UNDEFINED, 2);
		break;
	case PROP_PROTECTION:
		sim_put(b, 0, 2);
		break;
	case PROP_OBJECT_SIZE:
		sim_put(b, o->size, 8);
		break;
	case PROP_DATE_MODIFIED:
		date_of(o->mtime, date, sizeof(date));
		sim_put_str(b, date);
		break;
	case PROP_PARENT:
		sim_put(b, o->parent, 4);
		break;
	default: /* the file name, the name */
		sim_put_str(b, o->name);
	}
}

static void op_props_supported(struct sim *s, const struct sim_cmd *c)
{
	struct pk b = {0};

	sim_put(&b, NPROPS, 4);
	for (unsigned i = 0; i < NPROPS; i++)
		sim_put(&b, props[i].code, 2);
	sim_reply_data(s, c, &b);
}

static void op_prop_desc(struct sim *s, const struct sim_cmd *c)
{
	int i = prop_index(c->p[0]);
	struct pk b = {0};

	if (i < 0) {
		sim_respond(s, c, RC_INVALID_OBJECT_PROP_CODE, 0, NULL);
		return;
	}
	sim_put(&b, props[i].code, 2);
	sim_put(&b, props[i].type, 2);
	sim_put(&b, props[i].settable, 1);
	if (props[i].type == DT_STR)
		sim_put(&b, 0, 1); /* the default: an empty string */
	else
		sim_put(&b, 0, props[i].type == DT_UINT64 ? 8 : props[i].type == DT_UINT32 ? 4 : 2);
	sim_put(&b, 0, 4); /* group */
	sim_put(&b, 0, 1); /* no form */
	sim_reply_data(s, c, &b);
}

static void op_prop_value(struct sim *s, const struct sim_cmd *c)
{
	const struct sim_obj *o = sim_lookup(s, c->p[0]);
	struct pk b = {0};

	if (!o || prop_index(c->p[1]) < 0) {
		sim_respond(s, c, o ? RC_INVALID_OBJECT_PROP_CODE : RC_INVALID_OBJECT_HANDLE, 0,
			    NULL);
		return;
	}
	put_value(&b, o, (uint16_t)c->p[1]);
	sim_reply_data(s, c, &b);
}

/* GetObjPropList: one object (depth 0), every property or one, no groups */
static void op_prop_list(struct sim *s, const struct sim_cmd *c)
{
	const struct sim_obj *o = sim_lookup(s, c->p[0]);
	uint32_t want = c->p[2];
	struct pk b = {0};
	unsigned n = 0;

	if (c->p[4] != 0 || c->p[0] == 0 || c->p[0] == 0xffffffffu) {
		sim_respond(s, c, RC_SPEC_BY_DEPTH_UNSUPPORTED, 0, NULL);
		return;
	}
	if (c->p[3] != 0 && want == 0) {
		sim_respond(s, c, RC_SPEC_BY_GROUP_UNSUPPORTED, 0, NULL);
		return;
	}
	if (!o || (want != 0xffffffffu && prop_index(want) < 0)) {
		sim_respond(s, c, o ? RC_INVALID_OBJECT_PROP_CODE : RC_INVALID_OBJECT_HANDLE, 0,
			    NULL);
		return;
	}
	for (unsigned i = 0; i < NPROPS; i++)
		n += want == 0xffffffffu || want == props[i].code;
	sim_put(&b, n, 4);
	for (unsigned i = 0; i < NPROPS; i++) {
		if (want != 0xffffffffu && want != props[i].code)
			continue;
		sim_put(&b, c->p[0], 4);
		sim_put(&b, props[i].code, 2);
		sim_put(&b, props[i].type, 2);
		put_value(&b, o, props[i].code);
	}
	sim_reply_data(s, c, &b);
}

/* --- creating, filling and deleting --- */

struct collect {
	unsigned char *p;
	size_t n, max;
};

/* a dataset's bytes (SendObjectInfo, SendObjectPropList), at most max */
static int collect(void *ctx, const unsigned char *p, size_t n)
{
	struct collect *k = ctx;

	if (k->n + n > k->max)
		return -1;
	memcpy(k->p + k->n, p, n);
	k->n += n;
	return 0;
}

/* an object's name from a SendObjectPropList dataset; -1 malformed or none */
static int name_from_proplist(const unsigned char *p, size_t len, char *name, size_t namelen)
{
	size_t off = 4,
	       n = len >= 4 ? (p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24)
			    : 0;
	int found = -1;

	for (size_t i = 0; i < n; i++) {
		uint16_t code, type;
		size_t used;

		if (off + 8 > len)
			return -1;
		code = (uint16_t)(p[off + 4] | p[off + 5] << 8);
		type = (uint16_t)(p[off + 6] | p[off + 7] << 8);
		off += 8;
		if (type == DT_STR) {
			char tmp[1024];

			used = sim_get_str(p + off, len - off, tmp, sizeof(tmp));
			if (!used)
				return -1;
			if (code == PROP_FILE_NAME && snprintf(name, namelen, "%s", tmp) > 0)
				found = 0;
		} else {
			used = type == DT_UINT8	   ? 1
			       : type == DT_UINT16 ? 2
			       : type == DT_UINT32 ? 4
			       : type == DT_UINT64 ? 8
						   : 0;
			if (!used || off + used > len)
				return -1;
		}
		off += used;
	}
	return found;
}

/* the new object's checks and creation on disk; a response code, *ret_h its handle */
static uint16_t create(struct sim *s, uint32_t storage, uint32_t parent, const char *name,
		       bool folder, uint64_t size, uint32_t *ret_h)
{
	struct sim_storage *st = sim_storage_of(s, storage ? storage : s->st[0].id);
	char path[4096];
	uint32_t h;
	int fd;

	if (!st)
		return RC_INVALID_STORAGE_ID;
	if (st->ro)
		return RC_STORE_READ_ONLY;
	if (parent == SIM_ROOT)
		parent = 0;
	if (parent && (!sim_lookup(s, parent) || !s->obj[parent - 1].folder ||
		       s->obj[parent - 1].storage != st->id))
		return RC_INVALID_PARENT_OBJECT;
	if (!parent && !folder && (s->quirks & QUIRK_NO_ROOT_FILES))
		return RC_INVALID_PARENT_OBJECT;
	if (folder && (s->quirks & QUIRK_NO_NEW_FOLDERS))
		return RC_ACCESS_DENIED;
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return RC_INVALID_PARAMETER;
	h = sim_add_obj(s, st->id, parent, name, folder, 0, time(NULL));
	if (!h || sim_path_of(s, &s->obj[h - 1], path, sizeof(path)) < 0)
		return RC_GENERAL_ERROR;
	/* a name already there (MTP allows two, a directory does not): refused */
	if (folder ? mkdir(path, 0755) < 0
		   : (fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0) {
		s->obj[h - 1].live = false;
		return RC_GENERAL_ERROR;
	}
	if (!folder)
		close(fd);
	s->obj[h - 1].session_made = folder;
	s->obj[h - 1].partial = !folder && size > 0;
	s->pending = folder ? 0 : h;
	*ret_h = h;
	return RC_OK;
}

static void op_send_info(struct sim *s, const struct sim_cmd *c)
{
	unsigned char data[2048];
	struct collect k = {data, 0, sizeof(data)};
	char name[1024] = "";
	uint64_t len = 0, size = 0;
	uint16_t rc = RC_INVALID_PARAMETER;
	uint32_t h = 0, parent = c->p[1];
	bool folder = false;

	/* the data phase comes first, whatever the answer: the stream stays in step */
	if (sim_recv_data(s, c, 0, collect, &k, &len) < 0)
		return;
	if (c->code == OP_SEND_OBJECT_INFO && k.n > 53 &&
	    sim_get_str(data + 52, k.n - 52, name, sizeof(name))) {
		folder = (data[4] | data[5] << 8) == FMT_ASSOCIATION;
		size = data[8] | (uint64_t)data[9] << 8 | (uint64_t)data[10] << 16 |
		       (uint64_t)data[11] << 24;
		rc = RC_OK;
	} else if (c->code == OP_SEND_OBJECT_PROP_LIST &&
		   name_from_proplist(data, k.n, name, sizeof(name)) == 0) {
		folder = c->p[2] == FMT_ASSOCIATION;
		size = (uint64_t)c->p[3] << 32 | c->p[4];
		rc = RC_OK;
	}
	if (rc == RC_OK)
		rc = create(s, c->p[0], parent == 0 ? SIM_ROOT : parent, name, folder, size, &h);
	if (rc != RC_OK) {
		sim_respond(s, c, rc, 0, NULL);
		return;
	}
	sim_respond(s, c, RC_OK, 3,
		    (uint32_t[]){s->obj[h - 1].storage,
				 s->obj[h - 1].parent ? s->obj[h - 1].parent : SIM_ROOT, h});
}

struct filling {
	int fd;
	bool failed;
};

static int fill(void *ctx, const unsigned char *p, size_t n)
{
	struct filling *f = ctx;

	if (write(f->fd, p, n) != (ssize_t)n) {
		f->failed = true;
		return -1;
	}
	return 0;
}

/* the quirks that follow a send whose data arrived whole */
static void after_send(struct sim *s, uint32_t h)
{
	struct sim_obj *o = &s->obj[h - 1];

	if ((s->quirks & QUIRK_STALE_NEW_FOLDER) && o->parent && s->obj[o->parent - 1].session_made)
		o->stale = true;
	if (s->quirks & QUIRK_NEW_HANDLE) {
		/* the same file under a new handle; the one the host was given retired */
		uint32_t nh =
		    sim_add_obj(s, o->storage, o->parent, o->name, false, o->size, o->mtime);

		if (nh) {
			s->obj[nh - 1].stale = s->obj[h - 1].stale;
			s->obj[h - 1].live = false;
		}
	}
}

/* the data of the object last announced */
static void op_send_object(struct sim *s, const struct sim_cmd *c)
{
	uint32_t h = s->pending;
	struct filling f = {.fd = -1};
	char path[4096];
	uint64_t len = 0;
	bool full;

	s->sends++;
	full = s->fail_send_from && s->sends >= s->fail_send_from;
	if (h && s->obj[h - 1].live && sim_path_of(s, &s->obj[h - 1], path, sizeof(path)) == 0)
		f.fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (sim_recv_data(s, c, 0, f.fd >= 0 ? fill : NULL, &f, &len) < 0) {
		if (f.fd >= 0)
			close(f.fd);
		return;
	}
	if (f.fd < 0) {
		sim_respond(s, c, h ? RC_GENERAL_ERROR : RC_NO_VALID_OBJECT_INFO, 0, NULL);
		return;
	}
	close(f.fd);
	s->pending = 0;
	s->obj[h - 1].mtime = time(NULL);
	s->obj[h - 1].size = len;
	/* a store that fills mid-write: half of the bytes on disk, the object left behind */
	if (full || f.failed) {
		if (truncate(path, (off_t)(len / 2)) == 0)
			s->obj[h - 1].size = len / 2;
		sim_respond(s, c, RC_STORE_FULL, 0, NULL);
		return;
	}
	s->obj[h - 1].partial = false;
	after_send(s, h);
	sim_respond(s, c, RC_OK, 0, NULL);
}

/* an object and, for a folder, everything in it, from disk and from the handles */
static int remove_tree(struct sim *s, struct sim_obj *o)
{
	char path[4096];
	uint32_t h = sim_handle_of(s, o);

	if (o->folder)
		for (size_t i = 0; i < s->nobj; i++)
			if (s->obj[i].live && s->obj[i].parent == h &&
			    remove_tree(s, &s->obj[i]) < 0)
				return -1;
	if (sim_path_of(s, o, path, sizeof(path)) < 0 ||
	    (o->folder ? rmdir(path) : unlink(path)) < 0)
		return -1;
	o->live = false;
	if (s->pending == h)
		s->pending = 0;
	return 0;
}

static void op_delete(struct sim *s, const struct sim_cmd *c)
{
	struct sim_obj *o = sim_lookup(s, c->p[0]);

	if (c->p[0] == 0xffffffffu)
		sim_respond(s, c, RC_PARAMETER_NOT_SUPPORTED, 0, NULL);
	else if (!o)
		sim_respond(s, c, RC_INVALID_OBJECT_HANDLE, 0, NULL);
	else if (sim_storage_of(s, o->storage)->ro)
		sim_respond(s, c, RC_STORE_READ_ONLY, 0, NULL);
	else
		sim_respond(s, c, remove_tree(s, o) == 0 ? RC_OK : RC_GENERAL_ERROR, 0, NULL);
}

/* --- dispatch --- */

void sim_dispatch(struct sim *s, const struct sim_cmd *c)
{
	uint64_t len;

	if (c->code == OP_GET_DEVICE_INFO) {
		op_device_info(s, c);
		return;
	}
	if (c->code == OP_OPEN_SESSION) {
		/* a session a killed host left open is taken over, not refused */
		sim_session_end(s);
		s->open = true;
		sim_respond(s, c, RC_OK, 0, NULL);
		return;
	}
	if (!s->open) {
		/* a command with a data phase would leave its data behind: take it */
		if (c->code == OP_SEND_OBJECT || c->code == OP_SEND_OBJECT_INFO ||
		    c->code == OP_SEND_OBJECT_PROP_LIST)
			(void)sim_recv_data(s, c, 0, NULL, NULL, &len);
		sim_respond(s, c, RC_SESSION_NOT_OPEN, 0, NULL);
		return;
	}
	switch (c->code) {
	case OP_CLOSE_SESSION:
		sim_session_end(s);
		sim_respond(s, c, RC_OK, 0, NULL);
		break;
	case OP_GET_STORAGE_IDS:
		op_storage_ids(s, c);
		break;
	case OP_GET_STORAGE_INFO:
		op_storage_info(s, c);
		break;
	case OP_GET_NUM_OBJECTS:
	case OP_GET_OBJECT_HANDLES:
		op_handles(s, c);
		break;
	case OP_GET_OBJECT_INFO:
		op_object_info(s, c);
		break;
	case OP_GET_OBJECT:
		op_get_object(s, c);
		break;
	case OP_DELETE_OBJECT:
		op_delete(s, c);
		break;
	case OP_SEND_OBJECT_INFO:
	case OP_SEND_OBJECT_PROP_LIST:
		op_send_info(s, c);
		break;
	case OP_SEND_OBJECT:
		op_send_object(s, c);
		break;
	case OP_GET_OBJECT_PROPS_SUPPORTED:
		op_props_supported(s, c);
		break;
	case OP_GET_OBJECT_PROP_DESC:
		op_prop_desc(s, c);
		break;
	case OP_GET_OBJECT_PROP_VALUE:
		op_prop_value(s, c);
		break;
	case OP_GET_OBJ_PROP_LIST:
		op_prop_list(s, c);
		break;
	default:
		sim_respond(s, c, RC_OPERATION_NOT_SUPPORTED, 0, NULL);
	}
}

// SPDX-License-Identifier: MIT
/*
 * usbperf mtp's engine: libmtp's session with the device, files streamed
 * from and to handlers (the pattern generated and checked on the fly, no
 * file on the host), every object created tracked until it is deleted.
 *
 * libmtp writes its diagnostics itself, to stdout as well as stderr, which
 * would mix with usbperf's results: its calls run with fd 1 on /dev/null and
 * fd 2 on a memory file, whose last line stands in when the device's error
 * stack says nothing.
 */
#include "classes/mtp/engine_priv.h"
#include "util/clock.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool mtp_available(void)
{
	return true;
}

/* --- libmtp's own output kept off usbperf's streams --- */

void quiet_begin(struct quiet *q)
{
	int null;

	fflush(stdout);
	fflush(stderr);
	q->out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	q->err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	q->cap = memfd_create("usbperf-libmtp", MFD_CLOEXEC);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0 && q->out >= 0)
		dup2(null, STDOUT_FILENO);
	if (q->cap >= 0 && q->err >= 0)
		dup2(q->cap, STDERR_FILENO);
	if (null >= 0)
		close(null);
}

void quiet_end(struct quiet *q, char *msg, size_t len)
{
	fflush(stdout);
	fflush(stderr);
	if (q->out >= 0) {
		dup2(q->out, STDOUT_FILENO);
		close(q->out);
	}
	if (q->err >= 0) {
		dup2(q->err, STDERR_FILENO);
		close(q->err);
	}
	if (q->cap < 0)
		return;
	if (msg && len) {
		off_t end = lseek(q->cap, 0, SEEK_END);
		char buf[512];
		off_t from = end > (off_t)sizeof(buf) - 1 ? end - (off_t)sizeof(buf) + 1 : 0;
		ssize_t n = pread(q->cap, buf, sizeof(buf) - 1, from);

		if (n > 0) {
			char *line, *e;

			buf[n] = 0;
			while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
				buf[--n] = 0;
			line = strrchr(buf, '\n');
			line = line ? line + 1 : buf;
			for (e = line; *e; e++)
				if ((unsigned char)*e < 0x20)
					*e = ' ';
			if (*line) {
				size_t l = strlen(line) < len - 1 ? strlen(line) : len - 1;

				memcpy(msg, line, l);
				msg[l] = 0;
			}
		}
	}
	close(q->cap);
}

static void init_once(void)
{
	static bool done;

	if (!done) {
		LIBMTP_Init();
		done = true;
	}
}

void mtp_why_from(struct mtp_session *s, const char *what, const char *fallback, char *why,
		  size_t why_len)
{
	const char *text = NULL;
	LIBMTP_error_t *e = s->dev ? LIBMTP_Get_Errorstack(s->dev) : NULL;

	for (; e; e = e->next)
		if (e->error_text && *e->error_text)
			text = e->error_text;
	if (!text && s->last_msg[0])
		text = s->last_msg;
	snprintf(why, why_len, "%s: %s", what, text ? text : fallback);
	for (char *p = why; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	if (s->dev)
		LIBMTP_Clear_Errorstack(s->dev);
	s->last_msg[0] = 0;
}

static bool still_there(const struct mtp_session *s)
{
	char node[64];

	snprintf(node, sizeof(node), "/dev/bus/usb/%03u/%03u", s->busnum, s->devnum);
	return access(node, F_OK) == 0;
}

int mtp_failed(struct mtp_session *s, const char *what, char *why, size_t why_len)
{
	if (signal_stop) {
		snprintf(why, why_len, "%s: interrupted", what);
		if (s->dev)
			LIBMTP_Clear_Errorstack(s->dev);
		return -EINTR;
	}
	/* the usbfs node goes a moment after the transfers fail: look for half a second */
	for (int i = 0; i < 5; i++) {
		if (!still_there(s)) {
			snprintf(why, why_len, "%s: the device disconnected", what);
			return -ENODEV;
		}
		usleep(100000);
	}
	mtp_why_from(s, what, "libmtp reports a failure", why, why_len);
	return -EIO;
}

/* --- detection and session --- */

int mtp_detect(struct mtp_raw **ret_v, size_t *ret_n, char *why, size_t why_len)
{
	LIBMTP_raw_device_t *raw = NULL;
	struct mtp_raw *v;
	struct quiet q;
	int n = 0;
	LIBMTP_error_number_t e;
	char msg[256] = "";

	init_once();
	quiet_begin(&q);
	e = LIBMTP_Detect_Raw_Devices(&raw, &n);
	quiet_end(&q, msg, sizeof(msg));
	if (e == LIBMTP_ERROR_NO_DEVICE_ATTACHED || (e == LIBMTP_ERROR_NONE && n <= 0)) {
		free(raw);
		return -ENODEV;
	}
	/* libusb built without udev (the static board builds) will not start where
	 * there is no usbfs at all, a board with no USB host port; with udev it
	 * starts and finds nothing. Either way: no device */
	if (e == LIBMTP_ERROR_USB_LAYER && access("/dev/bus/usb", F_OK) < 0 && errno == ENOENT) {
		free(raw);
		return -ENODEV;
	}
	if (e != LIBMTP_ERROR_NONE) {
		snprintf(why, why_len, "libmtp cannot list MTP devices (error %d)%s%s", (int)e,
			 *msg ? ": " : "", msg);
		free(raw);
		return -EIO;
	}
	v = calloc((size_t)n, sizeof(*v));
	if (!v) {
		free(raw);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		v[i].busnum = raw[i].bus_location;
		v[i].devnum = raw[i].devnum;
		v[i].vid = raw[i].device_entry.vendor_id;
		v[i].pid = raw[i].device_entry.product_id;
	}
	free(raw);
	*ret_v = v;
	*ret_n = (size_t)n;
	return 0;
}

void mtp_devinfo_release(struct mtp_devinfo *d)
{
	if (!d)
		return;
	free_all(d->manufacturer, d->model, d->serial, d->version);
	for (size_t i = 0; i < d->nstorages; i++)
		free(d->storages[i].description);
	free(d->storages);
	memset(d, 0, sizeof(*d));
}

static int read_storages(struct mtp_session *s, struct mtp_devinfo *info)
{
	LIBMTP_devicestorage_t *st;
	size_t n = 0;

	for (st = s->dev->storage; st; st = st->next)
		n++;
	if (!n)
		return 0;
	info->storages = calloc(n, sizeof(*info->storages));
	if (!info->storages)
		return -ENOMEM;
	for (st = s->dev->storage; st; st = st->next) {
		struct mtp_storage *o = &info->storages[info->nstorages++];

		o->id = st->id;
		o->description = st->StorageDescription ? strdup(st->StorageDescription) : NULL;
		o->capacity = st->MaxCapacity;
		o->free_bytes = st->FreeSpaceInBytes;
		/* PTP AccessCapability: 0 read-write, 1 read-only, 2 read-only with delete */
		o->read_only = st->AccessCapability != 0;
	}
	return 0;
}

int mtp_open(const struct mtp_raw *want, struct mtp_session **ret, struct mtp_devinfo *info,
	     char *why, size_t why_len)
{
	LIBMTP_raw_device_t *raw = NULL;
	struct mtp_session *s;
	struct mtp_devinfo d = {0};
	struct quiet q;
	int n = 0, r = -1, found = -1;

	init_once();
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->busnum = want->busnum;
	s->devnum = want->devnum;
	{
		char path[64];

		snprintf(path, sizeof(path), "/sys/bus/usb/devices/usb%u", s->busnum);
		(void)irq_lines_of_sysfs(path, NULL, &s->irq_lines);
	}
	quiet_begin(&q);
	if (LIBMTP_Detect_Raw_Devices(&raw, &n) == LIBMTP_ERROR_NONE)
		for (int i = 0; i < n; i++)
			if (raw[i].bus_location == want->busnum && raw[i].devnum == want->devnum)
				found = i;
	if (found >= 0)
		s->dev = LIBMTP_Open_Raw_Device_Uncached(&raw[found]);
	if (s->dev) {
		d.manufacturer = LIBMTP_Get_Manufacturername(s->dev);
		d.model = LIBMTP_Get_Modelname(s->dev);
		d.serial = LIBMTP_Get_Serialnumber(s->dev);
		d.version = LIBMTP_Get_Deviceversion(s->dev);
		r = LIBMTP_Get_Storage(s->dev, LIBMTP_STORAGE_SORTBY_NOTSORTED);
	}
	quiet_end(&q, s->last_msg, sizeof(s->last_msg));
	free(raw);
	if (found < 0) {
		snprintf(why, why_len, "libmtp no longer sees it");
		free(s);
		return -ENODEV;
	}
	if (!s->dev) {
		bool there = still_there(s);

		snprintf(why, why_len,
			 "libmtp cannot open a session%s%s (a phone that is locked or waits for "
			 "the user to allow file transfer refuses it)",
			 s->last_msg[0] ? ": " : "", s->last_msg);
		free(s);
		return there ? -EACCES : -ENODEV;
	}
	if (r < 0 || !s->dev->storage) {
		/* Android shows no storage until the screen is unlocked and access allowed */
		mtp_why_from(
		    s,
		    "the device shows no storage (is it locked, or waiting for the user to "
		    "allow file transfer?)",
		    "no storage listed", why, why_len);
		mtp_devinfo_release(&d);
		mtp_close(s);
		return -EACCES;
	}
	r = read_storages(s, &d);
	if (r < 0) {
		mtp_devinfo_release(&d);
		mtp_close(s);
		return r;
	}
	*info = d;
	*ret = s;
	return 0;
}

void mtp_close(struct mtp_session *s)
{
	struct quiet q;

	if (!s)
		return;
	if (s->dev) {
		quiet_begin(&q);
		LIBMTP_Release_Device(s->dev);
		quiet_end(&q, NULL, 0);
	}
	free_all(s->tracked, s->irq_lines, s->folder_name, s->existing, s->moved_why, s);
}

/* --- what usbperf created --- */

int mtp_track(struct mtp_session *s, uint32_t id)
{
	if (s->ntracked == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 64;
		uint32_t *nv = realloc(s->tracked, na * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->tracked = nv;
		s->alloc = na;
	}
	s->tracked[s->ntracked++] = id;
	return 0;
}

void mtp_untrack(struct mtp_session *s, uint32_t id)
{
	for (size_t i = 0; i < s->ntracked; i++)
		if (s->tracked[i] == id) {
			s->tracked[i] = s->tracked[--s->ntracked];
			return;
		}
}

bool mtp_tracked(const struct mtp_session *s, uint32_t id)
{
	for (size_t i = 0; i < s->ntracked; i++)
		if (s->tracked[i] == id)
			return true;
	return false;
}

int mtp_delete_object(struct mtp_session *s, uint32_t id)
{
	struct quiet q;
	int r;

	quiet_begin(&q);
	r = LIBMTP_Delete_Object(s->dev, id);
	quiet_end(&q, s->last_msg, sizeof(s->last_msg));
	if (r == 0)
		mtp_untrack(s, id);
	return r == 0 ? 0 : -EIO;
}

/* --- the transfers --- */

struct stream {
	uint32_t seed;
	uint64_t offset, total;
	int64_t mismatch; /* the first differing offset, -1 none */
};

/*
 * The handlers never cancel: a cancelled MTP transfer leaves responders such
 * as umtprd unable to delete the object or serve the next one. A signal lets
 * the file in flight finish (signals.h: "finishes the current request");
 * the callers check signal_stop between transfers, a second signal ends the
 * process at once.
 */
static uint16_t send_chunk(void *params, void *priv, uint32_t wantlen, unsigned char *data,
			   uint32_t *gotlen)
{
	struct stream *st = priv;
	uint64_t left = st->total - st->offset;
	uint32_t n = left < wantlen ? (uint32_t)left : wantlen;

	(void)params;
	mtp_pattern_fill(st->seed, st->offset, data, n);
	st->offset += n;
	*gotlen = n;
	return LIBMTP_HANDLER_RETURN_OK;
}

static uint16_t get_chunk(void *params, void *priv, uint32_t sendlen, unsigned char *data,
			  uint32_t *putlen)
{
	struct stream *st = priv;

	(void)params;
	if (st->mismatch < 0) {
		uint64_t left = st->offset < st->total ? st->total - st->offset : 0;
		size_t n = left < sendlen ? (size_t)left : sendlen;
		int64_t at = mtp_pattern_mismatch(st->seed, st->offset, data, n);

		if (at >= 0)
			st->mismatch = (int64_t)st->offset + at;
		else if (n < sendlen)
			st->mismatch = (int64_t)st->total; /* more bytes than were sent */
	}
	st->offset += sendlen;
	*putlen = sendlen;
	return LIBMTP_HANDLER_RETURN_OK;
}

/* whether the device answered the send itself: libmtp's last error is its own, not the device's */
static bool send_accepted(LIBMTP_mtpdevice_t *dev)
{
	LIBMTP_error_t *e = LIBMTP_Get_Errorstack(dev), *last = NULL;

	for (; e; e = e->next)
		last = e;
	return last && last->errornumber == LIBMTP_ERROR_GENERAL;
}

/*
 * One try at sending a file of bytes to where files go now: its id (the
 * object exists once its info was taken, even when the data then failed:
 * tracked), the seconds, how it failed (oc).
 */
static int send_once(struct mtp_session *s, const char *name, uint64_t bytes, uint32_t seed,
		     uint32_t *ret_id, double *ret_s, struct pass_sys *ret_sys,
		     struct mtp_send_outcome *oc, char *why, size_t why_len)
{
	LIBMTP_file_t *f = LIBMTP_new_file_t();
	struct stream st = {.seed = seed, .total = bytes, .mismatch = -1};
	struct passwatch pw;
	struct quiet q;
	uint64_t t0, t1;
	int r;

	if (!f)
		return -ENOMEM;
	f->filename = strdup(name);
	if (!f->filename) {
		LIBMTP_destroy_file_t(f);
		return -ENOMEM;
	}
	f->filesize = bytes;
	f->filetype = LIBMTP_FILETYPE_UNKNOWN;
	f->parent_id = s->parent;
	f->storage_id = s->storage;
	quiet_begin(&q);
	/* the object-cost loop sends many small files: not watched one by one */
	if (ret_sys)
		(void)passwatch_start(&pw, s->irq_lines);
	t0 = clock_now_ns();
	r = LIBMTP_Send_File_From_Handler(s->dev, send_chunk, &st, f, NULL, NULL);
	t1 = clock_now_ns();
	if (ret_sys)
		passwatch_stop(&pw, (double)(t1 - t0) / 1e9, ret_sys);
	quiet_end(&q, s->last_msg, sizeof(s->last_msg));
	*ret_id = f->item_id;
	LIBMTP_destroy_file_t(f);
	if (*ret_id && mtp_track(s, *ret_id) < 0)
		return -ENOMEM;
	*ret_s = (double)(t1 - t0) / 1e9;
	if (r == 0 && *ret_id && st.offset == bytes)
		return 0;
	*oc = (struct mtp_send_outcome){
	    .stopped = signal_stop != 0,
	    .made = *ret_id != 0,
	    .all_taken = st.offset == bytes,
	    .accepted = r != 0 && send_accepted(s->dev),
	};
	if (r == 0) {
		if (*ret_id)
			snprintf(why, why_len, "send: libmtp took %llu of %llu bytes",
				 (unsigned long long)st.offset, (unsigned long long)bytes);
		else
			snprintf(why, why_len, "send: the device gave the object no handle");
		return -EIO;
	}
	/* a device that answered the send is there: no wait for a disconnect */
	if (!oc->stopped && mtp_send_fault_of(oc) == MTP_FAULT_REREAD) {
		mtp_why_from(s, "send", "the object cannot be read back", why, why_len);
		return -EIO;
	}
	r = mtp_failed(s, "send", why, why_len);
	oc->gone = r == -ENODEV;
	oc->stopped = r == -EINTR;
	return r;
}

/* the places tried after from, for the failure: " (tried in the storage's root as well: ...)" */
static void add_tried(const struct mtp_session *s, enum mtp_place from, const char *first,
		      char *why, size_t why_len)
{
	char last[256], where[128] = "";

	snprintf(last, sizeof(last), "%s", strcmp(first, why) ? why : "the same");
	if (from < MTP_PLACE_ROOT && s->place >= MTP_PLACE_ROOT)
		snprintf(where, sizeof(where), "the storage's root");
	if (s->place == MTP_PLACE_EXISTING)
		snprintf(where + strlen(where), sizeof(where) - strlen(where), "%sthe folder '%s'",
			 where[0] ? " and " : "", s->existing ? s->existing : "?");
	snprintf(why, why_len, "%s (tried in %s as well: %s)", first, where, last);
}

/*
 * Send a file to where files go, moving them (quirks.c) when this place
 * fails in a way another may not: its id, the seconds. defer: an object
 * the device's handle does not reach is left for the caller's listing to
 * find (*ret_id 0) once that is known to be this device's way.
 */
static int send_file(struct mtp_session *s, const char *name, uint64_t bytes, uint32_t seed,
		     bool defer, uint32_t *ret_id, double *ret_s, struct pass_sys *ret_sys,
		     char *why, size_t why_len)
{
	enum mtp_place from = s->place;
	char first[256] = "";

	for (;;) {
		struct mtp_send_outcome oc = {0};
		enum mtp_send_fault fault;
		enum mtp_place next;
		uint32_t id = 0;
		int r = send_once(s, name, bytes, seed, &id, ret_s, ret_sys, &oc, why, why_len);

		if (r == 0 || r == -ENOMEM) {
			s->proven |= r == 0;
			*ret_id = id;
			return r;
		}
		fault = mtp_send_fault_of(&oc);
		/* the handle names nothing readable: the listing has the object by its name */
		if (fault == MTP_FAULT_REREAD && defer && s->reread) {
			mtp_untrack(s, id);
			*ret_id = 0;
			return 0;
		}
		if (fault == MTP_FAULT_REREAD && mtp_reread(s, name, bytes, id, ret_id) == 0) {
			if (!s->reread && !s->moved_why)
				s->moved_why = strdup(why);
			s->reread = true;
			s->proven = true;
			return 0;
		}
		next = mtp_next_place(s->place, s->proven, fault);
		if (!first[0] && next != MTP_PLACE_NONE)
			snprintf(first, sizeof(first), "%s", why);
		if (next == MTP_PLACE_NONE || mtp_move_to(s, next, first) < 0) {
			if (first[0] && s->place != from)
				add_tried(s, from, first, why, why_len);
			return r;
		}
		/* the failed object is usbperf's: gone now, or by cleanup's sweep */
		if (id)
			(void)mtp_delete_object(s, id);
	}
}

int mtp_transfer(struct mtp_session *s, struct mtp_size_result *res, uint32_t seed, char *why,
		 size_t why_len)
{
	struct stream st = {.seed = seed, .total = res->bytes, .mismatch = -1};
	char name[96];
	uint32_t id = 0;
	double send_s, get_s;
	struct pass_sys send_sys, get_sys;
	struct passwatch pw;
	struct quiet q;
	uint64_t t0, t1;
	int r;

	if (res->n >= MTP_MAX_REPEAT)
		return -E2BIG;
	if (!res->n) {
		pass_sys_init(&res->send_sys);
		pass_sys_init(&res->get_sys);
	}
	snprintf(name, sizeof(name), "%s%llu-%u.bin", s->prefix, (unsigned long long)res->bytes,
		 (unsigned)seed);
	r = send_file(s, name, res->bytes, seed, false, &id, &send_s, &send_sys, why, why_len);
	if (r < 0)
		return r;
	if (signal_stop) {
		snprintf(why, why_len, "interrupted");
		mtp_delete_object(s, id); /* else mtp_cleanup tries again */
		return -EINTR;
	}
	quiet_begin(&q);
	(void)passwatch_start(&pw, s->irq_lines);
	t0 = clock_now_ns();
	r = LIBMTP_Get_File_To_Handler(s->dev, id, get_chunk, &st, NULL, NULL);
	t1 = clock_now_ns();
	passwatch_stop(&pw, (double)(t1 - t0) / 1e9, &get_sys);
	quiet_end(&q, s->last_msg, sizeof(s->last_msg));
	if (r != 0)
		return mtp_failed(s, "get", why, why_len);
	get_s = (double)(t1 - t0) / 1e9;
	if (st.mismatch >= 0 || st.offset != res->bytes) {
		if (st.mismatch >= 0 && st.mismatch < (int64_t)res->bytes)
			snprintf(why, why_len,
				 "the bytes got back differ from the bytes sent at offset %lld",
				 (long long)st.mismatch);
		else
			snprintf(why, why_len, "got %llu bytes back, %llu were sent",
				 (unsigned long long)st.offset, (unsigned long long)res->bytes);
		res->verified = false;
		return -EBADMSG;
	}
	r = mtp_delete_object(s, id);
	if (r < 0)
		return mtp_failed(s, "delete", why, why_len);
	res->send_s[res->n] = send_s;
	res->get_s[res->n] = get_s;
	pass_sys_fold(&res->send_sys, &send_sys);
	pass_sys_fold(&res->get_sys, &get_sys);
	res->n++;
	res->verified = true;
	return 0;
}

static void object_name(const struct mtp_session *s, uint64_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%sobj-%05llu.bin", s->prefix, (unsigned long long)i);
}

/*
 * The listing of where the objects went: how many of the sent ones it
 * shows; an object sent without a readable handle (ids[i] 0) gets the
 * handle the listing gives its name.
 */
static uint64_t list_objects(struct mtp_session *s, uint32_t *ids, uint64_t sent)
{
	LIBMTP_file_t *files, *f, *next;
	uint64_t listed = 0;
	struct quiet q;

	quiet_begin(&q);
	files = LIBMTP_Get_Files_And_Folders(s->dev, s->storage, mtp_list_parent(s->parent));
	quiet_end(&q, s->last_msg, sizeof(s->last_msg));
	for (f = files; f; f = next) {
		next = f->next;
		for (uint64_t i = 0; i < sent; i++) {
			char name[96];

			if (!ids[i] && f->filename) {
				object_name(s, i, name, sizeof(name));
				if (!strcmp(name, f->filename) && !mtp_tracked(s, f->item_id) &&
				    mtp_track(s, f->item_id) == 0)
					ids[i] = f->item_id;
			}
			if (ids[i] == f->item_id) {
				listed++;
				break;
			}
		}
		LIBMTP_destroy_file_t(f);
	}
	return listed;
}

int mtp_objects(struct mtp_session *s, struct mtp_objects_result *res, char *why, size_t why_len)
{
	uint32_t *ids;
	uint64_t listed, t0, t1;
	int r = 0;

	ids = calloc(res->count ? res->count : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	res->sent = 0;
	t0 = clock_now_ns();
	for (uint64_t i = 0; i < res->count; i++) {
		char name[96];
		double secs;

		if (signal_stop) {
			r = -EINTR;
			break;
		}
		object_name(s, i, name, sizeof(name));
		r = send_file(s, name, res->size, (uint32_t)(i + 1000), true, &ids[i], &secs, NULL,
			      why, why_len);
		if (r < 0)
			break;
		res->sent++;
	}
	t1 = clock_now_ns();
	res->send_s = (double)(t1 - t0) / 1e9;
	if (r < 0)
		goto out;
	t0 = clock_now_ns();
	listed = list_objects(s, ids, res->sent);
	t1 = clock_now_ns();
	res->list_s = (double)(t1 - t0) / 1e9;
	if (listed != res->sent) {
		r = mtp_failed(s, "list", why, why_len);
		if (r == -EIO)
			snprintf(why, why_len, "the folder lists %llu of the %llu objects sent",
				 (unsigned long long)listed, (unsigned long long)res->sent);
		goto out;
	}
	t0 = clock_now_ns();
	for (uint64_t i = 0; i < res->sent; i++) {
		r = mtp_delete_object(s, ids[i]);
		if (r < 0) {
			r = mtp_failed(s, "delete", why, why_len);
			goto out;
		}
	}
	t1 = clock_now_ns();
	res->delete_s = (double)(t1 - t0) / 1e9;
out:
	free(ids);
	mtp_objects_finish(res);
	return r;
}

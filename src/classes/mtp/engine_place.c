// SPDX-License-Identifier: MIT
/*
 * usbperf mtp's engine: where files go on the device and what is left of
 * them. Files go into usbperf's folder; a responder that fails there in a
 * way another place may not (quirks.c) gets them in the storage's root or
 * in a folder already there, and one that gives handles it cannot read
 * back has its objects looked up by name. Every name usbperf gives starts
 * with this session's own prefix, so cleanup finds its objects in every
 * place it sent to, also those whose handle it never learned.
 */
#include "classes/mtp/engine_priv.h"
#include "util/clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t mtp_list_parent(uint32_t parent)
{
	return parent ? parent : LIBMTP_FILES_AND_FOLDERS_ROOT;
}

/* a listing of parent (NULL empty, or the device refused it) */
static LIBMTP_file_t *list(struct mtp_session *s, uint32_t parent)
{
	LIBMTP_file_t *files;
	struct quiet q;

	quiet_begin(&q);
	files = LIBMTP_Get_Files_And_Folders(s->dev, s->storage, mtp_list_parent(parent));
	quiet_end(&q, NULL, 0);
	LIBMTP_Clear_Errorstack(s->dev);
	return files;
}

static void list_free(LIBMTP_file_t *f)
{
	while (f) {
		LIBMTP_file_t *next = f->next;

		LIBMTP_destroy_file_t(f);
		f = next;
	}
}

int mtp_use_folder(struct mtp_session *s, uint32_t storage, const char *name, bool *ret_created,
		   char *why, size_t why_len)
{
	LIBMTP_file_t *files, *f;
	uint32_t id = 0;
	struct quiet q;
	char *copy;

	s->storage = storage;
	/* this session's names: pid and clock, so an earlier run's leftovers are not taken */
	snprintf(s->prefix, sizeof(s->prefix), "usbperf-%08x-",
		 (unsigned)((clock_now_ns() >> 10) ^ ((uint64_t)getpid() << 16)));
	s->folder_name = strdup(name);
	if (!s->folder_name)
		return -ENOMEM;
	files = list(s, 0);
	for (f = files; f; f = f->next)
		if (!id && f->filetype == LIBMTP_FILETYPE_FOLDER && f->filename &&
		    !strcmp(f->filename, name))
			id = f->item_id;
	list_free(files);
	if (!id) {
		copy = strdup(name);
		if (!copy)
			return -ENOMEM;
		quiet_begin(&q);
		id = LIBMTP_Create_Folder(s->dev, copy, 0, storage);
		quiet_end(&q, s->last_msg, sizeof(s->last_msg));
		free(copy);
		if (!id) {
			int r = mtp_failed(s, "cannot create the folder", why, why_len);

			/* a device that makes no folders may still take files: the root next */
			if (r != -EIO)
				return r;
			*ret_created = false;
			return mtp_move_to(s, MTP_PLACE_ROOT, why);
		}
		s->folder_created = true;
	}
	s->folder = s->parent = id;
	s->place = MTP_PLACE_FOLDER;
	s->places = 1u << MTP_PLACE_FOLDER;
	*ret_created = s->folder_created;
	return 0;
}

int mtp_reread(struct mtp_session *s, const char *name, uint64_t bytes, uint32_t old,
	       uint32_t *ret_id)
{
	LIBMTP_file_t *files = list(s, s->parent), *f;
	uint32_t id = 0;

	for (f = files; f; f = f->next)
		if (!id && f->filetype != LIBMTP_FILETYPE_FOLDER && f->filename &&
		    !strcmp(f->filename, name) && f->filesize == bytes &&
		    !mtp_tracked(s, f->item_id))
			id = f->item_id;
	list_free(files);
	if (!id)
		return -ENOENT;
	/* the handle the device gave names nothing it can read: the one listed stands for it */
	mtp_untrack(s, old);
	if (mtp_track(s, id) < 0)
		return -ENOMEM;
	*ret_id = id;
	return 0;
}

/* a folder in the root that is not usbperf's */
static int find_existing(struct mtp_session *s)
{
	LIBMTP_file_t *files = list(s, 0), *f;

	for (f = files; f; f = f->next)
		if (f->filetype == LIBMTP_FILETYPE_FOLDER && f->filename &&
		    f->item_id != s->folder && strncmp(f->filename, "usbperf", 7)) {
			s->existing_id = f->item_id;
			s->existing = strdup(f->filename);
			break;
		}
	list_free(files);
	if (!s->existing_id)
		return -ENOENT;
	return s->existing ? 0 : -ENOMEM;
}

int mtp_move_to(struct mtp_session *s, enum mtp_place place, const char *why)
{
	if (place == MTP_PLACE_EXISTING && find_existing(s) < 0)
		return -ENOENT;
	if (place != MTP_PLACE_ROOT && place != MTP_PLACE_EXISTING)
		return -EINVAL;
	if (!s->moved_why) {
		s->moved_why = strdup(why);
		if (!s->moved_why)
			return -ENOMEM;
	}
	s->place = place;
	s->parent = place == MTP_PLACE_ROOT ? 0 : s->existing_id;
	s->places |= 1u << place;
	s->proven = false;
	s->reread = false;
	return 0;
}

void mtp_send_path(const struct mtp_session *s, struct mtp_path *ret)
{
	*ret = (struct mtp_path){
	    .place = s->place,
	    .folder = s->place == MTP_PLACE_FOLDER     ? s->folder_name
		      : s->place == MTP_PLACE_EXISTING ? s->existing
						       : NULL,
	    .reread = s->reread,
	    .proven = s->proven,
	    .why = s->moved_why,
	};
}

static uint32_t place_parent(const struct mtp_session *s, enum mtp_place p)
{
	return p == MTP_PLACE_FOLDER ? s->folder : p == MTP_PLACE_EXISTING ? s->existing_id : 0;
}

static bool in(const uint32_t *v, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

/*
 * usbperf's objects in parent (all: everything there is, the folder it
 * made), or those of failed: deleted (sweep), or counted (what is left).
 */
static unsigned sweep(struct mtp_session *s, uint32_t parent, bool all, const uint32_t *failed,
		      size_t nfailed, bool count_only)
{
	LIBMTP_file_t *files, *f;
	unsigned n = 0;

	/* everything in the root is never usbperf's */
	all = all && parent;
	files = list(s, parent);
	for (f = files; f; f = f->next) {
		bool ours = all || in(failed, nfailed, f->item_id) ||
			    (f->filename && !strncmp(f->filename, s->prefix, strlen(s->prefix)));

		if (ours && (count_only || mtp_delete_object(s, f->item_id) < 0))
			n++;
	}
	list_free(files);
	return n;
}

unsigned mtp_cleanup(struct mtp_session *s)
{
	uint32_t *failed = NULL;
	size_t nfailed = 0;
	bool folder_gone;
	unsigned left = 0;

	if (!s || !s->dev)
		return 0;
	if (s->ntracked) {
		failed = calloc(s->ntracked, sizeof(*failed));
		if (!failed)
			return (unsigned)s->ntracked;
	}
	while (s->ntracked) {
		uint32_t id = s->tracked[s->ntracked - 1];

		if (mtp_delete_object(s, id) < 0) {
			s->ntracked--; /* given up on: looked for below */
			failed[nfailed++] = id;
		}
	}
	/* a send it never saw finish, a handle it never learned: its names where it sent */
	for (enum mtp_place p = MTP_PLACE_FOLDER; p < MTP_PLACE_NONE; p++)
		if (s->places & (1u << p))
			(void)sweep(s, place_parent(s, p),
				    p == MTP_PLACE_FOLDER && s->folder_created, failed, nfailed,
				    false);
	folder_gone = !s->folder_created || mtp_delete_object(s, s->folder) == 0;
	/*
	 * What the device still shows is what is left: a handle whose delete
	 * failed may have gone with the folder, or never named what it held.
	 */
	for (enum mtp_place p = MTP_PLACE_FOLDER; p < MTP_PLACE_NONE; p++)
		if ((s->places & (1u << p)) &&
		    !(p == MTP_PLACE_FOLDER && s->folder_created && folder_gone))
			left +=
			    sweep(s, place_parent(s, p), p == MTP_PLACE_FOLDER && s->folder_created,
				  failed, nfailed, true);
	if (!folder_gone)
		left++;
	/* done: a second call finds nothing to sweep */
	s->places = 0;
	free(failed);
	LIBMTP_Clear_Errorstack(s->dev);
	return left;
}

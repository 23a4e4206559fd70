// SPDX-License-Identifier: MIT
/*
 * mtp-sim's object store (see mtp-sim.c): every storage is a directory,
 * every object a file or folder in it, known by a handle that is never
 * reused; and the datasets its answers are built from (PTP's little-endian
 * integers, arrays and UTF-16 strings).
 */
#define _GNU_SOURCE
#include "mtp-sim.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* --- datasets --- */

void sim_put(struct pk *b, uint64_t v, unsigned bytes)
{
	if (b->n + bytes > b->alloc) {
		size_t na = b->alloc ? b->alloc * 2 : 256;
		unsigned char *np = realloc(b->p, na);

		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->alloc = na;
	}
	for (unsigned i = 0; i < bytes; i++)
		b->p[b->n++] = (unsigned char)(v >> (8 * i));
}

void sim_put_str(struct pk *b, const char *s)
{
	uint16_t u[255];
	unsigned n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p && n < 254; p++) {
		unsigned c = *p;

		/* UTF-8 to UTF-16 for the basic plane (the lab's names are ASCII) */
		if (c >= 0xe0 && p[1] && p[2]) {
			c = (c & 0x0f) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu);
			p += 2;
		} else if (c >= 0xc0 && p[1]) {
			c = (c & 0x1f) << 6 | (p[1] & 0x3fu);
			p++;
		}
		u[n++] = (uint16_t)c;
	}
	if (!n) {
		sim_put(b, 0, 1);
		return;
	}
	sim_put(b, n + 1, 1);
	for (unsigned i = 0; i < n; i++)
		sim_put(b, u[i], 2);
	sim_put(b, 0, 2);
}

void sim_put_arr16(struct pk *b, const uint16_t *v, size_t n)
{
	sim_put(b, n, 4);
	for (size_t i = 0; i < n; i++)
		sim_put(b, v[i], 2);
}

size_t sim_get_str(const unsigned char *p, size_t len, char *out, size_t outlen)
{
	size_t n, o = 0;

	if (!len)
		return 0;
	n = p[0];
	if (1 + 2 * n > len)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned c = p[1 + 2 * i] | (unsigned)p[2 + 2 * i] << 8;

		if (!c || o + 4 > outlen)
			break;
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | (c >> 6 & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = 0;
	return 1 + 2 * n;
}

void sim_reply_data(struct sim *s, const struct sim_cmd *c, struct pk *b)
{
	if (b->oom) {
		sim_respond(s, c, RC_GENERAL_ERROR, 0, NULL);
	} else if (sim_send_data(s, c, b->p, b->n) == 0) {
		sim_respond(s, c, RC_OK, 0, NULL);
	}
	free(b->p);
}

/* --- the objects --- */

struct sim_storage *sim_storage_of(struct sim *s, uint32_t id)
{
	for (unsigned i = 0; i < s->nst; i++)
		if (s->st[i].id == id)
			return &s->st[i];
	return NULL;
}

struct sim_obj *sim_lookup(struct sim *s, uint32_t h)
{
	struct sim_obj *o;

	if (h == 0 || h > s->nobj)
		return NULL;
	o = &s->obj[h - 1];
	return o->live && !o->stale ? o : NULL;
}

uint32_t sim_handle_of(const struct sim *s, const struct sim_obj *o)
{
	return (uint32_t)(o - s->obj) + 1;
}

uint32_t sim_add_obj(struct sim *s, uint32_t storage, uint32_t parent, const char *name,
		     bool folder, uint64_t size, time_t mtime)
{
	struct sim_obj *o;

	if (s->nobj == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 256;
		struct sim_obj *nv = realloc(s->obj, na * sizeof(*nv));

		if (!nv)
			return 0;
		s->obj = nv;
		s->alloc = na;
	}
	o = &s->obj[s->nobj];
	*o = (struct sim_obj){.storage = storage,
			      .parent = parent,
			      .size = size,
			      .mtime = mtime,
			      .folder = folder,
			      .live = true};
	o->name = strdup(name);
	if (!o->name)
		return 0;
	return (uint32_t)++s->nobj;
}

int sim_path_of(const struct sim *s, const struct sim_obj *o, char *buf, size_t len)
{
	const struct sim_obj *chain[64];
	unsigned n = 0;
	size_t off;
	const struct sim_storage *st = NULL;

	for (unsigned i = 0; i < s->nst; i++)
		if (s->st[i].id == o->storage)
			st = &s->st[i];
	if (!st)
		return -1;
	for (; o && n < 64; o = o->parent ? &s->obj[o->parent - 1] : NULL)
		chain[n++] = o;
	off = (size_t)snprintf(buf, len, "%s", st->dir);
	while (n-- && off < len)
		off += (size_t)snprintf(buf + off, len - off, "/%s", chain[n]->name);
	return off < len ? 0 : -1;
}

static int scan_dir(struct sim *s, uint32_t storage, uint32_t parent, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	if (n < 0) {
		fprintf(stderr, "mtp-sim: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		uint32_t h;

		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..") &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name) <
			sizeof(path) &&
		    lstat(path, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
			h = sim_add_obj(s, storage, parent, ents[i]->d_name, S_ISDIR(st.st_mode),
					S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0,
					st.st_mtime);
			if (!h || (S_ISDIR(st.st_mode) && scan_dir(s, storage, h, path) < 0))
				n = -1;
		}
		free(ents[i]);
	}
	free(ents);
	return n < 0 ? -1 : 0;
}

int sim_scan(struct sim *s)
{
	for (unsigned i = 0; i < s->nst; i++)
		if (scan_dir(s, s->st[i].id, 0, s->st[i].dir) < 0)
			return -1;
	return 0;
}

void sim_session_end(struct sim *s)
{
	s->open = false;
	s->pending = 0;
	for (size_t i = 0; i < s->nobj; i++)
		s->obj[i].session_made = false;
}

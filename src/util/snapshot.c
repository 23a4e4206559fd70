// SPDX-License-Identifier: MIT
#include "util/snapshot.h"
#include "util/snapshot_priv.h"
#include "util/parse.h"
#include "util/jsonin.h"
#include "util/xalloc.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int decode_hex(const char *s, size_t len, char **ret, size_t *ret_len)
{
	char *out;
	size_t i;

	if (len % 2)
		return -EINVAL;
	out = malloc(len / 2 + 1);
	if (!out)
		return -ENOMEM;
	for (i = 0; i < len / 2; i++) {
		int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			return -EINVAL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[len / 2] = '\0';
	*ret = out;
	*ret_len = len / 2;
	return 0;
}

static const char *str_member(struct json_object *o, const char *key, size_t *ret_len)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	if (ret_len)
		*ret_len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

/* one entry into n (path and data owned by n on success) */
int snapshot_entry_node(const struct snapshot_entry *e, size_t idx, struct vnode *n,
			struct strbuf *err)
{
	const char *path = e->path, *type = e->type;

	if (!path || strlen(path) > 4096 || !sysroot_path_canonical(path)) {
		strbuf_addf(err, "entry %zu: missing or non-canonical \"path\"", idx);
		return -EINVAL;
	}
	if (!type) {
		strbuf_addf(err, "entry %zu (%s): missing \"type\"", idx, path);
		return -EINVAL;
	}
	n->data = NULL;
	if (!strcmp(type, "dir")) {
		n->kind = VNODE_DIR;
		n->data = strdup("");
		n->len = 0;
	} else if (!strcmp(type, "link")) {
		n->kind = VNODE_LINK;
		if (!e->target || !e->target_len || e->target_len > 4096 ||
		    memchr(e->target, '\0', e->target_len)) {
			strbuf_addf(err, "entry %zu (%s): bad link \"target\"", idx, path);
			return -EINVAL;
		}
		n->data = strndup(e->target, e->target_len);
		n->len = e->target_len;
	} else if (!strcmp(type, "file")) {
		n->kind = VNODE_FILE;
		if (e->text) {
			n->data = malloc(e->text_len + 1);
			if (n->data) {
				memcpy(n->data, e->text, e->text_len);
				n->data[e->text_len] = '\0';
			}
			n->len = e->text_len;
		} else if (e->hex) {
			if (decode_hex(e->hex, e->hex_len, &n->data, &n->len) < 0) {
				strbuf_addf(err, "entry %zu (%s): bad \"hex\"", idx, path);
				return -EINVAL;
			}
		} else {
			strbuf_addf(err, "entry %zu (%s): a file needs \"text\" or \"hex\"", idx,
				    path);
			return -EINVAL;
		}
		if (n->len > SNAPSHOT_MAX_FILE) {
			free(n->data);
			strbuf_addf(err, "entry %zu (%s): contents over %u bytes", idx, path,
				    SNAPSHOT_MAX_FILE);
			return -EINVAL;
		}
	} else if (!strcmp(type, "unread")) {
		n->kind = VNODE_FILE;
		n->unread = true;
		n->data = strdup("");
		n->len = 0;
	} else {
		strbuf_addf(err, "entry %zu (%s): unknown type '%s'", idx, path, type);
		return -EINVAL;
	}
	n->path = strdup(path);
	if (!n->path || !n->data) {
		free_all(n->path, n->data);
		return -ENOMEM;
	}
	return 0;
}

static int load_entry(struct json_object *o, size_t idx, struct vnode *n, struct strbuf *err)
{
	struct snapshot_entry e = {0};

	if (!json_object_is_type(o, json_type_object)) {
		strbuf_addf(err, "entry %zu is not an object", idx);
		return -EINVAL;
	}
	e.path = str_member(o, "path", NULL);
	e.type = str_member(o, "type", NULL);
	e.target = str_member(o, "target", &e.target_len);
	e.text = str_member(o, "text", &e.text_len);
	e.hex = str_member(o, "hex", &e.hex_len);
	return snapshot_entry_node(&e, idx, n, err);
}

int snapshot_parse_buf(const char *buf, size_t len, struct vnode **ret, size_t *ret_n,
		       struct strbuf *ret_err)
{
	/* the common case without a tree of JSON objects; anything else, and every error, below */
	if (len <= SNAPSHOT_MAX_BYTES && snapshot_scan(buf, len, ret, ret_n) == 0)
		return 0;
	return snapshot_parse_json(buf, len, ret, ret_n, ret_err);
}

int snapshot_parse_json(const char *buf, size_t len, struct vnode **ret, size_t *ret_n,
			struct strbuf *ret_err)
{
	struct strbuf err = STRBUF_INIT;
	struct json_object *root = NULL, *ver, *entries;
	struct vnode *v = NULL;
	size_t i, n = 0;
	int r = -EINVAL;

	/* the one reader of JSON input: its messages say what is wrong with the document */
	r = jsonin_parse(buf, len, SNAPSHOT_MAX_BYTES, &root, &err);
	if (r < 0)
		goto out;
	r = -EINVAL;
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "usbperf_snapshot", &ver) ||
	    !json_object_is_type(ver, json_type_int)) {
		strbuf_adds(&err, "not a usbperf snapshot (no \"usbperf_snapshot\" version)");
		goto out;
	}
	if (json_object_get_int64(ver) != SNAPSHOT_FORMAT) {
		strbuf_addf(&err, "snapshot format %lld, this usbperf reads %d",
			    (long long)json_object_get_int64(ver), SNAPSHOT_FORMAT);
		goto out;
	}
	if (!json_object_object_get_ex(root, "entries", &entries) ||
	    !json_object_is_type(entries, json_type_array)) {
		strbuf_adds(&err, "no \"entries\" array");
		goto out;
	}
	n = json_object_array_length(entries);
	if (n > SNAPSHOT_MAX_ENTRIES) {
		strbuf_addf(&err, "more than %d entries", SNAPSHOT_MAX_ENTRIES);
		n = 0;
		goto out;
	}
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		r = -ENOMEM;
		n = 0;
		goto out;
	}
	for (i = 0; i < n; i++) {
		r = load_entry(json_object_array_get_idx(entries, i), i, &v[i], &err);
		if (r < 0) {
			n = i;
			goto out;
		}
	}
	*ret = v;
	*ret_n = n;
	v = NULL;
	n = 0;
	r = 0;
out:
	vnodes_free(v, n);
	json_object_put(root);
	if (ret_err && err.len) {
		strbuf_reset(ret_err);
		strbuf_add(ret_err, err.buf, err.len);
	}
	strbuf_release(&err);
	return r;
}

int snapshot_load_buf(const char *buf, size_t len, struct strbuf *ret_err)
{
	struct vnode *v;
	size_t n;
	int r = snapshot_parse_buf(buf, len, &v, &n, ret_err);

	if (r < 0)
		return r;
	r = sysroot_set_nodes(v, n);
	if (r < 0) {
		vnodes_free(v, n);
		if (ret_err) {
			strbuf_reset(ret_err);
			strbuf_adds(ret_err, "a path appears twice");
		}
	}
	return r;
}

/*
 * The whole file's buffer at once, its pages faulted in by one call: read
 * in 4 KiB steps, a 2 MB snapshot took 500 page faults and a copy at each
 * doubling of the buffer (a third of `list --sysroot`'s system time).
 */
static void presize(struct strbuf *sb, size_t n)
{
	strbuf_grow(sb, n);
#ifdef MADV_POPULATE_WRITE
	{
		uintptr_t a = (uintptr_t)sb->buf, page = (uintptr_t)sysconf(_SC_PAGESIZE);
		uintptr_t lo = (a + page - 1) & ~(page - 1), hi = (a + sb->alloc) & ~(page - 1);

		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE); /* a hint */
	}
#endif
}

int snapshot_load_file(const char *file, struct strbuf *ret_err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int fd, r;

	/* a FIFO put in place of the file since sysroot_open's stat must not block */
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	if (st.st_size > 0 && (uint64_t)st.st_size <= SNAPSHOT_MAX_BYTES)
		presize(&sb, (size_t)st.st_size + 4096);
	r = read_fd_all(fd, SNAPSHOT_MAX_BYTES, &sb);
	close(fd);
	if (r == -EFBIG && ret_err) {
		strbuf_reset(ret_err);
		strbuf_addf(ret_err, "larger than %u MiB", SNAPSHOT_MAX_BYTES >> 20);
		r = -EINVAL;
	}
	if (r == 0)
		r = snapshot_load_buf(sb.buf, sb.len, ret_err);
	strbuf_release(&sb);
	return r;
}

static bool is_text(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f)
			return false;
	}
	return true;
}

void snapshot_dump(const struct vnode *v, size_t n, const char *created, struct strbuf *out)
{
	static const char *const kinds[] = {"dir", "file", "link"};
	struct json_object *root = json_object_new_object(), *entries = json_object_new_array();
	size_t i;

	json_object_object_add(root, "usbperf_snapshot", json_object_new_int(SNAPSHOT_FORMAT));
	json_object_object_add(root, "usbperf_version", json_object_new_string(USBPERF_VERSION));
	if (created)
		json_object_object_add(root, "created", json_object_new_string(created));
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "path", json_object_new_string(v[i].path));
		json_object_object_add(e, "type", json_object_new_string(v[i].unread ? "unread"
										     : kinds[v[i].kind]));
		if (v[i].kind == VNODE_LINK) {
			json_object_object_add(e, "target", json_object_new_string(v[i].data));
		} else if (v[i].unread) {
			/* a name only: its contents were never read */
		} else if (v[i].kind == VNODE_FILE && is_text(v[i].data, v[i].len)) {
			json_object_object_add(e, "text",
					       json_object_new_string_len(v[i].data, (int)v[i].len));
		} else if (v[i].kind == VNODE_FILE) {
			struct strbuf hex = STRBUF_INIT;
			size_t j;

			for (j = 0; j < v[i].len; j++)
				strbuf_addf(&hex, "%02x", (unsigned char)v[i].data[j]);
			json_object_object_add(e, "hex", json_object_new_string(hex.buf));
			strbuf_release(&hex);
		}
		json_object_array_add(entries, e);
	}
	json_object_object_add(root, "entries", entries);
	/* one entry per line: readable, and diffs of fixtures stay small */
	strbuf_adds(out, "{\n");
	{
		struct json_object_iter it;
		bool first = true;

		json_object_object_foreachC(root, it)
		{
			if (!first)
				strbuf_adds(out, ",\n");
			first = false;
			strbuf_addf(out, "  \"%s\": ", it.key);
			if (it.val == entries) {
				strbuf_adds(out, "[\n");
				for (i = 0; i < n; i++)
					strbuf_addf(out, "    %s%s\n",
						    json_object_to_json_string_ext(
							    json_object_array_get_idx(entries, i),
							    JSON_C_TO_STRING_PLAIN |
								    JSON_C_TO_STRING_NOSLASHESCAPE),
						    i + 1 < n ? "," : "");
				strbuf_adds(out, "  ]");
			} else {
				strbuf_adds(out, json_object_to_json_string_ext(
							 it.val, JSON_C_TO_STRING_PLAIN));
			}
		}
	}
	strbuf_adds(out, "\n}\n");
	json_object_put(root);
}

int sysroot_open(const char *arg, struct strbuf *ret_err)
{
	struct stat st;
	char *real;

	if (stat(arg, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return snapshot_load_file(arg, ret_err);
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	real = realpath(arg, NULL);
	if (!real)
		return -errno;
	sysroot_set(strcmp(real, "/") ? real : NULL);
	free(real);
	return 0;
}

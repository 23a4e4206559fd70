// SPDX-License-Identifier: MIT
#include "util/sysroot.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40	      /* as the kernel's path walk */
#define MAX_PATH_LEN 4096

static char *root_dir;	      /* NULL: the real root */
static struct vnode *mem;     /* non-NULL: the in-memory backend */
static char *special;	      /* the first non-regular file refused (sysroot_special) */
static size_t mem_n;

static struct {
	bool on;
	struct vnode *v;
	size_t n, alloc;
} rec;

void vnodes_free(struct vnode *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free_all(v[i].path, v[i].data);
	free(v);
}

static void drop_mem(void)
{
	vnodes_free(mem, mem_n);
	mem = NULL;
	mem_n = 0;
}

void sysroot_set(const char *r)
{
	drop_mem();
	free(root_dir);
	root_dir = r && *r ? strdup(r) : NULL;
}

const char *sysroot_get(void)
{
	return root_dir ? root_dir : "";
}

bool sysroot_is_snapshot(void)
{
	return mem != NULL;
}

void sysroot_live_enter(struct sysroot_saved *s)
{
	*s = (struct sysroot_saved){root_dir, mem, mem_n, rec.on};
	root_dir = NULL;
	mem = NULL;
	mem_n = 0;
	rec.on = false;
}

void sysroot_live_leave(struct sysroot_saved *s)
{
	free(root_dir);
	drop_mem();
	root_dir = s->root_dir;
	mem = s->mem;
	mem_n = s->mem_n;
	rec.on = s->recording;
	*s = (struct sysroot_saved){0};
}

static int vnode_cmp(const void *a, const void *b)
{
	return strcmp(((const struct vnode *)a)->path, ((const struct vnode *)b)->path);
}

/*
 * Mark the nodes the path walk can take as they are: no link or file above
 * them. Sorted paths list a directory's descendants right after it, so a
 * stack of the explicit ancestors is enough (one pass; implicit directories
 * are directories).
 */
static void mark_canonical(struct vnode *v, size_t n)
{
	size_t *stack = malloc(n * sizeof(*stack)), depth = 0;

	for (size_t i = 0; i < n; i++) {
		v[i].canon = false;
		if (!stack)
			continue; /* no fast path: every lookup walks */
		while (depth) {
			const struct vnode *a = &v[stack[depth - 1]];
			size_t len = strlen(a->path);

			if (!strncmp(v[i].path, a->path, len) && v[i].path[len] == '/')
				break;
			depth--;
		}
		v[i].canon = !depth || (v[stack[depth - 1]].kind == VNODE_DIR &&
					v[stack[depth - 1]].canon);
		stack[depth++] = i;
	}
	free(stack);
}

static bool sorted_unique(const struct vnode *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i - 1].path, v[i].path) >= 0)
			return false;
	return true;
}

int sysroot_set_nodes(struct vnode *v, size_t n)
{
	size_t i;

	/* snapshots are written sorted: check before paying for a sort */
	if (n && !sorted_unique(v, n)) {
		qsort(v, n, sizeof(*v), vnode_cmp);
		for (i = 1; i < n; i++)
			if (!strcmp(v[i - 1].path, v[i].path))
				return -EINVAL;
	}
	mark_canonical(v, n);
	sysroot_set(NULL);
	mem = v;
	mem_n = n;
	/* an empty snapshot is still a snapshot: keep mem non-NULL */
	if (!mem)
		mem = calloc(1, sizeof(*mem));
	return 0;
}

void sysroot_path(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	strbuf_adds(sb, sysroot_get());
	strbuf_adds(sb, path);
}

/* ---- recording ---- */

void sysroot_record_start(void)
{
	rec.on = true;
}

static void record_node(const char *path, enum vnode_kind kind, const char *data, size_t len,
			bool unread)
{
	struct vnode *n;

	if (!rec.on)
		return;
	if (rec.n == rec.alloc) {
		size_t na = rec.alloc ? 2 * rec.alloc : 256;
		struct vnode *nv = realloc(rec.v, na * sizeof(*nv));

		if (!nv)
			abort();
		rec.v = nv;
		rec.alloc = na;
	}
	n = &rec.v[rec.n++];
	n->path = strdup(path);
	n->kind = kind;
	n->len = data ? len : 0;
	n->data = malloc(n->len + 1);
	if (!n->path || !n->data)
		abort();
	if (data)
		memcpy(n->data, data, len);
	n->data[n->len] = '\0';
	n->unread = unread;
}

static void record(const char *path, enum vnode_kind kind, const char *data, size_t len)
{
	record_node(path, kind, data, len, false);
}

/* a node seen but not read: replays must find it, not its contents */
static void record_seen(const char *path, enum vnode_kind kind)
{
	if (kind == VNODE_FILE)
		record_node(path, kind, NULL, 0, true);
	else if (kind == VNODE_DIR)
		record(path, kind, NULL, 0);
}

void sysroot_record_file(const char *path, const char *data, size_t len)
{
	record(path, VNODE_FILE, data, len);
}

void sysroot_record_take(struct vnode **ret, size_t *ret_n)
{
	size_t i, out = 0;

	if (rec.n)
		qsort(rec.v, rec.n, sizeof(*rec.v), vnode_cmp);
	/* the same path seen twice: what was read wins over what was only seen */
	for (i = 0; i < rec.n; i++) {
		if (out && !strcmp(rec.v[out - 1].path, rec.v[i].path)) {
			struct vnode *keep = &rec.v[out - 1], *drop = &rec.v[i];

			if (keep->unread && !drop->unread) {
				struct vnode tmp = *keep;

				*keep = *drop;
				*drop = tmp;
			}
			free_all(drop->path, drop->data);
			continue;
		}
		rec.v[out++] = rec.v[i];
	}
	*ret = rec.v;
	*ret_n = out;
	rec.v = NULL;
	rec.n = rec.alloc = 0;
	rec.on = false;
}

/* ---- the in-memory backend ---- */

/* first node whose path is >= key */
static size_t mem_lower_bound(const char *key)
{
	size_t lo = 0, hi = mem_n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(mem[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct vnode *mem_find(const char *path)
{
	size_t i = mem_lower_bound(path);

	return i < mem_n && !strcmp(mem[i].path, path) ? &mem[i] : NULL;
}

/* a directory exists implicitly when anything lies below it */
static bool mem_has_children(const char *dir)
{
	struct strbuf p = STRBUF_INIT;
	size_t i;
	bool r;

	strbuf_addf(&p, "%s/", strcmp(dir, "/") ? dir : "");
	i = mem_lower_bound(p.buf);
	r = i < mem_n && !strncmp(mem[i].path, p.buf, p.len);
	strbuf_release(&p);
	return r;
}

/* ---- one lookup, one readlink for both backends ---- */

/* kind of the node at a canonical path, not following a final link */
static int node_kind(const char *path, enum vnode_kind *ret)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int r;

	if (mem) {
		const struct vnode *n = mem_find(path);

		if (n)
			*ret = n->kind;
		else if (!strcmp(path, "/") || mem_has_children(path))
			*ret = VNODE_DIR;
		else
			return -ENOENT;
		return 0;
	}
	sysroot_path(&p, path);
	r = lstat(p.buf, &st) < 0 ? -errno : 0;
	strbuf_release(&p);
	if (r < 0)
		return r;
	*ret = S_ISLNK(st.st_mode) ? VNODE_LINK : S_ISDIR(st.st_mode) ? VNODE_DIR : VNODE_FILE;
	return 0;
}

static int node_readlink(const char *path, struct strbuf *ret)
{
	struct strbuf p = STRBUF_INIT;
	ssize_t n;

	strbuf_reset(ret);
	if (mem) {
		const struct vnode *v = mem_find(path);

		if (!v)
			return -ENOENT;
		if (v->kind != VNODE_LINK)
			return -EINVAL;
		strbuf_add(ret, v->data, v->len);
		return 0;
	}
	sysroot_path(&p, path);
	strbuf_grow(ret, MAX_PATH_LEN);
	n = readlink(p.buf, ret->buf, MAX_PATH_LEN);
	strbuf_release(&p);
	if (n < 0)
		return -errno;
	if (n >= MAX_PATH_LEN)
		return -ENAMETOOLONG;
	ret->len = (size_t)n;
	ret->buf[n] = '\0';
	record(path, VNODE_LINK, ret->buf, ret->len);
	return 0;
}

/* drop the last component of a canonical path ("/a/b" -> "/a", "/a" -> "") */
static void pop_component(struct strbuf *p)
{
	char *slash = strrchr(p->buf, '/');

	p->len = slash ? (size_t)(slash - p->buf) : 0;
	p->buf[p->len] = '\0';
}

bool sysroot_path_canonical(const char *p)
{
	if (p[0] != '/' || p[1] == '\0')
		return false;
	for (const char *s = p; *s;) {
		const char *e = strchrnul(s + 1, '/');
		size_t n = (size_t)(e - s - 1);

		if (n == 0 || (n == 1 && s[1] == '.') || (n == 2 && s[1] == '.' && s[2] == '.'))
			return false;
		s = e;
	}
	return true;
}

/*
 * In a loaded snapshot a path the walk would take unchanged (it names a
 * node with only directories above it, and is not a link to follow) is its
 * own canonical form: one lookup instead of one per component. The probes
 * read attributes of directories they resolved, so this is most lookups.
 */
static bool mem_fast(const char *path, bool follow_last, struct strbuf *ret, int *ret_r)
{
	const struct vnode *n, *parent;
	const char *slash;

	if (!mem || !sysroot_path_canonical(path))
		return false;
	n = mem_find(path);
	if (n) {
		if (!n->canon || (n->kind == VNODE_LINK && follow_last))
			return false;
		strbuf_reset(ret);
		strbuf_adds(ret, path);
		*ret_r = 0;
		return true;
	}
	/* absent: below a file ("dir/attr/partition") or a directory it is not in */
	slash = strrchr(path, '/');
	if (slash == path)
		return false;
	{
		char *dir = strndup(path, (size_t)(slash - path));

		parent = dir ? mem_find(dir) : NULL;
		free(dir);
	}
	if (!parent || !parent->canon || parent->kind == VNODE_LINK)
		return false;
	if (parent->kind == VNODE_FILE) {
		*ret_r = -ENOTDIR;
		return true;
	}
	if (mem_has_children(path)) {
		strbuf_reset(ret);
		strbuf_adds(ret, path);
		*ret_r = 0;
		return true;
	}
	*ret_r = -ENOENT;
	return true;
}

/*
 * Walk path below the root. follow_last: resolve a final symlink too. The
 * result has no trailing slash; the root itself is "/".
 */
static int resolve(const char *path, bool follow_last, struct strbuf *ret)
{
	struct strbuf out = STRBUF_INIT, todo = STRBUF_INIT, comp = STRBUF_INIT,
		      target = STRBUF_INIT;
	unsigned links = 0;
	size_t pos = 0;
	int r = 0;

	if (strlen(path) > MAX_PATH_LEN)
		return -ENAMETOOLONG;
	if (mem_fast(path, follow_last, ret, &r))
		return r;
	strbuf_adds(&todo, path);
	while (pos < todo.len) {
		enum vnode_kind kind;
		const char *s = todo.buf + pos, *e;
		bool last;

		while (*s == '/')
			s++;
		e = strchrnul(s, '/');
		pos = (size_t)(e - todo.buf);
		if (e == s)
			break;
		strbuf_reset(&comp);
		strbuf_add(&comp, s, (size_t)(e - s));
		while (*e == '/')
			e++;
		last = *e == '\0';
		if (!strcmp(comp.buf, "."))
			continue;
		if (!strcmp(comp.buf, "..")) {
			pop_component(&out);
			continue;
		}
		strbuf_addch(&out, '/');
		strbuf_adds(&out, comp.buf);
		r = node_kind(out.buf, &kind);
		if (r < 0)
			goto done;
		if (kind == VNODE_LINK && (follow_last || !last)) {
			struct strbuf rest = STRBUF_INIT;

			if (++links > MAX_LINKS) {
				r = -ELOOP;
				goto done;
			}
			r = node_readlink(out.buf, &target);
			if (r < 0)
				goto done;
			pop_component(&out);
			if (target.buf[0] == '/')
				strbuf_reset(&out);
			/* the target replaces this component; what followed it comes after */
			strbuf_add(&rest, target.buf, target.len);
			strbuf_addch(&rest, '/');
			strbuf_adds(&rest, todo.buf + pos);
			if (rest.len > 8 * MAX_PATH_LEN) {
				strbuf_release(&rest);
				r = -ENAMETOOLONG;
				goto done;
			}
			strbuf_reset(&todo);
			strbuf_add(&todo, rest.buf, rest.len);
			strbuf_release(&rest);
			pos = 0;
			continue;
		}
		if (kind == VNODE_FILE && !last) {
			r = -ENOTDIR;
			goto done;
		}
	}
	if (!out.len)
		strbuf_addch(&out, '/');
	strbuf_reset(ret);
	strbuf_add(ret, out.buf, out.len);
done:
	strbuf_release(&out);
	strbuf_release(&todo);
	strbuf_release(&comp);
	strbuf_release(&target);
	return r;
}

int sysroot_resolve(const char *path, struct strbuf *ret)
{
	return resolve(path, true, ret);
}

bool sysroot_exists(const char *path)
{
	struct strbuf p = STRBUF_INIT;
	enum vnode_kind kind;
	int r = resolve(path, true, &p);

	if (r == 0 && rec.on && node_kind(p.buf, &kind) == 0)
		record_seen(p.buf, kind);
	strbuf_release(&p);
	return r == 0;
}

int sysroot_lkind(const char *path, enum vnode_kind *ret)
{
	struct strbuf canon = STRBUF_INIT;
	int r = resolve(path, false, &canon);

	if (r == 0)
		r = node_kind(canon.buf, ret);
	if (r == 0 && rec.on)
		record_seen(canon.buf, *ret);
	strbuf_release(&canon);
	return r;
}

int sysroot_readlink(const char *path, struct strbuf *ret)
{
	struct strbuf canon = STRBUF_INIT, t = STRBUF_INIT;
	int r;

	r = resolve(path, false, &canon);
	if (r == 0)
		r = node_readlink(canon.buf, &t);
	if (r == 0) {
		strbuf_reset(ret);
		strbuf_add(ret, t.buf, t.len);
	}
	strbuf_release(&canon);
	strbuf_release(&t);
	return r;
}

/* ---- reading ---- */

int read_fd_all(int fd, size_t max, struct strbuf *sb)
{
	for (;;) {
		ssize_t n;

		if (sb->len >= max)
			return -EFBIG;
		strbuf_grow(sb, 4096);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1 < max - sb->len
							 ? sb->alloc - sb->len - 1
							 : max - sb->len);
		if (n < 0) {
			if (errno == EINTR && !signal_stop)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	return 0;
}

const char *sysroot_special(void)
{
	return special;
}

static int read_canonical(const char *canon, size_t max, struct strbuf *sb)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int fd, r;

	strbuf_reset(sb);
	if (mem) {
		const struct vnode *n = mem_find(canon);

		if (!n)
			return node_kind(canon, &(enum vnode_kind){0}) == 0 ? -EISDIR : -ENOENT;
		if (n->kind != VNODE_FILE)
			return -EISDIR;
		if (n->unread)
			return -EACCES;
		if (n->len > max)
			return -EFBIG;
		strbuf_add(sb, n->data, n->len);
		return 0;
	}
	sysroot_path(&p, canon);
	/* a FIFO would block the open and the read: O_NONBLOCK, then only a regular file */
	fd = open(p.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	strbuf_release(&p);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (!special)
			special = strdup(canon);
		record_seen(canon, VNODE_FILE); /* a replay finds it unreadable too */
		return -EACCES;
	}
	r = read_fd_all(fd, max, sb);
	close(fd);
	if (r == 0)
		record(canon, VNODE_FILE, sb->buf, sb->len);
	return r;
}

int sysroot_read(const char *path, size_t max, struct strbuf *sb)
{
	struct strbuf canon = STRBUF_INIT;
	int r;

	r = resolve(path, true, &canon);
	if (r == 0)
		r = read_canonical(canon.buf, max, sb);
	strbuf_release(&canon);
	return r;
}

int sysroot_read_attr(const char *path, struct strbuf *sb)
{
	int r = sysroot_read(path, 64 * 1024, sb);

	if (r < 0)
		return r;
	sanitize_string(sb->buf);
	sb->len = strlen(sb->buf);
	return 0;
}

/* ---- listing ---- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void push_name(struct name_list *l, const char *name, size_t len)
{
	char **nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		abort();
	l->v = nv;
	l->v[l->n] = strndup(name, len);
	if (!l->v[l->n])
		abort();
	l->n++;
}

void name_list_release(struct name_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/*
 * The names right below dir. What lies deeper under a child is skipped with
 * one search ("a/b/..." all sort before "a/b0"), so listing a hub does not
 * go through every device below it. A child can come twice ("x", "x-a",
 * then "x/..."): sysroot_list drops the repeat after sorting.
 */
static void mem_list(const char *dir, struct name_list *l)
{
	struct strbuf p = STRBUF_INIT, next = STRBUF_INIT;
	size_t i;

	strbuf_addf(&p, "%s/", strcmp(dir, "/") ? dir : "");
	for (i = mem_lower_bound(p.buf); i < mem_n && !strncmp(mem[i].path, p.buf, p.len);) {
		const char *name = mem[i].path + p.len;
		size_t len = strcspn(name, "/");

		if (!l->n || strlen(l->v[l->n - 1]) != len || strncmp(l->v[l->n - 1], name, len))
			push_name(l, name, len);
		if (name[len] != '/') {
			i++;
			continue;
		}
		strbuf_reset(&next);
		strbuf_add(&next, mem[i].path, p.len + len);
		strbuf_addch(&next, '/' + 1);
		i = mem_lower_bound(next.buf);
	}
	strbuf_release(&p);
	strbuf_release(&next);
}

static int fs_list(const char *dir, struct name_list *l)
{
	struct strbuf p = STRBUF_INIT, child = STRBUF_INIT, t = STRBUF_INIT;
	struct dirent *de;
	DIR *dh;
	int fd;

	sysroot_path(&p, dir);
	/* the walk resolved the links: a link (or FIFO) swapped in since is not followed */
	fd = open(p.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	strbuf_release(&p);
	if (fd < 0)
		return -errno;
	dh = fdopendir(fd);
	if (!dh) {
		int r = -errno;

		close(fd);
		return r;
	}
	record(dir, VNODE_DIR, NULL, 0);
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		push_name(l, de->d_name, strlen(de->d_name));
		if (!rec.on)
			continue;
		/* a replay must list the same names: keep links and subdirectories */
		strbuf_reset(&child);
		strbuf_addf(&child, "%s/%s", strcmp(dir, "/") ? dir : "", de->d_name);
		if (de->d_type == DT_LNK)
			node_readlink(child.buf, &t);
		else if (de->d_type == DT_DIR)
			record(child.buf, VNODE_DIR, NULL, 0);
		else
			record_seen(child.buf, VNODE_FILE);
	}
	closedir(dh);
	strbuf_release(&child);
	strbuf_release(&t);
	return 0;
}

int sysroot_list(const char *path, struct name_list *ret)
{
	struct strbuf canon = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	enum vnode_kind kind;
	int r;

	r = resolve(path, true, &canon);
	if (r == 0)
		r = node_kind(canon.buf, &kind);
	if (r == 0 && kind != VNODE_DIR)
		r = -ENOTDIR;
	if (r == 0) {
		if (mem)
			mem_list(canon.buf, &l);
		else
			r = fs_list(canon.buf, &l);
	}
	strbuf_release(&canon);
	if (r < 0) {
		name_list_release(&l);
		return r;
	}
	/* an empty directory has no array: qsort must not see its NULL */
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), name_cmp);
	if (mem && l.n) {
		size_t i, k = 1;

		for (i = 1; i < l.n; i++) {
			if (!strcmp(l.v[i], l.v[k - 1]))
				free(l.v[i]);
			else
				l.v[k++] = l.v[i];
		}
		l.n = k;
	}
	*ret = l;
	return 0;
}

// SPDX-License-Identifier: MIT
#include "platform/sys/mounts.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool is_oct(char c)
{
	return c >= '0' && c <= '7';
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static char *unescape(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && is_oct(s[i + 1]) && is_oct(s[i + 2]) &&
		    is_oct(s[i + 3])) {
			*o++ = (char)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) |
				      (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	sanitize_string(out);
	return out;
}

/* split line into space-separated fields; returns count (at most max) */
static size_t split(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && n < max) {
		size_t start;

		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && line[i] != ' ')
			i++;
		f[n] = line + start;
		flen[n] = i - start;
		n++;
	}
	return n;
}

static int parse_line(const char *line, size_t len, struct mount_entry *ret)
{
	const char *f[32];
	size_t fl[32], n, sep;
	char num[16], *colon;
	uint64_t maj, min;

	n = split(line, len, f, fl, 32);
	/* id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
	if (n < 10)
		return -EINVAL;
	for (sep = 6; sep < n; sep++)
		if (fl[sep] == 1 && f[sep][0] == '-')
			break;
	if (sep + 2 >= n)
		return -EINVAL;
	if (fl[2] >= sizeof(num))
		return -EINVAL;
	memcpy(num, f[2], fl[2]);
	num[fl[2]] = '\0';
	colon = strchr(num, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (parse_u64(num, 0, 0xfffff, &maj) < 0 || parse_u64(colon + 1, 0, 0xfffff, &min) < 0)
		return -EINVAL;
	ret->major = (unsigned)maj;
	ret->minor = (unsigned)min;
	ret->root = unescape(f[3], fl[3]);
	ret->mount_point = unescape(f[4], fl[4]);
	ret->fs_type = unescape(f[sep + 1], fl[sep + 1]);
	ret->source = unescape(f[sep + 2], fl[sep + 2]);
	if (!ret->root || !ret->mount_point || !ret->fs_type || !ret->source) {
		free_all(ret->root, ret->mount_point, ret->fs_type, ret->source);
		return -ENOMEM;
	}
	return 0;
}

int mounts_parse(const char *text, struct mount_table *ret)
{
	struct mount_table t = {0};
	size_t cap = 0;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct mount_entry e;

		if (parse_line(p, len, &e) == 0) {
			if (t.n == cap) {
				struct mount_entry *ne;
				cap = cap ? cap * 2 : 32;
				ne = realloc(t.e, cap * sizeof(*ne));
				if (!ne) {
					mount_table_release(&t);
					return -ENOMEM;
				}
				t.e = ne;
			}
			t.e[t.n++] = e;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	*ret = t;
	return 0;
}

int mounts_load(struct mount_table *ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	r = sysroot_read("/proc/self/mountinfo", 16 << 20, &sb);
	if (r == 0)
		r = mounts_parse(sb.buf, ret);
	strbuf_release(&sb);
	return r;
}

void mount_table_release(struct mount_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free_all(t->e[i].root, t->e[i].mount_point, t->e[i].fs_type, t->e[i].source);
	free(t->e);
	t->e = NULL;
	t->n = 0;
}

static bool is_prefix_dir(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return path[0] == '/';
	return strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

const struct mount_entry *mounts_find_path(const struct mount_table *t, const char *abspath)
{
	const struct mount_entry *best = NULL;
	size_t best_len = 0, i;

	/* later entries shadow earlier ones on the same mount point: take the last */
	for (i = 0; i < t->n; i++) {
		size_t n = strlen(t->e[i].mount_point);
		if (is_prefix_dir(t->e[i].mount_point, abspath) && (!best || n >= best_len)) {
			best = &t->e[i];
			best_len = n;
		}
	}
	return best;
}

const struct mount_entry *mounts_find_dev(const struct mount_table *t, unsigned maj, unsigned min)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].major == maj && t->e[i].minor == min)
			return &t->e[i];
	return NULL;
}

bool fs_is_fuse(const char *fs_type)
{
	/* fuse, fuseblk, fuse.sshfs…; fusectl is FUSE's control filesystem, not a disk */
	return strncmp(fs_type, "fuse", 4) == 0 && strcmp(fs_type, "fusectl") != 0;
}

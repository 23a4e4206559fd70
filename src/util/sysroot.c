// SPDX-License-Identifier: MIT
#include "util/sysroot.h"
#include "util/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const char *root = "";

void sysroot_set(const char *r)
{
	root = r ? r : "";
}

const char *sysroot_get(void)
{
	return root;
}

void sysroot_path(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	strbuf_adds(sb, root);
	strbuf_adds(sb, path);
}

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
			if (errno == EINTR)
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

int sysroot_read(const char *path, size_t max, struct strbuf *sb)
{
	struct strbuf p = STRBUF_INIT;
	int fd, r;

	sysroot_path(&p, path);
	fd = open(p.buf, O_RDONLY | O_CLOEXEC);
	strbuf_release(&p);
	if (fd < 0)
		return -errno;
	strbuf_reset(sb);
	r = read_fd_all(fd, max, sb);
	close(fd);
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

// SPDX-License-Identifier: MIT
/*
 * The copy path (`usbperf run --copy SRC DST`): the vendor guides' USB disk
 * to eMMC case. A file on SRC is copied to DST the way cp and dd do it —
 * read a chunk, write it, fsync at the end — after the caches are dropped,
 * at several chunk sizes. Set against SRC's read and DST's write figures,
 * it says which side limits the copy.
 */
#include "classes/disk/cache.h"
#include "platform/sys/safety.h"
#include "classes/copy/copy.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/signals.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define FILL_CHUNK (1u << 20)


/* "--copy: " before a reason from the safety rules */
static int prefix_why(char **ret_why)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "--copy: %s", *ret_why ? *ret_why : "cannot create the test files");
	free(*ret_why);
	*ret_why = strbuf_detach(&sb);
	return -EINVAL;
}

int run_copy_check(const char *src_dir, const char *dst_dir, uint64_t size, char **ret_why)
{
	int r;

	*ret_why = NULL;
	/* the source file, and room for the copy with an eighth to spare */
	r = safety_check_dir(src_dir, size, ret_why);
	if (r == 0)
		r = safety_check_dir(dst_dir, size + (size >> 3), ret_why);
	return r < 0 ? prefix_why(ret_why) : 0;
}

/* incompressible, and no two megabytes alike (no dedupe), so the device does the work */
static int fill(int fd, uint64_t size, const volatile int *stop)
{
	char *buf = malloc(FILL_CHUNK);
	uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid(), off;
	size_t i;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < FILL_CHUNK; i += 8) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
	for (off = 0; off < size && !r && !(stop && *stop); off += FILL_CHUNK) {
		memcpy(buf, &off, sizeof(off));
		r = fd_write_all(fd, buf, FILL_CHUNK);
	}
	if (!r && fsync(fd) < 0)
		r = -errno;
	free(buf);
	return r;
}

/* one copy at one chunk size: bytes/s, or -errno */
static int copy_once(const struct run_copy_source *src, const struct run_copy_sink *dst,
		     uint32_t chunk, double cap_s, const volatile int *stop,
		     struct run_copy_row *row)
{
	char *buf = aligned_alloc(4096, chunk);
	uint64_t t0, bytes = 0;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	/* the same file each time, emptied: never a name opened again */
	r = dst->begin(dst->ctx);
	if (r == 0)
		r = src->begin(src->ctx);
	if (r < 0) {
		free(buf);
		return r;
	}
	t0 = clock_now_ns();
	for (;;) {
		ssize_t n = src->read(src->ctx, buf, chunk);

		if (n == -EINTR && !(stop && *stop))
			continue;
		if (n <= 0) {
			r = n < 0 ? (int)n : 0;
			break;
		}
		r = dst->write(dst->ctx, buf, (size_t)n);
		if (r < 0)
			break;
		bytes += (uint64_t)n;
		if ((stop && *stop) || (double)(clock_now_ns() - t0) / 1e9 > cap_s)
			break;
	}
	/* the copy is done when the data is on DST, as dd conv=fsync says */
	if (!r)
		r = dst->end(dst->ctx);
	row->seconds = (double)(clock_now_ns() - t0) / 1e9;
	row->bytes = bytes;
	row->mb_s = row->seconds > 0 ? (double)bytes / row->seconds / 1e6 : 0;
	free(buf);
	return r;
}

/* the file on SRC: read from the start with its pages dropped from the cache */
static int fsrc_begin(void *ctx)
{
	int fd = *(int *)ctx;

	cache_drop(fd);
	return lseek(fd, 0, SEEK_SET) < 0 ? -errno : 0;
}

static ssize_t fsrc_read(void *ctx, char *buf, size_t len)
{
	ssize_t n = read(*(int *)ctx, buf, len);

	return n < 0 ? -errno : n;
}

/* the chunk sizes, one copy each */
static int copy_chunks(const struct run_copy_source *src, const struct run_copy_sink *dst,
		       double cap_s, const volatile int *stop, struct run_copy_row *rows,
		       size_t *ret_n, char **ret_why)
{
	static const uint32_t chunks[RUN_COPY_CHUNKS] = {64 << 10, 1 << 20, 4 << 20};
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < RUN_COPY_CHUNKS && !(stop && *stop); i++) {
		rows[n].chunk = chunks[i];
		r = copy_once(src, dst, chunks[i], cap_s, stop, &rows[n]);
		if (r < 0)
			return reason_set(-EINVAL, ret_why, "--copy from '%s' to '%s': %s",
					  src->what, dst->what, strerror(-r));
		n++;
	}
	*ret_n = n;
	return 0;
}

static int file_begin(void *ctx)
{
	int fd = *(int *)ctx;

	return ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0 ? -errno : 0;
}

static int file_write(void *ctx, const char *buf, size_t len)
{
	return fd_write_all(*(int *)ctx, buf, len);
}

static int file_end(void *ctx)
{
	return fsync(*(int *)ctx) < 0 ? -errno : 0;
}

int run_copy(const char *src_dir, const char *dst_dir, uint64_t size, double cap_s,
	     const volatile int *stop, struct run_copy_row *rows, size_t *ret_n, char **ret_why)
{
	struct strbuf dp = STRBUF_INIT;
	struct run_copy_sink sink;
	int dst = -1, r;

	r = run_copy_check(src_dir, dst_dir, size, ret_why);
	if (r < 0)
		return r;
	r = safety_create_file(dst_dir, "copy", 0, false, &dp, &dst, ret_why);
	if (r < 0) {
		strbuf_release(&dp);
		return prefix_why(ret_why);
	}
	signals_set_cleanup(dp.buf);
	sink = (struct run_copy_sink){&dst, dst_dir, file_begin, file_write, file_end};
	r = run_copy_to(src_dir, &sink, size, cap_s, stop, rows, ret_n, ret_why);
	close(dst);
	unlink(dp.buf);
	signals_set_cleanup(NULL);
	strbuf_release(&dp);
	return r;
}

int run_copy_to(const char *src_dir, const struct run_copy_sink *dst, uint64_t size, double cap_s,
		const volatile int *stop, struct run_copy_row *rows, size_t *ret_n, char **ret_why)
{
	struct strbuf sp = STRBUF_INIT;
	struct run_copy_source source;
	int src = -1, r;

	r = safety_create_file(src_dir, "copy", size, false, &sp, &src, ret_why);
	if (r < 0) {
		r = prefix_why(ret_why);
		goto out;
	}
	signals_add_cleanup(sp.buf);
	r = fill(src, size, stop);
	if (r < 0) {
		reason_set(-EINVAL, ret_why, "--copy: cannot write '%s': %s", sp.buf, strerror(-r));
		goto out;
	}
	source = (struct run_copy_source){&src, sp.buf, fsrc_begin, fsrc_read};
	r = copy_chunks(&source, dst, cap_s, stop, rows, ret_n, ret_why);
out:
	if (src >= 0) {
		close(src);
		unlink(sp.buf);
	}
	strbuf_release(&sp);
	return r;
}

int run_copy_check_dst(const char *dst_dir, uint64_t size, char **ret_why)
{
	int r;

	*ret_why = NULL;
	r = safety_check_dir(dst_dir, size + (size >> 3), ret_why);
	return r < 0 ? prefix_why(ret_why) : 0;
}

int run_copy_from(const struct run_copy_source *src, const char *dst_dir,
		  const struct run_copy_sink *sink, double cap_s, const volatile int *stop,
		  struct run_copy_row *rows, size_t *ret_n, char **ret_why)
{
	struct strbuf dp = STRBUF_INIT;
	struct run_copy_sink fsink;
	int dst = -1, r;

	if (!dst_dir)
		return copy_chunks(src, sink, cap_s, stop, rows, ret_n, ret_why);
	r = safety_create_file(dst_dir, "copy", 0, false, &dp, &dst, ret_why);
	if (r < 0) {
		strbuf_release(&dp);
		return prefix_why(ret_why);
	}
	signals_set_cleanup(dp.buf);
	fsink = (struct run_copy_sink){&dst, dst_dir, file_begin, file_write, file_end};
	r = copy_chunks(src, &fsink, cap_s, stop, rows, ret_n, ret_why);
	close(dst);
	unlink(dp.buf);
	signals_set_cleanup(NULL);
	strbuf_release(&dp);
	return r;
}

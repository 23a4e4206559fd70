/* SPDX-License-Identifier: MIT */
#pragma once
/* The copy path of `usbperf run --copy SRC DST`: cp/dd's way, at several chunk sizes. */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RUN_COPY_CHUNKS 3 /* 64K, 1M, 4M */

struct run_copy_row {
	uint32_t chunk;
	uint64_t bytes;
	double seconds;
	double mb_s; /* 10^6 B/s, fsync on DST included */
};

/* SRC and DST are writable directories with room for the test: -EINVAL with *ret_why if not */
int run_copy_check(const char *src_dir, const char *dst_dir, uint64_t size, char **ret_why);

/*
 * Write a size-byte file on src_dir, then copy it to dst_dir at each chunk
 * size (caches dropped first, capped at cap_s each). Both files are removed,
 * also on SIGINT/SIGTERM. -EINVAL with *ret_why on a bad directory or error.
 */
int run_copy(const char *src_dir, const char *dst_dir, uint64_t size, double cap_s,
	     const volatile int *stop, struct run_copy_row *rows, size_t *ret_n, char **ret_why);

/* where a copy writes: a file on DST, or raw flash (classes/mtd/mtd_run.h) */
struct run_copy_sink {
	void *ctx;
	const char *what;	 /* for errors: the directory or the node */
	int (*begin)(void *ctx); /* before each copy: start over */
	int (*write)(void *ctx, const char *buf, size_t len); /* all of it, or -errno */
	int (*end)(void *ctx);				      /* the data on the device */
};

/* run_copy into a sink: src_dir's file copied at each chunk size, as above */
int run_copy_to(const char *src_dir, const struct run_copy_sink *dst, uint64_t size, double cap_s,
		const volatile int *stop, struct run_copy_row *rows, size_t *ret_n, char **ret_why);

/* where a copy reads: a file on SRC, or raw flash (classes/mtd/mtd_run.h) */
struct run_copy_source {
	void *ctx;
	const char *what;	 /* for errors: the node */
	int (*begin)(void *ctx); /* before each copy: from the start, nothing cached */
	/* up to len bytes; 0 at the end of what is copied, -errno */
	ssize_t (*read)(void *ctx, char *buf, size_t len);
};

/* DST has room for size bytes and an eighth: -EINVAL with *ret_why if not */
int run_copy_check_dst(const char *dst_dir, uint64_t size, char **ret_why);

/*
 * A source copied into a file on dst_dir at each chunk size (the file
 * removed after, also on SIGINT/SIGTERM), or into a sink (dst_dir NULL).
 */
int run_copy_from(const struct run_copy_source *src, const char *dst_dir,
		  const struct run_copy_sink *sink, double cap_s, const volatile int *stop,
		  struct run_copy_row *rows, size_t *ret_n, char **ret_why);

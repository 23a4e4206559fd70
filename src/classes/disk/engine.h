/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * I/O backends for the disk benchmark. The pass loop in pass.c owns the
 * buffers and the clock; an engine only moves requests to the kernel and
 * hands back completions, so psync, io_uring and null share every line of
 * timing, accounting and verification.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct disk_io {
	uint64_t off;
	void *buf;
	uint32_t len;
	uint32_t slot;	  /* index in the pass loop's slot table */
	bool write;
	int64_t res;	  /* bytes moved or negative errno, set by the engine */
	uint64_t t_issue; /* ns, set by the pass loop */
	uint64_t lap;	  /* times the pass had gone over its region when this was issued */
};

struct disk_engine;

struct disk_engine_ops {
	const char *name;
	unsigned max_qd; /* 1 for synchronous engines */
	/* bufs: the nbufs buffers (buflen bytes each) every io will point into */
	int (*open)(struct disk_engine *e, int fd, unsigned qd, void **bufs, unsigned nbufs,
		    size_t buflen);
	/* queue one request; it may complete immediately (synchronous engines) */
	int (*queue)(struct disk_engine *e, struct disk_io *io);
	/* hand queued requests to the kernel (an engine may defer this to reap) */
	int (*submit)(struct disk_engine *e);
	/* submit what is queued, wait for at least min completions, store up to max
	 * into done[], return the count */
	int (*reap)(struct disk_engine *e, unsigned min, struct disk_io **done, unsigned max);
	void (*close)(struct disk_engine *e);
};

struct disk_engine {
	const struct disk_engine_ops *ops;
	int fd;
	void *priv;
};

extern const struct disk_engine_ops disk_engine_psync;
extern const struct disk_engine_ops disk_engine_io_uring;
extern const struct disk_engine_ops disk_engine_null;

/* NULL if unknown */
const struct disk_engine_ops *disk_engine_find(const char *name);

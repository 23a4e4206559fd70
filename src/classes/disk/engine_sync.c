// SPDX-License-Identifier: MIT
/* The synchronous engines: psync (pread/pwrite, queue depth 1) and null. */
#include "classes/disk/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sync_priv {
	struct disk_io *done; /* the one completed request waiting to be reaped */
};

static int sync_open(struct disk_engine *e, int fd, unsigned qd, void **bufs, unsigned nbufs,
		     size_t buflen)
{
	struct sync_priv *p;

	(void)bufs;
	(void)nbufs;
	(void)buflen;
	if (qd != 1)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	e->fd = fd;
	e->priv = p;
	return 0;
}

static int64_t do_io(int fd, struct disk_io *io)
{
	size_t done = 0;

	/* a short transfer is continued: only EOF or an error ends it early */
	while (done < io->len) {
		char *b = (char *)io->buf + done;
		ssize_t n = io->write ? pwrite(fd, b, io->len - done, (off_t)(io->off + done))
				      : pread(fd, b, io->len - done, (off_t)(io->off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return done ? (int64_t)done : -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int64_t)done;
}

/* one request at a time: done at once, held until reaped */
static int sync_queue(struct disk_engine *e, struct disk_io *io, bool move_data)
{
	struct sync_priv *p = e->priv;

	if (p->done)
		return -EBUSY;
	io->res = move_data ? do_io(e->fd, io) : io->len;
	p->done = io;
	return 0;
}

static int psync_queue(struct disk_engine *e, struct disk_io *io)
{
	return sync_queue(e, io, true);
}

static int null_queue(struct disk_engine *e, struct disk_io *io)
{
	return sync_queue(e, io, false);
}

static int sync_submit(struct disk_engine *e)
{
	(void)e;
	return 0;
}

static int sync_reap(struct disk_engine *e, unsigned min, struct disk_io **done, unsigned max)
{
	struct sync_priv *p = e->priv;

	(void)min;
	if (!p->done || max == 0)
		return 0;
	done[0] = p->done;
	p->done = NULL;
	return 1;
}

static void sync_close(struct disk_engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct disk_engine_ops disk_engine_psync = {
	.name = "psync",
	.max_qd = 1,
	.open = sync_open,
	.queue = psync_queue,
	.submit = sync_submit,
	.reap = sync_reap,
	.close = sync_close,
};

/* Completes every request at once without touching the device: lets the
 * whole pipeline run in tests, and measures usbperf's own overhead. */
const struct disk_engine_ops disk_engine_null = {
	.name = "null",
	.max_qd = 1,
	.open = sync_open,
	.queue = null_queue,
	.submit = sync_submit,
	.reap = sync_reap,
	.close = sync_close,
};

const struct disk_engine_ops *disk_engine_find(const char *name)
{
	static const struct disk_engine_ops *all[] = {&disk_engine_psync, &disk_engine_io_uring,
						      &disk_engine_null};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

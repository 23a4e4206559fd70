/* SPDX-License-Identifier: MIT */
#pragma once
/* Between serve.c (ep0) and stream.c (the bulk endpoint's thread); not an API. */
#include "classes/uvcgadget/uvcg.h"

#include <pthread.h>
#include <stdatomic.h>

struct uvcg_server {
	const struct uvcg_serve_config *cfg;
	int ep0; /* the gadgetfs ep0 file */
	int ep;	 /* the bulk IN endpoint's file, -1 until a configuration is set */
	char ep_name[64];
	struct uvcg_desc desc;
	struct uvcg_ctrl ctrl;
	pthread_mutex_t lock; /* fn */
	struct uvcg_function fn;
	/* the stream thread */
	pthread_t th;
	bool th_live;
	bool ended; /* a stream was stopped since the watchdog last looked */
	atomic_bool quit;			  /* asked to end */
	atomic_uint_fast64_t write_since;	  /* CLOCK_MONOTONIC ns a write began; 0 none */
	atomic_bool stalled;			  /* the watchdog interrupted a write */
	const char *quit_why;			  /* how the stream is being ended */
	struct uvcg_probe commit;		  /* what the stream sends */
	/* the frames of each format and size, made before the bind (or at first use) */
	struct uvcg_frames rings[UVCG_MAX_FORMATS][UVCG_MAX_FRAMES];
	const struct uvcg_frames *frames; /* the stream's ring */
};

/* make every format and size's frames now, if they fit UVCG_PREMADE_BYTES together */
void uvcg_stream_premake(struct uvcg_server *s);
void uvcg_stream_free_rings(struct uvcg_server *s);
/* start a stream with s->commit (one running is stopped first, with why) */
int uvcg_stream_start(struct uvcg_server *s, char **ret_why);
/* end the running stream, if any, and say why it ended */
void uvcg_stream_stop(struct uvcg_server *s, const char *why);
/*
 * A write the host has not taken for cfg->stall_s: interrupt it, the stream
 * ends. true when a stream ended since the last call (its figures are final).
 */
bool uvcg_stream_watch(struct uvcg_server *s, uint64_t now);
/* with s->lock held: the slot of the next stream in s->fn.s (the oldest dropped when full) */
struct uvcg_stats *uvcg_stream_slot(struct uvcg_server *s);

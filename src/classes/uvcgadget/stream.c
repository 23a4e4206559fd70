// SPDX-License-Identifier: MIT
/*
 * The bulk endpoint's thread: one stream per commit. Frames go out paced
 * to the committed interval (pace.c), each cut into payloads with their
 * headers written with writev (no copy in user space). gadgetfs writes are
 * synchronous; the host stopping (uvcvideo's STREAMOFF only kills its URBs:
 * the CLEAR_FEATURE(HALT) it sends is answered by the UDC, never seen here)
 * shows as a write nobody takes, which the watchdog interrupts.
 */
#include "classes/uvcgadget/serve_priv.h"
#include "platform/sys/cpustat.h"
#include "util/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

struct uvcg_stats *uvcg_stream_slot(struct uvcg_server *s)
{
	struct uvcg_function *f = &s->fn;

	if (f->n == UVCG_STREAMS_KEPT) {
		memmove(&f->s[0], &f->s[1], sizeof(f->s[0]) * (UVCG_STREAMS_KEPT - 1));
		f->n--;
	}
	f->s[f->n] = (struct uvcg_stats){0};
	return &f->s[f->n++];
}

struct run {
	struct uvcg_server *s;
	struct uvcg_stats st;
	struct uvcg_pace pace;
	uint64_t t_first, t_last; /* the first and last frame's start */
	double cpu0;
	bool fid;
};

/* the figures so far into the function's record of this stream */
static void publish(struct run *r, uint64_t now)
{
	struct uvcg_stats *st = &r->st;
	double cpu = cpu_self_s() - r->cpu0, wall = (double)(now - r->pace.t0) / 1e9;

	st->frames = r->pace.slots;
	st->late = r->pace.late;
	st->sent = r->pace.sent;
	st->seconds = r->t_last ? wall : 0;
	st->fps = st->sent > 1 ? (double)(st->sent - 1) * 1e9 / (double)(r->t_last - r->t_first)
			       : NAN;
	st->mb_s = wall > 0 ? (double)st->data_bytes / wall / 1e6 : NAN;
	st->frame_bytes_mean = st->sent ? (double)st->data_bytes / (double)st->sent : NAN;
	st->cpu_pct = wall > 0 ? cpu / wall * 100 : NAN;
	st->cpu_us_per_frame = st->sent ? cpu * 1e6 / (double)st->sent : NAN;
	pthread_mutex_lock(&r->s->lock);
	for (size_t i = r->s->fn.n; i > 0; i--)
		if (r->s->fn.s[i - 1].stream == st->stream) {
			r->s->fn.s[i - 1] = *st;
			break;
		}
	pthread_mutex_unlock(&r->s->lock);
}

/* one write the watchdog can interrupt: 0, or -errno (-EINTR: interrupted) */
static int put(struct uvcg_server *s, const struct iovec *iov, int n, size_t len)
{
	ssize_t w;

	if (atomic_load(&s->quit))
		return -EINTR;
	atomic_store(&s->write_since, clock_now_ns());
	w = writev(s->ep, iov, n);
	atomic_store(&s->write_since, 0);
	if (w < 0)
		return -errno;
	return (size_t)w == len ? 0 : -EIO;
}

/* one frame as payloads: 0 sent whole, -errno cut off */
static int send_frame(struct run *r, const uint8_t *data, size_t len, uint64_t slot)
{
	struct uvcg_server *s = r->s;
	uint32_t maxp = s->commit.max_payload;
	uint64_t n = uvcg_payloads(len, maxp), i, off = 0;
	uint32_t pts = uvcg_stc(uvcg_pace_slot_ns(&r->pace, slot));
	unsigned packet = s->fn.speed && !strcmp(s->fn.speed, "full") ? 64 : 512;
	int e;

	for (i = 0; i < n; i++) {
		uint32_t d = uvcg_payload_data(len, maxp, i);
		uint64_t now = clock_now_ns();
		uint8_t h[UVCG_HEADER_BYTES];
		struct iovec iov[2] = {{h, sizeof(h)}, {(void *)(data + off), d}};

		uvcg_header(h, r->fid, i + 1 == n, pts, uvcg_stc(now), uvcg_sof(now));
		e = put(s, iov, d ? 2 : 1, sizeof(h) + d);
		if (e < 0)
			return e;
		r->st.payloads++;
		r->st.header_bytes += sizeof(h);
		r->st.data_bytes += d;
		off += d;
		if (uvcg_payload_zlp((uint32_t)sizeof(h) + d, maxp, packet)) {
			e = put(s, iov, 0, 0);
			if (e < 0)
				return e;
			r->st.zlps++;
		}
	}
	return 0;
}

static const char *end_reason(struct uvcg_server *s, int e)
{
	static __thread char buf[64];

	if (atomic_load(&s->stalled))
		return "the host stopped reading";
	if (e == -EINTR || atomic_load(&s->quit))
		return s->quit_why ? s->quit_why : "stopped";
	if (e == -ESHUTDOWN || e == -ECONNRESET || e == -ENODEV)
		return "disconnected";
	snprintf(buf, sizeof(buf), "write: %s", strerror(-e));
	return buf;
}

static void nap(uint64_t ns)
{
	struct timespec t = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};

	nanosleep(&t, NULL);
}

static void stream_loop(struct run *r)
{
	struct uvcg_server *s = r->s;
	uint64_t slot, now;
	int e = 0;

	for (;;) {
		int64_t wait;
		const uint8_t *data;
		size_t len;

		now = clock_now_ns();
		wait = uvcg_pace_next(&r->pace, now, &slot);
		if (wait == -ENOSPC) {
			r->st.ended = "its stream_frames were sent";
			break;
		}
		if (wait > 0) {
			/* at most 50 ms at a time: the end is asked for by a flag */
			nap((uint64_t)wait < 50000000u ? (uint64_t)wait : 50000000u);
			if (atomic_load(&s->quit)) {
				e = -EINTR;
				break;
			}
			continue;
		}
		data = uvcg_frames_get(s->frames, slot, &len);
		if (!r->t_first)
			r->t_first = now;
		e = send_frame(r, data, len, slot);
		if (e < 0) {
			r->st.aborted++;
			break;
		}
		r->t_last = now;
		uvcg_pace_sent(&r->pace);
		r->fid = !r->fid;
		publish(r, clock_now_ns());
	}
	if (!r->st.ended)
		r->st.ended = end_reason(s, e);
	r->st.running = false;
	publish(r, clock_now_ns());
}

/* the ring of a commit's format and frame */
static struct uvcg_frames *ring_of(struct uvcg_server *s, const struct uvcg_probe *pr)
{
	const struct uvcg_params *p = s->ctrl.p;
	unsigned f = pr->format >= 1 && pr->format <= p->nformats ? pr->format - 1u : 0;
	unsigned z = pr->frame >= 1 && pr->frame <= p->nframes ? pr->frame - 1u : 0;

	return &s->rings[f][z];
}

void uvcg_stream_premake(struct uvcg_server *s)
{
	const struct uvcg_params *p = s->ctrl.p;
	uint64_t total = 0;
	unsigned f, z;

	for (z = 0; z < p->nframes; z++) {
		uint64_t one = uvcg_frame_bytes_yuyv(&p->frames[z]);
		uint64_t n = one ? UVCG_RING_BYTES / one : 0;

		total += p->nformats * one * (n < 1 ? 1 : n > UVCG_RING ? UVCG_RING : n);
	}
	if (total > UVCG_PREMADE_BYTES)
		return; /* made at first use instead */
	for (f = 0; f < p->nformats; f++)
		for (z = 0; z < p->nframes; z++)
			uvcg_frames_make(&s->rings[f][z], p->formats[f], p->frames[z]);
}

void uvcg_stream_free_rings(struct uvcg_server *s)
{
	unsigned f, z;

	for (f = 0; f < UVCG_MAX_FORMATS; f++)
		for (z = 0; z < UVCG_MAX_FRAMES; z++)
			uvcg_frames_release(&s->rings[f][z]);
}

static void *stream_main(void *arg)
{
	struct run r = {.s = arg};
	struct uvcg_server *s = r.s;
	enum uvcg_format f = uvcg_probe_format(s->ctrl.p, &s->commit);
	struct uvcg_size z = uvcg_probe_size(s->ctrl.p, &s->commit);
	struct uvcg_frames *ring = ring_of(s, &s->commit);
	int e = 0;

	pthread_mutex_lock(&s->lock);
	r.st = s->fn.s[s->fn.n - 1];
	pthread_mutex_unlock(&s->lock);
	if (!ring->n)
		e = uvcg_frames_make(ring, f, z);
	s->frames = ring;
	r.st.make_s = ring->make_s;
	if (e < 0) {
		r.st.ended = e == -ENOTSUP ? "MJPG asked: built without libjpeg" : "out of memory";
		r.st.running = false;
		publish(&r, clock_now_ns());
		return NULL;
	}
	r.cpu0 = cpu_self_s();
	uvcg_pace_start(&r.pace, clock_now_ns(), (uint64_t)s->commit.interval * 100,
			s->cfg->params.stream_frames);
	stream_loop(&r);
	return NULL;
}

int uvcg_stream_start(struct uvcg_server *s, char **ret_why)
{
	struct uvcg_stats *st;
	struct uvcg_size z = uvcg_probe_size(s->ctrl.p, &s->commit);
	sigset_t all, old;
	int e;

	uvcg_stream_stop(s, "a new commit");
	if (s->ep < 0)
		return reason_set(-ENOTCONN, ret_why, "a commit before the configuration was set");
	pthread_mutex_lock(&s->lock);
	st = uvcg_stream_slot(s);
	st->stream = ++s->fn.streams;
	st->fourcc = uvcg_format_fourcc(uvcg_probe_format(s->ctrl.p, &s->commit));
	st->width = z.width;
	st->height = z.height;
	st->interval_100ns = s->commit.interval;
	st->nominal_fps = s->commit.interval ? 1e7 / s->commit.interval : NAN;
	st->max_payload = s->commit.max_payload;
	st->running = true;
	s->fn.state = "streaming";
	pthread_mutex_unlock(&s->lock);
	atomic_store(&s->quit, false);
	atomic_store(&s->stalled, false);
	s->quit_why = NULL;
	/* the stop signals are the main thread's: a write here is cut only by the watchdog */
	sigfillset(&all);
	sigdelset(&all, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&s->th, NULL, stream_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e)
		return reason_set(-e, ret_why, "cannot start the stream thread: %s", strerror(e));
	s->th_live = true;
	return 0;
}

void uvcg_stream_stop(struct uvcg_server *s, const char *why)
{
	if (!s->th_live)
		return;
	s->quit_why = why;
	atomic_store(&s->quit, true);
	/*
	 * A write in progress is interrupted (again and again: a signal that lands
	 * just before the write begins is lost); one about to begin sees quit.
	 */
	while (pthread_tryjoin_np(s->th, NULL) != 0) {
		if (atomic_load(&s->write_since))
			pthread_kill(s->th, SIGUSR1);
		nap(2000000);
	}
	s->th_live = false;
	s->ended = true;
	pthread_mutex_lock(&s->lock);
	if (!strcmp(s->fn.state, "streaming"))
		s->fn.state = "idle";
	pthread_mutex_unlock(&s->lock);
}

bool uvcg_stream_watch(struct uvcg_server *s, uint64_t now)
{
	uint64_t since = atomic_load(&s->write_since);
	bool ended = s->ended;

	s->ended = false;
	if (s->th_live && pthread_tryjoin_np(s->th, NULL) == 0) {
		s->th_live = false;
		pthread_mutex_lock(&s->lock);
		if (!strcmp(s->fn.state, "streaming"))
			s->fn.state = "idle";
		pthread_mutex_unlock(&s->lock);
		return true;
	}
	if (s->th_live && since && now - since >= (uint64_t)(s->cfg->stall_s * 1e9)) {
		atomic_store(&s->stalled, true);
		pthread_kill(s->th, SIGUSR1);
	}
	return ended;
}

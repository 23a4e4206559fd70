// SPDX-License-Identifier: MIT
/* The running test: threads, intervals, omitted seconds, the end, the final counts. */
#include "classes/net/session.h"
#include "classes/net/sock.h"
#include "util/clock.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <linux/sockios.h>
#include <sys/socket.h>
#include <unistd.h>

#define NS 1000000000.0
#define MAX_WAIT_MS 200
#define MIN_LAST_INTERVAL 0.1 /* a last interval shorter than this share is left out */

const char *net_end_text(enum net_end e)
{
	switch (e) {
	case NET_END_NONE: return "not run";
	case NET_END_DONE: return "done";
	case NET_END_SIGNAL: return "interrupted";
	case NET_END_PEER_GONE: return "the peer closed the control connection";
	case NET_END_PEER_ABORT: return "the peer ended the test";
	case NET_END_TIMEOUT: return "the peer went silent";
	case NET_END_STREAM: return "a data stream failed";
	case NET_END_PROTOCOL: return "unexpected control message";
	}
	return "?";
}

int net_session_init(struct net_session *s)
{
	size_t n = s->nstreams ? s->nstreams : 1;

	s->finals = calloc(n, sizeof(*s->finals));
	s->base = calloc(n, sizeof(*s->base));
	s->prev = calloc(n, sizeof(*s->prev));
	s->retr_base = calloc(n, sizeof(*s->retr_base));
	s->retr_prev = calloc(n, sizeof(*s->retr_prev));
	s->sh.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!s->finals || !s->base || !s->prev || !s->retr_base || !s->retr_prev ||
	    s->sh.wake_fd < 0)
		return -ENOMEM;
	return 0;
}

void net_session_release(struct net_session *s)
{
	size_t i;

	net_phase_set(&s->sh, NET_PHASE_EXIT);
	for (i = 0; i < s->nstreams; i++)
		net_stream_release(&s->streams[i]);
	if (s->sh.wake_fd >= 0)
		close(s->sh.wake_fd);
	s->sh.wake_fd = -1;
	free_all(s->finals, s->base, s->prev, s->retr_base, s->retr_prev);
	s->finals = NULL;
	s->base = s->prev = NULL;
	s->retr_base = s->retr_prev = NULL;
}

void net_session_close_streams(struct net_session *s)
{
	size_t i;

	net_phase_set(&s->sh, NET_PHASE_EXIT);
	for (i = 0; i < s->nstreams; i++) {
		net_stream_join(&s->streams[i]);
		if (s->streams[i].fd >= 0)
			close(s->streams[i].fd);
		s->streams[i].fd = -1;
	}
}

static int64_t retrans_of(const struct net_session *s, size_t i)
{
	const struct net_stream *st = &s->streams[i];

	if (!st->sender || s->p->proto != NET_TCP)
		return -1;
	return net_tcp_retrans(st->fd);
}

static double rate_mb(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / secs / 1e6 : NAN;
}

static struct net_interval_row *new_row(struct net_report *rep)
{
	if (rep->nintervals >= NET_MAX_INTERVAL_ROWS) {
		if (!rep->intervals_truncated)
			net_report_note(rep,
					"interval rows stop after %u; totals cover the whole test",
					NET_MAX_INTERVAL_ROWS);
		rep->intervals_truncated = true;
		return NULL;
	}
	if (rep->nintervals == rep->intervals_alloc) {
		size_t n = rep->intervals_alloc ? rep->intervals_alloc * 2 : 64;
		struct net_interval_row *v = realloc(rep->intervals, n * sizeof(*v));

		if (!v)
			return NULL;
		rep->intervals = v;
		rep->intervals_alloc = n;
	}
	return &rep->intervals[rep->nintervals++];
}

static void row_fill(struct net_interval_row *r, const struct net_session *s, bool sender,
		     double start, double end)
{
	bool udp = s->p->proto == NET_UDP;

	*r = (struct net_interval_row){
		.start_s = start, .end_s = end, .dir = sender ? "tx" : "rx",
		.omitted = s->omitting, .seconds = end - start,
		.retransmits = sender && !udp ? 0 : FIELD_INT_UNKNOWN,
		.jitter_ms = NAN, .lost = FIELD_INT_UNKNOWN, .packets = FIELD_INT_UNKNOWN,
		.loss_pct = NAN, .ooo = FIELD_INT_UNKNOWN,
	};
	if (udp) {
		r->packets = 0;
		if (!sender) {
			r->jitter_ms = 0;
			r->lost = r->ooo = 0;
		}
	}
}

/* Add one stream's interval to a row (its own or the direction's sum). */
static void row_add(struct net_interval_row *r, const struct net_counters *cur,
		    const struct net_counters *prev, int64_t retr, int64_t retr_prev)
{
	r->bytes += cur->bytes - prev->bytes;
	if (r->retransmits != FIELD_INT_UNKNOWN)
		r->retransmits = retr >= 0 && retr_prev >= 0 && r->retransmits >= 0
					 ? r->retransmits + (retr - retr_prev)
					 : -1;
	if (r->packets != FIELD_INT_UNKNOWN)
		r->packets += (int64_t)(cur->packets - prev->packets);
	if (r->lost != FIELD_INT_UNKNOWN) {
		r->lost += (int64_t)cur->rx.errors - (int64_t)prev->rx.errors;
		r->ooo += (int64_t)(cur->rx.ooo - prev->rx.ooo);
		r->jitter_ms += cur->rx.jitter_s * 1000.0; /* summed; a sum row averages */
	}
}

static void row_finish(struct net_interval_row *r, unsigned nstreams)
{
	r->mb_s = rate_mb(r->bytes, r->seconds);
	r->mbit_s = r->mb_s * 8;
	if (r->retransmits == -1)
		r->retransmits = FIELD_INT_UNKNOWN;
	if (r->lost != FIELD_INT_UNKNOWN) {
		r->jitter_ms /= nstreams ? nstreams : 1;
		r->loss_pct = r->packets > 0 ? 100.0 * (double)r->lost / (double)r->packets : 0;
	}
}

/* Rows for [cut, now] of every stream, and a sum per direction with several streams. */
static void cut_interval(struct net_session *s, uint64_t now, const struct net_counters *cur,
			 const int64_t *retr, bool last)
{
	double start = s->cut_s, end = (double)(now - s->t_start) / NS;
	size_t first = s->rep->nintervals, i;
	int dir;

	if (s->interval_s <= 0 || end - start <= 0)
		return;
	if (last && end - start < MIN_LAST_INTERVAL * s->interval_s)
		return;
	for (dir = 1; dir >= 0; dir--) {
		struct net_interval_row sum, *r;
		unsigned n = 0;

		row_fill(&sum, s, dir, start, end);
		sum.stream = "sum";
		for (i = 0; i < s->nstreams; i++) {
			if (s->streams[i].sender != dir)
				continue;
			n++;
			row_add(&sum, &cur[i], &s->prev[i], retr[i], s->retr_prev[i]);
			if (s->p->parallel < 2 || !(r = new_row(s->rep)))
				continue;
			row_fill(r, s, dir, start, end);
			r->stream = net_stream_label(s->streams[i].id);
			row_add(r, &cur[i], &s->prev[i], retr[i], s->retr_prev[i]);
			row_finish(r, 1);
		}
		if (n && (r = new_row(s->rep))) {
			row_finish(&sum, n);
			*r = sum;
		}
	}
	s->cut_s = end;
	if (s->on_interval && s->rep->nintervals > first)
		s->on_interval(s->ctx, &s->rep->intervals[first], s->rep->nintervals - first);
}

static void snapshot_all(struct net_session *s, struct net_counters *cur, int64_t *retr)
{
	size_t i;

	for (i = 0; i < s->nstreams; i++) {
		net_stream_snapshot(&s->streams[i], &cur[i]);
		retr[i] = retrans_of(s, i);
	}
}

static void tick(struct net_session *s, uint64_t now, bool last)
{
	struct net_counters cur[s->nstreams ? s->nstreams : 1];
	int64_t retr[s->nstreams ? s->nstreams : 1];

	snapshot_all(s, cur, retr);
	cut_interval(s, now, cur, retr, last);
	memcpy(s->prev, cur, s->nstreams * sizeof(*cur));
	memcpy(s->retr_prev, retr, s->nstreams * sizeof(*retr));
}

/* getrusage, not /proc/stat: nothing here may depend on --sysroot */
static void cpu_now(struct net_cpu *ret)
{
	struct rusage ru;

	memset(ret, 0, sizeof(*ret));
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		ret->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
		ret->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	}
	ret->wall_s = (double)clock_now_ns() / NS;
}

/* The omitted seconds are over: everything counts from here. */
static void end_omit(struct net_session *s, uint64_t now)
{
	size_t i;

	tick(s, now, false);
	memcpy(s->base, s->prev, s->nstreams * sizeof(*s->base));
	memcpy(s->retr_base, s->retr_prev, s->nstreams * sizeof(*s->retr_base));
	for (i = 0; i < s->nstreams; i++)
		if (!s->streams[i].sender && s->p->proto == NET_UDP)
			net_stream_reset_jitter(&s->streams[i]);
	s->omitting = false;
	s->t_omit = now;
	s->t_tick_base = now;
	s->tick = 1;
	cpu_now(&s->cpu0);
}

static uint64_t at(uint64_t base, double secs)
{
	return base + (uint64_t)(secs * NS);
}

/* The next moment something is due: a tick, the end of omit, the end of the test. */
static uint64_t next_due(const struct net_session *s)
{
	uint64_t due = UINT64_MAX;

	if (s->interval_s > 0)
		due = at(s->t_tick_base, s->interval_s * s->tick);
	if (s->omitting && s->t_omit < due)
		due = s->t_omit;
	if (s->client && s->p->time_s) {
		uint64_t end = at(s->t_start, (double)(s->p->time_s + s->p->omit_s));

		if (end < due)
			due = end;
	}
	return due;
}

static void deny(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	signed char b = NET_ACCESS_DENIED;

	/* never read from it: the busy answer must not wait on a client */
	if (fd >= 0) {
		if (send(fd, &b, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
			/* the client is gone already */
		}
		close(fd);
	}
}

/* A state byte from the peer while the test runs. */
static void control_byte(struct net_session *s)
{
	signed char b;
	ssize_t n = recv(s->ctrl, &b, 1, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		s->end = NET_END_PEER_GONE;
		s->end_err = n < 0 ? errno : ECONNRESET;
		return;
	}
	s->peer_state = b;
	if (!s->client && b == NET_TEST_END)
		s->end = NET_END_DONE;
	else if (b == NET_CLIENT_TERMINATE || b == NET_SERVER_TERMINATE || b == NET_SERVER_ERROR ||
		 b == NET_ACCESS_DENIED)
		s->end = NET_END_PEER_ABORT;
	else
		s->end = NET_END_PROTOCOL;
}

static bool limits_done(const struct net_session *s)
{
	const struct net_shared *sh = &s->sh;
	size_t i;
	bool senders = false;

	if (sh->recv_limit && __atomic_load_n(&sh->received, __ATOMIC_RELAXED) >= sh->recv_limit)
		return true;
	if (!sh->limit_bytes && !sh->limit_blocks)
		return false;
	for (i = 0; i < s->nstreams; i++) {
		if (!s->streams[i].sender)
			continue;
		senders = true;
		if (!__atomic_load_n(&s->streams[i].done, __ATOMIC_ACQUIRE))
			return false;
	}
	return senders;
}

static void check_streams(struct net_session *s)
{
	size_t i;

	for (i = 0; i < s->nstreams; i++) {
		struct net_stream *st = &s->streams[i];

		if (__atomic_load_n(&st->done, __ATOMIC_ACQUIRE) && st->error) {
			s->end = NET_END_STREAM;
			s->end_err = -st->error;
			return;
		}
	}
	if (s->client && limits_done(s))
		s->end = NET_END_DONE;
}

static uint64_t bytes_moved(struct net_session *s)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < s->nstreams; i++) {
		struct net_counters c;

		net_stream_snapshot(&s->streams[i], &c);
		total += c.bytes;
	}
	return total;
}

static int start_threads(struct net_session *s)
{
	size_t i;
	int r;

	for (i = 0; i < s->nstreams; i++) {
		r = net_stream_start(&s->streams[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Server guards: a test that overruns its time, or where nothing moves at all. */
static void check_guards(struct net_session *s, uint64_t now, uint64_t *last_moved,
			 uint64_t *last_bytes)
{
	uint64_t moved;

	if (s->client)
		return;
	if (s->p->time_s && s->guard_s > 0 &&
	    now > at(s->t_start, (double)(s->p->time_s + s->p->omit_s) + s->guard_s)) {
		s->end = NET_END_TIMEOUT;
		return;
	}
	moved = bytes_moved(s);
	if (moved != *last_bytes) {
		*last_bytes = moved;
		*last_moved = now;
	} else if (s->idle_s > 0 && now > at(*last_moved, s->idle_s)) {
		s->end = NET_END_TIMEOUT;
	}
}

static void wait_events(struct net_session *s, uint64_t due)
{
	struct pollfd pf[3] = {{.fd = s->ctrl, .events = POLLIN},
			       {.fd = s->sh.wake_fd, .events = POLLIN},
			       {.fd = s->deny_fd, .events = POLLIN}};
	uint64_t now = clock_now_ns(), v;
	int ms = MAX_WAIT_MS;

	if (due <= now)
		ms = 0;
	else if (due - now < (uint64_t)MAX_WAIT_MS * 1000000u)
		ms = (int)((due - now + 999999u) / 1000000u);
	if (poll(pf, s->deny_fd >= 0 ? 3 : 2, ms) <= 0)
		return;
	if (pf[2].revents & POLLIN)
		deny(s->deny_fd);
	if (pf[1].revents & POLLIN) {
		if (read(s->sh.wake_fd, &v, sizeof(v)) < 0) {
			/* nothing to drain */
		}
		check_streams(s);
	}
	if (pf[0].revents & (POLLIN | POLLHUP | POLLERR))
		control_byte(s);
}

static void run_loop(struct net_session *s)
{
	uint64_t last_moved = s->t_start, last_bytes = 0;

	while (s->end == NET_END_NONE) {
		uint64_t now, due = next_due(s);

		if (s->stop && *s->stop) {
			s->end = NET_END_SIGNAL;
			break;
		}
		wait_events(s, due);
		if (s->end != NET_END_NONE)
			break;
		now = clock_now_ns();
		if (s->omitting && now >= s->t_omit)
			end_omit(s, now);
		if (s->interval_s > 0 && now >= at(s->t_tick_base, s->interval_s * s->tick)) {
			tick(s, now, false);
			while (now >= at(s->t_tick_base, s->interval_s * s->tick))
				s->tick++;
		}
		if (s->client && s->p->time_s &&
		    now >= at(s->t_start, (double)(s->p->time_s + s->p->omit_s)))
			s->end = NET_END_DONE;
		check_guards(s, now, &last_moved, &last_bytes);
	}
}

static void finals(struct net_session *s, const struct net_counters *cur, const int64_t *retr)
{
	size_t i;

	for (i = 0; i < s->nstreams; i++) {
		struct net_stream_final *f = &s->finals[i];

		*f = (struct net_stream_final){
			.id = s->streams[i].id,
			.sender = s->streams[i].sender,
			.bytes = cur[i].bytes - s->base[i].bytes,
			.retrans = retr[i] >= 0 && s->retr_base[i] >= 0 ? retr[i] - s->retr_base[i]
									: -1,
			.packets = cur[i].packets,
			.packets_omit = s->base[i].packets,
			.errors = cur[i].rx.errors,
			.errors_omit = s->base[i].rx.errors,
			.ooo = cur[i].rx.ooo,
			.ooo_omit = s->base[i].rx.ooo,
			.jitter_s = cur[i].rx.jitter_s,
			.error = s->streams[i].error,
		};
	}
}

/* iperf3's figure: this process's CPU time over wall time, percent of one CPU */
static void cpu_percent(struct net_session *s, const struct net_cpu *c1)
{
	double wall = c1->wall_s - s->cpu0.wall_s;

	s->cpu_user = s->cpu_sys = s->cpu_total = NAN;
	if (wall <= 0)
		return;
	s->cpu_user = 100.0 * (c1->user_s - s->cpu0.user_s) / wall;
	s->cpu_sys = 100.0 * (c1->sys_s - s->cpu0.sys_s) / wall;
	s->cpu_total = s->cpu_user + s->cpu_sys;
}

static void stop_streams(struct net_session *s)
{
	struct net_counters cur[s->nstreams ? s->nstreams : 1];
	int64_t retr[s->nstreams ? s->nstreams : 1];
	struct net_cpu c1;
	size_t i;

	net_phase_set(&s->sh, NET_PHASE_STOP);
	s->t_stop = clock_now_ns();
	for (i = 0; i < s->nstreams; i++)
		if (s->streams[i].sender)
			net_stream_join(&s->streams[i]);
	cpu_now(&c1);
	snapshot_all(s, cur, retr);
	if (s->omitting) {
		/* stopped inside the omitted seconds: nothing was measured */
		memcpy(s->base, cur, s->nstreams * sizeof(*cur));
		memcpy(s->retr_base, retr, s->nstreams * sizeof(*retr));
		s->t_omit = s->t_stop;
		s->cpu0 = c1;
	}
	cut_interval(s, s->t_stop, cur, retr, true);
	finals(s, cur, retr);
	s->seconds = (double)(s->t_stop - s->t_omit) / NS;
	cpu_percent(s, &c1);
	if (!s->client) {
		/* the server closes its streams at TEST_END: receivers stop now */
		net_phase_set(&s->sh, NET_PHASE_EXIT);
		for (i = 0; i < s->nstreams; i++)
			net_stream_join(&s->streams[i]);
	}
}

/* Bytes a socket still holds: sent but unacknowledged (SIOCOUTQ) or unread (SIOCINQ). */
static int queued(int fd, unsigned long req)
{
	int n = 0;

	return ioctl(fd, req, &n) < 0 ? 0 : n;
}

/*
 * Let the last bytes land before the count stops. A client that sent a
 * byte count waits until the peer has acknowledged them all (iperf3's
 * server stops counting when TEST_END arrives, before it reads what is
 * still queued); a server at TEST_END first reads what already arrived.
 */
static void settle(struct net_session *s)
{
	bool client_limit = s->client && (s->sh.limit_bytes || s->sh.limit_blocks);
	uint64_t until;

	if (s->end != NET_END_DONE || (s->client && !client_limit))
		return;
	until = clock_now_ns() + (uint64_t)(s->client ? 2000 : 250) * 1000000u;
	while (clock_now_ns() < until) {
		struct timespec ms = {.tv_nsec = 1000000};
		bool busy = false;
		size_t i;

		for (i = 0; i < s->nstreams && !busy; i++) {
			const struct net_stream *st = &s->streams[i];

			if (s->client && st->sender)
				busy = queued(st->fd, SIOCOUTQ) > 0;
			else if (!s->client && !st->sender)
				busy = queued(st->fd, SIOCINQ) > 0;
		}
		if (!busy)
			return;
		nanosleep(&ms, NULL);
	}
}

void net_session_run(struct net_session *s)
{
	int r;

	s->t_start = clock_now_ns();
	s->sh.t0_ns = s->t_start;
	s->omitting = s->p->omit_s > 0;
	s->t_omit = s->omitting ? at(s->t_start, (double)s->p->omit_s) : s->t_start;
	s->t_tick_base = s->t_start;
	s->tick = 1;
	s->cut_s = 0;
	s->end = NET_END_NONE;
	cpu_now(&s->cpu0);
	net_phase_set(&s->sh, NET_PHASE_RUN);
	r = start_threads(s);
	if (r < 0) {
		s->end = NET_END_STREAM;
		s->end_err = -r;
	}
	run_loop(s);
	settle(s);
	stop_streams(s);
}

void net_session_results(const struct net_session *s, struct net_results *ret)
{
	bool any_sender = false;
	size_t i;

	memset(ret, 0, sizeof(*ret));
	/* the peer's JSON reader needs numbers: unknown is 0 */
	ret->cpu_total = isfinite(s->cpu_total) ? s->cpu_total : 0;
	ret->cpu_user = isfinite(s->cpu_user) ? s->cpu_user : 0;
	ret->cpu_sys = isfinite(s->cpu_sys) ? s->cpu_sys : 0;
	ret->streams = calloc(s->nstreams ? s->nstreams : 1, sizeof(*ret->streams));
	for (i = 0; i < s->nstreams; i++)
		any_sender |= s->finals[i].sender;
	ret->sender_has_retransmits = !any_sender ? -1 : s->p->proto == NET_TCP ? 1 : 0;
	if (!ret->streams)
		return;
	for (i = 0; i < s->nstreams; i++) {
		const struct net_stream_final *f = &s->finals[i];

		ret->streams[i] = (struct net_stream_result){
			.id = f->id,
			.bytes = f->bytes,
			.retransmits = f->sender && s->p->proto == NET_TCP ? f->retrans : -1,
			.jitter_s = f->sender ? 0 : f->jitter_s,
			.errors = f->sender ? 0 : (int64_t)f->errors,
			.packets = (int64_t)f->packets,
			.omitted_errors = f->sender ? 0 : (int64_t)f->errors_omit,
			.omitted_packets = (int64_t)f->packets_omit,
			.start_s = 0,
			.end_s = s->seconds,
		};
	}
	ret->nstreams = s->nstreams;
}

uint64_t net_session_delivered(const struct net_session *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->nstreams; i++) {
		const struct net_stream *st = &s->streams[i];
		uint64_t moved = __atomic_load_n(&st->moved_all, __ATOMIC_RELAXED);
		int q = 0;

		if (st->fd >= 0 && ioctl(st->fd, st->sender ? SIOCOUTQ : SIOCINQ, &q) < 0)
			q = 0;
		if (st->sender)
			n += moved > (uint64_t)q ? moved - (uint64_t)q : 0;
		else
			n += moved + (uint64_t)(q > 0 ? q : 0);
	}
	return n;
}

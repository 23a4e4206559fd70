// SPDX-License-Identifier: MIT
/* Stream threads: TCP and UDP, send and receive, paced to an absolute schedule. */
#include "classes/net/stream_priv.h"
#include "classes/net/sock.h"
#include "util/clock.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#define TCP_RECV_MIN (128u * 1024)
#define TCP_PACED_MIN 1024u /* a paced TCP write is never smaller than this */

void net_udp_rx_account(struct net_udp_rx *rx, uint64_t counter, double transit_s)
{
	double d;

	if (counter >= rx->packets + 1) {
		if (counter > rx->packets + 1)
			rx->errors += counter - 1 - rx->packets;
		rx->packets = counter;
	} else {
		rx->ooo++;
		/* a late one fills a gap already counted as lost */
		if (rx->errors > 0)
			rx->errors--;
	}
	if (!rx->have_prev) {
		rx->prev_transit_s = transit_s;
		rx->have_prev = true;
	}
	d = transit_s - rx->prev_transit_s;
	if (d < 0)
		d = -d;
	rx->prev_transit_s = transit_s;
	rx->jitter_s += (d - rx->jitter_s) / 16.0;
}

int net_stream_id(unsigned index)
{
	return index == 0 ? 1 : (int)index + 2;
}

void net_stream_wake(struct net_shared *sh)
{
	uint64_t one = 1;

	if (sh->wake_fd >= 0 && write(sh->wake_fd, &one, sizeof(one)) < 0) {
		/* the counter is full: the main loop is awake anyway */
	}
}

bool net_stream_running(const struct net_stream *s)
{
	return net_phase_get(s->sh) == NET_PHASE_RUN;
}

/* Take the next block from a shared byte or block budget; false when it is spent. */
bool net_stream_claim(struct net_shared *sh)
{
	if (sh->limit_bytes &&
	    __atomic_fetch_add(&sh->claimed_bytes, sh->len, __ATOMIC_RELAXED) >= sh->limit_bytes)
		return false;
	if (sh->limit_blocks &&
	    __atomic_fetch_add(&sh->claimed_blocks, 1, __ATOMIC_RELAXED) >= sh->limit_blocks)
		return false;
	return true;
}

void net_stream_unclaim(struct net_shared *sh, uint64_t blocks)
{
	if (sh->limit_bytes)
		__atomic_fetch_sub(&sh->claimed_bytes, blocks * sh->len, __ATOMIC_RELAXED);
	if (sh->limit_blocks)
		__atomic_fetch_sub(&sh->claimed_blocks, blocks, __ATOMIC_RELAXED);
}

/*
 * Sleep until `sent` bytes are due on the rate's schedule from t0: the
 * schedule is absolute, so an oversleep is made up by the next sends and the
 * average holds exactly. Long waits are cut so a phase change is seen.
 */
bool net_stream_pace(struct net_stream *s, uint64_t sent)
{
	const struct net_shared *sh = s->sh;
	uint64_t due, now;

	if (!sh->rate_bps)
		return net_stream_running(s);
	due = sh->t0_ns + (uint64_t)((double)sent * 8e9 / (double)sh->rate_bps);
	for (;;) {
		struct timespec ts;

		if (!net_stream_running(s))
			return false;
		now = clock_now_ns();
		if (now >= due)
			return true;
		if (due - now > (uint64_t)NET_IO_SLICE_MS * 1000000u) {
			ts.tv_sec = 0;
			ts.tv_nsec = NET_IO_SLICE_MS * 1000000L;
			nanosleep(&ts, NULL);
			continue;
		}
		ts.tv_sec = (time_t)(due / 1000000000u);
		ts.tv_nsec = (long)(due % 1000000000u);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

void net_stream_add(struct net_stream *s, size_t n, uint64_t blocks, uint64_t packets)
{
	pthread_mutex_lock(&s->lock);
	s->c.bytes += n;
	s->c.blocks += blocks;
	if (packets)
		s->c.packets = packets;
	pthread_mutex_unlock(&s->lock);
}

/* Soft errors a stream rides over; anything else ends it. */
bool net_stream_transient(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR || err == ENOBUFS;
}

void net_stream_end(struct net_stream *s, int err)
{
	if (err && net_stream_running(s))
		s->error = -err;
}

/*
 * The block as a file: sendfile() hands its pages to the socket instead of
 * copying the buffer for every write, the copy a TCP sender otherwise pays
 * per byte (iperf3 does the same with -Z). -1 when memfd is unavailable.
 */
static int block_file(const struct net_stream *s)
{
	int fd = memfd_create("usbperf-block", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, s->buf, s->sh->len) != (ssize_t)s->sh->len) {
		close(fd);
		return -1;
	}
	return fd;
}

static ssize_t send_block(const struct net_stream *s, int file, size_t off, size_t len)
{
	off_t o = (off_t)off;

	if (file >= 0)
		return sendfile(s->fd, file, &o, len);
	return send(s->fd, s->buf + off, len, MSG_NOSIGNAL);
}

static void tcp_send(struct net_stream *s)
{
	const struct net_shared *sh = s->sh;
	size_t chunk = sh->len, off = 0;
	uint64_t sent = 0;
	int file = block_file(s);

	if (sh->rate_bps) {
		/* what one pacing period carries: the rate holds within each period */
		uint64_t per = sh->rate_bps / 8 * (sh->pacing_us ? sh->pacing_us : 1000) / 1000000;

		if (per < TCP_PACED_MIN)
			per = TCP_PACED_MIN;
		if (per < chunk)
			chunk = per;
	}
	while (net_stream_running(s)) {
		size_t want = sh->len - off < chunk ? sh->len - off : chunk;
		ssize_t n;

		if (off == 0 && !net_stream_claim(s->sh))
			break;
		if (!net_stream_pace(s, sent))
			break;
		n = send_block(s, file, off, want);
		if (n < 0) {
			if (net_stream_transient(errno))
				continue;
			net_stream_end(s, errno);
			break;
		}
		sent += (size_t)n;
		off += (size_t)n;
		__atomic_add_fetch(&s->moved_all, (uint64_t)n, __ATOMIC_RELAXED);
		net_stream_add(s, (size_t)n, off >= sh->len, 0);
		if (off >= sh->len)
			off = 0;
	}
	if (file >= 0)
		close(file);
}

void net_stream_received(struct net_stream *s, size_t n)
{
	struct net_shared *sh = s->sh;
	uint64_t total;

	if (!sh->recv_limit)
		return;
	total = __atomic_add_fetch(&sh->received, n, __ATOMIC_RELAXED);
	/* only the receive that crosses the limit wakes the main loop */
	if (total >= sh->recv_limit && total - n < sh->recv_limit)
		net_stream_wake(sh);
}

static void tcp_recv(struct net_stream *s)
{
	while (net_phase_get(s->sh) != NET_PHASE_EXIT) {
		ssize_t n = recv(s->fd, s->buf, s->buflen, 0);

		if (n == 0)
			break;
		if (n < 0) {
			if (net_stream_transient(errno))
				continue;
			net_stream_end(s, errno);
			break;
		}
		__atomic_add_fetch(&s->moved_all, (uint64_t)n, __ATOMIC_RELAXED);
		/* after the end, keep draining so the peer's sender never blocks */
		if (!net_stream_running(s))
			continue;
		net_stream_add(s, (size_t)n, 0, 0);
		net_stream_received(s, (size_t)n);
	}
}

static void *stream_main(void *arg)
{
	struct net_stream *s = arg;

	if (s->sender && s->sh->rate_bps)
		prctl(PR_SET_TIMERSLACK, 1UL); /* short paced sleeps end on time */
	if (s->sender)
		s->sh->proto == NET_UDP ? net_udp_send(s) : tcp_send(s);
	else
		s->sh->proto == NET_UDP ? net_udp_recv(s) : tcp_recv(s);
	__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
	net_stream_wake(s->sh);
	return NULL;
}

int net_stream_init(struct net_stream *s, int id, int fd, bool sender, struct net_shared *sh)
{
	size_t len = sh->len;

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->fd = fd;
	s->sender = sender;
	s->sh = sh;
	s->batch = 1;
	if (!sender && sh->proto == NET_TCP)
		len = len < TCP_RECV_MIN ? TCP_RECV_MIN : len;
	if (sh->proto == NET_UDP)
		net_udp_setup(s, &len);
	s->buf = malloc(len);
	if (!s->buf)
		return -ENOMEM;
	s->buflen = len;
	if (sender && getrandom(s->buf, len, GRND_NONBLOCK) != (ssize_t)len)
		memset(s->buf, 0x5a, len);
	pthread_mutex_init(&s->lock, NULL);
	return net_set_io_timeout(fd, NET_IO_SLICE_MS);
}

int net_stream_start(struct net_stream *s)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int r;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	r = pthread_create(&s->thread, &attr, stream_main, s);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0)
		return -r;
	s->started = true;
	return 0;
}

void net_stream_join(struct net_stream *s)
{
	if (s->started) {
		pthread_join(s->thread, NULL);
		s->started = false;
	}
}

void net_stream_release(struct net_stream *s)
{
	net_stream_join(s);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->buf)
		pthread_mutex_destroy(&s->lock);
	free(s->buf);
	s->buf = NULL;
}

void net_stream_snapshot(struct net_stream *s, struct net_counters *ret)
{
	pthread_mutex_lock(&s->lock);
	*ret = s->c;
	pthread_mutex_unlock(&s->lock);
}

void net_stream_reset_jitter(struct net_stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->c.rx.jitter_s = 0;
	s->c.rx.have_prev = false;
	pthread_mutex_unlock(&s->lock);
}

// SPDX-License-Identifier: MIT
/*
 * UDP streams. A sender stamps each datagram (time, counter) and hands the
 * kernel every datagram that is due in one call: as one UDP GSO buffer cut
 * into datagrams below the IP layer (UDP_SEGMENT), or, when the datagram
 * does not fit a frame or the kernel refuses, with sendmmsg(). A receiver
 * takes what is queued with one recvmmsg() and accounts each datagram. At
 * a rate the stream keeps up with, one datagram is due at a time and goes
 * alone: batches only form when the schedule is behind (or unpaced), which
 * is when the per-datagram cost of the stack would otherwise cap the rate.
 */
#include "classes/net/stream_priv.h"
#include "util/clock.h"

#include <errno.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/socket.h>

#define UDP_BATCH_MAX 32u
#define UDP_BATCH_BYTES (512u * 1024) /* the slots of one stream together */
#define UDP_GSO_BYTES 65000u	      /* one GSO buffer stays below the IP length limit */
#define UDP_GRO_SLOT 65536u	      /* a merged receive buffer is at most an IP packet */
#define UDP_RCVBUF (4 << 20)
/*
 * A paced sender wakes at most this often: datagrams due closer together
 * go out together. A sleep and wake-up per datagram would cost more CPU
 * than the sending at gigabit rates; 50 us of data is 6 KB at 1 Gbit/s.
 */
#define UDP_QUANTUM_NS 50000u

unsigned net_udp_batch(uint64_t len)
{
	uint64_t b = len ? UDP_BATCH_BYTES / len : 1;

	return b < 1 ? 1 : b > UDP_BATCH_MAX ? UDP_BATCH_MAX : (unsigned)b;
}

static void slots(struct net_stream *s, struct mmsghdr *msg, struct iovec *iov)
{
	unsigned i;

	memset(msg, 0, s->batch * sizeof(*msg));
	for (i = 0; i < s->batch; i++) {
		iov[i].iov_base = s->buf + i * s->slot;
		iov[i].iov_len = s->slot;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
}

/* Datagrams due at now after `sent` of them, at most the batch; all of it unpaced. */
static unsigned due(const struct net_stream *s, uint64_t now, uint64_t sent)
{
	const struct net_shared *sh = s->sh;
	uint64_t k;

	if (!sh->rate_bps)
		return s->batch;
	/* datagram k (from 0) is due at t0 + k x len x 8 / rate */
	k = (uint64_t)((double)(now - sh->t0_ns) * (double)sh->rate_bps /
		       (8e9 * (double)sh->len)) + 1;
	if (k <= sent)
		return 0;
	return k - sent > s->batch ? s->batch : (unsigned)(k - sent);
}

/* n datagrams in one GSO buffer: the count sent, or -errno (all or nothing). */
static int send_gso(struct net_stream *s, unsigned n)
{
	size_t len = s->sh->len;
	union {
		char buf[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} ctrl;
	struct iovec iov = {.iov_base = s->buf, .iov_len = n * len};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl.buf,
			    .msg_controllen = sizeof(ctrl.buf)};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	uint16_t seg = (uint16_t)len;

	cm->cmsg_level = SOL_UDP;
	cm->cmsg_type = UDP_SEGMENT;
	cm->cmsg_len = CMSG_LEN(sizeof(seg));
	memcpy(CMSG_DATA(cm), &seg, sizeof(seg));
	return sendmsg(s->fd, &mh, MSG_NOSIGNAL) < 0 ? -errno : (int)n;
}

static int send_batch(struct net_stream *s, struct mmsghdr *msg, unsigned n, bool *gso)
{
	unsigned most = UDP_GSO_BYTES / s->sh->len;
	int r;

	if (*gso && n > 1) {
		r = send_gso(s, n < most ? n : most);
		/* EINVAL, EIO: datagrams larger than a frame, or no GSO here: never again */
		if (r != -EINVAL && r != -EIO && r != -EOPNOTSUPP)
			return r;
		*gso = false;
	}
	r = sendmmsg(s->fd, msg, n, MSG_NOSIGNAL);
	return r < 0 ? -errno : r;
}

void net_udp_send(struct net_stream *s)
{
	struct net_shared *sh = s->sh;
	struct mmsghdr msg[UDP_BATCH_MAX];
	struct iovec iov[UDP_BATCH_MAX];
	uint64_t counter = 0;
	bool gso = s->sh->len <= 65535 / 2;

	slots(s, msg, iov);
	while (net_stream_running(s)) {
		uint64_t now = clock_now_ns();
		unsigned n = due(s, now, counter), i;
		int r;

		if (n == 0) {
			uint64_t q = (uint64_t)((double)sh->rate_bps * UDP_QUANTUM_NS / 8e9);

			/* wake when the next datagram, or a quantum's worth of them, is due */
			if (!net_stream_pace(s,
					     counter * sh->len + (q > sh->len ? q - sh->len : 0)))
				break;
			continue;
		}
		for (i = 0; i < n && net_stream_claim(sh); i++)
			net_udp_stamp(s->buf + i * sh->len, now, counter + 1 + i, sh->udp_64bit);
		if (i == 0)
			break; /* the byte or block budget is spent */
		r = send_batch(s, msg, i, &gso);
		if (r < 0) {
			net_stream_unclaim(sh, i);
			if (net_stream_transient(-r))
				continue;
			net_stream_end(s, -r);
			break;
		}
		/* what was not taken goes back to the budget and is sent next time */
		net_stream_unclaim(sh, i - (unsigned)r);
		counter += (unsigned)r;
		net_stream_add(s, (size_t)r * sh->len, (unsigned)r, counter);
	}
}

static double transit_s(uint64_t now, uint64_t sent_ns)
{
	/* iperf3 takes the absolute difference: clocks of two hosts may be any way round */
	return now >= sent_ns ? (double)(now - sent_ns) / 1e9 : (double)(sent_ns - now) / 1e9;
}

/* The datagram size of a GRO buffer, or the whole length when the kernel did not merge. */
static size_t segment_size(const struct msghdr *mh, size_t got)
{
	struct cmsghdr *cm;

	for (cm = CMSG_FIRSTHDR((struct msghdr *)mh); cm;
	     cm = CMSG_NXTHDR((struct msghdr *)mh, cm)) {
		if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO) {
			int seg;

			memcpy(&seg, CMSG_DATA(cm), sizeof(seg));
			return seg > 0 ? (size_t)seg : got;
		}
	}
	return got;
}

/*
 * Account one batch under the lock: bytes, then counter and transit of each
 * datagram, a merged (GRO) buffer cut back into its datagrams.
 */
static size_t account(struct net_stream *s, const struct mmsghdr *msg, unsigned n, uint64_t now)
{
	size_t total = 0;
	unsigned i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < n; i++) {
		const unsigned char *p = msg[i].msg_hdr.msg_iov->iov_base;
		size_t got = msg[i].msg_len, seg = segment_size(&msg[i].msg_hdr, got), off;

		total += got;
		for (off = 0; off < got; off += seg) {
			size_t left = got - off, have = s->slot > off ? s->slot - off : 0;
			uint64_t sent_ns, counter;

			/* a datagram longer than the slot was cut: its header is all we need */
			if (net_udp_parse(p + off, left < have ? left : have, s->sh->udp_64bit,
					  &sent_ns, &counter) == 0)
				net_udp_rx_account(&s->c.rx, counter, transit_s(now, sent_ns));
		}
	}
	s->c.bytes += total;
	s->c.packets = s->c.rx.packets;
	pthread_mutex_unlock(&s->lock);
	return total;
}

void net_udp_recv(struct net_stream *s)
{
	struct mmsghdr msg[UDP_BATCH_MAX];
	struct iovec iov[UDP_BATCH_MAX];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctrl[UDP_BATCH_MAX];
	unsigned i;

	slots(s, msg, iov);
	while (net_phase_get(s->sh) != NET_PHASE_EXIT) {
		int r;

		for (i = 0; i < s->batch; i++) {
			msg[i].msg_hdr.msg_control = ctrl[i].buf;
			msg[i].msg_hdr.msg_controllen = sizeof(ctrl[i].buf);
		}
		/* MSG_TRUNC: a datagram longer than agreed still counts its real length */
		r = recvmmsg(s->fd, msg, s->batch, MSG_WAITFORONE | MSG_TRUNC, NULL);
		if (r < 0) {
			if (net_stream_transient(errno) || errno == ECONNREFUSED)
				continue;
			net_stream_end(s, errno);
			break;
		}
		if (!net_stream_running(s) || r == 0)
			continue;
		net_stream_received(s, account(s, msg, (unsigned)r, clock_now_ns()));
	}
}

/*
 * Without a window from the user, a receiver asks for a 4 MiB socket buffer
 * (SO_RCVBUFFORCE past net.core.rmem_max when allowed): the default 208 KiB
 * holds well under a millisecond at gigabit rates, and a receiver thread
 * that is scheduled late would turn into loss the link did not cause.
 */
static void receive_buffer(int fd)
{
	int want = UDP_RCVBUF, got = 0;
	socklen_t len = sizeof(got);

	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len) == 0 && got < want)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want));
}

int net_udp_setup(struct net_stream *s, size_t *ret_bytes)
{
	int on = 1;

	if (!s->sender && !s->sh->window)
		receive_buffer(s->fd);

	s->slot = s->sh->len;
	/*
	 * A receiver asks for merged datagrams (UDP GRO): one buffer for a burst
	 * that arrived together, far fewer wake-ups at high rates. Slots must
	 * then hold a whole merged buffer.
	 */
	if (!s->sender && setsockopt(s->fd, SOL_UDP, UDP_GRO, &on, sizeof(on)) == 0)
		s->slot = UDP_GRO_SLOT;
	s->batch = net_udp_batch(s->slot);
	*ret_bytes = s->slot * s->batch;
	return 0;
}

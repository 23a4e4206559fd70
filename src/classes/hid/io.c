// SPDX-License-Identifier: MIT
/* The timed passes of usbperf hid: reads, writes, echoes, paced by the endpoint. */
#include "classes/hid/io.h"
#include "util/clock.h"
#include "util/signals.h"
#include "util/stats.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLICE_MS 100 /* poll at most this long between signal and deadline checks */

const char *hid_pass_name(enum hid_pass_kind k)
{
	static const char *const names[HID_PASS_KINDS] = {"in",	  "out",  "latency",
							  "send", "echo", "receive"};

	return k < HID_PASS_KINDS ? names[k] : "unknown";
}

struct pass_state {
	const struct hid_io_config *c;
	struct hid_pass *p;
	struct histogram *h;
	uint8_t *buf, *rbuf;
	uint64_t t0, first, last;
	uint32_t seq;
};

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* wait for ev on fd up to ms (-1: a slice); 1 ready, 0 not yet, -errno */
static int wait_fd(int fd, short ev, int ms)
{
	struct pollfd pfd = {.fd = fd, .events = ev};
	int r;

	r = poll(&pfd, 1, ms < 0 ? SLICE_MS : ms);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r > 0 && (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) && !(pfd.revents & ev))
		return -EIO;
	return r > 0;
}

/* should the pass end now? sets p->ended */
static bool done(struct pass_state *s, uint64_t now)
{
	const struct hid_io_config *c = s->c;

	if (signal_stop) {
		s->p->ended = "signal";
		return true;
	}
	if (c->count && s->p->reports >= c->count) {
		s->p->ended = "count";
		return true;
	}
	/* time counts from the first report: the other side may start later */
	if (c->time_s > 0 && s->p->reports && secs(now - s->first) >= c->time_s) {
		s->p->ended = "time";
		return true;
	}
	if (c->idle_timeout_s > 0 && s->p->reports && secs(now - s->last) >= c->idle_timeout_s) {
		s->p->ended = "idle";
		return true;
	}
	if (c->first_timeout_s > 0 && !s->p->reports && secs(now - s->t0) >= c->first_timeout_s) {
		s->p->ended = "timeout";
		return true;
	}
	return false;
}

static void count_report(struct pass_state *s, uint64_t t, size_t got, bool gap)
{
	if (!s->p->reports)
		s->first = t;
	else if (gap)
		hist_record(s->h, t - s->last);
	s->last = t;
	s->p->reports++;
	s->p->bytes += got;
	if (got < s->c->report_bytes)
		s->p->short_reads++;
}

/* bytes one write takes: hidraw wants a leading 0 for unnumbered reports */
static size_t write_len(const struct hid_io_config *c)
{
	return c->report_bytes + (c->hidraw_write && !c->report_id ? 1 : 0);
}

static void fill(struct pass_state *s)
{
	size_t at = s->c->report_id || s->c->hidraw_write ? 1 : 0;
	uint32_t v = s->seq++;
	size_t i;

	if (at)
		s->buf[0] = s->c->report_id;
	for (i = 0; i < 4 && at + i < write_len(s->c); i++)
		s->buf[at + i] = (uint8_t)(v >> (8 * i));
}

/* a blocking-paced write of buf (len): 1 written, 0 not yet writable, -errno */
static int put(int fd, const uint8_t *buf, size_t len)
{
	ssize_t w;
	int r;

	r = wait_fd(fd, POLLOUT, -1);
	if (r <= 0)
		return r;
	w = write(fd, buf, len);
	if (w < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	return w == (ssize_t)len ? 1 : -EIO;
}

/* a blocking-paced read into s->rbuf: 1 (its length in *ret_len), 0 nothing yet, -errno */
static int get(int fd, struct pass_state *s, size_t *ret_len)
{
	ssize_t got;
	int r;

	r = wait_fd(fd, POLLIN, -1);
	if (r <= 0)
		return r;
	got = read(fd, s->rbuf, HID_IO_MAX_REPORT);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	*ret_len = (size_t)got;
	return 1;
}

/* the next report into s->rbuf: 1 (its length in *ret_len), 0 when the pass is done, -errno */
static int next_report(int fd, struct pass_state *s, size_t *ret_len)
{
	for (;;) {
		int r;

		if (done(s, clock_now_ns()))
			return 0;
		r = get(fd, s, ret_len);
		if (r)
			return r;
	}
}

/* in, receive: reports as they come */
static int run_read(int fd, struct pass_state *s)
{
	size_t got = 0;
	int r;

	while ((r = next_report(fd, s, &got)) > 0)
		count_report(s, clock_now_ns(), got, true);
	return r;
}

/* the next numbered report written: 1, 0 not taken (its number given back), -errno */
static int send_next(int fd, struct pass_state *s)
{
	int r;

	fill(s);
	r = put(fd, s->buf, write_len(s->c));
	if (r == 0)
		s->seq--;
	return r;
}

/* the next numbered report written: 1 (begun at *ret_t0), 0 when the pass is done, -errno */
static int send_report(int fd, struct pass_state *s, uint64_t *ret_t0)
{
	for (;;) {
		uint64_t now = clock_now_ns();
		int r;

		if (done(s, now))
			return 0;
		r = send_next(fd, s);
		if (r > 0)
			*ret_t0 = now;
		if (r)
			return r;
	}
}

/* out, send: as fast as the endpoint takes them; each write timed */
static int run_write(int fd, struct pass_state *s)
{
	uint64_t t0 = 0, t1;
	int r;

	while ((r = send_report(fd, s, &t0)) > 0) {
		t1 = clock_now_ns();
		hist_record(s->h, t1 - t0);
		count_report(s, t1, s->c->report_bytes, false);
	}
	return r;
}

/* echo: write back each report received, as it came */
static int run_echo(int fd, struct pass_state *s)
{
	size_t got = 0;
	int r;

	while ((r = next_report(fd, s, &got)) > 0) {
		count_report(s, clock_now_ns(), got, true);
		/* the echo is what came, cut or padded to the IN report size */
		memset(s->buf, 0, s->c->report_bytes);
		memcpy(s->buf, s->rbuf, got < s->c->report_bytes ? got : s->c->report_bytes);
		do {
			if (signal_stop)
				return 0;
			r = put(fd, s->buf, s->c->report_bytes);
		} while (r == 0);
		if (r < 0)
			return r;
	}
	return r;
}

/* does the report read carry sequence number seq (after the ID byte)? */
static bool is_echo(const struct pass_state *s, size_t got, uint32_t seq)
{
	size_t at = s->c->report_id ? 1 : 0;
	uint32_t v = 0;
	size_t i;

	if (got < at + 4)
		return false;
	for (i = 0; i < 4; i++)
		v |= (uint32_t)s->rbuf[at + i] << (8 * i);
	return v == seq;
}

/* latency: one report out, wait for its echo */
static int run_latency(int fd, struct pass_state *s)
{
	uint64_t limit = (uint64_t)(s->c->echo_timeout_s * 1e9);

	for (;;) {
		uint64_t now = 0, sent;
		uint32_t seq = s->seq;
		bool back = false;
		int r;

		r = send_report(fd, s, &now);
		if (r <= 0)
			return r;
		sent = clock_now_ns();
		while (!back && clock_now_ns() - sent < limit && !signal_stop) {
			size_t got = 0;

			r = get(fd, s, &got);
			if (r < 0)
				return r;
			if (r)
				back = is_echo(s, got, seq);
		}
		if (signal_stop && !back) {
			s->p->ended = "signal";
			return 0;
		}
		if (!back) {
			s->p->lost++;
			if (!s->p->reports && s->c->first_timeout_s > 0 &&
			    secs(clock_now_ns() - s->t0) >= s->c->first_timeout_s) {
				s->p->ended = "timeout";
				return 0;
			}
			continue;
		}
		hist_record(s->h, clock_now_ns() - now);
		count_report(s, clock_now_ns(), s->c->report_bytes, false);
	}
}

static void summarize_pass(struct pass_state *s, uint64_t end)
{
	struct hid_pass *p = s->p;
	bool arrivals =
	    p->kind == HID_PASS_IN || p->kind == HID_PASS_RECEIVE || p->kind == HID_PASS_ECHO;

	p->p50_us = hist_quantile(s->h, 0.50) / 1e3;
	p->p99_us = hist_quantile(s->h, 0.99) / 1e3;
	p->max_us = s->h->count ? (double)s->h->max / 1e3 : NAN;
	if (arrivals) {
		/* the arrival rate between the first report and the last */
		p->time_s = p->reports ? secs(s->last - s->first) : 0;
		if (p->reports >= 2 && p->time_s > 0) {
			p->reports_per_s = (double)(p->reports - 1) / p->time_s;
			p->Bps = p->reports_per_s * (double)p->bytes / (double)p->reports;
		}
	} else {
		p->time_s = secs(end - s->t0);
		if (p->time_s > 0) {
			p->reports_per_s = (double)p->reports / p->time_s;
			p->Bps = (double)p->bytes / p->time_s;
		}
	}
}

void hid_pass_wire_unknown(struct hid_pass *p)
{
	p->urbs = p->urb_size = p->usb_errors = p->urbs_data = p->urbs_empty = p->unread =
	    U64_UNKNOWN;
	p->urbs_per_s = p->inflight_mean = p->busy_pct = p->urb_lat_p99_us = NAN;
}

int hid_pass_run(int fd, enum hid_pass_kind k, const struct hid_io_config *c, struct hid_pass *ret)
{
	struct hid_pass p = {
	    .kind = k,
	    .name = hid_pass_name(k),
	    .report_bytes = c->report_bytes,
	    .reports_per_s = NAN,
	    .Bps = NAN,
	    .period_us = NAN,
	    .ceiling_reports_per_s = NAN,
	    .ceiling_Bps = NAN,
	    .pct = NAN,
	};
	struct pass_state s = {.c = c, .p = &p};
	struct passwatch pw;
	char *lines = NULL;
	int r;

	hid_pass_wire_unknown(&p);
	pass_sys_init(&p.sys);

	if (k >= HID_PASS_KINDS || !c->report_bytes || c->report_bytes > HID_IO_MAX_REPORT ||
	    (c->report_id && c->report_bytes < 2) ||
	    (k == HID_PASS_LATENCY && c->echo_timeout_s <= 0))
		return -EINVAL;
	s.h = malloc(sizeof(*s.h));
	s.buf = calloc(1, HID_IO_MAX_REPORT);
	s.rbuf = calloc(1, HID_IO_MAX_REPORT);
	if (!s.h || !s.buf || !s.rbuf) {
		r = -ENOMEM;
		goto out;
	}
	hist_init(s.h);
	(void)irq_lines_of_fd(fd, &lines);
	(void)passwatch_start(&pw, lines);
	s.t0 = clock_now_ns();
	switch (k) {
	case HID_PASS_IN:
	case HID_PASS_RECEIVE:
		r = run_read(fd, &s);
		break;
	case HID_PASS_OUT:
	case HID_PASS_SEND:
		r = run_write(fd, &s);
		break;
	case HID_PASS_ECHO:
		r = run_echo(fd, &s);
		break;
	default:
		r = run_latency(fd, &s);
		break;
	}
	passwatch_stop(&pw, secs(clock_now_ns() - s.t0), &p.sys);
	free(lines);
	summarize_pass(&s, clock_now_ns());
	if (r == 0 && !p.reports && p.ended && !strcmp(p.ended, "timeout"))
		r = -ETIMEDOUT;
	*ret = p;
out:
	free_all(s.h, s.buf, s.rbuf);
	return r;
}

void hid_pass_set_ceiling(struct hid_pass *p, const struct hid_endpoint *e)
{
	if (!e || !e->present || !e->has_ceiling)
		return;
	p->period_us = e->ceiling.period_us;
	p->ceiling_reports_per_s = e->ceiling.rates[0].reports_per_s;
	p->ceiling_Bps = e->ceiling.rates[0].Bps;
	if (isfinite(p->reports_per_s) && p->ceiling_reports_per_s > 0)
		p->pct = 100.0 * p->reports_per_s / p->ceiling_reports_per_s;
}

// SPDX-License-Identifier: MIT
/* A measurement pass watched on the wire: a capture thread and the pass's figures. */
#include "platform/usbmon/pass.h"
#include "platform/usbmon/capture.h"
#include "util/parse.h"
#include "util/sysroot.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define START_WAIT_MS 2000 /* the capture thread maps its ring well within this */
/*
 * The figures need no URB data: a 64 KiB ring has usbmon copy at most 12.8 KiB of each
 * URB (in the completion path of the I/O measured) where the largest copies 240 KiB,
 * and still holds as many large events (five). The reader sleeps 300 us after each
 * drain, so a wake-up takes a batch: in the lab's one-CPU guest that took the cost of a
 * monitored 1 MiB read from 17-29 % to 7-20 %, and 1000 us lost UAS completions.
 */
#define PASS_RING (64u << 10)
/*
 * Measured again (issue 18, the lab at memory speed and metered by QEMU): the cost is
 * the wake-ups (about 250 us of the guest's CPU each under TCG), not usbmon's copy (a
 * 16 KiB ring, 3.2 KiB a URB, was no cheaper) nor the parse. A sleep that grew to
 * 1-2 ms while the ring filled slowly halved the wake-ups of a Bulk-Only read at
 * memory speed but lost 35-46 events in five UAS passes metered at 400 MB/s, where
 * 300 us lost none: five large events fill the ring whatever its size.
 */
#define PASS_BATCH_US 300
/*
 * A network's frames are URBs of 1.5-16 KiB, tens of thousands a second: in 64 KiB
 * the ring held a millisecond of them and usbmon dropped half the events of a
 * 2 s ECM test in the lab. Each copy is the URB's own (small) size whatever the
 * ring's, so the ring can be large: 1 MiB (usbmon takes up to 1200 KiB).
 */
#define PASS_RING_SMALL_URBS (1u << 20)

static bool is_data_xfer(uint8_t t)
{
	return t == USBMON_BULK || t == USBMON_ISO || t == USBMON_INTR;
}

static uint64_t exact_count(const struct usbmon_ep_stats *e, uint32_t size)
{
	for (unsigned i = 0; i < e->nsizes; i++)
		if (e->sizes[i].size == size)
			return e->sizes[i].count;
	return 0;
}

int usbmon_pass_figures(const struct usbmon_stats *s, unsigned bus, unsigned dev, bool bot,
			struct usbmon_pass_figures *ret)
{
	const struct usbmon_dev_stats *d = usbmon_dev_find(s, bus, dev);
	const struct usbmon_ep_stats *best = NULL;
	struct usbmon_pass_figures f = {.bot = bot};
	uint64_t cbw = 0, csw = 0;

	if (!d)
		return -ENOENT;
	f.window_s = usbmon_window_s(s);
	for (size_t i = 0; i < s->neps; i++) {
		const struct usbmon_ep_stats *e = &s->eps[i];

		if (e->busnum != bus || e->devnum != dev)
			continue;
		if (e->epnum & 0x80)
			f.bytes_in += e->bytes;
		else
			f.bytes_out += e->bytes;
		f.urbs += e->completions;
		f.urbs_data += e->completions - e->size_hist[0];
		f.urbs_empty += e->empty;
		f.iso_packets += e->iso_packets;
		f.iso_packet_errors += e->iso_packet_errors;
		for (unsigned k = 0; k < USBMON_NERR; k++)
			f.errors[k] += e->errors[k];
		if (is_data_xfer(e->xfer_type) && (!best || e->bytes > best->bytes))
			best = e;
		if (bot && e->xfer_type == USBMON_BULK) {
			if (e->epnum & 0x80)
				csw += exact_count(e, USBMON_BOT_CSW);
			else
				cbw += exact_count(e, USBMON_BOT_CBW);
		}
	}
	/* an unlinked URB was cancelled by its owner (a pass ending with URBs queued), not lost */
	for (unsigned k = 0; k < USBMON_NERR; k++)
		if (k != USBMON_ENOENT && k != USBMON_ECONNRESET)
			f.errors_total += f.errors[k];
	f.wire_mb_s = f.window_s > 0 ? (double)(f.bytes_in + f.bytes_out) / f.window_s / 1e6 : NAN;
	f.inflight_mean = f.window_s > 0 ? d->inflight_area / (f.window_s * 1e6) : NAN;
	f.inflight_max = d->inflight_max;
	f.busy_us = d->busy_us;
	f.inflight_area = d->inflight_area;
	f.busy_pct = f.window_s > 0 ? 100.0 * (double)d->busy_us / (f.window_s * 1e6) : NAN;
	if (f.busy_pct > 100)
		f.busy_pct = 100;
	f.lat_p50_us = f.lat_p99_us = f.lat_max_us = NAN;
	if (best) {
		f.data_ep = best->epnum;
		f.urb_size = usbmon_ep_dominant(best, &f.urb_size_count);
		f.data_inflight_max = best->inflight_max;
		memcpy(f.size_hist, best->size_hist, sizeof(f.size_hist));
		f.lat_p50_us = usbmon_ep_lat_quantile(best, 0.50);
		f.lat_p99_us = usbmon_ep_lat_quantile(best, 0.99);
		f.lat_max_us = best->lat_n ? (double)best->lat_max_us : NAN;
	}
	f.dropped = s->dropped;
	f.lower_bound = s->dropped || s->pending_overflow || s->ep_overflow;
	if (bot) {
		f.bot_commands = cbw;
		f.protocol_bytes = cbw * USBMON_BOT_CBW + csw * USBMON_BOT_CSW;
		f.protocol_pct = f.bytes_in + f.bytes_out ? 100.0 * (double)f.protocol_bytes /
								(double)(f.bytes_in + f.bytes_out)
							  : NAN;
	} else {
		f.protocol_pct = NAN;
	}
	*ret = f;
	return 0;
}

void usbmon_pass_figures_over(struct usbmon_pass_figures *f, double seconds)
{
	if (!(seconds > 0) || seconds >= f->window_s)
		return;
	f->window_s = seconds;
	f->wire_mb_s = (double)(f->bytes_in + f->bytes_out) / seconds / 1e6;
	f->inflight_mean = f->inflight_area / (seconds * 1e6);
	f->busy_pct = 100.0 * (double)f->busy_us / (seconds * 1e6);
	/* a URB submitted a moment before the pass's clock started */
	if (f->busy_pct > 100)
		f->busy_pct = 100;
}

int usbmon_device_numbers(const char *sysname, unsigned *ret_bus, unsigned *ret_dev)
{
	static const char *const attr[] = {"busnum", "devnum"};
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t n[2];
	int r = 0;

	if (!sysname || !*sysname || strchr(sysname, '/'))
		return -EINVAL;
	for (unsigned i = 0; i < 2 && r == 0; i++) {
		strbuf_reset(&p);
		strbuf_reset(&v);
		strbuf_addf(&p, "/sys/bus/usb/devices/%s/%s", sysname, attr[i]);
		r = sysroot_read_attr(p.buf, &v);
		if (r == 0)
			r = parse_u64(v.buf, 1, i ? 127 : 65535, &n[i]);
	}
	strbuf_release(&p);
	strbuf_release(&v);
	if (r < 0)
		return r;
	*ret_bus = (unsigned)n[0];
	*ret_dev = (unsigned)n[1];
	return 0;
}

struct usbmon_pass {
	unsigned bus, dev;
	bool bot;
	struct usbmon_capture cap;
	struct usbmon_stats stats;
	atomic_bool stop, done;
	int result;
	pthread_t thread;
};

static bool want_device(const struct usbmon_event *e, void *ctx)
{
	const struct usbmon_pass *p = ctx;

	return e->busnum == p->bus && e->devnum == p->dev;
}

static void *capture_thread(void *arg)
{
	struct usbmon_pass *p = arg;

	p->result = usbmon_capture_run(&p->cap, &p->stats);
	atomic_store(&p->done, true);
	return NULL;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

static void say_errno(struct strbuf *why, unsigned bus, int r)
{
	struct strbuf node = STRBUF_INIT;

	usbmon_node(bus, &node);
	if (r == -EACCES || r == -EPERM)
		strbuf_addf(why, "'%s': %s (usbmon needs root)", node.buf, strerror(-r));
	else
		strbuf_addf(why, "'%s': %s", node.buf, strerror(-r));
	strbuf_release(&node);
}

static int pass_start(unsigned bus, unsigned dev, bool bot, unsigned ring, struct usbmon_pass **ret,
		      struct strbuf *why)
{
	enum usbmon_state st;
	struct usbmon_pass *p;
	sigset_t all, old;
	int r;

	r = usbmon_ensure(&st, why);
	if (r < 0)
		return r;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->bus = bus;
	p->dev = dev;
	p->bot = bot;
	r = usbmon_stats_init(&p->stats);
	if (r < 0) {
		free(p);
		return r;
	}
	p->cap = (struct usbmon_capture){.bus = bus,
					 .pcap_fd = -1,
					 .want = want_device,
					 .want_ctx = p,
					 .stop = &p->stop,
					 .ring_want = ring,
					 .batch_us = PASS_BATCH_US};
	/* signals stay with the thread that measures: the capture ends through stop */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = -pthread_create(&p->thread, NULL, capture_thread, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r < 0)
		goto fail;
	for (unsigned ms = 0; ms < START_WAIT_MS; ms++) {
		if (atomic_load(&p->cap.started) || atomic_load(&p->done))
			break;
		sleep_ms(1);
	}
	if (!atomic_load(&p->cap.started)) {
		atomic_store(&p->stop, true);
		pthread_join(p->thread, NULL);
		r = p->result < 0 ? p->result : -ETIMEDOUT;
		goto fail;
	}
	*ret = p;
	return 0;
fail:
	say_errno(why, bus, r);
	usbmon_stats_release(&p->stats);
	free(p);
	return r;
}

int usbmon_pass_stop(struct usbmon_pass *p, struct usbmon_pass_figures *ret, struct strbuf *why)
{
	int r;

	if (!p)
		return -EINVAL;
	atomic_store(&p->stop, true);
	pthread_join(p->thread, NULL);
	r = p->result;
	if (r < 0)
		say_errno(why, p->bus, r);
	else if ((r = usbmon_pass_figures(&p->stats, p->bus, p->dev, p->bot, ret)) < 0)
		strbuf_addf(why, "usbmon saw no event of device %u on bus %u", p->dev, p->bus);
	usbmon_stats_release(&p->stats);
	free(p);
	return r;
}

int usbmon_pass_start(unsigned bus, unsigned dev, bool bot, struct usbmon_pass **ret,
		      struct strbuf *why)
{
	return pass_start(bus, dev, bot, PASS_RING, ret, why);
}

int usbmon_pass_start_small(unsigned bus, unsigned dev, struct usbmon_pass **ret,
			    struct strbuf *why)
{
	return pass_start(bus, dev, false, PASS_RING_SMALL_URBS, ret, why);
}

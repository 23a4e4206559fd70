// SPDX-License-Identifier: MIT
/*
 * usbperf bulk's bulk transfers as URBs on the device's usbfs node, without
 * libusb's event loop in between. libusb pays per wake-up a poll() and a
 * last reap that finds nothing (its reap loop ends on EAGAIN), and per
 * transfer its bookkeeping (locks, lists, an URB array allocated per
 * submit). Here a blocking USBDEVFS_REAPURB sleeps until an URB completes
 * and hands it back, and it goes straight back out: two system calls per
 * transfer, the fewest usbfs allows. In the lab (4 KiB, TCG guest) that was
 * worth 2-24 % against the libusb loop; what stays between usbperf and
 * usbtest is usbfs's own cost per URB (its submit and reap around
 * usb_submit_urb), which no user-space program avoids. The buffers stay
 * libusb's usbfs memory (no copy).
 *
 * A blocking reap needs a way out when nothing completes (a device that
 * stops answering, a Loopback gadget asked for IN alone, a signal that
 * went to another thread): a 50 ms tick aimed at this thread interrupts
 * the wait, as libusb's 50 ms poll timeout did, and the loop looks at the
 * clock and signal_stop.
 */
#include "classes/bulk/engine.h"
#include "util/clock.h"
#include "util/signals.h"
#include "util/xalloc.h"

#include <errno.h>
#include <linux/usbdevice_fs.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id /* glibc before 2.37 names it not */
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define TICK_NS 50000000L
#define DRAIN_TICKS 100 /* 5 s for cancelled URBs to come back, as the libusb path */

struct bulk_usbfs {
	int fd;
	size_t n;
	struct usbdevfs_urb *urbs;
	bool *flying;
	timer_t tick;
	bool tick_made;
	struct sigaction old_alrm;
};

bool bulk_usbfs_usable(int fd)
{
	uint32_t caps = 0;

	return ioctl(fd, USBDEVFS_GET_CAPABILITIES, &caps) == 0 &&
	       (caps & USBDEVFS_CAP_NO_PACKET_SIZE_LIM);
}

static void on_tick(int sig)
{
	(void)sig; /* only to interrupt the reap: no SA_RESTART */
}

/* SIGALRM every 50 ms to this thread alone (passwatch's thread must not take it) */
static int tick_start(struct bulk_usbfs *u)
{
	struct sigevent sev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGALRM};
	struct itimerspec its = {{0, TICK_NS}, {0, TICK_NS}};
	struct sigaction sa = {.sa_handler = on_tick};

	sev.sigev_notify_thread_id = gettid();
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, &u->old_alrm) < 0)
		return -errno;
	if (timer_create(CLOCK_MONOTONIC, &sev, &u->tick) < 0) {
		int r = -errno;

		sigaction(SIGALRM, &u->old_alrm, NULL);
		return r;
	}
	u->tick_made = true;
	timer_settime(u->tick, 0, &its, NULL);
	return 0;
}

/* the tick gone, and a SIGALRM it left pending taken before the old action is back */
static void tick_stop(struct bulk_usbfs *u)
{
	struct timespec zero = {0, 0};
	sigset_t set, old;

	if (!u->tick_made)
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	timer_delete(u->tick);
	while (sigtimedwait(&set, NULL, &zero) == SIGALRM)
		;
	sigaction(SIGALRM, &u->old_alrm, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	u->tick_made = false;
}

int bulk_usbfs_new(int fd, struct libusb_transfer **v, size_t n, struct bulk_usbfs **ret)
{
	struct bulk_usbfs *u = calloc(1, sizeof(*u));
	int r;

	if (!u)
		return -ENOMEM;
	u->fd = fd;
	u->n = n;
	u->urbs = calloc(n, sizeof(*u->urbs));
	u->flying = calloc(n, sizeof(*u->flying));
	if (!u->urbs || !u->flying) {
		bulk_usbfs_free(u);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		u->urbs[i].type = USBDEVFS_URB_TYPE_BULK;
		u->urbs[i].endpoint = v[i]->endpoint;
		u->urbs[i].buffer = v[i]->buffer;
		u->urbs[i].buffer_length = v[i]->length;
		u->urbs[i].usercontext = &u->flying[i];
	}
	r = tick_start(u);
	if (r < 0) {
		bulk_usbfs_free(u);
		return r;
	}
	*ret = u;
	return 0;
}

void bulk_usbfs_free(struct bulk_usbfs *u)
{
	if (!u)
		return;
	tick_stop(u);
	free_all(u->urbs, u->flying, u);
}

enum libusb_transfer_status bulk_usbfs_status(int st)
{
	switch (st) {
	case -ENODEV:
	case -ESHUTDOWN:
		return LIBUSB_TRANSFER_NO_DEVICE;
	case -EPIPE:
		return LIBUSB_TRANSFER_STALL;
	case -EOVERFLOW:
		return LIBUSB_TRANSFER_OVERFLOW;
	default:
		return LIBUSB_TRANSFER_ERROR;
	}
}

/* a refused submit as libusb reports it: no device, no memory, else I/O */
static int submit(struct bulk_usbfs *u, struct bulk_run *run, struct usbdevfs_urb *urb)
{
	if (ioctl(u->fd, USBDEVFS_SUBMITURB, urb) == 0) {
		*(bool *)urb->usercontext = true;
		run->inflight++;
		return 0;
	}
	if (!run->lr)
		run->lr = errno == ENODEV   ? LIBUSB_ERROR_NO_DEVICE
			  : errno == ENOMEM ? LIBUSB_ERROR_NO_MEM
					    : LIBUSB_ERROR_IO;
	run->stopping = true;
	return -1;
}

/* one URB back: counted and sent out again, or the failure kept, as the libusb callback does */
static void reaped(struct bulk_usbfs *u, struct bulk_run *run, struct usbdevfs_urb *urb)
{
	int st = urb->status;

	*(bool *)urb->usercontext = false;
	run->inflight--;
	if (st == -ENOENT || st == -ECONNRESET) /* cancelled */
		return;
	if (st != 0 && st != -EREMOTEIO) {
		if (!run->stopping && !run->lr) {
			run->status = bulk_usbfs_status(st);
			run->lr = 1;
		}
		run->stopping = true;
		return;
	}
	if (run->stopping)
		return;
	bulk_run_count(run, urb->endpoint & 0x80, (uint64_t)urb->actual_length);
	(void)submit(u, run, urb);
}

void bulk_usbfs_pump(struct bulk_usbfs *u, struct bulk_run *run, uint64_t deadline_ns)
{
	for (size_t i = 0; i < u->n && !run->stopping; i++)
		if (u->urbs[i].buffer)
			(void)submit(u, run, &u->urbs[i]);
	while (!run->stopping) {
		struct usbdevfs_urb *urb;

		if (clock_now_ns() >= deadline_ns || signal_stop) {
			run->p->interrupted = signal_stop != 0;
			break;
		}
		if (ioctl(u->fd, USBDEVFS_REAPURB, &urb) == 0) {
			reaped(u, run, urb);
			continue;
		}
		if (errno == EINTR)
			continue;
		/* ENODEV: nothing left to reap and the device gone */
		if (!run->lr) {
			run->status = bulk_usbfs_status(-errno);
			run->lr = 1;
		}
		break;
	}
}

void bulk_usbfs_drain(struct bulk_usbfs *u, struct bulk_run *run)
{
	run->stopping = true;
	for (size_t i = 0; i < u->n; i++)
		if (u->flying[i])
			(void)ioctl(u->fd, USBDEVFS_DISCARDURB, &u->urbs[i]);
	for (int ticks = 0; run->inflight && ticks < DRAIN_TICKS;) {
		struct usbdevfs_urb *urb;

		if (ioctl(u->fd, USBDEVFS_REAPURB, &urb) == 0)
			reaped(u, run, urb);
		else if (errno == EINTR)
			ticks++;
		else
			break; /* the device gone and nothing left to reap */
	}
}

// SPDX-License-Identifier: MIT
/*
 * usbperf bulk's engine: the device's usbfs node wrapped by libusb, the
 * interface taken from its kernel driver and given back, and N asynchronous
 * transfers per direction kept in flight for a time: bulk as URBs on the
 * usbfs node itself (usbfs.c), isochronous through libusb's event loop.
 */
#include "classes/bulk/engine.h"
#include "platform/usb/limits.h"
#include "util/clock.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libusb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bulk_session {
	libusb_context *ctx;
	libusb_device_handle *h;
	int fd;
	struct bulk_eps eps;
	enum usb_speed speed;
	bool claimed, detached, alt_set;
	bool usbfs_direct; /* bulk points as URBs on fd (usbfs.c) */
	char *irq_lines;   /* the host controller's, NULL unknown */
};

/* libusb's errors as errno, for the command's exit status */
static int errno_of(int lr)
{
	switch (lr) {
	case LIBUSB_ERROR_IO:
		return -EIO;
	case LIBUSB_ERROR_INVALID_PARAM:
		return -EINVAL;
	case LIBUSB_ERROR_ACCESS:
		return -EACCES;
	case LIBUSB_ERROR_NO_DEVICE:
		return -ENODEV;
	case LIBUSB_ERROR_NOT_FOUND:
		return -ENOENT;
	case LIBUSB_ERROR_BUSY:
		return -EBUSY;
	case LIBUSB_ERROR_TIMEOUT:
		return -ETIMEDOUT;
	case LIBUSB_ERROR_OVERFLOW:
		return -EOVERFLOW;
	case LIBUSB_ERROR_PIPE:
		return -EPIPE;
	case LIBUSB_ERROR_INTERRUPTED:
		return -EINTR;
	case LIBUSB_ERROR_NO_MEM:
		return -ENOMEM;
	case LIBUSB_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

void bulk_close(struct bulk_session *s)
{
	if (!s)
		return;
	if (s->h) {
		if (s->alt_set)
			libusb_set_interface_alt_setting(s->h, s->eps.iface, 0);
		if (s->claimed)
			libusb_release_interface(s->h, s->eps.iface);
		if (s->detached)
			libusb_attach_kernel_driver(s->h, s->eps.iface);
		libusb_close(s->h); /* a wrapped handle's fd stays ours */
	}
	if (s->fd >= 0)
		close(s->fd);
	if (s->ctx)
		libusb_exit(s->ctx);
	free_all(s->irq_lines, s);
}

void bulk_open_info_release(struct bulk_open_info *i)
{
	if (!i)
		return;
	bulk_sysdev_release(&i->dev);
	free(i->detached);
	i->detached = NULL;
}

static int open_node(const struct bulk_sysdev *dev, int *ret_fd, char *why, size_t why_len)
{
	struct strbuf p = STRBUF_INIT, node = STRBUF_INIT;
	int fd, r = 0;

	strbuf_addf(&node, "/dev/bus/usb/%03u/%03u", dev->busnum, dev->devnum);
	sysroot_path(&p, node.buf);
	fd = open(p.buf, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		snprintf(why, why_len, "cannot open '%s': %s", node.buf, strerror(errno));
	} else
		*ret_fd = fd;
	strbuf_release(&p);
	strbuf_release(&node);
	return r;
}

int bulk_open(const struct bulk_sysdev *dev, const struct bulk_want *want,
	      struct bulk_session **ret, struct bulk_open_info *info, char *why, size_t why_len)
{
	struct libusb_config_descriptor *cfg = NULL;
	struct bulk_session *s;
	int r, lr;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = -1;
	s->speed = dev->speed;
	if (dev->sysname) {
		char path[96];

		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s", dev->sysname);
		(void)irq_lines_of_sysfs(path, NULL, &s->irq_lines);
	}
	/* no discovery: no udev, no scan of every device; the node is ours to open */
	libusb_set_option(NULL, LIBUSB_OPTION_NO_DEVICE_DISCOVERY);
	lr = libusb_init(&s->ctx);
	if (lr < 0) {
		s->ctx = NULL;
		snprintf(why, why_len, "libusb: %s", libusb_strerror(lr));
		r = errno_of(lr);
		goto out_close;
	}
	r = open_node(dev, &s->fd, why, why_len);
	if (r < 0)
		goto out_close;
	lr = libusb_wrap_sys_device(s->ctx, (intptr_t)s->fd, &s->h);
	if (lr < 0) {
		s->h = NULL;
		snprintf(why, why_len, "libusb cannot use the device: %s", libusb_strerror(lr));
		r = errno_of(lr);
		goto out_close;
	}
	lr = libusb_get_active_config_descriptor(libusb_get_device(s->h), &cfg);
	if (lr < 0) {
		snprintf(why, why_len, "cannot read the configuration descriptor: %s",
			 libusb_strerror(lr));
		r = errno_of(lr);
		goto out_close;
	}
	r = bulk_pick_endpoints(cfg, want, &s->eps, why, why_len);
	libusb_free_config_descriptor(cfg);
	if (r < 0)
		goto out_close;
	info->detached = bulk_iface_driver(dev, (unsigned)s->eps.iface);
	if (libusb_kernel_driver_active(s->h, s->eps.iface) == 1) {
		lr = libusb_detach_kernel_driver(s->h, s->eps.iface);
		if (lr < 0 && lr != LIBUSB_ERROR_NOT_FOUND) {
			snprintf(why, why_len, "cannot detach '%s' from interface %d: %s",
				 info->detached ? info->detached : "its driver", s->eps.iface,
				 libusb_strerror(lr));
			r = errno_of(lr);
			goto out_close;
		}
		s->detached = lr == 0;
	}
	if (!s->detached) {
		free(info->detached);
		info->detached = NULL;
	}
	lr = libusb_claim_interface(s->h, s->eps.iface);
	if (lr < 0) {
		if (lr == LIBUSB_ERROR_BUSY)
			snprintf(why, why_len, "interface %d is busy: claimed by another program",
				 s->eps.iface);
		else
			snprintf(why, why_len, "cannot claim interface %d: %s", s->eps.iface,
				 libusb_strerror(lr));
		r = errno_of(lr);
		goto out_close;
	}
	s->claimed = true;
	if (s->eps.alt) {
		lr = libusb_set_interface_alt_setting(s->h, s->eps.iface, s->eps.alt);
		if (lr < 0) {
			snprintf(why, why_len, "cannot select alternate setting %d: %s", s->eps.alt,
				 libusb_strerror(lr));
			r = errno_of(lr);
			goto out_close;
		}
		s->alt_set = true;
	}
	info->dev = *dev;
	info->dev.sysname = strdup(dev->sysname);
	info->dev.product = dev->product ? strdup(dev->product) : NULL;
	if (!info->dev.sysname || (dev->product && !info->dev.product)) {
		bulk_sysdev_release(&info->dev);
		snprintf(why, why_len, "out of memory");
		r = -ENOMEM;
		goto out_close;
	}
	info->eps = s->eps;
	s->usbfs_direct = bulk_usbfs_usable(s->fd);
	*ret = s;
	return 0;

out_close:
	free(info->detached);
	info->detached = NULL;
	bulk_close(s);
	return r;
}

static void LIBUSB_CALL on_done(struct libusb_transfer *t)
{
	struct bulk_run *run = t->user_data;
	bool in = t->endpoint & LIBUSB_ENDPOINT_IN;
	uint64_t n = 0;

	run->inflight--;
	if (t->status == LIBUSB_TRANSFER_CANCELLED)
		return;
	if (t->status != LIBUSB_TRANSFER_COMPLETED) {
		if (!run->stopping && !run->lr) {
			run->status = t->status;
			run->lr = 1;
		}
		run->stopping = true;
		return;
	}
	if (run->stopping)
		return;
	if (t->type == LIBUSB_TRANSFER_TYPE_ISOCHRONOUS) {
		for (int i = 0; i < t->num_iso_packets; i++) {
			run->p->packets++;
			if (t->iso_packet_desc[i].status != LIBUSB_TRANSFER_COMPLETED)
				run->p->packet_errors++;
			else
				n += t->iso_packet_desc[i].actual_length;
		}
	} else
		n = (uint64_t)t->actual_length;
	bulk_run_count(run, in, n);
	int lr = libusb_submit_transfer(t);

	if (lr < 0) {
		if (!run->lr)
			run->lr = lr;
		run->stopping = true;
	} else
		run->inflight++;
}

/*
 * A transfer's buffer: usbfs memory mapped into the process where the
 * kernel offers it (Linux 4.6+: the URB uses it directly, no copy between
 * user and kernel buffers, as an in-kernel driver would), else the heap.
 * Which kind each buffer is, is kept in an array beside the transfers.
 */
static unsigned char *buffer_alloc(struct bulk_session *s, size_t len, bool *ret_zc)
{
	unsigned char *b = libusb_dev_mem_alloc(s->h, len);

	*ret_zc = b != NULL;
	if (b)
		memset(b, 0, len);
	else
		b = calloc(1, len);
	return b;
}

static void free_transfers(struct libusb_transfer **v, const bool *zc, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			continue;
		if (zc && zc[i])
			libusb_dev_mem_free(v[i]->dev_handle, v[i]->buffer, (size_t)v[i]->length);
		else
			free(v[i]->buffer);
		libusb_free_transfer(v[i]);
	}
	free(v);
}

/* iso packets per transfer of size bytes, each up to the endpoint's bytes per interval */
static int iso_packets(const struct bulk_session *s, bool in, uint64_t size, unsigned *ret_len)
{
	unsigned per = in ? s->eps.mps_in * s->eps.mult_in : s->eps.mps_out * s->eps.mult_out;
	uint64_t n;

	if (!per)
		return -EINVAL;
	n = (size + per - 1) / per;
	if (n < 1 || n > 1024)
		return -ERANGE;
	*ret_len = per;
	return (int)n;
}

static int make_transfers(struct bulk_session *s, struct bulk_run *run, bool in,
			  struct libusb_transfer **v, bool *zc)
{
	const struct bulk_point *p = run->p;

	for (unsigned i = 0; i < p->depth; i++) {
		unsigned char ep = (unsigned char)(in ? s->eps.ep_in : s->eps.ep_out);
		unsigned plen = 0;
		int np = p->iso ? iso_packets(s, in, p->size, &plen) : 0;
		unsigned char *buf;

		if (np < 0)
			return np;
		v[i] = libusb_alloc_transfer(np);
		/* zeros: SourceSink's default pattern 0; iso rounds up to whole packets */
		buf = buffer_alloc(s, p->iso ? (size_t)np * plen : p->size, &zc[i]);
		if (!v[i] || !buf) {
			free(buf);
			return -ENOMEM;
		}
		if (p->iso) {
			libusb_fill_iso_transfer(v[i], s->h, ep, buf, (int)((uint64_t)np * plen),
						 np, on_done, run, 0);
			libusb_set_iso_packet_lengths(v[i], plen);
		} else
			libusb_fill_bulk_transfer(v[i], s->h, ep, buf, (int)p->size, on_done, run,
						  0);
	}
	return 0;
}

static int run_error(const struct bulk_run *run, char *why, size_t why_len)
{
	if (run->lr == 1) {
		snprintf(why, why_len, "a transfer failed: %s",
			 libusb_error_name((int)run->status));
		return run->status == LIBUSB_TRANSFER_NO_DEVICE ? -ENODEV : -EIO;
	}
	snprintf(why, why_len, "cannot submit a transfer: %s", libusb_strerror(run->lr));
	return errno_of(run->lr);
}

/* the point's figures zeroed and its ceiling set; the iso alt setting selected afresh */
static int measure_prepare(struct bulk_session *s, struct bulk_point *p, char *why, size_t why_len)
{
	bool want_in = p->dir != BULK_DIR_OUT, want_out = p->dir != BULK_DIR_IN;

	pass_sys_init(&p->sys);
	if ((want_in && !s->eps.ep_in) || (want_out && !s->eps.ep_out)) {
		snprintf(why, why_len, "the interface has no %s endpoint",
			 want_in && !s->eps.ep_in ? "IN" : "OUT");
		return -ENOENT;
	}
	p->bytes_in = p->bytes_out = p->transfers = p->packets = p->packet_errors = 0;
	p->interrupted = false;
	if (p->iso)
		p->ceiling_mb_s = want_in
				      ? bulk_iso_ceiling_mb_s(s->speed, s->eps.mps_in,
							      s->eps.mult_in, s->eps.interval_in)
				      : bulk_iso_ceiling_mb_s(s->speed, s->eps.mps_out,
							      s->eps.mult_out, s->eps.interval_out);
	else
		p->ceiling_mb_s = bulk_ceiling_mb_s(s->speed, p->dir);
	/*
	 * Each isochronous point starts on a fresh alternate setting: the host
	 * controller schedules a stream's packets frame after frame, and the
	 * frames a cancelled stream had booked would delay the next point's
	 * first packets (QEMU's xHCI waits for a frame number to come round).
	 */
	if (p->iso && s->alt_set) {
		int lr = libusb_set_interface_alt_setting(s->h, s->eps.iface, 0);

		if (lr == 0)
			lr = libusb_set_interface_alt_setting(s->h, s->eps.iface, s->eps.alt);
		if (lr < 0) {
			snprintf(why, why_len, "cannot select alternate setting %d again: %s",
				 s->eps.alt, libusb_strerror(lr));
			return errno_of(lr);
		}
	}
	return 0;
}

/* depth transfers per direction the point moves: IN first, then OUT */
static int measure_transfers(struct bulk_session *s, struct bulk_run *run,
			     struct libusb_transfer ***ret_v, bool **ret_zc, char *why,
			     size_t why_len)
{
	const struct bulk_point *p = run->p;
	size_t n = (size_t)p->depth * 2;
	struct libusb_transfer **v = calloc(n, sizeof(*v));
	bool *zc = calloc(n, sizeof(*zc)); /* which buffers are usbfs memory */
	int r = 0;

	if (!v || !zc) {
		free_all(v, zc);
		return -ENOMEM;
	}
	if (p->dir != BULK_DIR_OUT)
		r = make_transfers(s, run, true, v, zc);
	if (r >= 0 && p->dir != BULK_DIR_IN)
		r = make_transfers(s, run, false, v + p->depth, zc + p->depth);
	if (r < 0) {
		snprintf(why, why_len, "cannot set up %u transfers of %llu B: %s", p->depth,
			 (unsigned long long)p->size, strerror(-r));
		free_transfers(v, zc, n);
		free(zc);
		return r;
	}
	*ret_v = v;
	*ret_zc = zc;
	return 0;
}

/* libusb's event loop: every transfer submitted, each resubmitted from its callback */
static void libusb_pump(struct bulk_session *s, struct bulk_run *run, struct libusb_transfer **v,
			size_t n, uint64_t deadline)
{
	for (size_t i = 0; i < n && !run->stopping; i++) {
		if (!v[i])
			continue;
		int lr = libusb_submit_transfer(v[i]);

		if (lr < 0) {
			run->lr = lr;
			run->stopping = true;
		} else
			run->inflight++;
	}
	while (!run->stopping) {
		struct timeval tv = {0, 50000};
		uint64_t now = clock_now_ns();

		if (now >= deadline || signal_stop) {
			run->p->interrupted = signal_stop != 0;
			break;
		}
		libusb_handle_events_timeout_completed(s->ctx, &tv, NULL);
	}
}

static void libusb_drain(struct bulk_session *s, struct bulk_run *run, struct libusb_transfer **v,
			 size_t n)
{
	run->stopping = true;
	for (size_t i = 0; i < n; i++)
		if (v[i])
			libusb_cancel_transfer(v[i]);
	/* every transfer back before its buffer is freed: bounded, a gone device cancels at once */
	for (int k = 0; k < 100 && run->inflight; k++) {
		struct timeval tv = {0, 50000};

		libusb_handle_events_timeout_completed(s->ctx, &tv, NULL);
	}
}

int bulk_measure(struct bulk_session *s, double time_s, struct bulk_point *p, char *why,
		 size_t why_len)
{
	struct bulk_run run = {.p = p};
	size_t n = (size_t)p->depth * 2;
	struct libusb_transfer **v;
	struct bulk_usbfs *u = NULL;
	bool *zc;
	uint64_t t0, t_end;
	struct passwatch pw;
	int r;

	r = measure_prepare(s, p, why, why_len);
	if (r < 0)
		return r;
	r = measure_transfers(s, &run, &v, &zc, why, why_len);
	if (r < 0)
		return r;
	/* bulk on usbfs directly where it can; else (iso, or no tick) libusb's loop */
	if (!p->iso && s->usbfs_direct && bulk_usbfs_new(s->fd, v, n, &u) < 0)
		u = NULL;
	(void)passwatch_start(&pw, s->irq_lines);
	t0 = clock_now_ns();
	if (u)
		bulk_usbfs_pump(u, &run, t0 + (uint64_t)(time_s * 1e9));
	else
		libusb_pump(s, &run, v, n, t0 + (uint64_t)(time_s * 1e9));
	t_end = clock_now_ns();
	passwatch_stop(&pw, (double)(t_end - t0) / 1e9, &p->sys);
	if (u)
		bulk_usbfs_drain(u, &run);
	else
		libusb_drain(s, &run, v, n);
	bulk_usbfs_free(u);
	p->seconds = (double)(t_end - t0) / 1e9;
	bulk_point_finish(p);
	if (run.lr)
		r = run_error(&run, why, why_len);
	else if (p->interrupted)
		r = -EINTR;
	if (run.inflight) /* the kernel or libusb still owns them: leak rather than free under it */
		free(v);
	else
		free_transfers(v, zc, n);
	free(zc);
	return r;
}

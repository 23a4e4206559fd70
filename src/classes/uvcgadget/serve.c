// SPDX-License-Identifier: MIT
/*
 * The camera through gadgetfs (drivers/usb/gadget/legacy/inode.c): the
 * descriptors written to the ep0 file bind the first free UDC; then ep0
 * gives events. gadgetfs answers GET_DESCRIPTOR for the device and the
 * configuration itself; strings, SET_CONFIGURATION, SET_INTERFACE and every
 * class request come here. An IN request is answered by a write, stalled
 * by a read; an OUT one's data is read (gadgetfs cannot stall it), one
 * without data acknowledged by a read of 0 bytes or stalled by a write.
 */
#include "classes/uvcgadget/serve_priv.h"
#include "model/field.h"
#include "util/clock.h"
#include "util/names.h"
#include "util/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/gadgetfs.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EVENTS 5 /* gadgetfs queues at most N_EVENT (5) */
#define STATS_EVERY_NS 1000000000ull

/* path below the sysroot, opened: fd or -errno */
static int open_below(const char *path, int flags)
{
	struct strbuf real = STRBUF_INIT;
	int fd;

	sysroot_path(&real, path);
	fd = open(real.buf, flags);
	strbuf_release(&real);
	return fd < 0 ? -errno : fd;
}

static void on_usr1(int sig)
{
	(void)sig; /* only to interrupt a write: no SA_RESTART */
}

/* the ep0 file (named after the UDC's gadget) and the first bulk-capable IN endpoint */
static int find_files(const char *dir, struct strbuf *ep0, char *ep, size_t eplen)
{
	struct strbuf real = STRBUF_INIT;
	struct dirent *d;
	DIR *dh;

	sysroot_path(&real, dir);
	dh = opendir(real.buf);
	strbuf_release(&real);
	if (!dh)
		return -errno;
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.')
			continue;
		if (!strncmp(d->d_name, "ep", 2) && strstr(d->d_name, "in") &&
		    (!strchr(d->d_name, '-') || strstr(d->d_name, "bulk"))) {
			if (ep && !*ep && strlen(d->d_name) < eplen)
				strcpy(ep, d->d_name);
		} else if (ep0 && strncmp(d->d_name, "ep", 2)) {
			strbuf_reset(ep0);
			strbuf_addf(ep0, "%s/%s", dir, d->d_name);
		}
	}
	closedir(dh);
	return 0;
}

static void write_stats(struct uvcg_server *s)
{
	struct report r = {.command = "uvc-gadget"};
	struct strbuf out = STRBUF_INIT, tmp = STRBUF_INIT, real = STRBUF_INIT;
	int fd;

	if (!s->cfg->stats || !s->cfg->to_json)
		return;
	pthread_mutex_lock(&s->lock);
	s->fn.brightness = s->ctrl.brightness;
	s->fn.contrast = s->ctrl.contrast;
	s->fn.class_requests = s->ctrl.requests;
	s->fn.probes = s->ctrl.probes;
	s->fn.commits = s->ctrl.commits;
	uvcg_function_describe(&s->fn, &r);
	s->cfg->to_json(&r, &out);
	pthread_mutex_unlock(&s->lock);
	/* aside, then renamed: a reader never sees half of it */
	sysroot_path(&real, s->cfg->stats);
	strbuf_addf(&tmp, "%s.new", real.buf);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		bool ok = write(fd, out.buf, out.len) == (ssize_t)out.len;

		if (close(fd) == 0 && ok)
			rename(tmp.buf, real.buf);
		else
			unlink(tmp.buf);
	}
	strbuf_release(&out);
	strbuf_release(&tmp);
	strbuf_release(&real);
}

static void set_state(struct uvcg_server *s, const char *state)
{
	pthread_mutex_lock(&s->lock);
	s->fn.state = state;
	pthread_mutex_unlock(&s->lock);
}

static int ack(struct uvcg_server *s)
{
	return read(s->ep0, NULL, 0) < 0 && errno != EL2HLT ? -errno : 0;
}

static int stall_in(struct uvcg_server *s)
{
	char b;

	s->fn.stalls++;
	return read(s->ep0, &b, 1) < 0 && errno != EL2HLT ? -errno : 0;
}

static int stall_out(struct uvcg_server *s)
{
	s->fn.stalls++;
	return write(s->ep0, "", 0) < 0 && errno != EL2HLT ? -errno : 0;
}

static int reply(struct uvcg_server *s, const void *buf, size_t len)
{
	return write(s->ep0, buf, len) < 0 ? -errno : 0;
}

/* SET_CONFIGURATION: the bulk endpoint opened and described, or closed (0) */
static int set_config(struct uvcg_server *s, unsigned value)
{
	struct strbuf p = STRBUF_INIT, msg = STRBUF_INIT;
	int r = 0;

	uvcg_stream_stop(s, "the configuration was reset");
	if (s->ep >= 0) {
		close(s->ep);
		s->ep = -1;
	}
	if (!value) {
		set_state(s, "bound");
		return ack(s);
	}
	if (!s->ep_name[0])
		find_files(s->cfg->dir, NULL, s->ep_name, sizeof(s->ep_name));
	strbuf_addf(&p, "%s/%s", s->cfg->dir, s->ep_name);
	s->ep = s->ep_name[0] ? open_below(p.buf, O_RDWR | O_CLOEXEC) : -ENOENT;
	if (s->ep >= 0) {
		uvcg_desc_gadgetfs_ep(&s->desc, &msg);
		if (write(s->ep, msg.buf, msg.len) != (ssize_t)msg.len) {
			r = -errno;
			close(s->ep);
			s->ep = -1;
		}
	} else {
		r = s->ep;
		s->ep = -1;
	}
	set_state(s, s->ep >= 0 ? "configured" : "no endpoint");
	strbuf_release(&p);
	strbuf_release(&msg);
	/* SET_CONFIGURATION cannot be stalled here: acknowledged, the endpoint said in state */
	(void)r;
	return ack(s);
}

static int standard(struct uvcg_server *s, const struct usb_ctrlrequest *c)
{
	uint16_t value = c->wValue, index = c->wIndex, len = c->wLength;
	uint8_t b[256];
	int n;

	switch (c->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		if (c->bRequestType != USB_DIR_IN || value >> 8 != USB_DT_STRING)
			return stall_in(s);
		n = uvcg_desc_string(&s->cfg->ident, value & 0xff, b, sizeof(b));
		return n < 0 ? stall_in(s) : reply(s, b, (size_t)n < len ? (size_t)n : len);
	case USB_REQ_SET_CONFIGURATION:
		return set_config(s, value & 0xff);
	case USB_REQ_SET_INTERFACE:
		/* uvcvideo selects alt 0 of the streaming interface at probe and on errors */
		if ((index & 0xff) == UVCG_IF_STREAMING)
			uvcg_stream_stop(s, "SET_INTERFACE");
		return value == 0 ? ack(s) : stall_out(s);
	case USB_REQ_GET_INTERFACE:
		b[0] = 0;
		return reply(s, b, len ? 1 : 0);
	case USB_REQ_CLEAR_FEATURE:
		/* Windows's way to stop a bulk camera (UDCs that pass it on) */
		if ((c->bRequestType & USB_RECIP_MASK) == USB_RECIP_ENDPOINT &&
		    (index & 0xff) == UVCG_EP_ADDRESS)
			uvcg_stream_stop(s, "CLEAR_FEATURE(HALT)");
		return ack(s);
	default:
		return (c->bRequestType & USB_DIR_IN) ? stall_in(s) : stall_out(s);
	}
}

static int class_request(struct uvcg_server *s, const struct usb_ctrlrequest *c, char **why)
{
	struct uvcg_setup u = {c->bRequestType, c->bRequest, c->wValue, c->wIndex, c->wLength};
	uint8_t b[256];
	ssize_t n;
	int r;

	if (c->bRequestType & USB_DIR_IN) {
		r = uvcg_ctrl_in(&s->ctrl, &u, b, sizeof(b));
		return r < 0 ? stall_in(s) : reply(s, b, (size_t)r);
	}
	if (!c->wLength)
		return stall_out(s);
	n = read(s->ep0, b, c->wLength < sizeof(b) ? c->wLength : sizeof(b));
	if (n < 0)
		return -errno == -EIDRM ? 0 : -errno;
	r = uvcg_ctrl_out(&s->ctrl, &u, b, (size_t)n);
	if (r == 1) {
		s->commit = s->ctrl.commit;
		r = uvcg_stream_start(s, why);
		if (r < 0)
			return r;
	}
	return 0;
}

static int on_setup(struct uvcg_server *s, const struct usb_ctrlrequest *c, char **why)
{
	pthread_mutex_lock(&s->lock);
	s->fn.setups++;
	pthread_mutex_unlock(&s->lock);
	if ((c->bRequestType & USB_TYPE_MASK) == USB_TYPE_STANDARD)
		return standard(s, c);
	if ((c->bRequestType & USB_TYPE_MASK) == USB_TYPE_CLASS &&
	    (c->bRequestType & USB_RECIP_MASK) == USB_RECIP_INTERFACE)
		return class_request(s, c, why);
	return (c->bRequestType & USB_DIR_IN) ? stall_in(s) : stall_out(s);
}

/* the speed the host connected at (ch9's enum), as usbperf names it */
static const char *speed_name(enum usb_device_speed sp)
{
	static const char *const names[] = {[USB_SPEED_LOW] = "low",
					    [USB_SPEED_FULL] = "full",
					    [USB_SPEED_HIGH] = "high",
					    [USB_SPEED_SUPER] = "super"};

	return NAME_OF(names, sp, "unknown");
}

/* the events gadgetfs queued: 0, or -errno when ep0 failed */
static int events(struct uvcg_server *s, char **why)
{
	struct usb_gadgetfs_event ev[EVENTS];
	ssize_t n = read(s->ep0, ev, sizeof(ev));
	int i, r = 0;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN || errno == EIDRM ? 0 : -errno;
	for (i = 0; r == 0 && i < (int)(n / (ssize_t)sizeof(ev[0])); i++) {
		switch (ev[i].type) {
		case GADGETFS_CONNECT:
			pthread_mutex_lock(&s->lock);
			s->fn.speed = speed_name(ev[i].u.speed);
			s->fn.connects++;
			pthread_mutex_unlock(&s->lock);
			break;
		case GADGETFS_DISCONNECT:
			uvcg_stream_stop(s, "disconnected");
			set_state(s, "disconnected");
			break;
		case GADGETFS_SETUP:
			r = on_setup(s, &ev[i].u.setup, why);
			break;
		default:
			break;
		}
	}
	return r;
}

static int bind_descriptors(struct uvcg_server *s, char **why)
{
	struct strbuf ep0 = STRBUF_INIT, msg = STRBUF_INIT;
	int r;

	r = find_files(s->cfg->dir, &ep0, NULL, 0);
	if (r < 0 || !ep0.len) {
		r = reason_set(r < 0 ? r : -ENODEV, why,
			       "no gadgetfs ep0 file in '%s' (gadgetfs mounted there, a UDC free?)",
			       s->cfg->dir);
		goto out;
	}
	s->fn.udc = strrchr(ep0.buf, '/') ? strdup(strrchr(ep0.buf, '/') + 1) : NULL;
	s->ep0 = open_below(ep0.buf, O_RDWR | O_CLOEXEC);
	if (s->ep0 < 0) {
		r = reason_set(s->ep0, why, "cannot open '%s': %s", ep0.buf, strerror(-s->ep0));
		goto out;
	}
	uvcg_desc_gadgetfs(&s->desc, !s->cfg->full_speed, &msg);
	if (write(s->ep0, msg.buf, msg.len) != (ssize_t)msg.len) {
		r = reason_set(-errno, why, "gadgetfs refused the descriptors on '%s': %s",
			       ep0.buf, strerror(errno));
		goto out;
	}
	s->fn.state = "bound";
	r = 0;
out:
	strbuf_release(&ep0);
	strbuf_release(&msg);
	return r;
}

static int loop(struct uvcg_server *s, char **why)
{
	uint64_t last = 0;
	int r = 0;

	while (r == 0 && !(s->cfg->stop && *s->cfg->stop)) {
		struct pollfd p = {.fd = s->ep0, .events = POLLIN};
		uint64_t now;

		if (poll(&p, 1, 200) > 0)
			r = events(s, why);
		now = clock_now_ns();
		/* a stream's end is written at once: its figures are final */
		if (uvcg_stream_watch(s, now) || now - last >= STATS_EVERY_NS) {
			write_stats(s);
			last = now;
		}
	}
	if (r < 0 && why && !*why)
		reason_set(r, why, "gadgetfs ep0: %s", strerror(-r));
	return r;
}

int uvcg_serve(const struct uvcg_serve_config *c, struct uvcg_function *ret, char **ret_why)
{
	struct uvcg_server s = {.cfg = c, .ep0 = -1, .ep = -1};
	struct sigaction sa = {.sa_handler = on_usr1};
	int r;

	r = uvcg_desc_build(&c->params, &c->ident, &s.desc, ret_why);
	if (r < 0)
		return r;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_mutex_init(&s.lock, NULL);
	uvcg_ctrl_init(&s.ctrl, &c->params);
	s.fn.state = "waiting";
	/* the frames first: a stream then starts at its commit, not after an encoder */
	uvcg_stream_premake(&s);
	r = bind_descriptors(&s, ret_why);
	if (r == 0) {
		write_stats(&s);
		r = loop(&s, ret_why);
	}
	uvcg_stream_stop(&s, "the function stopped");
	if (s.ep >= 0)
		close(s.ep);
	/* closing ep0 unbinds: the host sees the camera go */
	if (s.ep0 >= 0)
		close(s.ep0);
	s.fn.state = r < 0 ? "failed" : "stopped";
	write_stats(&s);
	uvcg_stream_free_rings(&s);
	if (ret) {
		*ret = s.fn;
		ret->udc = NULL;
	}
	free((char *)s.fn.udc);
	pthread_mutex_destroy(&s.lock);
	return r;
}

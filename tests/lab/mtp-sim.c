// SPDX-License-Identifier: MIT
/*
 * Lab test equipment, not part of usbperf: mtp-sim, an MTP responder
 * written for the lab as a FunctionFS function, so that usbperf mtp meets a
 * second implementation of the device side beside Debian's umtprd (the only
 * MTP responder Debian packages), as i2c-tiny-sim stands in for an
 * i2c-tiny-usb bridge. Nothing of umtprd is in it.
 *
 *   mtp-sim FFS-DIR --storage DIR[:DESCRIPTION[:ro]] [options]
 *
 * It serves PTP/MTP over the bulk pair of one still-image interface (class
 * 6/1/1, named "MTP" so that libmtp's probe takes it): GetDeviceInfo,
 * Open/CloseSession, GetStorageIDs, GetStorageInfo, GetNumObjects,
 * GetObjectHandles, GetObjectInfo, GetObject, DeleteObject (a folder with
 * everything in it), SendObjectInfo, SendObject, and the object property
 * operations libmtp uses: GetObjectPropsSupported, GetObjectPropDesc,
 * GetObjectPropValue, GetObjPropList (one object, depth 0) and
 * SendObjectPropList (libmtp's way of creating objects when the device
 * offers it; umtprd does not, so libmtp takes another path here). Each
 * storage is a directory: an object is a file or a folder in it, so the
 * lab can compare the directory before and after a run. ep0 answers the
 * still-image class requests (Cancel, Device Reset, Get Device Status).
 *
 * Options:
 *   --storage DIR[:DESC[:ro]]  a storage (up to 4; the first is 0x00010001)
 *   --capacity BYTES, --free BYTES
 *                      report these in GetStorageInfo instead of the
 *                      filesystem's (a device whose figures are impossible)
 *   --quirk NAME       reproduce a responder seen in the field:
 *       stale-new-folder  objects sent into a folder made in this session
 *                         cannot be re-read or deleted by their handle after
 *                         SendObject and are not listed (a stale folder
 *                         index); deleting the folder removes them. libmtp
 *                         then says "Could not retrieve updated metadata"
 *                         after a send that delivered every byte.
 *       new-handle        an object's handle changes when its data arrives:
 *                         the handle the device answered to SendObjectInfo
 *                         or SendObjectPropList is retired, the listing
 *                         shows the new one.
 *       no-root-files     files are refused in a storage's root (folders
 *                         are not), as some cameras and players do.
 *       no-new-folders    a new folder is refused (AccessDenied).
 *   --fail-send-from N the Nth SendObject and every later one takes the
 *                      data, keeps half of it and answers StoreFull
 *   --packet N         the bulk endpoints' packet size (512, high speed)
 *   --buffer N         bytes per bulk request (65536)
 *   --manufacturer S, --model S, --serial S
 *
 * Full and high speed only (no SuperSpeed descriptors). On SIGTERM or
 * SIGINT it prints what it served on stdout and exits.
 */
#define _GNU_SOURCE
#include "mtp-sim.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR 12u
#define TYPE_COMMAND 1
#define TYPE_DATA 2
#define TYPE_RESPONSE 3

/* still-image class requests (PIMA 15740 USB, 5.2) */
#define REQ_CANCEL 0x64
#define REQ_DEVICE_RESET 0x66
#define REQ_GET_DEVICE_STATUS 0x67
#define RC_OK 0x2001

static volatile sig_atomic_t quit;
static volatile sig_atomic_t reset_requested;

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

/* --- the bulk container stream --- */

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static int write_all(struct sim *s, const void *p, size_t n)
{
	ssize_t w = write(s->in, p, n);

	if (w != (ssize_t)n) {
		fprintf(stderr, "mtp-sim: bulk in: %s\n", w < 0 ? strerror(errno) : "short write");
		return -1;
	}
	s->bytes_out += n;
	return 0;
}

int sim_respond(struct sim *s, const struct sim_cmd *c, uint16_t code, unsigned np,
		const uint32_t *p)
{
	unsigned char r[HDR + 5 * 4];

	put32(r, HDR + 4 * np);
	put16(r + 4, TYPE_RESPONSE);
	put16(r + 6, code);
	put32(r + 8, c->tid);
	for (unsigned i = 0; i < np; i++)
		put32(r + HDR + 4 * i, p[i]);
	if (code != RC_OK)
		s->refused++;
	return write_all(s, r, HDR + 4 * np);
}

static void data_header(unsigned char *h, const struct sim_cmd *c, uint64_t len)
{
	uint64_t total = len + HDR;

	/* 4 GiB or more: the length field says "unknown", the host reads to the short packet */
	put32(h, total > 0xffffffffu ? 0xffffffffu : (uint32_t)total);
	put16(h + 4, TYPE_DATA);
	put16(h + 6, c->code);
	put32(h + 8, c->tid);
}

/*
 * A container the host reads in large requests ends with a short packet:
 * one of exactly whole packets needs a zero-length one after it.
 */
static int end_container(struct sim *s, uint64_t total)
{
	if (total % s->packet)
		return 0;
	if (write(s->in, s->buf, 0) < 0) {
		fprintf(stderr, "mtp-sim: zero-length packet: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int sim_send_data(struct sim *s, const struct sim_cmd *c, const void *data, size_t len)
{
	size_t done = 0;
	bool first = true;

	/* every request but the last a multiple of the packet size: one stream on the wire */
	while (first || done < len) {
		size_t off = first ? HDR : 0, n = len - done;

		if (n > s->bufsize - off)
			n = s->bufsize - off;
		if (first)
			data_header(s->buf, c, len);
		memcpy(s->buf + off, (const unsigned char *)data + done, n);
		if (write_all(s, s->buf, off + n) < 0)
			return -1;
		done += n;
		first = false;
	}
	return end_container(s, len + HDR);
}

int sim_send_fd(struct sim *s, const struct sim_cmd *c, int fd, uint64_t size)
{
	uint64_t done = 0;
	bool first = true;

	while (first || done < size) {
		size_t off = first ? HDR : 0, n = s->bufsize - off;
		ssize_t r;

		if (n > size - done)
			n = (size_t)(size - done);
		if (first)
			data_header(s->buf, c, size);
		r = n ? pread(fd, s->buf + off, n, (off_t)done) : 0;
		if (r != (ssize_t)n) {
			/* the host waits for the bytes announced: the file shrank under us */
			fprintf(stderr, "mtp-sim: read at %llu: %s\n", (unsigned long long)done,
				r < 0 ? strerror(errno) : "short");
			return -1;
		}
		if (write_all(s, s->buf, off + n) < 0)
			return -1;
		done += n;
		first = false;
	}
	return end_container(s, size + HDR);
}

/* one bulk OUT request of up to want bytes, rounded up to whole packets (asked) */
static ssize_t read_out(struct sim *s, uint64_t want, size_t *ret_asked)
{
	size_t n = want < s->bufsize ? (size_t)want : s->bufsize;
	ssize_t r;

	n = (n + s->packet - 1) / s->packet * s->packet;
	if (n == 0 || n > s->bufsize)
		n = s->bufsize;
	*ret_asked = n;
	do
		r = read(s->out, s->buf, n);
	while (r < 0 && errno == EINTR && !quit);
	if (r > 0)
		s->bytes_in += (unsigned long)r;
	return r;
}

int sim_recv_data(struct sim *s, const struct sim_cmd *c, uint64_t announced, sim_sink sink,
		  void *ctx, uint64_t *ret_len)
{
	uint64_t total, got;
	size_t asked;
	ssize_t n = read_out(s, s->bufsize, &asked);

	if (n < (ssize_t)HDR || get16(s->buf + 4) != TYPE_DATA || get16(s->buf + 6) != c->code) {
		fprintf(stderr, "mtp-sim: 0x%04x: no data container (%zd bytes)\n", c->code, n);
		return -1;
	}
	total = get32(s->buf) == 0xffffffffu ? announced : get32(s->buf) - HDR;
	got = (uint64_t)n - HDR < total ? (uint64_t)n - HDR : total;
	if (sink && got && sink(ctx, s->buf + HDR, (size_t)got) < 0)
		sink = NULL; /* the rest is taken and dropped: the stream stays in step */
	/*
	 * A request ends full or at the host's short (or zero-length) packet,
	 * which ends the container. One that ends the container full leaves its
	 * zero-length packet to the next command's read, which skips it.
	 */
	while (got < total && (size_t)n == asked) {
		n = read_out(s, total - got, &asked);
		if (n < 0)
			return -1;
		if (sink && n && sink(ctx, s->buf, (size_t)n) < 0)
			sink = NULL;
		got += (uint64_t)n;
	}
	*ret_len = got;
	return 0;
}

/* --- FunctionFS: descriptors, strings, ep0 --- */

struct speed_descs {
	struct usb_interface_descriptor intf;
	struct usb_endpoint_descriptor_no_audio in, out, irq;
} __attribute__((packed));

static struct speed_descs speed(uint16_t bulk, uint8_t irq_interval)
{
	return (struct speed_descs){
	    .intf = {.bLength = USB_DT_INTERFACE_SIZE,
		     .bDescriptorType = USB_DT_INTERFACE,
		     .bNumEndpoints = 3,
		     .bInterfaceClass = USB_CLASS_STILL_IMAGE,
		     .bInterfaceSubClass = 1,
		     .bInterfaceProtocol = 1,
		     .iInterface = 1},
	    .in = {USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, 1 | USB_DIR_IN, USB_ENDPOINT_XFER_BULK,
		   htole16(bulk), 0},
	    .out = {USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, 2 | USB_DIR_OUT, USB_ENDPOINT_XFER_BULK,
		    htole16(bulk), 0},
	    .irq = {USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, 3 | USB_DIR_IN, USB_ENDPOINT_XFER_INT,
		    htole16(64), irq_interval},
	};
}

static int write_descs(int ep0)
{
	struct {
		struct usb_functionfs_descs_head_v2 head;
		uint32_t fs_count, hs_count;
		struct speed_descs fs, hs;
	} __attribute__((packed)) d = {
	    .head = {htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2), htole32(sizeof(d)),
		     htole32(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC)},
	    .fs_count = htole32(4),
	    .hs_count = htole32(4),
	    .fs = speed(64, 10),
	    .hs = speed(512, 6),
	};
	/* libmtp takes an interface whose name holds "MTP" without probing further */
	const struct {
		struct usb_functionfs_strings_head head;
		uint16_t lang;
		char str[sizeof("mtp-sim MTP")];
	} __attribute__((packed)) strings = {
	    .head = {htole32(FUNCTIONFS_STRINGS_MAGIC), htole32(sizeof(strings)), htole32(1),
		     htole32(1)},
	    .lang = htole16(0x0409),
	    .str = "mtp-sim MTP",
	};

	if (write(ep0, &d, sizeof(d)) != (ssize_t)sizeof(d) ||
	    write(ep0, &strings, sizeof(strings)) != (ssize_t)sizeof(strings)) {
		fprintf(stderr, "mtp-sim: descriptors: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static void class_request(int ep0, const struct usb_ctrlrequest *c)
{
	unsigned len = le16toh(c->wLength);
	bool in = c->bRequestType & USB_DIR_IN;
	unsigned char buf[64];

	if ((c->bRequestType & USB_TYPE_MASK) == USB_TYPE_CLASS && len <= sizeof(buf)) {
		if (c->bRequest == REQ_GET_DEVICE_STATUS && in && len >= 4) {
			put16(buf, 4);
			put16(buf + 2, RC_OK);
			(void)!write(ep0, buf, 4);
			return;
		}
		if ((c->bRequest == REQ_CANCEL || c->bRequest == REQ_DEVICE_RESET) && !in) {
			/* reading the data stage (or none) acknowledges it */
			(void)!read(ep0, len ? buf : NULL, len);
			if (c->bRequest == REQ_DEVICE_RESET)
				reset_requested = 1;
			return;
		}
	}
	/* anything else stalls: FunctionFS does that on a transfer against the direction */
	if (in)
		(void)!read(ep0, NULL, 0);
	else
		(void)!write(ep0, NULL, 0);
}

static void *ep0_thread(void *arg)
{
	struct sim *s = arg;
	struct usb_functionfs_event ev;

	while (!quit) {
		ssize_t n = read(s->ep0, &ev, sizeof(ev));

		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "mtp-sim: ep0: %s\n", strerror(errno));
			break;
		}
		if (n != sizeof(ev))
			continue;
		if (ev.type == FUNCTIONFS_SETUP)
			class_request(s->ep0, &ev.u.setup);
		else if (ev.type == FUNCTIONFS_ENABLE)
			fprintf(stderr, "mtp-sim: enabled\n");
		else if (ev.type == FUNCTIONFS_DISABLE)
			fprintf(stderr, "mtp-sim: disabled\n");
	}
	return NULL;
}

/* --- options and the command loop --- */

static int parse_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-' || v < min || v > max) {
		fprintf(stderr, "mtp-sim: bad %s '%s'\n", opt, arg);
		return -1;
	}
	*ret = v;
	return 0;
}

static int add_storage(struct sim *s, char *arg)
{
	struct sim_storage *st = &s->st[s->nst];
	char *desc = strchr(arg, ':'), *mode = NULL;

	if (s->nst == SIM_MAX_STORAGES) {
		fprintf(stderr, "mtp-sim: at most %d storages\n", SIM_MAX_STORAGES);
		return -1;
	}
	if (desc) {
		*desc++ = 0;
		mode = strchr(desc, ':');
		if (mode)
			*mode++ = 0;
	}
	if (mode && strcmp(mode, "ro") && strcmp(mode, "rw")) {
		fprintf(stderr, "mtp-sim: storage mode '%s': ro or rw\n", mode);
		return -1;
	}
	st->id = 0x00010001u + s->nst;
	st->dir = arg;
	st->desc = desc && *desc ? desc : arg;
	st->ro = mode && !strcmp(mode, "ro");
	s->nst++;
	return 0;
}

static int option(struct sim *s, const char *opt, char *arg)
{
	uint64_t v;

	if (!strcmp(opt, "--storage"))
		return add_storage(s, arg);
	if (!strcmp(opt, "--capacity"))
		return parse_u64(opt, arg, 0, UINT64_MAX - 1, &s->capacity);
	if (!strcmp(opt, "--free"))
		return parse_u64(opt, arg, 0, UINT64_MAX - 1, &s->free_bytes);
	if (!strcmp(opt, "--fail-send-from")) {
		if (parse_u64(opt, arg, 1, 1000000, &v) < 0)
			return -1;
		s->fail_send_from = (unsigned long)v;
		return 0;
	}
	if (!strcmp(opt, "--packet") || !strcmp(opt, "--buffer")) {
		if (parse_u64(opt, arg, 64, 1 << 20, &v) < 0)
			return -1;
		*(!strcmp(opt, "--packet") ? &s->packet : &s->bufsize) = (size_t)v;
		return 0;
	}
	if (!strcmp(opt, "--quirk")) {
		static const struct {
			const char *name;
			unsigned bit;
		} q[] = {{"stale-new-folder", QUIRK_STALE_NEW_FOLDER},
			 {"new-handle", QUIRK_NEW_HANDLE},
			 {"no-root-files", QUIRK_NO_ROOT_FILES},
			 {"no-new-folders", QUIRK_NO_NEW_FOLDERS}};

		for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
			if (!strcmp(arg, q[i].name)) {
				s->quirks |= q[i].bit;
				return 0;
			}
		fprintf(stderr, "mtp-sim: unknown quirk '%s'\n", arg);
		return -1;
	}
	if (!strcmp(opt, "--manufacturer"))
		s->manufacturer = arg;
	else if (!strcmp(opt, "--model"))
		s->model = arg;
	else if (!strcmp(opt, "--serial"))
		s->serial = arg;
	else {
		fprintf(stderr, "mtp-sim: unknown option '%s'\n", opt);
		return -1;
	}
	return 0;
}

static int setup(struct sim *s, const char *dir)
{
	char path[4096];
	int *fds[] = {&s->in, &s->out, NULL};

	snprintf(path, sizeof(path), "%s/ep0", dir);
	s->ep0 = open(path, O_RDWR | O_CLOEXEC);
	if (s->ep0 < 0 || write_descs(s->ep0) < 0) {
		fprintf(stderr, "mtp-sim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* the endpoint files appear once the descriptors are written: ep1 in, ep2 out */
	for (int i = 0; fds[i]; i++) {
		snprintf(path, sizeof(path), "%s/ep%d", dir, i + 1);
		*fds[i] = open(path, O_RDWR | O_CLOEXEC);
		if (*fds[i] < 0) {
			fprintf(stderr, "mtp-sim: %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	s->buf = malloc(s->bufsize);
	return s->buf ? 0 : -1;
}

static void serve(struct sim *s)
{
	while (!quit) {
		struct sim_cmd c = {0};
		size_t asked;
		ssize_t n = read_out(s, s->bufsize, &asked);

		if (reset_requested) {
			reset_requested = 0;
			sim_session_end(s);
		}
		if (n < 0) {
			/* disabled or unbound: wait for the host to come back */
			if (!quit)
				usleep(100000);
			continue;
		}
		/* zero bytes: the packet that ended the last data container */
		if (n < (ssize_t)HDR || get16(s->buf + 4) != TYPE_COMMAND)
			continue;
		c.code = get16(s->buf + 6);
		c.tid = get32(s->buf + 8);
		c.np = (unsigned)((n - HDR) / 4 < 5 ? (n - HDR) / 4 : 5);
		for (unsigned i = 0; i < c.np; i++)
			c.p[i] = get32(s->buf + HDR + 4 * i);
		s->ops++;
		sim_dispatch(s, &c);
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct sim s = {
	    .capacity = UINT64_MAX,
	    .free_bytes = UINT64_MAX,
	    .packet = 512,
	    .bufsize = 65536,
	    .manufacturer = "usbperf-lab",
	    .model = "mtp-sim",
	    .serial = "MTPSIM",
	    .ep0 = -1,
	};
	pthread_t t;
	size_t live = 0;

	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mtp-sim FFS-DIR --storage DIR[:DESC[:ro]] [options]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (i + 1 == argc) {
			fprintf(stderr, "mtp-sim: %s needs a value\n", argv[i]);
			return 2;
		}
		if (option(&s, argv[i], argv[i + 1]) < 0)
			return 2;
		i++;
	}
	if (!s.nst || s.bufsize % s.packet) {
		fprintf(stderr, "mtp-sim: %s\n",
			s.nst ? "--buffer must be a multiple of --packet" : "no --storage");
		return 2;
	}
	if (sim_scan(&s) < 0 || setup(&s, argv[1]) < 0)
		return 1;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (pthread_create(&t, NULL, ep0_thread, &s)) {
		fprintf(stderr, "mtp-sim: cannot start the ep0 thread\n");
		return 1;
	}
	fprintf(stderr, "mtp-sim: ready, %u storage(s), quirks 0x%x, fail from send %lu\n", s.nst,
		s.quirks, s.fail_send_from);
	serve(&s);
	for (size_t i = 0; i < s.nobj; i++)
		live += s.obj[i].live;
	printf("mtp-sim: operations %lu refused %lu sends %lu bytes in %lu out %lu objects %zu\n",
	       s.ops, s.refused, s.sends, s.bytes_in, s.bytes_out, live);
	fflush(stdout);
	/* the ep0 thread sits in a read the kernel ends only when the function goes */
	_exit(0);
}

// SPDX-License-Identifier: MIT
/* usbmon's binary interface, live: the module, the node, the mmapped ring. */
#include "platform/usbmon/capture.h"
#include "util/signals.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the ioctls of drivers/usb/mon/mon_bin.c */
struct mon_bin_stats {
	uint32_t queued, dropped;
};
struct mon_bin_mfetch {
	uint32_t *offvec;
	uint32_t nfetch, nflush;
};
#define MON_IOC_MAGIC 0x92
#define MON_IOCG_STATS _IOR(MON_IOC_MAGIC, 3, struct mon_bin_stats)
#define MON_IOCT_RING_SIZE _IO(MON_IOC_MAGIC, 4)
#define MON_IOCQ_RING_SIZE _IO(MON_IOC_MAGIC, 5)
#define MON_IOCX_MFETCH _IOWR(MON_IOC_MAGIC, 7, struct mon_bin_mfetch)
#define MON_IOCH_MFLUSH _IO(MON_IOC_MAGIC, 8)

/* the kernel's largest ring (BUFF_MAX, 1200 KiB): a URB's data is cut at a fifth of it */
#define RING_WANT (1200 * 1024)
#define FETCH_MAX 4096
#define CAPTURE_NICE (-10)
#define PCAP_FLUSH (1u << 20)
#define EARLY_FLUSH 4096 /* an event this large goes back to the ring at once */
#define POLL_STOP_MS 20	 /* how often a capture with a stop flag looks at it */

extern char **environ;

static bool interface_there(void)
{
	return sysroot_exists("/sys/class/usbmon") || sysroot_exists("/dev/usbmon0");
}

static int run_modprobe(int *ret_status)
{
	char *argv[] = {"modprobe", "-q", "usbmon", NULL};
	posix_spawn_file_actions_t fa;
	int r, status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	/* its own words would be a second line: the caller says what failed */
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	r = posix_spawnp(&pid, "modprobe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	*ret_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

/* does the running kernel ship usbmon: modules.dep or modules.builtin name it, or the file is there
 */
static bool module_known(const char *release)
{
	static const char *const lists[] = {"modules.dep", "modules.builtin"};
	static const char *const files[] = {"usbmon.ko", "usbmon.ko.xz", "usbmon.ko.zst",
					    "usbmon.ko.gz"};
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool found = false;

	for (size_t i = 0; i < 2 && !found; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "/lib/modules/%s/%s", release, lists[i]);
		strbuf_reset(&text);
		if (sysroot_read(path.buf, 64u << 20, &text) == 0)
			found = strstr(text.buf, "/usbmon.ko") != NULL;
	}
	for (size_t i = 0; i < 4 && !found; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "/lib/modules/%s/kernel/drivers/usb/mon/%s", release, files[i]);
		found = sysroot_exists(path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

int usbmon_ensure(enum usbmon_state *ret_state, struct strbuf *why)
{
	struct utsname u;
	int r, status = 0;

	if (interface_there()) {
		*ret_state = USBMON_PRESENT;
		return 0;
	}
	if (uname(&u) < 0)
		memcpy(u.release, "?", 2);
	r = run_modprobe(&status);
	if (r == 0 && status == 0 && interface_there()) {
		*ret_state = USBMON_LOADED;
		return 0;
	}
	if (!module_known(u.release)) {
		strbuf_addf(why, "not built: kernel '%s' has no usbmon module and none built in",
			    u.release);
		return -ENOENT;
	}
	if (r < 0)
		strbuf_addf(why, "not loadable: cannot run modprobe: %s", strerror(-r));
	else
		strbuf_addf(why, "not loadable: 'modprobe usbmon' exited %d", status);
	return -EIO;
}

void usbmon_node(unsigned bus, struct strbuf *out)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "/dev/usbmon%u", bus);
	sysroot_path(out, p.buf);
	strbuf_release(&p);
}

/* usbmon stamps events with the real-time clock: the window is on the same one */
static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int pcap_flush(struct usbmon_capture *c, struct strbuf *pc)
{
	int r;

	if (c->pcap_fd < 0 || !pc->len)
		return 0;
	r = write_all(c->pcap_fd, pc->buf, pc->len);
	c->pcap_bytes += pc->len;
	strbuf_reset(pc);
	return r;
}

/* hand the slots of n handled events back to the kernel */
static int give_back(int fd, uint32_t *n)
{
	int r = 0;

	if (*n && ioctl(fd, MON_IOCH_MFLUSH, (unsigned long)*n) < 0)
		r = -errno;
	*n = 0;
	return r;
}

/*
 * Take what the ring holds: count it, copy it, hand the slots back; the events
 * taken. The ring is small for large URBs (the kernel copies up to a fifth of it
 * per event, and drops events when it is full), so the slots go back as soon as
 * a large event is copied, and the pcap is written only after. (Once per batch
 * instead, without a pcap, saved a system call per URB but lost 172 events in six
 * UAS passes at memory speed in the lab, where this lost none.)
 */
static int drain(struct usbmon_capture *c, int fd, const uint8_t *ring, uint32_t size,
		 uint32_t *vec, struct usbmon_stats *s, struct strbuf *pc)
{
	struct mon_bin_mfetch mf = {.offvec = vec, .nfetch = FETCH_MAX};
	uint32_t held = 0;
	int r = 0, rf;

	if (ioctl(fd, MON_IOCX_MFETCH, &mf) < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	for (uint32_t i = 0; i < mf.nfetch && r == 0; i++) {
		struct usbmon_event e;
		size_t used;

		/* with the ring mapped the kernel keeps each event contiguous */
		if (vec[i] >= size ||
		    usbmon_event_parse(ring + vec[i], size - vec[i], &e, &used) < 0) {
			r = -EPROTO;
			break;
		}
		held++;
		if (e.type != '@' && (!c->want || c->want(&e, c->want_ctx))) {
			r = usbmon_stats_add(s, &e);
			if (r == 0 && c->pcap_fd >= 0)
				usbmon_pcapng_packet(pc, ring + vec[i], used, c->snaplen);
		}
		if (used >= EARLY_FLUSH || held >= 64) {
			rf = give_back(fd, &held);
			if (r == 0)
				r = rf;
		}
	}
	rf = give_back(fd, &held);
	if (r == 0)
		r = rf;
	if (r == 0 && pc->len >= PCAP_FLUSH)
		r = pcap_flush(c, pc);
	return r < 0 ? r : (int)mf.nfetch;
}

static void add_dropped(int fd, struct usbmon_stats *s)
{
	struct mon_bin_stats st;

	/* the kernel zeroes its count on every read: it adds up here */
	if (ioctl(fd, MON_IOCG_STATS, &st) == 0)
		s->dropped += st.dropped;
}

int usbmon_capture_run(struct usbmon_capture *c, struct usbmon_stats *s)
{
	struct strbuf node = STRBUF_INIT, pc = STRBUF_INIT;
	uint32_t *vec = NULL, size;
	uint64_t deadline = 0, next_tick;
	uint8_t *ring = MAP_FAILED;
	int fd, r = 0, rs, nice_was = 0;
	bool reniced = false, busy = false;

	usbmon_node(c->bus, &node);
	fd = open(node.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = errno == ENOENT ? -ENODEV : -errno;
		goto out;
	}
	/* a larger ring drops less and cuts data later; the default one will do */
	(void)ioctl(fd, MON_IOCT_RING_SIZE,
		    (unsigned long)(c->ring_want ? c->ring_want : RING_WANT));
	rs = ioctl(fd, MON_IOCQ_RING_SIZE);
	if (rs <= 0) {
		r = rs < 0 ? -errno : -EPROTO;
		goto out_close;
	}
	size = (uint32_t)rs;
	c->ring_bytes = size;
	ring = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		r = -errno;
		goto out_close;
	}
	vec = calloc(FETCH_MAX, sizeof(*vec));
	if (!vec) {
		r = -ENOMEM;
		goto out_unmap;
	}
	if (c->pcap_fd >= 0) {
		usbmon_pcapng_head(&pc);
		r = pcap_flush(c, &pc);
		if (r < 0)
			goto out_unmap;
	}
	/*
	 * usbmon's ring holds four or five large events (each URB's data is copied up
	 * to a fifth of it) and the kernel drops what does not fit: the reader has to
	 * run as soon as it is woken, ahead of the workload it watches. It sleeps in
	 * poll() otherwise. Nice -10 for the capture (root's to take), as it was after.
	 */
	errno = 0;
	nice_was = getpriority(PRIO_PROCESS, 0);
	if (errno == 0 && nice_was > CAPTURE_NICE)
		reniced = setpriority(PRIO_PROCESS, 0, CAPTURE_NICE) == 0;
	add_dropped(fd, s); /* zero the count: only this capture's losses */
	s->dropped = 0;
	s->start_us = now_us();
	atomic_store(&c->started, true);
	next_tick = mono_ms() + 1000;
	if (c->time_s > 0)
		deadline = mono_ms() + (uint64_t)(c->time_s * 1000.0 + 0.5);
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		uint64_t now = mono_ms(), wake = next_tick;
		int n;

		if (signal_stop) {
			c->interrupted = true;
			break;
		}
		if (c->stop && atomic_load(c->stop))
			break;
		if (deadline && now >= deadline)
			break;
		if (deadline && deadline < wake)
			wake = deadline;
		if (c->stop && now + POLL_STOP_MS < wake)
			wake = now + POLL_STOP_MS;
		/* after a batch and its sleep the ring is read at once: poll() only when idle */
		n = busy ? 1 : poll(&p, 1, wake > now ? (int)(wake - now) : 0);
		if (n < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		if (n > 0) {
			r = drain(c, fd, ring, size, vec, s, &pc);
			if (r < 0)
				break;
			/* a batch per wake-up, not one per event: each costs the I/O a switch */
			busy = r > 0 && c->batch_us;
			if (busy) {
				struct timespec ts = {0, (long)c->batch_us * 1000L};

				nanosleep(&ts, NULL);
			}
			r = 0;
		}
		if (mono_ms() >= next_tick) {
			next_tick += 1000;
			add_dropped(fd, s);
			if (c->tick)
				c->tick(s, c->tick_ctx);
		}
	}
	s->end_us = now_us();
	/* what happened before the end is still in the ring */
	for (int k = 0; r == 0 && k < 64; k++) {
		int n = drain(c, fd, ring, size, vec, s, &pc);

		if (n <= 0) {
			r = n;
			break;
		}
	}
	add_dropped(fd, s);
	rs = pcap_flush(c, &pc);
	if (r == 0)
		r = rs;
	if (reniced)
		setpriority(PRIO_PROCESS, 0, nice_was);
	usbmon_stats_finish(s, s->end_us > s->last_us ? s->end_us : s->last_us);
out_unmap:
	free(vec);
	munmap(ring, size);
out_close:
	close(fd);
out:
	strbuf_release(&node);
	strbuf_release(&pc);
	return r;
}

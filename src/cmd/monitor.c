// SPDX-License-Identifier: MIT
/* usbperf monitor [DEVICE...]: the bus itself, from usbmon's binary interface. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "platform/usb/attach.h"
#include "platform/usb/topology.h"
#include "platform/usbmon/capture.h"
#include "platform/usbmon/fields.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 16
#define MAX_READ (256u << 20)

void usage_monitor(void)
{
	printf("usage: usbperf monitor [DEVICE...] [options]\n"
	       "\n"
	       "What crosses the bus, from the kernel's usbmon (its binary interface, the\n"
	       "memory-mapped ring): per device and endpoint, bytes/s each way (the URBs'\n"
	       "actual length on completion), URBs/s, the URB size histogram and the exact\n"
	       "dominant size, URBs in flight (max, time-weighted mean), latency from submit\n"
	       "to completion (p50/p99/max), the share of time with a URB in flight (busy),\n"
	       "errors by status and isochronous packet errors. Events the kernel dropped\n"
	       "(a full ring) are counted and make every figure a lower bound; the capture\n"
	       "runs at nice -10 to keep up with usbmon's ring.\n"
	       "DEVICE is a sysfs name (1-1), VID:PID or a device node (/dev/sdb); without\n"
	       "one, every device on --bus (or on every bus). Needs root; the usbmon module\n"
	       "is loaded when it is one (said on stderr). On a terminal a live view\n"
	       "refreshes once a second; the summary comes at the end.\n"
	       "\n");
	opt_usage(stdout, monitor_options);
	printf("\n"
	       "Rates: MB/s = 10^6 B/s over the capture window. Exit: 0 ok, 2 bad input or\n"
	       "refused (no usbmon: not built or not loadable, not root, no such bus or\n"
	       "device, a --pcap that exists or cannot be created), 3 runtime error (partial\n"
	       "figures), 128+N after signal N during a --time capture (the figures so far).\n");
}


struct monitor_opts {
	double time_s;
	uint64_t bus; /* 0: not given */
	const char *pcap, *read;
	uint64_t snaplen;
};

#include "cmd/monitor.opts.h"


/* the devices asked for, as (bus, devnum) */
struct selection {
	unsigned n;
	unsigned bus[MAX_DEVICES], dev[MAX_DEVICES];
	unsigned only_bus; /* 0: any */
};

static bool want_event(const struct usbmon_event *e, void *ctx)
{
	const struct selection *sel = ctx;

	if (sel->only_bus && e->busnum != sel->only_bus)
		return false;
	if (!sel->n)
		return true;
	for (unsigned i = 0; i < sel->n; i++)
		if (sel->bus[i] == e->busnum && sel->dev[i] == e->devnum)
			return true;
	return false;
}

static const struct usb_device *find_device(const struct usb_topology *t, const char *arg)
{
	struct usb_attach a = {0};
	const struct usb_device *found = NULL;

	for (size_t i = 0; i < t->ndev && !found; i++)
		if (!strcmp(t->dev[i].path, arg) ||
		    (t->dev[i].vid_pid && !strcasecmp(t->dev[i].vid_pid, arg)))
			found = &t->dev[i];
	if (found || arg[0] != '/')
		return found;
	if (usb_attach_for_node(arg, &a) == 0 && a.device)
		for (size_t i = 0; i < t->ndev && !found; i++)
			if (!strcmp(t->dev[i].path, a.device))
				found = &t->dev[i];
	usb_attach_release(&a);
	return found;
}

static int select_devices(const struct usb_topology *t, char **args, int nargs,
			  const struct monitor_opts *o, struct selection *sel)
{
	if (nargs > MAX_DEVICES) {
		log_error("monitor: at most %d devices", MAX_DEVICES);
		return -EINVAL;
	}
	if (o->bus) {
		bool there = false;

		for (size_t i = 0; i < t->ndev; i++)
			there |= t->dev[i].busnum == o->bus;
		if (!there) {
			log_error("no USB bus '%llu' (see 'usbperf list')",
				  (unsigned long long)o->bus);
			return -ENODEV;
		}
		sel->only_bus = (unsigned)o->bus;
	}
	for (int i = 0; i < nargs; i++) {
		const struct usb_device *d = find_device(t, args[i]);

		if (!d) {
			log_error("no USB device '%s' (a sysfs name like 1-1, VID:PID or a device "
				  "node; see 'usbperf list')",
				  args[i]);
			return -ENODEV;
		}
		if (o->bus && d->busnum != o->bus) {
			log_error("device '%s' is on bus %llu, not on --bus %llu", args[i],
				  (unsigned long long)d->busnum, (unsigned long long)o->bus);
			return -EINVAL;
		}
		sel->bus[sel->n] = (unsigned)d->busnum;
		sel->dev[sel->n++] = (unsigned)d->devnum;
	}
	return 0;
}

/* the one bus every chosen device is on, else 0 (usbmon0 sees them all) */
static unsigned capture_bus(const struct selection *sel)
{
	unsigned b;

	if (sel->only_bus)
		return sel->only_bus;
	if (!sel->n)
		return 0;
	b = sel->bus[0];
	for (unsigned i = 1; i < sel->n; i++)
		if (sel->bus[i] != b)
			return 0;
	return b;
}

/* a new file, never through a symlink, never over anything: before any capture */
static int open_pcap(const char *path, int *ret_fd)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0) {
		int e = errno;

		if (e == EEXIST)
			log_error("refusing --pcap '%s': it exists (a new file only)", path);
		else
			log_error("cannot create --pcap '%s': %s", path, strerror(e));
		return -e;
	}
	*ret_fd = fd;
	return 0;
}

/* ---- the live view ---- */

/*
 * One frame a second: each device's rates over the second just gone, on the clock
 * usbmon stamps its events with (the real-time one), not over the span of the
 * events seen, which a quiet second would shrink. Rows follow usbmon_stats' device
 * order, which only ever grows at the end, so row i is the same device each frame.
 */
struct live {
	const struct usb_topology *t;
	uint64_t prev_in[USBMON_MAX_DEVICES], prev_out[USBMON_MAX_DEVICES],
	    prev_urbs[USBMON_MAX_DEVICES];
	double prev_area[USBMON_MAX_DEVICES];
	uint64_t prev_us;
};

static uint64_t realtime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* the device's URB-microseconds in flight up to now, not only to its last event */
static double area_until(const struct usbmon_dev_stats *d, uint64_t now)
{
	return d->inflight_area +
	       (now > d->last_us ? (double)d->inflight * (double)(now - d->last_us) : 0.0);
}

static void live_tick(const struct usbmon_stats *s, void *ctx)
{
	struct live *lv = ctx;
	struct usbmon_rows rows;
	struct strbuf out = STRBUF_INIT;
	uint64_t now = realtime_us();
	double dt;

	if (usbmon_rows_build(s, lv->t, &rows) < 0)
		return;
	if (!lv->prev_us || lv->prev_us < s->start_us)
		lv->prev_us = s->start_us;
	dt = now > lv->prev_us ? (double)(now - lv->prev_us) / 1e6 : 0;
	strbuf_adds(&out, "\033[H\033[2J");
	strbuf_addf(&out, "usbperf monitor: %.0f s, %llu events, %llu dropped%s (Ctrl-C ends)\n\n",
		    now > s->start_us ? (double)(now - s->start_us) / 1e6 : 0.0,
		    (unsigned long long)s->events, (unsigned long long)s->dropped,
		    s->dropped ? " (lower bound)" : "");
	strbuf_addf(&out, "%-10s %-12s %-6s %10s %10s %9s %10s %9s %10s %10s\n", "device", "driver",
		    "speed", "IN MB/s", "OUT MB/s", "URBs/s", "URB size", "in flight", "p50 us",
		    "p99 us");
	for (size_t i = 0; i < rows.ndev && i < USBMON_MAX_DEVICES && i < s->ndevs; i++) {
		const struct usbmon_device_row *d = &rows.dev[i];
		double area = area_until(&s->devs[i], now);
		char size[16] = "-";

		if (d->urb_size != U64_UNKNOWN)
			format_size(d->urb_size, size, sizeof(size));
		/* in flight: the mean over the second, as usbmon's URB-time says */
		strbuf_addf(&out, "%-10s %-12s %-6s %10.2f %10.2f %9.0f %10s %9.2f %10.0f %10.0f\n",
			    d->device, d->driver ? d->driver : "-", d->speed ? d->speed : "-",
			    dt > 0 ? (double)(d->in_bytes - lv->prev_in[i]) / dt / 1e6 : 0.0,
			    dt > 0 ? (double)(d->out_bytes - lv->prev_out[i]) / dt / 1e6 : 0.0,
			    dt > 0 ? (double)(d->urbs - lv->prev_urbs[i]) / dt : 0.0, size,
			    dt > 0 ? (area - lv->prev_area[i]) / (dt * 1e6) : 0.0, d->lat_p50_us,
			    d->lat_p99_us);
		lv->prev_in[i] = d->in_bytes;
		lv->prev_out[i] = d->out_bytes;
		lv->prev_urbs[i] = d->urbs;
		lv->prev_area[i] = area;
	}
	lv->prev_us = now;
	fwrite(out.buf, 1, out.len, stdout);
	fflush(stdout);
	strbuf_release(&out);
	usbmon_rows_release(&rows);
}

/* ---- reading a capture back ---- */

struct reader {
	struct usbmon_stats *s;
	struct selection *sel;
};

static int read_one(const struct usbmon_event *e, const uint8_t *raw, size_t raw_len, void *ctx)
{
	struct reader *rd = ctx;

	(void)raw;
	(void)raw_len;
	if (e->type == '@' || !want_event(e, rd->sel))
		return 0;
	return usbmon_stats_add(rd->s, e);
}

static int parse_capture(const char *buf, size_t len, void *ctx, struct strbuf *err)
{
	int r = usbmon_pcapng_read((const uint8_t *)buf, len, read_one, ctx, err);

	if (r == -ENOMEM)
		return r;
	return r < 0 ? -EINVAL : 0;
}

static int emit(const struct global_opts *g, struct usbmon_rows *rows, char **warn, size_t nwarn)
{
	struct report rep = {.command = "monitor", .warnings = warn, .nwarnings = nwarn};

	/* CSV writes the first table: the devices */
	if (g->format != FORMAT_CSV)
		report_add_object(&rep, "capture", "capture", &usbmon_summary_desc, &rows->sum);
	report_add_table(&rep, "devices", "devices", &usbmon_device_desc, rows->dev, rows->ndev,
			 sizeof(*rows->dev));
	report_add_table(&rep, "endpoints", "endpoints", &usbmon_ep_desc, rows->ep, rows->nep,
			 sizeof(*rows->ep));
	return emit_report(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
}

static void warnings_for(const struct usbmon_stats *s, char ***v, size_t *n)
{
	struct strbuf sb = STRBUF_INIT;

	if (s->dropped) {
		strbuf_addf(&sb,
			    "the kernel dropped %llu events (ring full): every figure is a "
			    "lower bound",
			    (unsigned long long)s->dropped);
		*v = realloc(*v, (*n + 1) * sizeof(**v));
		if (*v)
			(*v)[(*n)++] = strbuf_detach(&sb);
	}
	if (s->pending_overflow) {
		strbuf_reset(&sb);
		strbuf_addf(&sb,
			    "%llu submits were not tracked (more than %d URBs in flight): "
			    "their latency is missing",
			    (unsigned long long)s->pending_overflow, USBMON_INFLIGHT_CAP);
		*v = realloc(*v, (*n + 1) * sizeof(**v));
		if (*v)
			(*v)[(*n)++] = strbuf_detach(&sb);
	}
	strbuf_release(&sb);
}

static int monitor_read(struct global_opts *g, const struct monitor_opts *o, struct selection *sel)
{
	struct usbmon_stats s;
	struct usbmon_rows rows;
	struct reader rd = {.s = &s, .sel = sel};
	char **warn = NULL;
	size_t nwarn = 0;
	int r;

	if (usbmon_stats_init(&s) < 0)
		return EXIT_RUNTIME;
	r = load_input("capture", o->read, MAX_READ, parse_capture, &rd);
	if (r < 0) {
		usbmon_stats_release(&s);
		return r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	usbmon_stats_finish(&s, 0);
	r = usbmon_rows_build(&s, NULL, &rows);
	if (r < 0) {
		usbmon_stats_release(&s);
		return EXIT_RUNTIME;
	}
	rows.sum.source = strdup(o->read);
	rows.sum.bus = sel->only_bus;
	warnings_for(&s, &warn, &nwarn);
	r = emit(g, &rows, warn, nwarn);
	for (size_t i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	usbmon_rows_release(&rows);
	usbmon_stats_release(&s);
	return r;
}

static int monitor_live(struct global_opts *g, const struct monitor_opts *o, char **args, int nargs)
{
	struct usb_topology t = {0};
	struct selection sel = {0};
	struct usbmon_capture c = {.pcap_fd = -1,
				   .time_s = o->time_s,
				   .want = want_event,
				   .want_ctx = &sel,
				   .snaplen = (uint32_t)o->snaplen};
	struct live lv = {.t = &t};
	struct usbmon_stats s;
	struct usbmon_rows rows;
	struct strbuf why = STRBUF_INIT, node = STRBUF_INIT;
	enum usbmon_state state;
	char **warn = NULL;
	size_t nwarn = 0;
	int r, ret = EXIT_USAGE;

	if (geteuid() != 0) {
		log_error("monitor needs root: usbmon's /dev/usbmonN are root's alone");
		return EXIT_USAGE;
	}
	if (o->pcap && open_pcap(o->pcap, &c.pcap_fd) < 0)
		return EXIT_USAGE;
	r = usb_topology_probe(&t);
	if (r < 0) {
		log_error("cannot read the USB tree: %s", strerror(-r));
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (select_devices(&t, args, nargs, o, &sel) < 0)
		goto out;
	r = usbmon_ensure(&state, &why);
	if (r < 0) {
		log_error("usbmon is not available: %s", why.buf);
		goto out;
	}
	if (state == USBMON_LOADED && !g->quiet)
		fprintf(stderr, "usbperf: loaded the usbmon module (modprobe usbmon)\n");
	c.bus = capture_bus(&sel);
	usbmon_node(c.bus, &node);
	/* a live view only for a person at a terminal, never into a file or a pipe */
	if (isatty(STDOUT_FILENO) && !g->output && !g->quiet && g->format == FORMAT_TEXT)
		c.tick = live_tick;
	c.tick_ctx = &lv;
	if (usbmon_stats_init(&s) < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	r = usbmon_capture_run(&c, &s);
	ret = EXIT_OK;
	if (r == -EACCES || r == -EPERM) {
		log_error("cannot open '%s': %s (monitor needs root)", node.buf, strerror(-r));
		ret = EXIT_USAGE;
		usbmon_stats_release(&s);
		goto out;
	}
	if (r == -ENODEV) {
		log_error("no usbmon node '%s' for bus %u", node.buf, c.bus);
		ret = EXIT_USAGE;
		usbmon_stats_release(&s);
		goto out;
	}
	if (r < 0) {
		log_error("capture on '%s' failed: %s", node.buf, strerror(-r));
		ret = EXIT_RUNTIME;
	}
	if (c.interrupted && !o->time_s)
		signal_stop = 0; /* the signal was this capture's end, not an interruption */
	if (c.tick) {
		fputs("\033[H\033[2J", stdout);
		fflush(stdout);
	}
	if (usbmon_rows_build(&s, &t, &rows) < 0) {
		usbmon_stats_release(&s);
		ret = EXIT_RUNTIME;
		goto out;
	}
	rows.sum.source = strdup(node.buf);
	rows.sum.bus = c.bus;
	rows.sum.ring_bytes = c.ring_bytes;
	if (o->pcap) {
		rows.sum.pcap = strdup(o->pcap);
		rows.sum.pcap_bytes = c.pcap_bytes;
	}
	warnings_for(&s, &warn, &nwarn);
	r = emit(g, &rows, warn, nwarn);
	if (ret == EXIT_OK)
		ret = r;
	for (size_t i = 0; i < nwarn; i++)
		free(warn[i]);
	free(warn);
	usbmon_rows_release(&rows);
	usbmon_stats_release(&s);
out:
	if (c.pcap_fd >= 0) {
		if (close(c.pcap_fd) < 0 && ret == EXIT_OK) {
			log_error("cannot write --pcap '%s': %s", o->pcap, strerror(errno));
			ret = EXIT_RUNTIME;
		}
		/* refused before any capture: nothing is left behind */
		if (ret == EXIT_USAGE)
			unlink(o->pcap);
	}
	usb_topology_release(&t);
	strbuf_release(&why);
	strbuf_release(&node);
	return ret;
}

void schema_monitor(struct report *r)
{
	report_add_object(r, "capture", NULL, &usbmon_summary_desc, NULL);
	report_add_table(r, "devices", NULL, &usbmon_device_desc, NULL, 0, 0);
	report_add_table(r, "endpoints", NULL, &usbmon_ep_desc, NULL, 0, 0);
}

int cmd_monitor(int argc, char **argv, struct global_opts *g)
{
	struct monitor_opts o = {0};
	struct selection sel = {0};
	int r;

	r = parse_bound(argc, argv, g, "monitor", monitor_options, usage_monitor, monitor_binds,
			NULL, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	if (check_output_target(g, o.read, "the capture read") < 0)
		return EXIT_USAGE;
	if (o.snaplen && !o.pcap) {
		log_error("monitor: --snaplen is for --pcap");
		return EXIT_USAGE;
	}
	if (o.pcap && g->output) {
		const char *const opts[] = {"--output", "--pcap"};
		const char *const paths[] = {g->output, o.pcap};

		if (refuse_outputs_clash(opts, paths, 2) < 0)
			return EXIT_USAGE;
	}
	if (o.read) {
		if (optind < argc || o.pcap || o.time_s) {
			log_error(
			    "monitor --read: no DEVICE, --pcap or --time (only --bus filters)");
			return EXIT_USAGE;
		}
		sel.only_bus = (unsigned)o.bus;
		return monitor_read(g, &o, &sel);
	}
	return monitor_live(g, &o, argv + optind, argc - optind);
}

// SPDX-License-Identifier: MIT
/*
 * usbperf hid DEVICE [--in] [--out] [--latency]: HID reports over USB, host
 * side, against the interrupt endpoint's ceiling; usbperf hid --gadget
 * /dev/hidgN --send|--echo|--receive: the device side that feeds them.
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "classes/hid/fields.h"
#include "classes/hid/gadget.h"
#include "classes/hid/io.h"
#include "platform/usbmon/pass.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DEFAULT_TIME_S 5.0
#define DEFAULT_TIMEOUT_S 5.0
#define DEFAULT_GADGET_TIMEOUT_S 30.0
#define IDLE_TIMEOUT_S 1.0
#define ECHO_TIMEOUT_S 1.0

void usage_hid(void)
{
	printf("usage: usbperf hid DEVICE [--in] [--out] [--latency] [options]\n"
	       "       usbperf hid --gadget /dev/hidgN --send|--echo|--receive [options]\n"
	       "\n"
	       "HID reports through a real USB stack, next to the interrupt endpoint's ceiling\n"
	       "(wMaxPacketSize x packets per interval, one report per bInterval service\n"
	       "period at the link's speed, as 'usbperf limits hid' computes it).\n"
	       "DEVICE is a hidraw node (/dev/hidraw0, hidraw0) or a USB VID:PID (0525:a4ac).\n"
	       "\n"
	       "host side (one or more passes, in this order; default --in):\n");
	opt_usage(stdout, hid_options);
	printf("\n"
	       "Exit: 0 ok, 2 bad input or refused (a node that is missing, busy, not hidraw\n"
	       "or not HID over USB), 3 runtime error (nothing came, I/O error), 128+N stopped\n"
	       "by signal N.\n");
}


struct hid_opts {
	bool pass[HID_PASS_KINDS];
	const char *gadget;
	double time_s, timeout_s;
	bool timeout_set;
	uint64_t count, report_size;
	bool monitor; /* each pass watched on usbmon */
};

#include "cmd/hid.opts.h"

static int hid_opt(int c, const char *arg, void *ctx)
{
	struct hid_opts *o = ctx;

	switch (c) {
	case HID_O_IN:
	case HID_O_OUT:
	case HID_O_LATENCY:
		o->pass[HID_PASS_IN + (c - HID_O_IN)] = true;
		return 0;
	case HID_O_SEND:
	case HID_O_ECHO:
	case HID_O_RECEIVE:
		o->pass[HID_PASS_SEND + (c - HID_O_SEND)] = true;
		return 0;
	case HID_O_TIMEOUT:
		if (parse_duration(arg, 0.01, 86400, &o->timeout_s) < 0) {
			log_error("invalid --timeout '%s': expected seconds (0.01..86400)", arg);
			return -EINVAL;
		}
		o->timeout_set = true;
		return 0;
	case HID_O_COUNT:
		if (parse_u64(arg, 1, UINT64_MAX / 2, &o->count) < 0) {
			log_error("invalid --count '%s': expected a number of reports, 1 or more",
				  arg);
			return -EINVAL;
		}
		return 0;
	case HID_O_REPORT_SIZE:
		if (parse_u64(arg, 1, HID_IO_MAX_REPORT, &o->report_size) < 0) {
			log_error("invalid --report-size '%s': expected bytes, 1..%d", arg,
				  HID_IO_MAX_REPORT);
			return -EINVAL;
		}
		return 0;
	default:
		return -ENOENT;
	}
}

/* open a node for a measurement: one line and -EINVAL (exit 2) when it cannot be had */
static int open_node(const char *node)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (e == EBUSY)
			log_error("'%s' is busy: another program holds it", node);
		else
			log_error("cannot open '%s': %s", node, strerror(e));
		return -EINVAL;
	}
	/* two usbperf on one node would share its reports: refuse the second */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		log_error("'%s' is busy: another usbperf measures it", node);
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* one line for a pass that failed; the exit status */
static int pass_failed(const char *node, const struct hid_pass *p, int r, double timeout_s)
{
	if (r == -ETIMEDOUT)
		log_error("%s: no report on '%s' in %g s", p->name, node, timeout_s);
	else
		log_error("%s on '%s': %s", p->name, node, strerror(-r));
	return EXIT_RUNTIME;
}

static int finish(struct global_opts *g, struct report *rep, int status)
{
	int r = emit_report(g, rep);

	if (r < 0)
		return EXIT_RUNTIME;
	if (signal_stop)
		return 128 + signal_stop;
	return status;
}

/* --monitor: a pass watched on usbmon; one that cannot be is said once, then none is */
static struct usbmon_pass *wire_start(const struct hid_opts *o, const struct hid_device *d,
				      char **note)
{
	struct strbuf why = STRBUF_INIT;
	struct usbmon_pass *mon = NULL;
	unsigned bus, dev;
	int r;

	if (!o->monitor || *note)
		return NULL;
	r = usbmon_device_numbers(d->usb.device, &bus, &dev);
	if (r < 0)
		strbuf_addf(&why, "bus and device numbers of USB device '%s' not read: %s",
			    d->usb.device ? d->usb.device : "?", strerror(-r));
	else
		r = usbmon_pass_start_small(bus, dev, &mon, &why);
	if (r < 0) {
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "passes not monitored on the wire: %s", why.buf);
		*note = strbuf_detach(&w);
		mon = NULL;
	}
	strbuf_release(&why);
	return mon;
}

static void wire_stop(struct usbmon_pass *mon, struct hid_pass *p)
{
	struct usbmon_pass_figures f;
	struct strbuf why = STRBUF_INIT;

	if (mon && usbmon_pass_stop(mon, &f, &why) == 0) {
		usbmon_pass_figures_over(&f, p->time_s);
		p->urbs = f.urbs;
		p->urbs_data = f.urbs_data;
		p->urbs_empty = f.urbs_empty;
		/* what reached the host and was not read: only from a whole count */
		if (p->kind == HID_PASS_IN && !f.lower_bound && f.urbs_data != U64_UNKNOWN)
			p->unread = f.urbs_data > p->reports ? f.urbs_data - p->reports : 0;
		p->urbs_per_s = f.window_s > 0 ? (double)f.urbs / f.window_s : NAN;
		p->urb_size = f.urb_size;
		p->inflight_mean = f.inflight_mean;
		p->busy_pct = f.busy_pct;
		p->urb_lat_p99_us = f.lat_p99_us;
		p->usb_errors = f.errors_total;
	}
	strbuf_release(&why);
}

static int run_host(struct global_opts *g, const char *arg, struct hid_opts *o)
{
	struct usbmon_pass *mon;
	char *mon_note = NULL;
	struct strbuf why = STRBUF_INIT;
	struct finding_list fl = FINDING_LIST_INIT;
	struct hid_pass passes[3] = {{0}};
	struct hid_device d;
	struct hid_device_view dv;
	struct report rep = {.command = "hid"};
	size_t n = 0;
	int fd, r, status = EXIT_OK;
	enum hid_pass_kind k;

	r = hid_device_probe(arg, &d, &why);
	if (r < 0) {
		if (r == -ENOMEM) {
			log_error("hid: out of memory");
			status = EXIT_RUNTIME;
		} else {
			log_error("%s", why.len ? why.buf : strerror(-r));
			status = EXIT_USAGE;
		}
		strbuf_release(&why);
		return status;
	}
	strbuf_release(&why);
	if ((o->pass[HID_PASS_IN] && !d.in_bytes && !o->report_size) ||
	    ((o->pass[HID_PASS_OUT] || o->pass[HID_PASS_LATENCY]) && !d.out_bytes &&
	     !o->report_size)) {
		log_error("'%s' declares no %s report: give --report-size", d.node,
			  o->pass[HID_PASS_IN] && !d.in_bytes ? "input" : "output");
		hid_device_release(&d);
		return EXIT_USAGE;
	}
	fd = open_node(d.node);
	if (fd < 0) {
		hid_device_release(&d);
		return EXIT_USAGE;
	}
	for (k = HID_PASS_IN; k <= HID_PASS_LATENCY && !signal_stop; k++) {
		bool in = k == HID_PASS_IN;
		struct hid_io_config c = {
		    .time_s = o->time_s,
		    .count = o->count,
		    .report_bytes = o->report_size ? (unsigned)o->report_size
				    : in	   ? d.in_bytes
						   : d.out_bytes,
		    .report_id = in ? d.in_id : d.out_id,
		    .hidraw_write = !in,
		    .first_timeout_s = o->timeout_s,
		    .idle_timeout_s = in ? IDLE_TIMEOUT_S : 0,
		    .echo_timeout_s = ECHO_TIMEOUT_S,
		};
		struct hid_pass *p = &passes[n];

		if (!o->pass[k])
			continue;
		mon = wire_start(o, &d, &mon_note);
		r = hid_pass_run(fd, k, &c, p);
		wire_stop(mon, p);
		if (r == -EINVAL || r == -ENOMEM || (r < 0 && !p->name)) {
			log_error("hid: cannot run the %s pass: %s", hid_pass_name(k),
				  strerror(-r));
			status = EXIT_RUNTIME;
			break;
		}
		p->path = in ? "interrupt IN"
			  : k == HID_PASS_OUT
			      ? (d.out.present ? "interrupt OUT" : "SET_REPORT")
			      : (d.out.present ? "interrupt OUT, IN" : "SET_REPORT, IN");
		if (in)
			hid_pass_set_ceiling(p, &d.in);
		else if (k == HID_PASS_OUT)
			hid_pass_set_ceiling(p, &d.out);
		n++;
		if (r < 0) {
			status = pass_failed(d.node, p, r, o->timeout_s);
			break;
		}
	}
	close(fd);
	hid_findings(&d, passes, n, &fl);
	hid_device_describe(&d, &dv, &rep);
	hid_passes_describe(passes, n, &rep);
	report_add_table(&rep, "findings", "Findings", &finding_desc, fl.v, fl.n,
			 sizeof(struct finding));
	if (mon_note) {
		rep.warnings = &mon_note;
		rep.nwarnings = 1;
	}
	status = finish(g, &rep, status);
	finding_list_release(&fl);
	hid_device_release(&d);
	free(mon_note);
	return status;
}

static int run_gadget(struct global_opts *g, struct hid_opts *o)
{
	struct hid_gadget_view gv = {.node = o->gadget};
	struct report rep = {.command = "hid"};
	struct strbuf fname = STRBUF_INIT;
	struct hid_pass pass = {0};
	enum hid_pass_kind k = o->pass[HID_PASS_SEND]	? HID_PASS_SEND
			       : o->pass[HID_PASS_ECHO] ? HID_PASS_ECHO
							: HID_PASS_RECEIVE;
	static char *const set_report_note[] = {
	    "the function has no OUT endpoint: f_hid keeps one SET_REPORT, and one not read "
	    "before the next arrives is replaced, counted nowhere"};
	struct hid_gadget_fn fn = {0};
	uint64_t len;
	struct stat st;
	int fd, r, status = EXIT_OK;

	if (stat(o->gadget, &st) < 0) {
		log_error("cannot open '%s': %s", o->gadget, strerror(errno));
		return EXIT_USAGE;
	}
	if (!hid_gadget_is_node(&st)) {
		log_error("'%s' is not a HID gadget node (/dev/hidgN of an f_hid function)",
			  o->gadget);
		return EXIT_USAGE;
	}
	(void)hid_gadget_fn_of_dev(major(st.st_rdev), minor(st.st_rdev), &fn);
	len = o->report_size ? o->report_size : fn.report_length;
	if (!len) {
		log_error("the report length of '%s' is not in configfs: give --report-size",
			  o->gadget);
		hid_gadget_fn_release(&fn);
		return EXIT_USAGE;
	}
	fd = open_node(o->gadget);
	if (fd < 0) {
		hid_gadget_fn_release(&fn);
		return EXIT_USAGE;
	}
	{
		struct hid_io_config c = {
		    .time_s = o->time_s,
		    .count = o->count,
		    .report_bytes = (unsigned)len,
		    .first_timeout_s = o->timeout_set ? o->timeout_s : DEFAULT_GADGET_TIMEOUT_S,
		    .idle_timeout_s = k == HID_PASS_RECEIVE ? IDLE_TIMEOUT_S : 0,
		};

		r = hid_pass_run(fd, k, &c, &pass);
	}
	close(fd);
	if (r == -EINVAL || r == -ENOMEM) {
		log_error("hid: cannot run the %s pass: %s", hid_pass_name(k), strerror(-r));
		hid_gadget_fn_release(&fn);
		return EXIT_RUNTIME;
	}
	pass.path = "hidg";
	/* what the host can take: one report per bInterval f_hid declares at this speed */
	if (k == HID_PASS_SEND && len == fn.report_length) {
		struct hid_endpoint ep;

		if (hid_gadget_in_endpoint(&fn, &ep) == 0)
			hid_pass_set_ceiling(&pass, &ep);
		if (ep.has_ceiling)
			usb_hid_result_release(&ep.ceiling);
	}
	if (r < 0)
		status = pass_failed(o->gadget, &pass, r,
				     o->timeout_set ? o->timeout_s : DEFAULT_GADGET_TIMEOUT_S);
	if (fn.function) {
		strbuf_addf(&fname, "%s/%s", fn.gadget, fn.function);
		gv.function = fname.buf;
	}
	gv.report_bytes = len;
	hid_gadget_describe(&gv, &rep);
	hid_passes_describe(&pass, 1, &rep);
	if (fn.no_out && k != HID_PASS_SEND) {
		rep.warnings = set_report_note;
		rep.nwarnings = 1;
	}
	status = finish(g, &rep, status);
	hid_gadget_fn_release(&fn);
	strbuf_release(&fname);
	return status;
}

void schema_hid(struct report *r)
{
	static const struct hid_device none;
	static struct hid_device_view dv;
	static struct hid_gadget_view gv;

	/* the host side's device, or --gadget's; the passes; the findings */
	hid_device_describe(&none, &dv, r);
	hid_gadget_describe(&gv, r);
	hid_passes_describe(NULL, 0, r);
	report_add_table(r, "findings", "Findings", &finding_desc, NULL, 0, sizeof(struct finding));
}

int cmd_hid(int argc, char **argv, struct global_opts *g)
{
	struct hid_opts o = {.time_s = DEFAULT_TIME_S, .timeout_s = DEFAULT_TIMEOUT_S};
	unsigned host, dev;
	int r;

	r = parse_bound(argc, argv, g, "hid", hid_options, usage_hid, hid_binds, hid_opt, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	host = o.pass[HID_PASS_IN] + o.pass[HID_PASS_OUT] + o.pass[HID_PASS_LATENCY];
	dev = o.pass[HID_PASS_SEND] + o.pass[HID_PASS_ECHO] + o.pass[HID_PASS_RECEIVE];
	if (o.gadget) {
		if (optind < argc) {
			log_error("hid: unexpected argument '%s' with --gadget", argv[optind]);
			return EXIT_USAGE;
		}
		if (host || dev != 1) {
			log_error("hid: --gadget takes one of --send, --echo, --receive");
			return EXIT_USAGE;
		}
	} else {
		if (dev) {
			log_error("hid: --send, --echo and --receive are the gadget side: give "
				  "--gadget /dev/hidgN");
			return EXIT_USAGE;
		}
		if (optind >= argc) {
			log_error("hid: a DEVICE is needed: a hidraw node or VID:PID");
			return EXIT_USAGE;
		}
		if (optind + 1 < argc) {
			log_error("hid: unexpected argument '%s' (one DEVICE at a time)",
				  argv[optind + 1]);
			return EXIT_USAGE;
		}
		if (!host)
			o.pass[HID_PASS_IN] = true;
	}
	if (check_output_target(g, o.gadget ? o.gadget : argv[optind],
				"the device being measured") < 0)
		return EXIT_USAGE;
	return o.gadget ? run_gadget(g, &o) : run_host(g, argv[optind], &o);
}

// SPDX-License-Identifier: MIT
/* usbperf bulk [DEVICE]: raw bulk (and isochronous) throughput through libusb, vs the ceiling. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "classes/bulk/bulk.h"
#include "classes/bulk/fields.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TIME_S 0.5
#define DEFAULT_SIZES "4K,64K,1M"
#define DEFAULT_DEPTHS "1,8,32"

void usage_bulk(void)
{
	printf("usage: usbperf bulk [DEVICE] [options]\n"
	       "\n"
	       "Raw bulk throughput against a device's own endpoints, with libusb's asynchronous\n"
	       "API: N transfers of S bytes kept in flight for --time per point, IN, OUT and both\n"
	       "at once, for each transfer size and depth, next to the link's bulk ceiling.\n"
	       "Meant for a SourceSink or Loopback gadget (0525:a4a0) or any interface with a\n"
	       "bulk IN+OUT pair. DEVICE is a sysfs name (1-1), a usbfs node\n"
	       "(/dev/bus/usb/001/002) or VID:PID; without it 0525:a4a0, else the first device\n"
	       "with a bulk IN+OUT pair. A kernel driver holding the interface (usbtest) is\n"
	       "detached and given back at the end, also after an error or a signal.\n"
	       "\n");
	opt_usage(stdout, bulk_options);
	printf("\n"
	       "Rates: MB/s = 10^6 B/s. The ceiling is the link's bulk payload ceiling per\n"
	       "direction (both: twice at SuperSpeed, one shared bus below), or the iso\n"
	       "endpoint's from its descriptor. Points over usbcore's usbfs_memory_mb are skipped\n"
	       "and said. Exit: 0 ok, 2 bad input or refused (no such device, no bulk endpoints,\n"
	       "interface busy), 3 runtime error (partial results), 128+N after signal N\n"
	       "(the points so far; the driver given back).\n");
}

struct bulk_opts {
	struct bulk_select sel;
	struct bulk_want want;
	double time_s;
	uint64_t *sizes;
	size_t nsizes;
	uint64_t *depths;
	size_t ndepths;
	unsigned dirs;
	bool monitor; /* each point watched on usbmon */
};


static int parse_ep(const char *opt, const char *arg, bool in, int *ret)
{
	uint64_t v;

	if (parse_hex(arg, 0xff, &v) < 0 || (v & 0x70) || !(v & 0x0f) || (bool)(v & 0x80) != in) {
		log_error("invalid %s '%s': expected an %s endpoint address, e.g. %s", opt, arg,
			  in ? "IN" : "OUT", in ? "0x81" : "0x01");
		return -EINVAL;
	}
	*ret = (int)v;
	return 0;
}

#include "cmd/bulk.opts.h"

static int bulk_opt(int c, const char *arg, void *ctx)
{
	struct bulk_opts *o = ctx;
	uint64_t v;

	switch (c) {
	case BULK_O_VID:
	case BULK_O_PID:
		if (parse_hex(arg, 0xffff, &v) < 0) {
			log_error("invalid --%s '%s': expected 4 hex digits, e.g. %s",
				  c == BULK_O_VID ? "vid" : "pid", arg, c == BULK_O_VID ? "0525" : "a4a0");
			return -EINVAL;
		}
		*(c == BULK_O_VID ? &o->sel.vid : &o->sel.pid) = (int)v;
		return 0;
	case BULK_O_EP_IN:
		return parse_ep("--ep-in", arg, true, &o->want.ep_in);
	case BULK_O_EP_OUT:
		return parse_ep("--ep-out", arg, false, &o->want.ep_out);
	case BULK_O_SIZES:
		free(o->sizes);
		o->sizes = NULL;
		if (parse_size_list(arg, 512, BULK_MAX_SIZE, BULK_MAX_POINTS, &o->sizes,
				    &o->nsizes) < 0) {
			log_error("invalid --sizes '%s': expected sizes 512..16M, e.g. 4K,64K,1M",
				  arg);
			return -EINVAL;
		}
		return 0;
	case BULK_O_DEPTH:
		free(o->depths);
		o->depths = NULL;
		if (parse_size_list(arg, 1, BULK_MAX_DEPTH, BULK_MAX_POINTS, &o->depths,
				    &o->ndepths) < 0) {
			log_error("invalid --depth '%s': expected counts 1..%u, e.g. 1,8,32", arg,
				  BULK_MAX_DEPTH);
			return -EINVAL;
		}
		return 0;
	case BULK_O_DIR:
		if (bulk_dirs_parse(arg, &o->dirs) < 0) {
			log_error("invalid --dir '%s': expected in, out, both or all", arg);
			return -EINVAL;
		}
		return 0;
	}
	return -ENOENT;
}

/* the results as the renderers want them */
struct bulk_out {
	struct bulk_device_row dev;
	struct bulk_row *rows;
	size_t nrows;
	char **warnings;
	size_t nwarnings;
	bool monitor_off; /* --monitor could not start: said once */
};

__attribute__((format(printf, 2, 3))) static void note(struct bulk_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warnings_vaddf(&out->warnings, &out->nwarnings, fmt, ap);
	va_end(ap);
}

static void out_release(struct bulk_out *out)
{
	bulk_device_row_release(&out->dev);
	for (size_t i = 0; i < out->nrows; i++)
		bulk_row_release(&out->rows[i]);
	free(out->rows);
	for (size_t i = 0; i < out->nwarnings; i++)
		free(out->warnings[i]);
	free(out->warnings);
}

static int add_point(struct bulk_out *out, const struct bulk_point *p)
{
	struct bulk_row *nv = realloc(out->rows, (out->nrows + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	out->rows = nv;
	if (bulk_row_from_point(p, &out->rows[out->nrows]) < 0)
		return -ENOMEM;
	out->nrows++;
	return 0;
}

static char *hex_ep(unsigned ep)
{
	struct strbuf sb = STRBUF_INIT;

	if (!ep)
		return NULL;
	strbuf_addf(&sb, "0x%02x", ep);
	return strbuf_detach(&sb);
}

static void fill_device(struct bulk_out *out, const struct bulk_open_info *info)
{
	struct strbuf sb = STRBUF_INIT;
	const struct bulk_eps *e = &info->eps;

	out->dev.device = strdup(info->dev.sysname);
	strbuf_addf(&sb, "%04x:%04x", info->dev.vid, info->dev.pid);
	out->dev.vid_pid = strbuf_detach(&sb);
	out->dev.product = info->dev.product ? strdup(info->dev.product) : NULL;
	out->dev.speed = usb_speed_name(info->dev.speed);
	out->dev.interface = (uint64_t)e->iface;
	out->dev.alt_setting = (uint64_t)e->alt;
	out->dev.ep_in = hex_ep(e->ep_in);
	out->dev.ep_out = hex_ep(e->ep_out);
	out->dev.mps_in = e->ep_in ? e->mps_in : U64_UNKNOWN;
	out->dev.mps_out = e->ep_out ? e->mps_out : U64_UNKNOWN;
	out->dev.driver_detached = info->detached ? strdup(info->detached) : NULL;
	out->dev.bulk_ceiling_mb_s = bulk_ceiling_mb_s(info->dev.speed, BULK_DIR_IN);
}

/* usbcore's limit on the memory all usbfs transfers hold at once, bytes; 0 none */
static uint64_t usbfs_limit(void)
{
	struct strbuf v = STRBUF_INIT;
	uint64_t mb = 16; /* the kernel's default when the parameter cannot be read */

	if (sysroot_read_attr("/sys/module/usbcore/parameters/usbfs_memory_mb", &v) >= 0)
		parse_u64(v.buf, 0, UINT32_MAX, &mb);
	strbuf_release(&v);
	return mb << 20;
}

/* open the device: the named one, or the first that has the endpoints */
static int open_target(const struct bulk_opts *o, struct bulk_session **s,
		       struct bulk_open_info *info)
{
	struct bulk_sysdev *v = NULL;
	size_t n = 0;
	char why[256] = "";
	bool any = !o->sel.name && o->sel.vid < 0 && o->sel.pid < 0;
	int r;

	r = bulk_find_devices(&o->sel, &v, &n);
	if (r == -EINVAL) {
		log_error("bulk: invalid DEVICE '%s': expected a sysfs name (1-1), a usbfs node "
			  "(/dev/bus/usb/001/002) or VID:PID",
			  o->sel.name);
		return EXIT_USAGE;
	}
	if (r == -ENODEV) {
		if (o->sel.name)
			log_error("bulk: no such USB device '%s'", o->sel.name);
		else if (any)
			log_error(
			    "bulk: no USB device found (looked for 0525:a4a0, a SourceSink or "
			    "Loopback gadget, and any with a bulk IN+OUT pair)");
		else
			log_error("bulk: no USB device %04x:%04x", o->sel.vid < 0 ? 0 : o->sel.vid,
				  o->sel.pid < 0 ? 0 : o->sel.pid);
		return EXIT_USAGE;
	}
	if (r < 0) {
		log_error("bulk: cannot list USB devices: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n; i++) {
		r = bulk_open(&v[i], &o->want, s, info, why, sizeof(why));
		if (r == -ENOENT && any && i + 1 < n)
			continue;
		if (r < 0) {
			log_error("bulk: device '%s' (%04x:%04x): %s", v[i].sysname, v[i].vid,
				  v[i].pid, why);
			bulk_sysdevs_free(v, n);
			return r == -ENOENT || r == -EBUSY || r == -EACCES || r == -ENODEV
				   ? EXIT_USAGE
				   : EXIT_RUNTIME;
		}
		break;
	}
	bulk_sysdevs_free(v, n);
	return EXIT_OK;
}

/*
 * A figure past the link's ceiling is no measurement error to hide: no real
 * bus of that speed moves it, so the bus is emulated (dummy_hcd meters its own
 * allowance, 8 times high speed's in the kernels with its 125 us scheduler)
 * or the speed sysfs reports is not the link's.
 */
static void above_ceiling(struct bulk_out *out, const struct bulk_point *p, const char *name,
			  enum usb_speed speed)
{
	if (!(p->share_pct > 100.0))
		return;
	note(out,
	     "%s: anomaly: %.1f MB/s is above the %s-speed %s ceiling (%.1f MB/s): no real link "
	     "of that speed moves it; the bus is emulated (dummy_hcd) or the speed misreported",
	     name, p->mb_s, usb_speed_name(speed), p->iso ? "isochronous" : "bulk",
	     p->ceiling_mb_s);
}

/* every point of the sweep; EXIT_RUNTIME on a failure (the points so far kept) */
/* --monitor: a point watched on usbmon; one that cannot be is said once, then none is */
static struct usbmon_pass *wire_start(const struct bulk_opts *o, const struct bulk_open_info *info,
				      struct bulk_out *out)
{
	struct strbuf why = STRBUF_INIT;
	struct usbmon_pass *mon = NULL;

	if (!o->monitor || out->monitor_off)
		return NULL;
	if (usbmon_pass_start(info->dev.busnum, info->dev.devnum, false, &mon, &why) < 0) {
		note(out, "points not monitored on the wire: %s", why.buf);
		out->monitor_off = true;
		mon = NULL;
	}
	strbuf_release(&why);
	return mon;
}

static void wire_stop(struct usbmon_pass *mon, struct bulk_point *p, struct bulk_out *out)
{
	struct strbuf why = STRBUF_INIT;
	char name[64];

	if (!mon)
		return;
	if (usbmon_pass_stop(mon, &p->wire, &why) < 0) {
		bulk_point_name(p, name, sizeof(name));
		note(out, "%s not monitored on the wire: %s", name, why.buf);
	} else {
		usbmon_pass_figures_over(&p->wire, p->seconds);
		p->monitored = true;
	}
	strbuf_release(&why);
}

static int sweep(const struct bulk_opts *o, struct bulk_session *s,
		 const struct bulk_open_info *info, struct bulk_out *out)
{
	static const enum bulk_dir order[] = {BULK_DIR_IN, BULK_DIR_OUT, BULK_DIR_BOTH};
	uint64_t limit = usbfs_limit();

	for (size_t d = 0; d < 3; d++) {
		if (!(o->dirs & order[d]))
			continue;
		if (o->want.iso && order[d] == BULK_DIR_BOTH)
			continue;
		if ((order[d] != BULK_DIR_OUT && !info->eps.ep_in) ||
		    (order[d] != BULK_DIR_IN && !info->eps.ep_out)) {
			note(out, "%s: no %s endpoint, not measured", bulk_dir_name(order[d]),
			     info->eps.ep_in ? "OUT" : "IN");
			continue;
		}
		for (size_t i = 0; i < o->nsizes; i++)
			for (size_t k = 0; k < o->ndepths; k++) {
				struct bulk_point p = {
				    .dir = order[d],
				    .iso = o->want.iso,
				    .size = o->sizes[i],
				    .depth = (unsigned)o->depths[k],
				};
				uint64_t need = p.size * p.depth * (p.dir == BULK_DIR_BOTH ? 2 : 1);
				char why[256] = "", name[64];
				struct usbmon_pass *mon;
				int r;

				if (signal_stop)
					return EXIT_RUNTIME;
				bulk_point_name(&p, name, sizeof(name));
				if (limit && need > limit) {
					note(out,
					     "%s skipped: %llu MiB in flight passes usbcore's "
					     "usbfs_memory_mb=%llu (0 lifts the limit)",
					     name, (unsigned long long)(need >> 20),
					     (unsigned long long)(limit >> 20));
					continue;
				}
				mon = wire_start(o, info, out);
				r = bulk_measure(s, o->time_s, &p, why, sizeof(why));
				wire_stop(mon, &p, out);
				if (r == -ENOMEM && !p.transfers) {
					note(out, "%s skipped: %s", name, why);
					continue;
				}
				if (r < 0 && r != -EINTR) {
					log_error("bulk: device '%s', %s: %s", info->dev.sysname,
						  name, why);
					return EXIT_RUNTIME;
				}
				if (add_point(out, &p) < 0) {
					log_error("bulk: out of memory");
					return EXIT_RUNTIME;
				}
				above_ceiling(out, &p, name, info->dev.speed);
				if (!p.transfers && r == 0)
					note(out,
					     "%s: no transfer completed in %.2f s: the device "
					     "sent or took nothing (a Loopback gadget returns "
					     "only what it was sent: --dir both)",
					     name, p.seconds);
				if (r == -EINTR)
					return EXIT_RUNTIME; /* run_command makes it 128+N */
			}
	}
	return EXIT_OK;
}

/* a direction asked for that the interface can carry: NULL, else the one it lacks */
static const char *nothing_to_measure(const struct bulk_opts *o, const struct bulk_open_info *info)
{
	static const enum bulk_dir order[] = {BULK_DIR_IN, BULK_DIR_OUT, BULK_DIR_BOTH};
	const char *lacks = NULL;

	for (size_t d = 0; d < 3; d++) {
		if (!(o->dirs & order[d]) || (o->want.iso && order[d] == BULK_DIR_BOTH))
			continue;
		if (order[d] != BULK_DIR_OUT && !info->eps.ep_in)
			lacks = "IN";
		else if (order[d] != BULK_DIR_IN && !info->eps.ep_out)
			lacks = "OUT";
		else
			return NULL;
	}
	return lacks ? lacks : "IN or OUT";
}

static int run_bulk(struct bulk_opts *o, struct global_opts *g)
{
	struct bulk_open_info info = {0};
	struct bulk_session *s = NULL;
	struct bulk_out out = {0};
	struct report rep = {.command = "bulk"};
	int status, r;

	status = open_target(o, &s, &info);
	if (status != EXIT_OK)
		return status;
	{
		const char *lacks = nothing_to_measure(o, &info);

		/* every direction asked for is missing: bad input, the driver given back */
		if (lacks) {
			log_error("bulk: device '%s' interface %d has no %s %s endpoint for --dir",
				  info.dev.sysname, info.eps.iface,
				  o->want.iso ? "isochronous" : "bulk", lacks);
			bulk_close(s);
			bulk_open_info_release(&info);
			return EXIT_USAGE;
		}
	}
	fill_device(&out, &info);
	status = sweep(o, s, &info, &out);
	bulk_close(s);
	if (info.detached) {
		char *now = bulk_iface_driver(&info.dev, (unsigned)info.eps.iface);

		out.dev.driver_reattached = now && !strcmp(now, info.detached);
		if (!out.dev.driver_reattached)
			note(&out, "'%s' did not take interface %d back", info.detached,
			     info.eps.iface);
		free(now);
	}
	report_add_object(&rep, "device", NULL, &bulk_device_desc, &out.dev);
	report_add_table(&rep, "points", "points (MB/s = 10^6 B/s)", &bulk_row_desc, out.rows,
			 out.nrows, sizeof(*out.rows));
	rep.warnings = out.warnings;
	rep.nwarnings = out.nwarnings;
	r = emit_report(g, &rep);
	if (r < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	bulk_open_info_release(&info);
	out_release(&out);
	return status;
}

void schema_bulk(struct report *r)
{
	report_add_object(r, "device", NULL, &bulk_device_desc, NULL);
	report_add_table(r, "points", NULL, &bulk_row_desc, NULL, 0, 0);
}

int cmd_bulk(int argc, char **argv, struct global_opts *g)
{
	struct bulk_opts o = {
	    .sel = {.vid = -1, .pid = -1},
	    .want = {.iface = -1, .ep_in = -1, .ep_out = -1},
	    .time_s = DEFAULT_TIME_S,
	    .dirs = BULK_DIR_IN | BULK_DIR_OUT | BULK_DIR_BOTH,
	};
	int r, status = EXIT_USAGE;

	r = parse_bound(argc, argv, g, "bulk", bulk_options, usage_bulk, bulk_binds, bulk_opt, &o);
	if (r != 0) {
		status = r > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind < argc)
		o.sel.name = argv[optind++];
	if (optind < argc) {
		log_error("bulk: unexpected argument '%s' (one DEVICE at a time)", argv[optind]);
		goto out;
	}
	if (o.sel.name && (o.sel.vid >= 0 || o.sel.pid >= 0)) {
		log_error("bulk: DEVICE and --vid/--pid both name the device: pick one");
		goto out;
	}
	if ((!o.sizes && parse_size_list(DEFAULT_SIZES, 512, BULK_MAX_SIZE, BULK_MAX_POINTS,
					 &o.sizes, &o.nsizes) < 0) ||
	    (!o.depths && parse_size_list(DEFAULT_DEPTHS, 1, BULK_MAX_DEPTH, BULK_MAX_POINTS,
					  &o.depths, &o.ndepths) < 0)) {
		log_error("bulk: out of memory");
		status = EXIT_RUNTIME;
		goto out;
	}
	if (o.want.iso && !(o.dirs & (BULK_DIR_IN | BULK_DIR_OUT))) {
		log_error("bulk: --iso measures in or out, not both at once");
		goto out;
	}
	if (check_output_target(g, o.sel.name, "the device being measured") < 0)
		goto out;
	status = run_bulk(&o, g);
out:
	free_all(o.sizes, o.depths);
	return status;
}

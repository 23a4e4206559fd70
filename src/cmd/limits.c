// SPDX-License-Identifier: MIT
/*
 * usbperf limits [uvc|hid|ncm]: the theoretical USB ceilings as a
 * calculator. Parse options, call platform/usb/limits, render.
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "platform/usb/limits.h"
#include "platform/usb/limits_fields.h"
#include "platform/usb/uvc_bulk.h"
#include "classes/video/uvc_view.h"
#include "util/parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEEDS "low, full, high, super, gen1x2, gen2x1 or gen2x2 (also ls, fs, hs, ss, 480 ...)"

void usage_limits(void)
{
	printf("usage: usbperf limits [--speed SPEED]\n"
	       "       usbperf limits uvc --speed SPEED [--maxpacket N] [--mult N] [--burst N]\n"
	       "                          [--interval N] [--frame-size WxH] [--pixel-format FMT]\n"
	       "                          "
	       "[--mjpeg-ratio R]\n"
	       "       usbperf limits uvc --bulk --speed SPEED [--maxpayload N]\n"
	       "                          [--frame-size WxH] [--pixel-format FMT] [--mjpeg-ratio R]\n"
	       "       usbperf limits uvc --device DEV [--sysroot DIR|FILE]\n"
	       "       usbperf limits hid --speed SPEED [--report-length N] [--interval N]\n"
	       "                          [--maxpacket N] [--mult N] [--burst N]\n"
	       "       usbperf limits ncm [--speed SPEED]\n"
	       "\n"
	       "What the bus allows, computed: per speed and transfer type the largest packet,\n"
	       "packets per (micro)frame or burst and the payload ceiling of one endpoint,\n"
	       "with its derivation; signalling and line coding; published field references\n"
	       "(not limits). A measurement can approach a ceiling, never pass it.\n"
	       "\n");
	opt_usage(stdout, limits_options);
	printf("\n"
	       "Rates: MB/s = 10^6 B/s, MiB/s = 2^20 B/s, Mbit/s = 10^6 bit/s.\n"
	       "Exit: 0 ok, 2 bad input (nothing written).\n");
}

/* what the user typed, to quote back in messages; NULL: not given */
struct limits_args {
	const char *name; /* "limits", "limits uvc", ... */
	unsigned allowed; /* bit per O_* - LIMITS_O_SPEED accepted by this subcommand */
	const char *raw[LIMITS_O_LAST - LIMITS_O_SPEED + 1];
	enum usb_speed speed;
	uint64_t maxpacket, mult, interval, report_length, width, height, maxpayload;
	int burst, pixel;
	double mjpeg_ratio;
};

#define BIT(o) (1u << ((o) - LIMITS_O_SPEED))

/* KEY's long name, as the table has it */
static const char *option_name(int key)
{
	return opt_find(limits_options, key)->name;
}

static int bad_value(int o, const char *value, const char *expected)
{
	log_error("invalid --%s '%s': expected %s", option_name(o), value, expected);
	return -EINVAL;
}


static int parse_value(int o, const char *v, struct limits_args *a)
{
	uint64_t n;

	switch (o) {
	case LIMITS_O_SPEED:
		return usb_speed_parse(v, &a->speed) < 0 ? bad_value(o, v, SPEEDS) : 0;
	case LIMITS_O_MAXPACKET:
		return parse_u64(v, 1, 65535, &a->maxpacket) < 0
			       ? bad_value(o, v, "wMaxPacketSize in bytes, e.g. 1024")
			       : 0;
	case LIMITS_O_MULT:
		return parse_u64(v, 1, 3, &a->mult) < 0 ? bad_value(o, v, "1-3") : 0;
	case LIMITS_O_BURST:
		if (parse_u64(v, 0, 15, &n) < 0)
			return bad_value(o, v, "bMaxBurst 0-15");
		a->burst = (int)n;
		return 0;
	case LIMITS_O_INTERVAL:
		return parse_u64(v, 1, 255, &a->interval) < 0 ? bad_value(o, v, "bInterval 1-255")
							       : 0;
	case LIMITS_O_SIZE:
		return parse_wxh(v, USB_UVC_MAX_SIDE, &a->width, &a->height) < 0
			       ? bad_value(o, v, "WIDTHxHEIGHT in pixels, e.g. 1280x720")
			       : 0;
	case LIMITS_O_PIXEL: {
		enum usb_pixel px;
		if (usb_pixel_parse(v, &px) < 0)
			return bad_value(o, v, "yuyv, nv12 or mjpeg");
		a->pixel = (int)px;
		return 0;
	}
	case LIMITS_O_MJPEG_RATIO:
		return parse_double(v, 1, 1000, &a->mjpeg_ratio) < 0
			       ? bad_value(o, v, "a compression ratio 1-1000")
			       : 0;
	case LIMITS_O_REPORT_LENGTH:
		return parse_u64(v, 1, USB_HID_MAX_REPORT, &a->report_length) < 0
			       ? bad_value(o, v, "report bytes 1-65535")
			       : 0;
	case LIMITS_O_BULK:
		return 0;
	case LIMITS_O_MAXPAYLOAD:
		return parse_size(v, 13, 1u << 30, &a->maxpayload) < 0
			       ? bad_value(o, v, "dwMaxPayloadTransferSize in bytes, 13 to 1G")
			       : 0;
	case LIMITS_O_DEVICE:
	case LIMITS_O_SYSROOT:
		return *v ? 0
			  : bad_value(o, v,
				      o == LIMITS_O_DEVICE ? "a USB device (1-1) or /dev/videoN"
						    : "a directory or a snapshot file");
	}
	return -EINVAL;
}

static int limits_option(int c, const char *arg, void *ctx)
{
	struct limits_args *a = ctx;
	bool old = c == LIMITS_O_SIZE_OLD;

	if (old)
		c = LIMITS_O_SIZE;
	if (c < LIMITS_O_SPEED || c > LIMITS_O_LAST)
		return -ENOENT;
	if (!(a->allowed & BIT(c))) {
		log_error("%s: --%s does not apply here (see 'usbperf limits -h')", a->name,
			  option_name(c));
		return -EINVAL;
	}
	a->raw[c - LIMITS_O_SPEED] = arg ? arg : "";
	if (parse_value(c, arg, a) < 0)
		return -EINVAL;
	if (old)
		log_deprecated("limits", "--size", "--frame-size");
	return 0;
}

/* 0 parsed, 1 help printed, -EINVAL refused (message printed) */
static int parse_args(int argc, char **argv, struct global_opts *g, struct limits_args *a)
{
	int r = parse_table(argc, argv, g, a->name, limits_options, usage_limits, limits_option, a);

	if (r != 0)
		return r > 0 ? 1 : -EINVAL;
	if (optind < argc) {
		log_error("%s: unexpected argument '%s' (see 'usbperf limits -h')", a->name,
			  argv[optind]);
		return -EINVAL;
	}
	return check_output(g) < 0 ? -EINVAL : 0;
}

static int refuse(const struct limits_args *a, const struct usb_calc_error *err)
{
	const char *option = err->option ? err->option : "speed";
	const char *raw = NULL;
	int k;

	for (k = LIMITS_O_SPEED; k <= LIMITS_O_LAST; k++)
		if (!strcmp(option, option_name(k)))
			raw = a->raw[k - LIMITS_O_SPEED];
	if (raw)
		log_error("invalid --%s '%s': %s", option, raw, err->why.buf);
	else
		log_error("%s: --%s: %s", a->name, option, err->why.buf);
	return EXIT_USAGE;
}

static int need_speed(const struct limits_args *a)
{
	if (a->speed != USB_SPEED_UNKNOWN)
		return 0;
	log_error("%s: missing --speed: %s", a->name, SPEEDS);
	return -EINVAL;
}

static int emit(struct global_opts *g, const struct report *r)
{
	return emit_report(g, r) < 0 ? EXIT_RUNTIME : EXIT_OK;
}

/* --device: one camera's alternate settings and modes, from its descriptors */
static int run_uvc_device(struct global_opts *g, struct limits_args *a)
{
	const char *dev = a->raw[LIMITS_O_DEVICE - LIMITS_O_SPEED];
	const char *sysroot = a->raw[LIMITS_O_SYSROOT - LIMITS_O_SPEED];
	struct uvc_view view = UVC_VIEW_INIT;
	struct report r = {.command = "limits uvc"};
	struct uvc_camera c;
	char *why = NULL;
	int status;

	for (int o = LIMITS_O_SPEED; o <= LIMITS_O_MJPEG_RATIO; o++)
		if (a->raw[o - LIMITS_O_SPEED]) {
			log_error("limits uvc: --%s describes an endpoint by hand, --device reads "
				  "the camera's own: pick one",
				  option_name(o));
			return EXIT_USAGE;
		}
	if (sysroot && open_sysroot(sysroot) < 0)
		return EXIT_USAGE;
	if (uvc_camera_open(dev, &c, &why) < 0) {
		log_error("%s", why);
		free(why);
		return EXIT_USAGE;
	}
	uvc_camera_read_state(&c);
	uvc_view_add_camera(&view, &c);
	uvc_view_add_modes(&view, &c);
	uvc_view_describe(&view, &r);
	status = emit(g, &r);
	uvc_view_release(&view);
	uvc_camera_release(&c);
	return status;
}

/* --bulk: a bulk video endpoint's frame rates at the speed */
static int run_uvc_bulk(struct global_opts *g, struct limits_args *a)
{
	struct usb_uvc_bulk_params p = {
		.speed = a->speed,
		.max_payload = (unsigned)a->maxpayload,
		.width = (unsigned)a->width,
		.height = (unsigned)a->height,
		.pixel = a->pixel,
		.mjpeg_ratio = a->mjpeg_ratio,
	};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_uvc_bulk_result res;
	struct limits_uvc_bulk_view *view;
	struct report r = {.command = "limits uvc"};
	int status, o;

	for (o = LIMITS_O_MAXPACKET; o <= LIMITS_O_INTERVAL; o++)
		if (a->raw[o - LIMITS_O_SPEED]) {
			log_error("limits uvc: --%s describes an isochronous endpoint, not --bulk",
				  option_name(o));
			return EXIT_USAGE;
		}
	if (a->raw[LIMITS_O_DEVICE - LIMITS_O_SPEED] || a->raw[LIMITS_O_SYSROOT - LIMITS_O_SPEED]) {
		log_error("limits uvc: --bulk computes, --device reads a camera: pick one");
		return EXIT_USAGE;
	}
	if (need_speed(a) < 0)
		return EXIT_USAGE;
	if (usb_uvc_bulk_calc(&p, &res, &err) < 0) {
		status = refuse(a, &err);
		usb_calc_error_release(&err);
		return status;
	}
	view = malloc(sizeof(*view));
	if (!view) {
		usb_uvc_bulk_result_release(&res);
		log_error("limits: out of memory");
		return EXIT_RUNTIME;
	}
	limits_uvc_bulk_describe(&res, view, &r);
	status = emit(g, &r);
	free(view);
	usb_uvc_bulk_result_release(&res);
	return status;
}

static int run_uvc(struct global_opts *g, struct limits_args *a)
{
	struct usb_uvc_params p = {
		.speed = a->speed,
		.max_packet = (unsigned)a->maxpacket,
		.mult = (unsigned)a->mult,
		.burst = a->burst,
		.interval = (unsigned)a->interval,
		.width = (unsigned)a->width,
		.height = (unsigned)a->height,
		.pixel = a->pixel,
		.mjpeg_ratio = a->mjpeg_ratio,
	};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_uvc_result res;
	struct limits_uvc_view view;
	struct report r = {.command = "limits uvc"};
	int status;

	if (a->raw[LIMITS_O_BULK - LIMITS_O_SPEED])
		return run_uvc_bulk(g, a);
	if (a->raw[LIMITS_O_MAXPAYLOAD - LIMITS_O_SPEED]) {
		log_error("limits uvc: --maxpayload is a bulk endpoint's: give --bulk");
		return EXIT_USAGE;
	}
	if (a->raw[LIMITS_O_DEVICE - LIMITS_O_SPEED])
		return run_uvc_device(g, a);
	if (a->raw[LIMITS_O_SYSROOT - LIMITS_O_SPEED]) {
		log_error("limits uvc: --sysroot needs --device: the calculator reads nothing");
		return EXIT_USAGE;
	}
	if (need_speed(a) < 0)
		return EXIT_USAGE;
	if (usb_uvc_calc(&p, &res, &err) < 0) {
		status = refuse(a, &err);
		usb_calc_error_release(&err);
		return status;
	}
	limits_uvc_describe(&res, &view, &r);
	status = emit(g, &r);
	usb_uvc_result_release(&res);
	return status;
}

static int run_hid(struct global_opts *g, struct limits_args *a)
{
	struct usb_hid_params p = {
		.speed = a->speed,
		.report_length = (unsigned)a->report_length,
		.interval = (unsigned)a->interval,
		.max_packet = (unsigned)a->maxpacket,
		.mult = (unsigned)a->mult,
		.burst = a->burst > 0 ? (unsigned)a->burst : 0,
	};
	struct usb_calc_error err = USB_CALC_ERROR_INIT;
	struct usb_hid_result res;
	struct limits_hid_view view;
	struct report r = {.command = "limits hid"};
	int status;

	if (need_speed(a) < 0)
		return EXIT_USAGE;
	if (usb_hid_calc(&p, &res, &err) < 0) {
		status = refuse(a, &err);
		usb_calc_error_release(&err);
		return status;
	}
	limits_hid_describe(&res, &view, &r);
	status = emit(g, &r);
	usb_hid_result_release(&res);
	return status;
}

static int run_ncm(struct global_opts *g, struct limits_args *a)
{
	struct limits_ncm_view view;
	struct report r = {.command = "limits ncm"};

	limits_ncm_describe(a->speed, &view, &r);
	return emit(g, &r);
}

static int run_table(struct global_opts *g, struct limits_args *a)
{
	struct limits_table_view *view = malloc(sizeof(*view));
	struct report r = {.command = "limits"};
	int status;

	if (!view) {
		log_error("limits: out of memory");
		return EXIT_RUNTIME;
	}
	limits_table_describe(a->speed, view, &r);
	status = emit(g, &r);
	free(view);
	return status;
}

static const struct {
	const char *name, *full;
	unsigned allowed;
	int (*run)(struct global_opts *g, struct limits_args *a);
} subcommands[] = {
	{"uvc", "limits uvc",
	 BIT(LIMITS_O_SPEED) | BIT(LIMITS_O_MAXPACKET) | BIT(LIMITS_O_MULT) | BIT(LIMITS_O_BURST) | BIT(LIMITS_O_INTERVAL) |
		 BIT(LIMITS_O_SIZE) | BIT(LIMITS_O_PIXEL) | BIT(LIMITS_O_MJPEG_RATIO) | BIT(LIMITS_O_DEVICE) | BIT(LIMITS_O_SYSROOT) |
		 BIT(LIMITS_O_BULK) | BIT(LIMITS_O_MAXPAYLOAD),
	 run_uvc},
	{"hid", "limits hid",
	 BIT(LIMITS_O_SPEED) | BIT(LIMITS_O_REPORT_LENGTH) | BIT(LIMITS_O_INTERVAL) | BIT(LIMITS_O_MAXPACKET) | BIT(LIMITS_O_MULT) |
	     BIT(LIMITS_O_BURST),
	 run_hid},
	{"ncm", "limits ncm", BIT(LIMITS_O_SPEED), run_ncm},
};

void schema_limits(struct report *r)
{
	static struct limits_table_view table;
	static struct limits_ncm_view ncm;
	static struct usb_uvc_result uvc;
	static struct limits_uvc_view uv;
	static struct usb_hid_result hid;
	static struct limits_hid_view hv;
	static const struct uvc_view one = {.ncams = 1, .nstreaming = 1, .nmodes = 1};
	static const struct uvc_view two = {.ncams = 2, .nstreaming = 1, .nmodes = 1};

	/* limits; limits ncm; limits uvc (computed, or a camera's with --device); limits hid */
	limits_table_describe(USB_SPEED_UNKNOWN, &table, r);
	limits_ncm_describe(USB_SPEED_UNKNOWN, &ncm, r);
	limits_uvc_describe(&uvc, &uv, r);
	uvc_view_describe(&one, r);
	uvc_view_describe(&two, r);
	limits_hid_describe(&hid, &hv, r);
}

int cmd_limits(int argc, char **argv, struct global_opts *g)
{
	struct limits_args a = {
		.name = "limits",
		.allowed = BIT(LIMITS_O_SPEED),
		.burst = -1,
		.pixel = -1,
	};
	int (*run)(struct global_opts *, struct limits_args *) = run_table;
	size_t i;
	int r;

	for (i = 0; argc > 1 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		a.name = subcommands[i].full;
		a.allowed = subcommands[i].allowed;
		run = subcommands[i].run;
		argc--;
		argv++;
		break;
	}
	r = parse_args(argc, argv, g, &a);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	return run(g, &a);
}

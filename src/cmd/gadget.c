// SPDX-License-Identifier: MIT
/* usbperf gadget up|down|bind|status: compose a USB gadget in configfs, and take it apart. */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "classes/gadget/build.h"
#include "classes/gadget/endpoints.h"
#include "classes/gadget/spec.h"
#include "platform/sys/sysinfo.h"
#include "platform/usb/gadget.h"
#include "util/sysroot.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void usage_gadget(void)
{
	printf("usage: usbperf gadget up PROFILE[:key=value,...]... [options]\n"
	       "       usbperf gadget down [GADGET] [--force]\n"
	       "       usbperf gadget bind [GADGET] [--udc NAME]\n"
	       "       usbperf gadget status\n"
	       "\n"
	       "up composes one configuration of the given functions in configfs\n"
	       "(/sys/kernel/config/usb_gadget/usbperf), binds it to a UDC, prints what it\n"
	       "built and exits, with the endpoints each function's Linux 6.1 driver\n"
	       "declares at the gadget's speed (computed, not read from the bus).\n"
	       "Every path it creates is listed, in order, in\n"
	       "/run/usbperf/gadget-<name>.state; down removes exactly those, in reverse\n"
	       "(unbind first), and up removes them itself when a step fails. A gadget\n"
	       "usbperf did not make is left alone unless down is given --force.\n"
	       "status: the gadgets, configs, functions and LUNs (as sysinfo shows them),\n"
	       "the UDCs' state and speed, and which gadgets usbperf made.\n"
	       "\n"
	       "profiles, their keys (module):\n%s"
	       "  msc: file= a backing file or block device; the others 0/1. The USB host\n"
	       "       writes a LUN unless ro=1: read-write needs --destructive, and a\n"
	       "       block device must pass disk's write rules (not the disk of '/',\n"
	       "       nothing on it mounted, swap, held or open elsewhere).\n"
	       "  hid: preset= keyboard (default), mouse, vendor64, vendor512, vendor1024, or\n"
	       "       report_desc=FILE with report_length=N; protocol, subclass override;\n"
	       "       no_out_endpoint=1: host reports by SET_REPORT; interval= bInterval\n"
	       "       at every speed (Linux 6.16 and later).\n"
	       "  uvc: one YUYV format; frames=WxH[+WxH...] (640x360), fps= (30).\n"
	       "  uvc-bulk: usbperf's own UVC camera, a bulk video endpoint, as a gadgetfs\n"
	       "       device (FunctionFS refuses UVC's class descriptors); given alone.\n"
	       "       frames=WxH[+...] (640x360), fps=N[+...] (30), formats=yuyv[+mjpg],\n"
	       "       maxpayload= (32K), stream_frames=N (then idle until the next commit),\n"
	       "       stall_ms= (2000: a write the host leaves that long ends a stream);\n"
	       "       its descriptors fit gadgetfs's 256 B. up mounts gadgetfs on /dev/gadget,\n"
	       "       starts usbperf itself as the camera (video -h, the device side), waits\n"
	       "       for the bind; figures and log in /run/usbperf/uvc-GADGET.{json,log}.\n"
	       "  ffs: name= (usbperf), dir= mount point (/dev/usb-ffs/NAME), a new directory\n"
	       "       up makes (an existing one is refused); the gadget\n"
	       "       stays unbound until the userspace function writes its descriptors,\n"
	       "       then 'usbperf gadget bind'.\n"
	       "  mtp: umtprd (package umtp-responder) serves an ffs function named name=\n"
	       "       (mtp): up writes its configuration and log in /run/usbperf, starts it,\n"
	       "       waits for its descriptors and binds; storage= a directory to share\n"
	       "       (default /run/usbperf/mtp-GADGET-NAME, removed by down when empty);\n"
	       "       rd_buffer=, wr_buffer= (multiples of 512, 64K), cache= (a power of\n"
	       "       two above rd_buffer, 1M): umtprd's buffer sizes, K/M = 1024-based.\n"
	       "       down stops umtprd (SIGTERM, then SIGKILL) before the rest.\n"
	       "  A key not given keeps the kernel's default. Example:\n"
	       "    usbperf gadget up msc:file=/tmp/disk.img,removable=1 ncm:qmult=10 "
	       "hid:preset=mouse --destructive\n"
	       "\n",
	       gadget_profiles_help());
	opt_usage(stdout, gadget_options);
	printf("\n"
	       "Exit: 0 ok, 2 bad input or refused (no UDC, configfs not mounted, a module\n"
	       "or attribute missing, a gadget not ours, a LUN the host may not write):\n"
	       "nothing is left in configfs,\n"
	       "3 a runtime error.\n");
}

struct gadget_args {
	struct gadget_spec spec;
	const char *sysroot;
	const char *udc;
	bool force;
	int err;
};

static int set_str(char **dst, const char *what, const char *v)
{
	if (!*v || strlen(v) > 126 || strchr(v, '\n')) {
		log_error("gadget: invalid %s '%s': 1 to 126 characters, one line", what, v);
		return -EINVAL;
	}
	free(*dst);
	*dst = strdup(v);
	return *dst ? 0 : -ENOMEM;
}

#include "cmd/gadget.opts.h"

static int gadget_opt(int c, const char *arg, void *ctx)
{
	struct gadget_args *a = ctx;
	char *why = NULL;
	int r = 0;

	switch (c) {
	case GADGET_O_UDC:
		a->udc = arg;
		return set_str(&a->spec.udc, "--udc", arg);
	case GADGET_O_SPEED:
		r = gadget_spec_set_speed(&a->spec, arg, &why);
		break;
	case GADGET_O_POWER:
		r = gadget_spec_set_max_power(&a->spec, arg, &why);
		break;
	case GADGET_O_ID:
		r = gadget_spec_set_id(&a->spec, arg, &why);
		break;
	case GADGET_O_MANUF:
		return set_str(&a->spec.manufacturer, "--manufacturer", arg);
	case GADGET_O_PRODUCT:
		return set_str(&a->spec.product, "--product", arg);
	case GADGET_O_SERIAL:
		return set_str(&a->spec.serial, "--serial", arg);
	case GADGET_O_NAME:
		r = gadget_spec_set_name(&a->spec, arg, &why);
		break;
	default:
		return -ENOENT;
	}
	if (r < 0)
		log_error("gadget: %s", why ? why : strerror(-r));
	free(why);
	return r;
}

/* refusals and bad input are 2 (and nothing was left behind); anything else 3 */
static int status_of(int r)
{
	switch (r) {
	case -EINVAL:
	case -ENOENT:
	case -ENODEV:
	case -EEXIST:
	case -EBUSY:
	case -EPERM:
	case -EACCES:
	case -E2BIG:
		return EXIT_USAGE;
	default:
		return EXIT_RUNTIME;
	}
}

static int fail(int r, char *why)
{
	log_error("gadget: %s", why ? why : strerror(-r));
	free(why);
	return status_of(r);
}

/* JSON: the report, each functions[i] given its endpoints[] */
static int endpoints_json(const struct gadget_built *b, struct strbuf *out)
{
	struct strbuf one = STRBUF_INIT;
	json_object *root = json_tokener_parse(out->buf), *fns;
	size_t i;
	int r = 0;

	if (!root || !json_object_object_get_ex(root, "functions", &fns) ||
	    json_object_array_length(fns) != b->nfns) {
		json_object_put(root);
		return -EINVAL;
	}
	for (i = 0; i < b->nfns && r == 0; i++) {
		struct report v = {.command = "gadget up"};
		json_object *o, *eps;

		gadget_eps_describe(&b->fns[i], &v);
		strbuf_reset(&one);
		r = render_json(&v, &one);
		o = r == 0 ? json_tokener_parse(one.buf) : NULL;
		if (!o || !json_object_object_get_ex(o, "endpoints", &eps))
			r = -EINVAL;
		else
			json_object_object_add(json_object_array_get_idx(fns, i), "endpoints",
					       json_object_get(eps));
		json_object_put(o);
	}
	if (r == 0) {
		strbuf_reset(out);
		strbuf_adds(out, json_object_to_json_string_ext(
				     root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					       JSON_C_TO_STRING_NOSLASHESCAPE));
		strbuf_addch(out, '\n');
	}
	json_object_put(root);
	strbuf_release(&one);
	return r;
}

static int do_up(struct gadget_args *a, int argc, char **argv, struct global_opts *g)
{
	struct report view = {.command = "gadget up"};
	struct strbuf out = STRBUF_INIT;
	struct gadget_built b = {0};
	char *why = NULL;
	int i, r, status;

	for (i = optind + 1; i < argc; i++) {
		r = gadget_spec_add(&a->spec, argv[i], &why);
		if (r < 0)
			return fail(r, why);
	}
	/* -o is not the backing of a LUN: the report would be the disk the host sees */
	for (size_t k = 0; k < a->spec.nfns; k++)
		if (check_output_target(g, gadget_fn_get(&a->spec.fns[k], "file"),
					"the backing of a mass-storage LUN") < 0)
			return EXIT_USAGE;
	r = gadget_up(&a->spec, &gadget_fs_real, &b, &why);
	if (r < 0)
		return fail(r, why);
	gadget_built_describe(&b, &view);
	r = render(&view, g->format, &out);
	if (r == 0 && g->format == FORMAT_TEXT)
		gadget_endpoints_text(&b, &out);
	else if (r == 0 && g->format == FORMAT_JSON)
		r = endpoints_json(&b, &out);
	if (r < 0)
		log_error("gadget: cannot render the result");
	status = r < 0 || emit_text(g, out.buf, out.len) < 0 ? EXIT_RUNTIME : EXIT_OK;
	strbuf_release(&out);
	gadget_built_release(&b);
	return status;
}

/* down's and bind's GADGET: a name usbperf gives its gadgets, nothing else (28.12, 28.14) */
static const char *operand_dir(struct gadget_args *a, int argc, char **argv)
{
	const char *dir;
	char *why = NULL;

	if (optind + 2 < argc) {
		log_error("gadget: one GADGET expected, got '%s' too", argv[optind + 2]);
		return NULL;
	}
	dir = optind + 1 < argc ? argv[optind + 1] : a->spec.dir;
	if (gadget_name_check(dir, &why) < 0) {
		log_error("gadget: %s", why);
		free(why);
		return NULL;
	}
	return dir;
}

/* down's and bind's result, through the field tables: escaped, in the envelope */
struct gadget_done {
	const char *gadget, *udc;
	int64_t paths;
};

#include "cmd/gadget.fields.h"

void schema_gadget(struct report *r)
{
	static const struct gadget_facts none;

	/* up; status; down; bind */
	gadget_built_schema(r);
	sysinfo_describe_gadgets(&none, r);
	gadget_owned_describe(NULL, 0, r);
	report_add_object(r, "down", NULL, &down_desc, NULL);
	report_add_object(r, "bind", NULL, &bind_desc, NULL);
}

static int do_down(struct gadget_args *a, int argc, char **argv, struct global_opts *g)
{
	const char *dir = operand_dir(a, argc, argv);
	struct strbuf out = STRBUF_INIT;
	int64_t n = 0;
	char *why = NULL;
	int r, status;

	if (!dir)
		return EXIT_USAGE;
	r = gadget_down(dir, a->force, &gadget_fs_real, &n, &why);
	if (r < 0)
		return fail(r, why);
	if (why)
		log_error("gadget: %s", why); /* a note: a storage directory kept */
	free(why);
	if (g->format == FORMAT_JSON) {
		const struct gadget_done done = {.gadget = dir, .paths = n};
		struct report rep = {.command = "gadget down"};

		report_add_object(&rep, "down", NULL, &down_desc, &done);
		strbuf_release(&out);
		return emit_report(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
	}
	strbuf_addf(&out, "gadget %s: removed (%lld paths)\n", dir, (long long)n);
	status = emit_text(g, out.buf, out.len) < 0 ? EXIT_RUNTIME : EXIT_OK;
	strbuf_release(&out);
	return status;
}

static int do_bind(struct gadget_args *a, int argc, char **argv, struct global_opts *g)
{
	const char *dir = operand_dir(a, argc, argv);
	struct strbuf out = STRBUF_INIT;
	char *why = NULL, *udc = NULL;
	int r, status;

	if (!dir)
		return EXIT_USAGE;
	r = gadget_bind(dir, a->udc, &gadget_fs_real, &udc, &why);
	if (r < 0) {
		free(udc);
		return fail(r, why);
	}
	if (g->format == FORMAT_JSON) {
		const struct gadget_done done = {.gadget = dir, .udc = udc, .paths = -1};
		struct report rep = {.command = "gadget bind"};

		report_add_object(&rep, "bind", NULL, &bind_desc, &done);
		status = emit_report(g, &rep) < 0 ? EXIT_RUNTIME : EXIT_OK;
		free(udc);
		strbuf_release(&out);
		return status;
	}
	strbuf_addf(&out, "gadget %s: bound to %s\n", dir, udc);
	free(udc);
	status = emit_text(g, out.buf, out.len) < 0 ? EXIT_RUNTIME : EXIT_OK;
	strbuf_release(&out);
	return status;
}

static int do_status(int argc, struct global_opts *g)
{
	struct report view = {.command = "gadget status"};
	struct gadget_facts facts;
	struct gadget_owned *own;
	size_t nown;
	int status;

	if (optind + 1 < argc) {
		log_error("gadget: status takes no operand");
		return EXIT_USAGE;
	}
	gadget_probe(&facts);
	gadget_owned_probe(&own, &nown);
	/* CSV renders the first table: the UDCs come in sysinfo's view after the gadgets */
	sysinfo_describe_gadgets(&facts, &view);
	gadget_owned_describe(own, nown, &view);
	status = emit_report(g, &view) < 0 ? EXIT_RUNTIME : EXIT_OK;
	gadget_owned_free(own, nown);
	gadget_facts_release(&facts);
	return status;
}

int cmd_gadget(int argc, char **argv, struct global_opts *g)
{
	struct gadget_args a = {0};
	const char *verb;
	int r, status = EXIT_USAGE;

	gadget_spec_init(&a.spec);
	r = parse_bound(argc, argv, g, "gadget", gadget_options, usage_gadget, gadget_binds,
			gadget_opt, &a);
	if (r != 0) {
		status = r > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind >= argc) {
		log_error("gadget: up, down, bind or status expected (see 'usbperf gadget -h')");
		goto out;
	}
	verb = argv[optind];
	if (strcmp(verb, "up") && strcmp(verb, "down") && strcmp(verb, "bind") &&
	    strcmp(verb, "status")) {
		log_error("gadget: unknown action '%s' (up, down, bind or status)", verb);
		goto out;
	}
	if (a.spec.destructive && strcmp(verb, "up")) {
		log_error("gadget: --destructive is for up (an msc LUN the host may write)");
		goto out;
	}
	if (check_output(g) < 0)
		goto out;
	if (a.sysroot && open_sysroot(a.sysroot) < 0)
		goto out;
	if (strcmp(verb, "status") && sysroot_is_snapshot()) {
		log_error("gadget: cannot %s a gadget in a snapshot '%s': a directory only", verb,
			  a.sysroot);
		goto out;
	}
	if (!strcmp(verb, "up"))
		status = do_up(&a, argc, argv, g);
	else if (!strcmp(verb, "down"))
		status = do_down(&a, argc, argv, g);
	else if (!strcmp(verb, "bind"))
		status = do_bind(&a, argc, argv, g);
	else
		status = do_status(argc, g);
out:
	gadget_spec_release(&a.spec);
	return status;
}

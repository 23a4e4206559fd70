// SPDX-License-Identifier: MIT
/* usbperf mtp [DEVICE]: file transfer rates through libmtp, each way, next to the link's ceiling.
 */
#include "cmd/commands.h"
#include "cmd/opt/tables.h"
#include "cmd/mtp.h"
#include "classes/mtp/sweep.h"
#include "classes/bulk/bulk.h"
#include "classes/mtp/fields.h"
#include "classes/mtp/mtp.h"
#include "util/parse.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SIZES "1M,16M,256M"
#define DEFAULT_OBJECTS 200u
#define DEFAULT_FOLDER "usbperf"

void usage_mtp(void)
{
	printf("usage: usbperf mtp [DEVICE] [options]\n"
	       "\n"
	       "File transfer rates through a real MTP stack (libmtp): for each size a generated\n"
	       "file is sent to the device and got back, the bytes back compared with the bytes\n"
	       "sent while they stream (nothing is written on the host), each way timed; then\n"
	       "--objects small files sent, listed and deleted (objects/s). Everything usbperf\n"
	       "creates on the device is deleted, also after an error (a failed send too) or\n"
	       "SIGINT/SIGTERM. Files go into --folder; when sending there fails in a way\n"
	       "another place may not, they go to the storage's root, then to a folder already\n"
	       "on the device, and a device whose handles cannot be read back after a send has\n"
	       "its objects found by name: the output says where and why (send_path). Storage\n"
	       "figures that cannot be true (free above capacity, capacity 0 or above 1 PiB)\n"
	       "are flagged as an ANOMALY, never printed as capacity and free space.\n"
	       "DEVICE is a sysfs name (1-1), a usbfs node (/dev/bus/usb/001/002) or VID:PID;\n"
	       "without it the first MTP device libmtp finds.\n"
	       "\n");
	opt_usage(stdout, mtp_options);
	printf("\n"
	       "Rates: MB/s = 10^6 B/s, next to the link's bulk ceiling per direction.\n"
	       "Exit: 0 ok, 1 the bytes back differ from the bytes sent, 2 bad input or refused\n"
	       "(no MTP device, locked or not allowed, read-only storage, not enough free space\n"
	       "for the sweep, or usbperf built without libmtp), 3 runtime error (partial\n"
	       "results; a device that disconnects), 128+N after signal N.\n");
}


int mtp_parse_buffers(const char *opt, const char *arg, uint64_t **ret, size_t *ret_n)
{
	char *why = NULL;
	int r = mtp_buffers_parse(opt, arg, ret, ret_n, &why);

	if (r < 0)
		log_error("%s", why);
	free(why);
	return r;
}

#include "cmd/mtp.opts.h"

static int mtp_opt(int c, const char *arg, void *ctx)
{
	struct mtp_opts *o = ctx;

	switch (c) {
	case MTP_O_SIZE:
		free(o->sizes);
		o->sizes = NULL;
		if (parse_size_list(arg, 1, MTP_MAX_SIZE, MTP_MAX_SIZES, &o->sizes, &o->nsizes) <
		    0) {
			log_error("invalid --size '%s': expected sizes 1..4G, e.g. 1M,16M", arg);
			return -EINVAL;
		}
		return 0;
	case MTP_O_REPEAT:
		if (parse_u64(arg, 1, MTP_MAX_REPEAT, &o->repeat) < 0) {
			log_error("invalid --repeat '%s': expected 1..%u", arg, MTP_MAX_REPEAT);
			return -EINVAL;
		}
		return 0;
	case MTP_O_OBJECTS:
		if (parse_u64(arg, 0, MTP_MAX_OBJECTS, &o->objects) < 0) {
			log_error("invalid --objects '%s': expected 0..%u", arg, MTP_MAX_OBJECTS);
			return -EINVAL;
		}
		return 0;
	case MTP_O_BUFFER_SWEEP:
		return mtp_parse_buffers("--buffer-sweep", arg, &o->buffers, &o->nbuffers);
	case MTP_O_FOLDER:
		if (!*arg || strchr(arg, '/') || strlen(arg) > 200 || !strcmp(arg, ".") ||
		    !strcmp(arg, "..")) {
			log_error("invalid --folder '%s': expected one folder name, no '/'", arg);
			return -EINVAL;
		}
		o->folder = arg;
		return 0;
	}
	return -ENOENT;
}

struct mtp_out {
	struct mtp_device_row dev;
	struct mtp_size_result *res;
	size_t nres;
	struct mtp_objects_result objects;
	bool have_objects;
	enum mtp_place place; /* where the files went (the row holds the rest) */
	bool place_proven;    /* a file went there whole */
	uint32_t storage_id;
	char **warnings;
	size_t nwarnings;
};

__attribute__((format(printf, 2, 3))) static void note(struct mtp_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warnings_vaddf(&out->warnings, &out->nwarnings, fmt, ap);
	va_end(ap);
}

/* what is on USB, for "no MTP device": "1-1 0525:a4a0 'lab hs', 2-1 ..." */
static void describe_usb(struct strbuf *sb)
{
	struct bulk_select any = {.vid = -1, .pid = -1};
	struct bulk_sysdev *v = NULL;
	size_t n = 0, shown = 0;

	if (bulk_find_devices(&any, &v, &n) < 0) {
		strbuf_adds(sb, "no USB device at all");
		return;
	}
	strbuf_adds(sb, "on USB: ");
	for (size_t i = 0; i < n; i++) {
		/* root hubs are the controllers, not devices */
		if (!strncmp(v[i].sysname, "usb", 3))
			continue;
		strbuf_addf(sb, "%s%s %04x:%04x", shown ? ", " : "", v[i].sysname, v[i].vid,
			    v[i].pid);
		if (v[i].product)
			strbuf_addf(sb, " '%s'", v[i].product);
		shown++;
	}
	if (!shown)
		strbuf_adds(sb, "root hubs only");
	bulk_sysdevs_free(v, n);
}

/* DEVICE (or none) to the MTP device libmtp sees, with sysfs's facts; an exit status */
static int pick_device(const struct mtp_opts *o, struct mtp_raw *ret_raw,
		       struct bulk_sysdev *ret_dev)
{
	struct bulk_select sel = {.name = o->device, .vid = -1, .pid = -1};
	struct bulk_sysdev *v = NULL;
	struct mtp_raw *raw = NULL;
	size_t n = 0, nraw = 0;
	char why[256] = "";
	int r, status = EXIT_USAGE;

	r = bulk_find_devices(&sel, &v, &n);
	if (r == -EINVAL) {
		log_error("mtp: invalid DEVICE '%s': expected a sysfs name (1-1), a usbfs node "
			  "(/dev/bus/usb/001/002) or VID:PID",
			  o->device);
		return EXIT_USAGE;
	}
	if (r == -ENODEV && o->device) {
		log_error("mtp: no such USB device '%s'", o->device);
		return EXIT_USAGE;
	}
	if (r < 0 && r != -ENODEV) {
		log_error("mtp: cannot list USB devices: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	r = mtp_detect(&raw, &nraw, why, sizeof(why));
	if (r == -ENODEV) {
		struct strbuf sb = STRBUF_INIT;

		describe_usb(&sb);
		log_error("mtp: no MTP device found (%s)", sb.buf);
		strbuf_release(&sb);
		goto out;
	}
	if (r < 0) {
		log_error("mtp: %s", r == -ENOMEM ? "out of memory" : why);
		status = EXIT_RUNTIME;
		goto out;
	}
	for (size_t k = 0; k < nraw; k++)
		for (size_t i = 0; i < n; i++)
			if (v[i].busnum == raw[k].busnum && v[i].devnum == raw[k].devnum) {
				*ret_raw = raw[k];
				*ret_dev = v[i];
				memset(&v[i], 0, sizeof(v[i]));
				status = EXIT_OK;
				goto out;
			}
	if (o->device)
		log_error("mtp: USB device '%s' (%04x:%04x) is not an MTP device libmtp knows",
			  v[0].sysname, v[0].vid, v[0].pid);
	else
		log_error("mtp: libmtp sees an MTP device on bus %u device %u that sysfs does not "
			  "show",
			  raw[0].busnum, raw[0].devnum);
out:
	free(raw);
	bulk_sysdevs_free(v, n);
	return status;
}

/* the free space a storage's figures vouch for; 0 when they vouch for none */
static uint64_t room_of(const struct mtp_storage *st)
{
	struct mtp_storage_judgement j;

	mtp_storage_judge(st->capacity, st->free_bytes, &j);
	return j.room == UINT64_MAX ? 0 : j.room;
}

/* --storage, or the writable storage with the most free space; NULL (logged) if none fits */
static const struct mtp_storage *pick_storage(const struct mtp_opts *o,
					      const struct mtp_devinfo *info, const char *name)
{
	const struct mtp_storage *best = NULL;

	if (o->storage) {
		uint64_t id = 0;
		bool by_id = parse_hex(o->storage, UINT32_MAX, &id) == 0;

		for (size_t i = 0; i < info->nstorages; i++) {
			const struct mtp_storage *st = &info->storages[i];

			if ((by_id && st->id == id) ||
			    (st->description && !strcmp(st->description, o->storage)))
				best = st;
		}
		if (!best) {
			log_error("mtp: device '%s' has no storage '%s'", name, o->storage);
			return NULL;
		}
		if (best->read_only) {
			log_error("mtp: storage '%s' of device '%s' is read-only", o->storage,
				  name);
			return NULL;
		}
		return best;
	}
	for (size_t i = 0; i < info->nstorages; i++) {
		const struct mtp_storage *st = &info->storages[i];

		if (!st->read_only && (!best || room_of(st) > room_of(best)))
			best = st;
	}
	if (!best)
		log_error("mtp: every storage of device '%s' is read-only ('%s' first)", name,
			  info->storages[0].description ? info->storages[0].description : "?");
	return best;
}

/* drv: the kernel driver on the interface before libmtp claimed it (NULL none); taken */
static void fill_device(struct mtp_out *out, const struct bulk_sysdev *d,
			const struct mtp_devinfo *info, const struct mtp_storage *st,
			const char *folder, char *drv)
{
	struct strbuf sb = STRBUF_INIT;

	out->dev.device = strdup(d->sysname);
	strbuf_addf(&sb, "%04x:%04x", d->vid, d->pid);
	out->dev.vid_pid = strbuf_detach(&sb);
	out->dev.manufacturer = info->manufacturer ? strdup(info->manufacturer) : NULL;
	out->dev.model = info->model ? strdup(info->model) : NULL;
	out->dev.serial = info->serial ? strdup(info->serial) : NULL;
	out->dev.version = info->version ? strdup(info->version) : NULL;
	out->dev.speed = usb_speed_name(d->speed);
	out->dev.driver = drv ? drv : strdup("none");
	out->dev.bulk_ceiling_mb_s = bulk_ceiling_mb_s(d->speed, BULK_DIR_IN);
	out->dev.storage = st->description ? strdup(st->description) : NULL;
	strbuf_addf(&sb, "0x%08x", st->id);
	out->dev.storage_id = strbuf_detach(&sb);
	mtp_device_row_storage(&out->dev, st->capacity, st->free_bytes);
	out->storage_id = st->id;
	out->dev.folder = strdup(folder);
}

/* the sweep and the objects; an exit status (partial results kept) */
static int measure(const struct mtp_opts *o, struct mtp_session *s, struct mtp_out *out)
{
	char why[256] = "";
	int r;

	for (size_t i = 0; i < o->nsizes; i++) {
		struct mtp_size_result *res = &out->res[out->nres++];

		res->bytes = o->sizes[i];
		for (uint64_t k = 0; k < o->repeat; k++) {
			if (signal_stop)
				return EXIT_RUNTIME;
			r = mtp_transfer(s, res, (uint32_t)(i * MTP_MAX_REPEAT + k + 1), why,
					 sizeof(why));
			mtp_size_finish(res);
			if (r == -EINTR)
				return EXIT_RUNTIME; /* run_command makes it 128+N */
			if (r == -EBADMSG) {
				char sz[32];

				format_size(res->bytes, sz, sizeof(sz));
				log_error("mtp: device '%s', a %s file: %s", out->dev.device, sz,
					  why);
				return EXIT_FAIL;
			}
			if (r < 0) {
				log_error("mtp: device '%s': %s", out->dev.device,
					  r == -ENOMEM ? "out of memory" : why);
				return EXIT_RUNTIME;
			}
		}
	}
	if (!o->objects)
		return EXIT_OK;
	out->objects.count = o->objects;
	out->objects.size = o->object_size;
	out->have_objects = true;
	if (signal_stop)
		return EXIT_RUNTIME;
	r = mtp_objects(s, &out->objects, why, sizeof(why));
	if (r == -EINTR)
		return EXIT_RUNTIME;
	if (r < 0) {
		log_error("mtp: device '%s', objects: %s", out->dev.device,
			  r == -ENOMEM ? "out of memory" : why);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static void out_release(struct mtp_out *out)
{
	mtp_device_row_release(&out->dev);
	free(out->res);
	for (size_t i = 0; i < out->nwarnings; i++)
		free(out->warnings[i]);
	free(out->warnings);
}

static int emit(struct global_opts *g, struct mtp_out *out, const struct bulk_sysdev *d)
{
	struct report rep = {.command = "mtp"};
	struct finding_list fl = FINDING_LIST_INIT;
	struct mtp_size_row *rows = calloc(out->nres ? out->nres : 1, sizeof(*rows));
	struct mtp_objects_row orow;
	struct mtp_analysis a = {
	    .device = d->sysname,
	    .speed = d->speed,
	    .ceiling_mb_s = out->dev.bulk_ceiling_mb_s,
	    .sizes = out->res,
	    .nsizes = out->nres,
	    .objects = out->have_objects ? &out->objects : NULL,
	};
	const struct mtp_path path = {
	    .place = out->place,
	    .folder = out->dev.send_folder,
	    .reread = out->dev.handles_reread,
	    .proven = out->place_proven,
	    .why = out->dev.send_path_why,
	};
	size_t nrows = 0;
	int r;

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < out->nres; i++)
		if (out->res[i].n &&
		    mtp_size_row_from(&out->res[i], out->dev.bulk_ceiling_mb_s, &rows[nrows]) == 0)
			nrows++;
	mtp_findings(&a, &fl);
	mtp_storage_findings(d->sysname, out->dev.storage, out->storage_id,
			     out->dev.reported_capacity, out->dev.reported_free, &fl);
	mtp_path_findings(d->sysname, out->dev.folder, &path, &fl);
	report_add_object(&rep, "device", NULL, &mtp_device_desc, &out->dev);
	report_add_table(&rep, "sizes", "files sent and got back (MB/s = 10^6 B/s)", &mtp_size_desc,
			 rows, nrows, sizeof(*rows));
	if (out->have_objects && out->objects.sent) {
		mtp_objects_row_from(&out->objects, &orow);
		report_add_table(&rep, "objects", "small objects", &mtp_objects_desc, &orow, 1,
				 sizeof(orow));
	}
	report_add_table(&rep, "findings", "Findings", &finding_desc, fl.v, fl.n,
			 sizeof(struct finding));
	rep.warnings = out->warnings;
	rep.nwarnings = out->nwarnings;
	r = emit_report(g, &rep);
	for (size_t i = 0; i < nrows; i++)
		mtp_size_row_release(&rows[i]);
	free(rows);
	finding_list_release(&fl);
	return r;
}

/* whether the test fits the storage, by what its figures vouch for; an exit status */
static int check_room(const struct mtp_opts *o, const struct mtp_storage *st, const char *name,
		      struct mtp_out *out)
{
	uint64_t need = mtp_space_needed(o->sizes, o->nsizes, o->objects, o->object_size);
	const char *desc = st->description ? st->description : "?";
	struct mtp_storage_judgement j;

	mtp_storage_judge(st->capacity, st->free_bytes, &j);
	if (j.room == UINT64_MAX) {
		note(out,
		     "storage '%s' reports no free space usbperf can believe: whether the test "
		     "fits was not checked",
		     desc);
		return EXIT_OK;
	}
	if (j.room >= need)
		return EXIT_OK;
	if (j.anomaly)
		log_error(
		    "mtp: storage '%s' of device '%s' holds at most %llu MiB (its free-space "
		    "figure cannot be true), the test needs %llu MiB (its largest file or its "
		    "objects, plus 1 MiB); ask for smaller --size",
		    desc, name, (unsigned long long)(j.room >> 20),
		    (unsigned long long)((need + (1 << 20) - 1) >> 20));
	else
		log_error("mtp: storage '%s' of device '%s' has %llu MiB free, the test needs %llu "
			  "MiB (its largest file or its objects, plus 1 MiB): it would fill the "
			  "device; free space or ask for smaller --size",
			  desc, name, (unsigned long long)(j.room >> 20),
			  (unsigned long long)((need + (1 << 20) - 1) >> 20));
	return EXIT_USAGE;
}

/* where the files went, into the row, said in a warning when it was not the folder */
static void record_path(struct mtp_session *s, struct mtp_out *out)
{
	struct mtp_path p;

	mtp_send_path(s, &p);
	out->place = p.place;
	out->place_proven = p.proven;
	if (mtp_device_row_path(&out->dev, &p) < 0)
		return;
	if (p.place != MTP_PLACE_FOLDER && !p.proven)
		note(out,
		     "no place took a file: after the folder '%s' (%s), usbperf tried the "
		     "storage's root%s%s%s",
		     out->dev.folder, p.why ? p.why : "?",
		     p.place == MTP_PLACE_EXISTING ? " and the folder '" : "",
		     p.place == MTP_PLACE_EXISTING && p.folder ? p.folder : "",
		     p.place == MTP_PLACE_EXISTING ? "' already on the device" : "");
	else if (p.place == MTP_PLACE_ROOT)
		note(out,
		     "the folder '%s' did not take the files (%s): they went to the storage's "
		     "root instead, and were deleted from there",
		     out->dev.folder, p.why ? p.why : "?");
	else if (p.place == MTP_PLACE_EXISTING)
		note(out,
		     "the folder '%s' and the storage's root did not take the files (%s): they "
		     "went to the folder '%s' already on the device, and were deleted from there",
		     out->dev.folder, p.why ? p.why : "?", p.folder ? p.folder : "?");
	if (p.reread)
		note(out, "the device gave handles it could not read back after a send: usbperf "
			  "found each object by its name (send times include libmtp's failed "
			  "read-back)");
}

/*
 * One device measured into out (its facts, the sizes, the objects), dev its
 * sysfs facts; everything made on it deleted. An exit status; out holds
 * what was measured (release it with out_release).
 */
static int measure_device(const struct mtp_opts *o, struct bulk_sysdev *dev, struct mtp_out *out)
{
	struct mtp_raw raw;
	struct mtp_devinfo info = {0};
	struct mtp_session *s = NULL;
	const struct mtp_storage *st;
	char why[256] = "";
	bool created = false;
	unsigned left;
	char *drv = NULL;
	int status, r;

	status = pick_device(o, &raw, dev);
	if (status != EXIT_OK)
		return status;
	/* read before libmtp claims the interface (sysfs then says usbfs) */
	drv = bulk_iface_driver(dev, 0);
	r = mtp_open(&raw, &s, &info, why, sizeof(why));
	if (r < 0) {
		log_error("mtp: device '%s' (%04x:%04x): %s", dev->sysname, dev->vid, dev->pid,
			  r == -ENOMEM ? "out of memory" : why);
		status = r == -EACCES ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_dev;
	}
	st = pick_storage(o, &info, dev->sysname);
	if (!st) {
		status = EXIT_USAGE;
		goto out_close;
	}
	status = check_room(o, st, dev->sysname, out);
	if (status != EXIT_OK)
		goto out_close;
	out->res = calloc(o->nsizes, sizeof(*out->res));
	if (!out->res) {
		log_error("mtp: out of memory");
		status = EXIT_RUNTIME;
		goto out_close;
	}
	fill_device(out, dev, &info, st, o->folder, drv);
	drv = NULL;
	r = mtp_use_folder(s, st->id, o->folder, &created, why, sizeof(why));
	if (r < 0) {
		log_error("mtp: device '%s', folder '%s': %s", dev->sysname, o->folder, why);
		status = EXIT_RUNTIME;
		goto out_close;
	}
	out->dev.folder_created = created;
	status = measure(o, s, out);
	record_path(s, out);
	left = mtp_cleanup(s);
	out->dev.left_on_device = left;
	if (left) {
		note(
		    out,
		    "%u object%s usbperf made could not be deleted from the device (folder '%s'%s)",
		    left, left == 1 ? "" : "s", o->folder,
		    out->place == MTP_PLACE_FOLDER ? "" : ", and where the files went");
		if (status == EXIT_OK) {
			log_error("mtp: device '%s': %u object%s left on the device", dev->sysname,
				  left, left == 1 ? "" : "s");
			status = EXIT_RUNTIME;
		}
	}
out_close:
	mtp_close(s);
	mtp_devinfo_release(&info);
out_dev:
	free(drv);
	return status;
}

static int run_mtp(struct mtp_opts *o, struct global_opts *g)
{
	struct bulk_sysdev dev = {0};
	struct mtp_out out = {.place = MTP_PLACE_NONE};
	int status;

	status = measure_device(o, &dev, &out);
	if (out.dev.device && emit(g, &out, &dev) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	out_release(&out);
	bulk_sysdev_release(&dev);
	return status;
}

void schema_mtp(struct report *r)
{
	/* the sizes each way, or --buffer-sweep's table */
	report_add_object(r, "device", NULL, &mtp_device_desc, NULL);
	report_add_table(r, "sizes", NULL, &mtp_size_desc, NULL, 0, 0);
	report_add_table(r, "objects", NULL, &mtp_objects_desc, NULL, 0, 0);
	report_add_table(r, "buffer_sweep", NULL, &mtp_sweep_desc, NULL, 0, 0);
	report_add_table(r, "findings", NULL, &finding_desc, NULL, 0, 0);
}

int cmd_mtp(int argc, char **argv, struct global_opts *g)
{
	struct mtp_opts o = {
	    .repeat = 1,
	    .objects = DEFAULT_OBJECTS,
	    .object_size = MTP_DEFAULT_OBJECT_SIZE,
	    .folder = DEFAULT_FOLDER,
	};
	int r, status = EXIT_USAGE;

	r = parse_bound(argc, argv, g, "mtp", mtp_options, usage_mtp, mtp_binds, mtp_opt, &o);
	if (r != 0) {
		status = r > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (optind < argc)
		o.device = argv[optind++];
	if (optind < argc) {
		log_error("mtp: unexpected argument '%s' (one DEVICE at a time)", argv[optind]);
		goto out;
	}
	if (!mtp_available()) {
		log_error("mtp: usbperf was built without libmtp (meson -Dmtp=enabled, with "
			  "libmtp-dev installed)");
		goto out;
	}
	if (!o.sizes && parse_size_list(DEFAULT_SIZES, 1, MTP_MAX_SIZE, MTP_MAX_SIZES, &o.sizes,
					&o.nsizes) < 0) {
		log_error("mtp: out of memory");
		status = EXIT_RUNTIME;
		goto out;
	}
	if (o.buffers && o.device) {
		log_error("mtp: --buffer-sweep measures the MTP gadget it builds on this machine, "
			  "not DEVICE '%s'",
			  o.device);
		goto out;
	}
	if (check_output_target(g, o.device, "the device being measured") < 0)
		goto out;
	status = o.buffers ? mtp_run_sweep(&o, g) : run_mtp(&o, g);
out:
	free_all(o.sizes, o.buffers);
	return status;
}

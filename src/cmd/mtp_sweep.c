// SPDX-License-Identifier: MIT
/*
 * usbperf mtp --buffer-sweep LIST: on a machine that is both sides of the
 * link, usbperf's own MTP gadget (gadget up mtp, umtprd) is brought up with
 * each read/write buffer size in turn, measured from the host side by a
 * fresh usbperf process, and taken down again: the rate against the
 * device's buffers, the tuning the vendor guides describe.
 */
#include "cmd/mtp.h"
#include "core/bulk/bulk.h"
#include "core/gadget/build.h"
#include "core/mtp/fields.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SWEEP_NAME "mtpsweep" /* gadget usbperf-mtpsweep: apart from one the user put up */
#define SWEEP_SERIAL "usbperf-mtp-sweep"
#define SWEEP_WAIT_MS 10000

/* umtprd reads files through a cache larger than its read buffer: 1M, or twice the buffer */
static uint64_t sweep_cache(uint64_t buffer)
{
	uint64_t c = 1u << 20;

	while (c <= buffer)
		c <<= 1;
	return c;
}

/*
 * The host side's device of the sweep gadget, by its serial in sysfs. Each
 * size is measured by a fresh usbperf process: libusb (under libmtp) keeps
 * the device list it read at start when no udev daemon tells it of new
 * devices, so this process's libmtp would never see the gadget just made.
 */
static int sweep_wait_device(char **ret_sysname)
{
	for (int ms = 0; ms < SWEEP_WAIT_MS && !signal_stop; ms += 100) {
		struct bulk_select any = {.vid = -1, .pid = -1};
		struct bulk_sysdev *v = NULL;
		size_t n = 0;

		if (bulk_find_devices(&any, &v, &n) == 0)
			for (size_t i = 0; i < n && !*ret_sysname; i++) {
				struct strbuf p = STRBUF_INIT, val = STRBUF_INIT;

				strbuf_addf(&p, "/sys/bus/usb/devices/%s/serial", v[i].sysname);
				if (sysroot_read_attr(p.buf, &val) == 0 &&
				    !strcmp(val.buf, SWEEP_SERIAL))
					*ret_sysname = strdup(v[i].sysname);
				strbuf_release(&p);
				strbuf_release(&val);
			}
		bulk_sysdevs_free(v, n);
		if (*ret_sysname)
			return 0;
		usleep(100 * 1000);
	}
	return signal_stop ? -EINTR : -ETIMEDOUT;
}

/* usbperf mtp DEVICE --size ... -F json in a child; its JSON into out; its exit status */
static int sweep_measure(const struct mtp_opts *o, const char *device, struct strbuf *out)
{
	struct strbuf sizes = STRBUF_INIT, rep = STRBUF_INIT;
	int pfd[2], st = 0, status = EXIT_RUNTIME;
	pid_t pid;

	for (size_t i = 0; i < o->nsizes; i++)
		strbuf_addf(&sizes, "%s%llu", i ? "," : "", (unsigned long long)o->sizes[i]);
	strbuf_addf(&rep, "%llu", (unsigned long long)o->repeat);
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		log_error("mtp: --buffer-sweep: pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		log_error("mtp: --buffer-sweep: fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		goto out;
	}
	if (pid == 0) {
		char *argv[] = {"usbperf",
				"mtp",
				(char *)device,
				"--size",
				sizes.buf,
				"--repeat",
				rep.buf,
				"--objects",
				"0",
				"--folder",
				(char *)o->folder,
				"-F",
				"json",
				"-q",
				NULL,
				NULL,
				NULL};

		if (o->storage) {
			argv[13] = "--storage";
			argv[14] = (char *)o->storage;
		}
		if (dup2(pfd[1], STDOUT_FILENO) < 0)
			_exit(EXIT_RUNTIME);
		execv("/proc/self/exe", argv);
		_exit(EXIT_RUNTIME);
	}
	close(pfd[1]);
	if (read_fd_all(pfd[0], 16u << 20, out) < 0)
		strbuf_reset(out);
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
out:
	strbuf_release(&sizes);
	strbuf_release(&rep);
	return status;
}

/* up with buffers of b; its exit status */
static int sweep_up(uint64_t b)
{
	struct gadget_spec spec;
	struct gadget_built built = {0};
	struct strbuf arg = STRBUF_INIT;
	char *why = NULL;
	int r;

	gadget_spec_init(&spec);
	/* its own FunctionFS instance name: instance names are one namespace for the machine */
	strbuf_addf(&arg, "mtp:name=" SWEEP_NAME ",rd_buffer=%llu,wr_buffer=%llu,cache=%llu",
		    (unsigned long long)b, (unsigned long long)b,
		    (unsigned long long)sweep_cache(b));
	r = gadget_spec_set_name(&spec, SWEEP_NAME, &why);
	if (r == 0) {
		free(spec.serial);
		spec.serial = strdup(SWEEP_SERIAL);
		r = spec.serial ? gadget_spec_add(&spec, arg.buf, &why) : -ENOMEM;
	}
	if (r == 0)
		r = gadget_up(&spec, &gadget_fs_real, &built, &why);
	if (r < 0)
		log_error("mtp: --buffer-sweep: gadget up %s: %s", arg.buf,
			  why ? why : strerror(-r));
	free(why);
	gadget_built_release(&built);
	gadget_spec_release(&spec);
	strbuf_release(&arg);
	if (r == 0)
		return EXIT_OK;
	/* no UDC, a module missing, one already there: refused, as gadget up refuses */
	return r == -EEXIST || r == -ENODEV || r == -ENOENT || r == -EBUSY ? EXIT_USAGE
									   : EXIT_RUNTIME;
}

static int sweep_down(void)
{
	int64_t n = 0;
	char *why = NULL;
	int r = gadget_down("usbperf-" SWEEP_NAME, false, &gadget_fs_real, &n, &why);

	if (r < 0)
		log_error("mtp: --buffer-sweep: gadget down usbperf-" SWEEP_NAME ": %s",
			  why ? why : strerror(-r));
	free(why);
	return r;
}

static double jdbl(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return NAN;
	return json_object_get_double(v);
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static char *jdup(struct json_object *o, const char *key)
{
	const char *s = jstr(o, key);

	return s ? strdup(s) : NULL;
}

/* one child's JSON: its sizes into rows (buffer b), its device into dev if not yet set */
static int sweep_take(const char *json, uint64_t b, struct mtp_sweep_row **rows, size_t *nrows,
		      struct mtp_device_row *dev, char **speed)
{
	struct json_object *root = json_tokener_parse(json), *sizes, *d;

	if (!root)
		return -EINVAL;
	if (json_object_object_get_ex(root, "device", &d) && !dev->device) {
		dev->device = jdup(d, "device");
		dev->vid_pid = jdup(d, "vid_pid");
		dev->manufacturer = jdup(d, "manufacturer");
		dev->model = jdup(d, "model");
		dev->serial = jdup(d, "serial");
		dev->version = jdup(d, "version");
		*speed = jdup(d, "speed");
		dev->speed = *speed;
		dev->driver = jdup(d, "driver");
		dev->bulk_ceiling_mb_s = jdbl(d, "bulk_ceiling_mb_s");
		dev->storage = jdup(d, "storage");
		dev->storage_id = jdup(d, "storage_id");
		dev->folder = jdup(d, "folder");
		dev->capacity = dev->free_bytes = U64_UNKNOWN;
	}
	if (json_object_object_get_ex(root, "device", &d) && isfinite(jdbl(d, "left_on_device")))
		dev->left_on_device += (uint64_t)jdbl(d, "left_on_device");
	if (json_object_object_get_ex(root, "sizes", &sizes) &&
	    json_object_is_type(sizes, json_type_array))
		for (size_t i = 0; i < json_object_array_length(sizes); i++) {
			struct json_object *e = json_object_array_get_idx(sizes, i);
			struct mtp_sweep_row *nv = realloc(*rows, (*nrows + 1) * sizeof(**rows));
			struct json_object *ver;

			if (!nv)
				break;
			*rows = nv;
			nv[*nrows] = (struct mtp_sweep_row){
			    .buffer = b,
			    .cache = sweep_cache(b),
			    .pass = jdup(e, "pass"),
			    .repeats =
				isfinite(jdbl(e, "repeats")) ? (uint64_t)jdbl(e, "repeats") : 0,
			    .send_mb_s = jdbl(e, "send_mb_s"),
			    .send_sd = jdbl(e, "send_mb_s_stdev"),
			    .get_mb_s = jdbl(e, "get_mb_s"),
			    .get_sd = jdbl(e, "get_mb_s_stdev"),
			    .ceiling_mb_s = jdbl(e, "ceiling_mb_s"),
			    .verified = json_object_object_get_ex(e, "verified", &ver) &&
					json_object_get_boolean(ver),
			};
			(*nrows)++;
		}
	json_object_put(root);
	return 0;
}

int mtp_run_sweep(struct mtp_opts *o, struct global_opts *g)
{
	struct report rep = {.command = "mtp"};
	struct mtp_sweep_row *rows = NULL;
	struct mtp_device_row dev = {0};
	struct finding_list fl = FINDING_LIST_INIT;
	char *speed = NULL;
	size_t nrows = 0;
	int status = EXIT_OK, r;

	for (size_t b = 0; b < o->nbuffers && status == EXIT_OK && !signal_stop; b++) {
		struct strbuf json = STRBUF_INIT;
		char *sysname = NULL;

		status = sweep_up(o->buffers[b]);
		if (status != EXIT_OK)
			break;
		r = sweep_wait_device(&sysname);
		if (r < 0) {
			if (r != -EINTR)
				log_error("mtp: --buffer-sweep: the gadget's MTP device did not "
					  "appear on the host side within %d s",
					  SWEEP_WAIT_MS / 1000);
			status = EXIT_RUNTIME;
		} else {
			status = sweep_measure(o, sysname, &json);
			if (json.len &&
			    sweep_take(json.buf, o->buffers[b], &rows, &nrows, &dev, &speed) < 0 &&
			    status == EXIT_OK)
				status = EXIT_RUNTIME;
		}
		/* down also after a failure or a signal: nothing of the sweep stays */
		if (sweep_down() < 0 && status == EXIT_OK)
			status = EXIT_RUNTIME;
		free(sysname);
		strbuf_release(&json);
	}
	if (dev.device)
		report_add_object(&rep, "device", NULL, &mtp_device_desc, &dev);
	report_add_table(&rep, "buffer_sweep",
			 "umtprd's read/write buffers against the rate (MB/s = 10^6 B/s)",
			 &mtp_sweep_desc, rows, nrows, sizeof(*rows));
	mtp_sweep_findings(rows, nrows, dev.device ? dev.device : "mtp", &fl);
	report_add_table(&rep, "findings", "Findings", &finding_desc, fl.v, fl.n,
			 sizeof(struct finding));
	if ((nrows || dev.device) && emit_report(g, &rep) < 0 && status == EXIT_OK)
		status = EXIT_RUNTIME;
	for (size_t i = 0; i < nrows; i++)
		free(rows[i].pass);
	free(rows);
	finding_list_release(&fl);
	dev.speed = NULL;
	mtp_device_row_release(&dev);
	free(speed);
	return status;
}

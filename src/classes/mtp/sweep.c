// SPDX-License-Identifier: MIT
/* The device buffers' sweep: see sweep.h. */
#include "classes/mtp/sweep.h"
#include "classes/bulk/bulk.h"
#include "classes/gadget/build.h"
#include "util/parse.h"
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

uint64_t mtp_sweep_cache(uint64_t buffer)
{
	uint64_t c = 1u << 20;

	while (c <= buffer)
		c <<= 1;
	return c;
}

/* the host side's device of the sweep gadget, by its serial in sysfs */
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

/* usbperf mtp DEVICE --size ... -F json in a child: its JSON into out; its exit status */
static int sweep_measure(const struct mtp_sweep_plan *p, const char *device, struct strbuf *out,
			 char **ret_why)
{
	struct strbuf sizes = STRBUF_INIT, rep = STRBUF_INIT;
	int pfd[2], st = 0, status = -1;
	pid_t pid;

	for (size_t i = 0; i < p->nsizes; i++)
		strbuf_addf(&sizes, "%s%llu", i ? "," : "", (unsigned long long)p->sizes[i]);
	strbuf_addf(&rep, "%llu", (unsigned long long)p->repeat);
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		reason_set(0, ret_why, "pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		reason_set(0, ret_why, "fork: %s", strerror(errno));
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
				(char *)p->folder,
				"-F",
				"json",
				"-q",
				NULL,
				NULL,
				NULL};

		if (p->storage) {
			argv[14] = "--storage";
			argv[15] = (char *)p->storage;
		}
		if (dup2(pfd[1], STDOUT_FILENO) < 0)
			_exit(3);
		execv("/proc/self/exe", argv);
		_exit(3);
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

/* up with buffers of b */
static int sweep_up(uint64_t b, char **ret_why)
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
		    (unsigned long long)mtp_sweep_cache(b));
	r = gadget_spec_set_name(&spec, SWEEP_NAME, &why);
	if (r == 0) {
		free(spec.serial);
		spec.serial = strdup(SWEEP_SERIAL);
		r = spec.serial ? gadget_spec_add(&spec, arg.buf, &why) : -ENOMEM;
	}
	if (r == 0)
		r = gadget_up(&spec, &gadget_fs_real, &built, &why);
	if (r < 0)
		reason_set(r, ret_why, "gadget up %s: %s", arg.buf, why ? why : strerror(-r));
	free(why);
	gadget_built_release(&built);
	gadget_spec_release(&spec);
	strbuf_release(&arg);
	return r;
}

static int sweep_down(char **ret_why)
{
	int64_t n = 0;
	char *why = NULL;
	int r = gadget_down(MTP_SWEEP_GADGET, false, &gadget_fs_real, &n, &why);

	if (r < 0 && !*ret_why)
		reason_set(r, ret_why, "gadget down " MTP_SWEEP_GADGET ": %s", why ? why : strerror(-r));
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

static char *jdup(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return strdup(json_object_get_string(v));
}

int mtp_sweep_take(const char *json, uint64_t b, struct mtp_sweep_result *res)
{
	struct json_object *root = json_tokener_parse(json), *sizes, *d;
	struct mtp_device_row *dev = &res->dev;

	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return -EINVAL;
	}
	if (json_object_object_get_ex(root, "device", &d) && !dev->device) {
		dev->device = jdup(d, "device");
		dev->vid_pid = jdup(d, "vid_pid");
		dev->manufacturer = jdup(d, "manufacturer");
		dev->model = jdup(d, "model");
		dev->serial = jdup(d, "serial");
		dev->version = jdup(d, "version");
		res->speed = jdup(d, "speed");
		dev->speed = res->speed;
		dev->driver = jdup(d, "driver");
		dev->bulk_ceiling_mb_s = jdbl(d, "bulk_ceiling_mb_s");
		dev->storage = jdup(d, "storage");
		dev->storage_id = jdup(d, "storage_id");
		dev->folder = jdup(d, "folder");
		dev->capacity = dev->free_bytes = U64_UNKNOWN;
	}
	if (json_object_object_get_ex(root, "device", &d) && isfinite(jdbl(d, "left_on_device")) &&
	    jdbl(d, "left_on_device") >= 0)
		dev->left_on_device += (uint64_t)jdbl(d, "left_on_device");
	if (json_object_object_get_ex(root, "sizes", &sizes) &&
	    json_object_is_type(sizes, json_type_array))
		for (size_t i = 0; i < json_object_array_length(sizes); i++) {
			struct json_object *e = json_object_array_get_idx(sizes, i);
			struct mtp_sweep_row *nv =
			    realloc(res->rows, (res->nrows + 1) * sizeof(*res->rows));
			struct json_object *ver;
			double rep = jdbl(e, "repeats");

			if (!nv)
				break;
			res->rows = nv;
			nv[res->nrows] = (struct mtp_sweep_row){
			    .buffer = b,
			    .cache = mtp_sweep_cache(b),
			    .pass = jdup(e, "name"),
			    .repeats = isfinite(rep) && rep >= 0 ? (uint64_t)rep : 0,
			    .send_mb_s = jdbl(e, "send_mb_s"),
			    .send_sd = jdbl(e, "send_mb_s_stdev"),
			    .get_mb_s = jdbl(e, "get_mb_s"),
			    .get_sd = jdbl(e, "get_mb_s_stdev"),
			    .ceiling_mb_s = jdbl(e, "ceiling_mb_s"),
			    .verified = json_object_object_get_ex(e, "verified", &ver) &&
					json_object_get_boolean(ver),
			};
			res->nrows++;
		}
	json_object_put(root);
	return 0;
}

int mtp_sweep_one(const struct mtp_sweep_plan *p, uint64_t buffer, struct mtp_sweep_result *res,
		  char **ret_why)
{
	struct strbuf json = STRBUF_INIT;
	char *sysname = NULL;
	int r, status;

	*ret_why = NULL;
	r = sweep_up(buffer, ret_why);
	if (r < 0)
		return r;
	r = sweep_wait_device(&sysname);
	if (r == -ETIMEDOUT)
		reason_set(r, ret_why, "the gadget's MTP device did not appear on the host side within %d s",
			   SWEEP_WAIT_MS / 1000);
	if (r == 0) {
		status = sweep_measure(p, sysname, &json, ret_why);
		if (json.len && mtp_sweep_take(json.buf, buffer, res) < 0 && status == 0)
			status = 3;
		r = status == 0			  ? 0
		    : status == 2		  ? -EINVAL
		    : status > 128 || signal_stop ? -EINTR
						  : -EIO;
		if (r < 0 && !*ret_why && r != -EINTR)
			reason_set(r, ret_why, "usbperf mtp %s for buffers of it: exit status %d", sysname,
				   status == 2 ? 2 : 3);
	}
	/* down also after a failure or a signal: nothing of the sweep stays */
	if (sweep_down(ret_why) < 0 && r == 0)
		r = -EIO;
	free(sysname);
	strbuf_release(&json);
	return r;
}

void mtp_sweep_result_release(struct mtp_sweep_result *res)
{
	for (size_t i = 0; i < res->nrows; i++)
		free(res->rows[i].pass);
	free(res->rows);
	res->dev.speed = NULL;
	mtp_device_row_release(&res->dev);
	free(res->speed);
	memset(res, 0, sizeof(*res));
}

int mtp_buffers_parse(const char *opt, const char *arg, uint64_t **ret, size_t *ret_n,
		      char **ret_why)
{
	struct strbuf why = STRBUF_INIT;

	free(*ret);
	*ret = NULL;
	*ret_n = 0;
	/* umtprd: multiples of 512 (its packet size); 16M, its key's limit in gadget up */
	if (parse_size_list(arg, 512, 16u << 20, MTP_MAX_SIZES, ret, ret_n) < 0) {
		strbuf_addf(&why, "invalid %s '%s': expected sizes 512..16M, e.g. 16K,64K,256K",
			    opt, arg);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}
	for (size_t i = 0; i < *ret_n; i++)
		if ((*ret)[i] % 512) {
			strbuf_addf(&why,
				    "invalid %s '%s': %llu is not a multiple of 512 B (umtprd's "
				    "packet size)",
				    opt, arg, (unsigned long long)(*ret)[i]);
			free(*ret);
			*ret = NULL;
			*ret_n = 0;
			*ret_why = strbuf_detach(&why);
			return -EINVAL;
		}
	return 0;
}

// SPDX-License-Identifier: MIT
/* gadget up uvc-bulk: gadgetfs mounted, usbperf's camera daemon started (see gadget_up.h). */
#include "classes/uvcgadget/gadget_up.h"
#include "classes/gadget/endpoints.h"
#include "classes/gadget/spec.h"
#include "classes/gadget/state.h"
#include "platform/sys/attr.h"
#include "platform/usb/gadget.h"
#include "platform/usb/limits.h"
#include "classes/uvcgadget/uvcg.h"
#include "model/field.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int uvcg_spec_check(const struct gadget_fn_spec *f, char **ret_why)
{
	struct uvcg_params p;
	size_t i;
	int r = 0;

	uvcg_params_default(&p);
	for (i = 0; r == 0 && i < f->nkv; i++)
		r = uvcg_params_set(&p, f->kv[i].key, f->kv[i].value, ret_why);
	if (r == 0)
		r = uvcg_params_check(&p, ret_why);
	return r == -E2BIG ? -EINVAL : r;
}

void uvcg_stats_path(struct strbuf *out, const char *dir)
{
	strbuf_addf(out, GADGET_STATE_DIR "/uvc-%s.json", dir);
}

/* the spec's keys as the daemon's --spec */
static void spec_string(const struct gadget_fn_spec *f, struct strbuf *out)
{
	struct uvcg_params p;
	char *why = NULL;
	size_t i;

	/* checked when the spec was parsed: no error here */
	uvcg_params_default(&p);
	for (i = 0; i < f->nkv; i++)
		uvcg_params_set(&p, f->kv[i].key, f->kv[i].value, &why);
	free(why);
	uvcg_params_str(&p, out);
}

struct up {
	const struct gadget_spec *s;
	const struct gadget_fs *fs;
	struct gadget_state st;
	char **why;
	int pid;
	char exe[4096];
	struct strbuf stats, log, spec;
};

static int step(struct up *u, const char *kind, const char *path)
{
	int r = gadget_state_add(&u->st, kind, path);

	if (r < 0)
		reason_set(r, u->why, "cannot record '%s' in the state file: %s", path,
			   strerror(-r));
	return r;
}

static int mount_gadgetfs(struct up *u)
{
	int r;

	if (!sysroot_exists(UVCG_MOUNT)) {
		r = u->fs->mkdir(UVCG_MOUNT);
		if (r < 0)
			return reason_set(r, u->why, "uvc-bulk: cannot create '%s': %s", UVCG_MOUNT,
					  strerror(-r));
		r = step(u, "mntdir", UVCG_MOUNT);
		if (r < 0)
			return r;
	}
	r = u->fs->mount_gadgetfs ? u->fs->mount_gadgetfs(UVCG_MOUNT) : -ENOTSUP;
	if (r == -ENODEV)
		return reason_set(-ENOENT, u->why,
				  "uvc-bulk: gadgetfs is not available: load module gadgetfs "
				  "(modprobe gadgetfs)");
	if (r == -EBUSY || r == -ESRCH)
		return reason_set(-EBUSY, u->why,
				  "uvc-bulk: gadgetfs is in use (one instance per system: "
				  "mounted elsewhere, or no UDC free)");
	if (r < 0)
		return reason_set(r, u->why, "uvc-bulk: cannot mount gadgetfs on '%s': %s",
				  UVCG_MOUNT, strerror(-r));
	return step(u, "mount", UVCG_MOUNT);
}

/* the log, created new; the figures file and its aside name, recorded for down */
static int files(struct up *u, int *ret_log)
{
	struct strbuf aside = STRBUF_INIT, real = STRBUF_INIT;
	int fd, r;

	uvcg_stats_path(&u->stats, u->s->dir);
	strbuf_addf(&aside, "%s.new", u->stats.buf);
	strbuf_addf(&u->log, GADGET_STATE_DIR "/uvc-%s.log", u->s->dir);
	r = step(u, "file", u->stats.buf);
	if (r == 0)
		r = step(u, "file", aside.buf);
	if (r == 0)
		r = step(u, "file", u->log.buf);
	if (r == 0) {
		sysroot_path(&real, u->log.buf);
		fd = open(real.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			r = reason_set(-errno, u->why, "uvc-bulk: cannot create '%s': %s",
				       u->log.buf, strerror(errno));
		else
			*ret_log = fd;
	}
	strbuf_release(&aside);
	strbuf_release(&real);
	return r;
}

static int start_daemon(struct up *u, int log_fd)
{
	const struct gadget_spec *s = u->s;
	struct strbuf real_stats = STRBUF_INIT, real_mnt = STRBUF_INIT, id = STRBUF_INIT,
		      pidexe = STRBUF_INIT;
	ssize_t n = readlink("/proc/self/exe", u->exe, sizeof(u->exe) - 1);
	int r;

	if (n <= 0)
		return reason_set(-errno, u->why, "cannot read /proc/self/exe: %s",
				  strerror(errno));
	u->exe[n] = '\0';
	sysroot_path(&real_stats, u->stats.buf);
	sysroot_path(&real_mnt, UVCG_MOUNT);
	strbuf_addf(&id, "%04x:%04x", s->vid, s->pid);
	{
		const char *speed = s->max_speed && !strcmp(s->max_speed, "full-speed") ? "full"
											 : "high";
		char *argv[] = {u->exe,
				"video",
				"--gadget",
				real_mnt.buf,
				"--send",
				"--spec",
				u->spec.buf,
				"--stats",
				real_stats.buf,
				"--id",
				id.buf,
				"--serial",
				s->serial ? s->serial : s->dir,
				"--product",
				s->product ? s->product : "usbperf UVC camera (bulk)",
				"--manufacturer",
				s->manufacturer ? s->manufacturer : "usbperf",
				"--max-speed",
				(char *)speed,
				NULL};

		r = u->fs->spawn ? u->fs->spawn(argv, log_fd, &u->pid) : -ENOTSUP;
	}
	if (r < 0) {
		reason_set(r, u->why, "uvc-bulk: cannot start '%s': %s", u->exe, strerror(-r));
	} else {
		strbuf_addf(&pidexe, "%d %s", u->pid, u->exe);
		r = step(u, "proc", pidexe.buf);
		if (r < 0)
			u->fs->stop(u->pid, u->exe);
	}
	strbuf_release(&real_stats);
	strbuf_release(&real_mnt);
	strbuf_release(&id);
	strbuf_release(&pidexe);
	return r;
}

/* the daemon's figures say bound, or it exited (its last log line says why) */
static int wait_bound(struct up *u)
{
	struct strbuf data = STRBUF_INIT;
	int ms, r = -ETIMEDOUT;

	for (ms = 0; ms <= UVCG_READY_MS; ms += 20) {
		strbuf_reset(&data);
		if (sysroot_read(u->stats.buf, 1 << 20, &data) == 0 &&
		    !strstr(data.buf, "\"state\": \"waiting\"") && strstr(data.buf, "\"state\"")) {
			r = strstr(data.buf, "\"state\": \"failed\"") ? -EIO : 0;
			break;
		}
		if (!u->fs->running(u->pid, u->exe)) {
			r = -EIO;
			break;
		}
		struct timespec t = {0, 20000000};
		nanosleep(&t, NULL);
	}
	if (r < 0) {
		struct strbuf log = STRBUF_INIT;
		char *nl;

		sysroot_read(u->log.buf, 1 << 16, &log);
		while (log.len && log.buf[log.len - 1] == '\n')
			log.buf[--log.len] = '\0';
		nl = strrchr(log.buf, '\n');
		reason_set(r == -ETIMEDOUT ? r : -EBUSY, u->why,
			   "uvc-bulk: the camera daemon %s: %s (log '%s')",
			   r == -ETIMEDOUT ? "bound no UDC within 10 s" : "could not start",
			   log.len ? (nl ? nl + 1 : log.buf) : "no output", u->log.buf);
		strbuf_release(&log);
		r = r == -ETIMEDOUT ? r : -EBUSY;
	}
	strbuf_release(&data);
	return r;
}

/* the UDC gadgetfs took: the one whose driver is "USB Gadget filesystem" */
static char *gadgetfs_udc(void)
{
	struct gadget_facts g;
	char *r = NULL;
	size_t i;

	gadget_probe(&g);
	for (i = 0; i < g.nudcs && !r; i++)
		if (g.udcs[i].function && strstr(g.udcs[i].function, "Gadget filesystem"))
			r = xstrdup(g.udcs[i].name);
	gadget_facts_release(&g);
	return r;
}

static void describe(struct up *u, struct gadget_built *b)
{
	struct gadget_built_fn *fn;
	struct gadget_ep *ep;
	bool full = u->s->max_speed && !strcmp(u->s->max_speed, "full-speed");
	enum usb_speed sp = full ? USB_SPEED_FULL : USB_SPEED_HIGH;
	struct strbuf set = STRBUF_INIT;

	b->gadget = xstrdup(u->s->dir);
	b->state_file = xstrdup(u->st.file);
	b->npaths = (int64_t)u->st.n;
	b->udc = gadgetfs_udc();
	if (b->udc) {
		b->udc_state = attr_strf_nonempty(UDC_CLASS "/%s/state", b->udc);
		b->udc_speed = attr_strf_nonempty(UDC_CLASS "/%s/current_speed", b->udc);
	}
	b->max_speed = xstrdup(full ? "full-speed" : "high-speed");
	b->max_power_ma = u->s->max_power_ma;
	b->ep_speed = xstrdup(usb_speed_label(sp));
	b->fns = xgrow(NULL, &b->nfns, sizeof(*b->fns));
	fn = &b->fns[0];
	fn->function = xstrdup("gadgetfs");
	fn->profile = xstrdup("uvc-bulk");
	strbuf_addf(&set, "%s mount=%s stats=%s log=%s", u->spec.buf, UVCG_MOUNT, u->stats.buf,
		    u->log.buf);
	fn->settings = strbuf_detach(&set);
	fn->daemon_pid = u->pid;
	fn->rd_buffer = fn->wr_buffer = fn->cache = U64_UNKNOWN;
	fn->ep_source = "usbperf (gadgetfs)";
	fn->eps = xgrow(NULL, &fn->neps, sizeof(*fn->eps));
	ep = &fn->eps[0];
	*ep = (struct gadget_ep){.iface = "video streaming", .type = "bulk", .dir = "in",
				 .max_packet = full ? 64 : 512, .mult = 1, .interval_us = NAN};
	ep->ceiling_Bps = usb_bulk_payload_Bps(sp);
	ep->ceiling_mb_s = ep->ceiling_Bps / 1e6;
	ep->ceiling_basis = xstrdup("one bulk endpoint at the speed (usbperf limits)");
}

int uvcg_gadget_up(const struct gadget_spec *s, const struct gadget_fs *fs,
		   struct gadget_built *ret, char **ret_why)
{
	struct up u = {.s = s, .fs = fs, .st = {.fd = -1}, .why = ret_why,
		       .stats = STRBUF_INIT, .log = STRBUF_INIT, .spec = STRBUF_INIT};
	struct strbuf sp = STRBUF_INIT;
	struct gadget_built b = {0};
	int r, log_fd = -1;

	if (s->nfns != 1)
		return reason_set(-EINVAL, ret_why,
				  "uvc-bulk is a device of its own (gadgetfs, not configfs): give "
				  "it alone");
	if (s->udc)
		return reason_set(-EINVAL, ret_why,
				  "uvc-bulk: gadgetfs binds the first free UDC: --udc cannot be "
				  "given");
	if (s->max_speed && strcmp(s->max_speed, "full-speed") && strcmp(s->max_speed, "high-speed"))
		return reason_set(-EINVAL, ret_why,
				  "uvc-bulk: gadgetfs describes full and high speed only");
	gadget_state_path(&sp, s->dir);
	if (sysroot_exists(sp.buf)) {
		strbuf_release(&sp);
		return reason_set(-EEXIST, ret_why, "gadget '%s' is up ('usbperf gadget down%s%s' "
				  "first)", s->dir, strcmp(s->dir, GADGET_PREFIX) ? " " : "",
				  strcmp(s->dir, GADGET_PREFIX) ? s->dir : "");
	}
	strbuf_release(&sp);
	spec_string(&s->fns[0], &u.spec);
	r = gadget_state_create(&u.st, s->dir);
	if (r < 0) {
		reason_set(r, ret_why, "cannot create the state file of '%s': %s", s->dir,
			   strerror(-r));
		goto out;
	}
	r = mount_gadgetfs(&u);
	if (r == 0)
		r = files(&u, &log_fd);
	if (r == 0)
		r = start_daemon(&u, log_fd);
	if (log_fd >= 0)
		close(log_fd);
	if (r == 0)
		r = wait_bound(&u);
	if (r < 0) {
		char *why2 = NULL;

		gadget_state_undo(&u.st, fs, NULL, &why2);
		free(why2);
		goto out;
	}
	describe(&u, &b);
	*ret = b;
out:
	gadget_state_release(&u.st);
	strbuf_release(&u.stats);
	strbuf_release(&u.log);
	strbuf_release(&u.spec);
	return r;
}

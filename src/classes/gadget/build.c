// SPDX-License-Identifier: MIT
/* usbperf gadget up, down and bind: the configfs builder (see build.h). */
#include "classes/gadget/endpoints.h"
#include "classes/gadget/mtp.h"
#include "classes/gadget/spec.h"
#include "classes/gadget/state.h"
#include "classes/uvcgadget/gadget_up.h"
#include "platform/sys/attr.h"
#include "platform/usb/gadget.h"
#include "model/field.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_DESC_MAX 4096 /* f_hid takes at most a page */

struct ctx {
	const struct gadget_spec *s;
	const struct gadget_fs *fs;
	struct gadget_state st;
	struct strbuf g;   /* GADGET_CONFIGFS/<dir> */
	struct strbuf fn;  /* the function being built */
	struct strbuf set; /* its settings, for the report */
	char **why;
};

static int mk(struct ctx *c, const char *path)
{
	int r = c->fs->mkdir(path);

	if (r < 0)
		return reason_set(r, c->why, "cannot create '%s': %s", path, strerror(-r));
	return gadget_state_add(&c->st, "dir", path);
}

static int lnk(struct ctx *c, const char *target, const char *path)
{
	int r = c->fs->symlink(target, path);

	if (r < 0)
		return reason_set(r, c->why, "cannot link '%s' to '%s': %s", path, target,
				  strerror(-r));
	return gadget_state_add(&c->st, "link", path);
}

static const char *kernel_release(struct strbuf *sb)
{
	if (sysroot_read_attr("/proc/sys/kernel/osrelease", sb) < 0 || !sb->len)
		strbuf_adds(sb, "unknown");
	return sb->buf;
}

/*
 * Attributes usbperf writes that not every kernel since 4.x has, with the
 * first mainline release that has them. hid interval: absent from 6.1.y's
 * f_hid.c; commit ea34925f5b2e went into usb-next on 2025-05-04, during the
 * 6.15 release candidates, so into the 6.16 merge window. (no_out_endpoint is out:
 * stable took it back into 4.x and 5.x kernels, so no one release says it.)
 */
static const struct {
	const char *type; /* the function type, the directory name before '.' */
	const char *attr;
	const char *since;
} attr_since[] = {
    /* f_hid: "usb: gadget: hid: allow dynamic interval configuration via configfs" */
    {"hid", "interval", "6.16"},
};

/* the release that added attr to dir's function type, NULL when not in the table */
static const char *attr_added_in(const char *dir, const char *attr)
{
	const char *base = strrchr(dir, '/'), *dot;
	size_t i;

	base = base ? base + 1 : dir;
	dot = strchr(base, '.');
	for (i = 0; dot && i < sizeof(attr_since) / sizeof(attr_since[0]); i++)
		if (strlen(attr_since[i].type) == (size_t)(dot - base) &&
		    !strncmp(base, attr_since[i].type, (size_t)(dot - base)) &&
		    !strcmp(attr, attr_since[i].attr))
			return attr_since[i].since;
	return NULL;
}

/* write dir/attr; a missing attribute is named with the kernel that lacks it */
static int put(struct ctx *c, const char *dir, const char *attr, const void *buf, size_t len)
{
	struct strbuf p = STRBUF_INIT, k = STRBUF_INIT;
	const char *since;
	int r;

	strbuf_addf(&p, "%s/%s", dir, attr);
	r = c->fs->write(p.buf, buf, len);
	since = r == -ENOENT ? attr_added_in(dir, attr) : NULL;
	if (since)
		reason_set(r, c->why,
			   "this kernel (%s) has no attribute '%s' in '%s' (added in Linux %s)",
			   kernel_release(&k), attr, dir, since);
	else if (r == -ENOENT)
		reason_set(r, c->why, "this kernel (%s) has no attribute '%s' in '%s'",
			   kernel_release(&k), attr, dir);
	else if (r < 0)
		reason_set(r, c->why, "cannot write '%s': %s", p.buf, strerror(-r));
	strbuf_release(&p);
	strbuf_release(&k);
	return r;
}

static int puts_(struct ctx *c, const char *dir, const char *attr, const char *val)
{
	return put(c, dir, attr, val, strlen(val));
}

__attribute__((format(printf, 4, 5))) static int putf(struct ctx *c, const char *dir,
						      const char *attr, const char *fmt, ...)
{
	struct strbuf v = STRBUF_INIT;
	va_list ap;
	int r;

	va_start(ap, fmt);
	strbuf_vaddf(&v, fmt, ap);
	va_end(ap);
	r = put(c, dir, attr, v.buf, v.len);
	strbuf_release(&v);
	return r;
}

/* an msc LUN's medium: f_mass_storage opens it as ro says then, and refuses ro after (EBUSY) */
static bool is_medium(const char *attr)
{
	size_t n = strlen(attr);

	return n >= 5 && !strcmp(attr + n - 5, "/file");
}

/* every key of the profile with an attribute, in table order, the medium last */
static int put_plain(struct ctx *c, const struct gadget_fn_spec *f)
{
	const struct gadget_profile *p = f->profile;
	size_t i;
	int r;

	for (i = 0; i < 2 * p->nkeys; i++) {
		const struct gadget_key *k = &p->keys[i % p->nkeys];
		const char *v = gadget_fn_get(f, k->key);

		if (!v || !k->attr || is_medium(k->attr) != (i >= p->nkeys))
			continue;
		r = puts_(c, c->fn.buf, k->attr, v);
		if (r < 0)
			return r;
	}
	for (i = 0; i < p->nkeys; i++) {
		const char *v = gadget_fn_get(f, p->keys[i].key);

		if (v && p->keys[i].attr)
			strbuf_addf(&c->set, "%s%s=%s", c->set.len ? " " : "", p->keys[i].key, v);
	}
	return 0;
}

static int build_hid(struct ctx *c, const struct gadget_fn_spec *f)
{
	const char *preset = gadget_fn_get(f, "preset"), *file = gadget_fn_get(f, "report_desc");
	unsigned len_def = 0, proto = 0, sub = 0;
	struct strbuf desc = STRBUF_INIT;
	const uint8_t *d = NULL;
	size_t dlen = 0;
	int r;

	if (preset && file)
		return reason_set(-EINVAL, c->why, "hid: preset and report_desc both given");
	if (!file) {
		if (!preset)
			preset = "keyboard";
		d = hid_preset(preset, &dlen, &len_def, &proto, &sub);
		if (!d)
			return reason_set(-EINVAL, c->why,
					  "hid: unknown preset '%s' (keyboard, mouse, vendor64, "
					  "vendor512, vendor1024)",
					  preset);
	} else {
		int fd;

		/* the user's file, outside the sysroot */
		r = 0;
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (r = read_fd_all(fd, REPORT_DESC_MAX, &desc)) < 0 || !desc.len) {
			if (fd >= 0)
				close(fd);
			r = fd < 0 ? -errno : r;
			strbuf_release(&desc);
			return reason_set(-EINVAL, c->why, "hid: report_desc '%s': %s", file,
					  r < 0 ? strerror(-r) : "empty");
		}
		close(fd);
		d = (const uint8_t *)desc.buf;
		dlen = desc.len;
	}
	/* the preset's defaults, each overridable */
	if (gadget_fn_get(f, "protocol"))
		r = puts_(c, c->fn.buf, "protocol", gadget_fn_get(f, "protocol"));
	else
		r = putf(c, c->fn.buf, "protocol", "%u", proto);
	if (r == 0 && gadget_fn_get(f, "subclass"))
		r = puts_(c, c->fn.buf, "subclass", gadget_fn_get(f, "subclass"));
	else if (r == 0)
		r = putf(c, c->fn.buf, "subclass", "%u", sub);
	if (r == 0) {
		const char *rl = gadget_fn_get(f, "report_length");

		if (!rl && !len_def)
			r = reason_set(-EINVAL, c->why,
				       "hid: report_length is needed with a report_desc file");
		else if (rl)
			r = puts_(c, c->fn.buf, "report_length", rl);
		else
			r = putf(c, c->fn.buf, "report_length", "%u", len_def);
	}
	/* newer attributes: written only when asked for, so older kernels still work */
	if (r == 0 && gadget_fn_get(f, "no_out_endpoint"))
		r = puts_(c, c->fn.buf, "no_out_endpoint", gadget_fn_get(f, "no_out_endpoint"));
	if (r == 0 && gadget_fn_get(f, "interval"))
		r = puts_(c, c->fn.buf, "interval", gadget_fn_get(f, "interval"));
	if (r == 0)
		r = put(c, c->fn.buf, "report_desc", d, dlen);
	if (r == 0) {
		/* as the kernel shows them */
		char *v;

		v = attr_strf("%s/protocol", c->fn.buf);
		strbuf_addf(&c->set, "protocol=%s", v ? v : "?");
		free(v);
		v = attr_strf("%s/subclass", c->fn.buf);
		strbuf_addf(&c->set, " subclass=%s", v ? v : "?");
		free(v);
		v = attr_strf("%s/report_length", c->fn.buf);
		strbuf_addf(&c->set, " report_length=%s", v ? v : "?");
		free(v);
		strbuf_addf(&c->set, " report_desc=%s(%zu B)", file ? file : preset, dlen);
		if (gadget_fn_get(f, "no_out_endpoint"))
			strbuf_addf(&c->set, " no_out_endpoint=%s",
				    gadget_fn_get(f, "no_out_endpoint"));
		if (gadget_fn_get(f, "interval"))
			strbuf_addf(&c->set, " interval=%s", gadget_fn_get(f, "interval"));
	}
	strbuf_release(&desc);
	return r;
}

/* one uncompressed YUYV format with its frames, linked for every speed */
static int build_uvc(struct ctx *c, const struct gadget_fn_spec *f)
{
	const char *frames = gadget_fn_get(f, "frames") ?: "640x360";
	const char *fps = gadget_fn_get(f, "fps") ?: "30";
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT, one = STRBUF_INIT;
	static const char *const ctl_cls[] = {"fs", "ss"}, *const str_cls[] = {"fs", "hs", "ss"};
	const char *fn = c->fn.buf, *s;
	unsigned long interval;
	uint64_t rate = 30;
	size_t i;
	int r;

	/* checked by the parser: 1..240 frames per second; the interval in 100 ns units */
	parse_u64(fps, 1, 240, &rate);
	interval = 10000000UL / (unsigned long)rate;

	r = put_plain(c, f);
#define PATH(...) (strbuf_reset(&p), strbuf_addf(&p, __VA_ARGS__), p.buf)
	if (r == 0)
		r = mk(c, PATH("%s/control/header/h", fn));
	for (i = 0; r == 0 && i < 2; i++) {
		strbuf_reset(&t);
		strbuf_addf(&t, "%s/control/header/h", fn);
		r = lnk(c, t.buf, PATH("%s/control/class/%s/h", fn, ctl_cls[i]));
	}
	if (r == 0)
		r = mk(c, PATH("%s/streaming/uncompressed/u", fn));
	for (s = frames; r == 0 && *s;) {
		size_t n = strcspn(s, "+");
		uint64_t w = 0, h = 0;

		strbuf_reset(&one);
		strbuf_add(&one, s, n);
		parse_wxh(one.buf, 8192, &w, &h);
		r = mk(c, PATH("%s/streaming/uncompressed/u/%llup%llu", fn, (unsigned long long)h,
			       (unsigned long long)w));
		strbuf_reset(&t);
		strbuf_adds(&t, p.buf);
		if (r == 0)
			r = putf(c, t.buf, "wWidth", "%llu", (unsigned long long)w);
		if (r == 0)
			r = putf(c, t.buf, "wHeight", "%llu", (unsigned long long)h);
		if (r == 0)
			r = putf(c, t.buf, "dwMaxVideoFrameBufferSize", "%llu",
				 (unsigned long long)(w * h * 2));
		if (r == 0)
			r = putf(c, t.buf, "dwDefaultFrameInterval", "%lu", interval);
		if (r == 0)
			r = putf(c, t.buf, "dwFrameInterval", "%lu\n", interval);
		if (r == 0)
			r = putf(c, t.buf, "dwMinBitRate", "%llu",
				 (unsigned long long)(w * h * 16 * 10000000ULL / interval));
		if (r == 0)
			r = putf(c, t.buf, "dwMaxBitRate", "%llu",
				 (unsigned long long)(w * h * 16 * 10000000ULL / interval));
		s += n;
		if (*s == '+')
			s++;
	}
	if (r == 0)
		r = mk(c, PATH("%s/streaming/header/h", fn));
	if (r == 0) {
		strbuf_reset(&t);
		strbuf_addf(&t, "%s/streaming/uncompressed/u", fn);
		r = lnk(c, t.buf, PATH("%s/streaming/header/h/u", fn));
	}
	for (i = 0; r == 0 && i < 3; i++) {
		strbuf_reset(&t);
		strbuf_addf(&t, "%s/streaming/header/h", fn);
		r = lnk(c, t.buf, PATH("%s/streaming/class/%s/h", fn, str_cls[i]));
	}
#undef PATH
	if (r == 0)
		strbuf_addf(&c->set, "%sformat=YUYV frames=%s fps=%s", c->set.len ? " " : "",
			    frames, fps);
	strbuf_release(&p);
	strbuf_release(&t);
	strbuf_release(&one);
	return r;
}

static int build_ffs(struct ctx *c, const struct gadget_fn_spec *f)
{
	const char *dir = gadget_fn_get(f, "dir");
	struct strbuf d = STRBUF_INIT;
	int r = 0;

	if (dir)
		strbuf_adds(&d, dir);
	else
		strbuf_addf(&d, "/dev/usb-ffs/%s", f->instance);
	/* the mount point and its missing parents, each logged: down removes just those */
	for (char *e = d.buf + 1; r == 0; e++) {
		char ch;

		e = strchrnul(e, '/');
		ch = *e;
		*e = '\0';
		if (!sysroot_exists(d.buf)) {
			r = c->fs->mkdir(d.buf);
			if (r < 0)
				r = reason_set(r, c->why, "ffs: cannot create '%s': %s", d.buf,
					       strerror(-r));
			else
				r = gadget_state_add(&c->st, "mntdir", d.buf);
		}
		*e = ch;
		if (!ch)
			break;
	}
	if (r < 0)
		goto out;
	r = c->fs->mount_ffs(f->instance, d.buf);
	if (r < 0) {
		r = reason_set(r, c->why, "ffs: cannot mount functionfs '%s' on '%s': %s",
			       f->instance, d.buf, strerror(-r));
		goto out;
	}
	r = gadget_state_add(&c->st, "mount", d.buf);
	strbuf_addf(&c->set, "name=%s dir=%s", f->instance, d.buf);
out:
	strbuf_release(&d);
	return r;
}

static int build_function(struct ctx *c, const struct gadget_fn_spec *f, struct gadget_built *b)
{
	const struct gadget_profile *p = f->profile;
	struct gadget_mtp_started mtp = {0};
	struct gadget_built_fn *out;
	int r;

	strbuf_reset(&c->fn);
	strbuf_addf(&c->fn, "%s/functions/%s.%s", c->g.buf, p->type, f->instance);
	strbuf_reset(&c->set);
	r = c->fs->mkdir(c->fn.buf);
	if (r == -ENOENT)
		return reason_set(r, c->why,
				  "function '%s' is not available: load module %s (modprobe %s)",
				  p->type, p->module, p->module);
	if (r < 0)
		return reason_set(r, c->why, "cannot create '%s': %s", c->fn.buf, strerror(-r));
	r = gadget_state_add(&c->st, "dir", c->fn.buf);
	if (r < 0)
		return r;
	if (!strcmp(p->name, "hid"))
		r = build_hid(c, f);
	else if (!strcmp(p->name, "uvc"))
		r = build_uvc(c, f);
	else if (!strcmp(p->name, "ffs"))
		r = build_ffs(c, f);
	else if (!strcmp(p->name, "mtp")) {
		struct strbuf mnt = STRBUF_INIT;

		/* umtprd on the functionfs mount, before the bind that needs its descriptors */
		strbuf_addf(&mnt, "/dev/usb-ffs/%s", f->instance);
		r = build_ffs(c, f);
		if (r == 0)
			r = gadget_mtp_start(&c->st, c->fs, c->s, f, mnt.buf, &mtp, &c->set,
					     c->why);
		strbuf_release(&mnt);
	} else
		r = put_plain(c, f);
	if (r < 0)
		return r;
	b->fns = xgrow(b->fns, &b->nfns, sizeof(*b->fns));
	out = &b->fns[b->nfns - 1];
	out->daemon_pid = mtp.pid ? mtp.pid : FIELD_INT_UNKNOWN;
	out->rd_buffer = mtp.pid ? mtp.rd_buffer : U64_UNKNOWN;
	out->wr_buffer = mtp.pid ? mtp.wr_buffer : U64_UNKNOWN;
	out->cache = mtp.pid ? mtp.cache : U64_UNKNOWN;
	out->function = xstrdup(strrchr(c->fn.buf, '/') + 1);
	out->profile = xstrdup(p->name);
	out->settings = c->set.len ? xstrdup(c->set.buf) : NULL;
	return 0;
}

static int check_configfs(char **why)
{
	struct name_list l = NAME_LIST_INIT;
	int r;

	if (sysroot_exists(GADGET_CONFIGFS))
		return 0;
	r = sysroot_list("/sys/kernel/config", &l);
	if (r < 0 || !l.n)
		r = reason_set(-ENODEV, why,
			       "configfs is not mounted on '/sys/kernel/config': mount -t configfs "
			       "none /sys/kernel/config");
	else
		r = reason_set(-ENODEV, why,
			       "no usb_gadget in configfs: load module libcomposite (modprobe "
			       "libcomposite)");
	name_list_release(&l);
	return r;
}

/* the UDC asked for, or the first one no gadget is bound to */
static int pick_udc(const char *want, char **ret, char **why)
{
	struct gadget_facts g;
	size_t i;
	int r = -ENODEV;

	gadget_probe(&g);
	if (!g.nudcs) {
		r = reason_set(-ENODEV, why,
			       "no USB device controller in " UDC_CLASS
			       " (load the UDC driver; dummy_hcd for a software one)");
		goto out;
	}
	for (i = 0; i < g.nudcs; i++) {
		const struct udc_info *u = &g.udcs[i];
		bool busy = gadget_on_udc(&g, u->name) || u->function;

		if (want && strcmp(want, u->name))
			continue;
		if (busy && want) {
			r = reason_set(-EBUSY, why, "UDC '%s' is in use by '%s'", want,
				       u->function ? u->function : gadget_on_udc(&g, want)->name);
			goto out;
		}
		if (!busy) {
			*ret = xstrdup(u->name);
			r = 0;
			goto out;
		}
	}
	if (want)
		r = reason_set(-ENODEV, why, "no UDC '%s' in " UDC_CLASS, want);
	else
		r = reason_set(-EBUSY, why, "every UDC in " UDC_CLASS " has a gadget bound");
out:
	gadget_facts_release(&g);
	return r;
}

static int bind_udc(struct ctx *c, const char *udc)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/UDC", c->g.buf);
	/* logged first: a bind that half-happened is undone too */
	r = gadget_state_add(&c->st, "bind", p.buf);
	if (r == 0)
		r = puts_(c, c->g.buf, "UDC", udc);
	/* the functions bind now: one that gets no endpoint fails the whole gadget */
	if (r < 0 && r != -ENOENT)
		reason_set(r, c->why,
			   "the kernel refused to bind '%s' to UDC '%s': %s (a function found no "
			   "endpoint or resource on this UDC: the kernel log names it)",
			   c->s->dir, udc, strerror(-r));
	strbuf_release(&p);
	return r;
}

/*
 * --max-speed, else high speed for a gadget with an mtp function: umtprd
 * writes SuperSpeed descriptors only when built with CONFIG_USB_SS_SUPPORT,
 * and Debian's 1.3.10 wrote none in the lab (the host read "no
 * configurations" at 5 Gb/s); --max-speed super asks for it anyway
 */
static const char *gadget_max_speed(const struct gadget_spec *s)
{
	size_t i;

	if (s->max_speed)
		return s->max_speed;
	for (i = 0; i < s->nfns; i++)
		if (!strcmp(s->fns[i].profile->name, "mtp"))
			return "high-speed";
	return NULL;
}

static int build_device(struct ctx *c)
{
	const struct gadget_spec *s = c->s;
	struct strbuf p = STRBUF_INIT, label = STRBUF_INIT;
	size_t i;
	int r;

	r = mk(c, c->g.buf);
	if (r == 0)
		r = putf(c, c->g.buf, "idVendor", "0x%04x", s->vid);
	if (r == 0)
		r = putf(c, c->g.buf, "idProduct", "0x%04x", s->pid);
	if (r == 0 && gadget_max_speed(s))
		r = puts_(c, c->g.buf, "max_speed", gadget_max_speed(s));
	strbuf_addf(&p, "%s/strings/0x409", c->g.buf);
	if (r == 0)
		r = mk(c, p.buf);
	if (r == 0)
		r = puts_(c, p.buf, "manufacturer", s->manufacturer ?: "usbperf");
	if (r == 0)
		r = puts_(c, p.buf, "product", s->product ?: "usbperf gadget");
	if (r == 0)
		r = puts_(c, p.buf, "serialnumber", s->serial ?: s->dir);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/configs/c.1", c->g.buf);
	if (r == 0)
		r = mk(c, p.buf);
	if (r == 0)
		r = putf(c, p.buf, "MaxPower", "%u", s->max_power_ma);
	for (i = 0; i < s->nfns; i++)
		strbuf_addf(&label, "%s%s", i ? "+" : "usbperf: ", s->fns[i].profile->name);
	strbuf_adds(&p, "/strings/0x409");
	if (r == 0)
		r = mk(c, p.buf);
	if (r == 0)
		r = puts_(c, p.buf, "configuration", label.buf);
	strbuf_release(&p);
	strbuf_release(&label);
	return r;
}

/* the speed the functions will describe themselves at: the gadget's and the UDC's lower */
static enum usb_speed effective_speed(const char *gadget_max, const char *udc, bool *ret_assumed)
{
	char *udc_max = udc ? attr_strf_nonempty(UDC_CLASS "/%s/maximum_speed", udc) : NULL;
	enum usb_speed sp = gadget_ep_speed(gadget_max, udc_max, ret_assumed);

	free(udc_max);
	return sp;
}

static void read_back(struct gadget_built *b, const struct gadget_spec *s, const char *gdir)
{
	enum usb_speed sp;
	size_t i;

	b->max_speed = attr_strf_nonempty("%s/max_speed", gdir);
	b->max_power_ma = s->max_power_ma;
	if (b->udc) {
		b->udc_state = attr_strf_nonempty(UDC_CLASS "/%s/state", b->udc);
		b->udc_speed = attr_strf_nonempty(UDC_CLASS "/%s/current_speed", b->udc);
	}
	sp = effective_speed(b->max_speed ? b->max_speed : gadget_max_speed(s), b->udc,
			     &b->ep_speed_assumed);
	b->ep_speed = xstrdup(usb_speed_label(sp));
	for (i = 0; i < b->nfns; i++) {
		struct strbuf d = STRBUF_INIT;

		strbuf_addf(&d, "%s/functions/%s", gdir, b->fns[i].function);
		b->fns[i].ifname = attr_strf_nonempty("%s/ifname", d.buf);
		gadget_fn_endpoints(&s->fns[i], d.buf, sp, &b->fns[i]);
		strbuf_release(&d);
	}
}

/* MaxPower above 500 mA only at SuperSpeed (USB 2.0 9.6.3, USB 3.2 9.6.3) */
static int check_max_power(const struct gadget_spec *s, const char *udc, char **why)
{
	bool assumed;
	enum usb_speed sp = effective_speed(gadget_max_speed(s), udc, &assumed);

	if (s->max_power_ma <= GADGET_MAX_POWER_USB2 || sp >= USB_SPEED_SS)
		return 0;
	return reason_set(-EINVAL, why,
			  "--max-power %u mA: below SuperSpeed a configuration draws at most %d mA "
			  "(%s%s)",
			  s->max_power_ma, GADGET_MAX_POWER_USB2,
			  assumed ? "the UDC's maximum speed is unknown" : "the gadget runs at ",
			  assumed ? ": give --max-speed super" : usb_speed_label(sp));
}

int gadget_up(const struct gadget_spec *s, const struct gadget_fs *fs, struct gadget_built *ret,
	      char **ret_why)
{
	struct ctx c = {.s = s,
			.fs = fs,
			.st = {.fd = -1},
			.g = STRBUF_INIT,
			.fn = STRBUF_INIT,
			.set = STRBUF_INIT,
			.why = ret_why};
	struct gadget_built b = {0};
	struct strbuf sp = STRBUF_INIT;
	bool ffs = false;
	size_t i;
	int r;

	if (!s->nfns)
		return reason_set(-EINVAL, ret_why, "no profile given (see 'usbperf gadget -h')");
	/* usbperf's own camera is a gadgetfs device, not a configfs one */
	for (i = 0; i < s->nfns; i++)
		if (!strcmp(s->fns[i].profile->name, "uvc-bulk")) {
			r = gadget_preflight(s, ret_why);
			return r < 0 ? r : uvcg_gadget_up(s, fs, ret, ret_why);
		}
	for (i = 0; i < s->nfns; i++)
		ffs |= !strcmp(s->fns[i].profile->name, "ffs");
	r = check_configfs(ret_why);
	for (i = 0; r == 0 && i < s->nfns; i++)
		if (!strcmp(s->fns[i].profile->name, "mtp"))
			r = gadget_mtp_preflight(fs, ret_why);
	if (r < 0)
		return r;
	strbuf_addf(&c.g, GADGET_CONFIGFS "/%s", s->dir);
	gadget_state_path(&sp, s->dir);
	if (sysroot_exists(sp.buf)) {
		r = reason_set(-EEXIST, ret_why,
			       "gadget '%s' is up ('usbperf gadget down%s%s' first)", s->dir,
			       strcmp(s->dir, GADGET_PREFIX) ? " " : "",
			       strcmp(s->dir, GADGET_PREFIX) ? s->dir : "");
		goto out;
	}
	if (sysroot_exists(c.g.buf)) {
		r = reason_set(-EEXIST, ret_why, "gadget '%s' exists and usbperf did not create it",
			       c.g.buf);
		goto out;
	}
	if (!ffs || s->udc) {
		r = pick_udc(s->udc, &b.udc, ret_why);
		if (r < 0)
			goto out;
	}
	r = check_max_power(s, b.udc, ret_why);
	if (r == 0)
		r = gadget_preflight(s, ret_why);
	if (r < 0)
		goto out;
	r = gadget_state_create(&c.st, s->dir);
	if (r < 0) {
		reason_set(r, ret_why, "cannot create state file '%s': %s", sp.buf, strerror(-r));
		goto out;
	}
	r = build_device(&c);
	for (i = 0; r == 0 && i < s->nfns; i++)
		r = build_function(&c, &s->fns[i], &b);
	for (i = 0; r == 0 && i < b.nfns; i++) {
		struct strbuf t = STRBUF_INIT, l = STRBUF_INIT;

		strbuf_addf(&t, "%s/functions/%s", c.g.buf, b.fns[i].function);
		strbuf_addf(&l, "%s/configs/c.1/%s", c.g.buf, b.fns[i].function);
		r = lnk(&c, t.buf, l.buf);
		strbuf_release(&t);
		strbuf_release(&l);
	}
	if (r == 0 && ffs) {
		struct strbuf w = STRBUF_INIT;

		/* f_fs binds only once userspace wrote the descriptors to ep0 */
		strbuf_addf(
		    &w,
		    "left unbound: a FunctionFS function binds once its userspace "
		    "side has written its descriptors to ep0; then 'usbperf gadget bind%s%s'",
		    strcmp(s->dir, GADGET_PREFIX) ? " " : "",
		    strcmp(s->dir, GADGET_PREFIX) ? s->dir : "");
		b.unbound_why = strbuf_detach(&w);
	} else if (r == 0) {
		r = bind_udc(&c, b.udc);
	}
	if (r < 0) {
		/* undo all of it; the first error is the one to report */
		char *why2 = NULL;

		gadget_state_undo(&c.st, fs, NULL, &why2);
		free(why2);
		goto out;
	}
	b.gadget = xstrdup(s->dir);
	b.state_file = xstrdup(c.st.file);
	b.npaths = (int64_t)c.st.n;
	read_back(&b, s, c.g.buf);
	*ret = b;
out:
	if (r < 0)
		gadget_built_release(&b);
	gadget_state_release(&c.st);
	strbuf_release(&c.g);
	strbuf_release(&c.fn);
	strbuf_release(&c.set);
	strbuf_release(&sp);
	return r;
}

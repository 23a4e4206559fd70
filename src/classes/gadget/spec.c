// SPDX-License-Identifier: MIT
/* Profiles, their tunables and the parsing of "PROFILE:key=value,..." operands. */
#include "classes/gadget/mtp.h"
#include "classes/gadget/spec.h"
#include "classes/uvcgadget/gadget_up.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_FUNCTIONS 16

static const struct gadget_key msc_keys[] = {
    {"file", "lun.0/file", GK_FILE, 0, 0},   {"removable", "lun.0/removable", GK_BOOL, 0, 1},
    {"ro", "lun.0/ro", GK_BOOL, 0, 1},	     {"nofua", "lun.0/nofua", GK_BOOL, 0, 1},
    {"cdrom", "lun.0/cdrom", GK_BOOL, 0, 1}, {"stall", "stall", GK_BOOL, 0, 1},
};
/* u_ether: qmult multiplies the request queue at high and super speed */
static const struct gadget_key net_keys[] = {
    {"qmult", "qmult", GK_UINT, 1, 1000},
    {"dev_addr", "dev_addr", GK_MAC, 0, 0},
    {"host_addr", "host_addr", GK_MAC, 0, 0},
    {"ifname", "ifname", GK_WORD, 0, 0},
};
static const struct gadget_key hid_keys[] = {
    {"preset", NULL, GK_WORD, 0, 0},
    {"report_desc", NULL, GK_FILE, 0, 0},
    {"protocol", "protocol", GK_UINT, 0, 255},
    {"subclass", "subclass", GK_UINT, 0, 255},
    {"report_length", "report_length", GK_UINT, 1, 65535},
    {"no_out_endpoint", "no_out_endpoint", GK_BOOL, 0, 1},
    /* bInterval at every speed (Linux 6.16): ms at full speed, else 2^(N-1) x 125 us */
    {"interval", "interval", GK_UINT, 1, 255},
};
static const struct gadget_key uvc_keys[] = {
    {"streaming_maxpacket", "streaming_maxpacket", GK_UINT, 1, 3072},
    {"streaming_maxburst", "streaming_maxburst", GK_UINT, 0, 15},
    {"streaming_interval", "streaming_interval", GK_UINT, 1, 16},
    {"frames", NULL, GK_FRAMES, 0, 0},
    {"fps", NULL, GK_UINT, 1, 240},
};
/* usbperf's own bulk camera over gadgetfs: the values checked by uvcg_spec_check() */
static const struct gadget_key uvcb_keys[] = {
    {"frames", NULL, GK_FRAMES, 0, 0},	  {"fps", NULL, GK_LIST, 0, 0},
    {"formats", NULL, GK_LIST, 0, 0},	  {"maxpayload", NULL, GK_SIZE, 512, 16u << 20},
    {"stream_frames", NULL, GK_UINT, 0, 100000000}, {"stall_ms", NULL, GK_UINT, 100, 3600000},
};
static const struct gadget_key ss_keys[] = {
    {"pattern", "pattern", GK_UINT, 0, 2},
    {"bulk_buflen", "bulk_buflen", GK_UINT, 1, 1u << 20},
    {"bulk_qlen", "bulk_qlen", GK_UINT, 1, 1024},
    {"iso_qlen", "iso_qlen", GK_UINT, 1, 1024},
    {"isoc_interval", "isoc_interval", GK_UINT, 1, 16},
    {"isoc_maxpacket", "isoc_maxpacket", GK_UINT, 0, 1024},
    {"isoc_mult", "isoc_mult", GK_UINT, 0, 2},
    {"isoc_maxburst", "isoc_maxburst", GK_UINT, 0, 15},
};
static const struct gadget_key lb_keys[] = {
    {"bulk_buflen", "bulk_buflen", GK_UINT, 1, 1u << 20},
    {"qlen", "qlen", GK_UINT, 1, 1024},
};
static const struct gadget_key ffs_keys[] = {
    {"name", NULL, GK_WORD, 0, 0},
    {"dir", NULL, GK_PATH, 0, 0},
};

/* umtprd's buffers (its sample umtprd.conf): read and write multiples of 512, the read
 * file cache a power of two above the read buffer; checked in mtp_check() */
static const struct gadget_key mtp_keys[] = {
    {"storage", NULL, GK_DIR, 0, 0},
    {"rd_buffer", NULL, GK_SIZE, 512, 16u << 20},
    {"wr_buffer", NULL, GK_SIZE, 512, 16u << 20},
    {"cache", NULL, GK_SIZE, 1024, 64u << 20},
    {"name", NULL, GK_WORD, 0, 0},
};

static const struct gadget_profile profiles[] = {
    {"msc", "mass_storage", "usb_f_mass_storage", msc_keys, N(msc_keys)},
    {"ncm", "ncm", "usb_f_ncm", net_keys, N(net_keys)},
    {"ecm", "ecm", "usb_f_ecm", net_keys, N(net_keys)},
    {"rndis", "rndis", "usb_f_rndis", net_keys, N(net_keys)},
    {"hid", "hid", "usb_f_hid", hid_keys, N(hid_keys)},
    {"uvc", "uvc", "usb_f_uvc", uvc_keys, N(uvc_keys)},
    {"uvc-bulk", "gadgetfs", "gadgetfs", uvcb_keys, N(uvcb_keys)},
    {"sourcesink", "SourceSink", "usb_f_ss_lb", ss_keys, N(ss_keys)},
    {"loopback", "Loopback", "usb_f_ss_lb", lb_keys, N(lb_keys)},
    {"ffs", "ffs", "usb_f_fs", ffs_keys, N(ffs_keys)},
    {"mtp", "ffs", "usb_f_fs", mtp_keys, N(mtp_keys)},
};

const struct gadget_profile *gadget_profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < N(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct gadget_key *gadget_key_find(const struct gadget_profile *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nkeys; i++)
		if (!strcmp(p->keys[i].key, key))
			return &p->keys[i];
	return NULL;
}

const char *gadget_fn_get(const struct gadget_fn_spec *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->nkv; i++)
		if (!strcmp(f->kv[i].key, key))
			return f->kv[i].value;
	return NULL;
}

const char *gadget_profiles_help(void)
{
	static struct strbuf help = STRBUF_INIT;
	size_t i, j;

	if (help.len)
		return help.buf;
	for (i = 0; i < N(profiles); i++) {
		strbuf_addf(&help, "  %-11s", profiles[i].name);
		for (j = 0; j < profiles[i].nkeys; j++)
			strbuf_addf(&help, "%s%s", j ? "," : " ", profiles[i].keys[j].key);
		strbuf_addf(&help, "  (%s)\n", profiles[i].module);
	}
	return help.buf;
}

void gadget_spec_init(struct gadget_spec *s)
{
	*s = (struct gadget_spec){.vid = 0x1d6b, .pid = 0x0104, .max_power_ma = 250};
	s->dir = xstrdup(GADGET_PREFIX);
}

void gadget_spec_release(struct gadget_spec *s)
{
	size_t i, j;

	for (i = 0; i < s->nfns; i++) {
		for (j = 0; j < s->fns[i].nkv; j++)
			free_all(s->fns[i].kv[j].key, s->fns[i].kv[j].value);
		free_all(s->fns[i].kv, s->fns[i].instance);
	}
	free_all(s->fns, s->dir, s->manufacturer, s->product, s->serial, s->udc, s->max_speed);
	*s = (struct gadget_spec){0};
}

static bool is_word_x(const char *s, size_t max, const char *extra)
{
	size_t n = strlen(s);

	if (!n || n > max || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s) && !strchr(extra, *s))
			return false;
	return true;
}

static bool is_word(const char *s, size_t max)
{
	return is_word_x(s, max, "");
}

int gadget_name_check(const char *dir, char **ret_why)
{
	size_t n = strlen(GADGET_PREFIX);

	if (!strncmp(dir, GADGET_PREFIX, n) && (!dir[n] || (dir[n] == '-' && dir[n + 1])) &&
	    is_word(dir, 64))
		return 0;
	return reason_set(-EINVAL, ret_why,
			  "invalid gadget name '%.64s%s': usbperf's gadgets are 'usbperf' or "
			  "'usbperf-NAME' (letters, digits, '_', '.', '-'; 64 at most)",
			  dir, strlen(dir) > 64 ? "..." : "");
}

int gadget_spec_set_name(struct gadget_spec *s, const char *name, char **ret_why)
{
	struct strbuf d = STRBUF_INIT;

	if (!name || !*name)
		return reason_set(-EINVAL, ret_why, "an empty --name");
	if (!strncmp(name, GADGET_PREFIX, strlen(GADGET_PREFIX)))
		strbuf_adds(&d, name);
	else
		strbuf_addf(&d, GADGET_PREFIX "-%s", name);
	if (!is_word(d.buf, 64)) {
		strbuf_release(&d);
		return reason_set(-EINVAL, ret_why,
				  "invalid --name '%s': letters, digits, '_', '.', '-' only", name);
	}
	free(s->dir);
	s->dir = strbuf_detach(&d);
	return 0;
}

int gadget_spec_set_id(struct gadget_spec *s, const char *vidpid, char **ret_why)
{
	const char *colon = strchr(vidpid, ':');
	uint64_t v, p;
	char *vs;
	int r;

	if (!colon)
		return reason_set(-EINVAL, ret_why, "invalid --id '%s': VID:PID in hex", vidpid);
	vs = strndup(vidpid, (size_t)(colon - vidpid));
	if (!vs)
		return -ENOMEM;
	r = parse_hex(vs, 0xffff, &v);
	free(vs);
	if (r == 0)
		r = parse_hex(colon + 1, 0xffff, &p);
	if (r < 0)
		return reason_set(-EINVAL, ret_why, "invalid --id '%s': VID:PID in hex", vidpid);
	s->vid = (uint16_t)v;
	s->pid = (uint16_t)p;
	return 0;
}

int gadget_spec_set_speed(struct gadget_spec *s, const char *speed, char **ret_why)
{
	/* what the user types, and configfs's max_speed (usb_speed_string()) */
	static const char *const names[][3] = {
	    {"low", "low-speed", "low-speed"},
	    {"full", "full-speed", "full-speed"},
	    {"high", "high-speed", "high-speed"},
	    {"super", "super-speed", "super-speed"},
	    {"super-plus", "super-speed-plus", "super-speed-plus"},
	};
	size_t i;

	for (i = 0; i < N(names); i++) {
		if (strcmp(speed, names[i][0]) && strcmp(speed, names[i][1]))
			continue;
		free(s->max_speed);
		s->max_speed = xstrdup(names[i][2]);
		return 0;
	}
	return reason_set(-EINVAL, ret_why,
			  "invalid --max-speed '%s': low, full, high, super or super-plus", speed);
}

int gadget_spec_set_max_power(struct gadget_spec *s, const char *ma, char **ret_why)
{
	uint64_t v;

	if (parse_u64(ma, 0, GADGET_MAX_POWER_USB3, &v) < 0)
		return reason_set(-EINVAL, ret_why,
				  "invalid --max-power '%s': mA, 0 to %d (%d above high speed)", ma,
				  GADGET_MAX_POWER_USB2, GADGET_MAX_POWER_USB3);
	s->max_power_ma = (unsigned)v;
	return 0;
}

static bool is_mac(const char *s)
{
	int i;

	for (i = 0; i < 6; i++, s += 3) {
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
			return false;
		if (s[2] != (i == 5 ? '\0' : ':'))
			return false;
	}
	return true;
}

static bool is_frames(const char *s)
{
	struct strbuf one = STRBUF_INIT;
	bool ok = true;

	while (ok && *s) {
		size_t n = strcspn(s, "+");
		uint64_t w, h;

		strbuf_reset(&one);
		strbuf_add(&one, s, n);
		ok = parse_wxh(one.buf, 8192, &w, &h) == 0;
		s += n;
		if (*s == '+' && !*++s)
			ok = false;
	}
	strbuf_release(&one);
	return ok;
}

/* value checked and normalized for its key; *ret malloc'ed */
static int check_value(const struct gadget_profile *p, const struct gadget_key *k, const char *v,
		       char **ret, char **ret_why)
{
	static const char *const yes[] = {"1", "y", "yes", "true", "on"};
	static const char *const no[] = {"0", "n", "no", "false", "off"};
	struct strbuf sb = STRBUF_INIT;
	char real[PATH_MAX];
	struct stat st;
	uint64_t u;
	size_t i;

	switch (k->kind) {
	case GK_UINT:
		if (parse_u64(v, k->min, k->max, &u) < 0)
			return reason_set(-EINVAL, ret_why,
					  "%s: %s='%s' is not a whole number in %llu..%llu",
					  p->name, k->key, v, (unsigned long long)k->min,
					  (unsigned long long)k->max);
		strbuf_addf(&sb, "%llu", (unsigned long long)u);
		break;
	case GK_BOOL:
		for (i = 0; i < N(yes); i++) {
			if (!strcasecmp(v, yes[i]))
				strbuf_adds(&sb, "1");
			else if (!strcasecmp(v, no[i]))
				strbuf_adds(&sb, "0");
		}
		if (!sb.len)
			return reason_set(-EINVAL, ret_why, "%s: %s='%s' is not 0 or 1", p->name,
					  k->key, v);
		break;
	case GK_MAC:
		if (!is_mac(v))
			return reason_set(-EINVAL, ret_why,
					  "%s: %s='%s' is not a MAC address (xx:xx:xx:xx:xx:xx)",
					  p->name, k->key, v);
		strbuf_adds(&sb, v);
		break;
	case GK_FILE:
		if (!realpath(v, real) || stat(real, &st) < 0)
			return reason_set(-ENOENT, ret_why, "%s: %s '%s': %s", p->name, k->key, v,
					  strerror(errno));
		if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
			return reason_set(-EINVAL, ret_why,
					  "%s: %s '%s' is not a file or block device", p->name,
					  k->key, v);
		strbuf_adds(&sb, real);
		break;
	case GK_WORD:
		/* an interface name may be the kernel's template, "usb%d" */
		if (!is_word_x(v, 15, strcmp(k->key, "ifname") ? "" : "%"))
			return reason_set(-EINVAL, ret_why,
					  "%s: %s='%s': 1 to 15 letters, digits, '_', '.', '-'",
					  p->name, k->key, v);
		strbuf_adds(&sb, v);
		break;
	case GK_PATH:
		/* the path itself is the mount point: no '..' that names another directory */
		if (!gadget_path_canonical(v) || strlen(v) > 1024 || strchr(v, '\n'))
			return reason_set(-EINVAL, ret_why,
					  "%s: %s='%s' is not a canonical absolute path (no '.', "
					  "'..', '//' or trailing '/')",
					  p->name, k->key, v);
		strbuf_adds(&sb, v);
		break;
	case GK_SIZE:
		if (parse_size(v, k->min, k->max, &u) < 0)
			return reason_set(-EINVAL, ret_why,
					  "%s: %s='%s' is not a size in %llu..%llu bytes (K, M: "
					  "powers of 1024)",
					  p->name, k->key, v, (unsigned long long)k->min,
					  (unsigned long long)k->max);
		strbuf_addf(&sb, "%llu", (unsigned long long)u);
		break;
	case GK_DIR:
		if (!realpath(v, real) || stat(real, &st) < 0)
			return reason_set(-ENOENT, ret_why, "%s: %s '%s': %s", p->name, k->key, v,
					  strerror(errno));
		if (!S_ISDIR(st.st_mode) || strchr(real, '"') || strchr(real, '\n'))
			return reason_set(
			    -EINVAL, ret_why,
			    "%s: %s '%s' is not a directory (or has a quote or newline "
			    "in its name)",
			    p->name, k->key, v);
		strbuf_adds(&sb, real);
		break;
	case GK_LIST:
		if (strlen(v) > 64 || !*v || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789.+") !=
						 strlen(v))
			return reason_set(-EINVAL, ret_why, "%s: %s='%s': ITEM[+ITEM...]",
					  p->name, k->key, v);
		strbuf_adds(&sb, v);
		break;
	case GK_FRAMES:
		if (!is_frames(v))
			return reason_set(-EINVAL, ret_why, "%s: %s='%s': WxH[+WxH...]", p->name,
					  k->key, v);
		strbuf_adds(&sb, v);
		break;
	}
	*ret = strbuf_detach(&sb);
	return 0;
}

static void key_list(const struct gadget_profile *p, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < p->nkeys; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", p->keys[i].key);
}

static int parse_tunables(struct gadget_fn_spec *f, const char *s, char **ret_why)
{
	const struct gadget_profile *p = f->profile;

	while (*s) {
		size_t n = strcspn(s, ",");
		char *item = strndup(s, n), *eq, *val = NULL;
		const struct gadget_key *k;
		int r;

		if (!item)
			return -ENOMEM;
		eq = strchr(item, '=');
		if (eq)
			*eq = '\0';
		k = gadget_key_find(p, item);
		if (!k || !eq) {
			struct strbuf keys = STRBUF_INIT;

			key_list(p, &keys);
			r = reason_set(-EINVAL, ret_why, "%s: %s '%s' (keys: %s)", p->name,
				       k ? "no value for" : "unknown key", item, keys.buf);
			strbuf_release(&keys);
			free(item);
			return r;
		}
		if (gadget_fn_get(f, item)) {
			r = reason_set(-EINVAL, ret_why, "%s: '%s' given twice", p->name, item);
			free(item);
			return r;
		}
		r = check_value(p, k, eq + 1, &val, ret_why);
		if (r < 0) {
			free(item);
			return r;
		}
		f->kv = xgrow(f->kv, &f->nkv, sizeof(*f->kv));
		f->kv[f->nkv - 1] = (struct gadget_kv){item, val};
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

int gadget_spec_add(struct gadget_spec *s, const char *arg, char **ret_why)
{
	const char *colon = strchr(arg, ':');
	struct gadget_fn_spec *f;
	const struct gadget_profile *p;
	struct strbuf inst = STRBUF_INIT;
	char *name;
	size_t i, same = 0;
	int r;

	name = colon ? strndup(arg, (size_t)(colon - arg)) : xstrdup(arg);
	if (!name)
		return -ENOMEM;
	p = gadget_profile_find(name);
	if (!p) {
		r = reason_set(-EINVAL, ret_why,
			       "unknown profile '%s' (msc, ncm, ecm, rndis, hid, uvc, uvc-bulk, "
			       "sourcesink, loopback, ffs, mtp)",
			       name);
		free(name);
		return r;
	}
	free(name);
	if (s->nfns >= MAX_FUNCTIONS)
		return reason_set(-E2BIG, ret_why, "at most %d functions in one gadget",
				  MAX_FUNCTIONS);
	s->fns = xgrow(s->fns, &s->nfns, sizeof(*s->fns));
	f = &s->fns[s->nfns - 1];
	f->profile = p;
	r = colon ? parse_tunables(f, colon + 1, ret_why) : 0;
	if (r == 0) {
		/* instance: the ffs name (also its mount source), else a count per type */
		const char *fname = gadget_fn_get(f, "name");

		for (i = 0; i + 1 < s->nfns; i++)
			if (s->fns[i].profile == p)
				same++;
		if (p == gadget_profile_find("ffs"))
			strbuf_adds(&inst, fname ? fname : GADGET_PREFIX);
		else if (p == gadget_profile_find("mtp"))
			strbuf_adds(&inst, fname ? fname : "mtp");
		else
			strbuf_addf(&inst, "%zu", same);
		for (i = 0; i + 1 < s->nfns; i++)
			if (!strcmp(s->fns[i].profile->type, p->type) &&
			    !strcmp(s->fns[i].instance, inst.buf))
				r = reason_set(-EINVAL, ret_why, "two %s functions named '%s'",
					       p->name, inst.buf);
		f->instance = strbuf_detach(&inst);
		/* f_mass_storage refuses to bind a fixed LUN without medium */
		if (r == 0 && !strcmp(p->name, "msc") && !gadget_fn_get(f, "file") &&
		    !(gadget_fn_get(f, "removable") && !strcmp(gadget_fn_get(f, "removable"), "1")))
			r = reason_set(-EINVAL, ret_why,
				       "msc: file= is needed (a backing file or block device), "
				       "or removable=1 for a LUN without medium");
		if (r == 0 && !strcmp(p->name, "mtp"))
			r = gadget_mtp_check(f, ret_why);
		if (r == 0 && !strcmp(p->name, "uvc-bulk"))
			r = uvcg_spec_check(f, ret_why);
	}
	if (r < 0) {
		for (i = 0; i < f->nkv; i++)
			free_all(f->kv[i].key, f->kv[i].value);
		free_all(f->kv, f->instance);
		s->nfns--;
	}
	strbuf_release(&inst);
	return r;
}

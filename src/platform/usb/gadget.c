// SPDX-License-Identifier: MIT
/* configfs gadgets and UDCs, read through the sysroot (see gadget.h). */
#include "platform/usb/gadget.h"
#include "platform/sys/attr.h"
#include "model/field.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* one more zeroed element at the end of a growing array */
static void *push(void *arrp, size_t *n, size_t size)
{
	void **arr = arrp;
	char *nv = realloc(*arr, (*n + 1) * size);

	if (!nv)
		abort();
	*arr = nv;
	memset(nv + *n * size, 0, size);
	return nv + (*n)++ * size;
}

static bool word_in(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* ---- functions ---- */

#define NET_TYPES "ncm ecm eem rndis geth"
#define SS_TYPES "SourceSink"
#define FN_INT(types, attr, member)                                                              \
	{types, #attr, offsetof(struct gadget_function, member), false}
#define FN_STR(types, attr, member)                                                              \
	{types, #attr, offsetof(struct gadget_function, member), true}

/* the attributes that decide how fast a function can move data, per function type */
static const struct fn_attr {
	const char *types; /* space-separated configfs function type names */
	const char *attr;
	size_t offset;
	bool is_str;
} fn_attrs[] = {
	FN_STR(NET_TYPES, ifname, ifname),
	FN_INT(NET_TYPES, qmult, qmult),
	FN_STR(NET_TYPES, dev_addr, dev_addr),
	FN_STR(NET_TYPES, host_addr, host_addr),
	FN_INT("uvc", streaming_maxpacket, streaming_maxpacket),
	FN_INT("uvc", streaming_maxburst, streaming_maxburst),
	FN_INT("uvc", streaming_interval, streaming_interval),
	FN_INT("hid", report_length, report_length),
	FN_INT("hid", protocol, protocol),
	FN_INT("hid", subclass, subclass),
	FN_INT(SS_TYPES, pattern, pattern),
	FN_INT(SS_TYPES " Loopback", bulk_buflen, bulk_buflen),
	FN_INT(SS_TYPES, bulk_qlen, bulk_qlen),
	FN_INT(SS_TYPES, iso_qlen, iso_qlen),
	FN_INT(SS_TYPES " Loopback", qlen, qlen),
	FN_INT(SS_TYPES, isoc_interval, isoc_interval),
	FN_INT(SS_TYPES, isoc_maxpacket, isoc_maxpacket),
	FN_INT(SS_TYPES, isoc_mult, isoc_mult),
	FN_INT(SS_TYPES, isoc_maxburst, isoc_maxburst),
	FN_INT("mass_storage", stall, stall),
	FN_INT("mass_storage", num_buffers, num_buffers),
};

static void fn_unknown_ints(struct gadget_function *f)
{
	size_t i;

	for (i = 0; i < sizeof(fn_attrs) / sizeof(fn_attrs[0]); i++)
		if (!fn_attrs[i].is_str)
			*(int64_t *)((char *)f + fn_attrs[i].offset) = FIELD_INT_UNKNOWN;
	f->nluns = FIELD_INT_UNKNOWN;
}

static void probe_luns(struct gadget_facts *g, struct gadget_function *f, const char *dir)
{
	struct name_list l = NAME_LIST_INIT;
	size_t i;

	f->nluns = 0;
	if (sysroot_list(dir, &l) < 0)
		return;
	for (i = 0; i < l.n; i++) {
		struct gadget_lun *u;

		if (strncmp(l.v[i], "lun.", 4) != 0)
			continue;
		u = push(&g->luns, &g->nluns, sizeof(*u));
		u->gadget = xstrdup(f->gadget);
		u->function = xstrdup(f->name);
		u->name = xstrdup(l.v[i]);
		u->file = attr_strf_nonempty("%s/%s/file", dir, l.v[i]);
		u->ro = attr_intf(0, 1, "%s/%s/ro", dir, l.v[i]);
		u->removable = attr_intf(0, 1, "%s/%s/removable", dir, l.v[i]);
		u->cdrom = attr_intf(0, 1, "%s/%s/cdrom", dir, l.v[i]);
		u->nofua = attr_intf(0, 1, "%s/%s/nofua", dir, l.v[i]);
		f->nluns++;
	}
	name_list_release(&l);
}

/* read the attributes of f's type; settings lists those that were there */
static void probe_fn_attrs(struct gadget_function *f, const char *dir)
{
	struct strbuf set = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(fn_attrs) / sizeof(fn_attrs[0]); i++) {
		const struct fn_attr *a = &fn_attrs[i];
		void *m = (char *)f + a->offset;

		if (!word_in(a->types, f->type))
			continue;
		if (a->is_str) {
			*(char **)m = attr_strf_nonempty("%s/%s", dir, a->attr);
			if (*(char **)m)
				strbuf_addf(&set, "%s=%s ", a->attr, *(char **)m);
		} else {
			*(int64_t *)m = attr_intf(0, UINT32_MAX, "%s/%s", dir, a->attr);
			if (*(int64_t *)m != FIELD_INT_UNKNOWN)
				strbuf_addf(&set, "%s=%lld ", a->attr, (long long)*(int64_t *)m);
		}
	}
	if (f->nluns != FIELD_INT_UNKNOWN)
		strbuf_addf(&set, "luns=%lld ", (long long)f->nluns);
	if (set.len) {
		set.buf[--set.len] = '\0';
		f->settings = strbuf_detach(&set);
	}
	strbuf_release(&set);
}

static void probe_function(struct gadget_facts *g, const char *gadget, const char *name)
{
	struct gadget_function *f = push(&g->functions, &g->nfunctions, sizeof(*f));
	struct strbuf dir = STRBUF_INIT;
	const char *dot = strchr(name, '.');

	f->gadget = xstrdup(gadget);
	f->name = xstrdup(name);
	f->type = dot ? strndup(name, (size_t)(dot - name)) : xstrdup(name);
	f->instance = dot ? xstrdup(dot + 1) : NULL;
	if (!f->type)
		abort();
	fn_unknown_ints(f);
	strbuf_addf(&dir, GADGET_CONFIGFS "/%s/functions/%s", gadget, name);
	if (!strcmp(f->type, "mass_storage"))
		probe_luns(g, f, dir.buf);
	probe_fn_attrs(f, dir.buf);
	strbuf_release(&dir);
}

/* ---- configs ---- */

/* a gadget's string language: US English when there, else the first one */
static char *pick_lang(const char *dir)
{
	struct name_list l = NAME_LIST_INIT;
	char *lang = NULL;
	size_t i;

	if (sysroot_list(dir, &l) < 0 || !l.n)
		goto out;
	lang = l.v[0];
	for (i = 0; i < l.n; i++)
		if (!strcmp(l.v[i], "0x409"))
			lang = l.v[i];
	lang = xstrdup(lang);
out:
	name_list_release(&l);
	return lang;
}

/* the functions linked into a config: symlinks whose target names the function */
static char *config_links(const char *dir)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf out = STRBUF_INIT, target = STRBUF_INIT, p = STRBUF_INIT;
	size_t i;

	if (sysroot_list(dir, &l) == 0) {
		for (i = 0; i < l.n; i++) {
			const char *base;

			strbuf_reset(&p);
			strbuf_addf(&p, "%s/%s", dir, l.v[i]);
			if (sysroot_readlink(p.buf, &target) < 0)
				continue; /* MaxPower, bmAttributes, strings */
			base = strrchr(target.buf, '/');
			base = base ? base + 1 : target.buf;
			if (*base)
				strbuf_addf(&out, "%s%s", out.len ? " " : "", base);
		}
	}
	name_list_release(&l);
	strbuf_release(&target);
	strbuf_release(&p);
	if (!out.len)
		return NULL;
	return strbuf_detach(&out);
}

static void probe_config(struct gadget_facts *g, const char *gadget, const char *name)
{
	struct gadget_config *c = push(&g->configs, &g->nconfigs, sizeof(*c));
	struct strbuf dir = STRBUF_INIT, sdir = STRBUF_INIT;
	char *lang;

	strbuf_addf(&dir, GADGET_CONFIGFS "/%s/configs/%s", gadget, name);
	c->gadget = xstrdup(gadget);
	c->name = xstrdup(name);
	c->max_power_ma = attr_intf(0, UINT32_MAX, "%s/MaxPower", dir.buf);
	c->bm_attributes = attr_strf_nonempty("%s/bmAttributes", dir.buf);
	strbuf_addf(&sdir, "%s/strings", dir.buf);
	lang = pick_lang(sdir.buf);
	if (lang)
		c->label = attr_strf_nonempty("%s/%s/configuration", sdir.buf, lang);
	c->functions = config_links(dir.buf);
	free(lang);
	strbuf_release(&dir);
	strbuf_release(&sdir);
}

/* which configs of the gadget link each of its functions */
static void link_configs(struct gadget_facts *g, size_t first_cfg, size_t first_fn)
{
	size_t i, j;

	for (j = first_fn; j < g->nfunctions; j++) {
		struct gadget_function *f = &g->functions[j];
		struct strbuf in = STRBUF_INIT;

		for (i = first_cfg; i < g->nconfigs; i++)
			if (g->configs[i].functions && word_in(g->configs[i].functions, f->name))
				strbuf_addf(&in, "%s%s", in.len ? " " : "", g->configs[i].name);
		if (in.len)
			f->configs = strbuf_detach(&in);
		strbuf_release(&in);
	}
}

/* ---- gadgets ---- */

static void probe_children(struct gadget_facts *g, const char *gadget, const char *sub,
			   void (*probe)(struct gadget_facts *, const char *, const char *),
			   int64_t *ret_n)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf dir = STRBUF_INIT;
	size_t i;

	strbuf_addf(&dir, GADGET_CONFIGFS "/%s/%s", gadget, sub);
	if (sysroot_list(dir.buf, &l) == 0) {
		*ret_n = (int64_t)l.n;
		for (i = 0; i < l.n; i++)
			probe(g, gadget, l.v[i]);
	}
	name_list_release(&l);
	strbuf_release(&dir);
}

static void probe_strings(struct gadget_dev *d)
{
	struct strbuf dir = STRBUF_INIT;
	char *lang;

	strbuf_addf(&dir, GADGET_CONFIGFS "/%s/strings", d->name);
	lang = pick_lang(dir.buf);
	if (lang) {
		d->manufacturer = attr_strf_nonempty("%s/%s/manufacturer", dir.buf, lang);
		d->product = attr_strf_nonempty("%s/%s/product", dir.buf, lang);
		d->serialnumber = attr_strf_nonempty("%s/%s/serialnumber", dir.buf, lang);
	}
	free(lang);
	strbuf_release(&dir);
}

static void probe_gadget(struct gadget_facts *g, const char *name)
{
	struct gadget_dev *d = push(&g->gadgets, &g->ngadgets, sizeof(*d));
	size_t first_cfg = g->nconfigs, first_fn = g->nfunctions;

	d->name = xstrdup(name);
	d->udc = attr_strf_nonempty(GADGET_CONFIGFS "/%s/UDC", name);
	d->id_vendor = attr_strf_nonempty(GADGET_CONFIGFS "/%s/idVendor", name);
	d->id_product = attr_strf_nonempty(GADGET_CONFIGFS "/%s/idProduct", name);
	d->bcd_usb = attr_strf_nonempty(GADGET_CONFIGFS "/%s/bcdUSB", name);
	d->bcd_device = attr_strf_nonempty(GADGET_CONFIGFS "/%s/bcdDevice", name);
	d->max_speed = attr_strf_nonempty(GADGET_CONFIGFS "/%s/max_speed", name);
	probe_strings(d);
	d->nfunctions = d->nconfigs = FIELD_INT_UNKNOWN;
	/* only g->functions and g->configs grow below: d stays valid */
	probe_children(g, name, "functions", probe_function, &d->nfunctions);
	probe_children(g, name, "configs", probe_config, &d->nconfigs);
	link_configs(g, first_cfg, first_fn);
}

/* ---- UDCs ---- */

static void probe_udc(struct gadget_facts *g, const char *name)
{
	struct udc_info *u = push(&g->udcs, &g->nudcs, sizeof(*u));

	u->name = xstrdup(name);
	u->state = attr_strf_nonempty(UDC_CLASS "/%s/state", name);
	u->function = attr_strf_nonempty(UDC_CLASS "/%s/function", name);
	u->current_speed = attr_strf_nonempty(UDC_CLASS "/%s/current_speed", name);
	u->maximum_speed = attr_strf_nonempty(UDC_CLASS "/%s/maximum_speed", name);
	u->is_selfpowered = attr_intf(0, 1, UDC_CLASS "/%s/is_selfpowered", name);
	u->is_otg = attr_intf(0, 1, UDC_CLASS "/%s/is_otg", name);
	u->is_a_peripheral = attr_intf(0, 1, UDC_CLASS "/%s/is_a_peripheral", name);
	u->b_hnp_enable = attr_intf(0, 1, UDC_CLASS "/%s/b_hnp_enable", name);
	u->a_hnp_support = attr_intf(0, 1, UDC_CLASS "/%s/a_hnp_support", name);
	u->a_alt_hnp_support = attr_intf(0, 1, UDC_CLASS "/%s/a_alt_hnp_support", name);
}

int gadget_probe(struct gadget_facts *ret)
{
	struct name_list l = NAME_LIST_INIT;
	size_t i;

	*ret = (struct gadget_facts){0};
	if (sysroot_list(GADGET_CONFIGFS, &l) == 0) {
		ret->configfs = true;
		for (i = 0; i < l.n; i++)
			probe_gadget(ret, l.v[i]);
	}
	name_list_release(&l);
	if (sysroot_list(UDC_CLASS, &l) == 0)
		for (i = 0; i < l.n; i++)
			probe_udc(ret, l.v[i]);
	name_list_release(&l);
	return 0;
}

int udc_speed_rank(const char *s)
{
	static const char *const names[] = {"low-speed", "full-speed", "high-speed",
					    "super-speed", "super-speed-plus"};
	size_t i;

	if (s && !strcmp(s, "wireless"))
		return 3; /* wireless USB ran at high-speed rates */
	for (i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (int)i + 1;
	return 0;
}

const struct gadget_dev *gadget_on_udc(const struct gadget_facts *g, const char *udc)
{
	size_t i;

	for (i = 0; udc && i < g->ngadgets; i++)
		if (g->gadgets[i].udc && !strcmp(g->gadgets[i].udc, udc))
			return &g->gadgets[i];
	return NULL;
}

/* ---- release ---- */

static void free_fn_strs(struct gadget_function *f)
{
	size_t i;

	for (i = 0; i < sizeof(fn_attrs) / sizeof(fn_attrs[0]); i++)
		if (fn_attrs[i].is_str)
			free(*(char **)((char *)f + fn_attrs[i].offset));
	free_all(f->gadget, f->name, f->type, f->instance, f->configs, f->settings);
}

void gadget_facts_release(struct gadget_facts *g)
{
	size_t i;

	for (i = 0; i < g->ngadgets; i++) {
		struct gadget_dev *d = &g->gadgets[i];

		free_all(d->name, d->udc, d->id_vendor, d->id_product, d->bcd_usb, d->bcd_device,
			 d->max_speed, d->manufacturer, d->product, d->serialnumber);
	}
	for (i = 0; i < g->nconfigs; i++) {
		struct gadget_config *c = &g->configs[i];

		free_all(c->gadget, c->name, c->label, c->bm_attributes, c->functions);
	}
	for (i = 0; i < g->nfunctions; i++)
		free_fn_strs(&g->functions[i]);
	for (i = 0; i < g->nluns; i++) {
		struct gadget_lun *u = &g->luns[i];

		free_all(u->gadget, u->function, u->name, u->file);
	}
	for (i = 0; i < g->nudcs; i++) {
		struct udc_info *u = &g->udcs[i];

		free_all(u->name, u->state, u->function, u->current_speed, u->maximum_speed);
	}
	free_all(g->gadgets, g->configs, g->functions, g->luns, g->udcs);
	*g = (struct gadget_facts){0};
}

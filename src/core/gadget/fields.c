// SPDX-License-Identifier: MIT
/* The field tables of usbperf gadget's reports, and which gadgets usbperf owns. */
#include "core/gadget/state.h"
#include "core/sys/attr.h"
#include "core/usb/gadget.h"
#include "render/field.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define T FF_TEXT
#define B struct gadget_built
static const struct field built_fields[] = {
    FIELD(B, gadget, "gadget", "gadget", NULL, FT_STR, 0, T),
    FIELD(B, udc, "udc", "UDC", NULL, FT_STR, 0, T),
    FIELD(B, max_speed, "max_speed", "max speed", NULL, FT_STR, 0, T),
    FIELD(B, udc_state, "udc_state", "UDC state", NULL, FT_STR, 0, T),
    FIELD(B, udc_speed, "udc_current_speed", "UDC speed", NULL, FT_STR, 0, T),
    FIELD(B, unbound_why, "unbound", "unbound", NULL, FT_STR, 0, T | FF_OPTIONAL),
    FIELD(B, state_file, "state_file", "state file", NULL, FT_STR, 0, T),
    FIELD(B, npaths, "state_paths", "paths created", NULL, FT_INT, 0, T),
};
#undef B
#define F struct gadget_built_fn
static const struct field fn_fields[] = {
    FIELD(F, function, "function", "function", NULL, FT_STR, 0, T),
    FIELD(F, profile, "profile", "profile", NULL, FT_STR, 0, T),
    FIELD(F, ifname, "ifname", "ifname", NULL, FT_STR, 0, T),
    FIELD(F, settings, "settings", "settings", NULL, FT_STR, 0, T),
};
#undef F
#define O struct gadget_owned
static const struct field owned_fields[] = {
    FIELD(O, gadget, "gadget", "gadget", NULL, FT_STR, 0, T),
    FIELD(O, udc, "udc", "UDC", NULL, FT_STR, 0, T),
    FIELD(O, paths, "state_paths", "paths created", NULL, FT_INT, 0, T),
    FIELD(O, state_file, "state_file", "state file", NULL, FT_STR, 0, T),
};
#undef O

static const struct record_desc built_desc = RECORD_DESC("gadget_up", built_fields);
static const struct record_desc fn_desc = RECORD_DESC("gadget_up_function", fn_fields);
static const struct record_desc owned_desc = RECORD_DESC("usbperf_gadget", owned_fields);

void gadget_built_describe(const struct gadget_built *b, struct report *out)
{
	/* CSV renders the first table: the functions */
	report_add_object(out, "gadget", "gadget", &built_desc, b);
	report_add_table(out, "functions", "functions", &fn_desc, b->fns, b->nfns, sizeof(*b->fns));
}

void gadget_owned_describe(const struct gadget_owned *v, size_t n, struct report *out)
{
	report_add_table(out, "usbperf_gadgets", "made by usbperf gadget up", &owned_desc, v, n,
			 sizeof(*v));
}

int gadget_owned_probe(struct gadget_owned **ret, size_t *ret_n)
{
	struct name_list l = NAME_LIST_INIT;
	struct gadget_owned *v = NULL;
	size_t i, n = 0;

	if (sysroot_list(GADGET_STATE_DIR, &l) == 0) {
		for (i = 0; i < l.n; i++) {
			const char *name = l.v[i], *end = strstr(name, ".state");
			struct gadget_state st;
			struct gadget_owned *o;
			char *dir, *why = NULL;

			if (strncmp(name, "gadget-", 7) || !end || end[6])
				continue;
			dir = strndup(name + 7, (size_t)(end - name - 7));
			if (!dir)
				abort();
			if (gadget_state_load(&st, dir, &why) == 0) {
				v = xgrow(v, &n, sizeof(*v));
				o = &v[n - 1];
				o->gadget = dir;
				o->state_file = xstrdup(st.file);
				o->paths = (int64_t)st.n;
				o->udc = attr_strf_nonempty(GADGET_CONFIGFS "/%s/UDC", dir);
				dir = NULL;
			}
			free(why);
			free(dir);
			gadget_state_release(&st);
		}
	}
	name_list_release(&l);
	*ret = v;
	*ret_n = n;
	return 0;
}

void gadget_owned_free(struct gadget_owned *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].gadget);
		free(v[i].state_file);
		free(v[i].udc);
	}
	free(v);
}

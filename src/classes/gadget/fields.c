// SPDX-License-Identifier: MIT
/* The field tables of usbperf gadget's reports, and which gadgets usbperf owns. */
#include "classes/gadget/endpoints.h"
#include "classes/gadget/state.h"
#include "platform/sys/attr.h"
#include "platform/usb/gadget.h"
#include "model/field.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "classes/gadget/fields.fields.h"

void gadget_built_describe(const struct gadget_built *b, struct report *out)
{
	/* CSV renders the first table: the functions */
	report_add_object(out, "gadget", "gadget", &built_desc, b);
	report_add_table(out, "functions", "functions", &fn_desc, b->fns, b->nfns, sizeof(*b->fns));
}

void gadget_built_schema(struct report *out)
{
	static const struct gadget_built none;

	gadget_built_describe(&none, out);
	/* gadget up's JSON has each function's endpoints under it (cmd/gadget.c) */
	out->sec[out->nsec - 1].child_key = "endpoints";
	out->sec[out->nsec - 1].child_desc = &ep_desc;
}

void gadget_eps_describe(const struct gadget_built_fn *fn, struct report *out)
{
	report_add_table(out, "endpoints", fn->function, &ep_desc, fn->eps, fn->neps,
			 sizeof(*fn->eps));
}

/* one compact line per endpoint under each function, after the tables */
void gadget_endpoints_text(const struct gadget_built *b, struct strbuf *out)
{
	size_t i, j;

	strbuf_addf(out,
		    "\nendpoints: the function drivers' descriptors at %s%s, as Linux 6.1 declares "
		    "them (not read from the bus)\n",
		    b->ep_speed, b->ep_speed_assumed ? " (assumed: the max speed is unknown)" : "");
	for (i = 0; i < b->nfns; i++) {
		const struct gadget_built_fn *f = &b->fns[i];

		strbuf_addf(out, "%s, as %s declares them%s%s\n", f->function,
			    f->ep_source ? f->ep_source : "its driver", f->ep_note ? ": " : "",
			    f->ep_note ? f->ep_note : "");
		for (j = 0; j < f->neps; j++) {
			const struct gadget_ep *e = &f->eps[j];

			strbuf_addf(out, "  ep %-3s %s %llu B",
				    !strcmp(e->dir, "in") ? "IN" : "OUT", e->type,
				    (unsigned long long)e->max_packet);
			if (!isnan(e->interval_us))
				strbuf_addf(out, " every %.0f us x%llu", e->interval_us,
					    (unsigned long long)e->mult);
			if (e->maxburst)
				strbuf_addf(out, " burst %llu",
					    (unsigned long long)e->maxburst + 1);
			strbuf_addf(out, " (%s): ", e->iface);
			if (isnan(e->ceiling_mb_s)) {
				strbuf_adds(out, e->ceiling_basis);
			} else {
				/* a notification endpoint's 500 B/s would read 0.001 MB/s */
				if (e->ceiling_mb_s < 0.1)
					ceiling_format(out, e->ceiling_Bps, "B/s");
				else
					ceiling_format(out, e->ceiling_mb_s, "MB/s");
				strbuf_addf(out, ", %s", e->ceiling_basis);
			}
			strbuf_addch(out, '\n');
		}
	}
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
				o->daemon_pid = FIELD_INT_UNKNOWN;
				for (size_t j = 0; j < st.n; j++) {
					const char *exe;
					int pid;

					if (strcmp(st.v[j].kind, "proc") ||
					    !gadget_proc_step(st.v[j].path, &pid, &exe))
						continue;
					o->daemon_pid = pid;
					free(o->daemon);
					o->daemon = xstrdup(exe);
					o->daemon_state =
					    gadget_fs_real.running(pid, exe) ? "running" : "gone";
				}
				dir = NULL;
			}
			free_all(why, dir);
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

	for (i = 0; i < n; i++)
		free_all(v[i].gadget, v[i].state_file, v[i].udc, v[i].daemon);
	free(v);
}

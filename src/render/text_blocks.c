// SPDX-License-Identifier: MIT
#include "render/text_blocks.h"
#include "render/spark.h"
#include "util/parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void add_size(struct strbuf *out, uint64_t bytes)
{
	static const char units[] = "KMGTP";
	double v = (double)bytes;
	int u = -1;

	while (v >= 1000 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_addf(out, "%llu B", (unsigned long long)bytes);
	else
		strbuf_addf(out, "%.*f %ciB", v < 10 ? 1 : 0, v, units[u]);
}

static void add_u64(struct strbuf *out, const char *label, uint64_t v)
{
	if (v != U64_UNKNOWN)
		strbuf_addf(out, ", %s %llu", label, (unsigned long long)v);
}

/*
 * A number read from sysfs, or "?" when it was not there or not a number:
 * U64_UNKNOWN must never reach a %llu (it prints as 18446744073709551615).
 */
static const char *u64_or_unknown(uint64_t v, const char *fmt, char *buf, size_t size)
{
	if (v == U64_UNKNOWN)
		return "?";
	snprintf(buf, size, fmt, (unsigned long long)v);
	return buf;
}

static void render_node(const struct usb_node *n, unsigned indent, struct strbuf *out)
{
	strbuf_pad(out, ' ', indent);
	if (!strcmp(n->kind, USB_NODE_DISK) || !strcmp(n->kind, USB_NODE_PARTITION)) {
		strbuf_addf(out, "%-9s %s", n->kind, n->dev_node);
		if (n->size_bytes != U64_UNKNOWN) {
			strbuf_adds(out, "  ");
			add_size(out, n->size_bytes);
		}
		if (n->fs_type)
			strbuf_addf(out, "  %s%s on %s", n->fs_type, n->fuse ? " (FUSE)" : "",
				    n->mount_point ? n->mount_point : "?");
		if (!strcmp(n->kind, USB_NODE_DISK)) {
			strbuf_adds(out, "\n");
			strbuf_pad(out, ' ', indent + 10);
			strbuf_adds(out, "queue: ");
			strbuf_addf(out, "scheduler %s", n->scheduler ? n->scheduler : "-");
			add_u64(out, "max_sectors_kb", n->max_sectors_kb);
			add_u64(out, "max_hw_sectors_kb", n->max_hw_sectors_kb);
			add_u64(out, "nr_requests", n->nr_requests);
			add_u64(out, "read_ahead_kb", n->read_ahead_kb);
			add_u64(out, "rotational", n->rotational);
		}
	} else if (!strcmp(n->kind, USB_NODE_NET)) {
		strbuf_addf(out, "%-9s %s  %s  %s", n->kind, n->name, n->mac ? n->mac : "-",
			    n->operstate ? n->operstate : "-");
		if (n->link_mbps != U64_UNKNOWN)
			strbuf_addf(out, "  link %llu Mbit/s", (unsigned long long)n->link_mbps);
		add_u64(out, "mtu", n->mtu);
	} else {
		strbuf_addf(out, "%-9s %s", n->kind, n->dev_node ? n->dev_node : n->name);
		if (n->label)
			strbuf_addf(out, "  \"%s\"", n->label);
	}
	strbuf_addch(out, '\n');
}

static void render_interface(const struct usb_topology *t, const struct usb_interface *i,
			     unsigned indent, struct strbuf *out)
{
	size_t k;
	const char *colon = strchr(i->name, ':');

	strbuf_pad(out, ' ', indent);
	strbuf_addf(out, "%s  %s", colon ? colon : i->name,
		    i->class_name ? i->class_name : "class ?");
	if (i->cls != U64_UNKNOWN) {
		char sub[24], proto[24];

		strbuf_addf(out, " (%02llx/%s/%s)", (unsigned long long)i->cls,
			    u64_or_unknown(i->subclass, "%02llx", sub, sizeof(sub)),
			    u64_or_unknown(i->protocol, "%02llx", proto, sizeof(proto)));
	}
	strbuf_addf(out, "  driver %s", i->driver ? i->driver : "(none)");
	if (i->offers_uas)
		strbuf_adds(out, "  [offers UAS]");
	strbuf_addch(out, '\n');
	for (k = 0; k < t->nnode; k++)
		if (!strcmp(t->node[k].interface, i->name))
			render_node(&t->node[k], indent + 4, out);
}

static void render_device(const struct usb_topology *t, const struct usb_device *d,
			  struct strbuf *out)
{
	unsigned indent = 2 + 4 * (unsigned)(d->depth == U64_UNKNOWN ? 1 : d->depth - 1);
	size_t k;

	strbuf_pad(out, ' ', indent);
	strbuf_addf(out, "%s  %s", d->path, d->vid_pid ? d->vid_pid : "????:????");
	if (d->manufacturer || d->product)
		strbuf_addf(out, "  %s%s%s", d->manufacturer ? d->manufacturer : "",
			    d->manufacturer && d->product ? " " : "", d->product ? d->product : "");
	strbuf_addch(out, '\n');
	strbuf_pad(out, ' ', indent + 4);
	strbuf_addf(out, "USB %s, %s", d->usb_version ? d->usb_version : "?",
		    usb_speed_label(d->speed));
	if (d->capable && d->capable > d->speed)
		strbuf_addf(out, " (capable of %s)", usb_speed_label(d->capable));
	if (!isnan(d->bulk_ceiling_mb_s)) {
		strbuf_adds(out, ", bulk ceiling ");
		metric_format(out, d->bulk_ceiling_mb_s);
		strbuf_adds(out, " MB/s");
	}
	if (d->hub_ports != U64_UNKNOWN && d->hub_ports > 0)
		strbuf_addf(out, ", hub with %llu ports", (unsigned long long)d->hub_ports);
	strbuf_addch(out, '\n');
	for (k = 0; k < t->nintf; k++)
		if (!strcmp(t->intf[k].device, d->path) && !(d->hub_ports != U64_UNKNOWN &&
							      d->hub_ports > 0))
			render_interface(t, &t->intf[k], indent + 4, out);
}

static void render_controller(const struct usb_controller *c, struct strbuf *out)
{
	char bus[24];

	strbuf_addf(out, "Bus %s: %s", u64_or_unknown(c->busnum, "%llu", bus, sizeof(bus)),
		    usb_speed_label(c->speed));
	if (c->ports != U64_UNKNOWN)
		strbuf_addf(out, ", %llu ports", (unsigned long long)c->ports);
	strbuf_addf(out, "  [%s %s", c->kind ? c->kind : "controller", c->name ? c->name : "?");
	if (c->bus_type)
		strbuf_addf(out, " on %s", c->bus_type);
	if (c->driver)
		strbuf_addf(out, ", driver %s", c->driver);
	if (c->glue)
		strbuf_addf(out, ", core %s", c->glue);
	if (c->irq)
		strbuf_addf(out, ", IRQ %s", c->irq);
	if (c->irq_count != U64_UNKNOWN)
		strbuf_addf(out, " (%llu interrupts)", (unsigned long long)c->irq_count);
	strbuf_adds(out, "]\n");
}

void render_usb_tree(const struct usb_topology *t, struct strbuf *out)
{
	size_t i, j;

	if (t->no_usb) {
		strbuf_adds(out, "no USB: /sys/bus/usb does not exist (no USB support in this "
				 "kernel, or a machine without USB)\n");
		return;
	}
	for (i = 0; i < t->ndev; i++) {
		const struct usb_device *d = &t->dev[i];

		if (d->is_root_hub) {
			for (j = 0; j < t->nctl; j++)
				if (!strcmp(t->ctl[j].root_hub, d->path))
					render_controller(&t->ctl[j], out);
			continue;
		}
		render_device(t, d, out);
	}
}

void render_finding_block(const struct finding *f, struct strbuf *out)
{
	strbuf_addf(out, "  %-4s  %s: ", f->severity, f->subject ? f->subject : "-");
	text_wrap(out, 8, f->message);
	/* the sentences wrap under their own start: 100 columns, one clause a pass no more */
	if (f->evidence) {
		strbuf_adds(out, "        evidence: ");
		text_wrap(out, 18, f->evidence);
	}
	if (f->fix) {
		strbuf_adds(out, "        fix: ");
		text_wrap(out, 13, f->fix);
	}
}

void render_findings_text(const struct finding *f, size_t n, struct strbuf *out)
{
	if (!n) {
		strbuf_adds(out, "findings: none\n");
		return;
	}
	strbuf_adds(out, "findings\n");
	for (size_t i = 0; i < n; i++)
		render_finding_block(&f[i], out);
}

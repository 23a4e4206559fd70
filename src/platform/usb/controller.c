// SPDX-License-Identifier: MIT
/* Host controllers: the device above each root hub, its driver and its IRQ lines. */
#include "platform/usb/topology_priv.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *needle; /* in the driver name */
	const char *kind;
} kinds[] = {
	{"xhci", "xhci"}, {"ehci", "ehci"}, {"ohci", "ohci"}, {"uhci", "uhci"},
	{"dwc2", "dwc2"}, {"dwc3", "dwc3"}, {"musb", "musb"}, {"ci_hdrc", "chipidea"},
	{"cdns", "cdns3"}, {"dummy_hcd", "dummy_hcd"}, {"vhci_hcd", "vhci (usbip)"},
};

static const char *kind_of(const char *driver)
{
	size_t i;

	for (i = 0; driver && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strstr(driver, kinds[i].needle))
			return kinds[i].kind;
	return NULL;
}

static char *dirname_dup(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path ? strndup(path, (size_t)(slash - path)) : NULL;
}

/* MSI vectors if any (msi_irqs/<n>), else the legacy irq attribute */
static char *irq_lines(const char *dev)
{
	struct strbuf p = STRBUF_INIT, out = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	char *irq;
	size_t i;

	strbuf_addf(&p, "%s/msi_irqs", dev);
	if (sysroot_list(p.buf, &l) == 0) {
		for (i = 0; i < l.n; i++) {
			uint64_t v;

			if (parse_u64(l.v[i], 0, 1 << 24, &v) == 0)
				strbuf_addf(&out, "%s%s", out.len ? "," : "", l.v[i]);
		}
		name_list_release(&l);
	}
	strbuf_release(&p);
	if (out.len)
		return strbuf_detach(&out);
	strbuf_release(&out);
	irq = attr_get(dev, "irq");
	if (irq && !strcmp(irq, "0")) {
		free(irq);
		irq = NULL;
	}
	return irq;
}

static bool in_list(const char *list, const char *tok, size_t n)
{
	const char *s = list;

	while (s && *s) {
		size_t len = strcspn(s, ",");

		if (len == n && !strncmp(s, tok, n))
			return true;
		s += len + (s[len] == ',');
	}
	return false;
}

/*
 * /proc/interrupts: sum the per-CPU counts of the controller's lines. A
 * platform controller often has no irq attribute: then its line is the one
 * whose action is named after its bus ("xhci-hcd:usb1") or the device.
 */
static void count_irqs(struct usb_controller *c)
{
	struct strbuf text = STRBUF_INIT, found = STRBUF_INIT, bus = STRBUF_INIT;
	char *line, *save = NULL;
	uint64_t total = 0;
	bool any = false;

	if (sysroot_read("/proc/interrupts", 1 << 20, &text) < 0)
		goto out;
	strbuf_addf(&bus, ":%s", c->root_hub);
	for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *s = line + strspn(line, " ");
		size_t n = strspn(s, "0123456789");
		uint64_t sum = 0, v;
		char *tok, *tsave = NULL, *rest;
		bool match;

		if (!n || s[n] != ':')
			continue;
		if (c->irq) {
			match = in_list(c->irq, s, n);
		} else {
			const char *hit = strstr(s, bus.buf);

			match = (hit && (hit[bus.len] == '\0' || hit[bus.len] == ' ' ||
					 hit[bus.len] == ',')) ||
				(c->name && strstr(s + n, c->name));
		}
		if (!match)
			continue;
		if (!c->irq)
			strbuf_addf(&found, "%s%.*s", found.len ? "," : "", (int)n, s);
		rest = (char *)s + n + 1;
		for (tok = strtok_r(rest, " ", &tsave); tok; tok = strtok_r(NULL, " ", &tsave)) {
			if (parse_u64(tok, 0, UINT64_MAX - 1, &v) < 0)
				break;
			sum += v;
		}
		total += sum;
		any = true;
	}
	if (any)
		c->irq_count = total;
	if (!c->irq && found.len)
		c->irq = strbuf_detach(&found);
out:
	strbuf_release(&text);
	strbuf_release(&found);
	strbuf_release(&bus);
}

void probe_controller(struct usb_topology *t, const struct usb_device *root, const char *dir)
{
	struct usb_controller *c;
	char *parent = dirname_dup(dir), *grand = parent ? dirname_dup(parent) : NULL;

	t->ctl = xgrow(t->ctl, &t->nctl, sizeof(*t->ctl));
	c = &t->ctl[t->nctl - 1];
	c->busnum = root->busnum;
	c->root_hub = strdup(root->path);
	c->speed = root->speed;
	c->speed_name = root->speed_name;
	c->ports = root->hub_ports;
	c->irq_count = U64_UNKNOWN;
	if (parent) {
		const char *base = strrchr(parent, '/');

		c->name = strdup(base ? base + 1 : parent);
		c->driver = attr_link_name(parent, "driver");
		c->bus_type = attr_link_name(parent, "subsystem");
		c->kind = kind_of(c->driver);
		c->irq = irq_lines(parent);
	}
	if (grand) {
		/* a dual-role core (dwc3, cdns3) registers xhci as a child platform device */
		char *gdrv = attr_link_name(grand, "driver");
		const char *gkind = kind_of(gdrv);

		if (gkind && (!c->kind || strcmp(gkind, c->kind))) {
			const char *base = strrchr(grand, '/');
			struct strbuf g = STRBUF_INIT;

			strbuf_addf(&g, "%s (%s)", base ? base + 1 : grand, gdrv);
			c->glue = strbuf_detach(&g);
			c->kind = gkind;
		}
		free(gdrv);
	}
	count_irqs(c);
	free_all(parent, grand);
}

uint64_t usb_irq_count(const char *irq_list)
{
	struct usb_controller c = {.root_hub = "", .irq = (char *)irq_list,
				   .irq_count = U64_UNKNOWN};

	if (!irq_list)
		return U64_UNKNOWN;
	count_irqs(&c);
	return c.irq_count;
}

// SPDX-License-Identifier: MIT
/* Findings about how devices are attached: speed, driver, filesystem, queue, power. */
#include "platform/usb/topology_priv.h"
#include "util/strbuf.h"

#include <string.h>

/* usb-storage's default request size (240 sectors) and less: large transfers are split */
#define SMALL_MAX_SECTORS_KB 256

static const struct usb_device *find_dev(const struct usb_topology *t, const char *path)
{
	return usb_topology_device(t, path);
}

/*
 * The hub that holds the device back: of the hubs between it and its root
 * hub, the slowest that links below limit (the device's capability, or its
 * own speed), the one nearest the root on a tie (everything below it shares
 * its link). NULL: none.
 */
static const struct usb_device *limiting_hub(const struct usb_topology *t,
					     const struct usb_device *d, enum usb_speed limit)
{
	const struct usb_device *worst = NULL;
	size_t guard = 0;

	for (const struct usb_device *h = find_dev(t, d->parent); h && !h->is_root_hub && guard < 16;
	     h = find_dev(t, h->parent), guard++)
		if (h->speed && h->speed < limit && (!worst || h->speed <= worst->speed))
			worst = h;
	return worst;
}

/* "the full-speed hub 1-1 (0409:55aa)" */
static void hub_name(struct strbuf *out, const struct usb_device *h)
{
	strbuf_addf(out, "the %s hub %s", usb_speed_label(h->speed), h->path);
	if (h->vid_pid)
		strbuf_addf(out, " (%s%s%s)", h->vid_pid, h->product ? " " : "",
			    h->product ? h->product : "");
}

/* is path below hub (hub "1-3": "1-3.2", "1-3.4.1")? */
static bool below(const char *hub, const char *path)
{
	size_t n = strlen(hub);

	return !strncmp(path, hub, n) && path[n] == '.';
}

/* the hub's own link, and what sits below it: for a finding's evidence */
static void hub_evidence(struct strbuf *ev, const struct usb_topology *t,
			 const struct usb_device *h)
{
	size_t k = 0;

	for (size_t i = 0; i < t->ndev; i++)
		k += below(h->path, t->dev[i].path);
	strbuf_addf(ev, "; hub %s links at %g Mbit/s (%s/speed) with %zu device%s below it "
			"sharing that link",
		    h->path, h->speed_mbps, h->path, k, k == 1 ? "" : "s");
}

/* does the device carry something people measure (a disk, a netdev, a camera)? */
static bool under_test(const struct usb_topology *t, const char *path)
{
	size_t i;

	for (i = 0; i < t->nnode; i++)
		if (!strcmp(t->node[i].device, path) &&
		    (!strcmp(t->node[i].kind, "disk") || !strcmp(t->node[i].kind, "net") ||
		     !strcmp(t->node[i].kind, "video")))
			return true;
	return false;
}

/* no root hub of the same controller runs at SuperSpeed (EHCI, OHCI, dwc2...) */
static bool controller_usb2_only(const struct usb_topology *t, const struct usb_controller *c)
{
	size_t i;

	for (i = 0; i < t->nctl; i++)
		if (t->ctl[i].speed >= USB_SPEED_SS &&
		    (!c->name || !t->ctl[i].name || !strcmp(t->ctl[i].name, c->name)))
			return false;
	return true;
}

static void speed_finding(const struct usb_topology *t, const struct usb_device *d,
			  struct finding_list *out)
{
	struct strbuf ev = STRBUF_INIT, fix = STRBUF_INIT, msg = STRBUF_INIT;
	const struct usb_device *hub = limiting_hub(t, d, d->capable);
	const struct usb_controller *ctl = NULL;
	size_t i;

	for (i = 0; i < t->nctl; i++)
		if (t->ctl[i].busnum == d->busnum)
			ctl = &t->ctl[i];

	double now, could;
	const char *basis;

	usb_link_ceiling(d->speed, &now, &basis);
	usb_link_ceiling(d->capable, &could, &basis);
	strbuf_addf(&msg, "connected at %s though capable of %s", usb_speed_label(d->speed),
		    usb_speed_label(d->capable));
	if (now > 0 && could > 0)
		strbuf_addf(&msg, ": bulk ceiling %.1f MB/s instead of %.1f", now, could);
	strbuf_addf(&ev, "speed %g Mbit/s (%s/speed); %s says %s", d->speed_mbps, d->path,
		    d->capable_source && !strcmp(d->capable_source, "bos") ? "BOS descriptor"
									    : "bcdUSB",
		    d->capable_source && !strcmp(d->capable_source, "bos") ? usb_speed_name(d->capable)
									    : d->usb_version);
	if (d->port)
		strbuf_addf(&ev, "; port %s, peer %s", d->port, d->port_peer ? d->port_peer : "none");
	if (hub) {
		strbuf_adds(&msg, ", behind ");
		hub_name(&msg, hub);
		hub_evidence(&ev, t, hub);
		strbuf_adds(&fix, "connect the device above ");
		hub_name(&fix, hub);
		strbuf_addf(&fix, " (to a port nearer the root that runs at %s), or replace that hub "
				  "with one of the device's speed: every device below it shares its "
				  "%s link",
			    usb_speed_label(d->capable), usb_speed_label(hub->speed));
		if (d->capable >= USB_SPEED_SS && hub->port_peer)
			strbuf_addf(&fix, " (its port %s has a SuperSpeed peer, %s: the hub, not "
					  "the port, is the limit)",
				    hub->port ? hub->port : "?", hub->port_peer);
	} else if (d->capable >= USB_SPEED_SS && d->speed < USB_SPEED_SS && ctl &&
		 controller_usb2_only(t, ctl))
		strbuf_addf(&fix, "the host controller (%s %s) is USB 2 only: move the device to a "
				  "port of a USB 3 (xHCI) controller",
			    ctl->kind ? ctl->kind : "controller", ctl->name ? ctl->name : "?");
	else if (d->capable >= USB_SPEED_SS && d->speed < USB_SPEED_SS && d->port && !d->port_peer)
		strbuf_adds(&fix, "this port has no SuperSpeed peer (a USB 2 only port): move the "
				  "device to a USB 3 port");
	else if (d->capable >= USB_SPEED_SS && d->speed < USB_SPEED_SS)
		strbuf_adds(&fix, "the port is SuperSpeed-capable but the SuperSpeed pair did not "
				  "link: use a USB 3 cable, reseat the plug, avoid USB 2 extension "
				  "cables");
	else
		strbuf_adds(&fix, "use a port and cable rated for the device's speed (a USB 3.2 "
				  "Gen 2 port for Gen 2 devices)");
	finding_add(out, FINDING_WARN, "usb.speed_below_capability", d->path, msg.buf, ev.buf,
		    fix.buf);
	strbuf_release(&ev);
	strbuf_release(&fix);
	strbuf_release(&msg);
}

static void device_findings(const struct usb_topology *t, const struct usb_device *d,
			    struct finding_list *out)
{
	struct strbuf ev = STRBUF_INIT, fix = STRBUF_INIT;

	if (d->is_root_hub)
		return;
	if (d->capable && d->speed && d->speed < d->capable)
		speed_finding(t, d, out);
	if (d->speed && d->speed <= USB_SPEED_FULL && under_test(t, d->path)) {
		/* a hub above that runs at full speed: the device can do no better below it */
		const struct usb_device *hub = limiting_hub(t, d, USB_SPEED_HIGH);
		struct strbuf msg = STRBUF_INIT;

		strbuf_adds(&msg, "storage/network/video device on a USB 1.x link");
		strbuf_addf(&ev, "speed %g Mbit/s (%s/speed)", d->speed_mbps, d->path);
		if (hub) {
			strbuf_adds(&msg, ", behind ");
			hub_name(&msg, hub);
			hub_evidence(&ev, t, hub);
			strbuf_adds(&fix, "move the device off ");
			hub_name(&fix, hub);
			strbuf_adds(&fix, " (to a port above it, or replace it with a USB 2 hub): "
					  "every device below it shares its 12 Mbit/s");
		} else {
			strbuf_adds(&fix, "check the device, cable and port: a USB 2 device should "
					  "link at high speed (480M)");
		}
		strbuf_adds(&msg, ": bulk tops out at 1.216 MB/s, isochronous video at 1.023 MB/s");
		finding_add(out, FINDING_WARN, "usb.full_speed_data_device", d->path, msg.buf,
			    ev.buf, fix.buf);
		strbuf_release(&msg);
		strbuf_reset(&ev);
		strbuf_reset(&fix);
	}
	if (d->power_control && !strcmp(d->power_control, "auto") && under_test(t, d->path)) {
		strbuf_addf(&ev, "%s/power/control = auto", d->path);
		if (d->autosuspend_delay_ms != U64_UNKNOWN)
			strbuf_addf(&ev, ", autosuspend_delay_ms = %llu",
				    (unsigned long long)d->autosuspend_delay_ms);
		strbuf_addf(&fix, "echo on > /sys/bus/usb/devices/%s/power/control", d->path);
		finding_add(out, FINDING_WARN, "usb.autosuspend", d->path,
			    "device under test may autosuspend between passes: the first I/O "
			    "after a pause pays the resume",
			    ev.buf, fix.buf);
	}
	strbuf_release(&ev);
	strbuf_release(&fix);
}

static void interface_findings(const struct usb_topology *t, const struct usb_interface *i,
			       struct finding_list *out)
{
	const struct usb_device *d = find_dev(t, i->device);
	struct strbuf ev = STRBUF_INIT;

	/* at 480M Bulk-Only is the norm; at 5G it leaves most of the link unused */
	if (!i->offers_uas && i->driver && !strcmp(i->driver, "usb-storage") && d &&
	    d->speed >= USB_SPEED_SS) {
		strbuf_addf(&ev, "interface %s: driver usb-storage, no UAS alternate setting in the "
				 "descriptors; link %s",
			    i->name, usb_speed_label(d->speed));
		finding_add(out, FINDING_INFO, "usb.storage_bot", i->device,
			    "SuperSpeed disk on Bulk-Only Transport: one command at a time; field "
			    "figures are 60-100 MB/s without UAS, up to ~350 MB/s with it (field "
			    "reference, not a limit)",
			    ev.buf,
			    "nothing to tune on the host: a UAS-capable enclosure or bridge is what "
			    "lifts it");
		strbuf_reset(&ev);
	}

	if (i->offers_uas && i->driver && !strcmp(i->driver, "usb-storage")) {
		strbuf_addf(&ev, "interface %s has a UAS alternate setting (class 08/06/62); "
				 "bound driver usb-storage (Bulk-Only)",
			    i->name);
		finding_add(out, FINDING_WARN, "usb.storage_without_uas", i->device,
			    "mass storage runs on usb-storage although the device offers UAS: "
			    "one command at a time, no queueing",
			    ev.buf,
			    "load the uas module (CONFIG_USB_UAS); if a quirk disables UAS for this "
			    "device (usb-storage.quirks=VID:PID:u, or the kernel's unusual_uas "
			    "list), it was put there for a reason: test before removing it");
	}
	strbuf_release(&ev);
}

static const struct usb_interface *find_intf(const struct usb_topology *t, const char *name)
{
	size_t i;

	for (i = 0; name && i < t->nintf; i++)
		if (!strcmp(t->intf[i].name, name))
			return &t->intf[i];
	return NULL;
}

static void node_findings(const struct usb_topology *t, const struct usb_node *n,
			  struct finding_list *out)
{
	const struct usb_interface *intf = find_intf(t, n->interface);
	bool bot = intf && intf->driver && !strcmp(intf->driver, "usb-storage");
	struct strbuf ev = STRBUF_INIT, fix = STRBUF_INIT;

	if (n->fuse) {
		strbuf_addf(&ev, "%s mounted on %s as %s (/proc/self/mountinfo)", n->dev_node,
			    n->mount_point ? n->mount_point : "?", n->fs_type);
		finding_add(out, FINDING_WARN, "usb.fuse_filesystem", n->name,
			    "filesystem mounted through FUSE: every byte crosses user space, "
			    "throughput is CPU-bound",
			    ev.buf,
			    "mount with a kernel driver instead (ntfs3 for NTFS, exfat for exFAT), "
			    "or test the raw device");
		strbuf_reset(&ev);
	}
	if (!strcmp(n->kind, USB_NODE_DISK) && n->max_sectors_kb != U64_UNKNOWN &&
	    n->max_sectors_kb < SMALL_MAX_SECTORS_KB) {
		bool hw_allows = n->max_hw_sectors_kb != U64_UNKNOWN &&
				 n->max_hw_sectors_kb > n->max_sectors_kb;

		strbuf_addf(&ev, "/sys/block/%s/queue/max_sectors_kb = %llu", n->name,
			    (unsigned long long)n->max_sectors_kb);
		if (n->max_hw_sectors_kb != U64_UNKNOWN)
			strbuf_addf(&ev, ", max_hw_sectors_kb = %llu",
				    (unsigned long long)n->max_hw_sectors_kb);
		if (!hw_allows && bot)
			strbuf_addf(&fix, "usb-storage caps requests at 240 sectors by default: echo "
					  "2048 > /sys/block/%s/device/max_sectors raises it (max_sectors_kb "
					  "follows); check the device copes with large transfers",
				    n->name);
		else if (hw_allows)
			strbuf_addf(&fix, "echo %llu > /sys/block/%s/queue/max_sectors_kb (the "
					  "hardware limit), then compare large sequential transfers",
				    (unsigned long long)(n->max_hw_sectors_kb < 1024
								 ? n->max_hw_sectors_kb
								 : 1024),
				    n->name);
		else
			strbuf_adds(&fix, "the host controller or driver limits it: nothing to tune "
					  "from user space");
		finding_add(out, hw_allows || bot ? FINDING_WARN : FINDING_INFO, "block.small_max_sectors",
			    n->name, "small request size: large transfers are split into many "
				     "small commands",
			    ev.buf, fix.buf);
	}
	strbuf_release(&ev);
	strbuf_release(&fix);
}

void usb_topology_findings(const struct usb_topology *t, struct finding_list *out)
{
	size_t i;

	for (i = 0; i < t->ndev; i++)
		device_findings(t, &t->dev[i], out);
	for (i = 0; i < t->nintf; i++)
		interface_findings(t, &t->intf[i], out);
	for (i = 0; i < t->nnode; i++)
		node_findings(t, &t->node[i], out);
}

static size_t measured_below(const char *hub, const char *const *measured, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += measured[i] && below(hub, measured[i]);
	return k;
}

void usb_shared_hub_findings(const struct usb_topology *t, const char *const *measured, size_t n,
			     struct finding_list *out)
{
	for (size_t i = 0; i < t->ndev; i++) {
		const struct usb_device *h = &t->dev[i];
		struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT, fix = STRBUF_INIT;
		size_t k = h->is_root_hub || !h->hub_ports || h->hub_ports == U64_UNKNOWN
			       ? 0
			       : measured_below(h->path, measured, n);
		bool deeper = false;

		if (k < 2)
			continue;
		/* the deepest hub that holds them: a hub below with as many says it better */
		for (size_t j = 0; j < t->ndev && !deeper; j++)
			deeper = below(h->path, t->dev[j].path) && t->dev[j].hub_ports &&
				 t->dev[j].hub_ports != U64_UNKNOWN &&
				 measured_below(t->dev[j].path, measured, n) == k;
		if (deeper)
			continue;
		strbuf_addf(&msg, "%zu of the measured devices share the upstream link of ", k);
		hub_name(&msg, h);
		if (h->bulk_ceiling_mb_s > 0)
			strbuf_addf(&msg, " (bulk ceiling %.1f MB/s for all of them together)",
				    h->bulk_ceiling_mb_s);
		strbuf_adds(&msg, ": each was measured alone; used at once they divide it");
		strbuf_adds(&ev, "below it:");
		for (size_t m = 0; m < n; m++)
			if (measured[m] && below(h->path, measured[m]))
				strbuf_addf(&ev, " %s", measured[m]);
		hub_evidence(&ev, t, h);
		strbuf_adds(&fix, "give the device that must be fast its own root port (or a hub of "
				  "its own), and measure the others with it running to see the share "
				  "each keeps");
		finding_add(out, FINDING_INFO, "usb.shared_hub", h->path, msg.buf, ev.buf, fix.buf);
		strbuf_release(&msg);
		strbuf_release(&ev);
		strbuf_release(&fix);
	}
}

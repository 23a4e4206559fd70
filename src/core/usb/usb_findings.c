// SPDX-License-Identifier: MIT
/* Findings about how devices are attached: speed, driver, filesystem, queue, power. */
#include "core/usb/topology_priv.h"
#include "util/strbuf.h"

#include <string.h>

/* usb-storage's default request size (240 sectors) and less: large transfers are split */
#define SMALL_MAX_SECTORS_KB 256

static const struct usb_device *find_dev(const struct usb_topology *t, const char *path)
{
	size_t i;

	for (i = 0; path && i < t->ndev; i++)
		if (!strcmp(t->dev[i].path, path))
			return &t->dev[i];
	return NULL;
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
	const struct usb_device *hub = find_dev(t, d->parent);
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
	if (hub && !hub->is_root_hub && hub->speed < d->capable)
		strbuf_addf(&fix, "the hub above (%s) runs at %s: connect the device directly or "
				  "through a faster hub",
			    hub->path, usb_speed_label(hub->speed));
	else if (d->capable >= USB_SPEED_SS && d->speed < USB_SPEED_SS && ctl &&
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
		strbuf_addf(&ev, "speed %g Mbit/s (%s/speed)", d->speed_mbps, d->path);
		finding_add(out, FINDING_WARN, "usb.full_speed_data_device", d->path,
			    "storage/network/video device on a USB 1.x link: bulk tops out at "
			    "1.216 MB/s, isochronous video at 1.023 MB/s",
			    ev.buf, "check the device, cable and port: a USB 2 device should link at "
				    "high speed (480M)");
		strbuf_reset(&ev);
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
	if (!strcmp(n->kind, "disk") && n->max_sectors_kb != U64_UNKNOWN &&
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

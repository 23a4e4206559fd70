/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The USB tree as sysfs shows it (/sys/bus/usb/devices), every read through
 * sysroot so recorded trees replay: host controllers, devices, interfaces,
 * and what each interface became for the user (block devices with their
 * partitions and mounts, network interfaces, video, hidraw and tty nodes).
 *
 * Plain data, flat arrays linked by sysfs names (a device's "path" is its
 * bus-port name, "2-1.4"), so each array is one JSON/CSV table and one SQL
 * table later. Anything unreadable is NULL / U64_UNKNOWN / NaN: unknown.
 */
#include "model/findings.h"
#include "platform/usb/speed.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct usb_controller {
	uint64_t busnum;
	char *root_hub;	  /* "usb2" */
	char *name;	  /* the controller device: "0000:00:14.0", "xhci-hcd.0.auto" */
	char *bus_type;	  /* "pci", "platform" */
	char *driver;	  /* "xhci_hcd", "ehci-pci", "dwc2" */
	const char *kind; /* "xhci", "ehci", "ohci", "uhci", "dwc2", "dwc3", "musb", or NULL */
	char *glue;	  /* the parent device and driver for a dual-role core: "fc000000.usb (dwc3)" */
	char *irq;	  /* "125" or "125,126" (MSI), from the device or /proc/interrupts */
	uint64_t irq_count; /* interrupts taken on those lines since boot */
	enum usb_speed speed;
	const char *speed_name;
	uint64_t ports;
};

struct usb_device {
	char *path;	    /* "2-1.4", or "usb2" for a root hub */
	char *parent;	    /* parent device path, NULL for a root hub */
	uint64_t busnum, devnum, depth; /* depth: 0 for a root hub */
	char *vid_pid;	    /* "0781:5583" */
	char *manufacturer, *product, *serial;
	char *usb_version;  /* bcdUSB: "3.20" */
	unsigned bcd_usb;   /* 0x0320, 0 unknown */
	enum usb_speed speed;
	const char *speed_name; /* negotiated: "high", "super" ... */
	double speed_mbps;
	uint64_t rx_lanes, tx_lanes;
	enum usb_speed capable; /* the fastest the device says it can do */
	const char *capable_name;
	const char *capable_source; /* "bos" (BOS descriptor) or "bcdUSB"; NULL unknown */
	char *port;	    /* "usb2-port1" */
	char *port_peer;    /* the port's peer on the other root hub: "usb1-port1" */
	char *port_connect_type; /* "hotplug", "hardwired", "not used" */
	const char *class_name; /* device class */
	char *driver;	    /* the device driver: "usb" (generic), "hub" */
	uint64_t max_power_ma;
	char *power_control; /* power/control: "auto" (may autosuspend) or "on" */
	uint64_t autosuspend_delay_ms;
	char *removable;    /* "removable", "fixed", "unknown" */
	uint64_t num_interfaces;
	uint64_t hub_ports; /* maxchild; 0 for a non-hub */
	double bulk_ceiling_mb_s; /* bulk payload ceiling of the negotiated speed, MB/s */
	bool is_root_hub;
	bool offers_uas;    /* an interface has a UAS alternate setting */
	uint64_t uas_ifmask; /* which interface numbers (< 64) offer it */
};

struct usb_interface {
	char *device;	    /* "2-1" */
	char *name;	    /* "2-1:1.0" */
	uint64_t number, alt_setting, num_endpoints;
	uint64_t cls, subclass, protocol;
	const char *class_name;
	char *driver;	    /* "uas", "usb-storage", "cdc_ncm", NULL unbound */
	char *label;	    /* iInterface string */
	bool offers_uas;
};

/* a usb_node's kind: what the kernel made of an interface */
#define USB_NODE_DISK "disk"
#define USB_NODE_PARTITION "partition"
#define USB_NODE_NET "net"
#define USB_NODE_VIDEO "video"
#define USB_NODE_HIDRAW "hidraw"
#define USB_NODE_TTY "tty"

/* What an interface became: one row per block device, partition, netdev, node. */
struct usb_node {
	char *device;	    /* "2-1" */
	char *interface;    /* "2-1:1.0" */
	const char *kind;   /* USB_NODE_*: "disk", "partition", "net", "video", "hidraw", "tty" */
	char *name;	    /* "sdb", "sdb1", "enx...", "video0" */
	char *dev_node;	    /* "/dev/sdb"; NULL for a network interface */
	char *parent_name;  /* a partition's disk */
	char *devnum;	    /* block devices: "8:16" */
	/* disk and partition */
	uint64_t size_bytes;
	char *fs_type, *mount_point;
	bool fuse;	    /* mounted through FUSE (ntfs-3g, exfat-fuse): CPU-bound */
	uint64_t max_sectors_kb, max_hw_sectors_kb, nr_requests, rotational, read_ahead_kb;
	char *scheduler;    /* the active one */
	/* net */
	char *mac, *operstate;
	uint64_t link_mbps, mtu;
	/* video, hidraw, tty */
	char *label;
};

struct usb_topology {
	struct usb_controller *ctl;
	size_t nctl;
	struct usb_device *dev;
	size_t ndev;
	struct usb_interface *intf;
	size_t nintf;
	struct usb_node *node;
	size_t nnode;
	bool no_usb; /* no /sys/bus/usb at all (no USB support, or a VM without it) */
};

/* Read the whole tree. 0 even with no USB (no_usb set); -errno only for ENOMEM. */
int usb_topology_probe(struct usb_topology *ret);
void usb_topology_release(struct usb_topology *t);
/* The device at a bus-port path ("2-1.4", "usb2"), NULL if none. */
const struct usb_device *usb_topology_device(const struct usb_topology *t, const char *path);
/* Findings about how devices are attached; appended to out. */
void usb_topology_findings(const struct usb_topology *t, struct finding_list *out);
/*
 * Devices measured in one run (their port paths) that share a hub's
 * upstream link: one finding per hub, the deepest that holds two or more
 * of them (usb.shared_hub).
 */
void usb_shared_hub_findings(const struct usb_topology *t, const char *const *measured, size_t n,
			     struct finding_list *out);

/* Interrupts taken so far on these lines ("24,25"), from /proc/interrupts; U64_UNKNOWN if none. */
uint64_t usb_irq_count(const char *irq_list);

/* field tables: one per array */
extern const struct record_desc usb_controller_desc, usb_device_desc, usb_interface_desc,
	usb_node_desc;

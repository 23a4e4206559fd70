// SPDX-License-Identifier: MIT
/* The schema of `usbperf list`: one field table per array of struct usb_topology. */
#include "platform/usb/topology.h"

#define T FF_TEXT
#define S(st, m, key, hdr, fl) FIELD(st, m, key, hdr, NULL, FT_STR, 0, fl)
#define U(st, m, key, hdr, unit, fl) FIELD(st, m, key, hdr, unit, FT_U64, 0, fl)

static const struct field ctl_fields[] = {
	U(struct usb_controller, busnum, "bus", "bus", NULL, T),
	S(struct usb_controller, root_hub, "root_hub", "root hub", 0),
	S(struct usb_controller, kind, "kind", "kind", T),
	S(struct usb_controller, name, "device", "device", T),
	S(struct usb_controller, bus_type, "bus_type", "on", T),
	S(struct usb_controller, driver, "driver", "driver", T),
	S(struct usb_controller, glue, "glue", "glue", 0),
	S(struct usb_controller, speed_name, "speed", "speed", T),
	U(struct usb_controller, ports, "ports", "ports", NULL, T),
	S(struct usb_controller, irq, "irq", "IRQ", T),
	U(struct usb_controller, irq_count, "irq_count", "interrupts", NULL, T),
};
const struct record_desc usb_controller_desc = RECORD_DESC("controller", ctl_fields);

static const struct field dev_fields[] = {
	S(struct usb_device, path, "path", "path", T),
	S(struct usb_device, parent, "parent", "parent", 0),
	U(struct usb_device, busnum, "bus", "bus", NULL, 0),
	U(struct usb_device, devnum, "devnum", "dev", NULL, 0),
	U(struct usb_device, depth, "depth", "depth", NULL, 0),
	S(struct usb_device, vid_pid, "vid_pid", "VID:PID", T),
	S(struct usb_device, manufacturer, "manufacturer", "manufacturer", 0),
	S(struct usb_device, product, "product", "product", T),
	S(struct usb_device, serial, "serial", "serial", 0),
	S(struct usb_device, usb_version, "usb_version", "USB", T),
	S(struct usb_device, speed_name, "speed", "speed", T),
	FIELD(struct usb_device, speed_mbps, "speed_mbit_s", "rate", "Mbit/s", FT_DBL, 1, 0),
	U(struct usb_device, rx_lanes, "rx_lanes", "rx lanes", NULL, 0),
	U(struct usb_device, tx_lanes, "tx_lanes", "tx lanes", NULL, 0),
	S(struct usb_device, capable_name, "capable_speed", "capable", T),
	S(struct usb_device, capable_source, "capable_source", "from", 0),
	S(struct usb_device, class_name, "class", "class", 0),
	S(struct usb_device, driver, "driver", "driver", 0),
	S(struct usb_device, port, "port", "port", 0),
	S(struct usb_device, port_peer, "port_peer", "peer port", 0),
	S(struct usb_device, port_connect_type, "port_connect_type", "connect type", 0),
	U(struct usb_device, max_power_ma, "max_power_ma", "power", "mA", 0),
	S(struct usb_device, power_control, "power_control", "pm", 0),
	U(struct usb_device, autosuspend_delay_ms, "autosuspend_delay_ms", "autosuspend", "ms", 0),
	S(struct usb_device, removable, "removable", "removable", 0),
	U(struct usb_device, num_interfaces, "num_interfaces", "ifs", NULL, 0),
	U(struct usb_device, hub_ports, "hub_ports", "ports", NULL, 0),
	FIELD(struct usb_device, offers_uas, "offers_uas", "UAS", NULL, FT_BOOL, 0, 0),
	FIELD(struct usb_device, bulk_ceiling_mb_s, "bulk_ceiling_mb_s", "bulk ceiling", "MB/s",
	      FT_DBL, 3, T),
};
const struct record_desc usb_device_desc = RECORD_DESC("device", dev_fields);

static const struct field intf_fields[] = {
	S(struct usb_interface, device, "device", "device", 0),
	S(struct usb_interface, name, "name", "interface", T),
	U(struct usb_interface, number, "number", "if", NULL, 0),
	U(struct usb_interface, alt_setting, "alt_setting", "alt", NULL, 0),
	U(struct usb_interface, num_endpoints, "num_endpoints", "eps", NULL, 0),
	U(struct usb_interface, cls, "class_code", "class code", NULL, 0),
	U(struct usb_interface, subclass, "subclass", "sub", NULL, 0),
	U(struct usb_interface, protocol, "protocol", "proto", NULL, 0),
	S(struct usb_interface, class_name, "class", "class", T),
	S(struct usb_interface, driver, "driver", "driver", T),
	S(struct usb_interface, label, "label", "label", 0),
	FIELD(struct usb_interface, offers_uas, "offers_uas", "UAS alt", NULL, FT_BOOL, 0, 0),
};
const struct record_desc usb_interface_desc = RECORD_DESC("interface", intf_fields);

static const struct field node_fields[] = {
	S(struct usb_node, device, "device", "device", 0),
	S(struct usb_node, interface, "interface", "interface", T),
	S(struct usb_node, kind, "kind", "kind", T),
	S(struct usb_node, name, "name", "name", T),
	S(struct usb_node, dev_node, "dev_node", "node", 0),
	S(struct usb_node, parent_name, "parent", "parent", 0),
	S(struct usb_node, devnum, "devnum", "dev", 0),
	FIELD(struct usb_node, size_bytes, "size_bytes", "size", NULL, FT_SIZE, 0, T),
	S(struct usb_node, fs_type, "fs_type", "fs", T),
	S(struct usb_node, mount_point, "mount_point", "mounted on", T),
	FIELD(struct usb_node, fuse, "fuse", "fuse", NULL, FT_BOOL, 0, 0),
	U(struct usb_node, max_sectors_kb, "max_sectors_kb", "max_sectors_kb", NULL, 0),
	U(struct usb_node, max_hw_sectors_kb, "max_hw_sectors_kb", "max_hw_sectors_kb", NULL, 0),
	U(struct usb_node, nr_requests, "nr_requests", "nr_requests", NULL, 0),
	U(struct usb_node, rotational, "rotational", "rotational", NULL, 0),
	U(struct usb_node, read_ahead_kb, "read_ahead_kb", "read_ahead_kb", NULL, 0),
	S(struct usb_node, scheduler, "scheduler", "scheduler", 0),
	S(struct usb_node, mac, "mac", "MAC", 0),
	S(struct usb_node, operstate, "operstate", "state", 0),
	U(struct usb_node, link_mbps, "link_mbit_s", "link", "Mbit/s", 0),
	U(struct usb_node, mtu, "mtu", "MTU", NULL, 0),
	S(struct usb_node, label, "label", "label", 0),
};
const struct record_desc usb_node_desc = RECORD_DESC("node", node_fields);

/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by the topology probe's files; not an API. */
#include "platform/sys/attr.h"
#include "platform/usb/topology.h"

const char *usb_class_label(unsigned cls);
void probe_controller(struct usb_topology *t, const struct usb_device *root, const char *dir);
struct mount_table;
void probe_nodes(struct usb_topology *t, const char *dev, const char *intf, const char *dir,
		 const struct mount_table *mt);
/* descriptors and BOS: capable speed, UAS alternate settings */
void probe_descriptors(struct usb_device *d, const char *dir);
void link_uas_offers(struct usb_topology *t);
/* the bulk payload ceiling of a link, MB/s, and how it is derived (NaN, NULL if unknown) */
void usb_link_ceiling(enum usb_speed s, double *ret_mb_s, const char **ret_basis);

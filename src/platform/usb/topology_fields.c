// SPDX-License-Identifier: MIT
/* The schema of `usbperf list`: one field table per array of struct usb_topology. */
#include "platform/usb/topology.h"

#include "platform/usb/topology_fields.fields.h"


/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The one live request usbperf makes of a device while probing: the BOS
 * descriptor, with a standard GET_DESCRIPTOR through usbfs, for kernels
 * whose sysfs has no bos_descriptors attribute yet. A device connected at
 * high speed reports bcdUSB 2.10; only its BOS says it could do SuperSpeed.
 */
#include "util/strbuf.h"

/*
 * Read the whole BOS of /dev/bus/usb/BBB/DDD into ret. Only on the real
 * root (never under --sysroot); needs permission to open the node
 * read-write (root). -errno on failure (-EPIPE: the device has no BOS).
 */
int usbfs_read_bos(unsigned busnum, unsigned devnum, struct strbuf *ret);

// SPDX-License-Identifier: MIT
/*
 * The static build only: libusb-1.0.a from Debian is built with udev, and
 * Debian ships no libudev.a. usbperf bulk sets LIBUSB_OPTION_NO_DEVICE_DISCOVERY
 * and wraps the usbfs node it opened itself, so libusb never reaches udev;
 * these stand in so that the link succeeds, and fail if ever called.
 */
#include <errno.h>
#include <stddef.h>

#define STUB_PTR(name)                                                                             \
	void *name(void);                                                                          \
	void *name(void)                                                                           \
	{                                                                                          \
		errno = ENOSYS;                                                                    \
		return NULL;                                                                       \
	}
#define STUB_INT(name)                                                                             \
	int name(void);                                                                            \
	int name(void)                                                                             \
	{                                                                                          \
		return -ENOSYS;                                                                    \
	}

STUB_PTR(udev_new)
STUB_PTR(udev_unref)
STUB_PTR(udev_device_get_action)
STUB_PTR(udev_device_get_devnode)
STUB_PTR(udev_device_get_sysname)
STUB_PTR(udev_device_new_from_syspath)
STUB_PTR(udev_device_unref)
STUB_PTR(udev_enumerate_new)
STUB_PTR(udev_enumerate_unref)
STUB_PTR(udev_enumerate_get_list_entry)
STUB_PTR(udev_list_entry_get_name)
STUB_PTR(udev_list_entry_get_next)
STUB_PTR(udev_monitor_new_from_netlink)
STUB_PTR(udev_monitor_receive_device)
STUB_PTR(udev_monitor_unref)
STUB_INT(udev_enumerate_add_match_property)
STUB_INT(udev_enumerate_add_match_subsystem)
STUB_INT(udev_enumerate_scan_devices)
STUB_INT(udev_monitor_enable_receiving)
STUB_INT(udev_monitor_filter_add_match_subsystem_devtype)
STUB_INT(udev_monitor_get_fd)

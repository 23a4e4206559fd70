// SPDX-License-Identifier: MIT
#include "platform/usb/usbfs.h"
#include "util/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/usbdevice_fs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define USB_DIR_IN 0x80
#define USB_REQ_GET_DESCRIPTOR 0x06
#define USB_DT_BOS 0x0f
#define BOS_HEADER_LEN 5
#define BOS_MAX 4096	     /* wTotalLength is 16 bits; real ones are tens of bytes */
#define CONTROL_TIMEOUT_MS 1000

static int get_descriptor(int fd, void *buf, uint16_t len)
{
	struct usbdevfs_ctrltransfer ct = {
		.bRequestType = USB_DIR_IN, /* standard, device */
		.bRequest = USB_REQ_GET_DESCRIPTOR,
		.wValue = USB_DT_BOS << 8,
		.wIndex = 0,
		.wLength = len,
		.timeout = CONTROL_TIMEOUT_MS,
		.data = buf,
	};
	int n;

	do
		n = ioctl(fd, USBDEVFS_CONTROL, &ct);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int usbfs_read_bos(unsigned busnum, unsigned devnum, struct strbuf *ret)
{
	unsigned char head[BOS_HEADER_LEN], buf[BOS_MAX];
	char path[64];
	unsigned total;
	int fd, n;

	if (*sysroot_get() || sysroot_is_snapshot())
		return -ENODEV;
	if (busnum > 999 || devnum > 999)
		return -EINVAL;
	snprintf(path, sizeof(path), "/dev/bus/usb/%03u/%03u", busnum, devnum);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the header first: it carries the total length */
	n = get_descriptor(fd, head, sizeof(head));
	if (n < 0)
		goto out;
	if (n < BOS_HEADER_LEN || head[1] != USB_DT_BOS) {
		n = -EPROTO;
		goto out;
	}
	total = head[2] | (unsigned)head[3] << 8;
	if (total < BOS_HEADER_LEN || total > BOS_MAX) {
		n = -EPROTO;
		goto out;
	}
	n = get_descriptor(fd, buf, (uint16_t)total);
	if (n < 0)
		goto out;
	strbuf_reset(ret);
	strbuf_add(ret, buf, (size_t)n);
	n = 0;
out:
	close(fd);
	return n;
}

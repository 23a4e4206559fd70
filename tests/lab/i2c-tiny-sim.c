// SPDX-License-Identifier: MIT
/*
 * Lab test equipment, not part of usbperf: an i2c-tiny-usb bridge simulated
 * as a FunctionFS function, so that the kernel's i2c-tiny-usb driver binds
 * to a gadget on dummy_hcd and registers a plain I2C adapter.
 *
 *   i2c-tiny-sim FFS-DIR ADDR NIF
 *
 * FFS-DIR is a mounted functionfs; the program writes its descriptors and
 * strings to ep0 and then answers the bridge's vendor control requests
 * (CMD_ECHO, CMD_GET_FUNC, CMD_SET_DELAY, CMD_GET_STATUS, CMD_I2C_IO with
 * the BEGIN/END flags; wValue the message flags, wIndex the address) with a
 * simulated bus: one 256-byte register file at ADDR (a write's first byte
 * sets the register pointer, the rest is stored from there; a read returns
 * bytes from the pointer on; the pointer wraps at 256), and every other
 * address NAKs (CMD_GET_STATUS answers "address NAK").
 *
 * The bridge puts the I2C address in wIndex of an interface-recipient
 * request, and FunctionFS passes such a request on only when wIndex is one
 * of the function's interface numbers: the function therefore has NIF
 * interfaces without endpoints (0..NIF-1), so addresses below NIF reach this
 * program. Interfaces 1..NIF-1 sit in an interface association of a class
 * i2c-tiny-usb turns down, so it binds interface 0 only (where the kernel's
 * driver has that check). Any address from NIF on is stalled by the kernel's
 * gadget layer before it gets here: the host sees EPIPE, its driver EIO.
 *
 * On SIGTERM or SIGINT it prints what it served on stdout and exits.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMD_ECHO 0
#define CMD_GET_FUNC 1
#define CMD_SET_DELAY 2
#define CMD_GET_STATUS 3
#define CMD_I2C_IO 4
#define CMD_I2C_IO_BEGIN 1
#define CMD_I2C_IO_END 2

#define STATUS_IDLE 0
#define STATUS_ADDRESS_ACK 1
#define STATUS_ADDRESS_NAK 2

/* linux/i2c.h: I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL, what the bridge's firmware says */
#define FUNC_I2C 0x00000001u
#define FUNC_SMBUS_EMUL 0x0eff0008u
#define MSG_RD 0x0001u

#define MAX_IF 16
#define MAX_DATA 8192

static volatile sig_atomic_t quit;

static struct {
	unsigned addr;
	uint8_t regs[256];
	uint8_t ptr;
	uint8_t status;
	uint16_t delay_us;
	unsigned long acked, naked, stalled, written, read, reqs;
} bus;

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

struct descs {
	struct usb_functionfs_descs_head_v2 head;
	uint32_t fs_count, hs_count;
	uint8_t body[2 * (sizeof(struct usb_interface_descriptor) * MAX_IF +
			  sizeof(struct usb_interface_assoc_descriptor))];
} __attribute__((packed));

/* one speed's descriptors: interface 0, then the association of the rest */
static size_t speed_descs(uint8_t *p, unsigned nif, uint32_t *ret_count)
{
	size_t off = 0;
	unsigned i;

	*ret_count = 0;
	for (i = 0; i < nif; i++) {
		struct usb_interface_descriptor d = {
		    .bLength = USB_DT_INTERFACE_SIZE,
		    .bDescriptorType = USB_DT_INTERFACE,
		    .bInterfaceNumber = (uint8_t)i,
		    .bNumEndpoints = 0,
		    .bInterfaceClass = USB_CLASS_VENDOR_SPEC,
		    .iInterface = 1,
		};

		if (i == 1) {
			/* a class other than vendor: i2c-tiny-usb leaves these interfaces alone */
			struct usb_interface_assoc_descriptor a = {
			    .bLength = sizeof(a),
			    .bDescriptorType = USB_DT_INTERFACE_ASSOCIATION,
			    .bFirstInterface = 1,
			    .bInterfaceCount = (uint8_t)(nif - 1),
			    .bFunctionClass = USB_CLASS_APP_SPEC,
			};

			memcpy(p + off, &a, sizeof(a));
			off += sizeof(a);
			++*ret_count;
		}
		memcpy(p + off, &d, USB_DT_INTERFACE_SIZE);
		off += USB_DT_INTERFACE_SIZE;
		++*ret_count;
	}
	return off;
}

static int write_descs(int ep0, unsigned nif)
{
	const struct {
		struct usb_functionfs_strings_head head;
		uint16_t lang;
		char str[sizeof("i2c-tiny-usb simulated bridge")];
	} __attribute__((packed)) strings = {
	    .head = {htole32(FUNCTIONFS_STRINGS_MAGIC), htole32(sizeof(strings)), htole32(1),
		     htole32(1)},
	    .lang = htole16(0x0409),
	    .str = "i2c-tiny-usb simulated bridge",
	};
	struct descs d;
	uint32_t n;
	size_t len, fs;

	memset(&d, 0, sizeof(d));
	fs = speed_descs(d.body, nif, &n);
	d.fs_count = htole32(n);
	len = speed_descs(d.body + fs, nif, &n);
	d.hs_count = htole32(n);
	len += fs + offsetof(struct descs, body);
	d.head.magic = htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2);
	d.head.length = htole32((uint32_t)len);
	d.head.flags = htole32(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC);
	if (write(ep0, &d, len) != (ssize_t)len) {
		fprintf(stderr, "i2c-tiny-sim: descriptors: %s\n", strerror(errno));
		return -1;
	}
	if (write(ep0, &strings, sizeof(strings)) != (ssize_t)sizeof(strings)) {
		fprintf(stderr, "i2c-tiny-sim: strings: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* a setup request's refusal: FunctionFS stalls ep0 on a transfer against the direction */
static void stall(int ep0, const struct usb_ctrlrequest *c)
{
	bus.stalled++;
	if (c->bRequestType & USB_DIR_IN)
		(void)!read(ep0, NULL, 0);
	else
		(void)!write(ep0, NULL, 0);
}

/* a message of the simulated bus: the register file answers at its address only */
static void i2c_io(unsigned flags, unsigned addr, uint8_t *data, unsigned len)
{
	unsigned i;

	if (addr != bus.addr) {
		bus.status = STATUS_ADDRESS_NAK;
		bus.naked++;
		if (flags & MSG_RD)
			memset(data, 0xff, len); /* the bus floats high: nobody drives SDA */
		return;
	}
	bus.status = STATUS_ADDRESS_ACK;
	bus.acked++;
	if (flags & MSG_RD) {
		for (i = 0; i < len; i++)
			data[i] = bus.regs[bus.ptr++];
		bus.read += len;
		return;
	}
	if (len == 0)
		return;
	bus.ptr = data[0];
	for (i = 1; i < len; i++)
		bus.regs[bus.ptr++] = data[i];
	bus.written += len - 1;
}

static void setup(int ep0, const struct usb_ctrlrequest *c)
{
	static uint8_t data[MAX_DATA];
	unsigned value = le16toh(c->wValue), index = le16toh(c->wIndex);
	unsigned len = le16toh(c->wLength);
	bool in = c->bRequestType & USB_DIR_IN;
	ssize_t n;

	bus.reqs++;
	if ((c->bRequestType & USB_TYPE_MASK) != USB_TYPE_VENDOR || len > sizeof(data)) {
		stall(ep0, c);
		return;
	}
	if (!in) {
		/* the data stage (or, for none, the status stage) */
		n = read(ep0, len ? data : NULL, len);
		if (n != (ssize_t)len)
			return;
	}
	switch (c->bRequest) {
	case CMD_ECHO:
		if (!in || len < 2)
			break;
		data[0] = (uint8_t)value;
		data[1] = (uint8_t)(value >> 8);
		(void)!write(ep0, data, 2);
		return;
	case CMD_GET_FUNC: {
		uint32_t f = htole32(FUNC_I2C | FUNC_SMBUS_EMUL);

		if (!in || len < sizeof(f))
			break;
		(void)!write(ep0, &f, sizeof(f));
		return;
	}
	case CMD_SET_DELAY:
		if (in)
			break;
		bus.delay_us = (uint16_t)value;
		return;
	case CMD_GET_STATUS:
		if (!in || len < 1)
			break;
		(void)!write(ep0, &bus.status, 1);
		return;
	default:
		if ((c->bRequest & ~3u) != CMD_I2C_IO || in != !!(value & MSG_RD))
			break;
		i2c_io(value, index, data, len);
		if (in)
			(void)!write(ep0, data, len);
		return;
	}
	if (in)
		stall(ep0, c);
	else
		bus.stalled++; /* the data already taken: a stall would come too late */
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct usb_functionfs_event ev;
	char path[4096];
	unsigned long nif;
	char *end;
	int ep0;

	if (argc != 4) {
		fprintf(stderr, "usage: i2c-tiny-sim FFS-DIR ADDR NIF\n");
		return 2;
	}
	bus.addr = (unsigned)strtoul(argv[2], &end, 0);
	if (*end || bus.addr < 0x08 || bus.addr > 0x77) {
		fprintf(stderr, "i2c-tiny-sim: bad address '%s'\n", argv[2]);
		return 2;
	}
	nif = strtoul(argv[3], &end, 0);
	if (*end || nif < 2 || nif > MAX_IF) {
		fprintf(stderr, "i2c-tiny-sim: NIF must be 2..%d\n", MAX_IF);
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	snprintf(path, sizeof(path), "%s/ep0", argv[1]);
	ep0 = open(path, O_RDWR | O_CLOEXEC);
	if (ep0 < 0) {
		fprintf(stderr, "i2c-tiny-sim: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (write_descs(ep0, (unsigned)nif) < 0)
		return 1;
	/* a recognisable fill: the register file as an erased EEPROM */
	memset(bus.regs, 0xff, sizeof(bus.regs));
	fprintf(stderr, "i2c-tiny-sim: ready, 0x%02x on %lu interfaces\n", bus.addr, nif);
	while (!quit) {
		ssize_t n = read(ep0, &ev, sizeof(ev));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "i2c-tiny-sim: ep0: %s\n", strerror(errno));
			break;
		}
		if (n != sizeof(ev))
			continue;
		if (ev.type == FUNCTIONFS_SETUP)
			setup(ep0, &ev.u.setup);
		else if (ev.type == FUNCTIONFS_ENABLE)
			fprintf(stderr, "i2c-tiny-sim: enabled\n");
	}
	printf("i2c-tiny-sim: requests %lu acked %lu naked %lu stalled %lu written %lu read %lu "
	       "delay_us %u\n",
	       bus.reqs, bus.acked, bus.naked, bus.stalled, bus.written, bus.read, bus.delay_us);
	close(ep0);
	return 0;
}

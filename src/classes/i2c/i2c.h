/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * I2C for usbperf i2c: the adapter behind /dev/i2c-N (sysfs name, the bus
 * clock from the device tree, what it can do as I2C_FUNCS says), whether an
 * address is claimed by a kernel driver, the payload ceiling of a message on
 * the wire, and the passes (write, read, write-then-read) against the one
 * address named. Everything returns 0 or -errno; refusals fill a "why" line.
 */
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define I2C_DEV_MAJOR 89
/* 7-bit addresses a device may have: 0x00-0x07 and 0x78-0x7f are reserved */
#define I2C_ADDR_FIRST 0x08u
#define I2C_ADDR_LAST 0x77u
/* largest message a pass sends (i2c-dev takes up to 8192 B; EEPROM pages are far less) */
#define I2C_MAX_SIZE 4096u
/* an SMBus I2C-block transfer carries at most this */
#define I2C_SMBUS_MAX 32u
#define I2C_MAX_SIZES 16
/* consecutive NAKs after which a pass gives up (a device that is not there) */
#define I2C_NAK_LIMIT 3u

/* I2C_FUNCS bits (linux/i2c.h), here so tests and fixtures need no kernel headers */
#define I2CF_I2C 0x00000001ul
#define I2CF_10BIT_ADDR 0x00000002ul
#define I2CF_PROTOCOL_MANGLING 0x00000004ul
#define I2CF_SMBUS_PEC 0x00000008ul
#define I2CF_NOSTART 0x00000010ul
#define I2CF_SLAVE 0x00000020ul
#define I2CF_SMBUS_QUICK 0x00010000ul
#define I2CF_SMBUS_READ_BYTE 0x00020000ul
#define I2CF_SMBUS_WRITE_BYTE 0x00040000ul
#define I2CF_SMBUS_READ_BYTE_DATA 0x00080000ul
#define I2CF_SMBUS_WRITE_BYTE_DATA 0x00100000ul
#define I2CF_SMBUS_READ_WORD_DATA 0x00200000ul
#define I2CF_SMBUS_WRITE_WORD_DATA 0x00400000ul
#define I2CF_SMBUS_PROC_CALL 0x00800000ul
#define I2CF_SMBUS_READ_BLOCK_DATA 0x01000000ul
#define I2CF_SMBUS_WRITE_BLOCK_DATA 0x02000000ul
#define I2CF_SMBUS_READ_I2C_BLOCK 0x04000000ul
#define I2CF_SMBUS_WRITE_I2C_BLOCK 0x08000000ul
#define I2CF_SMBUS_HOST_NOTIFY 0x10000000ul

/* the functionality bits' names, comma-separated, into sb ("i2c,smbus-quick,...") */
void i2c_funcs_names(unsigned long funcs, struct strbuf *sb);

struct i2c_adapter {
	unsigned bus;	   /* N of i2c-N */
	char *name;	   /* sysfs name, sanitized */
	uint64_t clock_hz; /* of_node/clock-frequency; 0 when sysfs does not show it */
	char *clock_from;  /* the sysfs path it came from, NULL */
};
void i2c_adapter_release(struct i2c_adapter *a);

/* i2c-N from sysfs (/sys/class/i2c-dev/i2c-N, /sys/bus/i2c/devices/i2c-N); -ENOENT + why */
int i2c_adapter_read(unsigned bus, struct i2c_adapter *ret, struct strbuf *why);

/*
 * A node the user named: a character device of major 89 (minor N: i2c-N)
 * whose i2c-N is in sysfs. -EINVAL (not i2c-dev), -ENOENT, with why.
 */
int i2c_node_probe(const char *node, struct i2c_adapter *ret, struct strbuf *why);

/* "0x50", "80": a 7-bit address a device may have; -EINVAL/-ERANGE + why */
int i2c_addr_parse(const char *s, unsigned *ret, struct strbuf *why);

/* "400k", "1M", "100000", "3.4M": Hz, 1 kHz..10 MHz; -EINVAL */
int i2c_clock_parse(const char *s, uint64_t *ret);

/* a big-endian u32 device-tree property (4 bytes): its value; -EINVAL otherwise */
int i2c_dt_u32(const void *data, size_t len, uint32_t *ret);

/*
 * The kernel driver bound to the client at bus-addr (/sys/bus/i2c/devices/
 * N-00AA/driver): 1 and its name in ret_driver (ret_client: the client's
 * name), 0 when no client or no driver is there, -errno.
 */
int i2c_addr_claimed(unsigned bus, unsigned addr, char **ret_driver, char **ret_client);

/*
 * The wire. A message is a start (or repeated start), an address byte and
 * its data bytes, each byte 9 bit times (8 bits and the ACK), then a stop
 * after the last message: a write of n is 9n + 11 bit times, a
 * write-then-read of w then r bytes 9(w + r) + 21.
 */
struct i2c_shape {
	unsigned wlen;	  /* bytes of the write message, 0: none */
	unsigned rlen;	  /* bytes of the read message, 0: none */
	unsigned payload; /* the bytes that are the pass's data */
};
uint64_t i2c_shape_bits(const struct i2c_shape *s);
/* payload B/s at clock_hz with nothing but the bits of the shape; NaN for 0 Hz */
double i2c_ceiling_b_s(const struct i2c_shape *s, uint64_t clock_hz);
/* messages/s at clock_hz */
double i2c_ceiling_msg_s(const struct i2c_shape *s, uint64_t clock_hz);

enum i2c_op { I2C_OP_READ, I2C_OP_WRITE, I2C_OP_WRITE_READ };
const char *i2c_op_name(enum i2c_op op);
#define I2C_OPS_ALL (1u << I2C_OP_READ | 1u << I2C_OP_WRITE | 1u << I2C_OP_WRITE_READ)
/* "read,write-read,write" into a mask; -EINVAL */
int i2c_ops_parse(const char *s, unsigned *ret);

/* how the passes talk to the adapter */
enum i2c_method { I2C_METHOD_RDWR, I2C_METHOD_SMBUS_BLOCK };
const char *i2c_method_name(enum i2c_method m);

/*
 * The shape on the wire of op with size bytes through method (SMBus I2C
 * block: the register byte is always written first, so a read is a
 * write-then-read on the wire; an I2C write carries the register byte as
 * its first data byte). offset is the register byte.
 */
void i2c_op_shape(enum i2c_op op, enum i2c_method m, unsigned size, struct i2c_shape *ret);

/* The adapter as the passes see it: the real one, or a fake in tests. */
struct i2c_io {
	void *ctx;
	/* one transfer of the op's shape; buf holds wlen bytes out, rlen bytes in; -errno */
	int (*xfer)(void *ctx, enum i2c_op op, unsigned offset, uint8_t *buf, unsigned size);
};

/* the ops over an open /dev/i2c-N to addr, with method (ctx: a struct i2c_fd) */
struct i2c_fd {
	int fd;
	unsigned addr;
	enum i2c_method method;
};
void i2c_io_fd(struct i2c_io *io, struct i2c_fd *f);
/* I2C_FUNCS; -errno */
int i2c_funcs_read(int fd, unsigned long *ret);
/* I2C_SLAVE (force: I2C_SLAVE_FORCE) for the SMBus path; -EBUSY when a driver has it */
int i2c_fd_set_addr(int fd, unsigned addr, bool force);

/*
 * true when errno is what an adapter says for "no ACK" (ENXIO, EREMOTEIO,
 * ENODEV); EIO, ETIMEDOUT, EAGAIN, EBUSY... are bus errors
 */
bool i2c_err_is_nak(int err);
/* what an errno of a transfer means on the bus: "NAK", "arbitration lost", "timed out"... */
const char *i2c_err_what(int err);

struct i2c_pass {
	const char *op;	    /* "read", "write", "write-read" */
	const char *method; /* "i2c-rdwr", "smbus-i2c-block" */
	uint64_t size;	    /* payload bytes per message */
	uint64_t wire_bits; /* bit times per message */
	uint64_t messages;
	uint64_t naks;	 /* no ACK: nobody at the address, or it is busy */
	uint64_t errors; /* bus errors and other failures (EIO, ETIMEDOUT, EAGAIN...) */
	uint64_t bytes; /* payload bytes of the messages that went through */
	double seconds, msg_s, payload_b_s;
	double lat_p50_us, lat_p99_us, lat_max_us;
	double ceiling_b_s; /* at the bus clock; NaN unknown */
	double efficiency_pct;
	double cpu_pct;	     /* the machine's busy CPU time, % of one CPU */
	double self_cpu_pct; /* usbperf's own, % of one CPU */
	uint64_t mismatches; /* write passes: bytes read back different (destructive) */
	bool verified;
	bool interrupted;
	int last_err; /* the last -errno, 0 none */
	int nak_err;  /* the last NAK's -errno, 0 none */
	int bus_err;  /* the last bus error's -errno, 0 none */
};

struct i2c_plan {
	const unsigned *sizes;
	size_t nsizes;
	enum i2c_method method;
	unsigned ops;	       /* 1 << enum i2c_op: the passes wanted (write: --destructive) */
	unsigned offset;       /* the register byte */
	double seconds;	       /* per pass */
	uint64_t max_messages; /* per pass, 0 no limit */
	uint64_t clock_hz;     /* 0 unknown */
	volatile int *stop;
};

/*
 * The passes, size by size, of the ops asked: read (I2C only: SMBus has no
 * plain block read), write-then-read, and write, whose last message is read
 * back and compared. A device that NAKs I2C_NAK_LIMIT times in a row ends
 * its pass; one that never answered ends the run after that first pass.
 * ret must have room for 3 * nsizes. 0, -ENOMEM.
 */
int i2c_passes_run(const struct i2c_io *io, const struct i2c_plan *p, struct i2c_pass *ret,
		   size_t *ret_n);

/* the payload pattern of a write message at a size */
void i2c_pattern_fill(uint8_t *buf, unsigned len, unsigned size, uint64_t seq);

/* what the user asked for a target */
struct i2c_want {
	const uint64_t *sizes; /* none: the default sweep, capped to what the method carries */
	size_t nsizes;
	uint64_t clock_hz; /* --clock; 0 none */
	bool force;	   /* I2C_SLAVE_FORCE, and past a kernel driver's claim */
	bool destructive;
};

/* an address on an adapter, checked and open */
struct i2c_target {
	struct i2c_adapter ad;
	unsigned addr;
	char *driver, *client; /* the kernel driver holding the address (force given), NULL */
	int fd;		       /* -1 closed */
	unsigned long funcs;
	enum i2c_method method;
	unsigned sizes[I2C_MAX_SIZES];
	size_t nsizes;
	size_t capped;		/* default sizes left out: past what the method carries */
	uint64_t clock_hz;	/* 0 unknown */
	const char *clock_from; /* "device tree", "--clock", NULL */
	bool forced;
};
#define I2C_TARGET_INIT                                                                            \
	{                                                                                          \
		.fd = -1                                                                           \
	}

/*
 * Every check before a byte goes on the bus, then the open: the node is an
 * i2c-dev one with its adapter in sysfs, the address is no kernel driver's
 * (unless force), the adapter does I2C_RDWR or SMBus I2C block (the write
 * half too when destructive), the sizes fit the method, I2C_SLAVE (or
 * I2C_SLAVE_FORCE) takes the address. 0; a refusal: -EINVAL, -EBUSY
 * (claimed), -EOPNOTSUPP (the adapter cannot), -errno of the open, with why.
 */
int i2c_target_open(const char *node, unsigned addr, const struct i2c_want *w,
		    struct i2c_target *ret, struct strbuf *why);
void i2c_target_release(struct i2c_target *t);

struct finding_list;
/* a pass this far under its ceiling (at the bus clock): the adapter or device sets the rate */
#define I2C_BELOW_CEILING_PCT 50.0
/*
 * The bottleneck rules over an address's passes: NAKs, a rate far under the
 * bus ceiling (the largest message's pass, where the bus's own overhead is
 * least), one past it (the clock is not what is said, or no real bus), no
 * clock known. subject: "i2c-1:0x50".
 */
void i2c_findings(const char *subject, const struct i2c_pass *p, size_t n, uint64_t clock_hz,
		  const char *clock_from, struct finding_list *out);

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The schema of usbperf i2c: the adapter and address, one row per pass
 * (messages/s, payload B/s, latency, efficiency against the bus ceiling,
 * CPU) and the exact payload ceilings of each pass's messages at the three
 * standard clocks (100 kHz, 400 kHz, 1 MHz).
 */
#include "classes/i2c/i2c.h"
#include "model/field.h"

struct i2c_device_view {
	const char *node, *adapter;
	uint64_t bus;
	const char *address;	/* "0x50" */
	uint64_t clock_hz;	/* U64_UNKNOWN unknown */
	const char *clock_from; /* "device tree", "--clock", NULL */
	const char *funcs_hex;	/* "0x0eff0009" */
	const char *funcs;	/* names */
	const char *method;	/* "i2c-rdwr", "smbus-i2c-block" */
	const char *claimed_by; /* the kernel driver, NULL */
	bool forced;
	const char *mode; /* "read-only", "destructive" */
	uint64_t offset;  /* the register byte */
	char addr_buf[8], funcs_buf[16];
};

struct i2c_ceiling_row {
	const char *op;
	uint64_t size, wire_bits;
	double b_s_100k, b_s_400k, b_s_1m;
};

#define I2C_MAX_CEILINGS (3 * I2C_MAX_SIZES)

/* v must outlive r; funcs_names is the caller's (i2c_funcs_names) */
void i2c_device_describe(struct i2c_device_view *v, struct report *r);
void i2c_passes_describe(const struct i2c_pass *p, size_t n, struct report *r);
/* the ceiling rows of the passes' ops and sizes into rows (room for I2C_MAX_CEILINGS) */
size_t i2c_ceilings_fill(const struct i2c_pass *p, size_t n, struct i2c_ceiling_row *rows);
void i2c_ceilings_describe(const struct i2c_ceiling_row *rows, size_t n, struct report *r);

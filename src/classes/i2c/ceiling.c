// SPDX-License-Identifier: MIT
/*
 * The wire of an I2C message: start, address byte, data bytes (9 bit times
 * each: 8 bits and the ACK), a repeated start and a second address byte for
 * the read of a write-then-read, and the stop. Nothing else (no clock
 * stretching, no bus-free time between messages), so the figures are
 * ceilings: what the bus clock allows, not what an adapter achieves.
 */
#include "classes/i2c/i2c.h"

#include <errno.h>
#include <math.h>
#include <string.h>

uint64_t i2c_shape_bits(const struct i2c_shape *s)
{
	uint64_t bits = 1; /* the stop */

	if (s->wlen)
		bits += 1 + 9ull * (1 + s->wlen); /* start, address, data */
	if (s->rlen || !s->wlen)
		bits += 1 + 9ull * (1 + s->rlen); /* (repeated) start, address, data */
	return bits;
}

double i2c_ceiling_b_s(const struct i2c_shape *s, uint64_t clock_hz)
{
	if (!clock_hz)
		return NAN;
	return (double)s->payload * (double)clock_hz / (double)i2c_shape_bits(s);
}

double i2c_ceiling_msg_s(const struct i2c_shape *s, uint64_t clock_hz)
{
	if (!clock_hz)
		return NAN;
	return (double)clock_hz / (double)i2c_shape_bits(s);
}

const char *i2c_op_name(enum i2c_op op)
{
	return op == I2C_OP_READ ? "read" : op == I2C_OP_WRITE ? "write" : "write-read";
}

const char *i2c_method_name(enum i2c_method m)
{
	return m == I2C_METHOD_RDWR ? "i2c-rdwr" : "smbus-i2c-block";
}

void i2c_op_shape(enum i2c_op op, enum i2c_method m, unsigned size, struct i2c_shape *ret)
{
	(void)m; /* SMBus I2C block has no plain read: the passes leave it out */
	switch (op) {
	case I2C_OP_READ:
		*ret = (struct i2c_shape){0, size, size};
		break;
	case I2C_OP_WRITE:
		/* the register byte, then the data */
		*ret = (struct i2c_shape){size + 1, 0, size};
		break;
	default:
		*ret = (struct i2c_shape){1, size, size};
		break;
	}
}

int i2c_ops_parse(const char *s, unsigned *ret)
{
	unsigned mask = 0;
	const char *p = s, *e;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		size_t n;
		int op;

		e = strchr(p, ',');
		n = e ? (size_t)(e - p) : strlen(p);
		for (op = I2C_OP_READ; op <= I2C_OP_WRITE_READ; op++)
			if (strlen(i2c_op_name(op)) == n && !strncmp(p, i2c_op_name(op), n))
				break;
		if (op > I2C_OP_WRITE_READ)
			return -EINVAL;
		mask |= 1u << op;
		if (!e)
			break;
		p = e + 1;
	}
	*ret = mask;
	return 0;
}

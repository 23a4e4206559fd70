// SPDX-License-Identifier: MIT
/* Field tables of usbperf i2c: text, JSON and CSV from one description. */
#include "classes/i2c/fields.h"

#include <stddef.h>
#include <string.h>

#include "classes/i2c/fields.fields.h"

void i2c_device_describe(struct i2c_device_view *v, struct report *r)
{
	report_add_object(r, "device", "I2C device", &device_desc, v);
}

void i2c_passes_describe(const struct i2c_pass *p, size_t n, struct report *r)
{
	report_add_table(r, "passes", "Passes (payload B/s; ceiling at the bus clock)", &pass_desc,
			 p, n, sizeof(*p));
}

size_t i2c_ceilings_fill(const struct i2c_pass *p, size_t n, struct i2c_ceiling_row *rows)
{
	size_t i, k = 0;

	for (i = 0; i < n && k < I2C_MAX_CEILINGS; i++) {
		enum i2c_op op = !strcmp(p[i].op, "read")    ? I2C_OP_READ
				 : !strcmp(p[i].op, "write") ? I2C_OP_WRITE
							     : I2C_OP_WRITE_READ;
		struct i2c_shape sh;

		i2c_op_shape(op, I2C_METHOD_RDWR, (unsigned)p[i].size, &sh);
		rows[k++] = (struct i2c_ceiling_row){
		    .op = p[i].op,
		    .size = p[i].size,
		    .wire_bits = i2c_shape_bits(&sh),
		    .b_s_100k = i2c_ceiling_b_s(&sh, 100000),
		    .b_s_400k = i2c_ceiling_b_s(&sh, 400000),
		    .b_s_1m = i2c_ceiling_b_s(&sh, 1000000),
		};
	}
	return k;
}

void i2c_ceilings_describe(const struct i2c_ceiling_row *rows, size_t n, struct report *r)
{
	report_add_table(r, "ceilings",
			 "Payload ceilings of these messages (B/s; start, address, 9 bit times a "
			 "byte, stop)",
			 &ceiling_desc, rows, n, sizeof(*rows));
}

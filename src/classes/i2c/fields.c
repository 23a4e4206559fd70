// SPDX-License-Identifier: MIT
/* Field tables of usbperf i2c: text, JSON and CSV from one description. */
#include "classes/i2c/fields.h"

#include <stddef.h>
#include <string.h>

#define T FF_TEXT
#define O (FF_TEXT | FF_OPTIONAL)

static const struct field device_fields[] = {
    FIELD(struct i2c_device_view, node, "node", "node", NULL, FT_STR, 0, T),
    FIELD(struct i2c_device_view, bus, "bus", "bus", NULL, FT_U64, 0, T),
    FIELD(struct i2c_device_view, adapter, "adapter", "adapter", NULL, FT_STR, 0, T),
    FIELD(struct i2c_device_view, address, "address", "address", NULL, FT_STR, 0, T),
    FIELD(struct i2c_device_view, clock_hz, "clock_hz", "bus clock", "Hz", FT_U64, 0, T),
    FIELD(struct i2c_device_view, clock_from, "clock_from", "bus clock from", NULL, FT_STR, 0, O),
    FIELD(struct i2c_device_view, funcs_hex, "functionality", "functionality (I2C_FUNCS)", NULL,
	  FT_STR, 0, T),
    FIELD(struct i2c_device_view, funcs, "functionality_names", "functionality", NULL, FT_STR, 0,
	  T),
    FIELD(struct i2c_device_view, method, "method", "transfers through", NULL, FT_STR, 0, T),
    FIELD(struct i2c_device_view, claimed_by, "claimed_by", "claimed by driver", NULL, FT_STR, 0,
	  O),
    FIELD(struct i2c_device_view, forced, "forced", "forced (I2C_SLAVE_FORCE)", NULL, FT_BOOL, 0,
	  0),
    FIELD(struct i2c_device_view, offset, "register", "register byte", NULL, FT_U64, 0, T),
    FIELD(struct i2c_device_view, mode, "mode", "mode", NULL, FT_STR, 0, T),
};

static const struct field pass_fields[] = {
    FIELD(struct i2c_pass, op, "op", "pass", NULL, FT_STR, 0, T),
    FIELD(struct i2c_pass, method, "method", "method", NULL, FT_STR, 0, 0),
    FIELD(struct i2c_pass, size, "size_bytes", "size", "B", FT_U64, 0, T),
    FIELD(struct i2c_pass, wire_bits, "wire_bits", "bits/msg", NULL, FT_U64, 0, 0),
    FIELD(struct i2c_pass, messages, "messages", "messages", NULL, FT_U64, 0, T),
    FIELD(struct i2c_pass, seconds, "seconds", "time", "s", FT_DBL, 3, 0),
    FIELD(struct i2c_pass, msg_s, "msg_s", "rate", "msg/s", FT_DBL, 1, T),
    FIELD(struct i2c_pass, payload_b_s, "payload_b_s", "payload", "B/s", FT_DBL, 0, T),
    FIELD(struct i2c_pass, ceiling_b_s, "ceiling_b_s", "ceiling", "B/s", FT_DBL, 0, O),
    FIELD(struct i2c_pass, efficiency_pct, "efficiency_pct", "of ceiling", "%", FT_DBL, 1, O | FF_CEILING_SHARE),
    FIELD(struct i2c_pass, lat_p50_us, "lat_p50_us", "p50", "us", FT_DBL, 1, T),
    FIELD(struct i2c_pass, lat_p99_us, "lat_p99_us", "p99", "us", FT_DBL, 1, T),
    FIELD(struct i2c_pass, lat_max_us, "lat_max_us", "max", "us", FT_DBL, 1, T),
    FIELD(struct i2c_pass, cpu_pct, "cpu_pct", "CPU", UNIT_PCT_ONE_CPU, FT_DBL, 1, T),
    FIELD(struct i2c_pass, self_cpu_pct, "self_cpu_pct", "usbperf CPU", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
    FIELD(struct i2c_pass, naks, "naks", "NAKs", NULL, FT_U64, 0, T),
    FIELD(struct i2c_pass, errors, "errors", "bus errors", NULL, FT_U64, 0, T),
    FIELD(struct i2c_pass, verified, "verified", "verified", NULL, FT_BOOL, 0, 0),
    FIELD(struct i2c_pass, mismatches, "mismatched_bytes", "mismatched", NULL, FT_U64, 0, 0),
    FIELD(struct i2c_pass, interrupted, "interrupted", "interrupted", NULL, FT_BOOL, 0, 0),
};

static const struct field ceiling_fields[] = {
    FIELD(struct i2c_ceiling_row, op, "op", "pass", NULL, FT_STR, 0, T),
    FIELD(struct i2c_ceiling_row, size, "size_bytes", "size", "B", FT_U64, 0, T),
    FIELD(struct i2c_ceiling_row, wire_bits, "wire_bits", "bits/msg", NULL, FT_U64, 0, T),
    FIELD(struct i2c_ceiling_row, b_s_100k, "b_s_100khz", "100 kHz", "B/s", FT_DBL, 1, T),
    FIELD(struct i2c_ceiling_row, b_s_400k, "b_s_400khz", "400 kHz", "B/s", FT_DBL, 1, T),
    FIELD(struct i2c_ceiling_row, b_s_1m, "b_s_1mhz", "1 MHz", "B/s", FT_DBL, 1, T),
};

static const struct record_desc device_desc = RECORD_DESC("i2c_device", device_fields);
static const struct record_desc pass_desc = RECORD_DESC("i2c_pass", pass_fields);
static const struct record_desc ceiling_desc = RECORD_DESC("i2c_ceiling", ceiling_fields);

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

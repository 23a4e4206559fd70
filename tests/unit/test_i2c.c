// SPDX-License-Identifier: MIT
/*
 * i2c: the wire arithmetic and exact payload ceilings, the parsers of the
 * address, clock and passes, the adapter facts decoded from the fixtures
 * (tests/fixtures/gen/i2c.py: a board with device-tree clocks and an at24
 * bound, a PC's SMBus adapter), and the passes over a fake device in memory
 * (reads return what was written, a NAK ends a pass, a bad read-back counts).
 */
#include "unit.h"
#include "fixture.h"
#include "model/findings.h"
#include "classes/i2c/fields.h"
#include "classes/i2c/i2c.h"
#include "util/snapshot.h"
#include "util/sysroot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(got, want) assert_true(fabs((got) - (want)) < 1e-6)

static void test_bits(void **state)
{
	(void)state;
	/* a write of n: start, address, n bytes, stop */
	for (unsigned n = 1; n <= 256; n *= 2) {
		struct i2c_shape w = {n, 0, n}, r = {0, n, n}, wr = {1, n, n};

		assert_int_equal(i2c_shape_bits(&w), 9 * n + 11);
		assert_int_equal(i2c_shape_bits(&r), 9 * n + 11);
		/* a repeated start and a second address byte */
		assert_int_equal(i2c_shape_bits(&wr), 9 * (1 + n) + 21);
	}
	struct i2c_shape z = {0, 0, 0};

	/* a zero-length message (SMBus quick): start, address, stop */
	assert_int_equal(i2c_shape_bits(&z), 11);
}

static void test_ceilings(void **state)
{
	struct i2c_shape s;

	(void)state;
	i2c_op_shape(I2C_OP_READ, I2C_METHOD_RDWR, 1, &s);
	NEAR(i2c_ceiling_b_s(&s, 100000), 5000.0); /* 1 B in 20 bit times */
	NEAR(i2c_ceiling_msg_s(&s, 100000), 5000.0);
	i2c_op_shape(I2C_OP_READ, I2C_METHOD_RDWR, 32, &s);
	NEAR(i2c_ceiling_b_s(&s, 400000), 32.0 * 400000 / 299);
	/* a write carries the register byte ahead of its 16 data bytes: 17 bytes */
	i2c_op_shape(I2C_OP_WRITE, I2C_METHOD_SMBUS_BLOCK, 16, &s);
	assert_int_equal(s.wlen, 17);
	assert_int_equal(i2c_shape_bits(&s), 164);
	NEAR(i2c_ceiling_b_s(&s, 1000000), 16e6 / 164);
	i2c_op_shape(I2C_OP_WRITE_READ, I2C_METHOD_RDWR, 256, &s);
	assert_int_equal(i2c_shape_bits(&s), 2334);
	NEAR(i2c_ceiling_b_s(&s, 100000), 25600000.0 / 2334);
	/* no clock, no ceiling */
	assert_true(isnan(i2c_ceiling_b_s(&s, 0)));
	/* the long-message limit: 8 payload bits in 9 bit times */
	i2c_op_shape(I2C_OP_READ, I2C_METHOD_RDWR, 4096, &s);
	assert_true(i2c_ceiling_b_s(&s, 100000) < 100000.0 / 9);
	assert_true(i2c_ceiling_b_s(&s, 100000) > 0.99 * 100000.0 / 9);
}

static void test_ceiling_rows(void **state)
{
	struct i2c_pass p[2] = {{.op = "read", .size = 8}, {.op = "write-read", .size = 8}};
	struct i2c_ceiling_row rows[I2C_MAX_CEILINGS];

	(void)state;
	assert_int_equal(i2c_ceilings_fill(p, 2, rows), 2);
	assert_int_equal(rows[0].wire_bits, 83);
	NEAR(rows[0].b_s_100k, 800000.0 / 83);
	NEAR(rows[0].b_s_400k, 3200000.0 / 83);
	NEAR(rows[0].b_s_1m, 8000000.0 / 83);
	assert_int_equal(rows[1].wire_bits, 102);
}

static void test_addr(void **state)
{
	struct strbuf why = STRBUF_INIT;
	unsigned a = 0;

	(void)state;
	assert_int_equal(i2c_addr_parse("0x50", &a, &why), 0);
	assert_int_equal(a, 0x50);
	assert_int_equal(i2c_addr_parse("8", &a, &why), 0);
	assert_int_equal(a, 8);
	assert_int_equal(i2c_addr_parse("0x77", &a, &why), 0);
	strbuf_reset(&why);
	assert_int_equal(i2c_addr_parse("0x78", &a, &why), -ERANGE);
	assert_non_null(strstr(why.buf, "reserved"));
	assert_int_equal(i2c_addr_parse("0x03", &a, &why), -ERANGE);
	assert_int_equal(i2c_addr_parse("0", &a, &why), -ERANGE);
	strbuf_reset(&why);
	assert_int_equal(i2c_addr_parse("0x80", &a, &why), -ERANGE);
	assert_non_null(strstr(why.buf, "past 0x7f"));
	assert_int_equal(i2c_addr_parse("0x1000", &a, &why), -EINVAL);
	assert_int_equal(i2c_addr_parse("fifty", &a, &why), -EINVAL);
	assert_int_equal(i2c_addr_parse("", &a, &why), -EINVAL);
	assert_int_equal(i2c_addr_parse("0x", &a, &why), -EINVAL);
	assert_int_equal(a, 0x77); /* untouched on failure */
	strbuf_release(&why);
}

static void test_clock_ops(void **state)
{
	uint64_t hz = 0;
	unsigned ops = 0;

	(void)state;
	assert_int_equal(i2c_clock_parse("400k", &hz), 0);
	assert_int_equal(hz, 400000);
	assert_int_equal(i2c_clock_parse("1M", &hz), 0);
	assert_int_equal(hz, 1000000);
	assert_int_equal(i2c_clock_parse("3.4M", &hz), 0);
	assert_int_equal(hz, 3400000);
	assert_int_equal(i2c_clock_parse("100000", &hz), 0);
	assert_int_equal(hz, 100000);
	assert_int_equal(i2c_clock_parse("100000Hz", &hz), 0);
	assert_int_equal(i2c_clock_parse("0", &hz), -EINVAL);
	assert_int_equal(i2c_clock_parse("20M", &hz), -EINVAL);
	assert_int_equal(i2c_clock_parse("fast", &hz), -EINVAL);
	assert_int_equal(i2c_clock_parse("1.5", &hz), -EINVAL);
	assert_int_equal(i2c_clock_parse("", &hz), -EINVAL);
	assert_int_equal(i2c_ops_parse("read,write", &ops), 0);
	assert_int_equal(ops, 1u << I2C_OP_READ | 1u << I2C_OP_WRITE);
	assert_int_equal(i2c_ops_parse("write-read", &ops), 0);
	assert_int_equal(ops, 1u << I2C_OP_WRITE_READ);
	assert_int_equal(i2c_ops_parse("read,", &ops), -EINVAL);
	assert_int_equal(i2c_ops_parse("writes", &ops), -EINVAL);
	assert_int_equal(i2c_ops_parse("", &ops), -EINVAL);
}

static void test_dt_funcs(void **state)
{
	const uint8_t be[4] = {0x00, 0x06, 0x1a, 0x80};
	struct strbuf sb = STRBUF_INIT;
	uint32_t v = 0;

	(void)state;
	assert_int_equal(i2c_dt_u32(be, 4, &v), 0);
	assert_int_equal(v, 400000);
	assert_int_equal(i2c_dt_u32(be, 3, &v), -EINVAL);
	assert_int_equal(i2c_dt_u32(be, 8, &v), -EINVAL);
	/* i2c-stub's functionality with its defaults (no block data): 0x0c7f0000 */
	i2c_funcs_names(0x0c7f0000ul, &sb);
	assert_string_equal(sb.buf,
			    "smbus-quick,smbus-read-byte,smbus-write-byte,smbus-read-byte-data,"
			    "smbus-write-byte-data,smbus-read-word-data,smbus-write-word-data,"
			    "smbus-read-i2c-block,smbus-write-i2c-block");
	i2c_funcs_names(I2CF_I2C | I2CF_10BIT_ADDR, &sb);
	assert_string_equal(sb.buf, "i2c,10bit-addr");
	i2c_funcs_names(0, &sb);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static void test_board(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct i2c_adapter a = {0};
	char *drv, *cli;

	(void)state;
	load_fixture("i2c-board");
	assert_int_equal(i2c_adapter_read(1, &a, &why), 0);
	assert_string_equal(a.name, "bcm2835 (i2c@7e804000)");
	assert_int_equal(a.clock_hz, 100000);
	assert_non_null(strstr(a.clock_from, "/i2c-1/of_node/clock-frequency"));
	i2c_adapter_release(&a);
	/* the clock on the controller's node, not the adapter's */
	assert_int_equal(i2c_adapter_read(0, &a, &why), 0);
	assert_string_equal(a.name, "rk3x-i2c");
	assert_int_equal(a.clock_hz, 400000);
	assert_non_null(strstr(a.clock_from, "ff3c0000.i2c/of_node/clock-frequency"));
	i2c_adapter_release(&a);
	assert_int_equal(i2c_adapter_read(7, &a, &why), -ENOENT);
	assert_non_null(strstr(why.buf, "no I2C adapter i2c-7"));
	/* at24 holds 0x50; 0x68 has a client and no driver; 0x51 nothing */
	assert_int_equal(i2c_addr_claimed(1, 0x50, &drv, &cli), 1);
	assert_string_equal(drv, "at24");
	assert_string_equal(cli, "24c02");
	free(drv);
	free(cli);
	assert_int_equal(i2c_addr_claimed(1, 0x68, &drv, &cli), 0);
	assert_null(drv);
	assert_int_equal(i2c_addr_claimed(1, 0x51, &drv, &cli), 0);
	assert_int_equal(i2c_addr_claimed(0, 0x50, &drv, &cli), 0);
	sysroot_set(NULL);
	strbuf_release(&why);
}

static void test_pc(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct i2c_adapter a = {0};
	char *drv, *cli;

	(void)state;
	load_fixture("i2c-pc");
	assert_int_equal(i2c_adapter_read(0, &a, &why), 0);
	assert_string_equal(a.name, "SMBus I801 adapter at efa0");
	assert_int_equal(a.clock_hz, 0); /* no device tree: --clock's to give */
	assert_null(a.clock_from);
	i2c_adapter_release(&a);
	/* named by the adapter's own directory when i2c-dev's is not there */
	assert_int_equal(i2c_adapter_read(3, &a, &why), 0);
	assert_string_equal(a.name, "i915 gmbus dpb");
	i2c_adapter_release(&a);
	assert_int_equal(i2c_addr_claimed(0, 0x50, &drv, &cli), 1);
	assert_string_equal(drv, "ee1004");
	free(drv);
	free(cli);
	sysroot_set(NULL);
	strbuf_release(&why);
}

/* a device of 256 registers: the register byte, then data, auto-incrementing */
struct fake {
	uint8_t mem[256];
	unsigned reg;
	int nak;	    /* every transfer fails with this */
	unsigned nak_after; /* non-zero: transfers past this many NAK (-EREMOTEIO) */
	bool corrupt;	    /* writes land one bit wrong */
	unsigned xfers;
};

static int fake_xfer(void *ctx, enum i2c_op op, unsigned offset, uint8_t *buf, unsigned size)
{
	struct fake *f = ctx;
	unsigned i;

	f->xfers++;
	if (f->nak)
		return f->nak;
	if (f->nak_after && f->xfers > f->nak_after)
		return -EREMOTEIO;
	switch (op) {
	case I2C_OP_WRITE:
		assert_int_equal(buf[0], offset);
		for (i = 0; i < size; i++)
			f->mem[(offset + i) & 0xff] = buf[1 + i] ^ (f->corrupt && i == 0);
		break;
	case I2C_OP_WRITE_READ:
		f->reg = offset;
		/* fall through */
	case I2C_OP_READ:
		for (i = 0; i < size; i++)
			buf[i] = f->mem[(f->reg + i) & 0xff];
		break;
	}
	return 0;
}

static void test_passes(void **state)
{
	static const unsigned sizes[] = {1, 16};
	struct fake f = {0};
	struct i2c_io io = {&f, fake_xfer};
	struct i2c_pass p[6];
	struct i2c_plan plan = {
	    .sizes = sizes,
	    .nsizes = 2,
	    .method = I2C_METHOD_RDWR,
	    .ops = I2C_OPS_ALL,
	    .offset = 0x10,
	    .seconds = 10,
	    .max_messages = 50,
	    .clock_hz = 400000,
	};
	uint8_t want[16];
	size_t n = 0;

	(void)state;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 6);
	assert_string_equal(p[0].op, "read");
	assert_string_equal(p[1].op, "write-read");
	assert_string_equal(p[2].op, "write");
	assert_string_equal(p[2].method, "i2c-rdwr");
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(p[i].messages, 50);
		assert_int_equal(p[i].bytes, 50 * p[i].size);
		assert_int_equal(p[i].naks, 0);
		assert_true(p[i].msg_s > 0);
		assert_true(p[i].lat_p50_us <= p[i].lat_p99_us);
		assert_true(p[i].lat_p99_us <= p[i].lat_max_us * 1.01);
	}
	/* the fake is faster than any bus: its efficiency is past 100 % */
	assert_true(p[4].efficiency_pct > 100);
	NEAR(p[4].ceiling_b_s, 16.0 * 400000 / (9 * 17 + 21));
	/* what the write pass wrote is what the registers hold, and the read-back says so */
	assert_true(p[5].verified);
	assert_int_equal(p[5].mismatches, 0);
	i2c_pattern_fill(want, 16, 16, 49);
	assert_memory_equal(f.mem + 0x10, want, 16);

	/* SMBus-only: no plain read pass; writes off */
	plan.method = I2C_METHOD_SMBUS_BLOCK;
	plan.ops = 1u << I2C_OP_READ | 1u << I2C_OP_WRITE_READ;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[0].op, "write-read");
	assert_string_equal(p[0].method, "smbus-i2c-block");

	/* a write that lands wrong is found by the read-back */
	f.corrupt = true;
	plan.ops = 1u << I2C_OP_WRITE;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 2);
	assert_true(p[0].verified);
	assert_int_equal(p[0].mismatches, 1);
	assert_int_equal(p[1].mismatches, 1);
}

static void test_nak(void **state)
{
	static const unsigned sizes[] = {1, 2, 4};
	struct fake f = {.nak = -ENXIO};
	struct i2c_io io = {&f, fake_xfer};
	struct i2c_pass p[9];
	struct i2c_plan plan = {
	    .sizes = sizes,
	    .nsizes = 3,
	    .method = I2C_METHOD_RDWR,
	    .ops = 1u << I2C_OP_READ | 1u << I2C_OP_WRITE_READ,
	    .seconds = 60, /* would be minutes: the NAK limit ends each pass */
	};
	size_t n = 0;

	(void)state;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	/* nobody there: one pass of I2C_NAK_LIMIT tries, and the run ends */
	assert_int_equal(n, 1);
	assert_int_equal(p[0].messages, 0);
	assert_int_equal(p[0].naks, I2C_NAK_LIMIT);
	assert_int_equal(p[0].errors, 0);
	assert_int_equal(p[0].last_err, -ENXIO);
	assert_true(p[0].seconds < 5);
	assert_int_equal(f.xfers, I2C_NAK_LIMIT);
	/* a device that answered once and then NAKs: each pass ends at the limit */
	f.nak = 0;
	f.nak_after = 1;
	f.xfers = 0;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 6);
	assert_int_equal(p[0].messages, 1);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(p[i].naks, I2C_NAK_LIMIT);
		assert_true(p[i].seconds < 5);
	}
	assert_int_equal(f.xfers, 1 + 6 * I2C_NAK_LIMIT);
	f.nak_after = 0;
	/* anything else than a NAK is an error, counted apart; never answering ends the run too */
	f.nak = -ETIMEDOUT;
	f.xfers = 0;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].errors, I2C_NAK_LIMIT);
	assert_int_equal(p[0].naks, 0);
	assert_int_equal(f.xfers, I2C_NAK_LIMIT);
	/* a USB bridge's failed transfer (i2c-tiny-usb's EIO) is no NAK */
	f.nak = -EIO;
	f.xfers = 0;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].errors, I2C_NAK_LIMIT);
	assert_int_equal(p[0].naks, 0);
	assert_int_equal(p[0].last_err, -EIO);
	assert_int_equal(f.xfers, I2C_NAK_LIMIT);
	assert_true(i2c_err_is_nak(-EREMOTEIO));
	assert_true(i2c_err_is_nak(-ENXIO));
	assert_false(i2c_err_is_nak(-ETIMEDOUT));
	assert_false(i2c_err_is_nak(-EIO));
}

/*
 * No ACK against the bus's own failures (Documentation/i2c/fault-codes.rst):
 * ENXIO is the address not acknowledged, EREMOTEIO the NAK of i2c-omap,
 * i2c-tegra and others, ENODEV i2c-stub's absent chip; EIO, ETIMEDOUT,
 * EAGAIN (arbitration lost) and EBUSY are bus errors, not an absent device.
 */
static void test_bus_errors(void **state)
{
	static const struct {
		int err;
		bool nak;
		const char *what;
	} cases[] = {
	    {-ENXIO, true, "NAK"},
	    {-EREMOTEIO, true, "NAK"},
	    {-ENODEV, true, "NAK"},
	    {-EIO, false, "I/O error"},
	    {-ETIMEDOUT, false, "timed out"},
	    {-EAGAIN, false, "arbitration lost"},
	    {-EBUSY, false, "bus busy"},
	    {-EPROTO, false, "protocol error"},
	};
	static const unsigned sizes[] = {1, 2, 4};
	struct i2c_plan plan = {
	    .sizes = sizes,
	    .nsizes = 3,
	    .method = I2C_METHOD_RDWR,
	    .ops = 1u << I2C_OP_READ | 1u << I2C_OP_WRITE_READ,
	    .seconds = 60,
	};
	struct i2c_pass p[9];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake f = {.nak = cases[i].err};
		struct i2c_io io = {&f, fake_xfer};

		assert_int_equal(i2c_err_is_nak(cases[i].err), cases[i].nak);
		assert_int_equal(i2c_err_is_nak(-cases[i].err), cases[i].nak);
		assert_string_equal(i2c_err_what(cases[i].err), cases[i].what);
		assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
		assert_int_equal(p[0].messages, 0);
		assert_int_equal(p[0].naks, cases[i].nak ? I2C_NAK_LIMIT : 0);
		assert_int_equal(p[0].errors, cases[i].nak ? 0 : I2C_NAK_LIMIT);
		assert_int_equal(p[0].nak_err, cases[i].nak ? cases[i].err : 0);
		assert_int_equal(p[0].bus_err, cases[i].nak ? 0 : cases[i].err);
		assert_int_equal(p[0].last_err, cases[i].err);
		/*
		 * nothing moved in the first pass, NAKs or bus errors alike: one pass
		 * and the run ends (the next sizes would fail the same way)
		 */
		assert_int_equal(n, 1);
		assert_int_equal(f.xfers, I2C_NAK_LIMIT);
	}
}

static bool has_finding(const struct finding_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id))
			return true;
	return false;
}

/* the findings tell the two apart: a NAK is the address, a bus error the bus */
static void test_bus_error_findings(void **state)
{
	struct i2c_pass p[2] = {
	    {.op = "read",
	     .size = 8,
	     .messages = 100,
	     .errors = 2,
	     .bus_err = -EAGAIN,
	     .efficiency_pct = NAN},
	    {.op = "read", .size = 16, .messages = 100, .efficiency_pct = NAN},
	};
	struct finding_list l = {0};

	(void)state;
	i2c_findings("i2c-1:0x50", p, 2, 400000, "--clock", &l);
	assert_true(has_finding(&l, "i2c.bus_errors"));
	assert_false(has_finding(&l, "i2c.nak"));
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].id, "i2c.bus_errors"))
			assert_non_null(strstr(l.v[i].message, "2 transfers failed with bus errors "
							       "(the last: arbitration lost)"));
	finding_list_release(&l);
	p[0].errors = 0;
	p[0].naks = 3;
	p[0].nak_err = -ENXIO;
	i2c_findings("i2c-1:0x50", p, 2, 400000, "--clock", &l);
	assert_true(has_finding(&l, "i2c.nak"));
	assert_false(has_finding(&l, "i2c.bus_errors"));
	finding_list_release(&l);
}

static void test_stop(void **state)
{
	static const unsigned sizes[] = {1, 2};
	volatile int stop = 1;
	struct fake f = {0};
	struct i2c_io io = {&f, fake_xfer};
	struct i2c_pass p[6];
	struct i2c_plan plan = {.sizes = sizes,
				.nsizes = 2,
				.method = I2C_METHOD_RDWR,
				.ops = I2C_OPS_ALL,
				.seconds = 60,
				.stop = &stop};
	size_t n = 7;

	(void)state;
	assert_int_equal(i2c_passes_run(&io, &plan, p, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(f.xfers, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bits),	 cmocka_unit_test(test_ceilings),
	    cmocka_unit_test(test_ceiling_rows), cmocka_unit_test(test_addr),
	    cmocka_unit_test(test_clock_ops),	 cmocka_unit_test(test_dt_funcs),
	    cmocka_unit_test(test_board),	 cmocka_unit_test(test_pc),
	    cmocka_unit_test(test_passes),	 cmocka_unit_test(test_nak),
	    cmocka_unit_test(test_bus_errors),	 cmocka_unit_test(test_bus_error_findings),
	    cmocka_unit_test(test_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

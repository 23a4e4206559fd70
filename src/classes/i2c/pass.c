// SPDX-License-Identifier: MIT
/*
 * The passes of usbperf i2c against one address: for each message size a
 * read (plain I2C only), a write-then-read (the register byte, then the
 * data), and with --destructive a write, read back once and compared. Each
 * pass runs for its time (or message count); a NAK is counted, and a device
 * that does not answer ends the pass after I2C_NAK_LIMIT tries in a row (and
 * the whole run when it never answered at all).
 */
#include "classes/i2c/i2c.h"
#include "platform/sys/cpustat.h"
#include "util/clock.h"
#include "util/stats.h"
#include "util/xalloc.h"

#include <errno.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

int i2c_funcs_read(int fd, unsigned long *ret)
{
	unsigned long f = 0;

	if (ioctl(fd, I2C_FUNCS, &f) < 0)
		return -errno;
	*ret = f;
	return 0;
}

int i2c_fd_set_addr(int fd, unsigned addr, bool force)
{
	return ioctl(fd, force ? I2C_SLAVE_FORCE : I2C_SLAVE, (unsigned long)addr) < 0 ? -errno : 0;
}

/*
 * No ACK, as adapters say it: ENXIO (Documentation/i2c/fault-codes.rst: the
 * address phase got no ACK), EREMOTEIO (what i2c-omap, i2c-tegra and others
 * return for a NAK), ENODEV (i2c-stub's "no chip at this address"). EIO,
 * ETIMEDOUT, EAGAIN (arbitration lost), EBUSY (bus busy too long) are the
 * bus's trouble, not an absent device: counted as errors.
 */
bool i2c_err_is_nak(int err)
{
	err = err < 0 ? -err : err;
	return err == ENXIO || err == EREMOTEIO || err == ENODEV;
}

const char *i2c_err_what(int err)
{
	switch (err < 0 ? -err : err) {
	case ENXIO:
	case EREMOTEIO:
	case ENODEV:
		return "NAK";
	case EAGAIN:
		return "arbitration lost";
	case ETIMEDOUT:
		return "timed out";
	case EBUSY:
		return "bus busy";
	case EIO:
		return "I/O error";
	case EPROTO:
	case EBADMSG:
		return "protocol error";
	default:
		return "error";
	}
}

static int rdwr(int fd, unsigned addr, enum i2c_op op, unsigned offset, uint8_t *buf, unsigned size)
{
	uint8_t reg[1] = {(uint8_t)offset};
	struct i2c_msg m[2];
	struct i2c_rdwr_ioctl_data d = {m, 0};

	switch (op) {
	case I2C_OP_READ:
		m[0] = (struct i2c_msg){(uint16_t)addr, I2C_M_RD, (uint16_t)size, buf};
		d.nmsgs = 1;
		break;
	case I2C_OP_WRITE:
		/* buf[0] is the register byte (offset), the data follows */
		m[0] = (struct i2c_msg){(uint16_t)addr, 0, (uint16_t)(size + 1), buf};
		d.nmsgs = 1;
		break;
	default:
		m[0] = (struct i2c_msg){(uint16_t)addr, 0, 1, reg};
		m[1] = (struct i2c_msg){(uint16_t)addr, I2C_M_RD, (uint16_t)size, buf};
		d.nmsgs = 2;
		break;
	}
	return ioctl(fd, I2C_RDWR, &d) < 0 ? -errno : 0;
}

static int smbus(int fd, enum i2c_op op, unsigned offset, uint8_t *buf, unsigned size)
{
	union i2c_smbus_data data;
	struct i2c_smbus_ioctl_data a = {
	    .read_write = op == I2C_OP_WRITE ? I2C_SMBUS_WRITE : I2C_SMBUS_READ,
	    .command = (uint8_t)offset,
	    .size = I2C_SMBUS_I2C_BLOCK_DATA,
	    .data = &data,
	};

	if (op == I2C_OP_READ || size > I2C_SMBUS_MAX)
		return -EOPNOTSUPP;
	data.block[0] = (uint8_t)size;
	if (op == I2C_OP_WRITE)
		memcpy(data.block + 1, buf + 1, size);
	if (ioctl(fd, I2C_SMBUS, &a) < 0)
		return -errno;
	if (op != I2C_OP_WRITE) {
		if (data.block[0] < size)
			return -EPROTO;
		memcpy(buf, data.block + 1, size);
	}
	return 0;
}

static int fd_xfer(void *ctx, enum i2c_op op, unsigned offset, uint8_t *buf, unsigned size)
{
	struct i2c_fd *f = ctx;

	if (f->method == I2C_METHOD_RDWR)
		return rdwr(f->fd, f->addr, op, offset, buf, size);
	return smbus(f->fd, op, offset, buf, size);
}

void i2c_io_fd(struct i2c_io *io, struct i2c_fd *f)
{
	*io = (struct i2c_io){f, fd_xfer};
}

void i2c_pattern_fill(uint8_t *buf, unsigned len, unsigned size, uint64_t seq)
{
	uint64_t x = seq * 0x9e3779b97f4a7c15ull ^ size;
	unsigned i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)(x >> 24);
	}
}

static bool stopped(const struct i2c_plan *p)
{
	return p->stop && *p->stop;
}

static void pass_finish(struct i2c_pass *ps, const struct histogram *h, const struct i2c_plan *p,
			enum i2c_op op, unsigned size, const struct cpu_sample *c0)
{
	struct i2c_shape sh;
	struct cpu_sample c1;
	struct cpu_use u;

	ps->msg_s = ps->seconds > 0 ? (double)ps->messages / ps->seconds : 0;
	ps->payload_b_s = ps->seconds > 0 ? (double)ps->bytes / ps->seconds : 0;
	ps->lat_p50_us = h->count ? hist_quantile(h, 0.50) / 1e3 : NAN;
	ps->lat_p99_us = h->count ? hist_quantile(h, 0.99) / 1e3 : NAN;
	ps->lat_max_us = h->count ? (double)h->max / 1e3 : NAN;
	i2c_op_shape(op, p->method, size, &sh);
	ps->wire_bits = i2c_shape_bits(&sh);
	ps->ceiling_b_s = i2c_ceiling_b_s(&sh, p->clock_hz);
	ps->efficiency_pct = isnan(ps->ceiling_b_s) || !ps->messages
				 ? NAN
				 : 100.0 * ps->payload_b_s / ps->ceiling_b_s;
	ps->cpu_pct = ps->self_cpu_pct = NAN;
	if (c0 && cpu_sample_take(&c1) == 0) {
		cpu_use_between(c0, &c1, &u);
		ps->cpu_pct = u.busy_pct;
		ps->self_cpu_pct = u.self_pct;
	}
}

/* one pass of op at size; buf has room for size + 1 */
static void run_pass(const struct i2c_io *io, const struct i2c_plan *p, enum i2c_op op,
		     unsigned size, uint8_t *buf, struct histogram *h, struct i2c_pass *ps)
{
	uint64_t t0, end, t, seq = 0;
	struct cpu_sample c0;
	bool have_cpu;
	unsigned fails = 0;
	int r;

	*ps = (struct i2c_pass){
	    .op = i2c_op_name(op),
	    .method = i2c_method_name(p->method),
	    .size = size,
	};
	hist_init(h);
	have_cpu = cpu_sample_take(&c0) == 0;
	t0 = clock_now_ns();
	end = t0 + (uint64_t)(p->seconds * 1e9);
	for (;;) {
		if (stopped(p)) {
			ps->interrupted = true;
			break;
		}
		if (op == I2C_OP_WRITE) {
			/* the message: the register byte, then the data */
			buf[0] = (uint8_t)p->offset;
			i2c_pattern_fill(buf + 1, size, size, seq);
		}
		t = clock_now_ns();
		r = io->xfer(io->ctx, op, p->offset, buf, size);
		t = clock_now_ns() - t;
		if (r < 0) {
			ps->last_err = r;
			if (i2c_err_is_nak(r)) {
				ps->naks++;
				ps->nak_err = r;
			} else {
				ps->errors++;
				ps->bus_err = r;
			}
			if (++fails >= I2C_NAK_LIMIT || r == -EOPNOTSUPP || r == -EINVAL)
				break;
		} else {
			fails = 0;
			ps->messages++;
			ps->bytes += size;
			hist_record(h, t);
			seq++;
		}
		if (p->max_messages && ps->messages >= p->max_messages)
			break;
		if (clock_now_ns() >= end)
			break;
	}
	ps->seconds = (double)(clock_now_ns() - t0) / 1e9;
	pass_finish(ps, h, p, op, size, have_cpu ? &c0 : NULL);
	if (op == I2C_OP_WRITE && seq > 0 && !stopped(p)) {
		uint8_t *want = malloc(size);

		if (!want)
			return;
		/* the last message written: read it back through the register byte */
		i2c_pattern_fill(want, size, size, seq - 1);
		memset(buf, 0, size + 1);
		r = io->xfer(io->ctx, I2C_OP_WRITE_READ, p->offset, buf, size);
		if (r == 0) {
			ps->verified = true;
			for (unsigned i = 0; i < size; i++)
				ps->mismatches += buf[i] != want[i];
		} else {
			ps->last_err = r;
		}
		free(want);
	}
}

int i2c_passes_run(const struct i2c_io *io, const struct i2c_plan *p, struct i2c_pass *ret,
		   size_t *ret_n)
{
	struct histogram *h;
	unsigned max = 0, op;
	bool nobody = false;
	uint8_t *buf;
	size_t i, n = 0;

	for (i = 0; i < p->nsizes; i++)
		if (p->sizes[i] > max)
			max = p->sizes[i];
	h = malloc(sizeof(*h));
	buf = malloc((size_t)max + 1);
	if (!h || !buf) {
		free_all(h, buf);
		return -ENOMEM;
	}
	for (i = 0; i < p->nsizes && !stopped(p) && !nobody; i++) {
		for (op = I2C_OP_READ; op <= I2C_OP_WRITE_READ && !stopped(p) && !nobody; op++) {
			static const enum i2c_op order[] = {I2C_OP_READ, I2C_OP_WRITE_READ,
							    I2C_OP_WRITE};
			enum i2c_op o = order[op];

			if (!(p->ops & 1u << o) ||
			    (o == I2C_OP_READ && p->method != I2C_METHOD_RDWR))
				continue;
			run_pass(io, p, o, p->sizes[i], buf, h, &ret[n++]);
			/*
			 * nothing but NAKs or errors from the start: nobody there (or no
			 * adapter that works), every pass would say so
			 */
			nobody = !ret[0].messages && !ret[n - 1].messages &&
				 ret[n - 1].naks + ret[n - 1].errors >= I2C_NAK_LIMIT;
		}
	}
	free_all(h, buf);
	*ret_n = n;
	return 0;
}

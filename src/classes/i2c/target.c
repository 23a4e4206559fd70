// SPDX-License-Identifier: MIT
/*
 * An I2C address made ready to measure: the refusals (not i2c-dev, a kernel
 * driver's address, an adapter that can do neither transfer, sizes it cannot
 * carry) come before the node is opened, so a refused command has touched
 * nothing on the bus.
 */
#include "classes/i2c/i2c.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static const unsigned default_sizes[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

void i2c_target_release(struct i2c_target *t)
{
	if (!t)
		return;
	i2c_adapter_release(&t->ad);
	free_all(t->driver, t->client);
	t->driver = t->client = NULL;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

static int pick_sizes(const struct i2c_want *w, struct i2c_target *t, struct strbuf *why)
{
	unsigned max = t->method == I2C_METHOD_RDWR ? I2C_MAX_SIZE : I2C_SMBUS_MAX;
	size_t i;

	t->nsizes = t->capped = 0;
	if (!w->nsizes) {
		for (i = 0; i < sizeof(default_sizes) / sizeof(default_sizes[0]); i++) {
			if (default_sizes[i] <= max)
				t->sizes[t->nsizes++] = default_sizes[i];
			else
				t->capped++;
		}
		return 0;
	}
	if (w->nsizes > I2C_MAX_SIZES) {
		strbuf_addf(why, "invalid --sizes: at most %d sizes", I2C_MAX_SIZES);
		return -EINVAL;
	}
	for (i = 0; i < w->nsizes; i++) {
		if (!w->sizes[i] || w->sizes[i] > max) {
			strbuf_addf(why, "invalid --sizes: %llu B is more than %s carries (%u B)",
				    (unsigned long long)w->sizes[i],
				    t->method == I2C_METHOD_RDWR ? "a message of usbperf i2c"
								 : "an SMBus I2C-block transfer",
				    max);
			return -EINVAL;
		}
		t->sizes[t->nsizes++] = (unsigned)w->sizes[i];
	}
	return 0;
}

static int pick_method(const struct i2c_want *w, struct i2c_target *t, const char *node,
		       struct strbuf *why)
{
	unsigned long need = I2CF_SMBUS_READ_I2C_BLOCK;

	if (t->funcs & I2CF_I2C) {
		t->method = I2C_METHOD_RDWR;
		return 0;
	}
	if (w->destructive)
		need |= I2CF_SMBUS_WRITE_I2C_BLOCK;
	if ((t->funcs & need) == need) {
		t->method = I2C_METHOD_SMBUS_BLOCK;
		return 0;
	}
	strbuf_addf(why,
		    "'%s' (%s) can do neither I2C transfers nor SMBus I2C-block %s "
		    "(functionality 0x%08lx)",
		    node, t->ad.name, w->destructive ? "reads and writes" : "reads", t->funcs);
	return -EOPNOTSUPP;
}

int i2c_target_open(const char *node, unsigned addr, const struct i2c_want *w,
		    struct i2c_target *ret, struct strbuf *why)
{
	struct i2c_target t = I2C_TARGET_INIT;
	int r;

	t.addr = addr;
	r = i2c_node_probe(node, &t.ad, why);
	if (r < 0)
		return r;
	r = i2c_addr_claimed(t.ad.bus, addr, &t.driver, &t.client);
	if (r < 0) {
		strbuf_addf(why, "cannot read the clients of i2c-%u: %s", t.ad.bus, strerror(-r));
		goto fail;
	}
	if (r > 0 && !w->force) {
		strbuf_addf(why,
			    "refusing 0x%02x on i2c-%u: kernel driver '%s' has it (client '%s'); "
			    "give --force to use I2C_SLAVE_FORCE",
			    addr, t.ad.bus, t.driver, t.client ? t.client : "?");
		r = -EBUSY;
		goto fail;
	}
	t.clock_hz = w->clock_hz ? w->clock_hz : t.ad.clock_hz;
	t.clock_from = w->clock_hz ? "--clock" : t.ad.clock_hz ? "device tree" : NULL;
	t.fd = open(node, O_RDWR | O_CLOEXEC);
	if (t.fd < 0) {
		r = -errno;
		strbuf_addf(why, "cannot open '%s': %s", node, strerror(errno));
		goto fail;
	}
	/* two usbperf on one bus would measure each other */
	if (flock(t.fd, LOCK_EX | LOCK_NB) < 0) {
		strbuf_addf(why, "'%s' is busy: another usbperf measures it", node);
		r = -EBUSY;
		goto fail;
	}
	r = i2c_funcs_read(t.fd, &t.funcs);
	if (r < 0) {
		strbuf_addf(why, "I2C_FUNCS on '%s': %s", node, strerror(-r));
		goto fail;
	}
	r = pick_method(w, &t, node, why);
	if (r == 0)
		r = pick_sizes(w, &t, why);
	if (r < 0)
		goto fail;
	r = i2c_fd_set_addr(t.fd, addr, w->force);
	if (r < 0) {
		if (r == -EBUSY)
			strbuf_addf(why,
				    "refusing 0x%02x on i2c-%u: the kernel says a driver has it "
				    "(EBUSY); give --force to use I2C_SLAVE_FORCE",
				    addr, t.ad.bus);
		else
			strbuf_addf(why, "%s 0x%02x on '%s': %s",
				    w->force ? "I2C_SLAVE_FORCE" : "I2C_SLAVE", addr, node,
				    strerror(-r));
		goto fail;
	}
	t.forced = w->force;
	*ret = t;
	return 0;
fail:
	i2c_target_release(&t);
	return r;
}

// SPDX-License-Identifier: MIT
/*
 * The I2C adapter behind a /dev/i2c-N node from sysfs: its name, the bus
 * clock the device tree gives, and the kernel driver (if any) that holds an
 * address. Nothing here opens the bus.
 */
#include "classes/i2c/i2c.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

void i2c_adapter_release(struct i2c_adapter *a)
{
	if (!a)
		return;
	free_all(a->name, a->clock_from);
	a->name = a->clock_from = NULL;
}

void i2c_funcs_names(unsigned long funcs, struct strbuf *sb)
{
	static const struct {
		unsigned long bit;
		const char *name;
	} names[] = {
	    {I2CF_I2C, "i2c"},
	    {I2CF_10BIT_ADDR, "10bit-addr"},
	    {I2CF_PROTOCOL_MANGLING, "protocol-mangling"},
	    {I2CF_SMBUS_PEC, "smbus-pec"},
	    {I2CF_NOSTART, "nostart"},
	    {I2CF_SLAVE, "slave"},
	    {I2CF_SMBUS_QUICK, "smbus-quick"},
	    {I2CF_SMBUS_READ_BYTE, "smbus-read-byte"},
	    {I2CF_SMBUS_WRITE_BYTE, "smbus-write-byte"},
	    {I2CF_SMBUS_READ_BYTE_DATA, "smbus-read-byte-data"},
	    {I2CF_SMBUS_WRITE_BYTE_DATA, "smbus-write-byte-data"},
	    {I2CF_SMBUS_READ_WORD_DATA, "smbus-read-word-data"},
	    {I2CF_SMBUS_WRITE_WORD_DATA, "smbus-write-word-data"},
	    {I2CF_SMBUS_PROC_CALL, "smbus-proc-call"},
	    {I2CF_SMBUS_READ_BLOCK_DATA, "smbus-read-block-data"},
	    {I2CF_SMBUS_WRITE_BLOCK_DATA, "smbus-write-block-data"},
	    {I2CF_SMBUS_READ_I2C_BLOCK, "smbus-read-i2c-block"},
	    {I2CF_SMBUS_WRITE_I2C_BLOCK, "smbus-write-i2c-block"},
	    {I2CF_SMBUS_HOST_NOTIFY, "smbus-host-notify"},
	};
	size_t i;

	strbuf_reset(sb);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(funcs & names[i].bit))
			continue;
		if (sb->len)
			strbuf_addch(sb, ',');
		strbuf_adds(sb, names[i].name);
	}
}

int i2c_dt_u32(const void *data, size_t len, uint32_t *ret)
{
	const uint8_t *b = data;

	if (!data || len != 4)
		return -EINVAL;
	*ret = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return 0;
}

/* clock-frequency of the adapter's own DT node, else its parent's (the controller) */
static void read_clock(unsigned bus, struct i2c_adapter *a)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, sb = STRBUF_INIT;
	uint32_t hz;
	int k;

	strbuf_addf(&path, "/sys/bus/i2c/devices/i2c-%u", bus);
	if (sysroot_resolve(path.buf, &dir) < 0)
		goto out;
	for (k = 0; k < 2; k++) {
		char *slash;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/of_node/clock-frequency", dir.buf);
		if (sysroot_read(path.buf, 16, &sb) == 0 && i2c_dt_u32(sb.buf, sb.len, &hz) == 0 &&
		    hz > 0) {
			a->clock_hz = hz;
			a->clock_from = strbuf_detach(&path);
			break;
		}
		slash = strrchr(dir.buf, '/');
		if (!slash || slash == dir.buf)
			break;
		*slash = '\0';
		dir.len = (size_t)(slash - dir.buf);
	}
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&sb);
}

int i2c_adapter_read(unsigned bus, struct i2c_adapter *ret, struct strbuf *why)
{
	struct i2c_adapter a = {.bus = bus};
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "/sys/class/i2c-dev/i2c-%u/name", bus);
	r = sysroot_read_attr(path.buf, &sb);
	if (r < 0) {
		/* the adapter's own name, when i2c-dev's class dir is not recorded */
		strbuf_reset(&path);
		strbuf_addf(&path, "/sys/bus/i2c/devices/i2c-%u/name", bus);
		r = sysroot_read_attr(path.buf, &sb);
	}
	strbuf_release(&path);
	if (r < 0) {
		strbuf_addf(why, "no I2C adapter i2c-%u in sysfs ('/sys/class/i2c-dev/i2c-%u')",
			    bus, bus);
		strbuf_release(&sb);
		return r == -ENOMEM ? r : -ENOENT;
	}
	a.name = strbuf_detach(&sb);
	read_clock(bus, &a);
	*ret = a;
	return 0;
}

int i2c_node_probe(const char *node, struct i2c_adapter *ret, struct strbuf *why)
{
	struct stat st;
	int r;

	if (stat(node, &st) < 0) {
		r = -errno;
		strbuf_addf(why, "cannot open '%s': %s", node, strerror(errno));
		return r;
	}
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != I2C_DEV_MAJOR) {
		strbuf_addf(why,
			    "'%s' is not an I2C device (a /dev/i2c-N character device, major %d)",
			    node, I2C_DEV_MAJOR);
		return -EINVAL;
	}
	r = i2c_adapter_read(minor(st.st_rdev), ret, why);
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	return 0;
}

int i2c_addr_parse(const char *s, unsigned *ret, struct strbuf *why)
{
	uint64_t v;
	int r;

	if (s && (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
		r = parse_hex(s, 0x3ff, &v);
	else
		r = parse_u64(s, 0, 0x3ff, &v);
	if (r < 0) {
		strbuf_addf(why, "invalid I2C address '%s': expected a 7-bit address, e.g. 0x50",
			    s);
		return -EINVAL;
	}
	if (v > 0x7f) {
		strbuf_addf(
		    why, "invalid I2C address '%s': past 0x7f (10-bit addresses are not measured)",
		    s);
		return -ERANGE;
	}
	if (v < I2C_ADDR_FIRST || v > I2C_ADDR_LAST) {
		strbuf_addf(
		    why,
		    "invalid I2C address '%s': 0x%02llx is reserved (devices use 0x%02x-0x%02x)", s,
		    (unsigned long long)v, I2C_ADDR_FIRST, I2C_ADDR_LAST);
		return -ERANGE;
	}
	*ret = (unsigned)v;
	return 0;
}

int i2c_clock_parse(const char *s, uint64_t *ret)
{
	char num[32];
	double v, mult = 1;
	size_t n;

	if (!s || !(n = strlen(s)) || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n + 1);
	if (num[n - 1] == 'k' || num[n - 1] == 'K')
		mult = 1e3;
	else if (num[n - 1] == 'M')
		mult = 1e6;
	if (mult > 1) {
		num[--n] = '\0';
		if (n >= 2 && !strcmp(num + n - 2, "Hz"))
			return -EINVAL;
	} else if (n > 2 && !strcmp(num + n - 2, "Hz")) {
		num[n - 2] = '\0';
	}
	if (parse_double(num, 0, 1e12, &v) < 0)
		return -EINVAL;
	v *= mult;
	if (v < 1e3 || v > 1e7 || v != (double)(uint64_t)v)
		return -EINVAL;
	*ret = (uint64_t)v;
	return 0;
}

int i2c_addr_claimed(unsigned bus, unsigned addr, char **ret_driver, char **ret_client)
{
	struct strbuf path = STRBUF_INIT, target = STRBUF_INIT, sb = STRBUF_INIT;
	const char *base;
	int r;

	*ret_driver = NULL;
	*ret_client = NULL;
	strbuf_addf(&path, "/sys/bus/i2c/devices/%u-%04x/driver", bus, addr);
	r = sysroot_readlink(path.buf, &target);
	if (r < 0) {
		r = r == -ENOENT || r == -ENOTDIR || r == -EINVAL ? 0 : r;
		goto out;
	}
	base = strrchr(target.buf, '/');
	base = base ? base + 1 : target.buf;
	*ret_driver = strdup(base);
	if (!*ret_driver) {
		r = -ENOMEM;
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "/sys/bus/i2c/devices/%u-%04x/name", bus, addr);
	if (sysroot_read_attr(path.buf, &sb) == 0)
		*ret_client = strbuf_detach(&sb);
	r = 1;
out:
	strbuf_release(&path);
	strbuf_release(&target);
	strbuf_release(&sb);
	return r;
}

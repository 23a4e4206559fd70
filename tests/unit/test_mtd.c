// SPDX-License-Identifier: MIT
/*
 * mtd: geometry from a fake sysfs tree, the region and write-size rules, the
 * bootloader-name rule and the other refusals, and the passes over a fake
 * flash in memory (bad eraseblocks skipped and counted, verify, a stop).
 */
#include "unit.h"
#include "classes/mtd/mtd.h"
#include "util/sysroot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = 0;
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* a device directory as 6.1 sysfs has it */
static void put_mtd(const char *dir, const char *type, const char *name, const char *size,
		    const char *erase, const char *page, const char *oob, const char *flags)
{
	char p[256];
#define P(attr, v)                                                                                 \
	do {                                                                                       \
		snprintf(p, sizeof(p), "%s/%s", dir, attr);                                        \
		put(p, v);                                                                         \
	} while (0)
	P("type", type);
	P("name", name);
	P("size", size);
	P("erasesize", erase);
	P("writesize", page);
	P("oobsize", oob);
	P("flags", flags);
#undef P
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/usbperf-test-mtd.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* mtd0: nandsim's chip; mtd1: a partition of it named like U-Boot's */
	put_mtd("/sys/devices/virtual/mtd/mtd0", "nand\n", "NAND simulator partition 0\n",
		"4194304\n", "16384\n", "512\n", "16\n", "0x400\n");
	put("/sys/devices/virtual/mtd/mtd0/subpagesize", "256\n");
	put("/sys/devices/virtual/mtd/mtd0/bad_blocks", "2\n");
	put("/sys/devices/virtual/mtd/mtd0/corrected_bits", "0\n");
	put_mtd("/sys/devices/virtual/mtd/mtd0/mtd1", "nand\n", "u-boot\n", "1048576\n", "16384\n",
		"512\n", "16\n", "0x400\n");
	put("/sys/devices/virtual/mtd/mtd0/mtd1/offset", "65536\n");
	/* mtd2: a read-only NOR; mtd3: a geometry that does not add up */
	put_mtd("/sys/devices/virtual/mtd/mtd2", "nor\n", "rootfs\n", "8388608\n", "65536\n", "1\n",
		"0\n", "0x800\n");
	put_mtd("/sys/devices/virtual/mtd/mtd3", "nand\n", "odd\n", "100000\n", "16384\n", "512\n",
		"16\n", "0x400\n");
	/* mtd4: a RAM device as mtdram makes it, 128 MiB (past the default cap) */
	put_mtd("/sys/devices/virtual/mtd/mtd4", "ram\n", "mtdram test device\n", "134217728\n",
		"131072\n", "1\n", "0\n", "0xc00\n");
	put("/sys/class/.keep", "");
	put("/sys/class/mtd/.keep", "");
	link_to("/sys/class/mtd/mtd0", "../../devices/virtual/mtd/mtd0");
	link_to("/sys/class/mtd/mtd1", "../../devices/virtual/mtd/mtd0/mtd1");
	link_to("/sys/class/mtd/mtd2", "../../devices/virtual/mtd/mtd2");
	link_to("/sys/class/mtd/mtd3", "../../devices/virtual/mtd/mtd3");
	link_to("/sys/class/mtd/mtd4", "../../devices/virtual/mtd/mtd4");
	put("/proc/self/mountinfo", "22 1 0:21 / / rw,relatime - ext4 /dev/sda1 rw\n"
				    "40 22 31:4 / /data rw,relatime - jffs2 /dev/mtdblock4 rw\n");
	put("/sys/class/ubi/ubi0/mtd_num", "2\n");
	put("/sys/class/ubi/ubi0_0/name", "rootfs\n");
	sysroot_set(root);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	sysroot_set("");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_geometry(void **state)
{
	struct mtd_geometry g;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_int_equal(mtd_geometry_read(0, &g, &why), 0);
	assert_string_equal(g.type, "nand");
	assert_string_equal(g.name, "NAND simulator partition 0");
	assert_int_equal(g.size, 4194304);
	assert_int_equal(g.erasesize, 16384);
	assert_int_equal(g.writesize, 512);
	assert_int_equal(g.oobsize, 16);
	assert_int_equal(g.subpagesize, 256);
	assert_int_equal(g.bad_blocks, 2);
	assert_int_equal(g.ecc_failures, UINT64_MAX); /* absent */
	assert_true(g.writeable);
	assert_null(g.parent);
	mtd_geometry_release(&g);

	assert_int_equal(mtd_geometry_read(1, &g, &why), 0);
	assert_string_equal(g.parent, "mtd0");
	assert_int_equal(g.offset, 65536);
	mtd_geometry_release(&g);

	assert_int_equal(mtd_geometry_read(2, &g, &why), 0);
	assert_string_equal(g.type, "nor");
	assert_false(g.writeable);
	mtd_geometry_release(&g);

	assert_int_equal(mtd_geometry_read(3, &g, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "size 100000"));
	strbuf_reset(&why);
	assert_int_equal(mtd_geometry_read(9, &g, &why), -ENOENT);
	assert_non_null(strstr(why.buf, "no MTD device mtd9"));
	strbuf_release(&why);
}

static void test_node(void **state)
{
	struct mtd_geometry g;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_int_equal(mtd_node_probe("/dev/null", &g, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "not an MTD device"));
	strbuf_reset(&why);
	assert_int_equal(mtd_node_probe(root, &g, &why), -EINVAL);
	strbuf_reset(&why);
	assert_int_equal(mtd_node_probe("/nonexistent/mtd0", &g, &why), -ENOENT);
	strbuf_release(&why);
}

static void test_region(void **state)
{
	struct mtd_geometry g;
	struct strbuf why = STRBUF_INIT;
	uint64_t len = 0;

	(void)state;
	assert_int_equal(mtd_geometry_read(0, &g, &why), 0);
	assert_int_equal(mtd_region(&g, 0, &len, &why), 0);
	assert_int_equal(len, 4194304); /* the whole device, under the cap */
	assert_int_equal(mtd_region(&g, 1 << 20, &len, &why), 0);
	assert_int_equal(len, 1 << 20);
	assert_int_equal(mtd_region(&g, 1000000, &len, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "not a multiple of the eraseblock"));
	strbuf_reset(&why);
	assert_int_equal(mtd_region(&g, 8 << 20, &len, &why), -EINVAL);
	assert_non_null(strstr(why.buf, "past the end"));
	mtd_geometry_release(&g);
	strbuf_reset(&why);
	assert_int_equal(mtd_geometry_read(4, &g, &why), 0);
	assert_int_equal(mtd_region(&g, 0, &len, &why), 0);
	assert_int_equal(len, MTD_DEFAULT_CAP); /* 128 MiB capped at 64 MiB */
	mtd_geometry_release(&g);
	strbuf_release(&why);
}

static void test_write_sizes(void **state)
{
	static const uint64_t bad1[] = {512, 1000}, bad2[] = {32768}, bad3[] = {1536},
			      good[] = {512, 16384};
	struct mtd_geometry g;
	struct strbuf why = STRBUF_INIT;
	uint64_t ws[MTD_MAX_WRITE_SIZES];
	size_t n;

	(void)state;
	assert_int_equal(mtd_geometry_read(0, &g, &why), 0);
	assert_int_equal(mtd_write_sizes(&g, NULL, 0, ws, &n, &why), 0);
	assert_int_equal(n, 4);
	assert_int_equal(ws[0], 512);
	assert_int_equal(ws[1], 2048);
	assert_int_equal(ws[2], 8192);
	assert_int_equal(ws[3], 16384);
	assert_int_equal(mtd_write_sizes(&g, good, 2, ws, &n, &why), 0);
	assert_int_equal(n, 2);
	assert_int_equal(mtd_write_sizes(&g, bad1, 2, ws, &n, &why), -EINVAL);
	assert_int_equal(mtd_write_sizes(&g, bad2, 1, ws, &n, &why), -EINVAL);
	assert_int_equal(mtd_write_sizes(&g, bad3, 1, ws, &n, &why), -EINVAL); /* 16384 % 1536 */
	mtd_geometry_release(&g);
	/* a RAM device's page is a byte: from 512 B */
	assert_int_equal(mtd_geometry_read(4, &g, &why), 0);
	assert_int_equal(mtd_write_sizes(&g, NULL, 0, ws, &n, &why), 0);
	assert_int_equal(n, 5);
	assert_int_equal(ws[0], 512);
	assert_int_equal(ws[3], 32768);
	assert_int_equal(ws[4], 131072);
	mtd_geometry_release(&g);
	strbuf_release(&why);
}

static void test_boot_names(void **state)
{
	static const struct {
		const char *name;
		bool boot;
	} t[] = {
	    {"u-boot", true},
	    {"U-Boot-env", true},
	    {"uboot", true},
	    {"spl", true},
	    {"SPL", true},
	    {"u-boot-spl", true},
	    {"env", true},
	    {"boot env", true},
	    {"bootloader", true},
	    {"barebox", true},
	    {"nand.spl", true},
	    {"boot", true},
	    /* issue 28.11: each of these passed before */
	    {"tf-a", true},
	    {"TF-A", true},
	    {"boot0", true},
	    {"boot1", true},
	    {"fsbl", true},
	    {"idbloader", true},
	    {"idblock", true},
	    {"bl1", true},
	    {"bl31", true},
	    {"at91bootstrap", true},
	    {"loader1", true},
	    {"rcw", true},
	    {"optee", true},
	    /* what vendors' device trees and layouts call them (safety.c) */
	    {"NAND.SPL.backup1", true},
	    {"NAND.u-boot-spl-os", true},
	    {"ospi.tiboot3", true},
	    {"ospi.tispl", true},
	    {"ospi.sysfw", true},
	    {"QSPI.SPL", true},
	    {"MLO", true},
	    {"bootloader env", true},
	    {"at91bs", true},
	    {"loader2", true},
	    {"trust", true},
	    {"idb.backup", true},
	    {"spl.backup1", true},
	    {"boot0-rescue", true},
	    {"boot-resource", true},
	    {"toc1", true},
	    {"RCW", true},
	    {"rcw-pbi", true},
	    {"failsafe bootloader", true},
	    {"imx-boot", true},
	    {"fsbl1", true},
	    {"fsbla2", true},
	    {"ssbl", true},
	    {"fip", true},
	    {"cfe", true},
	    {"RedBoot", true},
	    {"boot_a", true},
	    /* and what they call the rest */
	    {"rootfs", false},
	    {"rootfs-a", false},
	    {"display", false},
	    {"environ", false},
	    {"data", false},
	    {"userdata", false},
	    {"ubi", false},
	    {"ubi-data", false},
	    {"kernel", false},
	    {"kernel-b", false},
	    {"NAND.kernel", false},
	    {"NAND.file-system", false},
	    {"ospi.rootfs", false},
	    {"ospi.phypattern", false},
	    {"bootfs", false},
	    {"dtb", false},
	    {"misc", false},
	    {"system", false},
	    {"blob", false},
	    {"table", false},
	    {"NAND simulator partition 0", false},
	    {"mtdram test device", false},
	    {"", false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (mtd_name_is_boot(t[i].name) != t[i].boot)
			fail_msg("'%s': expected %s", t[i].name, t[i].boot ? "boot" : "not boot");
	assert_false(mtd_name_is_boot(NULL));
}

/* the rules on the fixture's facts (read through the sysroot, as mtd_may_write does live) */
static void test_write_rules(void **state)
{
	struct mtd_facts f;
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_int_equal(mtd_facts_read(&f, &why), 0);
	assert_int_equal(f.n, 5);
	/* mtd0 holds the u-boot partition mtd1 (nested: CONFIG_MTD_PARTITIONED_MASTER) */
	assert_int_equal(mtd_write_judge(&f, 0, false, NULL, true, &why), -EACCES);
	assert_string_equal(why.buf, "refusing to write mtd0 'NAND simulator partition 0': its "
				     "partition mtd1 'u-boot' is named like a bootloader's (give "
				     "--force-boot 'u-boot' to write it anyway)");
	strbuf_reset(&why);
	assert_int_equal(mtd_write_judge(&f, 0, false, "u-boot", true, &why), 0);
	assert_int_equal(mtd_write_judge(&f, 0, true, NULL, true, &why), -EPERM);
	strbuf_reset(&why);
	/* u-boot itself: refused, unless --force-boot names it exactly */
	assert_int_equal(mtd_write_judge(&f, 1, false, NULL, true, &why), -EACCES);
	assert_non_null(strstr(why.buf, "the name is a bootloader's (give --force-boot 'u-boot'"));
	strbuf_reset(&why);
	assert_int_equal(mtd_write_judge(&f, 1, false, "U-Boot", false, &why), -EACCES);
	assert_non_null(
	    strstr(why.buf, "(run never writes one; usbperf mtd --force-boot 'u-boot' does)"));
	strbuf_reset(&why);
	assert_int_equal(mtd_write_judge(&f, 1, false, "u-boot", true, &why), 0);
	/* mtd2 read-only (and attached to ubi0) */
	assert_int_equal(mtd_write_judge(&f, 2, false, NULL, true, &why), -EPERM);
	strbuf_reset(&why);
	f.v[2].flags |= 0x400;
	assert_int_equal(mtd_write_judge(&f, 2, false, NULL, true, &why), -EBUSY);
	assert_non_null(strstr(why.buf, "it is attached to UBI (ubi0)"));
	strbuf_reset(&why);
	/* mtd4's mtdblock4 is mounted on /data */
	assert_int_equal(mtd_write_judge(&f, 4, false, NULL, true, &why), -EBUSY);
	assert_string_equal(why.buf,
			    "refusing to write mtd4 'mtdram test device': it is mounted on "
			    "'/data'");
	strbuf_reset(&why);
	assert_int_equal(mtd_write_judge(&f, 9, false, NULL, true, &why), -ENODEV);
	assert_non_null(strstr(why.buf, "no /sys/class/mtd/mtd9"));
	mtd_facts_release(&f);
	strbuf_release(&why);
}

static struct mtd_dev_facts dev(unsigned index, const char *name, const char *dir, uint64_t offset,
				uint64_t size)
{
	return (struct mtd_dev_facts){
	    .index = index,
	    .name = (char *)name,
	    .type = (char *)"ram",
	    .dir = (char *)dir,
	    .size = size,
	    .offset = offset,
	    .erasesize = 131072,
	    .writesize = 1,
	    .oobsize = 0,
	    .flags = 0xc00,
	    .parent = -1,
	    .ubi = -1,
	};
}

/*
 * Without CONFIG_MTD_PARTITIONED_MASTER (Debian's kernels) 'mtdpart add'
 * puts the partition beside its master, not in it: issue 28.1's mtdram with
 * u-boot at 0..256K. The master is refused for its partition's sake, the
 * partition for its name and for a mounted master; a partition elsewhere on
 * the chip, a device of another kind, one in another directory are not
 * the master's.
 */
static void test_write_rules_flat(void **state)
{
	struct mtd_dev_facts v[] = {
	    dev(0, "mtdram test device", "/sys/devices/virtual/mtd/mtd0", 0, 4u << 20),
	    dev(1, "u-boot", "/sys/devices/virtual/mtd/mtd1", 0, 256u << 10),
	    dev(2, "data", "/sys/devices/virtual/mtd/mtd2", 1u << 20, 1u << 20),
	    dev(3, "NAND simulator partition 0", "/sys/devices/virtual/mtd/mtd3", 0, 1u << 20),
	    dev(4, "other chip", "/sys/devices/platform/spi0.0/mtd/mtd4", 0, 4u << 20),
	};
	struct mtd_facts f = {v, ARRAY_SIZE(v)};
	struct strbuf why = STRBUF_INIT;

	(void)state;
	v[3].type = (char *)"nand";
	assert_int_equal(mtd_write_judge(&f, 0, false, NULL, true, &why), -EACCES);
	assert_string_equal(why.buf,
			    "refusing to write mtd0 'mtdram test device': its partition "
			    "mtd1 'u-boot' is named like a bootloader's (give --force-boot "
			    "'u-boot' to write it anyway)");
	strbuf_reset(&why);
	assert_int_equal(mtd_write_judge(&f, 1, false, NULL, true, &why), -EACCES);
	strbuf_reset(&why);
	/* data (1M..2M): its master is mtd0, not u-boot (0..256K); nothing else shares it */
	assert_int_equal(mtd_write_judge(&f, 2, false, NULL, true, &why), 0);
	assert_int_equal(mtd_write_judge(&f, 4, false, NULL, true, &why), 0);
	/* the master mounted: its partition is refused too */
	v[0].mounted_on = (char *)"/mnt";
	assert_int_equal(mtd_write_judge(&f, 2, false, NULL, true, &why), -EBUSY);
	assert_string_equal(why.buf, "refusing to write mtd2 'data': it is a partition of mtd0 "
				     "'mtdram test device', which is mounted on '/mnt'");
	v[0].mounted_on = NULL;
	strbuf_reset(&why);
	/* a read-only partition inside a writable master: writing the master overwrites it */
	v[1].name = (char *)"env-copy";
	v[1].flags = 0x800;
	assert_int_equal(mtd_write_judge(&f, 0, false, NULL, true, &why), -EPERM);
	assert_non_null(
	    strstr(why.buf, "its partition mtd1 'env-copy' is read-only (flags 0x800)"));
	strbuf_reset(&why);
	v[1].flags = 0xc00;
	v[1].ubi = 1;
	assert_int_equal(mtd_write_judge(&f, 0, false, NULL, true, &why), -EBUSY);
	assert_non_null(strstr(why.buf, "its partition mtd1 'env-copy' is attached to UBI (ubi1)"));
	strbuf_reset(&why);
	/* two partitions overlapping: each refused for the other */
	v[1] = dev(1, "scratch", "/sys/devices/virtual/mtd/mtd0/mtd1", 0, 2u << 20);
	v[1].parent = 0;
	v[2] = dev(2, "data", "/sys/devices/virtual/mtd/mtd0/mtd2", 1u << 20, 2u << 20);
	v[2].parent = 0;
	v[2].mounted_on = (char *)"/data";
	assert_int_equal(mtd_write_judge(&f, 1, false, NULL, true, &why), -EBUSY);
	assert_string_equal(why.buf, "refusing to write mtd1 'scratch': it overlaps mtd2 'data', "
				     "which is mounted on '/data'");
	strbuf_release(&why);
}

/* 28.13: under --sysroot the rules still read the live system (this host: no MTD) */
static void test_may_write_live(void **state)
{
	struct mtd_geometry g;
	struct strbuf why = STRBUF_INIT;
	int r;

	(void)state;
	if (access("/sys/class/mtd/mtd4", F_OK) == 0)
		skip(); /* a host with MTD devices: the live answer is its own */
	assert_int_equal(mtd_geometry_read(4, &g, &why), 0);
	/* the recorded tree says mtd4 is a free, writable RAM device */
	r = mtd_may_write(&g, NULL, true, &why);
	assert_int_equal(r, -ENODEV);
	assert_non_null(strstr(why.buf, "also under --sysroot"));
	/* and the recorded tree is still the one the probes read */
	assert_string_equal(sysroot_get(), root);
	mtd_geometry_release(&g);
	strbuf_release(&why);
}

/* a flash in memory: erase sets 0xff, write ANDs (as NAND programs 1 -> 0) */
struct fake {
	uint8_t *mem;
	uint64_t size, erasesize;
	const uint64_t *bad;
	size_t nbad;
	unsigned erases, flip_at; /* flip_at: a byte offset read back wrong (+1), 0 none */
	volatile int *stop;
	unsigned stop_after; /* erases before *stop is set */
};

static bool fake_bad(const struct fake *f, uint64_t off)
{
	size_t i;

	for (i = 0; i < f->nbad; i++)
		if (f->bad[i] == off / f->erasesize)
			return true;
	return false;
}

static int f_isbad(void *ctx, uint64_t off)
{
	return fake_bad(ctx, off);
}

static int f_erase(void *ctx, uint64_t off, uint64_t len)
{
	struct fake *f = ctx;

	if (fake_bad(f, off))
		fail_msg("a bad eraseblock at %llu was erased", (unsigned long long)off);
	memset(f->mem + off, 0xff, len);
	if (++f->erases == f->stop_after && f->stop)
		*f->stop = 2;
	return 0;
}

static ssize_t f_pwrite(void *ctx, const void *buf, size_t len, uint64_t off)
{
	struct fake *f = ctx;
	size_t i;

	if (fake_bad(f, off))
		fail_msg("a bad eraseblock at %llu was written", (unsigned long long)off);
	for (i = 0; i < len; i++)
		f->mem[off + i] &= ((const uint8_t *)buf)[i];
	return (ssize_t)len;
}

static ssize_t f_pread(void *ctx, void *buf, size_t len, uint64_t off)
{
	struct fake *f = ctx;

	memcpy(buf, f->mem + off, len);
	if (f->flip_at && f->flip_at - 1 >= off && f->flip_at - 1 < off + len)
		((uint8_t *)buf)[f->flip_at - 1 - off] ^= 0x10;
	return (ssize_t)len;
}

static void test_passes(void **state)
{
	static const uint64_t bad[] = {1, 6}, ws[] = {512, 2048, 4096};
	struct fake f = {.size = 8 * 4096, .erasesize = 4096, .bad = bad, .nbad = 2};
	struct mtd_io io = {&f, f_isbad, f_erase, f_pwrite, f_pread};
	struct mtd_plan p = {.len = 8 * 4096,
			     .erasesize = 4096,
			     .writesize = 512,
			     .write_sizes = ws,
			     .nwrite_sizes = 3,
			     .verify = true};
	struct mtd_pass ps[5];
	size_t n = 0, i;

	(void)state;
	f.mem = malloc(f.size);
	memset(f.mem, 0, f.size);
	assert_int_equal(mtd_passes_run(&io, &p, ps, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal(ps[0].op, "erase");
	assert_int_equal(ps[0].blocks, 3 * 6); /* three rounds of the six good blocks */
	assert_int_equal(ps[0].bad_skipped, 2);
	for (i = 1; i < 4; i++) {
		assert_string_equal(ps[i].op, "write");
		assert_int_equal(ps[i].io_size, ws[i - 1]);
		assert_int_equal(ps[i].bytes, 6 * 4096);
		assert_int_equal(ps[i].bad_skipped, 2);
	}
	assert_string_equal(ps[4].op, "read");
	assert_true(ps[4].verified);
	assert_int_equal(ps[4].mismatches, 0);
	assert_int_equal(ps[4].blocks, 6);
	/* the bad blocks kept what they had; the others hold a pattern, not 0xff or 0 */
	assert_int_equal(f.mem[1 * 4096], 0);
	assert_true(f.mem[0] != 0xff || f.mem[1] != 0xff);

	/* one flipped bit read back: one page differs */
	f.flip_at = 5 * 4096 + 700 + 1;
	p.nwrite_sizes = 1;
	assert_int_equal(mtd_passes_run(&io, &p, ps, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ps[2].mismatches, 1);
	f.flip_at = 0;

	/* read only: no erase, no write */
	f.erases = 0;
	p.nwrite_sizes = 0;
	p.verify = false;
	assert_int_equal(mtd_passes_run(&io, &p, ps, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(ps[0].op, "read");
	assert_int_equal(ps[0].bytes, 6 * 4096);
	assert_int_equal(ps[0].bad_skipped, 2);
	assert_int_equal(f.erases, 0);
	assert_true(ps[0].mb_s > 0);
	free(f.mem);
}

static void test_stop(void **state)
{
	static const uint64_t ws[] = {512, 4096};
	volatile int stop = 0;
	struct fake f = {.size = 8 * 4096, .erasesize = 4096, .stop = &stop, .stop_after = 3};
	struct mtd_io io = {&f, f_isbad, f_erase, f_pwrite, f_pread};
	struct mtd_plan p = {.len = 8 * 4096,
			     .erasesize = 4096,
			     .writesize = 512,
			     .write_sizes = ws,
			     .nwrite_sizes = 2,
			     .stop = &stop};
	struct mtd_pass ps[4];
	size_t n = 0;

	(void)state;
	f.mem = calloc(1, f.size);
	assert_int_equal(mtd_passes_run(&io, &p, ps, &n), 0);
	/* stopped in the first erase, after the eraseblock in hand */
	assert_int_equal(n, 1);
	assert_true(ps[0].interrupted);
	assert_int_equal(ps[0].blocks, 3);
	assert_int_equal(f.erases, 3);
	free(f.mem);
}

static void test_all_bad(void **state)
{
	static const uint64_t bad[] = {0, 1};
	struct fake f = {.size = 2 * 4096, .erasesize = 4096, .bad = bad, .nbad = 2};
	struct mtd_io io = {&f, f_isbad, f_erase, f_pwrite, f_pread};
	struct mtd_plan p = {.len = 2 * 4096, .erasesize = 4096, .writesize = 512};
	struct mtd_pass ps[2];
	size_t n = 0;

	(void)state;
	f.mem = calloc(1, f.size);
	assert_int_equal(mtd_passes_run(&io, &p, ps, &n), -EIO);
	p.len = 4096 + 1;
	assert_int_equal(mtd_passes_run(&io, &p, ps, &n), -EINVAL);
	free(f.mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_geometry),	     cmocka_unit_test(test_node),
	    cmocka_unit_test(test_region),	     cmocka_unit_test(test_write_sizes),
	    cmocka_unit_test(test_boot_names),	     cmocka_unit_test(test_write_rules),
	    cmocka_unit_test(test_write_rules_flat), cmocka_unit_test(test_may_write_live),
	    cmocka_unit_test(test_passes),	     cmocka_unit_test(test_stop),
	    cmocka_unit_test(test_all_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

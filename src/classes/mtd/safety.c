// SPDX-License-Identifier: MIT
/*
 * May usbperf erase and write an MTD device? The rules (mtd.h) over the
 * facts of every MTD device on the live system: a write is refused when the
 * device, or any device that shares flash with it (a partition of it, the
 * master it is a partition of, a partition overlapping it), is mounted,
 * attached to UBI, read-only (a partition masked read-only inside a writable
 * master) or named like a bootloader's. The facts are read from the real
 * /sys and /proc even under --sysroot: a recorded tree cannot vouch for the
 * node that is written.
 */
#include "classes/mtd/mtd.h"
#include "platform/sys/mounts.h"
#include "util/parse.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The names boards give their bootloader's partitions, lowercase. Checked
 * against (2026-12): Linux and U-Boot device trees and board configs.
 *  - TI: am335x-evm.dts NAND "NAND.SPL", "NAND.SPL.backup1".."3",
 *    "NAND.u-boot-spl-os", "NAND.u-boot", "NAND.u-boot-env"; K3 boards
 *    (k3-am62x-sk-common.dtsi, k3-am69-sk.dts) OSPI "ospi.tiboot3",
 *    "ospi.tispl", "ospi.u-boot", "ospi.env", "ospi.env.backup", "ospi.sysfw";
 *    AM335x's first stage on SPI/MMC is "MLO".
 *  - Microchip (Atmel): at91-sama5d2_xplained.dts, at91-sama5d27_som1_ek.dts
 *    "at91bootstrap", "bootloader", "bootloader env"; Laird's at91-wb50n.dtsi
 *    "at91bs", "u-boot-spl", "u-boot-env-a"/"-b".
 *  - Rockchip: U-Boot's include/configs/rockchip-common.h GPT "loader1",
 *    "loader2", "trust"; rk3066 mtdparts "idb", "idb.backup", "spl",
 *    "spl.backup1"; the RV1106 SDK's SPI NAND layout "env", "idblock", "uboot";
 *    the idbloader.img boards write at 0x8000 of SPI NOR ("idbloader").
 *  - Allwinner: sunxi NAND layouts "boot0", "boot0-rescue", "uboot"; the BSP's
 *    "boot-resource", "env", "boot"; "toc0"/"toc1" (secure boot packages).
 *  - NXP: Layerscape QSPI/NOR "RCW" (reset configuration word, also "rcw"),
 *    "U-Boot", "failsafe bootloader", "fip", "ppa", "pbl"; i.MX "bootloader",
 *    "imx-boot", "fcb" (NAND firmware configuration block).
 *  - ST (STM32MP1): "fsbl1", "fsbl2", "fsbla1" (TF-A), "ssbl" (U-Boot),
 *    "uboot"; Xilinx "fsbl"; Arm Trusted Firmware "bl1", "bl2", "bl31",
 *    "tf-a", "atf", "fip", OP-TEE "optee"; Broadcom "cfe", "nvram"; RedBoot.
 * Two lists: strings that name a bootloader wherever they appear, and words
 * that do so only as a whole word of the name: bounded by the ends or by
 * anything but a letter or digit, and optionally followed by a copy number
 * ("boot0", "fsbl1", "loader2", "bl31"). A word may hold a '-' ("tf-a"): the
 * name is matched whole, never split first.
 */
static const char *const boot_anywhere[] = {
    "u-boot",	     "uboot",	  "u_boot",    "bootloader", "barebox", "preloader", "bootenv",
    "at91bootstrap", "bootstrap", "idbloader", "idblock",    "tiboot",	"tispl",     "redboot",
};
static const char *const boot_words[] = {
    "spl", "tpl",   "env",   "boot",  "loader",	  "bl",	   "fip", "atf",    "tf-a", "optee",
    "tee", "trust", "bios",  "nvram", "bootcode", "idb",   "toc", "rcw",    "pbl",  "ppa",
    "fcb", "fsbl",  "fsbla", "ssbl",  "mlo",	  "sysfw", "cfe", "at91bs", "hss",
};

/* w at s, whole: a boundary before, and after it the end, a copy number, or a boundary */
static bool word_at(const char *name, const char *s, size_t wlen)
{
	const char *after = s + wlen;

	if (s > name && isalnum((unsigned char)s[-1]))
		return false;
	while (isdigit((unsigned char)*after))
		after++;
	return !isalnum((unsigned char)*after);
}

bool mtd_name_is_boot(const char *name)
{
	struct strbuf low = STRBUF_INIT;
	bool found = false;
	size_t i;

	if (!name)
		return false;
	for (const char *p = name; *p; p++)
		strbuf_addch(&low, (char)tolower((unsigned char)*p));
	for (i = 0; i < N(boot_anywhere) && !found; i++)
		found = strstr(low.buf, boot_anywhere[i]) != NULL;
	for (i = 0; i < N(boot_words) && !found; i++) {
		size_t n = strlen(boot_words[i]);

		for (const char *s = low.buf; !found && (s = strstr(s, boot_words[i])); s++)
			found = word_at(low.buf, s, n);
	}
	strbuf_release(&low);
	return found;
}

/* ---- the facts ---- */

void mtd_facts_release(struct mtd_facts *f)
{
	for (size_t i = 0; f && i < f->n; i++)
		free_all(f->v[i].name, f->v[i].type, f->v[i].dir, f->v[i].mounted_on);
	if (f) {
		free(f->v);
		*f = (struct mtd_facts){0};
	}
}

static uint64_t attr_num(const char *dir, const char *attr)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t n = UINT64_MAX;

	strbuf_addf(&p, "%s/%s", dir, attr);
	if (sysroot_read_attr(p.buf, &v) == 0 &&
	    (strncmp(v.buf, "0x", 2) ? parse_u64(v.buf, 0, UINT64_MAX - 1, &n)
				     : parse_hex(v.buf, UINT64_MAX - 1, &n)) < 0)
		n = UINT64_MAX;
	strbuf_release(&p);
	strbuf_release(&v);
	return n;
}

static char *attr_str(const char *dir, const char *attr)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", dir, attr);
	if (sysroot_read_attr(p.buf, &v) < 0)
		strbuf_reset(&v);
	strbuf_release(&p);
	return strbuf_detach(&v);
}

/* "mtdN" exactly: N, else -1 */
static int mtd_index_of(const char *s)
{
	uint64_t n;

	if (strncmp(s, "mtd", 3) || !isdigit((unsigned char)s[3]) ||
	    parse_u64(s + 3, 0, 1u << 20, &n) < 0)
		return -1;
	return (int)n;
}

/* the UBI device each MTD device is attached to */
static void read_ubi(struct mtd_facts *f)
{
	struct name_list l = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t num;

	if (sysroot_list("/sys/class/ubi", &l) < 0)
		return;
	for (size_t i = 0; i < l.n; i++) {
		unsigned u;
		char tail;

		if (sscanf(l.v[i], "ubi%u%c", &u, &tail) != 1)
			continue; /* ubi0_0 is a volume */
		strbuf_reset(&p);
		strbuf_addf(&p, "/sys/class/ubi/%s/mtd_num", l.v[i]);
		if (sysroot_read_attr(p.buf, &v) < 0 || parse_u64(v.buf, 0, 1u << 20, &num) < 0)
			continue;
		for (size_t k = 0; k < f->n; k++)
			if (f->v[k].index == num)
				f->v[k].ubi = (int)u;
	}
	strbuf_release(&p);
	strbuf_release(&v);
	name_list_release(&l);
}

/* a JFFS2/UBIFS on mtdN, or a mounted mtdblockN */
static void read_mounts(struct mtd_facts *f, const struct mount_table *t)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	for (size_t k = 0; k < f->n; k++) {
		struct mtd_dev_facts *d = &f->v[k];

		strbuf_reset(&a);
		strbuf_reset(&b);
		strbuf_reset(&c);
		strbuf_addf(&a, "mtd%u", d->index);
		strbuf_addf(&b, "/dev/mtdblock%u", d->index);
		strbuf_addf(&c, "mtd:%s", d->name);
		for (size_t i = 0; i < t->n && !d->mounted_on; i++) {
			const struct mount_entry *e = &t->e[i];

			if ((e->major == MTDBLOCK_MAJOR && e->minor == d->index) ||
			    (e->source && (!strcmp(e->source, a.buf) || !strcmp(e->source, b.buf) ||
					   !strcmp(e->source, c.buf))))
				d->mounted_on = xstrdup(e->mount_point);
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

static int read_one(const char *entry, struct mtd_dev_facts *d)
{
	struct strbuf link = STRBUF_INIT;
	int r;

	strbuf_addf(&link, "/sys/class/mtd/%s", entry);
	*d =
	    (struct mtd_dev_facts){.index = (unsigned)mtd_index_of(entry), .ubi = -1, .parent = -1};
	r = sysroot_resolve(link.buf, &link);
	if (r == 0) {
		d->dir = strbuf_detach(&link);
		d->name = attr_str(d->dir, "name");
		d->type = attr_str(d->dir, "type");
		d->size = attr_num(d->dir, "size");
		d->erasesize = attr_num(d->dir, "erasesize");
		d->writesize = attr_num(d->dir, "writesize");
		d->oobsize = attr_num(d->dir, "oobsize");
		d->flags = attr_num(d->dir, "flags");
		d->offset = attr_num(d->dir, "offset");
		if (d->offset == UINT64_MAX)
			d->offset = 0; /* a master, or a kernel before 4.1's "offset" */
	}
	strbuf_release(&link);
	return r;
}

/* the parent a device's directory is nested in (CONFIG_MTD_PARTITIONED_MASTER, sub-partitions) */
static void link_parents(struct mtd_facts *f)
{
	for (size_t k = 0; k < f->n; k++) {
		const char *dir = f->v[k].dir, *end = strrchr(dir, '/'), *start;
		int idx;

		if (!end || end == dir)
			continue;
		for (start = end - 1; start > dir && *start != '/'; start--)
			;
		struct strbuf comp = STRBUF_INIT;

		strbuf_add(&comp, start + 1, (size_t)(end - start - 1));
		idx = mtd_index_of(comp.buf);
		strbuf_release(&comp);
		for (size_t j = 0; idx >= 0 && j < f->n; j++)
			if (j != k && f->v[j].index == (unsigned)idx)
				f->v[k].parent = (int)j;
	}
}

int mtd_facts_read(struct mtd_facts *ret, struct strbuf *why)
{
	struct name_list l = NAME_LIST_INIT;
	struct mount_table t = {0};
	struct mtd_facts f = {0};
	int r;

	r = mounts_load(&t);
	if (r < 0) {
		/* not knowing is not a yes */
		strbuf_addf(why, "cannot read /proc/self/mountinfo: %s", strerror(-r));
		return -EBUSY;
	}
	if (sysroot_list("/sys/class/mtd", &l) == 0) {
		for (size_t i = 0; i < l.n; i++) {
			if (mtd_index_of(l.v[i]) < 0)
				continue; /* mtdNro is mtdN again */
			f.v = xgrow(f.v, &f.n, sizeof(*f.v));
			if (read_one(l.v[i], &f.v[f.n - 1]) < 0)
				f.n--;
		}
	}
	name_list_release(&l);
	link_parents(&f);
	read_ubi(&f);
	read_mounts(&f, &t);
	mount_table_release(&t);
	*ret = f;
	return 0;
}

/* ---- the rules ---- */

/* the top of d's nesting, and d's offset in it */
static size_t top_of(const struct mtd_facts *f, size_t d, uint64_t *ret_abs)
{
	uint64_t abs = 0;
	size_t guard = 0;

	while (guard++ <= f->n) {
		abs += f->v[d].offset;
		if (f->v[d].parent < 0)
			break;
		d = (size_t)f->v[d].parent;
	}
	*ret_abs = abs;
	return d;
}

static bool same_flash_kind(const struct mtd_dev_facts *a, const struct mtd_dev_facts *b)
{
	return !strcmp(a->type, b->type) && a->erasesize == b->erasesize &&
	       a->writesize == b->writesize && a->oobsize == b->oobsize;
}

static bool same_parent_dir(const char *a, const char *b)
{
	const char *ea = strrchr(a, '/'), *eb = strrchr(b, '/');

	return ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a));
}

/*
 * Without CONFIG_MTD_PARTITIONED_MASTER a partition added to a registered
 * master (mtdpart add) is not nested in it: it sits beside it, in the
 * directory of the master's parent device. A top m beside a top p, of the
 * same kind of flash, could be p's master when m starts at 0 and p fits in
 * it: sysfs cannot tell, so usbperf assumes it is.
 */
static bool maybe_master(const struct mtd_dev_facts *m, const struct mtd_dev_facts *p)
{
	return m != p && m->offset == 0 && same_parent_dir(m->dir, p->dir) &&
	       same_flash_kind(m, p) && p->offset <= m->size && p->size <= m->size - p->offset;
}

enum relation { REL_NONE, REL_SELF, REL_PARTITION, REL_CONTAINER, REL_OVERLAP };

/* how device d shares flash with the target t */
static enum relation relation(const struct mtd_facts *f, size_t t, size_t d)
{
	uint64_t at, ad;
	size_t tt = top_of(f, t, &at), td = top_of(f, d, &ad);
	const struct mtd_dev_facts *T = &f->v[t], *D = &f->v[d];

	if (t == d)
		return REL_SELF;
	if (tt != td && !maybe_master(&f->v[tt], &f->v[td]) && !maybe_master(&f->v[td], &f->v[tt]))
		return REL_NONE;
	/* in the coordinates of the (possible) master: its own offset is 0 */
	if (ad >= at + T->size || at >= ad + D->size)
		return REL_NONE;
	if (ad >= at && ad + D->size <= at + T->size && (D->size < T->size || td != d))
		return REL_PARTITION;
	if (at >= ad && at + T->size <= ad + D->size)
		return REL_CONTAINER;
	return REL_OVERLAP;
}

/* "it is", "its partition mtd1 'u-boot' is", ... */
static void subject(struct strbuf *sb, enum relation rel, const struct mtd_dev_facts *d)
{
	switch (rel) {
	case REL_PARTITION:
		strbuf_addf(sb, "its partition mtd%u '%s' is", d->index, d->name);
		break;
	case REL_CONTAINER:
		strbuf_addf(sb, "it is a partition of mtd%u '%s', which is", d->index, d->name);
		break;
	case REL_OVERLAP:
		strbuf_addf(sb, "it overlaps mtd%u '%s', which is", d->index, d->name);
		break;
	default:
		strbuf_adds(sb, "it is");
	}
}

/* one device sharing flash with the target: 0, or the refusal */
static int judge_one(const struct mtd_dev_facts *t, const struct mtd_dev_facts *d,
		     enum relation rel, const char *force_boot, bool force_option,
		     struct strbuf *why)
{
	struct strbuf s = STRBUF_INIT;
	int r = 0;

	subject(&s, rel, d);
	if (d->mounted_on) {
		strbuf_addf(why, "refusing to write mtd%u '%s': %s mounted on '%s'", t->index,
			    t->name, s.buf, d->mounted_on);
		r = -EBUSY;
	} else if (d->ubi >= 0) {
		strbuf_addf(why, "refusing to write mtd%u '%s': %s attached to UBI (ubi%d)",
			    t->index, t->name, s.buf, d->ubi);
		r = -EBUSY;
	} else if (rel != REL_SELF && d->flags != UINT64_MAX && !(d->flags & MTD_FLAG_WRITEABLE)) {
		strbuf_addf(why, "refusing to write mtd%u '%s': %s read-only (flags 0x%llx)",
			    t->index, t->name, s.buf, (unsigned long long)d->flags);
		r = -EPERM;
	} else if (mtd_name_is_boot(d->name) && (!force_boot || strcmp(force_boot, d->name))) {
		strbuf_addf(why, "refusing to write mtd%u '%s': ", t->index, t->name);
		if (rel == REL_SELF)
			strbuf_adds(why, "the name is a bootloader's");
		else
			strbuf_addf(why, "%s named like a bootloader's", s.buf);
		if (force_option)
			strbuf_addf(why, " (give --force-boot '%s' to write it anyway)", d->name);
		else
			strbuf_addf(why,
				    " (run never writes one; usbperf mtd --force-boot '%s' does)",
				    d->name);
		r = -EACCES;
	}
	strbuf_release(&s);
	return r;
}

int mtd_write_judge(const struct mtd_facts *f, unsigned index, bool ro_node, const char *force_boot,
		    bool force_option, struct strbuf *why)
{
	const struct mtd_dev_facts *t = NULL;
	size_t ti = 0;
	int r;

	for (size_t i = 0; i < f->n && !t; i++)
		if (f->v[i].index == index)
			t = &f->v[ti = i];
	if (ro_node) {
		strbuf_addf(why, "refusing to write mtd%u: the node given is read-only (mtd%uro)",
			    index, index);
		return -EPERM;
	}
	if (!t) {
		strbuf_addf(why,
			    "refusing to write mtd%u: this system has no /sys/class/mtd/mtd%u (the "
			    "write rules read the live system, also under --sysroot)",
			    index, index);
		return -ENODEV;
	}
	if (t->flags == UINT64_MAX || !(t->flags & MTD_FLAG_WRITEABLE)) {
		strbuf_addf(why, "refusing to write mtd%u '%s': it is read-only (flags 0x%llx)",
			    index, t->name, (unsigned long long)t->flags);
		return -EPERM;
	}
	/* the device itself first, then what shares its flash, in index order */
	r = judge_one(t, t, REL_SELF, force_boot, force_option, why);
	for (size_t i = 0; r == 0 && i < f->n; i++) {
		enum relation rel = i == ti ? REL_NONE : relation(f, ti, i);

		if (rel != REL_NONE)
			r = judge_one(t, &f->v[i], rel, force_boot, force_option, why);
	}
	return r;
}

int mtd_may_write(const struct mtd_geometry *g, const char *force_boot, bool force_option,
		  struct strbuf *why)
{
	struct sysroot_saved saved;
	struct mtd_facts f = {0};
	int r;

	/* the real system, whatever --sysroot says: the node written is the real one */
	sysroot_live_enter(&saved);
	r = mtd_facts_read(&f, why);
	sysroot_live_leave(&saved);
	if (r < 0) {
		struct strbuf w = STRBUF_INIT;

		strbuf_addf(&w, "refusing to write mtd%u: %s", g->index, why->buf);
		strbuf_reset(why);
		strbuf_add(why, w.buf, w.len);
		strbuf_release(&w);
		return r;
	}
	r = mtd_write_judge(&f, g->index, g->ro_node, force_boot, force_option, why);
	mtd_facts_release(&f);
	return r;
}

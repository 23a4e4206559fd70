// SPDX-License-Identifier: MIT
/*
 * MMC hosts and cards from /sys/class/mmc_host (the kernel's mmc/core
 * bus.c, sd.c, mmc.c attributes) and debugfs mmcN/{ios,caps,caps2} and the
 * card's ext_csd. A value that cannot be read is unknown, never an error.
 */
#include "platform/mmc/mmc.h"
#include "platform/sys/attr.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"
#include "util/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#define CLASS "/sys/class/mmc_host"
#define DEBUGFS "/sys/kernel/debug"

/*
 * A debugfs file below dbg ("mmc0/ios"). Read through a private mount, it is
 * also kept (while `snapshot` records) at its usual /sys/kernel/debug path,
 * so the recorded tree replays the same.
 */
static int dbg_read(const char *dbg, const char *rel, struct strbuf *ret)
{
	struct strbuf p = STRBUF_INIT;
	int r;

	strbuf_addf(&p, "%s/%s", dbg, rel);
	r = sysroot_read(p.buf, 4096, ret);
	if (r == 0 && strcmp(dbg, DEBUGFS)) {
		strbuf_reset(&p);
		strbuf_addf(&p, DEBUGFS "/%s", rel);
		sysroot_record_file(p.buf, ret->buf, ret->len);
	}
	strbuf_release(&p);
	return r;
}

/* a hex digit of a sysfs hex attribute ("csd", "scr", "ssr"), -1 if absent */
static int hex_digit(const char *s, size_t i)
{
	if (!s || strlen(s) <= i)
		return -1;
	return hex_value(s[i]);
}

/* "0x01 0x02" (life_time) -> both bytes */
static void life_time(const char *s, int64_t *a, int64_t *b)
{
	uint64_t x, y;
	char one[8], two[8];

	*a = *b = FIELD_INT_UNKNOWN;
	if (!s || sscanf(s, "%7s %7s", one, two) != 2)
		return;
	if (parse_hex(one, 0xff, &x) == 0 && parse_hex(two, 0xff, &y) == 0) {
		*a = (int64_t)x;
		*b = (int64_t)y;
	}
}

static int64_t hex_byte(const char *dir, const char *name)
{
	uint64_t v = attr_get_hex(dir, name);

	return v == U64_UNKNOWN || v > 0xff ? FIELD_INT_UNKNOWN : (int64_t)v;
}

static int card_best_mmc(struct mmc_card *c)
{
	int64_t t = c->ext_card_type;

	if (t & 0xc0)
		return c->strobe ? MMC_TIMING_MMC_HS400ES : MMC_TIMING_MMC_HS400;
	if (t & 0x30)
		return MMC_TIMING_MMC_HS200;
	if (t & 0x0c)
		return MMC_TIMING_MMC_DDR52;
	if (t & 0x03)
		return MMC_TIMING_MMC_HS;
	return MMC_TIMING_LEGACY;
}

/* SD: type by CSD structure and capacity, bus widths and spec level from the SCR */
static void card_sd(struct mmc_card *c, const char *dir)
{
	char *csd = attr_get(dir, "csd"), *scr = attr_get(dir, "scr"), *ssr = attr_get(dir, "ssr");
	int st = hex_digit(csd, 0), spec = hex_digit(scr, 1), widths = hex_digit(scr, 3);
	int spec3 = hex_digit(scr, 4), uhs_grade = hex_digit(ssr, 28);

	st = st < 0 ? -1 : st >> 2;
	if (st == 0)
		c->kind = "SDSC";
	else if (st == 1)
		c->kind =
		    c->capacity != U64_UNKNOWN && c->capacity > (32ull << 30) ? "SDXC" : "SDHC";
	else if (st == 2)
		c->kind = "SDUC";
	else
		c->kind = "SD";
	c->card_width = widths < 0 ? 0 : (widths & 4) ? 4 : 1;
	c->sd_spec3 = spec3 >= 0 && (spec3 & 8);
	if (uhs_grade > 0) {
		c->card_best = MMC_TIMING_UHS_SDR104;
		c->card_best_basis = "SSR UHS speed grade set: a UHS-I card, SDR104 at most";
	} else if (c->sd_spec3) {
		c->card_best = MMC_TIMING_UHS_SDR104;
		c->card_best_basis =
		    "SCR sd_spec3: an SD 3.0 card, UHS-I (SDR104 at most) if it is "
		    "a UHS card";
	} else if (spec >= 1) {
		c->card_best = MMC_TIMING_SD_HS;
		c->card_best_basis = "SCR sd_spec 1.10 or later: SD high speed";
	} else if (spec == 0) {
		c->card_best = MMC_TIMING_LEGACY;
		c->card_best_basis = "SCR sd_spec 1.0";
	}
	free_all(csd, scr, ssr);
}

static void card_ext_csd(struct mmc_card *c, const char *dbg)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint8_t ext[EXT_CSD_SIZE];

	strbuf_addf(&p, "%s/%s/ext_csd", c->host, c->name);
	if (dbg_read(dbg, p.buf, &v) == 0 && mmc_ext_csd_parse(v.buf, v.len, ext) == 0) {
		c->have_ext_csd = true;
		c->ext_card_type = ext[EXT_CSD_CARD_TYPE];
		c->strobe = ext[EXT_CSD_STROBE_SUPPORT] & 1;
		if (c->life_a == FIELD_INT_UNKNOWN) {
			c->life_a = ext[EXT_CSD_LIFE_A];
			c->life_b = ext[EXT_CSD_LIFE_B];
		}
		if (c->pre_eol == FIELD_INT_UNKNOWN)
			c->pre_eol = ext[EXT_CSD_PRE_EOL_INFO];
	}
	strbuf_release(&p);
	strbuf_release(&v);
}

static uint64_t block_size_bytes(const char *dir)
{
	uint64_t s = attr_get_u64(dir, "size");

	return s == U64_UNKNOWN ? s : s * 512;
}

static void card_block(struct mmc_topology *t, struct mmc_card *c, const char *dir)
{
	struct name_list bl = NAME_LIST_INIT, pl = NAME_LIST_INIT;
	struct strbuf p = STRBUF_INIT;
	size_t i;

	c->capacity = U64_UNKNOWN;
	strbuf_addf(&p, "%s/block", dir);
	if (sysroot_list(p.buf, &bl) < 0)
		goto out;
	for (i = 0; i < bl.n; i++)
		if (!strstr(bl.v[i], "boot") && !strstr(bl.v[i], "rpmb")) {
			c->blockdev = xstrdup(bl.v[i]);
			break;
		}
	if (!c->blockdev)
		goto out;
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/block/%s", dir, c->blockdev);
	c->capacity = block_size_bytes(p.buf);
	if (sysroot_list(p.buf, &pl) < 0)
		goto out;
	for (i = 0; i < pl.n; i++) {
		struct strbuf pp = STRBUF_INIT;
		struct mmc_part *m;
		uint64_t start;

		if (strncmp(pl.v[i], c->blockdev, strlen(c->blockdev)))
			continue;
		strbuf_addf(&pp, "%s/%s", p.buf, pl.v[i]);
		start = attr_get_u64(pp.buf, "start");
		if (start != U64_UNKNOWN) {
			t->part = xgrow(t->part, &t->npart, sizeof(*t->part));
			m = &t->part[t->npart - 1];
			m->name = xstrdup(pl.v[i]);
			m->disk = xstrdup(c->blockdev);
			m->card = xstrdup(c->name);
			m->start = start * 512;
			m->size = block_size_bytes(pp.buf);
			m->erase_size = c->preferred_erase_size;
			m->aligned = m->erase_size == U64_UNKNOWN || !m->erase_size ||
				     m->start % m->erase_size == 0;
		}
		strbuf_release(&pp);
	}
out:
	name_list_release(&bl);
	name_list_release(&pl);
	strbuf_release(&p);
}

static void probe_card(struct mmc_topology *t, const char *host, const char *name, const char *dbg)
{
	struct strbuf d = STRBUF_INIT;
	struct mmc_card *c;
	char *lt;

	t->card = xgrow(t->card, &t->ncard, sizeof(*t->card));
	c = &t->card[t->ncard - 1];
	strbuf_addf(&d, CLASS "/%s/%s", host, name);
	c->host = xstrdup(host);
	c->name = xstrdup(name);
	c->type = attr_get(d.buf, "type");
	c->product = attr_get(d.buf, "name");
	c->manfid = attr_get(d.buf, "manfid");
	c->oemid = attr_get(d.buf, "oemid");
	c->date = attr_get(d.buf, "date");
	c->serial = attr_get(d.buf, "serial");
	c->ocr = attr_get(d.buf, "ocr");
	c->erase_size = attr_get_u64(d.buf, "erase_size");
	c->preferred_erase_size = attr_get_u64(d.buf, "preferred_erase_size");
	c->enhanced_area_offset = attr_get_u64(d.buf, "enhanced_area_offset");
	c->enhanced_area_size = attr_get_u64(d.buf, "enhanced_area_size");
	lt = attr_get(d.buf, "life_time");
	life_time(lt, &c->life_a, &c->life_b);
	free(lt);
	c->pre_eol = hex_byte(d.buf, "pre_eol_info");
	c->ext_card_type = FIELD_INT_UNKNOWN;
	c->card_best = MMC_TIMING_UNKNOWN;
	card_block(t, c, d.buf);
	if (c->type && !strcmp(c->type, "MMC")) {
		/* removable MMC cards are long gone: an MMC-type card today is soldered eMMC */
		c->kind = "eMMC";
		c->card_width = 8;
		if (dbg)
			card_ext_csd(c, dbg);
		if (c->have_ext_csd) {
			c->card_best = card_best_mmc(c);
			c->card_best_basis = "ext_csd card type";
		}
	} else if (c->type && (!strcmp(c->type, "SD") || !strcmp(c->type, "SDcombo"))) {
		card_sd(c, d.buf);
	} else if (c->type && !strcmp(c->type, "SDIO")) {
		c->kind = "SDIO";
	}
	c->card_best_name =
	    c->card_best == MMC_TIMING_UNKNOWN ? NULL : mmc_timing_name(c->card_best);
	strbuf_release(&d);
}

/* device-tree limits of the host's node: no-1-8-v, max-frequency, bus-width (big-endian u32) */
static uint64_t dt_u32(const char *host, const char *prop)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t r = U64_UNKNOWN;

	strbuf_addf(&p, CLASS "/%s/device/of_node/%s", host, prop);
	if (sysroot_read(p.buf, 64, &v) == 0 && v.len == 4) {
		const unsigned char *b = (const unsigned char *)v.buf;

		r = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
	}
	strbuf_release(&p);
	strbuf_release(&v);
	return r;
}

/* caps, caps2: "0x%08x\n" */
static uint64_t dbg_hex(const char *dbg, const char *host, const char *name)
{
	struct strbuf p = STRBUF_INIT, v = STRBUF_INIT;
	uint64_t x = U64_UNKNOWN;

	strbuf_addf(&p, "%s/%s", host, name);
	if (dbg_read(dbg, p.buf, &v) == 0) {
		while (v.len && (v.buf[v.len - 1] == '\n' || v.buf[v.len - 1] == ' '))
			v.buf[--v.len] = '\0';
		if (parse_hex(v.buf, UINT32_MAX, &x) < 0)
			x = U64_UNKNOWN;
	}
	strbuf_release(&p);
	strbuf_release(&v);
	return x;
}

static void caps_text(struct mmc_host *h)
{
	static const struct {
		bool two;
		uint32_t bit;
		const char *name;
	} n[] = {
	    {0, MMC_CAPF_4_BIT, "4-bit"},
	    {0, MMC_CAPF_8_BIT, "8-bit"},
	    {0, MMC_CAPF_MMC_HS, "mmc-hs"},
	    {0, MMC_CAPF_SD_HS, "sd-hs"},
	    {0, MMC_CAPF_SDR12, "sdr12"},
	    {0, MMC_CAPF_SDR25, "sdr25"},
	    {0, MMC_CAPF_SDR50, "sdr50"},
	    {0, MMC_CAPF_SDR104, "sdr104"},
	    {0, MMC_CAPF_DDR50, "ddr50"},
	    {0, MMC_CAPF_1_8V_DDR | MMC_CAPF_3_3V_DDR, "ddr52"},
	    {1, MMC_CAP2F_HS200_1_8V, "hs200-1.8v"},
	    {1, MMC_CAP2F_HS200_1_2V, "hs200-1.2v"},
	    {1, MMC_CAP2F_HS400_1_8V, "hs400-1.8v"},
	    {1, MMC_CAP2F_HS400_1_2V, "hs400-1.2v"},
	    {1, MMC_CAP2F_HS400_ES, "hs400es"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (h->caps == U64_UNKNOWN)
		return;
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		uint64_t v = n[i].two ? h->caps2 : h->caps;

		if (v != U64_UNKNOWN && (v & n[i].bit)) {
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_adds(&sb, n[i].name);
		}
	}
	h->caps_text = strbuf_detach(&sb);
}

/* the best mode both host and card support, by the host's caps and the card's claim */
static void best_mode(struct mmc_host *h, const struct mmc_card *c)
{
	uint64_t caps = h->caps, caps2 = h->caps2 == U64_UNKNOWN ? 0 : h->caps2;
	int64_t t = c->ext_card_type;
	unsigned hw;
	bool sd = c->kind && !strncmp(c->kind, "SD", 2);

	h->best = MMC_TIMING_UNKNOWN;
	h->best_mb_s = NAN;
	if (caps == U64_UNKNOWN || c->card_best == MMC_TIMING_UNKNOWN)
		return;
	hw = (caps & MMC_CAPF_8_BIT) ? 8 : (caps & MMC_CAPF_4_BIT) ? 4 : 1;
	h->best_width = c->card_width && c->card_width < hw ? c->card_width : hw;
	if (!sd && c->have_ext_csd) {
		bool hs400 = ((t & 0x40) && (caps2 & MMC_CAP2F_HS400_1_8V)) ||
			     ((t & 0x80) && (caps2 & MMC_CAP2F_HS400_1_2V));

		if (hs400 && h->best_width == 8 && c->strobe && (caps2 & MMC_CAP2F_HS400_ES))
			h->best = MMC_TIMING_MMC_HS400ES;
		else if (hs400 && h->best_width == 8)
			h->best = MMC_TIMING_MMC_HS400;
		else if (((t & 0x10) && (caps2 & MMC_CAP2F_HS200_1_8V)) ||
			 ((t & 0x20) && (caps2 & MMC_CAP2F_HS200_1_2V)))
			h->best = MMC_TIMING_MMC_HS200;
		else if (((t & 0x04) && (caps & (MMC_CAPF_1_8V_DDR | MMC_CAPF_3_3V_DDR))) ||
			 ((t & 0x08) && (caps & MMC_CAPF_1_2V_DDR)))
			h->best = MMC_TIMING_MMC_DDR52;
		else if ((t & 0x03) && (caps & MMC_CAPF_MMC_HS))
			h->best = MMC_TIMING_MMC_HS;
		else
			h->best = MMC_TIMING_LEGACY;
	} else if (sd) {
		bool uhs = c->card_best == MMC_TIMING_UHS_SDR104;

		if (uhs && (caps & MMC_CAPF_SDR104))
			h->best = MMC_TIMING_UHS_SDR104;
		else if (uhs && (caps & MMC_CAPF_SDR50))
			h->best = MMC_TIMING_UHS_SDR50;
		else if (uhs && (caps & MMC_CAPF_DDR50))
			h->best = MMC_TIMING_UHS_DDR50;
		else if (c->card_best != MMC_TIMING_LEGACY && (caps & MMC_CAPF_SD_HS))
			h->best = MMC_TIMING_SD_HS;
		else
			h->best = MMC_TIMING_LEGACY;
	} else {
		return;
	}
	h->best_name = mmc_timing_name(h->best);
	h->best_mb_s = mmc_nominal_mb_s(h->best, h->best_width, sd);
}

static void probe_host(struct mmc_topology *t, const char *name, const char *dbg)
{
	struct strbuf d = STRBUF_INIT, p = STRBUF_INIT, v = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	struct mmc_host *h;
	struct mmc_card *c = NULL;
	size_t i;
	bool sd;

	strbuf_addf(&d, CLASS "/%s", name);
	if (sysroot_list(d.buf, &l) == 0)
		for (i = 0; i < l.n; i++)
			if (!strncmp(l.v[i], name, strlen(name)) && l.v[i][strlen(name)] == ':') {
				probe_card(t, name, l.v[i], dbg);
				c = &t->card[t->ncard - 1];
			}
	t->host = xgrow(t->host, &t->nhost, sizeof(*t->host));
	h = &t->host[t->nhost - 1];
	h->name = xstrdup(name);
	h->card = c ? xstrdup(c->name) : NULL;
	strbuf_addf(&p, "%s/device", d.buf);
	h->driver = attr_link_name(p.buf, "driver");
	h->parent = attr_link_name(d.buf, "device");
	h->caps = h->caps2 = U64_UNKNOWN;
	h->width_bits = h->signal_mv = FIELD_INT_UNKNOWN;
	h->clock_hz = U64_UNKNOWN;
	h->nominal_mb_s = h->actual_mb_s = NAN;
	h->best = MMC_TIMING_UNKNOWN;
	h->best_mb_s = NAN;
	h->timing_name = NULL;
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/device/of_node/no-1-8-v", d.buf);
	h->dt_no_1_8_v = sysroot_exists(p.buf);
	h->dt_max_frequency = dt_u32(name, "max-frequency");
	h->dt_bus_width = dt_u32(name, "bus-width");
	if (dbg) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/ios", name);
		if (dbg_read(dbg, p.buf, &v) == 0 && mmc_ios_parse(v.buf, v.len, &h->ios) == 0)
			h->have_ios = true;
		h->caps = dbg_hex(dbg, name, "caps");
		h->caps2 = dbg_hex(dbg, name, "caps2");
	}
	if (!h->have_ios)
		t->debugfs_missing = true;
	caps_text(h);
	sd = c && c->kind && !strncmp(c->kind, "SD", 2);
	if (h->have_ios && c) {
		const struct mmc_ios *io = &h->ios;
		uint64_t clk =
		    io->actual_clock_hz != U64_UNKNOWN ? io->actual_clock_hz : io->clock_hz;

		h->timing_name = mmc_timing_name(io->timing);
		h->clock_hz = clk;
		h->width_bits = io->width_bits ? (int64_t)io->width_bits : FIELD_INT_UNKNOWN;
		h->signal_mv = io->signal_mv ? (int64_t)io->signal_mv : FIELD_INT_UNKNOWN;
		h->nominal_mb_s = mmc_nominal_mb_s(io->timing, io->width_bits, sd);
		h->actual_mb_s = mmc_clock_mb_s(clk, io->width_bits, io->timing);
		strbuf_reset(&p);
		if (clk != U64_UNKNOWN && io->width_bits)
			strbuf_addf(&p, "%g MHz x %u bits%s / 8 (%s; nominal %g MB/s)", clk / 1e6,
				    io->width_bits, mmc_timing_ddr(io->timing) ? " x 2 (DDR)" : "",
				    h->timing_name, h->nominal_mb_s);
		if (p.len)
			h->ceiling_basis = strbuf_detach(&p);
	}
	if (c)
		best_mode(h, c);
	name_list_release(&l);
	strbuf_release(&d);
	strbuf_release(&p);
	strbuf_release(&v);
}

static bool real_root(void)
{
	return !sysroot_is_snapshot() && !sysroot_get()[0];
}

/* debugfs as this machine has it, or mounted read-only at a private place */
static const char *debugfs_root(struct mmc_topology *t, const char *first_host, char **mnt)
{
	struct strbuf p = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	char tmpl[] = "/tmp/usbperf-debugfs-XXXXXX";
	bool mounted_already;

	*mnt = NULL;
	strbuf_addf(&p, DEBUGFS "/%s", first_host);
	if (sysroot_exists(p.buf) || !real_root()) {
		strbuf_release(&p);
		return DEBUGFS;
	}
	strbuf_release(&p);
	/* a mounted debugfs has entries; an empty directory is its mount point */
	mounted_already = sysroot_list(DEBUGFS, &l) == 0 && l.n > 0;
	name_list_release(&l);
	if (mounted_already || geteuid() != 0 || !mkdtemp(tmpl))
		return NULL;
	if (mount("debugfs", tmpl, "debugfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) <
	    0) {
		rmdir(tmpl);
		return NULL;
	}
	*mnt = xstrdup(tmpl);
	t->debugfs_mounted = xstrdup(tmpl);
	return *mnt;
}

static void debugfs_done(char *mnt)
{
	if (!mnt)
		return;
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	free(mnt);
}

int mmc_probe(struct mmc_topology *ret)
{
	struct mmc_topology t = {0};
	struct name_list l = NAME_LIST_INIT;
	const char *dbg = NULL;
	char *mnt = NULL;
	size_t i;

	if (sysroot_list(CLASS, &l) < 0 || !l.n) {
		name_list_release(&l);
		*ret = t;
		return 0;
	}
	dbg = debugfs_root(&t, l.v[0], &mnt);
	for (i = 0; i < l.n; i++)
		probe_host(&t, l.v[i], dbg);
	debugfs_done(mnt);
	name_list_release(&l);
	*ret = t;
	return 0;
}

void mmc_topology_release(struct mmc_topology *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nhost; i++) {
		struct mmc_host *h = &t->host[i];

		free_all(h->name, h->driver, h->parent, h->card, h->caps_text, h->ceiling_basis);
	}
	for (i = 0; i < t->ncard; i++) {
		struct mmc_card *c = &t->card[i];

		free_all(c->host, c->name, c->type, c->product, c->manfid, c->oemid, c->date,
			 c->serial, c->ocr, c->blockdev);
	}
	for (i = 0; i < t->npart; i++)
		free_all(t->part[i].name, t->part[i].disk, t->part[i].card);
	free_all(t->host, t->card, t->part, t->debugfs_mounted);
	memset(t, 0, sizeof(*t));
}

/* /sys/dev/block/M:m resolved: ".../mmc_host/mmc0/mmc0:0001/block/mmcblk0[/mmcblk0p1]" */
int mmc_attach_for_block(unsigned major, unsigned minor, struct mmc_attach *ret)
{
	struct strbuf p = STRBUF_INIT, canon = STRBUF_INIT;
	struct mmc_topology t;
	const char *s, *card, *colon;
	char host[32];
	size_t i, n;
	int r = -ENODEV;

	strbuf_addf(&p, "/sys/dev/block/%u:%u", major, minor);
	if (sysroot_resolve(p.buf, &canon) < 0)
		goto out;
	s = strstr(canon.buf, "/mmc_host/");
	if (!s)
		goto out;
	card = strchr(s + strlen("/mmc_host/"), '/');
	if (!card || !strstr(card, "/block/"))
		goto out;
	card++;
	colon = strchr(card, ':');
	n = colon ? (size_t)(colon - card) : 0;
	if (!n || n >= sizeof(host))
		goto out;
	memcpy(host, card, n);
	host[n] = '\0';
	mmc_probe(&t);
	for (i = 0; i < t.nhost; i++) {
		const struct mmc_host *h = &t.host[i];
		size_t j;

		if (strcmp(h->name, host) || !h->card)
			continue;
		memset(ret, 0, sizeof(*ret));
		ret->host = xstrdup(h->name);
		ret->card = xstrdup(h->card);
		for (j = 0; j < t.ncard; j++)
			if (!strcmp(t.card[j].name, h->card)) {
				ret->product = xstrdup(t.card[j].product);
				ret->blockdev = xstrdup(t.card[j].blockdev);
				ret->kind = t.card[j].kind;
			}
		ret->timing_name = h->timing_name;
		ret->nominal_mb_s = h->nominal_mb_s;
		ret->ceiling_mb_s = isnan(h->actual_mb_s) ? h->nominal_mb_s : h->actual_mb_s;
		ret->ceiling_basis = xstrdup(h->ceiling_basis);
		ret->debugfs_mounted = xstrdup(t.debugfs_mounted);
		ret->debugfs_missing = !h->have_ios;
		r = 0;
	}
	mmc_topology_release(&t);
out:
	strbuf_release(&p);
	strbuf_release(&canon);
	return r;
}

void mmc_attach_release(struct mmc_attach *a)
{
	if (!a)
		return;
	free_all(a->host, a->card, a->product, a->blockdev, a->ceiling_basis, a->debugfs_mounted);
	memset(a, 0, sizeof(*a));
	a->ceiling_mb_s = a->nominal_mb_s = NAN;
}

// SPDX-License-Identifier: MIT
/*
 * mmc: the ios parser, the ceiling arithmetic, and the facts, ceilings and
 * findings decoded from the fixtures (tests/fixtures/gen/mmc.py): an eMMC in
 * HS200, an SD card in SDR104, SD cards stuck in high speed.
 */
#include "unit.h"
#include "fixture.h"
#include "platform/mmc/mmc.h"
#include "util/snapshot.h"
#include "util/sysroot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(got, want) assert_true(fabs((got) - (want)) < 1e-9)

/* the QEMU sd-card's ios as the lab guest reads it (LAB.md) */
static const char qemu_ios[] = "clock:\t\t25000000 Hz\n"
			       "actual clock:\t26000000 Hz\n"
			       "vdd:\t\t21 (3.3 ~ 3.4 V)\n"
			       "bus mode:\t2 (push-pull)\n"
			       "chip select:\t0 (don't care)\n"
			       "power mode:\t2 (on)\n"
			       "bus width:\t2 (4 bits)\n"
			       "timing spec:\t2 (sd high-speed)\n"
			       "signal voltage:\t0 (3.30 V)\n"
			       "driver type:\t0 (driver type B)\n";

static void test_ios_parse(void **state)
{
	struct mmc_ios io;

	(void)state;
	assert_int_equal(mmc_ios_parse(qemu_ios, strlen(qemu_ios), &io), 0);
	assert_int_equal(io.clock_hz, 25000000);
	assert_int_equal(io.actual_clock_hz, 26000000);
	assert_int_equal(io.width_bits, 4);
	assert_int_equal(io.timing, MMC_TIMING_SD_HS);
	assert_int_equal(io.signal_mv, 3300);
	assert_string_equal(mmc_timing_name(io.timing), "sd-hs");
	NEAR(mmc_clock_mb_s(io.actual_clock_hz, io.width_bits, io.timing), 13.0);
}

static void test_ios_variants(void **state)
{
	static const char hs400es[] = "clock:\t\t200000000 Hz\nbus width:\t3 (8 bits)\n"
				      "timing spec:\t10 (mmc HS400 enhanced strobe)\n"
				      "signal voltage:\t1 (1.80 V)\n";
	static const char no_actual[] = "clock:\t\t52000000 Hz\nbus width:\t3 (8 bits)\n"
					"timing spec:\t8 (mmc DDR52)\n";
	struct mmc_ios io;

	(void)state;
	assert_int_equal(mmc_ios_parse(hs400es, strlen(hs400es), &io), 0);
	assert_int_equal(io.timing, MMC_TIMING_MMC_HS400ES);
	assert_int_equal(io.width_bits, 8);
	assert_int_equal(io.signal_mv, 1800);
	assert_true(io.actual_clock_hz == U64_UNKNOWN);
	NEAR(mmc_clock_mb_s(io.clock_hz, io.width_bits, io.timing), 400.0);
	assert_int_equal(mmc_ios_parse(no_actual, strlen(no_actual), &io), 0);
	NEAR(mmc_clock_mb_s(io.clock_hz, io.width_bits, io.timing), 104.0);
}

static void test_ios_garbage(void **state)
{
	static const char *const bad[] = {
	    "",
	    "\n\n",
	    "hello: world\n",
	    "clock:\t\tHz\n",
	    "clock: -5 Hz\n",
	    "timing spec:\t13 (future)\n",
	    "clock:\t\t99999999999999999999 Hz\n",
	};
	static const char odd_width[] = "bus width:\t1 (2 bits)\ntiming spec:\t0\n";
	static const char nul_inside[] = "timing spec:\t6\0x (sd uhs SDR104)\n";
	struct mmc_ios io;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mmc_ios_parse(bad[i], strlen(bad[i]), &io), -EINVAL);
	/* a width code the kernel never writes (1) stays unknown; a NUL inside is a blank */
	assert_int_equal(mmc_ios_parse(odd_width, sizeof(odd_width) - 1, &io), 0);
	assert_int_equal(io.width_bits, 0);
	assert_int_equal(mmc_ios_parse(nul_inside, sizeof(nul_inside) - 1, &io), 0);
	assert_int_equal(io.timing, MMC_TIMING_UHS_SDR104);
}

/* the nominal ceiling of each mode, MB/s = 10^6 B/s */
static void test_nominal(void **state)
{
	static const struct {
		int timing;
		unsigned width;
		bool sd;
		double mb_s;
	} t[] = {
	    {MMC_TIMING_LEGACY, 4, true, 12.5},	     {MMC_TIMING_LEGACY, 8, false, 26},
	    {MMC_TIMING_SD_HS, 4, true, 25},	     {MMC_TIMING_UHS_SDR12, 4, true, 12.5},
	    {MMC_TIMING_UHS_SDR25, 4, true, 25},     {MMC_TIMING_UHS_SDR50, 4, true, 50},
	    {MMC_TIMING_UHS_SDR104, 4, true, 104},   {MMC_TIMING_UHS_DDR50, 4, true, 50},
	    {MMC_TIMING_MMC_HS, 8, false, 52},	     {MMC_TIMING_MMC_HS, 4, false, 26},
	    {MMC_TIMING_MMC_DDR52, 8, false, 104},   {MMC_TIMING_MMC_HS200, 8, false, 200},
	    {MMC_TIMING_MMC_HS200, 4, false, 100},   {MMC_TIMING_MMC_HS400, 8, false, 400},
	    {MMC_TIMING_MMC_HS400ES, 8, false, 400}, {MMC_TIMING_SD_HS, 1, true, 6.25},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double got = mmc_nominal_mb_s(t[i].timing, t[i].width, t[i].sd);

		if (fabs(got - t[i].mb_s) > 1e-9)
			fail_msg("%s x%u: %g MB/s, expected %g", mmc_timing_name(t[i].timing),
				 t[i].width, got, t[i].mb_s);
	}
	assert_true(isnan(mmc_nominal_mb_s(MMC_TIMING_UNKNOWN, 4, true)));
	assert_true(isnan(mmc_nominal_mb_s(MMC_TIMING_SD_HS, 3, true)));
	assert_true(isnan(mmc_clock_mb_s(U64_UNKNOWN, 4, MMC_TIMING_SD_HS)));
	NEAR(mmc_clock_mb_s(200000000, 4, MMC_TIMING_UHS_SDR104), 100.0);
	NEAR(mmc_clock_mb_s(50000000, 4, MMC_TIMING_UHS_DDR50), 50.0);
}

static void test_ext_csd(void **state)
{
	char hex[2 * EXT_CSD_SIZE + 2];
	uint8_t ext[EXT_CSD_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < 2 * EXT_CSD_SIZE; i++)
		hex[i] = '0';
	hex[2 * EXT_CSD_CARD_TYPE] = '5';
	hex[2 * EXT_CSD_CARD_TYPE + 1] = '7';
	hex[2 * EXT_CSD_SIZE] = '\n';
	hex[2 * EXT_CSD_SIZE + 1] = '\0';
	assert_int_equal(mmc_ext_csd_parse(hex, strlen(hex), ext), 0);
	assert_int_equal(ext[EXT_CSD_CARD_TYPE], 0x57);
	assert_int_equal(mmc_ext_csd_parse(hex, 2 * EXT_CSD_SIZE - 1, ext), -EINVAL);
	hex[7] = 'g';
	assert_int_equal(mmc_ext_csd_parse(hex, strlen(hex), ext), -EINVAL);
}

static bool has_finding(const struct finding_list *fl, const char *id, const char *subject,
			const char *evidence_part)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		if (!strcmp(fl->v[i].id, id) && !strcmp(fl->v[i].subject, subject) &&
		    (!evidence_part || strstr(fl->v[i].evidence, evidence_part)))
			return true;
	return false;
}

static size_t count_mmc_findings(const struct finding_list *fl)
{
	size_t i, n = 0;

	for (i = 0; i < fl->n; i++)
		n += !strncmp(fl->v[i].id, "mmc.", 4);
	return n;
}

static void test_emmc_hs200(void **state)
{
	struct mmc_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	const struct mmc_host *h;
	const struct mmc_card *c;

	(void)state;
	load_fixture("mmc-emmc-hs200");
	assert_int_equal(mmc_probe(&t), 0);
	assert_int_equal(t.nhost, 1);
	assert_int_equal(t.ncard, 1);
	h = &t.host[0];
	c = &t.card[0];
	assert_string_equal(h->driver, "sdhci-arasan");
	assert_string_equal(h->timing_name, "hs200");
	assert_int_equal(h->clock_hz, 200000000);
	assert_int_equal(h->width_bits, 8);
	assert_int_equal(h->signal_mv, 1800);
	NEAR(h->actual_mb_s, 200);
	NEAR(h->nominal_mb_s, 200);
	/* the card lists HS400 (and strobe), the host's caps2 stop at HS200 */
	assert_string_equal(h->best_name, "hs200");
	NEAR(h->best_mb_s, 200);
	assert_string_equal(c->kind, "eMMC");
	assert_string_equal(c->product, "8GTF4R");
	assert_string_equal(c->manfid, "0x000015");
	assert_string_equal(c->date, "06/2019");
	assert_string_equal(c->blockdev, "mmcblk0");
	assert_int_equal(c->preferred_erase_size, 524288);
	assert_int_equal(c->life_a, 9);
	assert_int_equal(c->life_b, 1);
	assert_int_equal(c->pre_eol, 1);
	assert_int_equal(c->ext_card_type, 0x57);
	assert_string_equal(c->card_best_name, "hs400es");
	assert_int_equal(t.npart, 2);
	assert_int_equal(t.part[0].start, 16384ull * 512);
	assert_true(t.part[0].aligned && t.part[1].aligned);
	mmc_findings(&t, &fl);
	assert_true(has_finding(&fl, "mmc.slower_mode", "mmc0:0001", "host's caps stop at hs200"));
	assert_true(has_finding(&fl, "mmc.worn", "mmc0:0001", "type A 0x09"));
	assert_int_equal(count_mmc_findings(&fl), 2);
	finding_list_release(&fl);
	mmc_topology_release(&t);
	sysroot_set(NULL);
}

static void test_sd_sdr104(void **state)
{
	struct mmc_topology t;
	struct finding_list fl = FINDING_LIST_INIT;
	struct mmc_attach a;
	const struct mmc_host *h;

	(void)state;
	load_fixture("mmc-sd-sdr104");
	assert_int_equal(mmc_probe(&t), 0);
	assert_int_equal(t.nhost, 1);
	h = &t.host[0];
	assert_string_equal(h->timing_name, "sdr104");
	/* 208 MHz asked, 200 MHz made: the actual ceiling is below the nominal one */
	NEAR(h->actual_mb_s, 100);
	NEAR(h->nominal_mb_s, 104);
	assert_string_equal(h->best_name, "sdr104");
	assert_string_equal(t.card[0].kind, "SDXC");
	assert_int_equal(t.card[0].card_width, 4);
	assert_true(t.card[0].sd_spec3);
	mmc_findings(&t, &fl);
	assert_int_equal(count_mmc_findings(&fl), 0);
	/* disk and run: the block device and its partition lead to the card and its ceiling */
	assert_int_equal(mmc_attach_for_block(179, 33, &a), 0);
	assert_string_equal(a.card, "mmc1:aaaa");
	assert_string_equal(a.timing_name, "sdr104");
	assert_string_equal(a.kind, "SDXC");
	NEAR(a.ceiling_mb_s, 100);
	NEAR(a.nominal_mb_s, 104);
	mmc_attach_release(&a);
	assert_int_equal(mmc_attach_for_block(8, 0, &a), -ENODEV);
	finding_list_release(&fl);
	mmc_topology_release(&t);
	sysroot_set(NULL);
}

static void test_sd_stuck(void **state)
{
	struct mmc_topology t;
	struct finding_list fl = FINDING_LIST_INIT;

	(void)state;
	load_fixture("mmc-sd-hs-stuck");
	assert_int_equal(mmc_probe(&t), 0);
	assert_int_equal(t.nhost, 2);
	assert_string_equal(t.host[0].timing_name, "sd-hs");
	NEAR(t.host[0].actual_mb_s, 25);
	assert_string_equal(t.host[0].best_name, "sdr104");
	assert_true(t.host[0].dt_no_1_8_v);
	assert_int_equal(t.host[0].dt_max_frequency, 150000000);
	assert_string_equal(t.card[0].kind, "SDHC");
	/* mmc2: a host without UHS caps, on one data line */
	assert_string_equal(t.host[1].best_name, "sd-hs");
	NEAR(t.host[1].actual_mb_s, 6.25);
	assert_false(t.part[0].aligned);
	assert_true(t.part[1].aligned);
	mmc_findings(&t, &fl);
	assert_true(has_finding(&fl, "mmc.slower_mode", "mmc1:aaaa", "3.3 V"));
	assert_true(has_finding(&fl, "mmc.slower_mode", "mmc1:aaaa", "no-1-8-v"));
	assert_true(has_finding(&fl, "mmc.slower_mode", "mmc1:aaaa", "max-frequency 150 MHz"));
	assert_true(has_finding(&fl, "mmc.slower_mode", "mmc2:1234", "host's caps stop at sd-hs"));
	assert_true(has_finding(&fl, "mmc.narrow_bus", "mmc2:1234", NULL));
	assert_true(has_finding(&fl, "mmc.partition_unaligned", "mmc1:aaaa", "mmcblk1p1/start"));
	assert_int_equal(count_mmc_findings(&fl), 4);
	finding_list_release(&fl);
	mmc_topology_release(&t);
	sysroot_set(NULL);
}

/* no mmc_host class: an empty topology, no findings */
static void test_none(void **state)
{
	struct mmc_topology t;

	(void)state;
	load_fixture("pc-usb");
	assert_int_equal(mmc_probe(&t), 0);
	assert_int_equal(t.nhost, 0);
	assert_false(t.debugfs_missing);
	mmc_topology_release(&t);
	sysroot_set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ios_parse),	cmocka_unit_test(test_ios_variants),
	    cmocka_unit_test(test_ios_garbage), cmocka_unit_test(test_nominal),
	    cmocka_unit_test(test_ext_csd),	cmocka_unit_test(test_emmc_hs200),
	    cmocka_unit_test(test_sd_sdr104),	cmocka_unit_test(test_sd_stuck),
	    cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

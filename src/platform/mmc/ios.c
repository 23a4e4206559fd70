// SPDX-License-Identifier: MIT
/*
 * The text of debugfs mmcN/ios (the kernel's mmc_ios_show: "name:\tvalue
 * (words)" lines), the hex of ext_csd, and the arithmetic of bus ceilings.
 */
#include "platform/mmc/mmc.h"
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const struct {
	int timing;
	const char *name;
} timing_names[] = {
    {MMC_TIMING_LEGACY, "legacy"},
    {MMC_TIMING_MMC_HS, "mmc-hs"},
    {MMC_TIMING_SD_HS, "sd-hs"},
    {MMC_TIMING_UHS_SDR12, "sdr12"},
    {MMC_TIMING_UHS_SDR25, "sdr25"},
    {MMC_TIMING_UHS_SDR50, "sdr50"},
    {MMC_TIMING_UHS_SDR104, "sdr104"},
    {MMC_TIMING_UHS_DDR50, "ddr50"},
    {MMC_TIMING_MMC_DDR52, "ddr52"},
    {MMC_TIMING_MMC_HS200, "hs200"},
    {MMC_TIMING_MMC_HS400, "hs400"},
    {MMC_TIMING_SD_EXP, "sd-express"},
    {MMC_TIMING_SD_EXP_1_2V, "sd-express-1.2v"},
    {MMC_TIMING_MMC_HS400ES, "hs400es"},
};

const char *mmc_timing_name(int timing)
{
	size_t i;

	for (i = 0; i < sizeof(timing_names) / sizeof(timing_names[0]); i++)
		if (timing_names[i].timing == timing)
			return timing_names[i].name;
	return "unknown";
}

bool mmc_timing_ddr(int timing)
{
	return timing == MMC_TIMING_UHS_DDR50 || timing == MMC_TIMING_MMC_DDR52 ||
	       timing == MMC_TIMING_MMC_HS400 || timing == MMC_TIMING_MMC_HS400ES;
}

double mmc_nominal_mb_s(int timing, unsigned width_bits, bool sd)
{
	double mhz;

	if (width_bits != 1 && width_bits != 4 && width_bits != 8)
		return NAN;
	switch (timing) {
	case MMC_TIMING_LEGACY:
		mhz = sd ? 25 : 26;
		break;
	case MMC_TIMING_UHS_SDR12:
		mhz = 25;
		break;
	case MMC_TIMING_SD_HS:
	case MMC_TIMING_UHS_SDR25:
	case MMC_TIMING_UHS_DDR50:
		mhz = 50;
		break;
	case MMC_TIMING_MMC_HS:
	case MMC_TIMING_MMC_DDR52:
		mhz = 52;
		break;
	case MMC_TIMING_UHS_SDR50:
		mhz = 100;
		break;
	case MMC_TIMING_UHS_SDR104:
		mhz = 208;
		break;
	case MMC_TIMING_MMC_HS200:
	case MMC_TIMING_MMC_HS400:
	case MMC_TIMING_MMC_HS400ES:
		mhz = 200;
		break;
	default:
		return NAN;
	}
	return mhz * width_bits * (mmc_timing_ddr(timing) ? 2 : 1) / 8;
}

double mmc_clock_mb_s(uint64_t clock_hz, unsigned width_bits, int timing)
{
	if (clock_hz == U64_UNKNOWN || !clock_hz || !width_bits || timing == MMC_TIMING_UNKNOWN)
		return NAN;
	return (double)clock_hz * width_bits * (mmc_timing_ddr(timing) ? 2 : 1) / 8 / 1e6;
}

/* the leading decimal of s (after blanks), up to the next blank or '(' */
static int lead_u64(const char *s, uint64_t max, uint64_t *ret)
{
	char num[24];
	size_t n;

	s += strspn(s, " \t");
	n = strspn(s, "0123456789");
	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	return parse_u64(num, 0, max, ret);
}

/* the words in parentheses after the number: "(sd high-speed)" */
static bool paren_has(const char *s, const char *word)
{
	const char *open = strchr(s, '('), *close;

	if (!open)
		return false;
	close = strchr(open, ')');
	if (!close)
		return false;
	return memmem(open, (size_t)(close - open), word, strlen(word)) != NULL;
}

static void parse_line(const char *line, struct mmc_ios *ios, bool *seen)
{
	const char *colon = strchr(line, ':');
	size_t key_len;
	const char *v;
	uint64_t x;

	if (!colon)
		return;
	key_len = (size_t)(colon - line);
	v = colon + 1;
#define KEY(k) (key_len == sizeof(k) - 1 && !memcmp(line, k, key_len))
	if (KEY("clock")) {
		if (lead_u64(v, 100000000000ull, &x) == 0) {
			ios->clock_hz = x;
			*seen = true;
		}
	} else if (KEY("actual clock")) {
		if (lead_u64(v, 100000000000ull, &x) == 0) {
			ios->actual_clock_hz = x;
			*seen = true;
		}
	} else if (KEY("bus width")) {
		/* "2 (4 bits)": the kernel's code, 0 1 bit, 2 4 bits, 3 8 bits */
		if (lead_u64(v, 3, &x) == 0 && x != 1)
			ios->width_bits = 1u << x;
	} else if (KEY("timing spec")) {
		if (lead_u64(v, 12, &x) == 0) {
			ios->timing = (int)x;
			if (x == MMC_TIMING_MMC_HS400 && paren_has(v, "enhanced strobe"))
				ios->timing = MMC_TIMING_MMC_HS400ES;
			*seen = true;
		}
	} else if (KEY("signal voltage")) {
		/* 0 3.30 V, 1 1.80 V, 2 1.20 V */
		static const unsigned mv[] = {3300, 1800, 1200};

		if (lead_u64(v, 2, &x) == 0)
			ios->signal_mv = mv[x];
	}
#undef KEY
}

int mmc_ios_parse(const char *text, size_t len, struct mmc_ios *ret)
{
	struct mmc_ios ios = {U64_UNKNOWN, U64_UNKNOWN, 0, MMC_TIMING_UNKNOWN, 0};
	bool seen = false;
	size_t i = 0;

	while (i < len) {
		char line[128];
		size_t n = 0;

		while (i < len && text[i] != '\n') {
			if (n < sizeof(line) - 1)
				line[n++] = text[i] ? text[i] : ' ';
			i++;
		}
		i++;
		line[n] = '\0';
		parse_line(line, &ios, &seen);
	}
	if (!seen)
		return -EINVAL;
	*ret = ios;
	return 0;
}

int mmc_ext_csd_parse(const char *text, size_t len, uint8_t ret[EXT_CSD_SIZE])
{
	uint8_t b[EXT_CSD_SIZE];
	size_t i;

	if (len < 2 * EXT_CSD_SIZE)
		return -EINVAL;
	for (i = 0; i < EXT_CSD_SIZE; i++) {
		int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	/* only a line end may follow */
	for (i = 2 * EXT_CSD_SIZE; i < len; i++)
		if (text[i] != '\n' && text[i] != '\r')
			return -EINVAL;
	memcpy(ret, b, EXT_CSD_SIZE);
	return 0;
}

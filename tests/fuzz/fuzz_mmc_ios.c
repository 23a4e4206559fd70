// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: mmc_ios_parse on arbitrary debugfs ios text (not
 * NUL-terminated: the parser takes a length) and mmc_ext_csd_parse on the
 * same bytes; what parses must be in range and give a finite or NaN ceiling.
 */
#include "platform/mmc/mmc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so a read past the end is caught by ASan */
	char *text = malloc(size ? size : 1);
	uint8_t ext[EXT_CSD_SIZE];
	struct mmc_ios io;

	if (!text)
		return 0;
	memcpy(text, data, size);
	if (mmc_ios_parse(text, size, &io) == 0) {
		double a = mmc_clock_mb_s(io.clock_hz, io.width_bits, io.timing);
		double n = mmc_nominal_mb_s(io.timing, io.width_bits, true);

		if (io.width_bits != 0 && io.width_bits != 1 && io.width_bits != 4 &&
		    io.width_bits != 8)
			abort();
		if (io.signal_mv != 0 && io.signal_mv != 3300 && io.signal_mv != 1800 &&
		    io.signal_mv != 1200)
			abort();
		if (isinf(a) || isinf(n) || a < 0 || n < 0 || !mmc_timing_name(io.timing))
			abort();
	}
	mmc_ext_csd_parse(text, size, ext);
	free(text);
	return 0;
}

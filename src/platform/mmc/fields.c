// SPDX-License-Identifier: MIT
/* The schema of `usbperf list`'s MMC tables: hosts, cards, partitions. */
#include "platform/mmc/mmc.h"

#define T FF_TEXT

static const struct field host_fields[] = {
    FIELD(struct mmc_host, name, "host", "host", NULL, FT_STR, 0, T),
    FIELD(struct mmc_host, driver, "driver", "driver", NULL, FT_STR, 0, T),
    FIELD(struct mmc_host, parent, "parent", "parent", NULL, FT_STR, 0, 0),
    FIELD(struct mmc_host, card, "card", "card", NULL, FT_STR, 0, T),
    FIELD(struct mmc_host, timing_name, "timing", "timing", NULL, FT_STR, 0, T),
    FIELD(struct mmc_host, clock_hz, "clock_hz", "clock", "Hz", FT_U64, 0, T),
    FIELD(struct mmc_host, width_bits, "bus_width_bits", "width", "bits", FT_INT, 0, T),
    FIELD(struct mmc_host, signal_mv, "signal_mv", "signal", "mV", FT_INT, 0, T),
    FIELD(struct mmc_host, actual_mb_s, "ceiling_mb_s", "ceiling", "MB/s", FT_DBL, 1, T),
    FIELD(struct mmc_host, nominal_mb_s, "nominal_mb_s", "nominal", "MB/s", FT_DBL, 1, T),
    FIELD(struct mmc_host, ceiling_basis, "ceiling_basis", "basis", NULL, FT_STR, 0, 0),
    FIELD(struct mmc_host, best_name, "best_timing", "best", NULL, FT_STR, 0, T),
    FIELD(struct mmc_host, best_mb_s, "best_mb_s", "best ceil", "MB/s", FT_DBL, 1, T),
    FIELD(struct mmc_host, caps_text, "caps", "caps", NULL, FT_STR, 0, 0),
    FIELD(struct mmc_host, caps, "caps_raw", "caps raw", NULL, FT_U64, 0, 0),
    FIELD(struct mmc_host, caps2, "caps2_raw", "caps2 raw", NULL, FT_U64, 0, 0),
    FIELD(struct mmc_host, dt_no_1_8_v, "dt_no_1_8_v", "no-1-8-v", NULL, FT_BOOL, 0, 0),
    FIELD(struct mmc_host, dt_max_frequency, "dt_max_frequency_hz", "dt max freq", "Hz", FT_U64, 0,
	  0),
};

static const struct field card_fields[] = {
    FIELD(struct mmc_card, name, "card", "card", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, kind, "kind", "kind", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, type, "type", "type", NULL, FT_STR, 0, 0),
    FIELD(struct mmc_card, product, "name", "name", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, manfid, "manfid", "manfid", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, oemid, "oemid", "oemid", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, date, "date", "date", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, serial, "serial", "serial", NULL, FT_STR, 0, 0),
    FIELD(struct mmc_card, blockdev, "block", "block", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, capacity, "size_bytes", "size", NULL, FT_SIZE, 0, T),
    FIELD(struct mmc_card, preferred_erase_size, "preferred_erase_size_bytes", "erase", NULL,
	  FT_SIZE, 0, T),
    FIELD(struct mmc_card, erase_size, "erase_size_bytes", "erase min", NULL, FT_SIZE, 0, 0),
    FIELD(struct mmc_card, enhanced_area_offset, "enhanced_area_offset", "enh offset", NULL, FT_U64,
	  0, 0),
    FIELD(struct mmc_card, enhanced_area_size, "enhanced_area_size", "enh size", NULL, FT_U64, 0,
	  0),
    FIELD(struct mmc_card, life_a, "life_time_a", "life A", NULL, FT_INT, 0, T | FF_OPTIONAL),
    FIELD(struct mmc_card, life_b, "life_time_b", "life B", NULL, FT_INT, 0, T | FF_OPTIONAL),
    FIELD(struct mmc_card, pre_eol, "pre_eol", "pre-EOL", NULL, FT_INT, 0, T | FF_OPTIONAL),
    FIELD(struct mmc_card, ext_card_type, "ext_csd_card_type", "ext card type", NULL, FT_INT, 0, 0),
    FIELD(struct mmc_card, card_width, "card_width_bits", "card width", "bits", FT_U64, 0, 0),
    FIELD(struct mmc_card, card_best_name, "card_best_timing", "card best", NULL, FT_STR, 0, T),
    FIELD(struct mmc_card, card_best_basis, "card_best_basis", "card best basis", NULL, FT_STR, 0,
	  0),
    FIELD(struct mmc_card, ocr, "ocr", "ocr", NULL, FT_STR, 0, 0),
};

static const struct field part_fields[] = {
    FIELD(struct mmc_part, name, "partition", "partition", NULL, FT_STR, 0, T),
    FIELD(struct mmc_part, disk, "disk", "disk", NULL, FT_STR, 0, T),
    FIELD(struct mmc_part, start, "start_bytes", "start", NULL, FT_U64, 0, T),
    FIELD(struct mmc_part, size, "size_bytes", "size", NULL, FT_SIZE, 0, T),
    FIELD(struct mmc_part, erase_size, "erase_size_bytes", "erase", NULL, FT_SIZE, 0, T),
    FIELD(struct mmc_part, aligned, "aligned", "aligned", NULL, FT_BOOL, 0, T),
};

const struct record_desc mmc_host_desc = RECORD_DESC("mmc_host", host_fields);
const struct record_desc mmc_card_desc = RECORD_DESC("mmc_card", card_fields);
const struct record_desc mmc_part_desc = RECORD_DESC("mmc_partition", part_fields);

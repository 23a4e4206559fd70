/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * MMC/SD/eMMC hosts and cards: facts from sysfs (/sys/class/mmc_host), the
 * bus state from debugfs (mmcN/ios, caps, caps2, the card's ext_csd), and
 * the ceiling of the mode in use and of the best mode card and host share.
 * Nothing here prints; every path goes through the sysroot.
 */
#include "model/findings.h"
#include "model/field.h"

#include <stdbool.h>
#include <stdint.h>

/* the kernel's MMC_TIMING_* numbers (include/linux/mmc/host.h), plus HS400ES of ours */
enum mmc_timing {
	MMC_TIMING_UNKNOWN = -1,
	MMC_TIMING_LEGACY = 0,
	MMC_TIMING_MMC_HS = 1,
	MMC_TIMING_SD_HS = 2,
	MMC_TIMING_UHS_SDR12 = 3,
	MMC_TIMING_UHS_SDR25 = 4,
	MMC_TIMING_UHS_SDR50 = 5,
	MMC_TIMING_UHS_SDR104 = 6,
	MMC_TIMING_UHS_DDR50 = 7,
	MMC_TIMING_MMC_DDR52 = 8,
	MMC_TIMING_MMC_HS200 = 9,
	MMC_TIMING_MMC_HS400 = 10,
	MMC_TIMING_SD_EXP = 11,
	MMC_TIMING_SD_EXP_1_2V = 12,
	MMC_TIMING_MMC_HS400ES = 100, /* HS400 with ios "enhanced strobe" */
};

/* host caps bits (debugfs caps, caps2) used here */
#define MMC_CAPF_4_BIT (1u << 0)
#define MMC_CAPF_MMC_HS (1u << 1)
#define MMC_CAPF_SD_HS (1u << 2)
#define MMC_CAPF_8_BIT (1u << 6)
#define MMC_CAPF_3_3V_DDR (1u << 11)
#define MMC_CAPF_1_8V_DDR (1u << 12)
#define MMC_CAPF_1_2V_DDR (1u << 13)
#define MMC_CAPF_SDR12 (1u << 16)
#define MMC_CAPF_SDR25 (1u << 17)
#define MMC_CAPF_SDR50 (1u << 18)
#define MMC_CAPF_SDR104 (1u << 19)
#define MMC_CAPF_DDR50 (1u << 20)
#define MMC_CAP2F_HS200_1_8V (1u << 5)
#define MMC_CAP2F_HS200_1_2V (1u << 6)
#define MMC_CAP2F_HS400_1_8V (1u << 15)
#define MMC_CAP2F_HS400_1_2V (1u << 16)
#define MMC_CAP2F_HS400_ES (1u << 20)

/* EXT_CSD bytes (JESD84-B51) */
#define EXT_CSD_STROBE_SUPPORT 184
#define EXT_CSD_CARD_TYPE 196
#define EXT_CSD_PRE_EOL_INFO 267
#define EXT_CSD_LIFE_A 268
#define EXT_CSD_LIFE_B 269
#define EXT_CSD_SIZE 512

/* What debugfs mmcN/ios says; unknowns are U64_UNKNOWN, 0, MMC_TIMING_UNKNOWN. */
struct mmc_ios {
	uint64_t clock_hz;	  /* "clock:" the requested clock */
	uint64_t actual_clock_hz; /* "actual clock:" the clock the controller made */
	unsigned width_bits;	  /* 1, 4 or 8 */
	int timing;		  /* enum mmc_timing */
	unsigned signal_mv;	  /* 3300, 1800, 1200 */
};

/*
 * Parse the text of an ios file. -EINVAL when it has neither a clock nor a
 * timing line (not an ios file); unknown lines are ignored.
 */
int mmc_ios_parse(const char *text, size_t len, struct mmc_ios *ret);
/* Parse the hex text of ext_csd (1024 hex digits); -EINVAL when short or not hex. */
int mmc_ext_csd_parse(const char *text, size_t len, uint8_t ret[EXT_CSD_SIZE]);

/* "sd-hs", "sdr104", "hs200", ...; "unknown" */
const char *mmc_timing_name(int timing);
bool mmc_timing_ddr(int timing);
/* the bus width a timing needs at most (HS400: 8) or allows (SD: 4) */
/*
 * Nominal ceiling of a mode, MB/s (10^6 B/s): the clock the spec gives the
 * mode times the width times 2 for DDR, over 8 bits: SD HS 25, SDR104 104,
 * HS200 200 (8 bits), HS400 400. sd selects the SD legacy clock (25 MHz)
 * over the MMC one (26 MHz). NaN for an unknown timing or width.
 */
double mmc_nominal_mb_s(int timing, unsigned width_bits, bool sd);
/* From a clock: clock x width x (2 for DDR) / 8 / 10^6; NaN when unknown. */
double mmc_clock_mb_s(uint64_t clock_hz, unsigned width_bits, int timing);

struct mmc_card {
	char *host;	  /* "mmc0" */
	char *name;	  /* "mmc0:0001" */
	char *type;	  /* sysfs type: "MMC", "SD", "SDIO", "SDcombo" */
	const char *kind; /* "eMMC", "SDSC", "SDHC", "SDXC", "SDUC", "SDIO", "MMC" */
	char *product;	  /* name attribute */
	char *manfid, *oemid, *date, *serial, *ocr;
	uint64_t erase_size, preferred_erase_size; /* bytes */
	uint64_t enhanced_area_offset, enhanced_area_size;
	int64_t life_a, life_b, pre_eol; /* eMMC estimates; FIELD_INT_UNKNOWN */
	char *blockdev;			 /* "mmcblk0" */
	uint64_t capacity;		 /* bytes */
	bool have_ext_csd;
	int64_t ext_card_type; /* EXT_CSD byte 196 */
	bool strobe;
	bool sd_spec3;	     /* SD: SCR says physical spec 3.00 or later (UHS-I cards are) */
	uint64_t card_width; /* widest bus the card takes: 8 eMMC, 4 SD, 0 unknown */
	int card_best;	     /* fastest timing the card claims, MMC_TIMING_UNKNOWN */
	const char *card_best_name;
	const char *card_best_basis; /* "ext_csd card type 0x57", "SCR sd_spec3" */
};

struct mmc_host {
	char *name;   /* "mmc0" */
	char *driver; /* "sdhci-pci" */
	char *parent; /* "0000:00:04.0" */
	char *card;   /* the card's name, NULL if none */
	bool have_ios;
	struct mmc_ios ios;
	uint64_t caps, caps2; /* U64_UNKNOWN without debugfs */
	char *caps_text;      /* "4-bit sd-hs sdr104 ..." */
	/* device-tree limits read at device/of_node */
	bool dt_no_1_8_v;
	uint64_t dt_max_frequency, dt_bus_width;
	/* the mode in use */
	const char *timing_name;
	uint64_t clock_hz; /* actual clock, else the requested one */
	int64_t width_bits;
	int64_t signal_mv;
	double nominal_mb_s, actual_mb_s;
	char *ceiling_basis; /* "26 MHz x 4 bits / 8 (sd-hs)" */
	/* the best mode host and card both support */
	int best;
	const char *best_name;
	unsigned best_width;
	double best_mb_s;
};

struct mmc_part {
	char *name, *disk;
	char *card;	      /* "mmc0:0001": findings about the layout are the card's */
	uint64_t start, size; /* bytes */
	uint64_t erase_size;  /* preferred erase size of the card, bytes */
	bool aligned;
};

struct mmc_topology {
	struct mmc_host *host;
	size_t nhost;
	struct mmc_card *card;
	size_t ncard;
	struct mmc_part *part;
	size_t npart;
	/* debugfs: where ios was read, and whether this probe mounted it for the read */
	bool debugfs_missing;  /* hosts exist but no debugfs ios could be read */
	char *debugfs_mounted; /* the private mount point used (and unmounted), NULL if none */
};

/*
 * Probe every host below the sysroot. On the real root, when debugfs is not
 * mounted and we may, it is mounted read-only at a private directory for the
 * reads and unmounted; debugfs_mounted says where, for the command to say.
 * 0 (an empty topology when there is no /sys/class/mmc_host) or -ENOMEM.
 */
int mmc_probe(struct mmc_topology *ret);
void mmc_topology_release(struct mmc_topology *t);
/* findings about the MMC hosts and cards (mmc.* ids) */
void mmc_findings(const struct mmc_topology *t, struct finding_list *out);

/* Is this block device on an MMC card? The card and its host: -ENODEV if not. */
struct mmc_attach {
	char *host, *card, *product, *blockdev;
	const char *kind, *timing_name;
	double ceiling_mb_s; /* actual, else nominal ceiling of the mode in use; NaN unknown */
	double nominal_mb_s;
	char *ceiling_basis;
	char *debugfs_mounted; /* as in mmc_topology */
	bool debugfs_missing;
};
int mmc_attach_for_block(unsigned major, unsigned minor, struct mmc_attach *ret);
void mmc_attach_release(struct mmc_attach *a);

extern const struct record_desc mmc_host_desc, mmc_card_desc, mmc_part_desc;

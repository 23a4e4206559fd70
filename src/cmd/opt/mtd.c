// SPDX-License-Identifier: MIT
/* usbperf mtd's options */
#include "cmd/opt/tables.h"

const struct cmd_opt mtd_options[] = {
	{"size", MTD_O_SIZE, "S",
	 "the region, from offset 0: a multiple of the eraseblock\n"
	     "(default: the whole device up to 64 MiB)",
	 0 OPT_MAN("The region: a multiple of the eraseblock, at most the device (default: the\n"
	     "whole device up to 64 MiB).")},
	{"destructive", MTD_O_DESTRUCTIVE, NULL,
	 "erase and write the region (its contents are lost): for\n"
	     "each write size an erase pass then a write pass, and a\n"
	     "read pass at the end. Refused on a read-only device, a\n"
	     "mounted one (JFFS2, UBIFS, mtdblock), one attached to UBI,\n"
	     "one named like a bootloader's (u-boot, spl, env, boot0,\n"
	     "tf-a, ...), and one sharing flash with a device refused\n"
	     "so or read-only (a master and its partitions); these\n"
	     "facts are the live system's, also under --sysroot",
	 0 OPT_MAN("Erase and write the region: its contents are lost. Refused, in one line and\n"
	     "before any I/O, on a read\\-only device or\n"
	     ".I /dev/mtdNro\n"
	     "node, a device mounted (JFFS2 or UBIFS on mtdN, a mounted mtdblockN), one\n"
	     "attached to UBI (/sys/class/ubi/ubi*/mtd_num), and one whose name is a\n"
	     "bootloader's (u\\-boot, spl, env, boot0, fsbl1, tf\\-a, ospi.tiboot3, ...: the\n"
	     "names TI, Microchip, Rockchip, Allwinner, NXP and ST boards give them). A\n"
	     "device that shares flash with another (a master and its partitions, a\n"
	     "partition and its master, overlapping partitions) is refused when the other\n"
	     "would be, or is read\\-only: writing a master rewrites every partition in it.\n"
	     "These facts are always read from the live system, also under\n"
	     ".BR \\-\\-sysroot .")},
	{"force-boot", MTD_O_FORCE_BOOT, "NAME",
	 "write a bootloader-named device (or one sharing flash with\n"
	     "it) all the same: NAME must be that name, exactly",
	 0 OPT_MAN("Write a device with a bootloader's name, or one sharing flash with it, all\n"
	     "the same:\n"
	     ".I NAME\n"
	     "must be that name, exactly.")},
	{"write-sizes", MTD_O_WRITE_SIZES, "LIST",
	 "bytes per write, each a multiple of the page dividing the\n"
	     "eraseblock (default: the page (at least 512 B), x4, ...,\n"
	     "the eraseblock), e.g. 512,2K,16K",
	 0 OPT_MAN("Bytes per write, each a multiple of the page that divides the eraseblock\n"
	     "(default: the page, at least 512 B, times 4 up to the eraseblock).")},
	{"verify", MTD_O_VERIFY, NULL,
	 "compare what the read pass reads with what was written\n"
	     "(a pattern, not zeros); exit 1 on a mismatch",
	 0 OPT_MAN("Compare what the read pass reads with what the last write pass wrote, page\n"
	     "by page (needs\n"
	     ".BR \\-\\-destructive ).")},
	{"sysroot", MTD_O_SYSROOT, "DIR|FILE",
	 "read the geometry from a recorded tree (the node is\n"
	     "still the real one; the write rules read the live system)",
	 0 OPT_MAN("Read the geometry from a recorded tree; the node is still the real one, and\n"
	     "the write rules read the live system.")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

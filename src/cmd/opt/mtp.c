// SPDX-License-Identifier: MIT
/* usbperf mtp's options */
#include "cmd/opt/tables.h"

const struct cmd_opt mtp_options[] = {
	{"size", MTP_O_SIZE, "LIST",
	 "file sizes (default 1M,16M,256M; 1..4G each)",
	 0 OPT_MAN("File sizes (default 1M,16M,256M; 1..4G each).")},
	{"repeat", MTP_O_REPEAT, "N",
	 "transfers per size each way (default 1; 1..64): mean, stdev",
	 0 OPT_MAN("Transfers per size each way (default 1; 1..64): mean, standard deviation,\n"
	     "minimum and maximum.")},
	{"objects", MTP_O_OBJECTS, "N",
	 "small files sent, listed, deleted (default 200; 0: none)",
	 0 OPT_MAN("Small files sent, listed and deleted (default 200 of 4K; 0: none).")},
	{"object-size", MTP_O_OBJECT_SIZE, "SIZE",
	 "their size (default 4K)",
	 0 OPT_MAN("Small files sent, listed and deleted (default 200 of 4K; 0: none).")},
	{"storage", MTP_O_STORAGE, "ID",
	 "the storage, by ID (0x00010001) or description (default:\n"
	     "the writable one with the most free space)",
	 0 OPT_MAN("The storage by ID (0x00010001) or description; default: the writable one\n"
	     "with the most free space.")},
	{"folder", MTP_O_FOLDER, "NAME",
	 "the folder in the storage's root (default usbperf; created\n"
	     "and removed if it does not exist)",
	 0 OPT_MAN("The folder in the storage's root (default usbperf): created and removed if it\n"
	     "does not exist; in an existing one only what usbperf put there is deleted.")},
	{"buffer-sweep", MTP_O_BUFFER_SWEEP, "LIST",
	 "on a machine that is both sides (dummy_hcd, or a board\n"
	     "cabled to itself): for each size (multiple of 512 B) bring\n"
	     "up usbperf's own MTP gadget (gadget up mtp) with umtprd's\n"
	     "read and write buffers of that size, measure --size, and\n"
	     "take it down again: the rate against the device's buffers",
	 0 OPT_MAN("On a machine that is both sides of the link (dummy_hcd, or a board cabled to\n"
	     "itself): for each size in LIST (multiples of 512 B), bring up usbperf's own\n"
	     "MTP gadget\n"
	     ".RB ( \"gadget up mtp\" ,\n"
	     "named usbperf\\-mtpsweep) with umtprd's read and write buffers of that size,\n"
	     "measure\n"
	     ".B \\-\\-size\n"
	     "on it, and take it down again: one row per buffer size and file size, the\n"
	     "rate against the device's buffers. Nothing of the sweep is left; a gadget the\n"
	     "user put up is left alone. No DEVICE with it.")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

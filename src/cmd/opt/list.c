// SPDX-License-Identifier: MIT
/* usbperf list's options */
#include "cmd/opt/tables.h"

const struct cmd_opt list_options[] = {
	{"sysroot", LIST_O_SYSROOT, "DIR|FILE",
	 "read a recorded tree (a directory, or a file written by\n"
	     "'usbperf snapshot') instead of this machine",
	 0 OPT_MAN("Read a recorded tree (a directory, or a file written by\n"
	     ".BR snapshot )\n"
	     "instead of this machine.")},
	{"table", LIST_O_TABLE, "NAME",
	 "for --format csv: controllers, devices (default),\n"
	     "interfaces, nodes, findings, mmc_hosts, mmc_cards,\n"
	     "mmc_partitions or mtd",
	 0 OPT_MAN("For csv:\n"
	     ".BR controllers \", \" devices \" (default), \" interfaces \", \" nodes \", \" findings \", \"\n"
	     ".BR mmc_hosts \", \" mmc_cards \", \" mmc_partitions \" or \" mtd ."),
	 .values = "controllers devices interfaces nodes findings mmc_hosts mmc_cards mmc_partitions mtd"},
	OPT_ENTRY_FORMAT("text (default: a tree), json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_END,
};

// SPDX-License-Identifier: MIT
/* Every command whose options are a table: mkman puts each in the man page. */
#include "cmd/opt/tables.h"

const struct cmd_opt_table cmd_opt_tables[] = {
	{"disk", disk_options},
	{"limits", limits_options},
	{"list", list_options},
	{"net", net_options},
	{"snapshot", snapshot_options},
	{"sysinfo", sysinfo_options},
	{NULL, NULL},
};

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
	{"show", show_options},
	{"clean", clean_options},
	{"export", export_options},
	{"import", import_options},
	{"baseline", baseline_options},
	{"compare", compare_options},
	{"history", history_options},
	{"check", check_options},
	{"report", report_options},
	{"run", run_options},
	{"mtd", mtd_options},
	{"i2c", i2c_options},
	{"monitor", monitor_options},
	{"hid", hid_options},
	{"mtp", mtp_options},
	{"bulk", bulk_options},
	{"gadget", gadget_options},
	{"video", video_options},
	{"global", global_options},
	{NULL, NULL},
};

// SPDX-License-Identifier: MIT
/* usbperf baseline's options */
#include "cmd/opt/tables.h"

const struct cmd_opt baseline_options[] = {
	{"delete", BASELINE_O_DELETE, "NAME",
	 "remove the baseline NAME (not its run)",
	 0 OPT_MAN("Remove the baseline\n"
	     ".I NAME\n"
	     "(not its run).")},
	OPT_ENTRY_DB,
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_END,
};

// SPDX-License-Identifier: MIT
/* usbperf run's own options (the classes' own are in their tables, class.h) */
#include "cmd/opt/tables.h"

const struct cmd_opt run_options[] = {
	{"quick", RUN_O_QUICK, NULL,
	 "three block sizes each way + random 4K (default; ~30 s a device)",
	 0 OPT_MAN("Three block sizes each way and random 4K (default; about 30 s a device).")},
	{"full", RUN_O_FULL, NULL,
	 "the complete sweep: 4K..4M each way + random 4K",
	 0 OPT_MAN("The complete sweep, 4K to 4M each way, and random 4K.")},
	{"destructive", RUN_O_DESTRUCTIVE, NULL,
	 "allow writes to a block or MTD device named as TARGET",
	 0 OPT_MAN("Allow writes to a block or MTD device named as\n"
	     ".IR TARGET .")},
	{"no-monitor", RUN_O_NO_MONITOR, NULL,
	 "do not watch USB disk, network and camera passes on the\n"
	     "wire (by default each is, when usbmon is there or\n"
	     "loadable and usbperf is root)",
	 0 OPT_MAN("Do not watch USB disk and network passes on the wire. By default each pass of\n"
	     "a USB disk is watched on usbmon (when the interface is there or its module\n"
	     "loads, and usbperf is root) and the record gets the pass's wire MB/s, dominant\n"
	     "URB size, URBs in flight, bus busy share, URB latency p99, USB errors and, for\n"
	     "Bulk-Only, the share of the wire bytes its 31 B CBW and 13 B CSW take. Each\n"
	     "TCP pass of a USB network interface gets its wire MB/s, URB size, USB errors\n"
	     "and the share of the wire bytes that is not payload (overhead_pct;\n"
	     "finding usbmon.net_overhead); each USB camera's pass its wire MB/s, URB size,\n"
	     "isochronous packet errors and USB errors.")},
	{"governor", RUN_O_GOVERNOR, "NAME",
	 "every cpufreq policy on governor NAME (e.g. performance) for\n"
	     "the run, put back after it (also after SIGINT/SIGTERM): A/B\n"
	     "the clock's effect with 'usbperf compare'",
	 0 OPT_MAN("Every cpufreq policy on governor\n"
	     ".I NAME\n"
	     "(e.g. performance; it must be in each policy's scaling_available_governors)\n"
	     "for the run, each put back to what it was after it, also after SIGINT or\n"
	     "SIGTERM: the clock's effect, A/B with\n"
	     ".BR compare .\n"
	     "Refused (exit 2) where nothing scales (a VM) and when not allowed.")},
	{"size", RUN_O_SIZE, "SIZE",
	 "test region per target (default 256M)",
	 0 OPT_MAN("Test region per target (default 256M).")},
	{"time", RUN_O_TIME, "SECONDS",
	 "cap per pass (default 3 quick, 5 full), its repeats together",
	 0 OPT_MAN("Cap per pass (default 3 with \\-\\-quick, 5 with \\-\\-full), its repeats\n"
	     "together unless \\-\\-repeat is given.")},
	{"repeat", RUN_O_REPEAT, "N",
	 "run each disk pass N times, each as long as a whole pass\n"
	     "may be: mean and spread, which 'compare' uses to tell a\n"
	     "change from noise (default: 3 repeats that share its time)",
	 0 OPT_MAN("Run each disk pass\n"
	     ".I N\n"
	     "times, each with the whole \\-\\-time and \\-\\-min\\-time: mean and spread,\n"
	     "which\n"
	     ".B compare\n"
	     "uses to tell a change from noise. Without it a disk pass is 3 shorter repeats\n"
	     "back to back that share the pass's time (fewer when a third of \\-\\-time is\n"
	     "under 0.25 s), so that each figure, its CPU share and p99 as well as its rate,\n"
	     "has a spread from the run itself at no cost in time; each repeat is then a\n"
	     "third as long, which a device whose rate ramps up over seconds (a stick's\n"
	     "write cache) shows as a lower mean.")},
	{"nice", RUN_O_NICE, "N",
	 "the measuring thread's nice value, -20 to 19 (default -10\n"
	     "where permitted, root: its wake-ups go ahead of other work\n"
	     "at nice 0; a note says when it was not permitted)",
	 0 OPT_MAN("The measuring thread's nice value, \\-20 to 19 (default \\-10 where it is\n"
	     "permitted: as root, or with CAP_SYS_NICE or RLIMIT_NICE). Beside other work at\n"
	     "nice 0 (a CI worker's, a farm host's other jobs) a pass that needs its CPU at\n"
	     "every completion, such as 4K at queue depth 1, otherwise waits behind that work\n"
	     "for a third of its time, and its rate is then the scheduler's, not the\n"
	     "device's. Where it was not permitted a note says so. Other work in another\n"
	     "cgroup is weighed by the cgroups' CPU weights, which this does not change.")},
	{"db", OPT_DB, "PATH",
	 OPT_DB_HELP,
	 0 OPT_MAN("The history database (see\n"
	     ".BR FILES ).\n"
	     "A run the history cannot take (locked by another writer beyond 10 s, a full\n"
	     "disk) is not lost: it is kept as an export of one run in\n"
	     ".I PATH.pending/ID.json\n"
	     "(else under\n"
	     ".IR $XDG_STATE_HOME/usbperf/pending ),\n"
	     "named on standard error, for\n"
	     ".BR import ;\n"
	     "the run exits 3.")},
	{"no-save", RUN_O_NO_SAVE, NULL,
	 "do not keep the run in the history",
	 0 OPT_MAN("Do not keep the run in the history.")},
	{"sysroot", RUN_O_SYSROOT, "DIR|FILE",
	 "read sysfs and /proc from a recorded tree (devices are\n"
	     "still the real ones)",
	 0 OPT_MAN("Read sysfs and /proc from a recorded tree (the devices are still the real\n"
	     "ones).")},
	{"format", 'F', "FMT",
	 "text (default), json or csv (the results table)",
	 0 OPT_MAN("The results table as text, json or csv.")},
	OPT_ENTRY_OUTPUT_OF("report"),
	OPT_ENTRY_QUIET,
	OPT_END,
};

// SPDX-License-Identifier: MIT
/* usbperf disk's options */
#include "cmd/opt/tables.h"

const struct cmd_opt disk_options[] = {
	{"bs", DISK_O_BS, "LIST",
	 "sequential block sizes (default 4K,16K,64K,128K,512K,1M)", 0},
	{"rand-bs", DISK_O_RBS, "SIZE",
	 "random block size (default 4K)", 0},
	{"tests", DISK_O_TESTS, "LIST",
	 "seq-read,seq-write,rand-read,rand-write (default all; also\n"
	     "'read', 'write', 'seq', 'rand', 'all')",
	 OPT_LIST OPT_MAN("Any of\n"
	     ".BR seq\\-read \", \" seq\\-write \", \" rand\\-read \", \" rand\\-write ,\n"
	     "or\n"
	     ".BR read \", \" write \", \" seq \", \" rand \", \" all\n"
	     "(default all)."),
	 .values = "seq-read seq-write rand-read rand-write read write seq rand all"},
	{"mode", DISK_O_MODE, "LIST",
	 "direct,buffered (default direct): buffered writes include\n"
	     "fsync, buffered reads follow a page-cache drop",
	 OPT_LIST OPT_MAN(".BR direct \" (default, O_DIRECT), \" buffered\n"
	     "(writes include the fsync, reads follow a page-cache drop), or both."),
	 .values = "direct buffered"},
	{"engine", DISK_O_ENGINE, "NAME",
	 "psync, io_uring or null (default: psync at QD1, else io_uring)",
	 0 OPT_MAN(".BR psync \", \" io_uring \" or \" null\n"
	     "(default: psync at queue depth 1, else io_uring)."),
	 .values = "psync io_uring null"},
	{"qd", DISK_O_QD, "N",
	 "queue depth, 1-1024 (default 1)", 0},
	{"preset", DISK_O_PRESET, "cdm",
	 "the four CrystalDiskMark rows: SEQ1M Q8T1, SEQ1M Q1T1,\n"
	     "RND4K Q32T1, RND4K Q1T1, read and write; as CrystalDiskMark:\n"
	     "1 GiB, best of 5 passes (--size, --repeat override)",
	 0 OPT_MAN("The four CrystalDiskMark rows, read and write: SEQ1M Q8T1, SEQ1M Q1T1,\n"
	     "RND4K Q32T1, RND4K Q1T1, with CrystalDiskMark's defaults: a 1 GiB test\n"
	     "region, each test 5 times, the best reported (\"best of 5 passes, 1 GiB\").\n"
	     "\\-\\-size and \\-\\-repeat override them; a target smaller than 1 GiB is\n"
	     "refused unless \\-\\-size is given."),
	 .values = "cdm"},
	{"size", DISK_O_SIZE, "SIZE",
	 "test file size / device region, and the bytes a pass moves\n"
	     "(default 128M; K M G = 1024-based, KB MB GB = 1000-based)", 0},
	{"time", DISK_O_TIME, "SEC",
	 "time cap of a pass (default 5; 500ms, 2m also accepted)", 0},
	{"min-time", DISK_O_MIN_TIME, "SEC",
	 "minimum time of a pass: the region is gone over again until\n"
	     "it has passed (default 1; 0: a pass moves --size once)",
	 0 OPT_MAN("Minimum time of a pass: the region is gone over again from its start until\n"
	     "it has passed, as fio's time_based does (default 1; 0: a pass moves\n"
	     "\\-\\-size once). Buffered reads drop the region from the page cache at each\n"
	     "new lap. A cap lower than the floor wins.")},
	{"repeat", DISK_O_REPEAT, "N",
	 "run each pass N times: mean, stdev, min, max (default 1)",
	 0 OPT_MAN("Run each pass\n"
	     ".I N\n"
	     "times: mean, stdev, min, max (default 1).")},
	{"verify", DISK_O_VERIFY, NULL,
	 "write a seeded pattern with a checksum per 512 B, check reads",
	 0 OPT_MAN("Write a seeded pattern, with its offset, the seed and a checksum in each 512 B\n"
	     "unit, and check every read; mismatches make the exit status 1.")},
	{"seed", DISK_O_SEED, "N",
	 "pattern seed (default random; printed in the JSON)", 0},
	{"destructive", DISK_O_DESTRUCTIVE, NULL,
	 "allow writes to a block device (refused if mounted/in use)",
	 0 OPT_MAN("Allow writes to a block device (refused when it or any partition of its disk\n"
	     "is mounted, swap, held or open elsewhere, and always on the disk that holds /).")},
	{"keep", DISK_O_KEEP, NULL,
	 "keep the test file (named usbperf-*.tmp) for a later run", 0},
	{"cpu", DISK_O_CPU, "N",
	 "pin usbperf to CPU N (steadier QD1 figures on small SMP boards)",
	 0 OPT_MAN("Pin usbperf to CPU\n"
	     ".I N\n"
	     "(steadier queue-depth-1 figures on small SMP boards).")},
	{"monitor", DISK_O_MONITOR, NULL,
	 "watch each pass on the wire (usbmon, root): wire MB/s, the\n"
	     "dominant URB size, URBs in flight, bus busy %, URB latency,\n"
	     "USB errors, Bulk-Only's CBW/CSW bytes (a USB disk)",
	 0 OPT_MAN("Watch each pass on the wire (usbmon, as root; a USB disk): its row gains the\n"
	     "wire MB/s (every byte the device's URBs moved, 10^6 B/s), the dominant URB\n"
	     "size on the busiest data endpoint, URBs in flight (mean, max), the bus busy\n"
	     "share, URB latency, USB errors and, for Bulk-Only (usb-storage), the commands\n"
	     "and their 44 B of wrappers each. Without usbmon, or off USB, one warning says\n"
	     "why and the passes run unmonitored.")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

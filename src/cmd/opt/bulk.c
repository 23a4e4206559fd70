// SPDX-License-Identifier: MIT
/* usbperf bulk's options */
#include "cmd/opt/tables.h"

const struct cmd_opt bulk_options[] = {
	{"vid", BULK_O_VID, "HEX",
	 "the device by its vendor ID (with --pid)", 0},
	{"pid", BULK_O_PID, "HEX",
	 "the device by its product ID (with --vid)", 0},
	{"interface", BULK_O_IFACE, "N",
	 "the interface (default: the first with the endpoints)", 0},
	{"ep-in", BULK_O_EP_IN, "ADDR",
	 "the IN endpoint address (default: the first, e.g. 0x81)", 0},
	{"ep-out", BULK_O_EP_OUT, "ADDR",
	 "the OUT endpoint address (default: the first, e.g. 0x01)", 0},
	{"time", BULK_O_TIME, "SEC",
	 "per point (default 0.5; 250ms, 2s)",
	 0 OPT_MAN("Per point (default 0.5).")},
	{"sizes", BULK_O_SIZES, "LIST",
	 "transfer sizes (default 4K,64K,1M; 512..16M)", 0},
	{"depth", BULK_O_DEPTH, "LIST",
	 "transfers in flight per direction (default 1,8,32; 1..256)", 0},
	{"dir", BULK_O_DIR, "LIST",
	 "in, out, both, or all (default all)",
	 0 OPT_MAN("in, out, both, or all (default all).")},
	{"iso", BULK_O_ISO, NULL,
	 "isochronous through the alt setting that has iso endpoints\n"
	     "(SourceSink's alt 1): bytes/s and packets with errors",
	 0 OPT_MAN("Isochronous through the alternate setting that has isochronous endpoints\n"
	     "(SourceSink's alt 1): bytes per second and packets with errors, next to the\n"
	     "endpoint's ceiling from its descriptor.")},
	{"monitor", BULK_O_MONITOR, NULL,
	 "watch each point on the wire (usbmon, root): wire MB/s, the\n"
	     "dominant URB size, in flight, bus busy %, URB p99, errors",
	 0 OPT_MAN("Watch each point on the wire (usbmon, as root): its row gains the wire MB/s,\n"
	     "the dominant URB size, URBs in flight (mean), the bus busy share, URB latency\n"
	     "p99 and USB errors (unlinked URBs, cancelled at a point's end, are not errors).")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

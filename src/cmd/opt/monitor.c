// SPDX-License-Identifier: MIT
/* usbperf monitor's options */
#include "cmd/opt/tables.h"

const struct cmd_opt monitor_options[] = {
	{"time", MONITOR_O_TIME, "SEC",
	 "capture for SEC (default: until Ctrl-C / SIGTERM,\n"
	     "which end it normally, with the summary)",
	 0 OPT_MAN("Capture for SEC seconds (0.05..86400; 500ms, 2s).")},
	{"bus", MONITOR_O_BUS, "N",
	 "the bus to watch (default: the devices', else all)",
	 0 OPT_MAN("The bus to watch (default: the devices' bus, else all of them).")},
	{"pcap", MONITOR_O_PCAP, "FILE",
	 "also write the events as pcapng (Linux USB, memory-mapped\n"
	     "headers) for Wireshark or tshark; a new file only",
	 0 OPT_MAN("Also write the events as pcapng with Linux USB memory\\-mapped headers\n"
	     "(LINKTYPE_USB_LINUX_MMAPPED), which Wireshark and tshark open. A new file\n"
	     "only: an existing file, a symlink, a directory or a FIFO is refused before the\n"
	     "capture starts.")},
	{"snaplen", MONITOR_O_SNAPLEN, "BYTES",
	 "at most BYTES of each URB's data into the pcap (the\n"
	     "headers whole; default: what usbmon copied)",
	 0 OPT_MAN("At most BYTES of each URB's data into the pcap (1..1G; the headers and\n"
	     "isochronous descriptors whole, the original length kept); default: what\n"
	     "usbmon copied (up to a fifth of its ring). The figures do not depend on it.")},
	{"read", MONITOR_O_READ, "FILE",
	 "no capture: the figures of a pcapng usbmon capture",
	 0 OPT_MAN("No capture: the figures of a pcapng usbmon capture (usbperf's own or\n"
	     "dumpcap's of a usbmon interface);\n"
	     ".B \\-\\-bus\n"
	     "filters it.")},
	{"format", 'F', "FMT",
	 "text, json or csv (the device rows)",
	 0 OPT_MAN("Text, json (the capture, the devices and the endpoints) or csv (the device\n"
	     "rows).")},
	OPT_ENTRY_OUTPUT,
	{"quiet", 'q', NULL,
	 "no live view", 0},
	OPT_END,
};

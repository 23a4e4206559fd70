// SPDX-License-Identifier: MIT
/* usbperf hid's options */
#include "cmd/opt/tables.h"

const struct cmd_opt hid_options[] = {
	{"in", HID_O_IN, NULL,
	 "read input reports as they come: reports/s, B/s,\n"
	     "inter-arrival p50/p99/max",
	 0 OPT_MAN("Read input reports as they come; the time counts from the first report, and\n"
	     "after it the pass ends when none came for 1 s.")},
	{"out", HID_O_OUT, NULL,
	 "write output reports as fast as they are taken, each\n"
	     "timed; through the interrupt OUT endpoint when the\n"
	     "interface has one, else SET_REPORT on the control pipe",
	 0 OPT_MAN("Write output reports as fast as they are taken, each timed: through the\n"
	     "interrupt OUT endpoint when the interface has one, else SET_REPORT on the\n"
	     "control pipe (the path column says which).")},
	{"latency", HID_O_LATENCY, NULL,
	 "write a report, wait for the device to echo it (a gadget\n"
	     "running --echo): round trip p50/p99/max",
	 0 OPT_MAN("Write a report carrying a sequence number and wait up to 1 s for the device to\n"
	     "echo it (a gadget running \\-\\-echo): the round trip; reports not echoed are\n"
	     "counted as lost.")},
	{"gadget", HID_O_GADGET, "NODE",
	 "an f_hid gadget node, /dev/hidgN",
	 0 OPT_MAN("The device side, on an f_hid gadget node\n"
	     ".IR /dev/hidgN ;\n"
	     "the report length is read from the function's configfs directory.")},
	{"send", HID_O_SEND, NULL,
	 "write input reports as fast as the endpoint takes them",
	 0 OPT_MAN("Write input reports as fast as the endpoint takes them (f_hid holds one at a\n"
	     "time), counted.")},
	{"echo", HID_O_ECHO, NULL,
	 "write back each report received",
	 0 OPT_MAN("Write back each report received.")},
	{"receive", HID_O_RECEIVE, NULL,
	 "read the host's output reports",
	 0 OPT_MAN("Read the host's output reports, counted.")},
	{"time", HID_O_TIME, "SEC",
	 "counted time from the first report (default 5; 500ms)",
	 0 OPT_MAN("Counted time from the first report (default 5).")},
	{"count", HID_O_COUNT, "N",
	 "end after N reports (with --time: whichever comes first)",
	 0 OPT_MAN("End after\n"
	     ".I N\n"
	     "reports (with \\-\\-time: whichever comes first).")},
	{"report-size", HID_O_REPORT_SIZE, "N",
	 "bytes per report, report ID included (default: the\n"
	     "largest report the descriptor declares; the gadget's\n"
	     "report_length)",
	 0 OPT_MAN("Bytes per report, report ID included (default: the largest report the\n"
	     "descriptor declares, or the gadget's report_length).")},
	{"timeout", HID_O_TIMEOUT, "SEC",
	 "end with exit 3 when no first report came (default 5;\n"
	     "30 on the gadget side); after the first, --in and\n"
	     "--receive end when none came for 1 s",
	 0 OPT_MAN("End with exit 3 when no first report came (default 5; 30 on the gadget side).")},
	{"monitor", HID_O_MONITOR, NULL,
	 "host side: watch each pass on the wire (usbmon, root):\n"
	     "URBs (with data, empty), URBs/s, URB size, in flight, bus\n"
	     "busy, URB p99, errors; on --in the reports that reached\n"
	     "the host and were not read (hidraw queues 63)",
	 0 OPT_MAN("Host side: watch each pass on the wire (usbmon, as root): its row gains the\n"
	     "URBs, of them those with data and the empty ones (no byte, no error: a device\n"
	     "that ends each full-packet report with a zero-length packet, as Linux's f_hid\n"
	     "does, makes two completions per report), URBs per second, the dominant URB\n"
	     "size, URBs in flight (mean), the bus busy share, URB latency p99 and USB errors.\n"
	     "On\n"
	     ".BR \\-\\-in ,\n"
	     "the reports that reached the host and were not read\n"
	     ".RB ( unread ):\n"
	     "hidraw queues 63 reports per open node and drops what comes while they wait, so\n"
	     "a reader that falls behind (a busy CPU) loses reports; the finding\n"
	     ".B hid.reports_unread\n"
	     "says how many, and the rate is then the reader's, not the link's.")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

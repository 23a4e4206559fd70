// SPDX-License-Identifier: MIT
/* usbperf limits's options: the speed, then each calculator's own */
#include "cmd/opt/tables.h"

const struct cmd_opt limits_options[] = {
	{"speed", LIMITS_O_SPEED, "SPEED",
	 "low, full, high, super, gen1x2, gen2x1, gen2x2\n"
	     "(also ls, fs, hs, ss, 1.5, 12, 480, 5000, 10000, 20000)",
	 0 OPT_MAN(".BR low \", \" full \", \" high \", \" super \", \" gen1x2 \", \" gen2x1 \", \" gen2x2\n"
	     "(also ls, fs, hs, ss, 1.5, 12, 480, 5000, 10000, 20000)."),
	 .values = "low full high super gen1x2 gen2x1 gen2x2"},
	OPT_TEXT("uvc: video over an isochronous endpoint, as its descriptor says; a 12 B\n"
	     "payload header (2 B + PTS + SCR) is assumed per service interval"),
	{"maxpacket", LIMITS_O_MAXPACKET, "N",
	 "wMaxPacketSize bytes (default: the most the speed allows)",
	 0 OPT_MAN("wMaxPacketSize bytes (default: the most the speed allows).")},
	{"mult", LIMITS_O_MULT, "N",
	 "transactions per microframe (HS) or bursts per interval (SS),\n"
	     "1-3 (default: the most the packet size allows)", 0},
	{"burst", LIMITS_O_BURST, "N",
	 "SuperSpeed bMaxBurst 0-15: N+1 packets per burst\n"
	     "(default 15 with 1024 B packets)",
	 0 OPT_MAN("SuperSpeed bMaxBurst, 0 to 15:\n"
	     ".IR N +1\n"
	     "packets per burst (default 15 with 1024 B packets).")},
	{"interval", LIMITS_O_INTERVAL, "N",
	 "bInterval 1-16: one service interval every 2^(N-1) (micro)frames", 0},
	{"frame-size", LIMITS_O_SIZE, "WxH",
	 "one frame size (default: 640x480 to 3840x2160); the old\n"
	     "spelling --size is still taken, with a note",
	 0 OPT_MAN("One frame size (default: 640x480 to 3840x2160;\n"
	     ".BR \\-\\-size ,\n"
	     "a byte count in the other commands, is still taken, with a note on stderr).")},
	{"size", LIMITS_O_SIZE_OLD, "WxH",
	 "--frame-size's old name", OPT_HIDDEN},
	{"pixel-format", LIMITS_O_PIXEL, "FMT",
	 "yuyv (2 B/px), nv12 (1.5 B/px) or mjpeg (default: all);\n"
	     "also spelt --pixel",
	 0 OPT_MAN(".BR yuyv \" (2 B/px), \" nv12 \" (1.5 B/px) or \" mjpeg\n"
	     "(default: all;\n"
	     ".B \\-\\-pixel\n"
	     "is the same option)."),
	 .values = "yuyv nv12 mjpeg"},
	{"pixel", LIMITS_O_PIXEL, "FMT",
	 "--pixel-format's other spelling", OPT_HIDDEN},
	{"mjpeg-ratio", LIMITS_O_MJPEG_RATIO, "R",
	 "assumed MJPEG size: the YUYV frame / R (default 10)",
	 0 OPT_MAN("Assumed MJPEG size: the YUYV frame divided by\n"
	     ".I R\n"
	     "(default 10).")},
	{"bulk", LIMITS_O_BULK, NULL,
	 "a bulk video endpoint instead (uvcvideo's bulk mode): each\n"
	     "payload of up to --maxpayload bytes carries its header and\n"
	     "ends its transfer; below SuperSpeed its short packet (or a\n"
	     "zero-length one) takes a packet slot of its own",
	 0 OPT_MAN("A bulk video endpoint instead (uvcvideo's bulk mode): each payload of up to\n"
	     ".B \\-\\-maxpayload\n"
	     "bytes carries its 12 B header and ends its transfer; below SuperSpeed its short\n"
	     "packet (or the zero-length packet after a payload of whole packets) takes a\n"
	     "packet slot of its own (13 x 512 B per high-speed microframe, 19 x 64 B per\n"
	     "full-speed frame), from SuperSpeed on each packet's framing counts.\n"
	     "Per size and pixel format: payloads and packets per frame, the highest frame\n"
	     "rate and the wire MB/s at it.")},
	{"maxpayload", LIMITS_O_MAXPAYLOAD, "N",
	 "dwMaxPayloadTransferSize, header included (default 32768:\n"
	     "usbperf's own camera, gadget up uvc-bulk)", 0},
	{"device", LIMITS_O_DEVICE, "DEV",
	 "a camera's own figures instead, from its descriptors:\n"
	     "DEV a USB device (1-1) or its /dev/videoN. Each streaming\n"
	     "interface's alternate settings (wMaxPacketSize decoded,\n"
	     "ceilings), the current one (sysfs bAlternateSetting),\n"
	     "every format and size at its fastest interval with the\n"
	     "bandwidth it needs and the smallest alt setting that\n"
	     "carries it, uvcvideo's parameters. CSV: the alt settings",
	 0 OPT_MAN("A camera's own figures instead of a hand-made endpoint, from its descriptors\n"
	     "(sysfs\n"
	     ".IR descriptors ):\n"
	     ".I DEV\n"
	     "is a USB device (1\\-1) or its /dev/videoN.\n"
	     "Each streaming interface's alternate settings (wMaxPacketSize raw and decoded,\n"
	     "mult, burst, bInterval, bytes per service interval, bus and payload MB/s with\n"
	     "the derivation), the current one (sysfs bAlternateSetting), every format and\n"
	     "frame size at its fastest interval with the bandwidth it needs and the smallest\n"
	     "alternate setting that carries it, uvcvideo's module parameters and debugfs\n"
	     "stream statistics where readable.\n"
	     "CSV: the alternate settings.\n"
	     "Not a camera, or no such device: one line, exit 2.")},
	{"sysroot", LIMITS_O_SYSROOT, "DIR|FILE",
	 "read a recorded tree or snapshot (usbperf snapshot)",
	 0 OPT_MAN("With\n"
	     ".BR \\-\\-device :\n"
	     "read a recorded tree or a snapshot file\n"
	     ".RB ( \"usbperf snapshot\" )\n"
	     "instead of /sys.")},
	OPT_TEXT("hid: reports over an interrupt IN endpoint, one report per interval at most;\n"
	     "a report longer than wMaxPacketSize spans several packets; those past the\n"
	     "interval's share wait for the next interval"),
	{"report-length", LIMITS_O_REPORT_LENGTH, "N",
	 "report bytes, report ID included (default: one full packet)", 0},
	{"interval", LIMITS_O_INTERVAL, "N",
	 "bInterval: ms at low/full speed (1-255), 2^(N-1) x 125 us\n"
	     "at high speed and above (1-16)", OPT_AGAIN},
	{"maxpacket", LIMITS_O_MAXPACKET, "N",
	 "wMaxPacketSize (default: the largest, LS 8, FS 64, HS/SS 1024)", OPT_AGAIN},
	{"mult", LIMITS_O_MULT, "N",
	 "high-bandwidth high speed: 1-3 packets per microframe", OPT_AGAIN},
	{"burst", LIMITS_O_BURST, "N",
	 "SuperSpeed bMaxBurst 0-2: N+1 packets per interval",
	 OPT_AGAIN OPT_MAN("SuperSpeed bMaxBurst, 0 to 2:\n"
	     ".IR N +1\n"
	     "packets per service interval.")},
	OPT_TEXT("ncm: the bitrate the Linux NCM gadget reports to the host, per speed"),
	OPT_TEXT("all:"),
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

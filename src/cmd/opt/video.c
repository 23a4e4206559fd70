// SPDX-License-Identifier: MIT
/* usbperf video's options: a capture's, the device side's, the sweep's (each mode takes its own) */
#include "cmd/opt/tables.h"

const struct cmd_opt video_options[] = {
	{"pixel-format", VIDEO_O_PIXFMT, "FOURCC",
	 "pixel format, e.g. YUYV, MJPG (--format is the output\n"
	     "format here too; --pixel and --pixfmt are the same option)",
	 0 OPT_MAN("Pixel format, e.g. YUYV or MJPG\n"
	     ".RB ( \\-\\-pixel\n"
	     "and\n"
	     ".B \\-\\-pixfmt\n"
	     "are the same option).\n"
	     ".B \\-\\-format\n"
	     "is the output format here as in every command: a pixel format given to it\n"
	     "is refused (exit 2) with a pointer to\n"
	     ".BR \\-\\-pixel\\-format .")},
	{"pixel", VIDEO_O_PIXFMT, "FOURCC",
	 "--pixel-format's other spelling", OPT_HIDDEN},
	{"pixfmt", VIDEO_O_PIXFMT, "FOURCC",
	 "--pixel-format's other spelling", OPT_HIDDEN},
	{"frame-size", VIDEO_O_SIZE, "WxH",
	 "frame size, e.g. 640x480\n"
	     "(its old spelling, --size, is still taken, with a note)",
	 0 OPT_MAN("Frame size, e.g. 640x480\n"
	     ".RB ( \\-\\-size ,\n"
	     "a byte count in the other commands, is still taken here, with a note on\n"
	     "stderr).")},
	{"size", VIDEO_O_SIZE_OLD, "WxH",
	 "--frame-size's old name", OPT_HIDDEN},
	{"fps", VIDEO_O_FPS, "N",
	 "frame rate (default: the mode's highest)\n"
	     "default mode: the largest size of the first format, fastest",
	 0 OPT_MAN("Frame rate (default: the mode's highest); a stepwise range takes any rate in it.")},
	{"all-modes", VIDEO_O_ALL, NULL,
	 "a short pass per mode offered, and a table; the modes\n"
	     "narrowed by --pixel-format, --frame-size, --fps; each 1 s or\n"
	     "10 frame intervals, unless --time or --frames is given",
	 0 OPT_MAN("A short pass for each mode offered (narrowed by \\-\\-pixel\\-format, \\-\\-frame\\-size and\n"
	     "\\-\\-fps; 1 s or 10 frame intervals each, whichever is longer, unless\n"
	     "\\-\\-time or \\-\\-frames) and a table: mode, nominal\n"
	     "and achieved fps, drops, p99 interval, MB/s, and whether the mode misses its\n"
	     "rate (achieved below 99% of nominal, or any drop).")},
	{"list-modes", VIDEO_O_LIST, NULL,
	 "print the modes offered, capture nothing",
	 0 OPT_MAN("Print the modes offered (ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS:\n"
	     "discrete ones, and for stepwise ranges the ends and three sizes between);\n"
	     "capture nothing. At most 256 modes per device are kept; the rest are counted\n"
	     "in a warning.")},
	{"io", VIDEO_O_IO, "METHOD",
	 "mmap (default), userptr or dmabuf (the device's own buffers\n"
	     "exported and imported back)",
	 0 OPT_MAN(".BR mmap \" (default), \" userptr \", or \" dmabuf\n"
	     "(the device's own buffers exported with VIDIOC_EXPBUF and imported back;\n"
	     "refused with the reason when the driver cannot).")},
	{"buffers", VIDEO_O_BUFFERS, "N",
	 "buffers queued, 1-32 (default 4)",
	 0 OPT_MAN("Buffers queued, 1 to 32 (default 4).")},
	{"time", VIDEO_O_TIME, "SEC",
	 "counted time after the warm-up (default 5; 500ms, 2m)",
	 0 OPT_MAN("Counted time after the warm-up (default 5; 500ms and 2m are also accepted).")},
	{"frames", VIDEO_O_FRAMES, "N",
	 "count N good frames instead of a time",
	 0 OPT_MAN("Count\n"
	     ".I N\n"
	     "good frames instead of a time.")},
	{"warmup", VIDEO_O_WARMUP, "N",
	 "buffers dequeued before counting starts (default 3)",
	 0 OPT_MAN("Buffers dequeued before counting starts (default 3).")},
	{"timeout", VIDEO_O_TIMEOUT, "SEC",
	 "end the pass when no frame came for SEC (default 2):\n"
	     "partial results, exit 3",
	 0 OPT_MAN("End the pass when no frame has come for\n"
	     ".I SEC\n"
	     "(default 2): the results so far, flagged, and exit 3.")},
	{"save", VIDEO_O_SAVE, "FILE",
	 "append the raw frames to FILE (created, never replaced;\n"
	     "removed unless the pass completes)",
	 0 OPT_MAN("Append the raw frames to\n"
	     ".IR FILE ,\n"
	     "created (never an existing file or a link), kept only when the pass completes.")},
	{"monitor", VIDEO_O_MONITOR, NULL,
	 "watch a USB camera's device on usbmon (root) during each pass:\n"
	     "wire MB/s, URB size, isochronous packets and their errors,\n"
	     "USB errors",
	 0 OPT_MAN("Watch a USB camera's device on usbmon (root) from STREAMON to STREAMOFF: the\n"
	     "pass gets wire MB/s (every URB's bytes, the payload headers and any padding\n"
	     "with the frames), the dominant URB size, isochronous packets and how many\n"
	     "completed with an error, USB errors and events usbmon lost. A camera not on\n"
	     "USB is measured unwatched, with a warning that says so.\n"
	     ".B run\n"
	     "watches every USB camera's pass the same way by default (see\n"
	     ".BR run ).")},
	OPT_TEXT_MAN("the device side of a camera (--gadget PATH --send):",
		     "The device side of a camera:\n"
	     ".B usbperf video \\-\\-gadget\n"
	     ".I PATH\n"
	     ".BR \\-\\-send .\n"
	     "With\n"
	     ".I PATH\n"
	     "a gadgetfs mount, usbperf is the UVC camera itself (what\n"
	     ".B \"gadget up uvc\\-bulk\"\n"
	     "starts): a UVC 1.1 VideoControl interface (camera terminal, processing unit\n"
	     "with brightness and contrast, output terminal) and a VideoStreaming interface\n"
	     "whose only alternate setting carries a bulk IN endpoint, one format descriptor\n"
	     "per format (YUYV, and MJPG encoded by libjpeg\\-turbo when usbperf is built with\n"
	     "it) and a frame descriptor per size with every rate. It answers the class\n"
	     "requests (GET_CUR, GET_MIN, GET_MAX, GET_DEF, GET_RES, GET_LEN, GET_INFO and\n"
	     "SET_CUR on VS_PROBE_CONTROL, VS_COMMIT_CONTROL, the two controls and the\n"
	     "request error code), and at each commit streams frames paced to the committed\n"
	     "interval, each cut into payloads of dwMaxPayloadTransferSize with a 12 B header\n"
	     "(FID toggled each frame, EOF on its last payload, PTS the frame's capture time\n"
	     "and SCR the payload's, on a 48 MHz clock; the SOF field counts the device's own\n"
	     "milliseconds, gadgetfs gives no bus frame number), a zero-length packet after a\n"
	     "payload of whole packets. A frame whose slot came while an older one was still\n"
	     "going out is dropped and counted late, as a sensor would. uvcvideo stops a bulk\n"
	     "stream by killing its URBs (its CLEAR_FEATURE(HALT) is answered by the UDC):\n"
	     "the stream ends when a write is not taken for\n"
	     ".BR \\-\\-stall .\n"
	     "Why gadgetfs: FunctionFS refuses class-specific descriptors other than HID,\n"
	     "CCID and DFU ones (ffs_do_single_desc), so no FunctionFS function can be a UVC\n"
	     "camera; gadgetfs answers a GET_DESCRIPTOR with at most 256 bytes, so a camera\n"
	     "whose descriptors are larger is refused (fewer formats, sizes or rates).\n"
	     "With\n"
	     ".I PATH\n"
	     "the V4L2 output node of the kernel's f_uvc, usbperf is its frame source. Per\n"
	     "stream (commit to stop): the mode, frames made, sent, dropped late, cut off,\n"
	     "payloads, zero-length packets, data and header bytes, the achieved rate, CPU\n"
	     "(% of one CPU, and per frame)."),
	{"gadget", VIDEO_O_GADGET, "PATH",
	 "PATH a gadgetfs mount: usbperf is the UVC camera itself, with a\n"
	     "bulk video endpoint (what 'gadget up uvc-bulk' starts); or the\n"
	     "V4L2 output node of the kernel's f_uvc: usbperf is its frame\n"
	     "source. Serves until SIGINT/SIGTERM or --time, then prints per\n"
	     "stream the frames made, sent, dropped late, payloads, CPU",
	 0 OPT_MAN("A gadgetfs mount, or an f_uvc V4L2 output node.")},
	{"send", VIDEO_O_SEND, NULL,
	 "serve frames (the only --gadget mode)",
	 0 OPT_MAN("Serve frames until SIGINT, SIGTERM or\n"
	     ".BR \\-\\-time .")},
	{"spec", VIDEO_O_SPEC, "KEYS",
	 "gadgetfs: the camera, as gadget up uvc-bulk's keys\n"
	     "(frames=WxH[+...],fps=N[+...],formats=yuyv[+mjpg],\n"
	     "maxpayload=SIZE,stream_frames=N,stall_ms=N)",
	 0 OPT_MAN("gadgetfs: the camera, as\n"
	     ".BR \"gadget up uvc\\-bulk\" 's\n"
	     "keys.")},
	{"stats", VIDEO_O_STATS, "FILE",
	 "the figures as JSON in FILE, rewritten each second",
	 0 OPT_MAN("The figures as JSON, rewritten each second and when a stream ends.")},
	{"id", VIDEO_O_ID, "VID:PID",
	 "gadgetfs: the device's IDs", 0},
	{"serial", VIDEO_O_SERIAL, "S",
	 "gadgetfs: the device's serial number string", 0},
	{"product", VIDEO_O_PRODUCT, "S",
	 "gadgetfs: the device's product string", 0},
	{"manufacturer", VIDEO_O_MANUF, "S",
	 "gadgetfs: the device's manufacturer string", 0},
	{"max-speed", VIDEO_O_MAXSPEED, "S",
	 "gadgetfs: full or high (default high)",
	 0 OPT_MAN("gadgetfs: full or high (default high).")},
	{"stall", VIDEO_O_STALL, "SEC",
	 "a write the host leaves for SEC ends the stream (uvcvideo stops\n"
	     "a bulk stream by killing its URBs; default 2)",
	 0 OPT_MAN("A write the host leaves for\n"
	     ".I SEC\n"
	     "ends the stream (default 2).")},
	{"time", VIDEO_O_TIME, "SEC",
	 "serve for SEC, then stop as at SIGTERM",
	 OPT_AGAIN OPT_MAN("Serve for\n"
	     ".I SEC\n"
	     "seconds, then stop as at SIGTERM.")},
	OPT_TEXT("a sweep through usbperf's own camera (both sides on this machine):"),
	{"uvc-sweep", VIDEO_O_SWEEP, "SPEC",
	 "the table of frame size x format x rate through usbperf's own\n"
	     "camera on this machine (both sides: dummy_hcd, a board looped\n"
	     "back), SPEC as --spec: a uvc-bulk gadget per frame size, each\n"
	     "mode captured for --time (default 2 s) next to the frame rate\n"
	     "the bulk endpoint carries at the link's speed",
	 0 OPT_MAN("The guide's table: on a machine that is both sides of the link (dummy_hcd, a\n"
	     "board's UDC looped back), usbperf's own camera is brought up with\n"
	     ".B \"gadget up uvc\\-bulk\"\n"
	     "once per frame size of\n"
	     ".I SPEC\n"
	     "(its keys as\n"
	     ".BR \\-\\-spec ),\n"
	     "found through uvcvideo by its serial number, and each format x rate captured\n"
	     "for\n"
	     ".B \\-\\-time\n"
	     "(default 2 s): achieved fps, drops on both sides, CPU on both sides, next to\n"
	     "the frame rate the bulk endpoint carries at the link's speed\n"
	     "(usbperf limits uvc with its bulk option).\n"
	     "A mode beyond it gets the finding uvc.bulk_cannot_fit naming what would fit\n"
	     "(MJPG, a smaller size, maxpayload, the rate, the isochronous f_uvc of a board);\n"
	     "a mode that met its rate beyond it is dummy_hcd's figure, not the bus's\n"
	     "(uvc.above_ceiling); a mode that fits and missed names the CPU or side that\n"
	     "held it back. Each gadget is taken down before the next.")},
	{"time", VIDEO_O_TIME, "SEC",
	 "each mode captured for SEC (default 2)", OPT_AGAIN},
	{"warmup", VIDEO_O_WARMUP, "N",
	 "buffers dequeued before counting starts", OPT_AGAIN},
	{"monitor", VIDEO_O_MONITOR, NULL,
	 "watch each mode's capture on usbmon, as for a capture", OPT_AGAIN},
	OPT_TEXT("all:"),
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};

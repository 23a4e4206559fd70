/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The commands' option tables (opt.h) and the keys getopt returns for their
 * options without a letter. A command's table is cmd/opt/CMD.c; its line in
 * cmd_opt_tables (tables.c) puts it in the man page.
 */
#include "cmd/opt/opt.h"
#include "cmd/opt/shared.h"

enum disk_opt_key {
	DISK_O_BS = OPT_KEY,
	DISK_O_RBS,
	DISK_O_TESTS,
	DISK_O_MODE,
	DISK_O_ENGINE,
	DISK_O_QD,
	DISK_O_PRESET,
	DISK_O_SIZE,
	DISK_O_TIME,
	DISK_O_MIN_TIME,
	DISK_O_REPEAT,
	DISK_O_VERIFY,
	DISK_O_SEED,
	DISK_O_DESTRUCTIVE,
	DISK_O_KEEP,
	DISK_O_CPU,
	DISK_O_MONITOR,
};
enum net_opt_key {
	NET_O_BIND_DEV = OPT_KEY,
	NET_O_TIMEOUT,
	NET_O_BIDIR,
	NET_O_UDP64,
	NET_O_SYSROOT,
	NET_O_MONITOR,
	NET_O_LENGTH_SWEEP,
};
/* limits.c indexes its values by key - LIMITS_O_SPEED: the order is its */
enum limits_opt_key {
	LIMITS_O_SPEED = OPT_KEY,
	LIMITS_O_MAXPACKET,
	LIMITS_O_MULT,
	LIMITS_O_BURST,
	LIMITS_O_INTERVAL,
	LIMITS_O_SIZE,
	LIMITS_O_PIXEL,
	LIMITS_O_MJPEG_RATIO,
	LIMITS_O_REPORT_LENGTH,
	LIMITS_O_DEVICE,
	LIMITS_O_SYSROOT,
	LIMITS_O_BULK,
	LIMITS_O_MAXPAYLOAD,
	LIMITS_O_LAST = LIMITS_O_MAXPAYLOAD,
	LIMITS_O_SIZE_OLD, /* --size: --frame-size's old name */
};
enum list_opt_key { LIST_O_SYSROOT = OPT_KEY, LIST_O_TABLE };
enum snapshot_opt_key { SNAPSHOT_O_FORCE = OPT_KEY, SNAPSHOT_O_SYSROOT };
enum sysinfo_opt_key { SYSINFO_O_SYSROOT = OPT_KEY };

enum baseline_opt_key {
	BASELINE_O_DELETE = OPT_KEY,
};

enum history_opt_key {
	HISTORY_O_DEVICE = OPT_KEY,
	HISTORY_O_SINCE,
	HISTORY_O_UNTIL,
	HISTORY_O_LIMIT,
	HISTORY_O_CHECK,
};

enum check_opt_key {
	CHECK_O_ALL = OPT_KEY,
};

enum report_opt_key {
	REPORT_O_HTML = OPT_KEY,
	REPORT_O_FLEET,
	REPORT_O_SINCE,
	REPORT_O_UNTIL,
};

enum run_opt_key {
	RUN_O_QUICK = OPT_KEY,
	RUN_O_FULL,
	RUN_O_DESTRUCTIVE,
	RUN_O_SIZE,
	RUN_O_TIME,
	RUN_O_NO_SAVE,
	RUN_O_REPEAT,
	RUN_O_GOVERNOR,
	RUN_O_NICE,
	RUN_O_NO_MONITOR,
	RUN_O_SYSROOT,
	RUN_O_CLASS,
};

enum mtd_opt_key {
	MTD_O_SIZE = OPT_KEY,
	MTD_O_DESTRUCTIVE,
	MTD_O_VERIFY,
	MTD_O_WRITE_SIZES,
	MTD_O_FORCE_BOOT,
	MTD_O_SYSROOT,
};

enum i2c_opt_key {
	I2C_O_ADDR = OPT_KEY,
	I2C_O_SIZES,
	I2C_O_CLOCK,
	I2C_O_TIME,
	I2C_O_COUNT,
	I2C_O_OPS,
	I2C_O_REGISTER,
	I2C_O_DESTRUCTIVE,
	I2C_O_FORCE,
	I2C_O_SYSROOT,
};

enum monitor_opt_key {
	MONITOR_O_TIME = OPT_KEY,
	MONITOR_O_BUS,
	MONITOR_O_PCAP,
	MONITOR_O_READ,
	MONITOR_O_SNAPLEN,
};

enum hid_opt_key {
	HID_O_IN = OPT_KEY,
	HID_O_OUT,
	HID_O_LATENCY,
	HID_O_GADGET,
	HID_O_SEND,
	HID_O_ECHO,
	HID_O_RECEIVE,
	HID_O_TIME,
	HID_O_COUNT,
	HID_O_REPORT_SIZE,
	HID_O_TIMEOUT,
	HID_O_MONITOR,
};

enum mtp_opt_key {
	MTP_O_SIZE = OPT_KEY,
	MTP_O_REPEAT,
	MTP_O_OBJECTS,
	MTP_O_OBJECT_SIZE,
	MTP_O_STORAGE,
	MTP_O_FOLDER,
	MTP_O_BUFFER_SWEEP,
};

enum bulk_opt_key {
	BULK_O_VID = OPT_KEY,
	BULK_O_PID,
	BULK_O_IFACE,
	BULK_O_EP_IN,
	BULK_O_EP_OUT,
	BULK_O_TIME,
	BULK_O_SIZES,
	BULK_O_DEPTH,
	BULK_O_DIR,
	BULK_O_ISO,
	BULK_O_MONITOR,
};

enum gadget_opt_key {
	GADGET_O_UDC = OPT_KEY,
	GADGET_O_SPEED,
	GADGET_O_POWER,
	GADGET_O_ID,
	GADGET_O_MANUF,
	GADGET_O_PRODUCT,
	GADGET_O_SERIAL,
	GADGET_O_NAME,
	GADGET_O_FORCE,
	GADGET_O_SYSROOT,
	GADGET_O_DESTRUCTIVE,
};

enum video_opt_key {
	VIDEO_O_PIXFMT = OPT_KEY,
	VIDEO_O_SIZE,
	VIDEO_O_FPS,
	VIDEO_O_ALL,
	VIDEO_O_LIST,
	VIDEO_O_IO,
	VIDEO_O_BUFFERS,
	VIDEO_O_TIME,
	VIDEO_O_FRAMES,
	VIDEO_O_WARMUP,
	VIDEO_O_TIMEOUT,
	VIDEO_O_SAVE,
	VIDEO_O_MONITOR,
	VIDEO_O_SIZE_OLD,
	VIDEO_O_GADGET,
	VIDEO_O_SEND,
	VIDEO_O_SPEC,
	VIDEO_O_STATS,
	VIDEO_O_ID,
	VIDEO_O_SERIAL,
	VIDEO_O_PRODUCT,
	VIDEO_O_MANUF,
	VIDEO_O_STALL,
	VIDEO_O_MAXSPEED,
	VIDEO_O_SWEEP,
};

extern const struct cmd_opt disk_options[];
extern const struct cmd_opt limits_options[];
extern const struct cmd_opt list_options[];
extern const struct cmd_opt net_options[];
extern const struct cmd_opt snapshot_options[];
extern const struct cmd_opt sysinfo_options[];
extern const struct cmd_opt show_options[];
extern const struct cmd_opt clean_options[];
extern const struct cmd_opt export_options[];
extern const struct cmd_opt import_options[];
extern const struct cmd_opt baseline_options[];
extern const struct cmd_opt compare_options[];
extern const struct cmd_opt history_options[];
extern const struct cmd_opt check_options[];
extern const struct cmd_opt report_options[];
extern const struct cmd_opt run_options[];
extern const struct cmd_opt mtd_options[];
extern const struct cmd_opt i2c_options[];
extern const struct cmd_opt monitor_options[];
extern const struct cmd_opt hid_options[];
extern const struct cmd_opt mtp_options[];
extern const struct cmd_opt bulk_options[];
extern const struct cmd_opt gadget_options[];
extern const struct cmd_opt video_options[];
extern const struct cmd_opt global_options[];

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The commands' option tables (opt.h) and the keys getopt returns for their
 * options without a letter. A command's table is cmd/opt/CMD.c; its line in
 * cmd_opt_tables (tables.c) puts it in the man page.
 */
#include "cmd/opt/opt.h"

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

extern const struct cmd_opt disk_options[];
extern const struct cmd_opt limits_options[];
extern const struct cmd_opt list_options[];
extern const struct cmd_opt net_options[];
extern const struct cmd_opt snapshot_options[];
extern const struct cmd_opt sysinfo_options[];

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Device utilisation the way iostat and fio report it: the share of wall
 * time the block device had I/O in flight, from the io_ticks counter of
 * /sys/dev/block/MAJ:MIN/stat (milliseconds busy, the 10th field).
 */
#include <stdint.h>

/* io_ticks (ms) from the text of a block device's stat file; -EINVAL if malformed */
int iostat_parse_io_ticks(const char *text, uint64_t *ret_ms);
/* io_ticks of block device maj:min (below the sysroot); -ENOENT for major 0 (no device) */
int iostat_io_ticks(unsigned maj, unsigned min, uint64_t *ret_ms);
/* the shortest time a utilisation is given for: the kernel counts io_ticks
 * in timer ticks (1 to 10 ms by CONFIG_HZ) and only when it crosses a tick
 * with I/O in flight, so a pass of a few ticks reads anywhere from 0 to 100 % */
#define IOSTAT_UTIL_MIN_S 0.1
/* busy_ms over seconds of wall time, in %, capped at 100 (the counter's tick
 * granularity can overshoot); NaN if seconds is under IOSTAT_UTIL_MIN_S */
double iostat_util_pct(uint64_t busy_ms, double seconds);

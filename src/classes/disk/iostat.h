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
/* busy_ms over seconds of wall time, in %, capped at 100 (the counter's jiffy
 * granularity can overshoot a short pass); NaN if seconds <= 0 */
double iostat_util_pct(uint64_t busy_ms, double seconds);

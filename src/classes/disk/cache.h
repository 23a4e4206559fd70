/* SPDX-License-Identifier: MIT */
#pragma once
/* Page-cache control for buffered passes: what was dropped, and what stayed. */
#include <stdint.h>

enum cache_drop {
	CACHE_DROP_NONE,
	CACHE_DROP_FADVISE, /* this file's clean pages only (not root, or drop_caches refused) */
	CACHE_DROP_SYSTEM,  /* sync + /proc/sys/vm/drop_caches = 3, as the vendor guides do */
};

const char *cache_drop_name(enum cache_drop d);
/* Flush fd's dirty pages, then evict. Returns the method that took effect. */
enum cache_drop cache_drop(int fd);
/* Percent of [0, len) of fd resident in the page cache (mincore); NaN if unknown. */
double cache_resident_pct(int fd, uint64_t len);

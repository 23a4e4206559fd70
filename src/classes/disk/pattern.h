/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What usbperf writes. Plain runs write pseudo-random (incompressible, never
 * all-zero) data, re-stamped per request so no two blocks are identical and a
 * deduplicating controller cannot shortcut the writes.
 *
 * --verify writes a seeded pattern in 512-byte units. Each unit carries a
 * header {magic, absolute offset, seed, checksum of the payload}, and the
 * payload is a function of (seed, offset) alone, so any unit can be checked
 * without knowing which pass wrote it: corruption, misplaced data (the
 * offset) and stale data from another run (the seed) are all told apart.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PATTERN_UNIT 512u
#define PATTERN_MAGIC 0x3146524550425355ULL /* "USBPERF1" little-endian */

enum verify_fault {
	VERIFY_OK = 0,
	VERIFY_BAD_MAGIC,    /* not usbperf's data at all (or header destroyed) */
	VERIFY_BAD_OFFSET,   /* usbperf data, written for another offset */
	VERIFY_BAD_SEED,     /* usbperf data from another run */
	VERIFY_BAD_CHECKSUM, /* header fine, payload changed */
};

const char *verify_fault_name(enum verify_fault f);

/* xoshiro256** state: fast, good enough to defeat compression */
struct prng {
	uint64_t s[4];
};
void prng_seed(struct prng *p, uint64_t seed);
uint64_t prng_next(struct prng *p);

/* Fill buf with pseudo-random bytes. */
void pattern_fill_random(struct prng *p, void *buf, size_t len);
/* Make each 4 KiB of an already random buffer unique for this request. */
void pattern_stamp(void *buf, size_t len, uint64_t off, uint64_t counter);

/* Write the verify pattern for [off, off + len); len a multiple of PATTERN_UNIT. */
void pattern_fill_verify(void *buf, size_t len, uint64_t off, uint64_t seed);
/*
 * Check buf as read from off. Returns the number of bad units; the first
 * bad unit's absolute offset and fault go to *ret_bad_off and *ret_fault.
 */
size_t pattern_check(const void *buf, size_t len, uint64_t off, uint64_t seed,
		     uint64_t *ret_bad_off, enum verify_fault *ret_fault);

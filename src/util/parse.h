/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The one strict parser for numbers that come from users, files and the
 * wire. Every function returns 0 or a negative errno (-EINVAL: not a number
 * or trailing junk, -ERANGE: outside [min, max]) and leaves ret_* untouched
 * on failure.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *ret);
/* "1280x720": two strict whole numbers, each 1..max; -EINVAL, -ENOMEM */
int parse_wxh(const char *s, uint64_t max, uint64_t *ret_w, uint64_t *ret_h);
int parse_double(const char *s, double min, double max, double *ret);
/* Hexadecimal as sysfs writes it ("0781", "08"), an optional 0x, no sign or spaces. */
int parse_hex(const char *s, uint64_t max, uint64_t *ret);
/* one hex digit's value (0-9, a-f, A-F), -1 for any other character */
int hex_value(char c);

/*
 * Byte sizes: a whole number with an optional suffix. K, M, G, T (also KiB,
 * MiB, ... and lowercase k, m, g, t) are powers of 1024 as in dd and fio;
 * KB, MB, GB, TB are powers of 1000. "B" alone means bytes.
 */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

/* Durations in seconds: "5", "5s", "250ms", "2m", "1h"; fractions allowed. */
int parse_duration(const char *s, double min, double max, double *ret);

/*
 * Comma-separated list of sizes, at most max_items, each within [min, max].
 * *ret_items is malloc'ed; *ret_n its length. -E2BIG: too many items.
 */
int parse_size_list(const char *s, uint64_t min, uint64_t max, size_t max_items,
		    uint64_t **ret_items, size_t *ret_n);

/* "MAJ:MIN" as sysfs "dev" attributes write it. */
int parse_devnum(const char *s, unsigned *ret_major, unsigned *ret_minor);

/* Human form of a byte size using the largest exact binary suffix: 4096 -> "4K". */
void format_size(uint64_t v, char *buf, size_t len);

/* Copy s replacing control characters by '?' and dropping a trailing newline. */
void sanitize_string(char *s);

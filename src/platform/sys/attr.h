/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Readers for facts that may simply not be there: a missing, unreadable or
 * garbled sysfs/procfs/configfs attribute is an unknown value, never an
 * error, because a report about a machine must still come out when one
 * corner of it is odd. Every read goes through the sysroot.
 */
#include <stdint.h>

/* The attribute as a sanitized malloc'ed string; NULL when it cannot be read. */
char *attr_str(const char *path);
__attribute__((format(printf, 1, 2))) char *attr_strf(const char *fmt, ...);
/* Like attr_str, but an empty value is NULL too (an unbound UDC, an unset string). */
__attribute__((format(printf, 1, 2))) char *attr_strf_nonempty(const char *fmt, ...);

/*
 * A decimal integer attribute within [min, max] (an optional leading '-');
 * FIELD_INT_UNKNOWN when absent, unreadable, not a number or out of range.
 */
int64_t attr_int(const char *path, int64_t min, int64_t max);
__attribute__((format(printf, 3, 4))) int64_t attr_intf(int64_t min, int64_t max,
							  const char *fmt, ...);
/* The strict signed parser behind attr_int: 0 or -EINVAL/-ERANGE, ret untouched on failure. */
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *ret);

/*
 * dir/name readers (the USB probes): sysfs padding (" 2.00", "  0") trimmed,
 * NULL for absent or empty; numbers U64_UNKNOWN when absent or malformed.
 */
char *attr_get(const char *dir, const char *name);
uint64_t attr_get_u64(const char *dir, const char *name);
uint64_t attr_get_hex(const char *dir, const char *name);
/* last component of the symlink dir/name ("driver" -> "uas"), NULL if none */
char *attr_link_name(const char *dir, const char *name);

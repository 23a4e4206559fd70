/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The name of an enum's value from a table indexed by it, as the kernel's
 * usb_speed_string() does: static const char *const names[] = {[X_A] = "a"}.
 */
#include <stddef.h>

/* names[v], or fallback for a value past the table or without a name */
static inline const char *name_of(const char *const *names, size_t n, unsigned v,
				  const char *fallback)
{
	return v < n && names[v] ? names[v] : fallback;
}

#define NAME_OF(names, v, fallback)                                                                \
	name_of(names, sizeof(names) / sizeof(names[0]), (unsigned)(v), fallback)

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Allocation for the small structures probes and records are built of:
 * running out of memory there is not a state worth reporting, so these
 * abort() instead of returning NULL.
 */
#include <stddef.h>

/* a copy of s; NULL stays NULL */
char *xstrdup(const char *s);
/* v grown by one zeroed element of size bytes; *n counts it */
void *xgrow(void *v, size_t *n, size_t size);
/*
 * free() each pointer given, in order: a structure's strings in one
 * statement, free_all(d->name, d->path). All are read before the first free.
 */
void free_list(void *const *v, size_t n);
#define free_all(...)                                                                              \
	free_list((void *const[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))

// SPDX-License-Identifier: MIT
/* Allocation that aborts on ENOMEM (xalloc.h). */
#include "util/xalloc.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

char *xstrdup(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		abort();
	return d;
}

/*
 * One more element, the block doubled when full: a realloc per element copies
 * the whole array each time with allocators that do not grow in place (ASan's,
 * musl's on the boards): an import of 100,000 metrics took minutes under ASan.
 * The block's real size says whether it is full, whoever allocated it.
 */
void *xgrow(void *v, size_t *n, size_t size)
{
	size_t need = (*n + 1) * size;
	char *nv = v;

	if (!v || malloc_usable_size(v) < need) {
		nv = realloc(v, *n ? 2 * *n * size : size);
		if (!nv)
			abort();
	}
	memset(nv + *n * size, 0, size);
	(*n)++;
	return nv;
}

void free_list(void *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

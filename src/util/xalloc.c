// SPDX-License-Identifier: MIT
/* Allocation that aborts on ENOMEM (xalloc.h). */
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

char *xstrdup(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		abort();
	return d;
}

void *xgrow(void *v, size_t *n, size_t size)
{
	char *nv = realloc(v, (*n + 1) * size);

	if (!nv)
		abort();
	memset(nv + *n * size, 0, size);
	(*n)++;
	return nv;
}

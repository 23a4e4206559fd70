// SPDX-License-Identifier: MIT
/* libpq on first use: see libpq_dl.h. */
#include "store/postgres/libpq_dl.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

/* the soname Debian's libpq5 ships; the ABI usbperf was built against */
#define PQ_SONAME "libpq.so.5"

struct pq_api pq;

int pq_load(char *err, size_t errlen)
{
	static int loaded; /* 0: not tried, 1: loaded, -errno: failed */
	static char why[256];
	void *h;

	if (loaded == 0) {
		h = dlopen(PQ_SONAME, RTLD_NOW | RTLD_LOCAL);
		loaded = h ? 1 : -EPROTONOSUPPORT;
#define PQ_FIND(f)                                                                               \
	if (loaded == 1 && !(pq.f = (__typeof__(f) *)dlsym(h, #f)))                              \
		loaded = -EPROTONOSUPPORT;
		PQ_FUNCS(PQ_FIND)
#undef PQ_FIND
		if (loaded < 0) {
			/* dlerror() names the library or the symbol; Debian's package has it */
			snprintf(why, sizeof(why), "PostgreSQL's client library cannot be used (%s): "
				 "install libpq5", dlerror());
			if (h)
				dlclose(h); /* a libpq without a call usbperf makes: not kept */
		}
	}
	if (loaded < 0)
		snprintf(err, errlen, "%s", why);
	return loaded < 0 ? loaded : 0;
}

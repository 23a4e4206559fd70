// SPDX-License-Identifier: MIT
#include "classes/disk/cache.h"
#include "util/names.h"
#include "util/sysroot.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

const char *cache_drop_name(enum cache_drop d)
{
	static const char *const names[] = {[CACHE_DROP_NONE] = "none",
					    [CACHE_DROP_FADVISE] = "fadvise",
					    [CACHE_DROP_SYSTEM] = "drop_caches"};

	return NAME_OF(names, d, "?");
}

enum cache_drop cache_drop(int fd)
{
	struct strbuf p = STRBUF_INIT;
	enum cache_drop how = CACHE_DROP_NONE;
	int dfd;

	fdatasync(fd);
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0)
		how = CACHE_DROP_FADVISE;
	if (geteuid() == 0) {
		sysroot_path(&p, "/proc/sys/vm/drop_caches");
		dfd = open(p.buf, O_WRONLY | O_CLOEXEC);
		if (dfd >= 0) {
			sync();
			if (write(dfd, "3", 1) == 1)
				how = CACHE_DROP_SYSTEM;
			close(dfd);
		}
	}
	strbuf_release(&p);
	return how;
}

double cache_resident_pct(int fd, uint64_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t pages, i, resident = 0;
	unsigned char *vec;
	void *map;

	if (len == 0 || pg <= 0)
		return NAN;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return NAN;
	pages = (len + (size_t)pg - 1) / (size_t)pg;
	vec = malloc(pages);
	if (!vec || mincore(map, len, vec) < 0) {
		free(vec);
		munmap(map, len);
		return NAN;
	}
	for (i = 0; i < pages; i++)
		resident += vec[i] & 1;
	free(vec);
	munmap(map, len);
	return 100.0 * (double)resident / (double)pages;
}

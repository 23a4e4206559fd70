// SPDX-License-Identifier: MIT
#include "classes/disk/iostat.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysroot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define IO_TICKS_FIELD 10 /* Documentation/block/stat.rst: io_ticks, ms */

int iostat_parse_io_ticks(const char *text, uint64_t *ret_ms)
{
	const char *p = text;
	unsigned field = 0;

	while (*p) {
		const char *start;
		char tok[24];
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (++field != IO_TICKS_FIELD)
			continue;
		len = (size_t)(p - start);
		if (len >= sizeof(tok))
			return -EINVAL;
		memcpy(tok, start, len);
		tok[len] = '\0';
		return parse_u64(tok, 0, UINT64_MAX, ret_ms) < 0 ? -EINVAL : 0;
	}
	return -EINVAL;
}

int iostat_io_ticks(unsigned maj, unsigned min, uint64_t *ret_ms)
{
	struct strbuf sb = STRBUF_INIT;
	char path[64];
	int r;

	/* major 0: an anonymous device (tmpfs, overlay, btrfs), no block device */
	if (!maj)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/stat", maj, min);
	r = sysroot_read(path, 4096, &sb);
	if (r == 0)
		r = iostat_parse_io_ticks(sb.buf, ret_ms);
	strbuf_release(&sb);
	return r;
}

double iostat_util_pct(uint64_t busy_ms, double seconds)
{
	double pct;

	if (!(seconds >= IOSTAT_UTIL_MIN_S))
		return NAN;
	pct = 100.0 * ((double)busy_ms / 1e3) / seconds;
	return pct > 100 ? 100 : pct;
}

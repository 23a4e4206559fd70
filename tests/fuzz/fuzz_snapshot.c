// SPDX-License-Identifier: MIT
/* libFuzzer target: snapshot files (JSON from a bug report) and the path walk over them. */
#include "util/snapshot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {"/", "/sys", "/sys/bus/usb/devices", "/a/b", "/proc/self/mountinfo"};
	struct strbuf sb = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	size_t i, j;

	if (snapshot_load_buf((const char *)data, size, NULL) < 0)
		return 0;
	if (!sysroot_is_snapshot())
		abort();
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (sysroot_list(paths[i], &l) == 0) {
			for (j = 0; j < l.n && j < 64; j++) {
				struct strbuf p = STRBUF_INIT;

				strbuf_addf(&p, "%s/%s", strcmp(paths[i], "/") ? paths[i] : "", l.v[j]);
				(void)sysroot_read_attr(p.buf, &sb);
				(void)sysroot_readlink(p.buf, &sb);
				/* a resolved path is canonical and resolves to itself */
				if (sysroot_resolve(p.buf, &sb) == 0) {
					struct strbuf again = STRBUF_INIT;

					if (sb.buf[0] != '/' || strstr(sb.buf, "//") || strstr(sb.buf, "/../"))
						abort();
					if (sysroot_resolve(sb.buf, &again) != 0 || strcmp(again.buf, sb.buf))
						abort();
					strbuf_release(&again);
				}
				strbuf_release(&p);
			}
			name_list_release(&l);
		}
		(void)sysroot_read(paths[i], 4096, &sb);
	}
	strbuf_release(&sb);
	sysroot_set(NULL);
	return 0;
}

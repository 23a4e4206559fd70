// SPDX-License-Identifier: MIT
/* libFuzzer target: snapshot files (JSON from a bug report) and the path walk over them. */
#include "util/snapshot.h"
#include "util/snapshot_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* what the fast reader takes, json-c reads to the same nodes */
static void same_as_json(const char *buf, size_t len)
{
	struct vnode *a, *b;
	size_t na, nb;

	if (snapshot_scan(buf, len, &a, &na) != 0)
		return;
	if (snapshot_parse_json(buf, len, &b, &nb, NULL) != 0 || na != nb)
		abort();
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].path, b[i].path) || a[i].kind != b[i].kind ||
		    a[i].unread != b[i].unread || a[i].len != b[i].len ||
		    memcmp(a[i].data, b[i].data, a[i].len))
			abort();
	vnodes_free(a, na);
	vnodes_free(b, nb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {"/", "/sys", "/sys/bus/usb/devices", "/a/b", "/proc/self/mountinfo"};
	struct strbuf sb = STRBUF_INIT;
	struct name_list l = NAME_LIST_INIT;
	size_t i, j;

	same_as_json((const char *)data, size);
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

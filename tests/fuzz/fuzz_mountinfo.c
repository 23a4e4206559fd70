// SPDX-License-Identifier: MIT
/* libFuzzer target: mounts_parse on arbitrary /proc/self/mountinfo text. */
#include "platform/sys/mounts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* what mountinfo fields become after unescaping: no control characters left */
static void check_clean(const char *s)
{
	if (!s)
		abort();
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mount_table t;
	char *text = malloc(size + 1);
	size_t i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (mounts_parse(text, &t) == 0) {
		for (i = 0; i < t.n; i++) {
			const struct mount_entry *e = &t.e[i], *m;

			check_clean(e->root);
			check_clean(e->mount_point);
			check_clean(e->fs_type);
			check_clean(e->source);
			(void)fs_is_fuse(e->fs_type);
			/* an entry's own mount point resolves to a mount on that very point */
			if (e->mount_point[0] == '/') {
				m = mounts_find_path(&t, e->mount_point);
				if (!m || strcmp(m->mount_point, e->mount_point))
					abort();
			}
			m = mounts_find_dev(&t, e->major, e->minor);
			if (!m || m->major != e->major || m->minor != e->minor)
				abort();
		}
		(void)mounts_find_path(&t, "/mnt/usb/file");
		mount_table_release(&t);
	}
	free(text);
	return 0;
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A recorded tree for the tests that read sysfs: tests/fixtures/NAME.json
 * (or $USBPERF_FIXTURES/NAME.json) loaded as the snapshot every sysroot
 * read then comes from. Include after unit.h.
 */
#include "util/snapshot.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

static inline void load_fixture(const char *name)
{
	const char *dir = getenv("USBPERF_FIXTURES");
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int r;

	strbuf_addf(&path, "%s/%s.json", dir ? dir : "tests/fixtures", name);
	r = snapshot_load_file(path.buf, &err);
	if (r < 0)
		fail_msg("cannot load %s: %s %s", path.buf, strerror(-r), err.buf);
	strbuf_release(&path);
	strbuf_release(&err);
}

/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The camera fixtures of tests/fixtures/uvc for the uvc unit tests: load a
 * .hex file ('#' lines are its source note), decode it at a speed.
 */
#include "unit.h"
#include "platform/usb/uvc.h"

#include <stdio.h>
#include <stdlib.h>

struct fixture {
	uint8_t *buf;
	size_t len;
};

/* "12 01 00 02 ..." lines; '#' lines are the source note */
static inline struct fixture load(const char *name)
{
	const char *dir = getenv("USBPERF_FIXTURES");
	char path[512], line[1024];
	struct fixture f = {malloc(65536), 0};
	FILE *in;

	assert_non_null(f.buf);
	snprintf(path, sizeof(path), "%s/uvc/%s", dir ? dir : "tests/fixtures", name);
	in = fopen(path, "re");
	if (!in)
		fail_msg("cannot open '%s'", path);
	while (fgets(line, sizeof(line), in)) {
		char *p = line, *end;

		if (line[0] == '#')
			continue;
		for (;;) {
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			assert_true(v <= 0xff && f.len < 65536);
			f.buf[f.len++] = (uint8_t)v;
			p = end;
		}
	}
	fclose(in);
	return f;
}

static inline struct uvc_info *parse(const char *name, enum usb_speed s)
{
	struct fixture f = load(name);
	struct uvc_info *info = calloc(1, sizeof(*info));

	assert_non_null(info);
	assert_int_equal(uvc_parse(f.buf, f.len, s, info), 0);
	free(f.buf);
	return info;
}

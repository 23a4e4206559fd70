// SPDX-License-Identifier: MIT
/* util/strbuf: never NULL, always NUL-terminated, growth, detach, release. */
#include "unit.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_invariants(const struct strbuf *sb)
{
	assert_non_null(sb->buf);
	assert_int_equal(sb->buf[sb->len], '\0');
	if (sb->alloc) {
		assert_true(sb->len < sb->alloc);
	} else {
		/* unallocated: the shared empty string, which nobody may write to */
		assert_ptr_equal(sb->buf, strbuf_empty);
		assert_int_equal(sb->len, 0);
	}
	assert_int_equal(strbuf_empty[0], '\0');
}

static char *repeat_char(char c, size_t n)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void test_init_and_unused(void **state)
{
	struct strbuf a = STRBUF_INIT, b;

	(void)state;
	memset(&b, 0x5a, sizeof(b));
	strbuf_init(&b);
	check_invariants(&a);
	check_invariants(&b);
	assert_string_equal(a.buf, "");
	/* reset and release of a buffer that never allocated touch nothing shared */
	strbuf_reset(&a);
	check_invariants(&a);
	strbuf_release(&a);
	strbuf_release(&a);
	check_invariants(&a);
	strbuf_release(NULL);
	strbuf_release(&b);
	check_invariants(&b);
}

static void test_add_family(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_adds(&sb, "usb");
	check_invariants(&sb);
	strbuf_addch(&sb, '-');
	strbuf_add(&sb, "perfXXX", 4);
	strbuf_pad(&sb, '.', 3);
	strbuf_pad(&sb, '!', 0);
	strbuf_adds(&sb, "");
	check_invariants(&sb);
	assert_string_equal(sb.buf, "usb-perf...");
	assert_int_equal(sb.len, 11);
	/* bytes, not a C string: an embedded NUL counts */
	strbuf_add(&sb, "a\0b", 3);
	assert_int_equal(sb.len, 14);
	assert_memory_equal(sb.buf + 11, "a\0b", 4);
	strbuf_reset(&sb);
	check_invariants(&sb);
	assert_string_equal(sb.buf, "");
	assert_true(sb.alloc > 0); /* reset keeps the allocation */
	strbuf_release(&sb);
	check_invariants(&sb);
}

static void test_addf_growth(void **state)
{
	/* around the first allocation (64) and a page (4096), fresh and after a prefix */
	static const size_t lens[] = {0, 1, 62, 63, 64, 65, 127, 128, 1000, 4094, 4095, 4096, 4097,
				      100000};
	/* 63 bytes leave the first 64-byte allocation exactly full */
	static const size_t prefixes[] = {0, 7, 63};
	size_t i, p;

	(void)state;
	for (p = 0; p < ARRAY_SIZE(prefixes); p++) {
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			struct strbuf sb = STRBUF_INIT;
			char *s = repeat_char('x', lens[i]);
			size_t plen = prefixes[p];

			if (plen) /* without: addf on a never-allocated buffer */
				strbuf_pad(&sb, 'p', plen);
			strbuf_addf(&sb, "%s|%zu", s, lens[i]);
			check_invariants(&sb);
			if (sb.len !=
			    plen + lens[i] + 1 + (size_t)snprintf(NULL, 0, "%zu", lens[i]))
				fail_msg("addf of %zu chars after %zu: len %zu", lens[i], plen,
					 sb.len);
			assert_memory_equal(sb.buf + plen, s, lens[i]);
			assert_int_equal(sb.buf[plen + lens[i]], '|');
			assert_int_equal(strlen(sb.buf), sb.len);
			strbuf_release(&sb);
			free(s);
		}
	}
}

static void test_addf_many_small(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *want = malloc(16 * 3000), *w = want;
	size_t prev_alloc = 0;
	int i;

	(void)state;
	assert_non_null(want);
	for (i = 0; i < 3000; i++) {
		strbuf_addf(&sb, "%d,", i);
		w += sprintf(w, "%d,", i);
		check_invariants(&sb);
		assert_true(sb.alloc >= prev_alloc); /* never shrinks */
		prev_alloc = sb.alloc;
	}
	assert_true(sb.len > 4096);
	assert_int_equal(sb.len, (size_t)(w - want));
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
	free(want);
}

static void test_addf_exact_fit(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t alloc;

	(void)state;
	strbuf_adds(&sb, "0123456789");
	alloc = sb.alloc;
	assert_true(alloc >= 64);
	/* fill to alloc - 1: fits without a second pass */
	strbuf_addf(&sb, "%0*d", (int)(alloc - 1 - sb.len), 7);
	check_invariants(&sb);
	assert_int_equal(sb.len, alloc - 1);
	assert_int_equal(sb.alloc, alloc);
	assert_int_equal(sb.buf[sb.len - 1], '7');
	assert_int_equal(sb.buf[10], '0');
	/* one more byte must grow, and keep what was there */
	strbuf_addf(&sb, "%c", 'Z');
	check_invariants(&sb);
	assert_int_equal(sb.len, alloc);
	assert_true(sb.alloc > alloc);
	assert_memory_equal(sb.buf, "0123456789000", 13);
	assert_int_equal(sb.buf[alloc - 1], 'Z');
	strbuf_release(&sb);
}

static void test_grow(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t alloc;

	(void)state;
	strbuf_grow(&sb, 0);
	check_invariants(&sb);
	assert_true(sb.alloc >= 1);
	strbuf_adds(&sb, "keep");
	strbuf_grow(&sb, 10000);
	check_invariants(&sb);
	assert_true(sb.alloc >= 4 + 10000 + 1);
	assert_string_equal(sb.buf, "keep");
	alloc = sb.alloc;
	strbuf_grow(&sb, 10); /* already room: no change */
	assert_int_equal(sb.alloc, alloc);
	strbuf_release(&sb);
}

static void test_detach(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	(void)state;
	/* an unused buffer detaches to a fresh, freeable "" */
	s = strbuf_detach(&sb);
	assert_non_null(s);
	assert_ptr_not_equal(s, strbuf_empty);
	assert_string_equal(s, "");
	check_invariants(&sb);
	free(s);

	strbuf_addf(&sb, "%s-%d", "sdb", 1);
	s = strbuf_detach(&sb);
	assert_string_equal(s, "sdb-1");
	check_invariants(&sb);
	assert_int_equal(sb.alloc, 0);
	/* the buffer is usable again and independent of the detached string */
	strbuf_adds(&sb, "again");
	assert_string_equal(sb.buf, "again");
	assert_string_equal(s, "sdb-1");
	free(s);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_and_unused),
		cmocka_unit_test(test_add_family),
		cmocka_unit_test(test_addf_growth),
		cmocka_unit_test(test_addf_many_small),
		cmocka_unit_test(test_addf_exact_fit),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_detach),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

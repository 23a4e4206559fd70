// SPDX-License-Identifier: MIT
/* classes/disk/pattern: the --verify pattern and the incompressible random fill. */
#include "unit.h"
#include "classes/disk/pattern.h"

#include <stdlib.h>
#include <string.h>

#define NUNITS 128u
#define BUF_LEN (NUNITS * PATTERN_UNIT)
#define BASE_OFF (7ULL << 30) /* past 4 GiB: offsets must not be truncated to 32 bits */
#define SEED 0x0123456789abcdefULL
#define NO_OFF 0xfeedfacefeedfaceULL

static unsigned char *verify_buf(uint64_t off, uint64_t seed)
{
	unsigned char *b = malloc(BUF_LEN);

	assert_non_null(b);
	pattern_fill_verify(b, BUF_LEN, off, seed);
	return b;
}

static size_t check(const unsigned char *b, uint64_t off, uint64_t seed, uint64_t *bad_off,
		    enum verify_fault *f)
{
	*bad_off = NO_OFF;
	*f = (enum verify_fault)99;
	return pattern_check(b, BUF_LEN, off, seed, bad_off, f);
}

static void test_roundtrip(void **state)
{
	unsigned char *b = verify_buf(BASE_OFF, SEED), *again = verify_buf(BASE_OFF, SEED);
	unsigned char unit[PATTERN_UNIT];
	enum verify_fault f;
	uint64_t bad;

	(void)state;
	assert_int_equal(check(b, BASE_OFF, SEED, &bad, &f), 0);
	/* nothing bad: the outputs are left alone */
	assert_int_equal(bad, NO_OFF);
	assert_int_equal(f, 99);
	assert_memory_equal(b, again, BUF_LEN);
	/* a unit depends on (seed, offset) only, not on where the request started */
	pattern_fill_verify(unit, sizeof(unit), BASE_OFF + 5 * PATTERN_UNIT, SEED);
	assert_memory_equal(unit, b + 5 * PATTERN_UNIT, PATTERN_UNIT);
	/* and really differs between units and seeds */
	assert_memory_not_equal(b + 32, b + PATTERN_UNIT + 32, PATTERN_UNIT - 32);
	pattern_fill_verify(again, BUF_LEN, BASE_OFF, SEED + 1);
	assert_memory_not_equal(b + 32, again + 32, PATTERN_UNIT - 32);
	free(b);
	free(again);
}

static void flip_byte(unsigned char *u, size_t at)
{
	u[at] ^= 0x10;
}

struct corruption {
	const char *what;
	unsigned unit;
	size_t byte;	   /* flip this byte of the unit, or ... */
	int zero;	   /* ... zero the whole unit, or ... */
	int copy_from;	   /* ... copy another unit over it (-1: no) */
	enum verify_fault want;
};

static void test_single_corruption(void **state)
{
	static const struct corruption cases[] = {
		{"payload byte", 5, 100, 0, -1, VERIFY_BAD_CHECKSUM},
		{"first payload byte", 0, 32, 0, -1, VERIFY_BAD_CHECKSUM},
		{"last byte of the region", NUNITS - 1, PATTERN_UNIT - 1, 0, -1,
		 VERIFY_BAD_CHECKSUM},
		{"checksum field", 9, 24, 0, -1, VERIFY_BAD_CHECKSUM},
		{"seed field", 9, 16, 0, -1, VERIFY_BAD_SEED},
		{"offset field", 9, 8, 0, -1, VERIFY_BAD_OFFSET},
		{"magic", 17, 0, 0, -1, VERIFY_BAD_MAGIC},
		{"zeroed unit", 40, 0, 1, -1, VERIFY_BAD_MAGIC},
		{"misplaced unit", 7, 0, 0, 3, VERIFY_BAD_OFFSET},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct corruption *c = &cases[i];
		unsigned char *b = verify_buf(BASE_OFF, SEED);
		unsigned char *u = b + c->unit * PATTERN_UNIT;
		uint64_t want_off = BASE_OFF + c->unit * PATTERN_UNIT, bad;
		enum verify_fault f;
		size_t n;

		if (c->zero)
			memset(u, 0, PATTERN_UNIT);
		else if (c->copy_from >= 0)
			memcpy(u, b + (unsigned)c->copy_from * PATTERN_UNIT, PATTERN_UNIT);
		else
			flip_byte(u, c->byte);
		n = check(b, BASE_OFF, SEED, &bad, &f);
		if (n != 1 || bad != want_off || f != c->want)
			fail_msg("%s: %zu bad, first at %llu (%s); expected 1 at %llu (%s)",
				 c->what, n, (unsigned long long)bad, verify_fault_name(f),
				 (unsigned long long)want_off, verify_fault_name(c->want));
		free(b);
	}
}

static void test_stale_unit_from_other_run(void **state)
{
	unsigned char *b = verify_buf(BASE_OFF, SEED);
	unsigned char *other = verify_buf(BASE_OFF, SEED ^ 0xff);
	enum verify_fault f;
	uint64_t bad;

	(void)state;
	memcpy(b + 4 * PATTERN_UNIT, other + 4 * PATTERN_UNIT, PATTERN_UNIT);
	assert_int_equal(check(b, BASE_OFF, SEED, &bad, &f), 1);
	assert_int_equal(bad, BASE_OFF + 4 * PATTERN_UNIT);
	assert_int_equal(f, VERIFY_BAD_SEED);
	free(b);
	free(other);
}

static void test_whole_buffer_faults(void **state)
{
	unsigned char *b = verify_buf(BASE_OFF, SEED);
	enum verify_fault f;
	uint64_t bad;

	(void)state;
	/* checked with another seed: every unit is another run's */
	assert_int_equal(check(b, BASE_OFF, SEED + 1, &bad, &f), NUNITS);
	assert_int_equal(bad, BASE_OFF);
	assert_int_equal(f, VERIFY_BAD_SEED);
	/* read back from one unit further on: every unit is misplaced */
	assert_int_equal(check(b, BASE_OFF + PATTERN_UNIT, SEED, &bad, &f), NUNITS);
	assert_int_equal(bad, BASE_OFF + PATTERN_UNIT);
	assert_int_equal(f, VERIFY_BAD_OFFSET);
	/* a never-written (zero) region */
	memset(b, 0, BUF_LEN);
	assert_int_equal(check(b, 0, SEED, &bad, &f), NUNITS);
	assert_int_equal(bad, 0);
	assert_int_equal(f, VERIFY_BAD_MAGIC);
	free(b);
}

static void test_bad_count_and_first(void **state)
{
	static const unsigned hit[] = {2, 9, 10, 100, 127};
	unsigned char *b = verify_buf(BASE_OFF, SEED);
	enum verify_fault f;
	uint64_t bad;
	size_t i;

	(void)state;
	/* the first bad unit is reported with its own fault, the rest only counted */
	memset(b + 2 * PATTERN_UNIT, 0, PATTERN_UNIT);
	for (i = 1; i < ARRAY_SIZE(hit); i++)
		flip_byte(b + hit[i] * PATTERN_UNIT, 200);
	assert_int_equal(check(b, BASE_OFF, SEED, &bad, &f), ARRAY_SIZE(hit));
	assert_int_equal(bad, BASE_OFF + 2 * PATTERN_UNIT);
	assert_int_equal(f, VERIFY_BAD_MAGIC);
	free(b);
}

static void test_fault_names(void **state)
{
	static const enum verify_fault all[] = {VERIFY_OK, VERIFY_BAD_MAGIC, VERIFY_BAD_OFFSET,
						VERIFY_BAD_SEED, VERIFY_BAD_CHECKSUM};
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		assert_non_null(verify_fault_name(all[i]));
		assert_string_not_equal(verify_fault_name(all[i]), "?");
		for (j = 0; j < i; j++)
			assert_string_not_equal(verify_fault_name(all[i]),
						verify_fault_name(all[j]));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_random_fill(void **state)
{
	const size_t len = 1u << 20, nwords = len / 8;
	uint64_t *w = malloc(len), *w2 = malloc(len);
	size_t counts[256] = {0}, i, distinct = 0;
	const unsigned char *p = (const unsigned char *)w;
	struct prng rng;

	(void)state;
	assert_non_null(w);
	assert_non_null(w2);
	memset(w, 0, len);
	prng_seed(&rng, 42);
	pattern_fill_random(&rng, w, len);
	for (i = 0; i < len; i++)
		counts[p[i]]++;
	for (i = 0; i < 256; i++) {
		distinct += counts[i] != 0;
		/* 4096 expected per value, sd 64: 10 sd either way */
		if (counts[i] < 4096 - 640 || counts[i] > 4096 + 640)
			fail_msg("byte %zu appears %zu times in 1 MiB", i, counts[i]);
	}
	assert_int_equal(distinct, 256);
	/* no 8-byte word twice: nothing for a deduplicating controller to find */
	memcpy(w2, w, len);
	qsort(w2, nwords, 8, cmp_u64);
	for (i = 1; i < nwords; i++)
		if (w2[i] == w2[i - 1])
			fail_msg("word %016llx repeats", (unsigned long long)w2[i]);
	/* the same seed gives the same stream, another seed another one */
	prng_seed(&rng, 42);
	pattern_fill_random(&rng, w2, len);
	assert_memory_equal(w, w2, len);
	prng_seed(&rng, 43);
	pattern_fill_random(&rng, w2, 4096);
	assert_memory_not_equal(w, w2, 4096);
	free(w);
	free(w2);
}

static void test_random_fill_odd_length(void **state)
{
	unsigned char b[32];
	struct prng rng;
	size_t i, zeros = 0;

	(void)state;
	memset(b, 0, sizeof(b));
	prng_seed(&rng, 7);
	pattern_fill_random(&rng, b, 13);
	for (i = 0; i < 13; i++)
		zeros += b[i] == 0;
	assert_true(zeros < 4);
	assert_true(b[8] || b[9] || b[10] || b[11] || b[12]); /* the tail is filled too */
	for (i = 13; i < sizeof(b); i++)
		assert_int_equal(b[i], 0);
}

static void test_stamp(void **state)
{
	const size_t len = 4 * 4096;
	unsigned char *a = calloc(1, len), *b = calloc(1, len), *zero = calloc(1, len);
	size_t i;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(zero);
	pattern_stamp(a, len, 1 << 20, 1);
	pattern_stamp(b, len, 1 << 20, 2);
	for (i = 0; i < len; i += 4096) {
		/* each 4 KiB gets its own stamp in its first 8 bytes, and nothing else moves */
		assert_memory_not_equal(a + i, zero, 8);
		assert_memory_not_equal(a + i, b + i, 8);
		assert_memory_equal(a + i + 8, zero, 4096 - 8);
		if (i)
			assert_memory_not_equal(a + i, a + i - 4096, 8);
	}
	memset(b, 0, len);
	pattern_stamp(b, len, 1 << 20, 1);
	assert_memory_equal(a, b, len);
	free(a);
	free(b);
	free(zero);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_single_corruption),
		cmocka_unit_test(test_stale_unit_from_other_run),
		cmocka_unit_test(test_whole_buffer_faults),
		cmocka_unit_test(test_bad_count_and_first),
		cmocka_unit_test(test_fault_names),
		cmocka_unit_test(test_random_fill),
		cmocka_unit_test(test_random_fill_odd_length),
		cmocka_unit_test(test_stamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

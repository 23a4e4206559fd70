// SPDX-License-Identifier: MIT
#include "classes/disk/pattern.h"
#include "util/names.h"

#include <string.h>

struct unit_header {
	uint64_t magic;
	uint64_t offset;
	uint64_t seed;
	uint64_t checksum;
};

#define PAYLOAD_WORDS ((PATTERN_UNIT - sizeof(struct unit_header)) / 8)

const char *verify_fault_name(enum verify_fault f)
{
	static const char *const names[] = {
	    [VERIFY_OK] = "ok",
	    [VERIFY_BAD_MAGIC] = "not usbperf data",
	    [VERIFY_BAD_OFFSET] = "data from another offset",
	    [VERIFY_BAD_SEED] = "data from another run",
	    [VERIFY_BAD_CHECKSUM] = "checksum mismatch",
	};

	return NAME_OF(names, f, "?");
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

void prng_seed(struct prng *p, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		p->s[i] = splitmix(&seed);
}

uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

void pattern_fill_random(struct prng *p, void *buf, size_t len)
{
	uint64_t *w = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		w[i] = prng_next(p);
	for (i = len & ~(size_t)7; i < len; i++)
		((unsigned char *)buf)[i] = (unsigned char)prng_next(p);
}

void pattern_stamp(void *buf, size_t len, uint64_t off, uint64_t counter)
{
	uint64_t x = off ^ (counter << 40);
	size_t i;

	for (i = 0; i + 8 <= len; i += 4096) {
		uint64_t v = splitmix(&x);
		memcpy((char *)buf + i, &v, 8);
	}
}

static uint64_t payload_word(uint64_t seed, uint64_t off, size_t i)
{
	uint64_t x = seed ^ (off + i * 8) * 0xD6E8FEB86659FD93ULL;
	return splitmix(&x);
}

static uint64_t checksum(const uint64_t *w, size_t n, uint64_t seed)
{
	uint64_t h = seed ^ 0xA0761D6478BD642FULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h = (h ^ w[i]) * 0xE7037ED1A0B428DBULL;
		h ^= h >> 29;
	}
	return h;
}

void pattern_fill_verify(void *buf, size_t len, uint64_t off, uint64_t seed)
{
	size_t u, i;

	for (u = 0; u + PATTERN_UNIT <= len; u += PATTERN_UNIT) {
		unsigned char *p = (unsigned char *)buf + u;
		struct unit_header h = {PATTERN_MAGIC, off + u, seed, 0};
		uint64_t words[PAYLOAD_WORDS];

		for (i = 0; i < PAYLOAD_WORDS; i++)
			words[i] = payload_word(seed, off + u, i);
		h.checksum = checksum(words, PAYLOAD_WORDS, seed);
		memcpy(p, &h, sizeof(h));
		memcpy(p + sizeof(h), words, sizeof(words));
	}
}

size_t pattern_check(const void *buf, size_t len, uint64_t off, uint64_t seed,
		     uint64_t *ret_bad_off, enum verify_fault *ret_fault)
{
	size_t u, bad = 0;

	for (u = 0; u + PATTERN_UNIT <= len; u += PATTERN_UNIT) {
		const unsigned char *p = (const unsigned char *)buf + u;
		uint64_t words[PAYLOAD_WORDS];
		struct unit_header h;
		enum verify_fault f = VERIFY_OK;

		memcpy(&h, p, sizeof(h));
		memcpy(words, p + sizeof(h), sizeof(words));
		if (h.magic != PATTERN_MAGIC)
			f = VERIFY_BAD_MAGIC;
		else if (h.offset != off + u)
			f = VERIFY_BAD_OFFSET;
		else if (h.seed != seed)
			f = VERIFY_BAD_SEED;
		else if (h.checksum != checksum(words, PAYLOAD_WORDS, seed))
			f = VERIFY_BAD_CHECKSUM;
		if (f != VERIFY_OK) {
			if (!bad) {
				*ret_bad_off = off + u;
				*ret_fault = f;
			}
			bad++;
		}
	}
	return bad;
}

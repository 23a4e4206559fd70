// SPDX-License-Identifier: MIT
/* usbperf mtp's bookkeeping: the file content, the space a run needs, the summaries. */
#include "classes/mtp/mtp.h"

#include <math.h>
#include <string.h>

/* splitmix64: every 8-byte word of a file from its index alone */
static uint64_t word_at(uint32_t seed, uint64_t index)
{
	uint64_t z = index + ((uint64_t)seed << 40) + 0x9e3779b97f4a7c15ULL * (seed + 1ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void mtp_pattern_fill(uint32_t seed, uint64_t offset, unsigned char *buf, size_t len)
{
	size_t i = 0;

	while (i < len) {
		uint64_t o = offset + i, w = word_at(seed, o >> 3);
		unsigned b = (unsigned)(o & 7);

		if (b == 0 && len - i >= 8) {
			/* little-endian byte order whatever the host's */
			for (unsigned k = 0; k < 8; k++)
				buf[i + k] = (unsigned char)(w >> (8 * k));
			i += 8;
			continue;
		}
		buf[i++] = (unsigned char)(w >> (8 * b));
	}
}

int64_t mtp_pattern_mismatch(uint32_t seed, uint64_t offset, const unsigned char *buf, size_t len)
{
	unsigned char exp[4096];
	size_t done = 0;

	while (done < len) {
		size_t n = len - done < sizeof(exp) ? len - done : sizeof(exp);

		mtp_pattern_fill(seed, offset + done, exp, n);
		if (memcmp(exp, buf + done, n))
			for (size_t k = 0; k < n; k++)
				if (exp[k] != buf[done + k])
					return (int64_t)(done + k);
		done += n;
	}
	return -1;
}

uint64_t mtp_space_needed(const uint64_t *sizes, size_t nsizes, uint64_t objects,
			  uint64_t object_size)
{
	uint64_t largest = 0, objs;

	for (size_t i = 0; i < nsizes; i++)
		if (sizes[i] > largest)
			largest = sizes[i];
	objs = objects * object_size;
	/* the files and the objects are never on the device together */
	return (largest > objs ? largest : objs) + MTP_SPACE_MARGIN;
}

void mtp_size_finish(struct mtp_size_result *r)
{
	double s[MTP_MAX_REPEAT], g[MTP_MAX_REPEAT];
	size_t n = r->n < MTP_MAX_REPEAT ? r->n : MTP_MAX_REPEAT;

	for (size_t i = 0; i < n; i++) {
		s[i] = r->send_s[i] > 0 ? (double)r->bytes / r->send_s[i] / 1e6 : NAN;
		g[i] = r->get_s[i] > 0 ? (double)r->bytes / r->get_s[i] / 1e6 : NAN;
	}
	summarize(s, n, &r->send_mb_s);
	summarize(g, n, &r->get_mb_s);
}

static double per_s(uint64_t count, double seconds)
{
	return count && seconds > 0 ? (double)count / seconds : NAN;
}

void mtp_objects_finish(struct mtp_objects_result *r)
{
	r->send_per_s = per_s(r->sent, r->send_s);
	r->list_per_s = r->list_s > 0 ? per_s(r->sent, r->list_s) : NAN;
	r->delete_per_s = r->delete_s > 0 ? per_s(r->sent, r->delete_s) : NAN;
	r->send_mb_s =
	    r->sent && r->send_s > 0 ? (double)(r->sent * r->size) / r->send_s / 1e6 : NAN;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: usbmon's event parser, statistics and pcapng reader
 * (platform/usbmon), the bytes of a capture file or of the kernel's ring. The input
 * is read both as a pcapng file and as a run of raw events back to back, and
 * whatever is accepted must add up: every byte counted is in the size
 * histogram, latency samples never outnumber completions, nothing is in flight
 * beyond its maximum, the rows build. The seeds in corpus/fuzz_usbmon are the
 * lab's Bulk-Only and UAS captures (cut to 128 B a packet), a hand-built iso
 * event and a few the reader refuses.
 */
#include "platform/usbmon/fields.h"
#include "platform/usbmon/usbmon.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int add(const struct usbmon_event *e, const uint8_t *raw, size_t len, void *ctx)
{
	if (len < USBMON_HDR_LEN || raw == NULL)
		abort();
	if (e->type == '@')
		return 0;
	return usbmon_stats_add(ctx, e);
}

static void check(struct usbmon_stats *s)
{
	struct usbmon_rows rows;
	uint64_t events = 0;

	usbmon_stats_finish(s, 0);
	for (size_t i = 0; i < s->neps; i++) {
		const struct usbmon_ep_stats *e = &s->eps[i];
		uint64_t n = 0, in_sizes = e->sizes_other;

		for (unsigned k = 0; k < USBMON_SIZE_BUCKETS; k++)
			n += e->size_hist[k];
		for (unsigned k = 0; k < e->nsizes; k++)
			in_sizes += e->sizes[k].count;
		if (n != e->completions || in_sizes != e->completions)
			abort();
		if (e->lat_n > e->completions || e->unmatched > e->completions)
			abort();
		if (e->inflight > e->inflight_max || e->inflight_area < 0)
			abort();
		if (e->lat_n && usbmon_ep_lat_quantile(e, 0.5) > (double)e->lat_max_us)
			abort();
		events += e->submits + e->completions + e->submit_errors;
	}
	if (events != s->events - s->ep_overflow)
		abort();
	for (size_t i = 0; i < s->ndevs; i++)
		if (s->devs[i].busy_us > s->end_us - (s->start_us ? s->start_us : s->first_us))
			abort();
	if (usbmon_rows_build(s, NULL, &rows) < 0)
		abort();
	usbmon_rows_release(&rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT;
	struct usbmon_stats s;
	size_t off = 0;
	int r;

	if (usbmon_stats_init(&s) < 0)
		return 0;
	r = usbmon_pcapng_read(data, size, add, &s, &why);
	if (r < 0 && (r != -EINVAL || !why.len))
		abort();
	check(&s);
	usbmon_stats_release(&s);
	strbuf_release(&why);

	/* the same bytes as the ring would hold them */
	if (usbmon_stats_init(&s) < 0)
		return 0;
	while (off < size) {
		struct usbmon_event e;
		size_t used;

		if (usbmon_event_parse(data + off, size - off, &e, &used) < 0)
			break;
		if (used < USBMON_HDR_LEN || used > size - off)
			abort();
		if (e.type != '@') {
			for (unsigned i = 0; i < e.ndesc; i++) {
				struct usbmon_isodesc d;

				usbmon_isodesc_get(&e, i, &d);
			}
			if (usbmon_stats_add(&s, &e) < 0)
				abort();
		}
		off += used;
	}
	check(&s);
	usbmon_stats_release(&s);
	return 0;
}

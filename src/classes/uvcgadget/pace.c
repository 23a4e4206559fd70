// SPDX-License-Identifier: MIT
/*
 * A camera's frame timing, shared by usbperf's own bulk camera and the
 * frame source of the kernel's f_uvc: a frame is captured every interval,
 * the link sends one at a time, and a frame that waited while a newer one
 * was captured is dropped (late). Times are passed in, so tests drive it.
 */
#include "classes/uvcgadget/uvcg.h"

#include <errno.h>

void uvcg_pace_start(struct uvcg_pace *p, uint64_t t0, uint64_t interval_ns, uint64_t limit)
{
	*p = (struct uvcg_pace){.t0 = t0, .interval_ns = interval_ns ? interval_ns : 1,
				.limit = limit};
}

uint64_t uvcg_pace_slot_ns(const struct uvcg_pace *p, uint64_t slot)
{
	return p->t0 + slot * p->interval_ns;
}

int64_t uvcg_pace_next(struct uvcg_pace *p, uint64_t now, uint64_t *ret_slot)
{
	uint64_t due = uvcg_pace_slot_ns(p, p->next), newest;

	if (p->limit && p->next >= p->limit)
		return -ENOSPC;
	if (now < due)
		return (int64_t)(due - now);
	/* the newest frame captured by now; the ones before it that waited are dropped */
	newest = (now - p->t0) / p->interval_ns;
	if (p->limit && newest >= p->limit)
		newest = p->limit - 1;
	p->late += newest - p->next;
	p->next = newest + 1;
	p->slots = p->next;
	*ret_slot = newest;
	return 0;
}

void uvcg_pace_sent(struct uvcg_pace *p)
{
	p->sent++;
}

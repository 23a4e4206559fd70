// SPDX-License-Identifier: MIT
/*
 * usbperf mtp and responders as they are: whether a storage's figures can
 * be true, and where files go when sending into usbperf's folder fails in
 * a way sending elsewhere may not (plain C, always built; engine.c acts on
 * it).
 */
#include "classes/mtp/mtp.h"
#include "util/names.h"

#include <stdio.h>
#include <string.h>

void mtp_storage_judge(uint64_t capacity, uint64_t free_bytes, struct mtp_storage_judgement *ret)
{
	/* libmtp's stand-in for a figure the device never gave */
	bool no_cap = capacity == UINT64_MAX, no_free = free_bytes == UINT64_MAX;
	bool cap_ok = !no_cap && capacity > 0 && capacity <= MTP_STORAGE_MAX;

	memset(ret, 0, sizeof(*ret));
	ret->capacity = cap_ok ? capacity : UINT64_MAX;
	ret->free_bytes = UINT64_MAX;
	ret->room = UINT64_MAX;
	if (no_cap && no_free)
		return; /* nothing reported: nothing to judge, nothing to print */
	if (!no_cap && capacity > MTP_STORAGE_MAX) {
		snprintf(ret->why, sizeof(ret->why),
			 "a capacity of %llu B reported, more than any MTP device holds (1 PiB)",
			 (unsigned long long)capacity);
	} else if (!no_cap && capacity == 0) {
		if (no_free)
			snprintf(ret->why, sizeof(ret->why), "a capacity of 0 B reported");
		else
			snprintf(ret->why, sizeof(ret->why),
				 "a capacity of 0 B reported, with %llu B free",
				 (unsigned long long)free_bytes);
	} else if (!no_free && cap_ok && free_bytes > capacity) {
		snprintf(ret->why, sizeof(ret->why),
			 "%llu B free of a capacity of %llu B reported: free space cannot exceed "
			 "capacity",
			 (unsigned long long)free_bytes, (unsigned long long)capacity);
	} else if (!no_free && free_bytes > MTP_STORAGE_MAX) {
		snprintf(ret->why, sizeof(ret->why),
			 "%llu B free reported, more than any MTP device holds (1 PiB)",
			 (unsigned long long)free_bytes);
	}
	if (ret->why[0]) {
		/* neither figure is a fact; the capacity, if it can be one, bounds the room */
		ret->anomaly = true;
		ret->capacity = UINT64_MAX;
		ret->room = cap_ok ? capacity : UINT64_MAX;
		return;
	}
	/* a capacity without a free figure bounds the room; both: the free space */
	ret->room = no_free ? ret->capacity : free_bytes;
	ret->free_bytes = no_free ? UINT64_MAX : free_bytes;
}

enum mtp_send_fault mtp_send_fault_of(const struct mtp_send_outcome *o)
{
	if (o->stopped)
		return MTP_FAULT_STOPPED;
	if (o->gone)
		return MTP_FAULT_GONE;
	if (!o->made)
		return MTP_FAULT_REFUSED;
	/*
	 * Every byte taken and the send itself answered OK (libmtp's error is
	 * its own, not the device's): only reading the new object back failed.
	 */
	if (o->all_taken && o->accepted)
		return MTP_FAULT_REREAD;
	return MTP_FAULT_DATA;
}

enum mtp_place mtp_next_place(enum mtp_place at, bool proven, enum mtp_send_fault f)
{
	/* a place that worked before is not the cause; a signal or an unplug is no quirk */
	if (proven || f == MTP_FAULT_STOPPED || f == MTP_FAULT_GONE)
		return MTP_PLACE_NONE;
	switch (at) {
	case MTP_PLACE_FOLDER:
		return MTP_PLACE_ROOT; /* where libmtp's own tools send */
	case MTP_PLACE_ROOT:
		return MTP_PLACE_EXISTING; /* a device that takes no files in its root */
	default:
		return MTP_PLACE_NONE;
	}
}

const char *mtp_place_name(enum mtp_place p)
{
	static const char *const names[] = {[MTP_PLACE_FOLDER] = "folder",
					    [MTP_PLACE_ROOT] = "root",
					    [MTP_PLACE_EXISTING] = "existing-folder"};

	return NAME_OF(names, p, "none");
}

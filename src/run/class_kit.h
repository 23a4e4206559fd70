/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What every class adapter (src/classes/<class>/run_class.c) does the same
 * way, written once: its item's state, its device's record entry.
 */
#include "run/class.h"

struct measure_class;
struct run_device;
struct run_plan_item;
struct run_result;

/* the state of an item class c planned, NULL if the item is another class's */
void *class_item(const struct run_plan_item *it, const struct measure_class *c);

/*
 * The item's device in the record, its key, kind and target (the item's
 * device_key and path) filled; NULL if the record has it already (one
 * entry a device, however many of its items were measured).
 */
struct run_device *class_add_device(struct run_result *r, const struct run_plan_item *it,
				    const char *kind);

/*
 * A sweep over block sizes, for a class's sweep_point: m's pass named
 * "PREFIX SIZE" ("seq-read 64K") is a point of series PREFIX at SIZE, in
 * role; its MB/s is the point, its other rates (IOPS: the same over the
 * size) are not drawn again.
 */
enum class_sweep class_block_point(const struct run_metric *m, const char *prefix,
				   enum sweep_role role, struct class_sweep_point *ret);

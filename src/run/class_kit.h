/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * What every class adapter (src/classes/<class>/run_class.c) does the same
 * way, written once: its item's state, its device's record entry.
 */
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

/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by `usbperf run` and its measurement classes (class.h); not an API. */
#include "run/class.h"
#include "run/run.h"

#define RUN_QUICK_SIZE (256ull << 20)
#define RUN_QUICK_TIME_S 3.0
#define RUN_FULL_TIME_S 5.0
/* the floor of a disk pass: twice the 0.5 s the run warns under, 10 bandwidth samples */
#define RUN_QUICK_MIN_TIME_S 1.0
#define RUN_FULL_MIN_TIME_S 2.0

struct usb_topology;
struct usb_attach;

/* the host's test directory when there is no USB disk */
const char *run_scratch(const struct run_options *o);
/* a plan item of class c (strings copied); its state is the class's to set */
struct run_plan_item *run_plan_add(struct run_result *r, const struct measure_class *c,
				   const char *path, const char *key, const char *kind,
				   bool read_only, const char *why);
/* what a USB lookup says of a measured device: VID:PID, product, port, speed, driver, ceiling */
void run_device_attach(struct run_device *d, const struct usb_attach *a);
/* the record's device of key, NULL if none yet */
struct run_device *run_device_find(struct run_result *r, const char *key);
struct run_row *run_add_row(struct run_result *r);
/* a row of class c's own table (class.h row_desc), zeroed, of size bytes */
void *run_class_add_row(struct run_result *r, const struct measure_class *c, size_t size);
__attribute__((format(printf, 2, 3))) void run_note(struct run_result *r, const char *fmt, ...);
/* a device found and not measured, with why: in the record for the report's topology */
void run_unmeasured_add(struct run_result *r, const char *key, const char *kind, const char *name,
			const char *why);

/* --copy SRC DST: both sides as disks (DST raw flash: MTD), and the copy between them */
void run_copy_plan(const struct run_options *o, struct run_result *r);
/* --copy's sides can be used (a DST of raw flash needs --destructive): -EINVAL + why */
int run_copy_check_sides(const struct run_options *o, char **ret_why);
/* a disk item's report once measured, NULL before or if it failed */
const struct disk_report *run_disk_report(const struct run_plan_item *it);

/* a disk item measured into an empty report, for tests of the rules: fill its rows */
struct disk_report *run_disk_item_add(struct run_result *r, const char *key);
/* disks' bottleneck rules (src/classes/disk/run_analyze.c) */
void run_disk_analyze(struct run_result *r);
/* the fastest sequential pass of a disk report in one direction ("read"), NULL if none */
const struct disk_row *run_disk_best_seq(const struct disk_report *d, const char *op);
/* d->not_medium from its target facts (source, filesystem), while they are there */
void run_disk_note_backing(struct disk_report *d);

/* the classes of run_classes[] (each in its own room) */
extern const struct measure_class run_class_disk, run_class_net, run_class_copy, run_class_video,
    run_class_hid, run_class_bulk, run_class_gadget, run_class_mtp;
/* raw flash (src/classes/mtd/run_class.c) */
extern const struct measure_class run_class_mtd;

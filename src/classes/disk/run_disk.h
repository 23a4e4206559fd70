/* SPDX-License-Identifier: MIT */
#pragma once
/* The disk class of `usbperf run` (class.h), for its neighbours that read its reports: copy, tests. */
#include "classes/disk/disk.h"
#include "run/run_priv.h"

extern const struct measure_class run_class_disk;

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

/* SPDX-License-Identifier: MIT */
#pragma once
#include "classes/disk/disk.h"
#include "model/field.h"

extern const struct record_desc disk_target_desc;
extern const struct record_desc disk_row_desc;
extern const struct record_desc disk_verr_desc;
extern const struct record_desc disk_pair_desc;
extern const struct record_desc disk_sample_desc;

/*
 * Sections of a disk report, in the order they are shown. with_samples adds
 * every interval sample (a table for plotting: JSON, not a text page).
 */
void disk_report_describe(const struct disk_report *rep, bool with_samples, struct report *out);

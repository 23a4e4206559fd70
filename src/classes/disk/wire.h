/* SPDX-License-Identifier: MIT */
#pragma once
/* A disk pass watched on the wire: the usbmon pass monitor (platform/usbmon/pass.h) for disk_run. */
#include "classes/disk/disk.h"
#include "platform/usbmon/pass.h"

/* watch the USB device under rep's target; -errno with why when it cannot be */
int disk_wire_start(const struct disk_report *rep, struct usbmon_pass **ret, struct strbuf *why);
/* the row's wire figures unknown (an unmonitored pass) */
void disk_wire_unknown(struct disk_row *row);
/*
 * stop p (NULL: nothing) and put its figures in row (NULL: dropped), the rates over
 * seconds (the pass's own time, summed over the repeats); -errno with why
 */
int disk_wire_stop(struct usbmon_pass *p, double seconds, struct disk_row *row, struct strbuf *why);

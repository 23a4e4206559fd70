/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by `usbperf run` and its measurement classes (class.h); not an API. */
#include "run/class.h"
#include "run/run.h"

#define RUN_QUICK_SIZE (256ull << 20)
#define RUN_QUICK_TIME_S 3.0
#define RUN_FULL_TIME_S 5.0

struct usb_topology;
struct usb_attach;

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

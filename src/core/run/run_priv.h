/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by the files of `usbperf run`; not an API. */
#include "core/run/run.h"

#define RUN_QUICK_SIZE (256ull << 20)
#define RUN_QUICK_TIME_S 3.0
#define RUN_FULL_TIME_S 5.0
/* the floor of a disk pass: twice the 0.5 s the run warns under, 10 bandwidth samples */
#define RUN_QUICK_MIN_TIME_S 1.0
#define RUN_FULL_MIN_TIME_S 2.0

struct usb_topology;

/* the host's test directory when there is no USB disk */
const char *run_scratch(const struct run_options *o);
/* open r->plan[plan]'s target into r->open[] (its passes in r->specs[]): the safety rules */
int run_disk_open(const struct run_options *o, struct run_result *r, size_t plan, char **ret_why);
/* measure r->open[k] into r->disks[r->ndisks]: the device, its rows and metrics */
int run_disk_measure(const struct usb_topology *topo, struct run_result *r, size_t k);
/* close every opened target (created test files removed) */
void run_disk_close_all(struct run_result *r);
/* what a USB lookup says of a measured device: VID:PID, product, port, speed, driver, ceiling */
void run_device_attach(struct run_device *d, const struct usb_attach *a);
struct run_row *run_add_row(struct run_result *r);
__attribute__((format(printf, 2, 3))) void run_note(struct run_result *r, const char *fmt, ...);
/* a network plan item: TCP each way against it->net_host */
int run_net_target(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		   char **ret_why);
/* how long one network pass (one direction) lasts */
double run_net_pass_seconds(const struct run_options *o);
/* the same against a usbperf server this process starts on 127.0.0.1:it->net_port */
int run_net_loopback(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		     char **ret_why);

/* SPDX-License-Identifier: MIT */
#pragma once
/* Shared by the files of `usbperf run`; not an API. */
#include "core/run/run.h"

/* what a USB lookup says of a measured device: VID:PID, product, port, speed, driver, ceiling */
void run_device_attach(struct run_device *d, const struct usb_attach *a);
struct run_row *run_add_row(struct run_result *r);
__attribute__((format(printf, 2, 3))) void run_note(struct run_result *r, const char *fmt, ...);
/* a network plan item: TCP each way against it->net_host */
int run_net_target(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		   char **ret_why);
/* the same against a usbperf server this process starts on 127.0.0.1:it->net_port */
int run_net_loopback(const struct run_options *o, struct run_result *r, struct run_plan_item *it,
		     char **ret_why);

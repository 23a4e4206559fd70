/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A net test watched on the wire (--monitor): the USB device behind the
 * interface on usbmon from TEST_RUNNING, before any stream moves a byte,
 * until the results are exchanged. The payload set against the wire bytes is
 * what this end's TCP streams certainly carried by the end (counted before
 * the capture stops), so the wire holds all of it.
 */
#include "classes/net/net.h"

struct usbmon_pass;

/* the report's wire figures unknown (before a test, or when not monitored) */
void net_wire_unknown(struct net_report *rep);
/* start watching rep's USB device; NULL with rep->monitor_why when it cannot be */
struct usbmon_pass *net_wire_start(struct net_report *rep);
/* end the capture (p may be NULL): rep->wire, or monitor_why */
void net_wire_stop(struct usbmon_pass *p, struct net_report *rep);
/*
 * After the totals: the rates over the test's seconds (--omit's included, as
 * the capture holds them) and the share of the wire bytes that was not payload.
 */
void net_wire_finish(struct net_report *rep);

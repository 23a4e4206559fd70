/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * The verdict on a HID rate in a run record, from either side of the link:
 * a device's reports/s (run's hid class) or the reports/s a host took from
 * a gadget (run's gadget class), held against the interrupt endpoint's
 * ceiling: above 100 % "emulation" (the host controller polls faster than
 * bInterval asks), from 90 % "bus" (bInterval is the limit), else the
 * side's own limiter.
 */
struct hid_pass;
struct measure_class;
struct run_device;
struct run_record;
struct strbuf;

struct hid_rate_words {
	const char *none;	    /* the evidence when the device has no reports/s figure */
	const char *rate;	    /* before the figure: "", "the host took " */
	const char *ceiling;	    /* after "of the N/s": what allows it */
	const char *slower;	    /* the evidence below 90 % */
	const char *slower_limiter; /* and its limiter: RUN_LIMITER_DEVICE, _CONTROLLER */
};

/* the device d's reports_per_s of test in r: its limiter, the evidence into ev, the share */
const char *hid_rate_verdict(const struct run_record *r, const struct run_device *d,
			     const char *test, const struct hid_rate_words *w, struct strbuf *ev,
			     double *ret_share_pct);

/*
 * The figures that verdict reads, as either side records a pass p: its
 * reports/s and B/s against their ceilings, and its p99 and max times under
 * the side's keys ("interval_p99_us", "write_p99_us"), as metrics of class
 * c's pass named pass. A figure p does not have (NaN) is left out.
 */
void hid_pass_add_metrics(struct run_record *rec, const struct measure_class *c,
			  const char *device_key, const char *pass, const struct hid_pass *p,
			  const char *p99_key, const char *max_key);

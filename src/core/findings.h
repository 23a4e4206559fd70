/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A finding: something about the setup that will distort or cap a
 * measurement, with the evidence that shows it and what to change.
 * Probes append findings; commands render them as a "findings" table.
 */
#include "render/field.h"

#include <stddef.h>

enum finding_severity {
	FINDING_INFO,
	FINDING_WARN, /* will cap or distort a measurement */
};

struct finding {
	const char *severity; /* "info" or "warn" (static string, from finding_add) */
	char *id;	      /* stable machine id: "usb.speed_below_capability", "cpu.governor" */
	char *subject;	      /* what it is about: "2-1", "policy0", "sdb" */
	char *message;	      /* one line: what is wrong */
	char *evidence;	      /* the facts read, with their sysfs/proc source */
	char *fix;	      /* what to change */
	/*
	 * Whose figures it bears on (run's analyze sets it): a measured
	 * device's key, FINDING_ABOUT_ALL for every measured device (the CPU
	 * governor), NULL for none: "not about this run's figures".
	 */
	char *about;
};

#define FINDING_ABOUT_ALL "*"

struct finding_list {
	struct finding *v;
	size_t n, alloc;
};

#define FINDING_LIST_INIT {NULL, 0, 0}

/* Copies every string; fix may be NULL. */
void finding_add(struct finding_list *l, enum finding_severity sev, const char *id,
		 const char *subject, const char *message, const char *evidence, const char *fix);
void finding_list_release(struct finding_list *l);
/* set f->about (copied; NULL: none) */
void finding_set_about(struct finding *f, const char *about);
/* field table for report_add_table(r, "findings", "Findings", &finding_desc, l->v, l->n, sizeof(struct finding)) */
extern const struct record_desc finding_desc;

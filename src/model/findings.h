/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * A finding: something about the setup that will distort or cap a
 * measurement, with the evidence that shows it and what to change.
 * Probes append findings; commands render them as a "findings" table.
 */
#include "model/field.h"
#include "util/strbuf.h"

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
/* the first finding of id about subject, NULL if none */
const struct finding *finding_list_find(const struct finding_list *l, const char *id,
					const char *subject);
/* set f->about (copied; NULL: none) */
void finding_set_about(struct finding *f, const char *about);
/* field table for report_add_table(r, "findings", "Findings", &finding_desc, l->v, l->n, sizeof(struct finding)) */
extern const struct record_desc finding_desc;

/*
 * Evidence about many passes, each clause said once (issue 29.2.8: the same
 * clause for 10 passes was an 866-character line): passes whose key is the
 * same ("CPU 1") are one group, their figures said as ranges. Render fills
 * fmt per group: "{k}" the key, "{0}".."{3}" a figure's range ("95-100"),
 * after the passes: "10 passes (seq-read 4K to rand-write 4K Q32): ".
 */
#define EVIDENCE_FIGS 4
struct evidence_group {
	char *key;
	char **passes;
	size_t n;
	double lo[EVIDENCE_FIGS], hi[EVIDENCE_FIGS];
};
struct evidence_groups {
	struct evidence_group *v;
	size_t n;
	bool name_all; /* every pass by name, not "10 passes (a to z)": a reader looks one up */
};
void evidence_add(struct evidence_groups *g, const char *key, const char *pass,
		  const double *figs, size_t nfigs);
/* appended to out, groups joined by "; " */
void evidence_render(const struct evidence_groups *g, const char *fmt, struct strbuf *out);
void evidence_release(struct evidence_groups *g);
/* the passes as one phrase: "seq-read 4K", "a and b", "10 passes (a to z)"; all: "a, b, c and d" */
void evidence_passes(struct strbuf *out, char *const *passes, size_t n, bool all);

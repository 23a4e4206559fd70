/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * How long a run takes, said before it starts. Passes of one kind last
 * between a floor and a cap (a disk pass: at least min(min_time, cap), at
 * most its cap; its real length depends on the rate, unknown until it
 * runs); passes of the other kinds last a fixed time ("2 network passes of
 * 6 s"). Any class fills it: it names none.
 */
#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* passes of a fixed length, of one kind: how many, how long each */
struct estimate_other {
	const char *what; /* "network" */
	unsigned passes;
	double pass_s;
};
#define ESTIMATE_OTHERS 8

struct estimate {
	const char *what; /* the passes between a floor and a cap: "disk" */
	unsigned passes;
	double floor_s, cap_s;		 /* sums over those passes */
	double pass_floor_s, pass_cap_s; /* of one such pass (the longest seen) */
	uint64_t layout_bytes;		 /* written once before the read passes */
	struct estimate_other other[ESTIMATE_OTHERS];
	size_t nother;
};

/* passes more passes of what, pass_s each: one entry a kind, the longest pass kept */
void estimate_add_other(struct estimate *e, const char *what, unsigned passes, double pass_s);
/* "at least 10 s, at most 30 s: 10 disk passes of 1 to 3 s each, ..."; nothing for no passes */
void estimate_describe(const struct estimate *e, struct strbuf *out);

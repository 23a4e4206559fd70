/* SPDX-License-Identifier: MIT */
#pragma once
/* Filling a net_report: the header from the parameters, the totals from a finished session. */
#include "classes/net/net.h"
#include "classes/net/session.h"

/*
 * The test facts from the parameters; NaN/unknown for what a run fills later.
 * The USB ceilings (ceiling_*_mbit_s) must be set before, or left 0.
 */
void net_report_header(struct net_report *rep, const struct net_params *p, bool client);
/* Totals per direction and role from this end's counts and the peer's results (may be NULL). */
int net_report_totals(struct net_report *rep, const struct net_session *s,
		      const struct net_results *peer);

/* Above this share of one CPU an end sets the pace, not the link. */
#define NET_CPU_BOUND_PCT 90.0
/*
 * A warning for each end (this one: cpu_total, the peer: peer_cpu_total)
 * above NET_CPU_BOUND_PCT, named by what it did (sender, receiver, or both
 * with --bidir) from rep->role and rep->direction.
 */
void net_report_cpu_warnings(struct net_report *rep);

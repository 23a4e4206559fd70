// SPDX-License-Identifier: MIT
/*
 * The totals of a test: this end's final counts next to the peer's results
 * message, one row per direction and role, and a row per stream when there
 * are several.
 */
#include "classes/net/result.h"
#include "classes/net/wire.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LABEL (2 * (int)NET_MAX_STREAMS + 3)

const char *net_stream_label(int id)
{
	static char labels[MAX_LABEL][5];

	if (id <= 0 || id >= MAX_LABEL)
		return "sum";
	if (!labels[id][0])
		snprintf(labels[id], sizeof(labels[id]), "%d", id);
	return labels[id];
}

void net_report_note(struct net_report *r, const char *fmt, ...)
{
	char **w = realloc(r->warnings, (r->nwarnings + 1) * sizeof(*w));
	va_list ap;
	char *s;

	if (!w)
		return;
	r->warnings = w;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		r->warnings[r->nwarnings++] = s;
	va_end(ap);
}

const struct net_sum_row *net_report_received(const struct net_report *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].stream, "sum") && !strcmp(r->rows[i].role, "receiver"))
			return &r->rows[i];
	return NULL;
}

void net_report_release(struct net_report *r)
{
	size_t i;

	free_all(r->local, r->peer, r->peer_version, r->cookie, r->iface, r->bind_dev, r->framing,
		 r->congestion, r->peer_congestion, r->error_msg, r->monitor_why, r->rows,
		 r->intervals);
	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	usb_attach_release(&r->usb);
	memset(r, 0, sizeof(*r));
}

static const struct net_stream_result *peer_stream(const struct net_results *peer, int id)
{
	size_t i;

	for (i = 0; peer && i < peer->nstreams; i++)
		if (peer->streams[i].id == id)
			return &peer->streams[i];
	return NULL;
}

static void row_init(struct net_sum_row *r, bool tx, const char *stream, bool sender, bool local)
{
	*r = (struct net_sum_row){
		.dir = tx ? "tx" : "rx", .stream = stream,
		.role = sender ? "sender" : "receiver", .by = local ? "local" : "peer",
		.seconds = NAN, .mb_s = NAN, .mbit_s = NAN, .retransmits = FIELD_INT_UNKNOWN,
		.jitter_ms = NAN, .lost = FIELD_INT_UNKNOWN, .packets = FIELD_INT_UNKNOWN,
		.loss_pct = NAN, .ooo = FIELD_INT_UNKNOWN, .ceiling_mbit_s = NAN,
		.efficiency_pct = NAN,
	};
}

static void loss(struct net_sum_row *r)
{
	if (r->lost != FIELD_INT_UNKNOWN && r->packets != FIELD_INT_UNKNOWN)
		r->loss_pct = r->packets > 0 ? 100.0 * (double)r->lost / (double)r->packets : 0;
}

/* This end's side of one stream. */
static void local_row(struct net_sum_row *r, const struct net_session *s,
		      const struct net_stream_final *f, const struct net_stream_result *ps)
{
	bool udp = s->p->proto == NET_UDP;

	r->bytes = f->bytes;
	r->seconds = s->seconds;
	if (f->sender && !udp)
		r->retransmits = f->retrans >= 0 ? f->retrans : FIELD_INT_UNKNOWN;
	if (udp && f->sender)
		r->packets = (int64_t)(f->packets - f->packets_omit);
	if (udp && !f->sender) {
		int64_t sent = -1;

		/* the sender's count tells the tail losses a receiver cannot see */
		if (ps)
			sent = ps->packets - (ps->omitted_packets >= 0 ? ps->omitted_packets
								      : (int64_t)f->packets_omit);
		r->lost = (int64_t)f->errors - (int64_t)f->errors_omit;
		r->packets = sent >= 0 ? sent : (int64_t)(f->packets - f->packets_omit);
		r->jitter_ms = f->jitter_s * 1000.0;
		r->ooo = (int64_t)(f->ooo - f->ooo_omit);
		loss(r);
	}
}

/* The peer's side of the same stream, from its results message. */
static void peer_row(struct net_sum_row *r, const struct net_session *s,
		     const struct net_stream_final *f, const struct net_stream_result *ps,
		     const struct net_results *peer)
{
	bool udp = s->p->proto == NET_UDP;

	r->bytes = ps->bytes;
	r->seconds = isfinite(ps->end_s) && isfinite(ps->start_s) && ps->end_s > ps->start_s
			     ? ps->end_s - ps->start_s
			     : s->seconds;
	if (!f->sender && !udp && peer->sender_has_retransmits == 1 && ps->retransmits >= 0)
		r->retransmits = ps->retransmits;
	if (udp && !f->sender)
		r->packets = ps->packets - (ps->omitted_packets >= 0 ? ps->omitted_packets
								     : (int64_t)f->packets_omit);
	if (udp && f->sender) {
		r->lost = ps->errors - (ps->omitted_errors >= 0 ? ps->omitted_errors : 0);
		r->packets = (int64_t)(f->packets - f->packets_omit);
		r->jitter_ms = ps->jitter_s * 1000.0;
		loss(r);
	}
}

static void rates(struct net_sum_row *r)
{
	if (r->seconds > 0) {
		r->mb_s = (double)r->bytes / r->seconds / 1e6;
		r->mbit_s = r->mb_s * 8;
	}
}

static void sum_add(struct net_sum_row *sum, const struct net_sum_row *r, bool first)
{
	sum->bytes += r->bytes;
	if (first || (r->seconds > sum->seconds))
		sum->seconds = r->seconds;
	if (first) {
		sum->retransmits = r->retransmits;
		sum->lost = r->lost;
		sum->packets = r->packets;
		sum->ooo = r->ooo;
		sum->jitter_ms = r->jitter_ms;
		return;
	}
#define ADD_KNOWN(f)                                                                             \
	sum->f = sum->f == FIELD_INT_UNKNOWN || r->f == FIELD_INT_UNKNOWN ? FIELD_INT_UNKNOWN      \
									  : sum->f + r->f
	ADD_KNOWN(retransmits);
	ADD_KNOWN(lost);
	ADD_KNOWN(packets);
	ADD_KNOWN(ooo);
#undef ADD_KNOWN
	sum->jitter_ms += r->jitter_ms; /* averaged over the streams at the end */
}

static void ceiling(struct net_sum_row *r, const struct net_report *rep, bool tx)
{
	double c = tx ? rep->ceiling_tx_mbit_s : rep->ceiling_rx_mbit_s;

	if (!isfinite(c) || c <= 0)
		return;
	r->ceiling_mbit_s = c;
	if (isfinite(r->mbit_s))
		r->efficiency_pct = 100.0 * r->mbit_s / c;
}

static struct net_sum_row *push(struct net_report *rep)
{
	return &rep->rows[rep->nrows++];
}

static void push_pair(struct net_report *rep, const struct net_sum_row *local,
		      const struct net_sum_row *peer, bool tx)
{
	/* the sender's row first, whichever end counted it */
	if (tx || !peer)
		*push(rep) = *local;
	if (peer)
		*push(rep) = *peer;
	if (!tx && peer)
		*push(rep) = *local;
}

static void finish_sum(struct net_sum_row *sum, unsigned n, const struct net_report *rep, bool tx)
{
	sum->jitter_ms /= n;
	rates(sum);
	loss(sum);
	ceiling(sum, rep, tx);
}

/* Rows of one direction: per stream (with several), then the sums. */
static void direction_rows(struct net_report *rep, const struct net_session *s,
			   const struct net_results *peer, bool tx)
{
	struct net_sum_row sum_local, sum_peer, r, rp;
	unsigned n = 0, npeer = 0;
	size_t i;

	row_init(&sum_local, tx, "sum", tx, true);
	row_init(&sum_peer, tx, "sum", !tx, false);
	for (i = 0; i < s->nstreams; i++) {
		const struct net_stream_final *f = &s->finals[i];
		const struct net_stream_result *ps = peer_stream(peer, f->id);

		if (f->sender != tx)
			continue;
		row_init(&r, tx, net_stream_label(f->id), tx, true);
		local_row(&r, s, f, ps);
		rates(&r);
		sum_add(&sum_local, &r, n++ == 0);
		if (ps) {
			row_init(&rp, tx, net_stream_label(f->id), !tx, false);
			peer_row(&rp, s, f, ps, peer);
			rates(&rp);
			sum_add(&sum_peer, &rp, npeer++ == 0);
		}
		if (s->p->parallel > 1)
			push_pair(rep, &r, ps ? &rp : NULL, tx);
	}
	if (!n)
		return;
	finish_sum(&sum_local, n, rep, tx);
	if (npeer)
		finish_sum(&sum_peer, npeer, rep, tx);
	push_pair(rep, &sum_local, npeer ? &sum_peer : NULL, tx);
}

/* what an end did in the test: the client sends forward, the server with --reverse */
static const char *end_role(const struct net_report *rep, bool local)
{
	bool client = !strcmp(rep->role, "client") == local;

	if (!strcmp(rep->direction, "bidir"))
		return "sender and receiver";
	return client == !strcmp(rep->direction, "forward") ? "sender" : "receiver";
}

void net_report_cpu_warnings(struct net_report *rep)
{
	static const char *const who[] = {"the peer", "this end"};
	double pct[] = {rep->peer_cpu_total, rep->cpu_total};
	int local;

	if (!rep->role || !rep->direction)
		return;
	/* the sender first: its limit is the usual one */
	for (int k = 0; k < 2; k++)
		for (local = 1; local >= 0; local--) {
			const char *role = end_role(rep, local);

			if ((k == 0) != !strcmp(role, "sender") || !isfinite(pct[local]) ||
			    pct[local] <= NET_CPU_BOUND_PCT)
				continue;
			net_report_note(rep,
					"the %s (%s) used %.0f %% of a CPU: the figure may be the "
					"CPU's limit, not the link's",
					role, who[local], pct[local]);
		}
}

int net_report_totals(struct net_report *rep, const struct net_session *s,
		      const struct net_results *peer)
{
	/* per stream two rows, and two sums, per direction */
	size_t max = 2 * s->nstreams + 4;

	free(rep->rows);
	rep->nrows = 0;
	rep->rows = calloc(max, sizeof(*rep->rows));
	if (!rep->rows)
		return -1;
	direction_rows(rep, s, peer, true);
	direction_rows(rep, s, peer, false);
	rep->cpu_total = s->cpu_total;
	rep->cpu_user = s->cpu_user;
	rep->cpu_sys = s->cpu_sys;
	rep->seconds = s->seconds;
	if (peer) {
		rep->peer_cpu_total = peer->cpu_total;
		rep->peer_cpu_user = peer->cpu_user;
		rep->peer_cpu_sys = peer->cpu_sys;
		if (peer->congestion[0])
			rep->peer_congestion = strdup(peer->congestion);
	}
	net_report_cpu_warnings(rep);
	return 0;
}

void net_report_header(struct net_report *rep, const struct net_params *p, bool client)
{
	rep->role = client ? "client" : "server";
	pass_sys_init(&rep->sys);
	rep->protocol = p->proto == NET_UDP ? "udp" : "tcp";
	rep->direction = p->bidir ? "bidir" : p->reverse ? "reverse" : "forward";
	rep->streams = p->parallel;
	rep->len = p->len;
	rep->window = p->window ? p->window : U64_UNKNOWN;
	rep->rate_bps = p->rate_bps ? p->rate_bps : U64_UNKNOWN;
	rep->rate_mbit_s = p->rate_bps ? (double)p->rate_bps / 1e6 : NAN;
	rep->time_s = p->bytes || p->blocks ? U64_UNKNOWN : p->time_s;
	rep->bytes_limit = p->bytes ? p->bytes : U64_UNKNOWN;
	rep->blocks_limit = p->blocks ? p->blocks : U64_UNKNOWN;
	rep->omit_s = p->omit_s;
	rep->cpu_total = rep->cpu_user = rep->cpu_sys = NAN;
	rep->peer_cpu_total = rep->peer_cpu_user = rep->peer_cpu_sys = NAN;
	rep->seconds = NAN;
	net_wire_unknown(rep);
	if (!rep->on_usb) {
		rep->frame_tx_bytes = rep->frame_rx_bytes = NAN;
		rep->usb.ceiling_mb_s = NAN;
	}
	if (!rep->mtu)
		rep->mtu = U64_UNKNOWN;
	if (!isfinite(rep->ceiling_tx_mbit_s) || rep->ceiling_tx_mbit_s == 0)
		rep->ceiling_tx_mbit_s = NAN;
	if (!isfinite(rep->ceiling_rx_mbit_s) || rep->ceiling_rx_mbit_s == 0)
		rep->ceiling_rx_mbit_s = NAN;
}

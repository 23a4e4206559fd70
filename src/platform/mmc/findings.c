// SPDX-License-Identifier: MIT
/*
 * What caps an MMC/SD card's throughput, read from its facts: a slower mode
 * than card and host could run, a narrower bus, a worn eMMC, partitions off
 * the erase size.
 */
#include "platform/mmc/mmc.h"
#include "util/strbuf.h"

#include <math.h>
#include <string.h>

#define LIFE_WORN 0x09 /* 90% to 100% of the estimated life used (0x0b: past it) */
#define PRE_EOL_URGENT 0x03

static const struct mmc_card *card_of(const struct mmc_topology *t, const struct mmc_host *h)
{
	size_t i;

	for (i = 0; h->card && i < t->ncard; i++)
		if (!strcmp(t->card[i].name, h->card))
			return &t->card[i];
	return NULL;
}

static bool needs_low_voltage(int timing)
{
	return (timing >= MMC_TIMING_UHS_SDR12 && timing <= MMC_TIMING_UHS_DDR50) ||
	       timing == MMC_TIMING_MMC_HS200 || timing == MMC_TIMING_MMC_HS400 ||
	       timing == MMC_TIMING_MMC_HS400ES;
}

/* the likely reasons the card runs below what it claims */
static void reasons(const struct mmc_host *h, const struct mmc_card *c, struct strbuf *why)
{
	bool sd = c->kind && !strncmp(c->kind, "SD", 2);
	double card_mb_s = mmc_nominal_mb_s(c->card_best, c->card_width ? c->card_width : 4, sd);

	if (h->caps != U64_UNKNOWN && !isnan(h->best_mb_s) && h->best_mb_s < card_mb_s)
		strbuf_addf(why, "the host's caps stop at %s (caps %s); ", h->best_name,
			    h->caps_text && *h->caps_text ? h->caps_text : "none");
	if (needs_low_voltage(c->card_best) && h->ios.signal_mv == 3300)
		strbuf_adds(why, "the bus signals at 3.3 V: the faster modes need 1.8 V signalling "
				 "(a vqmmc regulator the host can switch); ");
	if (h->dt_no_1_8_v)
		strbuf_adds(why, "the device tree says no-1-8-v; ");
	if (h->dt_max_frequency != U64_UNKNOWN &&
	    mmc_clock_mb_s(h->dt_max_frequency, c->card_width ? (unsigned)c->card_width : 4,
			   c->card_best) < card_mb_s)
		strbuf_addf(why, "the device tree caps the clock at max-frequency %g MHz; ",
			    h->dt_max_frequency / 1e6);
	if (why->len > 2 && why->buf[why->len - 2] == ';')
		why->buf[why->len -= 2] = '\0';
}

static void mode_finding(const struct mmc_host *h, const struct mmc_card *c,
			 struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT, why = STRBUF_INIT;
	bool sd = c->kind && !strncmp(c->kind, "SD", 2);
	double card_mb_s, in_use = h->nominal_mb_s;

	if (!h->have_ios || c->card_best == MMC_TIMING_UNKNOWN || isnan(in_use))
		return;
	card_mb_s = mmc_nominal_mb_s(c->card_best, c->card_width ? c->card_width : 4, sd);
	if (!(card_mb_s > in_use * 1.001))
		return;
	reasons(h, c, &why);
	strbuf_addf(&msg, "%s runs %s (%.1f MB/s nominal) but the card claims %s (%.1f MB/s)",
		    c->name, h->timing_name, in_use, c->card_best_name, card_mb_s);
	if (!isnan(h->best_mb_s) && h->best_mb_s > in_use * 1.001)
		strbuf_addf(&msg, "; card and host both list %s (%.1f MB/s)", h->best_name,
			    h->best_mb_s);
	strbuf_addf(&ev, "debugfs %s/ios: timing %s, %u-bit bus, %u mV; card: %s%s%s", h->name,
		    h->timing_name, h->ios.width_bits, h->ios.signal_mv, c->card_best_basis,
		    why.len ? "; likely: " : "", why.buf);
	finding_add(out, FINDING_WARN, "mmc.slower_mode", c->name, msg.buf, ev.buf,
		    "give the host the faster mode's caps in its device tree (sd-uhs-sdr104, "
		    "mmc-hs200-1_8v, mmc-hs400-1_8v, mmc-hs400-enhanced-strobe) and 1.8 V "
		    "signalling (a vqmmc regulator, no no-1-8-v), or use a host that has them");
	strbuf_release(&msg);
	strbuf_release(&ev);
	strbuf_release(&why);
}

static void width_finding(const struct mmc_host *h, const struct mmc_card *c,
			  struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
	unsigned host_w;

	if (!h->have_ios || !h->ios.width_bits || !c->card_width ||
	    h->ios.width_bits >= c->card_width)
		return;
	host_w = h->caps == U64_UNKNOWN	      ? 0
		 : (h->caps & MMC_CAPF_8_BIT) ? 8
		 : (h->caps & MMC_CAPF_4_BIT) ? 4
					      : 1;
	strbuf_addf(&msg, "%s uses a %u-bit bus; the card takes %u bits", c->name,
		    h->ios.width_bits, (unsigned)c->card_width);
	strbuf_addf(&ev, "debugfs %s/ios bus width %u bits; host caps %s", h->name,
		    h->ios.width_bits,
		    host_w ? (host_w == 8   ? "8-bit"
			      : host_w == 4 ? "4-bit"
					    : "1-bit")
			   : "unknown");
	if (h->dt_bus_width != U64_UNKNOWN)
		strbuf_addf(&ev, "; device tree bus-width %llu",
			    (unsigned long long)h->dt_bus_width);
	finding_add(out, FINDING_WARN, "mmc.narrow_bus", c->name, msg.buf, ev.buf,
		    "set bus-width to the card's width in the host's device tree node if the "
		    "board wires all data lines");
	strbuf_release(&msg);
	strbuf_release(&ev);
}

static void wear_finding(const struct mmc_card *c, struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
	bool worn = (c->life_a != FIELD_INT_UNKNOWN && c->life_a >= LIFE_WORN) ||
		    (c->life_b != FIELD_INT_UNKNOWN && c->life_b >= LIFE_WORN);
	bool urgent = c->pre_eol != FIELD_INT_UNKNOWN && c->pre_eol >= PRE_EOL_URGENT;

	if (!worn && !urgent)
		return;
	strbuf_addf(&msg, "%s is worn: %s", c->name,
		    urgent ? "pre-EOL urgent (reserved blocks nearly used up)"
			   : "90% or more of its estimated life is used");
	strbuf_addf(&ev, "life_time type A 0x%02llx, type B 0x%02llx, pre_eol_info 0x%02llx",
		    (unsigned long long)(c->life_a == FIELD_INT_UNKNOWN ? 0 : c->life_a),
		    (unsigned long long)(c->life_b == FIELD_INT_UNKNOWN ? 0 : c->life_b),
		    (unsigned long long)(c->pre_eol == FIELD_INT_UNKNOWN ? 0 : c->pre_eol));
	finding_add(out, FINDING_WARN, "mmc.worn", c->name, msg.buf, ev.buf,
		    "back the data up; a worn eMMC writes slower (more garbage collection) and "
		    "will turn read-only");
	strbuf_release(&msg);
	strbuf_release(&ev);
}

void mmc_findings(const struct mmc_topology *t, struct finding_list *out)
{
	size_t i;

	for (i = 0; i < t->nhost; i++) {
		const struct mmc_card *c = card_of(t, &t->host[i]);

		if (!c)
			continue;
		mode_finding(&t->host[i], c, out);
		width_finding(&t->host[i], c, out);
		wear_finding(c, out);
	}
	for (i = 0; i < t->npart; i++) {
		const struct mmc_part *p = &t->part[i];
		struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;

		if (p->aligned)
			continue;
		strbuf_addf(&msg, "%s starts at %llu B, not a multiple of the %llu B erase size",
			    p->name, (unsigned long long)p->start,
			    (unsigned long long)p->erase_size);
		strbuf_addf(&ev, "/sys/block/%s/%s/start; %s preferred_erase_size", p->disk,
			    p->name, p->card);
		finding_add(out, FINDING_WARN, "mmc.partition_unaligned", p->card, msg.buf, ev.buf,
			    "start partitions on a multiple of the erase size (4 MiB covers most "
			    "cards): writes that straddle erase units cost more");
		strbuf_release(&msg);
		strbuf_release(&ev);
	}
}

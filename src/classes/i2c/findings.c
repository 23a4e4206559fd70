// SPDX-License-Identifier: MIT
/* What the passes of an I2C address say of the adapter, the device and the clock. */
#include "model/findings.h"
#include "classes/i2c/i2c.h"

#include <math.h>
#include <string.h>

/* the pass whose messages carry the most payload: the bus overhead weighs least there */
static const struct i2c_pass *largest(const struct i2c_pass *p, size_t n)
{
	const struct i2c_pass *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (p[i].messages && isfinite(p[i].efficiency_pct) &&
		    (!best || p[i].size > best->size ||
		     (p[i].size == best->size && p[i].efficiency_pct > best->efficiency_pct)))
			best = &p[i];
	return best;
}

void i2c_findings(const char *subject, const struct i2c_pass *p, size_t n, uint64_t clock_hz,
		  const char *clock_from, struct finding_list *out)
{
	struct strbuf msg = STRBUF_INIT, ev = STRBUF_INIT;
	const struct i2c_pass *b;
	uint64_t naks = 0, msgs = 0, errs = 0;
	int bus = 0;

	for (size_t i = 0; i < n; i++) {
		naks += p[i].naks;
		msgs += p[i].messages;
		errs += p[i].errors;
		if (p[i].bus_err)
			bus = p[i].bus_err;
	}
	if (errs) {
		/* the device may well be there: the bus itself failed the transfer */
		strbuf_addf(&msg,
			    "%llu transfers failed with bus errors (the last: %s), not NAKs: the "
			    "bus, not an absent device",
			    (unsigned long long)errs, i2c_err_what(bus));
		strbuf_addf(&ev,
			    "bus errors (EIO, ETIMEDOUT, EAGAIN: arbitration lost, EBUSY) counted "
			    "by pass apart from NAKs; last errno %d; %llu messages went through",
			    -bus, (unsigned long long)msgs);
		finding_add(
		    out, FINDING_WARN, "i2c.bus_errors", subject, msg.buf, ev.buf,
		    "another master on the bus (arbitration), SDA or SCL held low (a device "
		    "stuck mid-byte: the adapter's bus recovery, or a power cycle), or "
		    "clock stretching past the adapter's timeout; look at the lines on a "
		    "logic analyser");
		strbuf_reset(&msg);
		strbuf_reset(&ev);
	}
	if (naks) {
		strbuf_addf(
		    &msg, "the address did not acknowledge %llu times%s", (unsigned long long)naks,
		    msgs ? " among its answers: a device busy (an EEPROM's write cycle), or "
			   "a marginal bus"
			 : ": no device answers there");
		strbuf_addf(&ev,
			    "NAKs (ENXIO/EREMOTEIO/ENODEV) counted by pass; %llu messages "
			    "went through",
			    (unsigned long long)msgs);
		finding_add(
		    out, FINDING_WARN, "i2c.nak", subject, msg.buf, ev.buf,
		    msgs ? "check the pull-ups and the clock against the device's datasheet; "
			   "an EEPROM needs its write cycle (about 5 ms) between writes"
			 : "check the address (i2cdetect) and that the device is powered");
		strbuf_reset(&msg);
		strbuf_reset(&ev);
	}
	if (!clock_hz && msgs) {
		strbuf_adds(&msg, "the bus clock is unknown: the rates have no ceiling to stand "
				  "against");
		finding_add(out, FINDING_INFO, "i2c.clock_unknown", subject, msg.buf,
			    "no of_node/clock-frequency in sysfs for the adapter or its controller",
			    "give --clock HZ (the bus's speed: 100k, 400k, 1M)");
		strbuf_reset(&msg);
	}
	b = largest(p, n);
	if (b && b->efficiency_pct < I2C_BELOW_CEILING_PCT) {
		strbuf_addf(
		    &msg,
		    "%.0f B/s in %llu-byte %s messages, %.0f%% of the %.0f B/s the "
		    "%.0f kHz clock allows: the adapter's driver or the device sets the rate, "
		    "not the bus",
		    b->payload_b_s, (unsigned long long)b->size, b->op, b->efficiency_pct,
		    b->ceiling_b_s, (double)clock_hz / 1e3);
		strbuf_addf(&ev, "%s %llu B: %.1f msg/s, p50 %.0f us; clock from %s", b->op,
			    (unsigned long long)b->size, b->msg_s, b->lat_p50_us,
			    clock_from ? clock_from : "?");
		finding_add(
		    out, FINDING_WARN, "i2c.far_below_ceiling", subject, msg.buf, ev.buf,
		    "look at the gaps between bytes and messages on a logic analyser: clock "
		    "stretching by the device, an adapter driver that polls or takes an "
		    "interrupt per byte, or SMBus emulation splitting messages");
	} else if (b && b->efficiency_pct > 100.0) {
		strbuf_addf(&msg,
			    "%.0f B/s in %llu-byte messages, past the %.0f B/s a %.0f kHz "
			    "clock allows: the clock is not what was said, or the adapter is no "
			    "real bus (i2c-stub)",
			    b->payload_b_s, (unsigned long long)b->size, b->ceiling_b_s,
			    (double)clock_hz / 1e3);
		strbuf_addf(&ev, "%s %llu B: %.1f msg/s; clock from %s", b->op,
			    (unsigned long long)b->size, b->msg_s, clock_from ? clock_from : "?");
		finding_add(out, FINDING_INFO, "i2c.above_ceiling", subject, msg.buf, ev.buf,
			    "give the bus's real clock (--clock), or measure a real adapter");
	}
	strbuf_release(&msg);
	strbuf_release(&ev);
}

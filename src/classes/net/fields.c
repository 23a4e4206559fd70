// SPDX-License-Identifier: MIT
/* The schema of net results: one table per struct drives text, JSON and CSV. */
#include "classes/net/fields.h"

#define T FF_TEXT
#define TO (FF_TEXT | FF_OPTIONAL)
#define R struct net_report

static const struct field test_fields[] = {
	FIELD(R, role, "role", "role", NULL, FT_STR, 0, T),
	FIELD(R, protocol, "protocol", "protocol", NULL, FT_STR, 0, T),
	FIELD(R, direction, "direction", "direction", NULL, FT_STR, 0, T),
	FIELD(R, local, "local", "local", NULL, FT_STR, 0, T),
	FIELD(R, peer, "peer", "peer", NULL, FT_STR, 0, T),
	FIELD(R, peer_version, "peer_version", "peer version", NULL, FT_STR, 0, T),
	FIELD(R, cookie, "cookie", "cookie", NULL, FT_STR, 0, 0),
	FIELD(R, streams, "streams", "streams", NULL, FT_U64, 0, T),
	FIELD(R, len, "block_bytes", "block length", NULL, FT_SIZE, 0, T),
	FIELD(R, window, "window_bytes", "window", NULL, FT_SIZE, 0, TO),
	FIELD(R, rate_mbit_s, "target_mbit_s", "target rate", "Mbit/s per stream", FT_DBL, 3, TO),
	FIELD(R, time_s, "time_s", "duration", "s", FT_U64, 0, TO),
	FIELD(R, bytes_limit, "bytes_limit", "bytes", NULL, FT_U64, 0, TO),
	FIELD(R, blocks_limit, "blocks_limit", "blocks", NULL, FT_U64, 0, TO),
	FIELD(R, omit_s, "omit_s", "omitted", "s", FT_U64, 0, T),
	FIELD(R, seconds, "seconds", "measured", "s", FT_DBL, 3, TO),
	FIELD(R, iface, "iface", "interface", NULL, FT_STR, 0, T),
	FIELD(R, bind_dev, "bind_dev", "bound to", NULL, FT_STR, 0, T),
	FIELD(R, mtu, "mtu", "MTU", NULL, FT_U64, 0, TO),
	FIELD(R, congestion, "congestion", "congestion", NULL, FT_STR, 0, 0),
	FIELD(R, peer_congestion, "peer_congestion", "peer congestion", NULL, FT_STR, 0, 0),
	FIELD(R, cpu_total, "cpu_pct", "CPU here", UNIT_PCT_ONE_CPU, FT_DBL, 1, TO),
	FIELD(R, cpu_user, "cpu_user_pct", "user", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(R, cpu_sys, "cpu_sys_pct", "system", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(R, peer_cpu_total, "peer_cpu_pct", "CPU peer", UNIT_PCT_ONE_CPU, FT_DBL, 1, TO),
	FIELD(R, peer_cpu_user, "peer_cpu_user_pct", "peer user", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	FIELD(R, peer_cpu_sys, "peer_cpu_sys_pct", "peer system", UNIT_PCT_ONE_CPU, FT_DBL, 1, 0),
	PASS_SYS_FIELDS(R, sys),
	FIELD(R, on_usb, "on_usb", "on USB", NULL, FT_BOOL, 0, 0),
	FIELD(R, usb.device, "usb_device", "USB device", NULL, FT_STR, 0, T),
	FIELD(R, usb.vid_pid, "usb_id", "USB id", NULL, FT_STR, 0, T),
	FIELD(R, usb.product, "usb_product", "USB product", NULL, FT_STR, 0, T),
	FIELD(R, usb.driver, "usb_driver", "USB driver", NULL, FT_STR, 0, T),
	FIELD(R, usb.speed_name, "usb_speed", "USB speed", NULL, FT_STR, 0, T),
	FIELD(R, usb.ceiling_mb_s, "usb_bulk_ceiling_mb_s", "bulk ceiling", "MB/s", FT_DBL, 1, TO),
	FIELD(R, usb.ceiling_basis, "usb_ceiling_basis", "ceiling basis", NULL, FT_STR, 0, T),
	FIELD(R, framing, "usb_framing", "framing", NULL, FT_STR, 0, T),
	FIELD(R, frame_tx_bytes, "usb_frame_tx_bytes", "bus bytes/frame tx", "B", FT_DBL, 1, TO),
	FIELD(R, frame_rx_bytes, "usb_frame_rx_bytes", "bus bytes/frame rx", "B", FT_DBL, 1, TO),
	FIELD(R, ceiling_tx_mbit_s, "usb_goodput_ceiling_tx_mbit_s", "goodput ceiling tx",
	      "Mbit/s", FT_DBL, 1, TO),
	FIELD(R, ceiling_rx_mbit_s, "usb_goodput_ceiling_rx_mbit_s", "goodput ceiling rx",
	      "Mbit/s", FT_DBL, 1, TO),
	/* --monitor: the USB device on usbmon */
	FIELD(R, monitored, "monitored", "monitored", NULL, FT_BOOL, 0, 0),
	FIELD(R, monitor_why, "not_monitored", "not monitored", NULL, FT_STR, 0, TO),
	FIELD(R, wire_mb_s, "wire_mb_s", "wire", "MB/s both ways", FT_DBL, 2, TO),
	FIELD(R, wire_bytes, "wire_bytes", "wire bytes", NULL, FT_U64, 0, 0),
	FIELD(R, payload_bytes, "payload_bytes", "payload bytes", NULL, FT_U64, 0, 0),
	FIELD(R, overhead_pct, "overhead_pct", "wire overhead", "% not payload", FT_DBL, 1, TO),
	FIELD(R, urb_size, "urb_size", "URB size", NULL, FT_SIZE, 0, TO),
	FIELD(R, usb_errors, "usb_errors", "USB errors", NULL, FT_U64, 0, TO),
	FIELD(R, wire_dropped, "wire_dropped", "usbmon dropped", NULL, FT_U64, 0, 0),
	FIELD(R, error_msg, "error", "error", NULL, FT_STR, 0, T),
	FIELD(R, interrupted, "interrupted", "interrupted", NULL, FT_BOOL, 0, 0),
};
#undef R

#define S struct net_sum_row
static const struct field sum_fields[] = {
	FIELD(S, dir, "dir", "dir", NULL, FT_STR, 0, T),
	FIELD(S, stream, "stream", "stream", NULL, FT_STR, 0, T),
	FIELD(S, role, "role", "role", NULL, FT_STR, 0, T),
	FIELD(S, by, "counted_by", "by", NULL, FT_STR, 0, T),
	FIELD(S, bytes, "bytes", "bytes", NULL, FT_U64, 0, T),
	FIELD(S, seconds, "seconds", "time", "s", FT_DBL, 3, T),
	FIELD(S, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 2, T),
	FIELD(S, mbit_s, "mbit_s", "rate", "Mbit/s", FT_DBL, 1, T),
	FIELD(S, retransmits, "retransmits", "retr", NULL, FT_INT, 0, TO),
	FIELD(S, jitter_ms, "jitter_ms", "jitter", "ms", FT_DBL, 3, TO),
	FIELD(S, lost, "lost", "lost", NULL, FT_INT, 0, TO),
	FIELD(S, packets, "packets", "packets", NULL, FT_INT, 0, TO),
	FIELD(S, loss_pct, "loss_pct", "loss", "%", FT_DBL, 2, TO),
	FIELD(S, ooo, "out_of_order", "ooo", NULL, FT_INT, 0, TO),
	FIELD(S, ceiling_mbit_s, "usb_ceiling_mbit_s", "ceiling", "Mbit/s", FT_DBL, 1, TO),
	FIELD(S, efficiency_pct, "usb_efficiency_pct", "of ceil", "%", FT_DBL, 0, TO | FF_CEILING_SHARE),
};
#undef S

#define I struct net_interval_row
static const struct field interval_fields[] = {
	FIELD(I, start_s, "start_s", "from", "s", FT_DBL, 2, T),
	FIELD(I, end_s, "end_s", "to", "s", FT_DBL, 2, T),
	FIELD(I, dir, "dir", "dir", NULL, FT_STR, 0, T),
	FIELD(I, stream, "stream", "stream", NULL, FT_STR, 0, T),
	FIELD(I, omitted, "omitted", "omitted", NULL, FT_BOOL, 0, T),
	FIELD(I, bytes, "bytes", "bytes", NULL, FT_U64, 0, 0),
	FIELD(I, seconds, "seconds", "time", "s", FT_DBL, 3, 0),
	FIELD(I, mb_s, "mb_s", "rate", "MB/s", FT_DBL, 2, T | FF_BAR),
	FIELD(I, mbit_s, "mbit_s", "rate", "Mbit/s", FT_DBL, 1, T),
	FIELD(I, retransmits, "retransmits", "retr", NULL, FT_INT, 0, TO),
	FIELD(I, jitter_ms, "jitter_ms", "jitter", "ms", FT_DBL, 3, TO),
	FIELD(I, lost, "lost", "lost", NULL, FT_INT, 0, TO),
	FIELD(I, packets, "packets", "packets", NULL, FT_INT, 0, TO),
	FIELD(I, loss_pct, "loss_pct", "loss", "%", FT_DBL, 2, TO),
	FIELD(I, ooo, "out_of_order", "ooo", NULL, FT_INT, 0, TO),
};
#undef I

const struct record_desc net_test_desc = RECORD_DESC("net_test", test_fields);
const struct record_desc net_sum_desc = RECORD_DESC("net_result", sum_fields);
const struct record_desc net_interval_desc = RECORD_DESC("net_interval", interval_fields);

void net_report_describe(const struct net_report *rep, bool intervals, struct report *out)
{
	report_add_object(out, "test", NULL, &net_test_desc, rep);
	report_add_table(out, "results", "totals (MB/s = 10^6 B/s, Mbit/s = 10^6 bit/s)",
			 &net_sum_desc, rep->rows, rep->nrows, sizeof(*rep->rows));
	if (intervals && rep->interval_s > 0)
		report_add_table(out, "intervals", "intervals", &net_interval_desc, rep->intervals,
				 rep->nintervals, sizeof(*rep->intervals));
	out->warnings = rep->warnings;
	out->nwarnings = rep->nwarnings;
}

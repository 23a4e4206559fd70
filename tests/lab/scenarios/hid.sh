# Scenario hid: a configfs HID gadget (usb_f_hid, a vendor report descriptor
# with 64-byte input and output reports) on dummy_hcd at high speed, and the
# host side in the same kernel through usbhid/hidraw. The gadget side of
# usbperf hid feeds, echoes and receives; the host side measures.
# Truths: the reports received equal the reports sent, both ways, and the
# rate never passes one report per bInterval service period.
MODULES="configfs dummy_hcd libcomposite usb_f_hid usbhid hid_generic"

qemu_args() { :; }

check() {
	local o=$1 P='.passes[0]'
	rc() { cat "$o/$1.rc" 2>/dev/null || echo missing; }
	rc_is() { # rc_is NAME STATUS DESCRIPTION
		if [ "$(rc "$1")" = "$2" ]; then ok "$SCEN: $3 (exit $2)"
		else bad "$SCEN: $3: exit $(rc "$1"), expected $2; stderr: $(head -c 300 "$o/$1.err" 2>/dev/null)"; fi
	}
	says() { # says NAME REGEX DESCRIPTION: the one stderr line matches
		if [ "$(wc -l <"$o/$1.err" 2>/dev/null)" = 1 ] && grep -Eq "$2" "$o/$1.err"; then ok "$SCEN: $3"
		else bad "$SCEN: $3: stderr '$(head -c 300 "$o/$1.err" 2>/dev/null)'"; fi
	}
	for n in in send latency echo out receive; do rc_is "$n" 0 "$n ran"; done
	# the device as the host sees it, from the descriptors
	jq_check "$o/in.json" '.device.speed == "high" and .device.driver == "usbhid" and .device.id == "1d6b:0104"' "hidraw on a high-speed USB interface bound to usbhid"
	jq_check "$o/in.json" '.device.input_report_bytes == 64 and .device.output_report_bytes == 64' "report sizes from the report descriptor: 64 B in, 64 B out"
	jq_check "$o/in.json" '.device.in_max_packet_bytes == 64 and .device.out_path == "interrupt OUT"' "f_hid's interrupt endpoints: wMaxPacketSize = report_length, an OUT endpoint"
	jq_check "$o/in.json" '.device.in_period_us == 125 * pow(2; .device.in_interval - 1) and (.device.in_ceiling_reports_per_s | round) == (1e6 / .device.in_period_us | round)' "the IN ceiling: one report per 2^(bInterval-1) x 125 us"
	# IN: the count received equals the count sent, never faster than bInterval allows
	jq_check "$o/send.json" "$P.reports == $HID_COUNT and $P.ended_by == \"count\"" "gadget --send wrote $HID_COUNT reports"
	jq_check "$o/in.json" "$P.reports == $HID_COUNT" "the host read as many reports as the gadget sent ($HID_COUNT)"
	jq_check "$o/in.json" "$P.reports_per_s > 0 and $P.reports_per_s <= $P.ceiling_reports_per_s * 1.01" "IN rate within one report per bInterval"
	jq_check "$o/in.json" "$P.p50_us >= $P.period_us * 0.99" "inter-arrival p50 not below the service period"
	# OUT through the interrupt OUT endpoint, counted on the gadget side
	jq_check "$o/out.json" "$P.reports == $HID_COUNT and $P.path == \"interrupt OUT\"" "host --out wrote $HID_COUNT reports through the interrupt OUT endpoint"
	jq_check "$o/receive.json" "$P.reports == $HID_COUNT" "the gadget received as many ($HID_COUNT)"
	jq_check "$o/out.json" "$P.reports_per_s <= $P.ceiling_reports_per_s * 1.01" "OUT rate within one report per bInterval"
	# round trip: every report echoed, none lost, a round trip at least one period
	jq_check "$o/latency.json" "$P.reports == $HID_ECHO and $P.lost == 0" "latency: $HID_ECHO round trips, none lost"
	jq_check "$o/echo.json" "$P.reports == $HID_ECHO" "gadget --echo answered $HID_ECHO reports"
	jq_check "$o/latency.json" "$P.p50_us > 0 and $P.p50_us <= $P.p99_us and $P.p99_us <= $P.max_us" "round trip p50 <= p99 <= max"
	# bad input: one line, exit 2
	rc_is not-hidraw 2 "a gadget node given as the host DEVICE"
	says not-hidraw "is not a hidraw node" "not-hidraw: says why"
	rc_is busy 2 "a hidraw node another usbperf holds"
	says busy "busy" "busy: says why"
	rc_is missing 2 "a missing node"
}
HID_COUNT=1000
HID_ECHO=200

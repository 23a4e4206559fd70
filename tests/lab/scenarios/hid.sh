# Scenario hid: a configfs HID gadget (usb_f_hid, a vendor report descriptor
# with 64-byte input and output reports) on dummy_hcd at high speed, and the
# host side in the same kernel through usbhid/hidraw. The gadget side of
# usbperf hid feeds, echoes and receives; the host side measures.
# Truths: the reports received equal the reports sent, both ways. The
# rate: dummy_hcd does not keep bInterval for interrupt transfers (its
# dummy_timer: "FIXME is it urb->interval since the last xfer? this almost
# certainly polls too fast"); it moves at most one packet per endpoint per
# timer run, a 125 us microframe or longer, and a report here needs a user
# process on one side between packets: never more than 8000 reports/s. The
# descriptor's ceiling (Linux 6.1's f_hid: bInterval 4 at high speed, 1 ms,
# 1000 reports/s; it has no interval attribute) is what usbperf reports, and
# a rate above it must come with the hid.above_ceiling finding.
MODULES="configfs dummy_hcd libcomposite usb_f_hid usbhid hid_generic usbmon"
LAB_TOOLS="tshark:tshark"

qemu_args() { :; }

check() {
	local o=$1 P='.passes[0]'
	for n in in send latency echo out receive fs-in fs-send fs-out fs-receive fs-latency fs-echo; do rc_is "$n" 0 "$n ran"; done
	# the device as the host sees it, from the descriptors
	jq_check "$o/in.json" '.device.speed == "high" and .device.driver == "usbhid" and .device.vid_pid == "1d6b:0104"' "hidraw on a high-speed USB interface bound to usbhid"
	jq_check "$o/in.json" '.device.input_report_bytes == 64 and .device.output_report_bytes == 64' "report sizes from the report descriptor: 64 B in, 64 B out"
	jq_check "$o/in.json" '.device.in_max_packet_bytes == 64 and .device.out_path == "interrupt OUT"' "f_hid's interrupt endpoints: wMaxPacketSize = report_length, an OUT endpoint"
	jq_check "$o/in.json" '.device.in_period_us == 125 * pow(2; .device.in_interval - 1) and (.device.in_ceiling_reports_per_s | round) == (1e6 / .device.in_period_us | round)' "the IN ceiling: one report per 2^(bInterval-1) x 125 us"
	# IN: the count received equals the count sent, never faster than bInterval allows
	jq_check "$o/send.json" "$P.reports == $HID_COUNT and $P.ended_by == \"count\"" "gadget --send wrote $HID_COUNT reports"
	jq_check "$o/send.json" "($P.ceiling_reports_per_s | round) == 1000" "gadget --send: next to the 1000/s f_hid's bInterval 4 allows at high speed"
	# a reader behind on a busy CPU loses reports in hidraw's queue: counted, and a finding
	jq_check "$o/in.json" "$P.reports + $P.unread == $HID_COUNT and ($P.unread > 0) == ([.findings[] | select(.id == \"hid.reports_unread\")] | length == 1)" "the host read as many reports as the gadget sent ($HID_COUNT), or counts those it did not read, with the finding"
	jq -r "$P | select(.unread > 0) | \"    in: \(.unread) reports not read (reader behind)\"" "$o/in.json" 2>/dev/null
	check_stalled "$o"
	jq_check "$o/in.json" "$P.urb_size_bytes == .device.input_report_bytes and $P.urbs >= $P.reports and $P.usb_errors == 0 and $P.busy_pct > 0 and $P.busy_pct <= 100 and ([.warnings[]?] | length) == 0" "hid --monitor: the interrupt URBs are the 64 B reports, at least one per report, no USB error"
	jq_check "$o/in.json" "$P.reports_per_s > 0 and $P.reports_per_s <= 8000" "IN rate within dummy_hcd's one packet per 125 us"
	check_empty_urbs "$o"
	for n in in out; do
		jq_check "$o/$n.json" "($P.reports_per_s > $P.ceiling_reports_per_s * 1.02 and ($P.unread // 0) == 0) == ([.findings[] | select(.id == \"hid.above_ceiling\")] | length > 0)" "$n: a rate above the descriptor's ceiling, and only then, is a finding (not when the reader fell behind)"
	done
	# OUT through the interrupt OUT endpoint, counted on the gadget side
	jq_check "$o/out.json" "$P.reports == $HID_COUNT and $P.path == \"interrupt OUT\"" "host --out wrote $HID_COUNT reports through the interrupt OUT endpoint"
	jq_check "$o/receive.json" "$P.reports == $HID_COUNT" "the gadget received as many ($HID_COUNT)"
	jq_check "$o/out.json" "$P.reports_per_s > 0 and $P.reports_per_s <= 8000" "OUT rate within dummy_hcd's one packet per 125 us"
	# round trip: every report echoed, none lost, a round trip at least one period
	jq_check "$o/latency.json" "$P.reports == $HID_ECHO and $P.lost == 0" "latency: $HID_ECHO round trips, none lost"
	jq_check "$o/echo.json" "$P.reports == $HID_ECHO" "gadget --echo answered $HID_ECHO reports"
	jq_check "$o/latency.json" "$P.p50_us > 0 and $P.p50_us <= $P.p99_us and $P.p99_us <= $P.max_us" "round trip p50 <= p99 <= max"
	# full speed, no OUT endpoint (no_out_endpoint 1), found by VID:PID
	jq_check "$o/fs-in.json" '.device.speed == "full" and .device.vid_pid == "1d6b:0105" and .device.out_path == "SET_REPORT (control)" and .device.out_endpoint == null' "full-speed gadget by VID:PID: no OUT endpoint"
	jq_check "$o/fs-in.json" '.device.in_period_us == 1000 * .device.in_interval and (.device.in_ceiling_reports_per_s | round) == (1e6 / .device.in_period_us | round)' "full-speed IN ceiling: one report per bInterval ms"
	jq_check "$o/fs-in.json" "$P.reports == 100 and ([.findings[] | select(.id == \"hid.full_speed\")] | length == 1)" "full speed: 100 reports received, the full-speed finding"
	jq_check "$o/fs-send.json" "$P.reports == 100" "full speed: the gadget sent 100"
	jq_check "$o/fs-out.json" "$P.reports == 100 and $P.path == \"SET_REPORT\" and $P.ceiling_reports_per_s == null" "OUT without an endpoint: 100 reports as SET_REPORT, no interrupt ceiling"
	# f_hid keeps one SET_REPORT (set_report_buf): one not read before the next is replaced
	jq_check "$o/fs-receive.json" "$P.reports > 0 and $P.reports <= 100" "the gadget received at most the 100 SET_REPORTs (f_hid keeps one)"
	jq_check "$o/fs-receive.json" '.warnings | length == 1 and (.[0] | test("keeps one SET_REPORT"))' "the gadget side says so"
	jq_check "$o/receive.json" '.warnings | length == 0' "no such warning with an OUT endpoint"
	# one at a time, each echoed: none replaced, none lost
	jq_check "$o/fs-latency.json" "$P.reports == 50 and $P.lost == 0 and $P.path == \"SET_REPORT, IN\"" "SET_REPORT round trips: 50, none lost"
	jq_check "$o/fs-echo.json" "$P.reports == 50" "the gadget echoed 50 SET_REPORTs"
	# bad input: one line, exit 2
	rc_is not-hidraw 2 "a gadget node given as the host DEVICE"
	says not-hidraw "is not a hidraw node" "not-hidraw: says why"
	rc_is busy 2 "a hidraw node another usbperf holds"
	says busy "busy" "busy: says why"
	rc_is missing 2 "a missing node"
	# run on the hidraw node while the gadget sends: HID as one of run's classes
	rc_is run 0 "run on the hidraw node"
	jq_check "$o/run.json" '[.plan[] | .kind] == ["usb-hid"] and ([.metrics[] | select(.test == "hid" and .metric == "reports_per_s")] | length == 1)' "run: the HID device measured, its reports/s recorded"
	jq_check "$o/run.json" '[.metrics[] | select(.metric == "reports_per_s")][0] | .value > 0 and (.ceiling | round) == 1000' "run: reports/s next to the endpoint's 1000/s (bInterval 4 at high speed)"
	jq_check "$o/run.json" '.verdicts[0].limiter as $l | ([.metrics[] | select(.metric == "reports_per_s")][0] | 100 * .value / .ceiling) as $p | if $p > 100 then $l == "emulation" elif $p >= 90 then $l == "bus" else $l == "device" end' "run: the verdict follows the share of the endpoint's rate"
	check_gadget_run "$o"
}
HID_COUNT=1000

# Two interrupt-IN completions per report: f_hid queues each report with its
# request's zero flag set, a 64 B report fills the 64 B packet, so a zero-length
# packet follows it; usbhid's resubmitted URB completes on it with no byte and
# status 0. The pass says so (URBs with data, empty ones), and the recorded
# capture, read by tshark, shows the strict alternation.
check_empty_urbs() {
	local o=$1 P='.passes[0]' seq
	jq_check "$o/in.json" "$P.urbs_data == $P.reports + $P.unread and $P.urbs_empty == $P.urbs_data and $P.urbs == $P.urbs_data + $P.urbs_empty" "hid --monitor: $HID_COUNT URBs with a report, as many empty ones (the zero-length packet after each full-packet report), nothing else"
	jq_check "$o/mon-hid.json" "[.endpoints[] | select(.endpoint == \"0x81\")][0] | .empty == $HID_COUNT and .bytes == $HID_COUNT * 64 and .err_enoent == 1 and .urbs == 2 * $HID_COUNT + 1" "monitor: on 0x81 $HID_COUNT empty completions beside the $HID_COUNT reports, one unlink (the host closing hidraw)"
	# each completion as length/status; every report, then its zero-length packet
	seq=$(tshark -r "$o/hid-in.pcapng" -Y 'usb.urb_type == 0x43 && usb.endpoint_address == 0x81' \
		-T fields -e usb.urb_len -e usb.urb_status 2>/dev/null | tr '\t\n' '/ ')
	[ "$seq" = "$(printf '64/0 0/0 %.0s' $(seq $HID_COUNT))0/-2 " ] &&
		ok "$SCEN: tshark: on 0x81, 64 B then 0 B (status 0), $HID_COUNT times, then the unlink" ||
		bad "$SCEN: tshark: completions on 0x81 are not report, zero-length packet, ...: $(echo "$seq" | tr ' ' '\n' | sort | uniq -c | tr '\n' ' ')"
}
HID_ECHO=200

# the reader stopped (SIGSTOP) while the gadget sends $HID_COUNT: the wire carries
# them all, hidraw keeps 63 and drops the rest, and usbperf says so
check_stalled() {
	local o=$1 P='.passes[0]'
	rc_is in-stalled 0 "a reader stopped while the gadget sends: still a pass"
	jq_check "$o/in-stalled.json" "$P.urbs_data == $HID_COUNT and $P.reports <= 63 and $P.reports + $P.unread == $HID_COUNT" "stopped reader: the wire carried $HID_COUNT, it read at most hidraw's 63, the rest counted unread"
	jq_check "$o/in-stalled.json" "[.findings[] | select(.id == \"hid.reports_unread\") | .message | test(\"^\\\\d+ of the $HID_COUNT reports the host received were not read: \")] == [true]" "stopped reader: the hid.reports_unread finding, with the counts"
	jq_check "$o/in-stalled.json" "[.findings[] | select(.id == \"hid.above_ceiling\" or .id == \"hid.poll_slower\")] == []" "stopped reader: its burst of queued reads is not taken for the link's pace"
}

# usbperf run on the gadget side (the device side's class), appended to check()
check_gadget_run() {
	local o=$1
	rc_is grun 0 "run on the gadget node /dev/hidg0 while the host reads"
	jq_check "$o/grun.json" '[.plan[] | .kind] == ["usb-gadget-hid"] and ([.metrics[] | select(.test == "gadget" and .metric == "reports_per_s")] | length == 1)' "run (gadget side): the HID function fed, its reports/s recorded"
	jq_check "$o/grun.json" '[.metrics[] | select(.test == "gadget" and .metric == "reports_per_s")][0] | .value > 0 and .value <= 8000 and (.ceiling | round) == 1000 and .name == "hid.0 send"' "run (gadget side): reports/s within dummy_hcd's 8000/s, next to f_hid's 1000/s"
	jq_check "$o/grun.json" '.devices[] | select(.device == "udc:dummy_udc.0") | .speed == "high" and .vid_pid == "1d6b:0104" and .driver == "f_hid" and .controller == "dummy_udc.0"' "run (gadget side): the device is the UDC, at high speed, the gadget's VID:PID"
	jq_check "$o/grun.json" '.verdicts[0].limiter as $l | ([.metrics[] | select(.metric == "reports_per_s")][0] | 100 * .value / .ceiling) as $p | if $p > 100 then $l == "emulation" elif $p >= 90 then $l == "bus" else $l == "host controller" end' "run (gadget side): the verdict follows the share of f_hid's rate"
	rc_is grun-idle 3 "run on the gadget node with no host reading: nothing could be measured"
	jq_check "$o/grun-idle.json" '([.metrics[] | select(.test == "gadget")] | length == 0) and ([.unmeasured[] | select(.name == "/dev/hidg0") | .why | test("took no report stream")] == [true])' "run (gadget side), no host reading: listed with why, no rate of zero"
	grep -E 'hidg|reports/s|verdict|limit' "$o/grun.txt" | head -8 | sed 's/^/    grun: /'
}

# Scenario bulk: usbperf bulk against the kernel's own software USB loop.
# SourceSink gadgets at SuperSpeed and high speed and a Loopback gadget on
# dummy_hcd, bound on the host side by usbtest; usbperf bulk detaches
# usbtest, sweeps transfer sizes and depths, and gives the interface back.
# The truths: no figure above the link's bulk ceiling, nor above what
# dummy_hcd moves per timer round (below), and usbtest holds every interface
# again afterwards, also after a busy refusal and a SIGINT.
MODULES="configfs dummy_hcd libcomposite usb_f_ss_lb usbtest xhci_pci usbmon"
# host side: QEMU (its usb-audio device) and the lab's own tools, nothing more
LAB_TOOLS=""

# Isochronous: dummy_hcd has none, so QEMU's USB audio device (its AudioStreaming
# interface's alt 1 has an isochronous OUT endpoint; no snd-usb-audio in the
# guest, so the interface is free) on an emulated xHCI. QEMU, not the kernel,
# paces its frames: the lab checks that usbperf finds the endpoint, counts
# packets and errors and holds the rate against the endpoint's ceiling, not
# the rate itself.
qemu_args() { echo -audiodev none,id=snd0 -device qemu-xhci,id=xhci -device usb-audio,bus=xhci.0,audiodev=snd0; }

# dummy_hcd's allowance, drivers/usb/gadget/udc/dummy_hcd.c, dummy_timer():
#   case USB_SPEED_HIGH:  total = 512/*bytes*/ * 13/*packets*/ * 8/*uframes*/;  -> 53248 B
#   case USB_SPEED_SUPER: total = 490000;   ("Bus speed is 500000 bytes/ms, so use a little less")
# shared by every bulk URB of the bus in one round of the timer. v6.1 re-armed the round
# with mod_timer(&dum_hcd->timer, jiffies + msecs_to_jiffies(1)): one round per 1 ms frame
# at most, 53.248 MB/s at high speed, 490 MB/s at SuperSpeed, the issue's arithmetic.
# Debian's 6.1.0-57 carries the stable backports "usb: gadget: dummy_hcd: Switch to hrtimer
# transfer scheduler" and "Set transfer interval to 1 microframe" (its changelog; the
# module imports hrtimer_start_range_ns): the round is re-armed with
#   hrtimer_start(&dum_hcd->timer, ns_to_ktime(DUMMY_TIMER_INT_NSECS), HRTIMER_MODE_REL_SOFT)
#   #define DUMMY_TIMER_INT_NSECS 125000 /* 1 microframe */
# so the same total moves every 125 us at most: 8000 rounds/s, 425.984 MB/s at high speed
# (8 x the link's 53.248) and 3920 MB/s at SuperSpeed. That is the bound checked below; at
# high speed it is above the link's ceiling, and usbperf must say so when a figure passes it.
DUMMY_HS_BYTES=$((512 * 13 * 8))	# 53248 B per round
DUMMY_SS_BYTES=490000
DUMMY_ROUNDS=$((1000000000 / 125000))	# rounds per second: 8000

check() {
	local w=$1/wire.json
	# bulk --monitor: the wire's URBs are the transfers (64K), queued as deep as asked
	jq_check "$w" '(.points | length) == 4 and all(.points[]; .urb_size_bytes == 65536 and .usb_errors == 0 and (.wire_mb_s >= .mb_s or .wire_dropped > 0) and .busy_pct > 0 and .busy_pct <= 100)' "bulk --monitor: each point's URBs are its 64K transfers, wire MB/s >= its rate, no USB error"
	jq -r '.points[] | "    figure  wire \(.name): \(.transfers) transfers, \(.wire_urbs) URBs of 64K on the wire, \(.wire_dropped) events dropped; \(.mb_s) MB/s, wire \(.wire_mb_s)"' "$w" 2>/dev/null
	jq_check "$w" '[.points[] | select(.depth == 1) | .inflight_mean <= 1.01] + [.points[] | select(.depth == 8) | .inflight_mean > 1] | all' "bulk --monitor: at depth 1 at most one URB in flight, at depth 8 more than one"
	local o=$1 f
	local before
	before=$(cat "$o/bound-before.txt" 2>/dev/null)
	if [ "$(echo "$before" | wc -w)" = 3 ]; then ok "$SCEN: usbtest holds the three gadgets' interfaces ($before)"
	else bad "$SCEN: usbtest holds '$before' before, expected three interfaces"; fi
	back() { # back NAME: usbtest holds the same interfaces after NAME
		if [ "$(cat "$o/$1.bound" 2>/dev/null)" = "$before" ]; then ok "$SCEN: $1: usbtest has every interface back"
		else bad "$SCEN: $1: usbtest holds '$(cat "$o/$1.bound" 2>/dev/null)' after, '$before' before"; fi
	}
	# the sweeps: every point measured or its skip said, figures under both ceilings
	for f in ss hs; do
		local speed bytes link
		[ $f = ss ] && speed=super bytes=$DUMMY_SS_BYTES link=484.8 || speed=high bytes=$DUMMY_HS_BYTES link=53.2
		rc_is $f 0 "$f: IN and OUT sweep, sizes 4K 64K 1M x depth 1 8 32"
		back $f
		jq_check "$o/$f.json" ".device.speed == \"$speed\" and .device.vid_pid == \"0525:a4a0\" and .device.driver_detached == \"usbtest\" and .device.driver_reattached == true" "$f: the $speed-speed SourceSink, usbtest detached and reattached"
		jq_check "$o/$f.json" "(.points | length) + ([.warnings[] | select(test(\"skipped: .*usbfs_memory_mb=\"))] | length) == 18" "$f: 18 points, each measured or its skip (usbfs_memory_mb) said"
		jq_check "$o/$f.json" "all(.points[]; .mb_s > 0 and .transfers > 0 and .seconds >= 0.3)" "$f: every point moved data for its time"
		jq_check "$o/$f.json" "all(.points[]; (.ceiling_mb_s | floor) == ($link | floor) and (if .share_pct_anomaly then .share_pct == null and .mb_s > .ceiling_mb_s else (.share_pct - 100 * .mb_s / .ceiling_mb_s | fabs) < 0.01 end))" "$f: each figure next to the link's bulk ceiling ($link MB/s), share = figure / ceiling, or above it an anomaly (no share)"
		jq_check "$o/$f.json" "all(.points[]; .mb_s <= $bytes * $DUMMY_ROUNDS / 1e6 * 1.01)" "$f: every figure below dummy_hcd's $bytes B per 125 us round ($(awk "BEGIN { print $bytes * $DUMMY_ROUNDS / 1e6 }") MB/s)"
		jq_check "$o/$f.json" '[.points[] | select(.share_pct_anomaly) | .name] as $p | [.warnings[] | select(test("anomaly: .* above the [a-z]+-speed bulk ceiling .*no real link")) | split(":")[0]] == $p' "$f: every figure past the link's ceiling said in a warning, no other"
	done
	for f in ssboth hsboth; do
		local bytes
		[ $f = ssboth ] && bytes=$DUMMY_SS_BYTES || bytes=$DUMMY_HS_BYTES
		rc_is $f 0 "$f: IN and OUT at once"
		back $f
		# one allowance per round for the whole bus, both directions together
		jq_check "$o/$f.json" "all(.points[]; .dir == \"both\" and .in_mb_s > 0 and .out_mb_s > 0 and (.mb_s - .in_mb_s - .out_mb_s | fabs) < 0.01 and .mb_s <= $bytes * $DUMMY_ROUNDS / 1e6 * 1.01)" "$f: both directions move, their sum under dummy_hcd's allowance for the bus"
	done
	jq_check "$o/ss.json" 'all(.points[]; .mb_s <= .ceiling_mb_s)' "ss: no SuperSpeed figure past the link's ceiling (484.8 MB/s)"
	jq_check "$o/ssboth.json" '.points[0].ceiling_mb_s > 969 and .points[0].ceiling_mb_s < 970' "ssboth: SuperSpeed's ceiling both ways is twice one way (dual simplex)"
	jq_check "$o/hsboth.json" '(.points[0].ceiling_mb_s | floor) == 53' "hsboth: high speed's one bus shared both ways"
	rc_is loop 0 "Loopback: OUT looped back IN"
	back loop
	jq_check "$o/loop.json" 'all(.points[]; .in_mb_s > 0 and .out_mb_s > 0 and .in_mb_s <= .out_mb_s * 1.05 + 0.1)' "Loopback: what comes IN was sent OUT first (IN <= OUT)"
	rc_is loopin 0 "Loopback, IN alone"
	jq_check "$o/loopin.json" '.points[0].transfers == 0 and .points[0].mb_s == 0 and any(.warnings[]; test("^in-4K-q1: no transfer completed .*--dir both"))' "Loopback, IN alone: nothing comes back, and the why is said"
	back loopin
	rc_is default 0 "no DEVICE: the SourceSink gadget found by 0525:a4a0"
	jq_check "$o/default.json" '.device.vid_pid == "0525:a4a0" and (.points | length) == 1' "no DEVICE: 0525:a4a0 measured"
	back default
	rc_is bynode 0 "the device named by its usbfs node"
	jq_check "$o/bynode.json" '.device.speed == "high" and .points[0].dir == "out"' "usbfs node: the high-speed gadget"
	rc_is text 0 "text output"
	if grep -q "^points (MB/s = 10^6 B/s)" "$o/text.txt" && grep -q "driver detached *usbtest" "$o/text.txt" &&
		[ "$(grep -cE '^ *(in|out|both)-64K-q8 ' "$o/text.txt")" = 3 ]; then ok "$SCEN: text: the device, usbtest detached, a row per direction"
	else bad "$SCEN: text output: $(head -c 400 "$o/text.txt")"; fi
	# bad input: one line, exit 2, usbtest untouched
	rc_is nodev 2 "no such device"
	says nodev "no USB device 1234:5678" "no such device: one line"
	rc_is noiface 2 "an interface without bulk endpoints"
	says noiface "interface 3 has no bulk IN\+OUT endpoints" "no bulk endpoints: one line"
	back noiface
	rc_is noiso 2 "--iso where dummy_hcd offers no isochronous endpoints (SourceSink drops its alt 1)"
	says noiso "no interface has isochronous endpoints" "no iso alt setting: one line"
	# isochronous OUT through QEMU's USB audio device
	rc_is iso 0 "iso OUT to QEMU's usb-audio"
	jq_check "$o/iso.json" '.device.speed == "full" and .device.alt_setting >= 1 and (.points | length) == 4 and all(.points[]; .iso == true and .dir == "out")' "iso: the AudioStreaming alt setting, full speed, one row per size and depth"
	jq_check "$o/iso.json" 'all(.points[]; .packets > 0 and .packet_errors == 0 and .mb_s > 0 and .ceiling_mb_s > 0 and .mb_s <= .ceiling_mb_s * 1.01)' "iso: packets counted, no errors, every rate within the endpoint's ceiling"
	jq_check "$o/iso.json" '.device.max_packet_out as $m | all(.points[]; .ceiling_mb_s == $m * 1000 / 1e6)' "iso: the ceiling is wMaxPacketSize per 1 ms full-speed frame"
	rc_is isoin 2 "iso IN where the device has only an OUT endpoint"
	says isoin "isochronous" "iso IN refused: one line naming the missing endpoint"
	rc_is busy 2 "an interface another program claimed"
	says busy "interface 0 is busy: claimed by another program" "busy: one line"
	rc_is holder 0 "the program holding the interface finished its point"
	back holder
	rc_is sigint 130 "SIGINT mid-point"
	jq_check "$o/sigint.json" '.points | length == 1 and .[0].interrupted == true and .[0].mb_s > 0 and .[0].seconds < 30' "SIGINT: the point so far, flagged"
	back sigint
	# run: the gadgets found and measured as its bulk class, each rate against the link's ceiling
	rc_is run 0 "run finds the SourceSink and Loopback gadgets"
	jq_check "$o/run.json" '[.plan[] | select(.kind == "usb-bulk")] | length == 3' "run: three bulk gadgets planned"
	jq_check "$o/run.json" "[.metrics[] | select(.test == \"bulk\" and .metric == \"mb_s\")] | length > 0 and all(.[]; .unit == \"MB/s\" and .value > 0 and .ceiling > 0 and .value <= $DUMMY_SS_BYTES * $DUMMY_ROUNDS / 1e6 * 1.01)" "run: bulk rates with their link's ceiling, under dummy_hcd's allowance"
	jq_check "$o/run.json" '[.metrics[] | select(.test == "bulk" and .metric == "mb_s" and .device == "'"$(sed -n 's/.*hs=\([^ ]*\).*/\1/p' "$o/devices.txt")"'") | .ceiling] | unique == [53.248]' "run: the high-speed gadget held against 53.248 MB/s"
	jq_check "$o/run.json" '[.verdicts[] | select(.device | test("^[0-9]+-[0-9.]+$")) | .limiter] | length == 3' "run: a verdict for each gadget"
	back run
}

# Scenario uvc-gadget: usbperf as a UVC camera (gadget up uvc-bulk: a gadgetfs
# device with a bulk video endpoint, served by usbperf itself) on dummy_hcd at
# high speed, and the kernel's uvcvideo on the host side of the same guest
# kernel, with usbperf video, usbperf monitor and v4l2-ctl against its node.
# Truths: every frame the camera made is one the host received or one the
# camera or the host counts as dropped; the rate is the committed one within
# 2 %; usbmon sees on the bulk endpoint the frames' bytes plus 12 B per
# payload; uvcvideo's format, size and interval are the ones the camera
# declared and committed; down leaves the gadget file systems as they were,
# after a SIGINT on either side too. Beside the camera, the gadget network
# functions (NCM with qmult 1 and 10, ECM) carry net --length-sweep and
# run --peer --length-sweep: each datagram length next to the link's bytes and
# packet-slot ceilings (ECM's 64 B datagrams: one packet each, 53.25 Mbit/s).
MODULES="configfs libcomposite dummy_hcd gadgetfs uvcvideo usbmon vivid usb_f_ncm usb_f_ecm cdc_ncm cdc_ether"
LAB_TOOLS="v4l2-ctl:v4l-utils"
LAB_BINS="v4l2-ctl"
# guest time from the instruction count (see video.sh): the camera's pacing and the
# host's timestamps run on the guest's clock, whatever else loads this machine
LAB_ACCEL="tcg,thread=single"
qemu_args() { echo "-icount shift=1,sleep=off"; }

UVC_N=45

# the stream of NAME's capture in the camera's figures: the last one
stream() { echo "(.streams | last)"; }

check_capture() { # check_capture NAME FOURCC FPS
	local o=$1 n=$2 cc=$3 fps=$4 P='.passes[0]' S
	S=$(stream)
	rc_is "$n" 0 "$n: usbperf video took $UVC_N frames of $cc 640x360 @$fps from uvcvideo"
	jq_check "$o/$n-gadget.json" "$S | .fourcc == \"$cc\" and .width == 640 and .height == 360 and .interval_100ns == (1e7 / $fps | round) and .running == false" "$n: the camera streamed the mode asked, committed by uvcvideo"
	# the host received what the camera made, less what either side dropped
	if [ -f "$o/$n.json" ] && [ -f "$o/$n-gadget.json" ] &&
		[ "$(jq -n --slurpfile h "$o/$n.json" --slurpfile g "$o/$n-gadget.json" \
			"(\$h[0]$P) as \$p | (\$g[0] | $S) as \$s | \$p.frames + \$p.lost + \$p.errors + \$s.late == \$s.frames and \$s.sent == \$p.frames + \$p.lost + \$p.errors and \$s.frames == $UVC_N")" = true ]; then
		ok "$SCEN: $n: frames received + dropped (both sides) = frames made ($UVC_N)"
	else bad "$SCEN: $n: frames do not add up: host $(jq -c "$P | {frames, lost, errors}" "$o/$n.json" 2>&1) camera $(jq -c "$S | {frames, sent, late, aborted, ended}" "$o/$n-gadget.json" 2>&1)"; fi
	jq_check "$o/$n.json" "$P | (.fps - $fps | fabs) <= $fps * 0.02 and (.fps_wall - $fps | fabs) <= $fps * 0.02" "$n: achieved $fps fps within 2 % (driver timestamps and wall clock)"
	jq_check "$o/$n-gadget.json" "$S | (.fps - $fps | fabs) <= $fps * 0.02 and .late == 0 and .aborted == 0 and .ended == \"its stream_frames were sent\"" "$n: the camera sent at $fps fps within 2 %, nothing late"
	# usbmon: the bulk endpoint carried the frames and a 12 B header per payload
	if [ "$(jq -n --slurpfile m "$o/$n-mon.json" --slurpfile g "$o/$n-gadget.json" \
		"(\$g[0] | $S) as \$s | [\$m[0].endpoints[] | select(.endpoint == \"0x81\")][0].bytes == \$s.data_bytes + \$s.header_bytes and \$s.header_bytes == 12 * \$s.payloads")" = true ]; then
		ok "$SCEN: $n: usbmon's bytes on 0x81 = frame data + 12 B per payload ($(jq "$S | \"\(.data_bytes) + \(.header_bytes)\"" "$o/$n-gadget.json"))"
	else bad "$SCEN: $n: usbmon bytes on 0x81 $(jq -c '[.endpoints[] | select(.endpoint == "0x81")][0] | {bytes, urbs, empty}' "$o/$n-mon.json" 2>&1), camera $(jq -c "$S | {data_bytes, header_bytes, payloads, zlps}" "$o/$n-gadget.json" 2>&1)"; fi
	# video --monitor on the camera: bulk URBs, no USB error
	if [ "$cc" = YUYV ]; then
		jq_check "$o/$n.json" "$P | .monitored == true and .urb_size_bytes == 16384 and .usb_errors == 0 and .wire_mb_s > 0 and .iso_packets == 0" "$n: --monitor: uvcvideo's 16 KiB bulk URBs (32 x 512 B), no USB error, no isochronous packet"
	fi
	# uvcvideo's view: v4l2-ctl --all on the node after the stream
	if grep -q "Width/Height *: 640/360" "$o/$n-v4l2.txt" && grep -q "Pixel Format *: '$cc'" "$o/$n-v4l2.txt" &&
		grep -q "Frames per second: $fps.000 ($fps/1)" "$o/$n-v4l2.txt"; then
		ok "$SCEN: $n: v4l2-ctl --all: $cc 640/360 at $fps/1, as declared and committed"
	else bad "$SCEN: $n: v4l2-ctl --all says: $(grep -E 'Width/Height|Pixel Format|Frames per second' "$o/$n-v4l2.txt" | tr -s ' \t' ' ' | tr '\n' ';')"; fi
}

check() {
	local o=$1
	rc_is upfull 2 "gadget up uvc-bulk with /dev/gadget holding a file: refused"
	if grep -q "'/dev/gadget' is not empty (1 entry): gadgetfs mounted on it would hide it" "$o/upfull.err" &&
		[ "$(cat "$o/upfull.keep")" = "the user's" ] && [ "$(cat "$o/upfull.mounts")" = 0 ]; then
		ok "$SCEN: upfull: says why, nothing mounted, the user's file as it was"
	else bad "$SCEN: upfull: $(head -c 300 "$o/upfull.err"), keep '$(cat "$o/upfull.keep")', mounts $(cat "$o/upfull.mounts")"; fi
	rc_is up 0 "gadget up uvc-bulk"
	jq_check "$o/up.json" '.gadget.udc == "dummy_udc.0" and .functions[0].profile == "uvc-bulk" and .functions[0].endpoints[0].type == "bulk" and (.functions[0].endpoints[0].ceiling_mb_s | floor) == 53' "up: a gadgetfs camera on dummy_udc.0, a bulk IN endpoint next to the high-speed ceiling"
	if grep -q "'YUYV'" "$o/formats.txt" && grep -q "'MJPG'" "$o/formats.txt" && [ "$(grep -c 'Interval: Discrete' "$o/formats.txt")" = 4 ]; then
		ok "$SCEN: v4l2-ctl --list-formats-ext: YUYV and MJPG, 640x360 at 30 and 15 fps each"
	else bad "$SCEN: v4l2-ctl --list-formats-ext: $(tr -s ' \t\n' ' ' <"$o/formats.txt" | head -c 400)"; fi
	check_capture "$o" yuyv YUYV 30
	check_capture "$o" mjpg MJPG 15
	jq_check "$o/mjpg.json" '.passes[0] | .frame_bytes_max < 640 * 360 * 2 and .frame_bytes_min > 0' "mjpg: libjpeg-turbo's frames, smaller than the pixels"
	check_capture "$o" again YUYV 30
	rc_is ctrl 0 "v4l2-ctl -c brightness=-10"
	jq_check "$o/ctrl-gadget.json" '.uvc_function.brightness == -10 and .uvc_function.stalls == 0' "the camera took brightness -10 through SET_CUR on its processing unit"
	# SIGINT on the host side: the partial capture, the camera's stream ends by itself
	rc_is hostint 130 "SIGINT to usbperf video mid-stream"
	jq_check "$o/hostint.json" '.passes[0] | .interrupted == true and .frames > 0' "host SIGINT: the frames so far, flagged"
	jq_check "$o/hostint-gadget.json" '(.streams | last) | .ended == "the host stopped reading" and .sent > 0 and .running == false' "host SIGINT: the camera saw nobody read and ended the stream"
	# SIGINT on the gadget side
	jq_check "$o/gadgetint-gadget.json" '.uvc_function.state == "stopped"' "gadget SIGINT: the daemon stopped cleanly, its figures written"
	if [ -s "$o/gadgetint-nodes.txt" ] && ! grep -q usbperf "$o/gadgetint-nodes.txt"; then ok "$SCEN: gadget SIGINT: the camera left the host (vivid's nodes stay)"
	else bad "$SCEN: gadget SIGINT: nodes left: $(cat "$o/gadgetint-nodes.txt")"; fi
	rc_is down 0 "gadget down after the daemon's SIGINT"
	for w in after after2 after3 after4 after5 after6; do
		if cmp -s "$o/world-before.txt" "$o/world-$w.txt"; then ok "$SCEN: world-$w: mounts, configfs, /run/usbperf, /dev/gadget as before up"
		else bad "$SCEN: world-$w differs: $(diff "$o/world-before.txt" "$o/world-$w.txt" | tr '\n' ' ' | head -c 400)"; fi
	done
	# the f_uvc frame source's queueing, pacing and accounting on vivid's output node
	# 100 frames: vivid may hold one buffer an extra interval (its output repeats a
	# frame), and the rate is read from when the buffers came back: with 50
	# frames that one interval was 2 %, the whole tolerance (24.49 fps seen)
	rc_is src 0 "video --gadget on vivid's output node, 100 frames of YUYV 640x360 @25 (its S-Video rate)"
	jq_check "$o/src.json" '(.streams | last) | .frames == 100 and .late == 0 and .sent + .aborted == 100 and .aborted <= 1 and (.fps - 25 | fabs) <= 0.5 and .data_bytes == .sent * 460800 and .ended == "its stream_frames were sent"' "f_uvc source: 100 frames queued at 25 fps (within 2 %), none late, every one taken but the one vivid keeps showing"
	rc_is srcint 130 "SIGINT to the frame source mid-stream"
	jq_check "$o/srcint.json" '(.streams | last) | .sent > 0 and .running == false and .ended == "the source stopped"' "source SIGINT: the frames so far, the stream stopped"
	rc_is srcagain 0 "the output node streams again after the SIGINT (15 fps)"
	jq_check "$o/srcagain.json" '(.streams | last) | .sent + .aborted == 15 and .late == 0 and (.fps - 15 | fabs) <= 0.3' "source again: 15 frames at 15 fps, none late"
	rc_is srccap 2 "a capture node as --gadget"
	says srccap "is not a V4L2 output node" "a capture node: one line"
	rc_is srcmjpg 2 "MJPG on vivid's output node"
	says srcmjpg "does not take MJPG" "MJPG refused by the node: one line"
	# net --length-sweep through NCM (qmult 1, 10) and ECM gadgets on dummy_hcd
	for n in ncm1 ncm10 ecm; do
		rc_is "$n" 0 "net client --length-sweep 64,1472 through $n"
		jq_check "$o/$n.json" '[.lengths[] | .length_bytes] == [64, 1472] and all(.lengths[]; .mbit_s > 0 and .bytes_ceiling_mbit_s > 0 and .packet_ceiling_mbit_s > 0 and .ceiling_mbit_s == ([.bytes_ceiling_mbit_s, .packet_ceiling_mbit_s] | min)) and .link.on_usb and .link.speed == "high"' "$n: each length measured, next to both ceilings of the high-speed link"
	done
	jq_check "$o/ecm.json" '.link.driver == "cdc_ether" and .lengths[0].packet_ceiling_mbit_s < .lengths[0].bytes_ceiling_mbit_s and (.lengths[0].packet_ceiling_mbit_s - 104000 * 64 * 8 / 1e6 | fabs) < 0.01' "ecm: 64 B datagrams, a packet each: 104000 x 64 B = 53.25 Mbit/s, below what the bytes allow"
	jq_check "$o/ncm1.json" '.link.driver == "cdc_ncm" and .lengths[0].packet_ceiling_mbit_s > 4 * 53.248 and (.lengths[0].packet_ceiling_mbit_s - .lengths[0].bytes_ceiling_mbit_s | fabs) < 0.01 * .lengths[0].bytes_ceiling_mbit_s' "ncm: 64 B datagrams share 16 KiB NTBs: the packet slots cost nothing past the bytes (ECM: one slot a datagram)"
	for i in 1 2; do rc_is "ncm10-run$i" 0 "run --peer --length-sweep through NCM, run $i into the history"; done
	jq_check "$o/ncm10-run1.json" '[.metrics[] | select(.test == "net" and .metric == "mbit_s") | .name] == ["tcp send", "tcp receive", "udp 64 B", "udp 1472 B"] and all(.metrics[] | select(.test == "net" and .metric == "mbit_s" and (.name | startswith("udp"))); .ceiling > 0)' "run: a UDP pass per length beside TCP, each next to its ceiling"
	jq_check "$o/ncm10-run1.json" '[.metrics[] | select(.test == "net" and .metric == "loss_pct") | .name] == ["udp 64 B", "udp 1472 B"]' "run: each UDP pass's loss recorded"
	jq_check "$o/ncm10-show.json" '[.metrics[] | select(.test == "net" and .metric == "mbit_s" and (.name | startswith("udp"))) | select(.ceiling > 0) | .name] == ["udp 64 B", "udp 1472 B"]' "show: the second run's UDP passes came back from the history with their ceilings"
	rc_is ncm10-check 0 "check --criteria on udp 1472 B against its ceiling"
	jq_check "$o/ncm10-check.json" '[.checks[] | select(.criterion) | .result] == ["pass"]' "check: the UDP pass judged against its recorded ceiling"
	rc_is ncm10-compare 0 "compare the two runs"
	jq_check "$o/ncm10-compare.json" '[.metrics[] | select(.test == "net" and .metric == "mbit_s" and (.name | startswith("udp"))) | select(.a > 0 and .b > 0) | .name] | sort == ["udp 1472 B", "udp 64 B"]' "compare: both lengths side by side"
	rc_is ncm10-report 0 "report --html of the run"
	if grep -q "udp 1472 B" "$o/ncm10-run.html" 2>/dev/null; then ok "$SCEN: report: the UDP passes in the page"
	else bad "$SCEN: report: no 'udp 1472 B' in ncm10-run.html"; fi
	for n in ncm1 ncm10 ecm; do
		jq -r '.lengths[] | "    figure  '"$n"' udp \(.length_bytes) B: \(.mbit_s) Mbit/s, loss \(.loss_pct) %, ceilings: bytes \(.bytes_ceiling_mbit_s), packets \(.packet_ceiling_mbit_s) Mbit/s"' "$o/$n.json" 2>/dev/null
	done
	rc_is up2 0 "a second camera after the first"
	rc_is down2 0 "and down again"
	rc_is bad 2 "a camera whose descriptors do not fit gadgetfs's 256 B"
	says bad "gadgetfs answers at most 256 B" "too many descriptors: one line, the size named"
	rc_is mixed 2 "uvc-bulk with another function"
	says mixed "uvc-bulk is a device of its own" "uvc-bulk mixed: one line"
	# the guide's table
	rc_is sweep 0 "video --uvc-sweep: 320x240, 1280x720 x YUYV, MJPG x 5, 30 fps"
	jq_check "$o/sweep.json" '(.uvc_sweep | length) == 8 and all(.uvc_sweep[]; .frames > 0 and .camera_sent > 0 and .ceiling_fps > 0 and .speed == "high")' "sweep: 8 modes measured on both sides, each next to its bulk ceiling at high speed"
	jq_check "$o/sweep.json" 'all(.uvc_sweep[]; .meets or .limit == "camera CPU" or .limit == "host CPU")' "sweep: every mode meets its rate within 2 % (dummy_hcd allows them all), or the table names the CPU that held it back"
	jq_check "$o/sweep.json" '[.uvc_sweep[] | select(.fits | not) | "\(.fourcc) \(.width)x\(.height) @\(.nominal_fps)"] == ["YUYV 1280x720 @30"] and ([.findings[] | select(.id == "uvc.bulk_cannot_fit")] | length == 1 and (.[0].fix | test("format MJPG") and test("frame size 320x240") and test("at most 28 fps")))' "sweep: YUYV 1280x720 @30 cannot fit high speed's bulk (28.87 fps), the finding names MJPG, 320x240 and 28 fps"
	jq_check "$o/sweep.json" '[.uvc_sweep[] | select(.fits | not)] | all(.[]; (.meets | not) or (.limit == "emulation" and .above_ceiling))' "sweep: a mode past the ceiling that still met its rate is flagged as dummy_hcd's figure, not the bus's"
	# run --uvc-sweep: the history, check, compare, report
	for i in 1 2; do rc_is "run$i" 0 "run --uvc-sweep, run $i into the history"; done
	jq_check "$o/run1.json" '[.uvc_sweep[] | .camera_late] == [0, 0] and all(.uvc_sweep[]; .meets)' "run: both modes at their rate, nothing late"
	jq_check "$o/run1.json" '[.metrics[] | select(.test == "uvc-sweep" and .metric == "fps") | .name] == ["YUYV 320x240 @15", "YUYV 320x240 @30"] and all(.metrics[] | select(.test == "uvc-sweep" and .metric == "fps"); .ceiling == (.name | split("@")[1] | tonumber))' "run: an fps row per mode, held against its nominal rate"
	jq_check "$o/run1.json" '[.metrics[] | select(.test == "uvc-sweep") | .metric] | unique == ["camera_cpu_pct", "camera_late", "ceiling_fps", "cpu_us_per_frame", "drop_pct", "fps", "mb_s"]' "run: the camera's and the host's figures recorded"
	jq_check "$o/run1.json" '(.uvc_sweep | length) == 2 and ([.verdicts[] | select(.device == "uvc-sweep")][0] | .limiter == "mode'"'"'s rate")' "run: the table in run's output, the verdict the modes' rate"
	jq_check "$o/show.json" '[.metrics[] | select(.test == "uvc-sweep") | .name] | unique == ["YUYV 320x240 @30"]' "show: the second sweep's figures came back from the history"
	rc_is check 0 "check --criteria: fps at 98 % of each mode's rate"
	jq_check "$o/check.json" '[.checks[] | select(.criterion) | .result] == ["pass"]' "check: the last run's mode passes"
	rc_is compare 0 "compare the two sweeps"
	jq_check "$o/compare.json" '[.metrics[] | select(.test == "uvc-sweep" and .name == "YUYV 320x240 @30" and .metric == "fps")] | length == 1 and (.[0].a > 29 and .[0].b > 29)' "compare: the mode both sweeps measured, side by side"
	rc_is report 0 "report --html of the sweep run"
	if grep -q "uvc-sweep" "$o/run.html" 2>/dev/null; then ok "$SCEN: report: the sweep's device in the page"
	else bad "$SCEN: report: no uvc-sweep in run.html"; fi
	if grep -q "bulk ceiling" "$o/run.txt" && grep -q "YUYV.*320.*240" "$o/run.txt"; then ok "$SCEN: run text: the sweep's table"
	else bad "$SCEN: run text: $(head -c 400 "$o/run.txt")"; fi
	jq -r '.uvc_sweep[] | "    figure  sweep \(.fourcc) \(.width)x\(.height) @\(.nominal_fps): \(.fps) fps (ceiling \(.ceiling_fps)), camera sent \(.camera_sent) late \(.camera_late) CPU \(.camera_cpu_pct) %, host drops \(.drop_pct) %: \(.limit)"' "$o/sweep.json" 2>/dev/null
	for n in yuyv mjpg again; do
		jq -r ".passes[0] | \"    figure  $n: \(.mode_set) achieved \(.fps) fps, \(.mb_s) MB/s, host CPU \(.cpu_us_per_frame) us/frame\"" "$o/$n.json" 2>/dev/null
		jq -r '(.streams | last) | "    figure  camera: sent \(.sent) of \(.frames) at \(.fps) fps, CPU \(.cpu_pct) % (\(.cpu_us_per_frame) us/frame), \(.payloads) payloads"' "$o/$n-gadget.json" 2>/dev/null
	done
}

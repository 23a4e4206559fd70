#!/bin/bash
# The measurement classes' figures through the history: import, show,
# compare, check and report know the video class's metrics (issue 15), a HID
# device's reports/s, a bulk gadget's sweep and a HID gadget's send rate
# (the device side) (issue 16), an MTP device's send and get (issue 17). The runs are made
# from the export fixture with those devices in place of the disks: what is
# checked is how they are named, compared, judged and drawn, not a capture
# (the QEMU lab's video, hid and bulk scenarios measure real kernel objects).
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
DB="$WORK/h.db"
u() { "$USBPERF" "$@" --db "$DB"; }

# run A: 29.97 of 30 fps, no drops; run B: 24 fps, 20 % dropped
camera_run() { # ID STARTED FPS DROP BIN2 BIN4
	jq --arg id "$1" --arg t "$2" --argjson fps "$3" --argjson drop "$4" \
		--argjson b2 "$5" --argjson b4 "$6" '
	def m($name; $metric; $unit; $v; $c; $hi):
		{device_key: "1-1", test: "video", name: $name, metric: $metric, value: $v,
		 stdev: null, min: null, max: null, unit: $unit, repeats: 1, sample_mean: null,
		 sample_stdev: null, sample_min: null, samples: 0, cpu_pressure_pct: null,
		 cpu_busy_pct: null, ceiling: $c, higher_is_better: $hi};
	# the rate sampled over the pass: a steady camera, as a spread compare can judge
	def sampled: .sample_mean = .value | .sample_stdev = 0.05 | .sample_min = (.value - 0.1) |
		.samples = 10;
	.runs[0] | .id = $id | .started_at = $t | .findings = [] |
	.devices = [{key: "1-1", kind: "usb-video", target: "/dev/video0", vid_pid: "046d:0825",
		serial: null, product: "Webcam C270", port_path: "1-1", speed: "high",
		driver: "uvcvideo", ceiling_mb_s: 53.248, capable_speed: "high",
		controller: "xhci_hcd 0000:00:14.0", via: null}] |
	.metrics = [(m("YUYV 640x480 @30"; "fps"; "frames/s"; $fps; 30; true) | sampled),
		m("YUYV 640x480 @30"; "drop_pct"; "%"; $drop; null; false),
		m("YUYV 640x480 @30"; "mb_s"; "MB/s"; ($fps * 0.6144); 24.5; true),
		m("YUYV 640x480 @30"; "interval_bin_0"; "intervals"; 0; null; false),
		m("YUYV 640x480 @30"; "interval_bin_1"; "intervals"; 0; null; false),
		m("YUYV 640x480 @30"; "interval_bin_2"; "intervals"; $b2; null; false),
		m("YUYV 640x480 @30"; "interval_bin_3"; "intervals"; 0; null; false),
		m("YUYV 640x480 @30"; "interval_bin_4"; "intervals"; $b4; null; false),
		m("YUYV 640x480 @30"; "interval_bin_5"; "intervals"; 0; null; false),
		m("YUYV 640x480 @30"; "interval_bin_6"; "intervals"; 0; null; false)] |
	{usbperf_export: 1, usbperf: "0.1.0", runs: [.]}' "$FIXTURES/runs-a.json"
}
camera_run 20261201T100000Z-aaaa 2026-12-01T10:00:00Z 29.97 0 149 0 >"$WORK/a.json"
camera_run 20261201T110000Z-bbbb 2026-12-01T11:00:00Z 24 20 90 30 >"$WORK/b.json"
A=20261201T100000Z-aaaa B=20261201T110000Z-bbbb

expect_status 0 "import the camera runs" u import "$WORK/a.json"
expect_status 0 "import the second" u import "$WORK/b.json"
expect_status 0 "show the camera run" u show "$A" -F json
jq_check "$WORK/out" '[.metrics[] | select(.metric == "fps")][0] | .ceiling == 30 and .unit == "frames/s"' \
	"show: fps kept with its nominal rate as its ceiling"
expect_status 0 "show text" u show "$A"
check "show text: the video metrics by their labels" grep -Eq '^1-1 +video +YUYV 640x480 @30 +fps ' "$WORK/out"

# compare: fps and drops judged, the histogram's bins are not figures to regress
expect_status 1 "compare: the camera got worse" u compare "$A" "$B" -F json
jq_check "$WORK/out" '[.metrics[] | select(.metric == "fps")][0].verdict == "worse"' "compare: fps 29.97 -> 24 is worse"
jq_check "$WORK/out" '[.metrics[] | select(.metric == "drop_pct")] | length == 1' "compare: drops compared"
jq_check "$WORK/out" '[.metrics[] | select(.metric | startswith("interval_bin"))] == [] and (.metrics | length) == 3' \
	"compare: the interval histogram is not compared"

# check: frames per second against the mode's nominal rate
cat >"$WORK/crit.json" <<'C'
{"usbperf_criteria": 1, "criteria": [
 {"id": "camera-rate", "test": "video", "metric": "fps", "min_ceiling_pct": 99},
 {"id": "camera-drops", "test": "video", "metric": "drop_pct", "max": 1}]}
C
expect_status 0 "check A: the camera meets its rate" u check "$A" --criteria "$WORK/crit.json" -F json
jq_check "$WORK/out" '[.checks[] | select(.case_id == "camera-rate")][0].note | test("99.9 % of the ceiling")' \
	"check A: 29.97 fps is 99.9 % of the nominal 30"
expect_status 1 "check B: it does not" u check "$B" --criteria "$WORK/crit.json"
check "check B: the rate and the drops named" sh -c "grep -q '80.0 % of the ceiling, below 99 %' '$WORK/out' && grep -q '20.00 % above the maximum 1 %' '$WORK/out'"

# report: the camera's own charts
expect_status 0 "report of both" "$USBPERF" report "$WORK/a.json" "$WORK/b.json" --html "$WORK/r.html"
check "report: nominal and achieved frame rate per mode" grep -q 'Frame rate: nominal and achieved, per mode' "$WORK/r.html"
check "report: the nominal bar and the achieved bar" sh -c "grep -q 'YUYV 640x480 @30 nominal' '$WORK/r.html' && grep -q 'YUYV 640x480 @30 achieved' '$WORK/r.html'"
check "report: the interval histogram of the mode" grep -q 'Frame intervals, YUYV 640x480 @30' "$WORK/r.html"
check "report: its bins by their range" grep -q 'intervals 0.9-1.1x' "$WORK/r.html"
expect_status 0 "report of a disk run" "$USBPERF" report "$FIXTURES/runs-a.json" --html "$WORK/d.html"
check "report: no camera charts without a camera" sh -c "! grep -q 'Frame rate' '$WORK/d.html'"

# a HID device and a bulk gadget, as run records them
jq '.runs[0] | .id = "20261201T120000Z-cccc" | .started_at = "2026-12-01T12:00:00Z" | .findings = [] |
	def m($dev; $test; $name; $metric; $unit; $v; $c):
		{device_key: $dev, test: $test, name: $name, metric: $metric, value: $v, stdev: null,
		 min: null, max: null, unit: $unit, repeats: 1, sample_mean: null, sample_stdev: null,
		 sample_min: null, samples: 0, cpu_pressure_pct: null, cpu_busy_pct: null, ceiling: $c,
		 higher_is_better: true};
	.devices = [{key: "1-2", kind: "usb-hid", target: "/dev/hidraw0", vid_pid: "1d6b:0104",
		serial: null, product: "lab hid", port_path: "1-2", speed: "high", driver: "usbhid",
		ceiling_mb_s: 53.248, capable_speed: null, controller: null, via: null},
		{key: "3-1", kind: "usb-bulk", target: "3-1", vid_pid: "0525:a4a0", serial: null,
		product: "lab hs", port_path: "3-1", speed: "high", driver: "usbtest", ceiling_mb_s: 53.248,
		capable_speed: null, controller: null, via: null},
		{key: "udc:dummy_udc.0", kind: "usb-gadget-hid", target: "/dev/hidg0", vid_pid: "1d6b:0104",
		serial: null, product: "lab g1", port_path: null, speed: "high", driver: "f_hid",
		ceiling_mb_s: null, capable_speed: null, controller: "dummy_udc.0", via: null},
		{key: "1-4", kind: "usb-mtp", target: "mtp:1-4", vid_pid: "1d6b:0100", serial: null,
		product: "lab mtp", port_path: "1-4", speed: "high", driver: null, ceiling_mb_s: 53.248,
		capable_speed: null, controller: null, via: null}] |
	.metrics = [m("1-2"; "hid"; "input reports"; "reports_per_s"; "reports/s"; 838.2; 1000),
		m("3-1"; "bulk"; "in-64K-q8"; "mb_s"; "MB/s"; 40.1; 53.248),
		m("3-1"; "bulk"; "in-1M-q8"; "mb_s"; "MB/s"; 48.9; 53.248),
		m("3-1"; "bulk"; "out-64K-q8"; "mb_s"; "MB/s"; 35.5; 53.248),
		m("udc:dummy_udc.0"; "gadget"; "hid.0 send"; "reports_per_s"; "reports/s"; 612.5; 1000),
		m("udc:dummy_udc.0"; "gadget"; "hid.0 send"; "write_p99_us"; "us"; 1900; null),
		m("1-4"; "mtp"; "send 16M"; "mb_s"; "MB/s"; 11.3; 53.248),
		m("1-4"; "mtp"; "get 16M"; "mb_s"; "MB/s"; 14.9; 53.248)] |
	{usbperf_export: 1, usbperf: "0.1.0", runs: [.]}' "$FIXTURES/runs-a.json" >"$WORK/c.json"
expect_status 0 "report of a HID and a bulk run" "$USBPERF" report "$WORK/c.json" --html "$WORK/c.html"
check "report: HID reports per second, against the endpoint's ceiling" \
	sh -c "grep -q 'HID reports per second' '$WORK/c.html' && grep -q 'ceiling 1000 reports/s' '$WORK/c.html'"
check "report: the gadget side's reports/s in the same chart" grep -q 'hid.0 send' "$WORK/c.html"
check "report: bulk MB/s against transfer size, a series per direction and depth" \
	sh -c "grep -q 'Throughput against block size' '$WORK/c.html' && grep -q 'in q8' '$WORK/c.html' && grep -q 'out q8' '$WORK/c.html'"
cat >"$WORK/crit2.json" <<'C'
{"usbperf_criteria": 1, "criteria": [
 {"id": "hid-rate", "test": "hid", "metric": "reports_per_s", "min_ceiling_pct": 80},
 {"id": "bulk-read", "test": "bulk", "name": "in-*", "metric": "mb_s", "min_ceiling_pct": 80},
 {"id": "gadget-rate", "test": "gadget", "metric": "reports_per_s", "min_ceiling_pct": 80},
 {"id": "mtp-rate", "test": "mtp", "metric": "mb_s", "min_ceiling_pct": 25}]}
C
expect_status 1 "check: HID at 84 % passes, bulk reads at 75 % and 92 % of the link" \
	"$USBPERF" check "$WORK/c.json" --criteria "$WORK/crit2.json" -F json
jq_check "$WORK/out" '[.checks[] | select(.result != "measured") | [(.case_id | split(".")[0]), .result, (.note | .[0:5])]] | sort == [["bulk-read", "fail", "75.3 "], ["bulk-read", "pass", "91.8 "], ["gadget-rate", "fail", "61.2 "], ["hid-rate", "pass", "83.8 "], ["mtp-rate", "fail", "21.2 "], ["mtp-rate", "pass", "28.0 "]]' \
	"check: each figure against its own ceiling"
expect_status 0 "import the HID, bulk and gadget run" u import "$WORK/c.json"
expect_status 0 "show it" u show 20261201T120000Z-cccc
check "show: the gadget side's figures by their labels" grep -Eq '^udc:dummy_udc.0 +gadget +hid.0 send +p99 write ' "$WORK/out"
check "show: MTP send and get by their passes" sh -c "grep -Eq '^1-4 +mtp +send 16M +rate ' '$WORK/out' && grep -Eq '^1-4 +mtp +get 16M +rate ' '$WORK/out'"
finish

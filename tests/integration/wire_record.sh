#!/bin/bash
# A USB disk's passes watched on the wire (issue 18 part 2) through the record:
# report shows each pass's dominant URB size, in-flight and busy figures (text and
# HTML, named by the disk class's vocabulary) and check judges them. The run is the
# export fixture with wire metrics added to its 1 MiB read: what is checked is how
# they are named, drawn and judged (the QEMU lab's usb-host scenario measures them).
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)

jq '
	def m($metric; $unit; $v; $hi):
		{device_key: "2-1", test: "disk", name: "seq-read 1M", metric: $metric, value: $v,
		 stdev: null, min: null, max: null, unit: $unit, repeats: 1, sample_mean: null,
		 sample_stdev: null, sample_min: null, samples: 0, cpu_pressure_pct: null,
		 cpu_busy_pct: null, ceiling: null, higher_is_better: $hi};
	.runs = [.runs[0] | .metrics += [m("wire_mb_s"; "MB/s"; 182.9; true),
		m("urb_size"; "B"; 122880; true), m("inflight_mean"; "URBs"; 0.97; true),
		m("busy_pct"; "%"; 96.5; true), m("urb_lat_p99_us"; "us"; 2480; false),
		m("usb_errors"; "errors"; 3; false), m("urb_size_bin_4"; "URBs"; 64; false),
		m("urb_size_bin_17"; "URBs"; 512; false)]]' "$FIXTURES/runs-a.json" >"$WORK/run.json"

expect_status 0 "report: text of a run with wire figures" "$USBPERF" report "$WORK/run.json"
cp "$WORK/out" "$WORK/report.txt"
if grep -A1 -E '^  seq-read 1M ' "$WORK/report.txt" | grep -q \
	'wire: URB 120K, in flight 0.97, bus busy 96.5 %, 182.9 MB/s, URB p99 2480 us, 3 USB errors$'; then
	ok "report text: the pass's wire line under its rate"
else bad "report text: no wire line under seq-read 1M: $(grep -A1 -E '^  seq-read 1M ' "$WORK/report.txt")"; fi
if grep -A2 -E '^  seq-read 1M ' "$WORK/report.txt" | grep -qE '^ +URB sizes: 8-16 64, 64K-128K 512$'; then
	ok "report text: the pass's URB size histogram, its bins by size"
else bad "report text: no URB size histogram: $(grep -A2 -E '^  seq-read 1M ' "$WORK/report.txt")"; fi
check "report text: no wire line for a pass without" \
	bash -c "! grep -A1 -E '^  seq-write 1M ' '$WORK/report.txt' | grep -q wire:"

expect_status 0 "report: HTML" "$USBPERF" report "$WORK/run.json" --html "$WORK/r.html"
for l in 'urb_size">URB size<br><small>B' 'inflight_mean">in flight<br><small>URBs' \
	'busy_pct">bus busy<br><small>%' 'wire_mb_s">wire<br><small>MB/s' 'urb_lat_p99_us">URB p99'; do
	check "report HTML: column '${l%%\"*}' named by the disk vocabulary" grep -qF "$l" "$WORK/r.html"
done
check "report HTML: the histogram's bins are no columns of figures" bash -c "! grep -q 'data-metric=\"urb_size_bin_' '$WORK/r.html'"
# the histogram drawn: folded under the device, one chart for the one pass that has bins
check "report HTML: the URB size histogram, folded, for the one pass with bins" \
	grep -qF '<details><summary>URB sizes on the wire (usbmon), 1 pass</summary>' "$WORK/r.html"
sed -n '/URB sizes on the wire/,/<\/details>/p' "$WORK/r.html" >"$WORK/hist.html"
check "report HTML: the chart names the pass and both bins (8-16 B, 64K-128K)" \
	bash -c "grep -qF '<h4>seq-read 1M</h4>' '$WORK/hist.html' && grep -qF '8-16' '$WORK/hist.html' && grep -qF '64K-128K' '$WORK/hist.html' && [ \$(grep -o '<svg' '$WORK/hist.html' | wc -l) = 1 ]"

# check: a criterion on the URB size fails (120 KiB < 256 KiB), the busy share passes
cat >"$WORK/crit.json" <<'JSON'
{"usbperf_criteria": 1, "criteria": [
 {"device": "2-1", "name": "seq-read 1M", "metric": "urb_size", "min": 262144, "unit": "B"},
 {"device": "2-1", "name": "seq-read 1M", "metric": "busy_pct", "min": 90},
 {"device": "2-1", "name": "seq-read 1M", "metric": "usb_errors", "max": 0}]}
JSON
expect_status 1 "check: the URB size and errors criteria fail" \
	"$USBPERF" check "$WORK/run.json" --criteria "$WORK/crit.json" -F json
jq_check "$WORK/out" '[.checks[] | select(.metric == "urb_size") | .result] == ["fail"] and [.checks[] | select(.metric == "busy_pct") | .result] == ["pass"] and [.checks[] | select(.metric == "usb_errors") | .result] == ["fail"]' \
	"check: urb_size 122880 < 262144 fails, busy_pct 96.5 >= 90 passes, 3 USB errors fail"
finish

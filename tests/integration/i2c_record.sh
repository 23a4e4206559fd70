#!/bin/bash
# An I2C device's figures through report, compare and check (issue 19): the
# rows run records for `run /dev/i2c-N:0xAA` (payload B/s with the bus
# clock's ceiling at the message size, messages/s, p99 latency, CPU), per
# operation and message size. Two runs are made from the export fixture with
# an I2C address in place of the disks (no adapter is needed: what is checked
# is how the figures are named, drawn, compared and judged; the QEMU lab's i2c
# scenario measures i2c-stub for real). The ceilings are the wire arithmetic
# at 400 kHz (classes/i2c/ceiling.c): a read of n bytes is 9n + 11 bit times, a
# write of n after its register byte 9n + 20, a write-then-read 9n + 30.
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
DB="$WORK/h.db"
u() { "$USBPERF" "$@" --db "$DB"; }

i2c_run() { # ID STARTED EFFICIENCY: every pass at that share of its ceiling
	jq --arg id "$1" --arg t "$2" --argjson eff "$3" '
	def m($name; $metric; $unit; $v; $c; $hi):
		{device_key: "i2c-1:0x50", test: "i2c", name: $name, metric: $metric, value: $v,
		 stdev: ($v * 0.01), min: ($v * 0.99), max: ($v * 1.01), unit: $unit, repeats: 3,
		 sample_mean: null,
		 sample_stdev: null, sample_min: null, samples: 0, cpu_pressure_pct: null,
		 cpu_busy_pct: null, ceiling: $c, higher_is_better: $hi};
	def bits($op; $n): if $op == "read" then 9 * $n + 11 elif $op == "write" then 9 * $n + 20
		else 9 * $n + 30 end;
	def pass($op; $n): (400000 / bits($op; $n)) as $msg |
		"\($op) \($n) B" as $name |
		m($name; "payload_b_s"; "B/s"; $msg * $n * $eff; $msg * $n; true),
		m($name; "msg_s"; "msg/s"; $msg * $eff; null; true),
		m($name; "lat_p99_us"; "us"; 1e6 / $msg / $eff * 1.2; null; false),
		m($name; "cpu_pct"; "%"; 3.5; null; false);
	.runs[0] | .id = $id | .started_at = $t | .findings = [] | .verdicts = [] |
	.devices = [{key: "i2c-1:0x50", kind: "i2c", target: "/dev/i2c-1:0x50", vid_pid: null,
		serial: null, product: "SMBus stub driver, 0x50", port_path: null, speed: null,
		driver: "i2c-rdwr", ceiling_mb_s: null, capable_speed: null, controller: null,
		via: null}] |
	.metrics = [("read", "write", "write-read") as $op | (1, 8, 32) as $n | pass($op; $n)] |
	{usbperf_export: 1, usbperf: "0.1.0", runs: [.]}' "$FIXTURES/runs-a.json"
}
i2c_run 20261202T100000Z-aaaa 2026-12-02T10:00:00Z 0.8 >"$WORK/a.json"
i2c_run 20261202T110000Z-bbbb 2026-12-02T11:00:00Z 0.4 >"$WORK/b.json"
A=20261202T100000Z-aaaa B=20261202T110000Z-bbbb

# ---- report, HTML: the sweep against message size, and the message rates as bars ----
expect_status 0 "report of both I2C runs" "$USBPERF" report "$WORK/a.json" "$WORK/b.json" --html "$WORK/r.html"
H="$WORK/r.html"
check "report: payload against message size" grep -q '<h3>Throughput against message size</h3>' "$H"
check "report: the chart's y axis in B/s, not MB/s" grep -q '>B/s, log scale</text>\|>B/s</text>' "$H"
check "report: a series per operation and run (3 ops x 2 runs)" \
	test "$(grep -o '<g class="series" data-run="[12]" data-series="\(read\|write\|write-read\)">' "$H" | sort -u | wc -l)" = 6
check "report: one mark per measured point (3 ops x 3 sizes x 2 runs)" \
	test "$(sed -n '/class="chart sweep/,/<\/svg>/p' "$H" | grep -o 'class="mark"' | wc -l)" = 18
check "report: the bus clock's ceiling per size, a dashed line per series" \
	test "$(grep -c '<polyline class="own-ceiling"' "$H")" = 6
check "report: the caption says what the thin dashed line is" \
	grep -q 'its own ceiling at each message size' "$H"
check "report: messages per second as bars" grep -q '<h3>Messages per second</h3>' "$H"
check "report: a bar per pass and run (9 x 2)" \
	test "$(sed -n '/aria-label="msg\/s"/,/<\/svg>/p' "$H" | grep -c '<rect')" = 18
check "report: the figures table has the payload and its share of the ceiling" \
	sh -c "grep -q 'data-metric=\"payload_b_s\"' '$H' && grep -q '>80%<' '$H'"

# ---- report, text: a row per pass, held against its ceiling ----
expect_status 0 "text report of run A" env LC_ALL=C "$USBPERF" report "$WORK/a.json"
check "text: the sweep line in B/s against message size" \
	grep -q '^  B/s against message size, 1 to 32 ' "$WORK/out"
check "text: a series line per operation" \
	test "$(grep -cE '^    (read|write|write-read) +' "$WORK/out")" = 3
check "text: the rows are headed against the ceiling, with msg/s" \
	grep -qE '^  pass +figure +against ceiling +share +msg/s +cpu %' "$WORK/out"
check "text: write-read 32 B by its payload, 80 % of its ceiling" \
	grep -qE '^  write-read 32 B +32201 \+-322 B/s +#+-* +80% +1006 +3\.50' "$WORK/out"
check "text: a row per pass (9)" test "$(grep -cE '^  (read|write|write-read) [0-9]+ B ' "$WORK/out")" = 9

# ---- compare: the two runs' I2C rows ----
expect_status 0 "import A" u import "$WORK/a.json"
expect_status 0 "import B" u import "$WORK/b.json"
expect_status 1 "compare: B is half of A" u compare "$A" "$B" -F json
jq_check "$WORK/out" '[.metrics[] | select(.metric == "payload_b_s")] | length == 9 and all(.verdict == "worse")' \
	"compare: the nine payload rows, all worse"
jq_check "$WORK/out" '[.metrics[] | select(.metric == "msg_s" and .name == "read 1 B")][0].change_pct | . > -50.1 and . < -49.9' \
	"compare: read 1 B messages/s down 50 %"
expect_status 1 "compare, text" u compare "$A" "$B"
check "compare text: a row by pass and label" grep -Eq 'write-read 32 B +payload +B/s +32201 .* 16101 .* -50\.0 +worse' "$WORK/out"

# ---- check: criteria on the I2C metrics ----
cat >"$WORK/crit.json" <<'C'
{"usbperf_criteria": 1, "criteria": [
 {"id": "i2c-payload", "test": "i2c", "name": "write-read *", "metric": "payload_b_s", "min_ceiling_pct": 60},
 {"id": "i2c-rate", "device": "i2c-1:0x50", "name": "read 1 B", "metric": "msg_s", "min": 10000}]}
C
expect_status 0 "check A: 80 % of the ceiling, 16000 msg/s" u check "$A" --criteria "$WORK/crit.json" -F json
jq_check "$WORK/out" '[.checks[] | select(.result == "pass")] | length == 4' "check A: three payload rows and the rate pass"
expect_status 1 "check B: 40 % and 8000 msg/s fail" u check "$B" --criteria "$WORK/crit.json" -F json
jq_check "$WORK/out" '[.checks[] | select(.result == "fail")] | length == 4' "check B: all four fail"
jq_check "$WORK/out" '[.checks[] | select(.case_id | startswith("i2c-payload"))][0].note | test("40.0 % of the ceiling, below 60 %")' \
	"check B: the share of the bus clock's ceiling named"
finish

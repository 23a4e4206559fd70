#!/bin/bash
# The history commands on hand-written runs (tests/fixtures/runs-*.json):
# import, history and its filters, show, compare's exit status on a
# regression and without, baselines, export -> import round trips, bad
# input refused without creating anything, and a database that stays whole
# when imports are killed with SIGKILL at random moments.
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
DB="$WORK/h.db"
A=20261130T051200Z-3f2a   # kernel 6.1, the reference
B1=20261201T051500Z-77c1  # same setup: within noise, one metric better
B2=20261205T060200Z-9e04  # kernel 6.6, the stick lost UAS and moved port: regression
u() { "$USBPERF" "$@" --db "$DB"; }

# ---- import, history ----
expect_status 0 "import runs-a" u import "$FIXTURES/runs-a.json" -F json
jq_check "$WORK/out" '.import.runs == 1 and .import.imported == 1 and .import.skipped == 0' \
	"1 run imported"
expect_status 0 "import runs-b" u import "$FIXTURES/runs-b.json"
check "text says how many" grep -Eq '^  imported +2$' "$WORK/out"
expect_status 0 "import runs-a again" u import "$FIXTURES/runs-a.json" -F json
jq_check "$WORK/out" '.import.imported == 0 and .import.skipped == 1' "ids already there are skipped"

expect_status 0 "history" u history -F json
jq_check "$WORK/out" "[.runs[].id] == [\"$B2\", \"$B1\", \"$A\"]" "three runs, newest first"
jq_check "$WORK/out" '[.runs[] | .metrics == 6 and .devices != null] | all' "each with its 6 metrics"
jq_check "$WORK/out" ".runs[0].devices == [\"0781:5583@2-2\", \"host\"] and .runs[0].findings == 2" \
	"devices (a list) and findings summarised"
jq_check "$WORK/out" '.runs[0].board == "Radxa ROCK 5B" and .runs[0].kernel == "6.6.30-rk3588"' \
	"board and kernel"
expect_status 0 "history text" u history
check "text lists the three ids" test "$(grep -c '^2026' "$WORK/out")" = 3
hist_ids() { u history -F json "$@" | jq -r '[.runs[].id] | join(" ")'; }
check "--device VID:PID" test "$(hist_ids --device 0781:5583)" = "$B2 $B1 $A"
check "--device port path" test "$(hist_ids --device 2-2)" = "$B2"
check "--device serial, any case" test "$(hist_ids --device 4c5300)" = "$B2 $B1 $A"
check "--device no match" test "$(hist_ids --device 1234:)" = ""
check "--since day" test "$(hist_ids --since 2026-12-01)" = "$B2 $B1"
check "--until day includes that day" test "$(hist_ids --until 2026-12-01)" = "$B1 $A"
check "--until time excludes it" test "$(hist_ids --until 2026-12-01T05:15:00Z)" = "$A"
check "--limit" test "$(hist_ids --limit 1)" = "$B2"
# issue 31: --board, by hostname or board model (any case) or machine hash; in
# another history, so the rest of this test sees the three runs alone
BDB=$WORK/boards.db
jq '.runs |= map(.id = "am62-" + .id | .started_at = "2026-12-06T06:00:00Z" |
	.env.hostname = "am62-lab-1" | .env.board = "TI AM62x SK" | .env.machine = "0123456789abcdef")' \
	"$FIXTURES/runs-a.json" >"$WORK/am62.json"
for f in runs-a runs-b; do "$USBPERF" import "$FIXTURES/$f.json" --db "$BDB" >/dev/null; done
"$USBPERF" import "$WORK/am62.json" --db "$BDB" >/dev/null
board_ids() { "$USBPERF" history --db "$BDB" -F json "$@" | jq -r '[.runs[].id] | join(" ")'; }
check "--board by hostname" test "$(board_ids --board rock5b)" = "$B2 $B1 $A"
check "--board by board model, any case" test "$(board_ids --board 'am62X SK')" = "am62-$A"
check "--board by machine hash" test "$(board_ids --board 0123456789ABCDEF)" = "am62-$A"
check "--board '%' is a plain character" test "$(board_ids --board '%')" = ""
expect_status 1 "compare --board: the two newest runs of that board, not the newest of all" \
	"$USBPERF" compare --board rock5b --db "$BDB" -F json
jq_check "$WORK/out" ".comparison.a == \"$B1\" and .comparison.b == \"$B2\"" "compare --board rock5b: $B1 against $B2"
expect_status 2 "compare --board with one run" "$USBPERF" compare --board am62 --db "$BDB"
says "holds 1 of board 'am62'" "it says how many that board has"
expect_status 0 "show the am62 run's machine" "$USBPERF" show last --db "$BDB" -F json
jq_check "$WORK/out" '.env.machine == "0123456789abcdef"' "the machine hash kept in the history"
expect_status 0 "history csv" u history -F csv
check "csv header from the field table" \
	grep -qx 'id,started_at,duration_s,hostname,board,kernel,devices,metrics,findings,warnings,baselines' \
	"$WORK/out"
expect_status 0 "no match" u history --device nothing-like-this
check "says no run matches" grep -q '^warning: no run matches the filters$' "$WORK/out"

# ---- show ----
expect_status 0 "show by prefix" u show 20261205
check "text: environment" grep -Eq '^  kernel +6.6.30-rk3588$' "$WORK/out"
check "text: metric with spread, by its label and unit" grep -Eq '^2-2 +disk +seq-write 1M +rate +52.10 ±0.50 +51.60 +52.60 +MB/s ' "$WORK/out"
check "text: findings as blocks" grep -q '^  warn  2-2: mass storage runs on usb-storage' "$WORK/out"
expect_status 0 "show json" u show 2026113 -F json
# the fixtures predate verdicts, notes, unmeasured devices and a finding's
# "about" (issue 14): a record shows them, empty for such a run
NEW_PARTS='del(.verdicts, .notes, .unmeasured, .env.machine) | .findings |= map(del(.about))'
# the fixtures are runs of before the keys were renamed (issue 29.2.6): read as now
AS_NOW='def ren(a; b): map(with_entries(.key |= if . == a then b else . end));
	(.devices |= ren("key"; "device")) | (.metrics |= ren("device_key"; "device")) |
	(if .verdicts then .verdicts |= (ren("device_key"; "device") | map(.share_pct_anomaly = (.share_pct > 100))) else . end) |
	(if .unmeasured then .unmeasured |= ren("key"; "device") else . end)'
check "show json is the run as exported (its keys as now)" \
	test "$(jq -S "$NEW_PARTS" "$WORK/out")" = "$(jq -S ".runs[0] | $AS_NOW" "$FIXTURES/runs-a.json")"
jq_check "$WORK/out" '.verdicts == [] and .notes == [] and .unmeasured == [] and all(.findings[]; .about == null)' \
	"show json: a run from before verdicts has none, nor notes, nor unmeasured devices"
expect_status 0 "show csv" u show "$A" -F csv
check "csv is the metrics" grep -q '^device,test,name,metric,value,stdev,min,max,unit,repeats,sample_mean,sample_stdev,sample_min,samples,cpu_pressure_pct,cpu_busy_pct,ceiling,pass_spread,cpu_wait_pct,cpu_io_pct,higher_is_better$' "$WORK/out"
check "csv: 6 metrics" test "$(wc -l <"$WORK/out")" = 7
expect_status 2 "show an ambiguous prefix" u show 2026
one_line_error "ambiguous prefix"
expect_status 2 "show an unknown run" u show 1999
one_line_error "unknown run"

# ---- compare ----
expect_status 0 "compare A B1: no regression" u compare 2026113 20261201 -F json
jq_check "$WORK/out" '.comparison.result == "ok" and .comparison.worse == 0' "result ok"
jq_check "$WORK/out" '[.metrics[] | select(.metric == "iops")][0].verdict == "better"' \
	"IOPS up 8.5% beyond the spread: better"
jq_check "$WORK/out" '[.metrics[] | select(.name == "seq-write 1M")][0].verdict == "noise"' \
	"write down 5.4% within 2 sd: noise"
jq_check "$WORK/out" '(.caveats | length) == 0' "same setup: no caveats"
expect_status 1 "compare A B2: regression" u compare 2026113 20261205 -F json
jq_check "$WORK/out" '.comparison.result == "regression" and .comparison.worse == 4' \
	"4 metrics worse"
jq_check "$WORK/out" '[.metrics[] | select(.metric == "lat_p99_us")][0].verdict == "worse"' \
	"latency up: worse (lower is better)"
jq_check "$WORK/out" '[.metrics[] | .device] | index("2-2") != null' \
	"the stick matched across ports by VID:PID and serial"
jq_check "$WORK/out" '[.caveats[] | select(.what == "kernel" or .what == "governor" or .what == "driver")] | length == 3' \
	"caveats: kernel, governor, driver"
expect_status 0 "a big threshold hides it" u compare 2026113 20261205 --threshold 200%
expect_status 1 "compare text" u compare 2026113 20261205
check "text: a worse row" grep -Eq '^2-2 +disk +seq-write 1M +rate +MB/s +61.30 ±0.40 +52.10 ±0.50 +-15.0 +worse$' "$WORK/out"
check "text: the result" grep -Eq '^  result +regression$' "$WORK/out"
expect_status 0 "compare csv" u compare "$A" "$B1" -F csv
check "csv is the metrics" grep -q '^device,test,name,metric,unit,a,a_stdev,b,b_stdev,change_pct,verdict,' "$WORK/out"

# ---- issue 29: a comparison that compares nothing is no "ok" ----
# a run against itself: by id, as 'last last', through a baseline set on it
refused 2 "compare a run with itself" "$DB" -- u compare "$A" "$A"
says "'$A' and '$A' are the same run \\($A\\): nothing to compare" "it says they are the same run"
refused 2 "compare last last" "$DB" -- u compare last last
says "'last' and 'last' are the same run \\($B2\\): nothing to compare" "last last: the same run, named"
expect_status 0 "a baseline on the newest run" u baseline same-run last
refused 2 "compare the newest run against a baseline set on it" "$DB" -- u compare last --baseline same-run
says "is the run of baseline 'same-run'" "it says so"
expect_status 0 "drop that baseline" u baseline --delete same-run
# two runs that share no device or metric: another class, another device
jq '.runs[0] | .id = "other-class" | .metrics |= map(.test = "net")' "$FIXTURES/runs-a.json" >"$WORK/other-class.json"
refused 2 "compare runs that share no metric" "$DB" "$WORK/other-class.json" -- u compare "$A" "$WORK/other-class.json"
says "share no device or metric: nothing to compare" "says nothing to compare"
check "... and prints no comparison" test ! -s "$WORK/out"
jq '.runs[0] | .id = "other-device" | .devices |= map(.key = "other-" + .key | .serial = "X" + (.serial // "") |
	.vid_pid = (if .vid_pid then "ffff:0001" else null end) | .port_path = (if .port_path then "9-9" else null end)) |
	.metrics |= map(.device_key = "other-" + .device_key)' "$FIXTURES/runs-a.json" >"$WORK/other-device.json"
refused 2 "compare runs of two different devices" "$DB" "$WORK/other-device.json" -- u compare "$A" "$WORK/other-device.json" -F json
says "share no device or metric: nothing to compare" "two devices: nothing to compare"
check "... nothing on stdout, not even with -F json" test ! -s "$WORK/out"

# ---- 14.2: one pass per run, as run does by default ----
# A's run with one repeat (no stdev); B: 20% slower writes, 8% slower reads
one_pass() { # ID WRITE_FACTOR READ_FACTOR SAMPLE_STDEV_PCT (none: not sampled)
	jq --arg id "$1" --argjson w "$2" --argjson r "$3" --argjson sd "${4:-null}" '.runs[0] | .id = $id |
		.metrics |= map(.repeats = 1 | .stdev = null |
			.value *= (if .name == "seq-write 1M" then $w elif .name == "seq-read 1M" and .metric == "mb_s" and .device_key == "2-1" then $r else 1 end) |
			if $sd != null and .metric == "mb_s" then .sample_mean = .value | .sample_stdev = .value * $sd / 100 |
				.sample_min = .value * 0.9 | .samples = 20 else . end)' "$FIXTURES/runs-a.json"
}
one_pass one-a 1 1 >"$WORK/one-a.json"
one_pass one-b 0.8 0.92 >"$WORK/one-b.json"
expect_status 0 "one pass each, not sampled: no regression claimed" u compare "$WORK/one-a.json" "$WORK/one-b.json" -F json
jq_check "$WORK/out" '.comparison.result == "spread unknown" and .comparison.worse == 0 and .comparison.spread_unknown == 2' \
	"the -20% and -8% past the threshold: spread unknown, not worse"
jq_check "$WORK/out" '[.metrics[] | select(.name == "seq-write 1M")][0] | .verdict == "spread unknown" and .a_spread == null and .a_stdev == null' \
	"its row: verdict spread unknown, no spread on either side"
jq_check "$WORK/out" '[.metrics[] | select(.verdict == "same")] | length == 4' "the unchanged four: same"
expect_status 0 "the same as text" u compare "$WORK/one-a.json" "$WORK/one-b.json"
check "text: the spread unknown row" grep -Eq '^2-1 +disk +seq-write 1M +rate +MB/s +61.30 +49.04 +-20.0 +spread unknown$' "$WORK/out"
check "text: the result and its count" \
	sh -c "grep -Eq '^  result +spread unknown$' '$WORK/out' && grep -Eq '^  spread unknown +2$' '$WORK/out'"
expect_status 0 "the same as csv" u compare "$WORK/one-a.json" "$WORK/one-b.json" -F csv
check "csv: the verdict" grep -q ',-20\.0*,spread unknown,' "$WORK/out"
one_pass one-sa 1 1 1.5 >"$WORK/one-sa.json"
one_pass one-sb 0.8 0.92 1.5 >"$WORK/one-sb.json"
expect_status 1 "one pass each, sampled (1.5% spread): the 20% drop is a regression" \
	u compare "$WORK/one-sa.json" "$WORK/one-sb.json" -F json
jq_check "$WORK/out" '[.metrics[] | select(.metric == "mb_s") | .verdict] == ["worse", "worse", "same"]' \
	"-20% and -8% both beyond 2 sd of the difference (2 x 1.5% x sqrt 2 = 4.2%)"
jq_check "$WORK/out" '[.metrics[] | select(.metric == "mb_s")][0] | .a_spread == "samples" and .b_spread == "samples"' \
	"the spread taken from the samples"
one_pass one-sc 0.8 0.92 4 >"$WORK/one-sc.json"
one_pass one-sd 1 1 4 >"$WORK/one-sd.json"
expect_status 1 "a wider spread (4%)" u compare "$WORK/one-sd.json" "$WORK/one-sc.json" -F json
jq_check "$WORK/out" '[.metrics[] | select(.metric == "mb_s") | .verdict] == ["noise", "worse", "same"]' \
	"-8% within 2 x sqrt(4^2 + 3.7^2)% is noise, -20% is not"
expect_status 0 "report: two one-pass runs" u report "$WORK/one-a.json" "$WORK/one-b.json" -F text
check "report: the comparison counts spread unknown" \
	sh -c "tr '\n' ' ' <'$WORK/out' | tr -s ' ' | grep -q 'run 2 against run 1: spread unknown: 0 worse, 0 better, 4 same, 0 noise, 2 spread unknown, 0 contended, 0 missing, 0 new '"
check "report: why each was not judged and what to run next (29.2.11, compare's words)" \
	sh -c "tr '\n' ' ' <'$WORK/out' | tr -s ' ' | grep -q ' not judged: 2-1 seq-write 1M (mb_s): A: one pass.* next: rerun both with --repeat 3'"
check "report: and lists them" grep -Eq '^  spread unknown 2-1 seq-write 1M mb_s: 61.3 -> 49.0 MB/s \(-20.0%\)$' "$WORK/out"
# the samples through the history and export
expect_status 0 "import a sampled run" "$USBPERF" import "$WORK/one-sa.json" --db "$WORK/s.db"
expect_status 0 "export it" "$USBPERF" export --db "$WORK/s.db" -o "$WORK/s-out.json"
check "the samples come back as written" \
	test "$(jq -S '.runs[0].metrics' "$WORK/s-out.json")" = "$(jq -S "$AS_NOW | .metrics" "$WORK/one-sa.json")"
jq_check "$WORK/s-out.json" '[.runs[0].metrics[] | select(.metric == "mb_s") | .samples] == [20, 20, 20]' \
	"samples kept"

# ---- baselines ----
expect_status 0 "baselines: none yet" u baseline
expect_status 0 "baseline set" u baseline rk3588-6.1 2026113
check "names the run" grep -q "^rk3588-6.1  $A " "$WORK/out"
expect_status 1 "compare B2 --baseline: regression" u compare 20261205 --baseline rk3588-6.1
expect_status 0 "compare B1 --baseline: ok" u compare --baseline rk3588-6.1 "$B1" -F json
jq_check "$WORK/out" ".comparison.a == \"$A\" and .comparison.b == \"$B1\" and .comparison.baseline == \"rk3588-6.1\"" \
	"the baseline is A"
expect_status 0 "history marks it" u history -F json
jq_check "$WORK/out" ".runs[2].baselines == [\"rk3588-6.1\"]" "history shows the baseline (a list)"
expect_status 0 "baseline moved" u baseline rk3588-6.1 "$B1" -F json
jq_check "$WORK/out" ".baselines[0].run == \"$B1\"" "moved to B1"
expect_status 0 "baseline list" u baseline -F json
jq_check "$WORK/out" '(.baselines | length) == 1' "one baseline"
expect_status 2 "compare with an unknown baseline" u compare "$B2" --baseline nope
one_line_error "unknown baseline"
expect_status 0 "baseline --delete" u baseline --delete rk3588-6.1
expect_status 2 "deleted" u baseline rk3588-6.1

# ---- export -> import round trip ----
expect_status 0 "export all" u export -o "$WORK/all.json"
jq_check "$WORK/all.json" ".usbperf_export == 1 and [.runs[].id] == [\"$A\", \"$B1\", \"$B2\"]" \
	"export: every run, oldest first"
check "export: the runs as written in the fixtures" \
	test "$(jq -S ".runs | map($NEW_PARTS)" "$WORK/all.json")" = "$(jq -S -s "[.[].runs[] | $AS_NOW]" "$FIXTURES/runs-a.json" "$FIXTURES/runs-b.json")"
expect_status 0 "import into a fresh database" "$USBPERF" import "$WORK/all.json" --db "$WORK/fresh.db"
expect_status 0 "export the fresh one" "$USBPERF" export --db "$WORK/fresh.db" -o "$WORK/again.json"
check "round trip: identical documents" cmp -s "$WORK/all.json" "$WORK/again.json"
expect_status 0 "show one run as JSON" u show "$A" -F json -o "$WORK/one.json"
expect_status 0 "import that single record" "$USBPERF" import "$WORK/one.json" --db "$WORK/one.db" -F json
jq_check "$WORK/out" '.import.imported == 1' "a record as show writes it imports too"
expect_status 0 "export one run, named twice" u export 20261205 "$B2"
jq_check "$WORK/out" "[.runs[].id] == [\"$B2\"]" "export RUN: that run once"

# ---- bad input: one line, exit 2, nothing created or changed ----
refuse() {
	local what=$1
	shift
	expect_status 2 "$what" "$USBPERF" "$@"
	one_line_error "$what"
}
mkdir "$WORK/empty"
refuse "history: --db in a missing directory" history --db "$WORK/empty/nope/h.db"
refuse "import: --db in a missing directory" import "$FIXTURES/runs-a.json" --db "$WORK/empty/nope/h.db"
refuse "history: missing --db file" history --db "$WORK/empty/h.db"
refuse "import: malformed file" import "$FIXTURES/board.json" --db "$WORK/empty/h.db"
check "nothing created" test -z "$(ls -A "$WORK/empty")"
jq '.runs[0].metrics[2].value = "fast"' "$FIXTURES/runs-b.json" >"$WORK/bad.json"
refuse "import: a bad value" import "$WORK/bad.json" --db "$DB"
check "names where" grep -q "runs\[0\]: metrics\[2\]: 'value' is not a number" "$WORK/err"
cp "$FIXTURES/runs-a.json" "$WORK/not-a-db.json"
refuse "--db on a file that is not a history" history --db "$WORK/not-a-db.json"
check "that file unchanged" cmp -s "$FIXTURES/runs-a.json" "$WORK/not-a-db.json"
check "no -wal or -shm beside it" test ! -e "$WORK/not-a-db.json-wal" -a ! -e "$WORK/not-a-db.json-shm"
refuse "bad --since" history --since yesterday --db "$DB"
refuse "bad --limit" history --limit -1 --db "$DB"
refuse "bad --threshold" compare "$A" "$B1" --threshold much --db "$DB"
refuse "compare one run" compare "$A" --db "$DB"
refuse "bad baseline name" baseline "-x" "$A" --db "$DB"
refuse "export csv" export -F csv --db "$DB"
refuse "export an unknown run" export "$A" nope --db "$DB"
refuse "empty --db" history --db ""
HOME="$WORK/home" XDG_DATA_HOME="" expect_status 2 "default history missing" "$USBPERF" history
check "says where it looked" grep -q "no history yet at '$WORK/home/.local/share/usbperf/history.db'" "$WORK/err"
HOME="$WORK/home" XDG_DATA_HOME="" expect_status 0 "import creates the default history" \
	"$USBPERF" import "$FIXTURES/runs-a.json"
check "private directories" test "$(stat -c %a "$WORK/home/.local/share/usbperf")" = 700

# ---- kill -9 during imports: the database stays whole ----
# 300 runs of 150 metrics each; every round imports the file under new ids
# and is killed with SIGKILL at a random moment of the import.
K="$WORK/kill.db"
jq '.runs[0] as $r | {usbperf_export: 1, runs: [range(300) as $i | $r
	| .id = "round-\($i)"
	| .metrics = [range(150) as $k | .metrics[$k % 6] | .name = "\(.name) #\($k)"]]}' \
	"$FIXTURES/runs-a.json" >"$WORK/big.json"
start=$(date +%s%N)
"$USBPERF" import "$WORK/big.json" --db "$WORK/timing.db" >/dev/null
span_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "     an uninterrupted import of 300 runs takes $span_ms ms"
partial=0 killed=0
# the moment is random within a window that narrows to where kills land mid-import:
# a kill with nothing in yet moves the window later, one too late earlier (the
# machine's load changes the import's pace from the timing run)
lo=0.2 hi=1.4
for round in $(seq 1 16); do
	sed "s/\"id\": \"round-/\"id\": \"r$round-/" "$WORK/big.json" >"$WORK/round.json"
	frac=$(awk -v lo="$lo" -v hi="$hi" -v r="$RANDOM" 'BEGIN { srand(r); printf "%.3f", lo + (hi - lo) * rand() }')
	delay=$(awk -v s="$span_ms" -v f="$frac" 'BEGIN { printf "%.3f", f * s / 1000 }')
	"$USBPERF" import "$WORK/round.json" --db "$K" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	landed=0
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		killed=$((killed + 1))
		landed=1
	fi
	wait "$pid" 2>/dev/null
	n=$("$USBPERF" history --db "$K" -F json 2>/dev/null |
		jq "[.runs[] | select(.id | startswith(\"r$round-\"))] | length")
	if [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt 300 ]; then
		partial=$((partial + 1))
	elif [ "$landed" = 1 ] && [ "${n:-0}" = 0 ]; then
		lo=$frac	# too early: nothing in yet
	else
		hi=$frac	# too late: the import had finished
	fi
	echo "     round $round: killed after ${delay}s, $n of 300 runs in"
	[ "$partial" -ge 4 ] && break
done
check "SIGKILL landed in the middle of imports ($partial of $killed kills)" test "$partial" -ge 1
expect_status 0 "history --check after the kills" "$USBPERF" history --check --db "$K" -F json
jq_check "$WORK/out" '.database.ok == true and .database.integrity == "ok"' \
	"integrity and foreign keys ok"
jq_check "$WORK/out" '.database.metrics == 150 * .database.runs and .database.devices == 2 * .database.runs and .database.findings == .database.runs' \
	"every run whole: 150 metrics, 2 devices, 1 finding each"
expect_status 0 "history lists them" "$USBPERF" history --db "$K" -F json
jq_check "$WORK/out" '[.runs[] | .metrics == 150 and .findings == 1] | all' "no run cut short"
# the killed rounds complete when run again
for r in $(seq 1 "$round"); do
	sed "s/\"id\": \"round-/\"id\": \"r$r-/" "$WORK/big.json" >"$WORK/round.json"
	"$USBPERF" import "$WORK/round.json" --db "$K" >/dev/null || bad "import round $r again"
done
expect_status 0 "history --check at the end" "$USBPERF" history --check --db "$K" -F json
jq_check "$WORK/out" ".database.ok and .database.runs == 300 * $round and .database.metrics == 45000 * $round" \
	"all rounds complete: $round x 300 runs"

# ---- an upgrade from a version 2 history (before the sample columns, verdicts, notes, unmeasured devices, ceilings, the spread within each pass) ----
if command -v sqlite3 >/dev/null; then
	V2="$WORK/v2.db"
	for f in runs-a runs-b; do
		"$USBPERF" import "$FIXTURES/$f.json" --db "$V2" >/dev/null || bad "import $f into the v2 database"
	done
	sqlite3 "$V2" "DROP TABLE verdicts; DROP TABLE notes; DROP TABLE unmeasured;
		ALTER TABLE findings DROP COLUMN about;
		ALTER TABLE metrics DROP COLUMN sample_mean; ALTER TABLE metrics DROP COLUMN sample_stdev;
		ALTER TABLE metrics DROP COLUMN sample_min; ALTER TABLE metrics DROP COLUMN samples;
		ALTER TABLE metrics DROP COLUMN cpu_pressure_pct; ALTER TABLE metrics DROP COLUMN cpu_busy_pct;
		ALTER TABLE metrics DROP COLUMN ceiling; ALTER TABLE metrics DROP COLUMN pass_spread;
		ALTER TABLE metrics DROP COLUMN cpu_wait_pct; ALTER TABLE metrics DROP COLUMN cpu_io_pct;
		ALTER TABLE runs DROP COLUMN machine;
		DELETE FROM migrations WHERE version >= 3; PRAGMA user_version = 2;" ||
		bad "make a version 2 history"
	expect_status 0 "v2: show reads it as it is" "$USBPERF" show "$A" --db "$V2" -F json
	jq_check "$WORK/out" '.verdicts == [] and .notes == [] and (.metrics | length) == 6' \
		"v2: the run, with no verdicts or notes"
	check "v2: read without writing" test "$(sqlite3 "$V2" 'PRAGMA user_version')" = 2
	# a run with a verdict, a note and a device found but not measured
	jq '.runs[0] | .id = "20261206T000000Z-0001" | .started_at = "2026-12-06T00:00:00Z" |
		.verdicts = [{"device_key": "2-2", "limiter": "medium", "evidence": "seq-read 1M 182.4 MB/s is 38 % of super-speed bulk'"'"'s 484.8 MB/s ceiling: the bus has headroom", "share_pct": 37.6}] |
		.notes = [{"text": "passes lasted under 0.5 s (shortest 30 ms)"}] |
		.unmeasured = [{"key": "2-3", "kind": "usb-net", "name": "eth1", "why": "a network interface: measured only with --peer HOST"}] |
		.findings[0].about = "2-2"' "$FIXTURES/runs-a.json" >"$WORK/verdict-run.json"
	expect_status 0 "v2: import a run with a verdict upgrades the history" \
		"$USBPERF" import "$WORK/verdict-run.json" --db "$V2"
	check "v2: now the current schema" test "$(sqlite3 "$V2" 'PRAGMA user_version')" = \
		"$(sqlite3 "$DB" 'PRAGMA user_version')"
	expect_status 0 "v2: the old run still shows" "$USBPERF" show "$A" --db "$V2"
	check "v2: its findings as before, no verdict made up" sh -c \
		"grep -q '^  warn  sda: small request size' '$WORK/out' && ! grep -q '^verdict' '$WORK/out'"
	expect_status 0 "v2: show the new run" "$USBPERF" show last --db "$V2"
	check "show: the verdict is the first line" \
		test "$(head -3 "$WORK/out")" = "$(printf 'verdict: what limits each device\n  2-2  medium: seq-read 1M 182.4 MB/s is 38 %% of super-speed bulk'"'"'s 484.8 MB/s ceiling: the bus has\n       headroom')"
	check "show: the findings under the device's verdict" \
		sh -c "grep -A1 '^2-2 (verdict: medium)\$' '$WORK/out' | grep -q '^  warn  sda: small request size'"
	check "show: the note" grep -qx 'note: passes lasted under 0.5 s (shortest 30 ms)' "$WORK/out"
	check "show: the device found, not measured, and why" \
		grep -Eq '^2-3 +usb-net +eth1 .*a network interface: measured only with --peer HOST$' "$WORK/out"
	expect_status 0 "v2: export the new run" "$USBPERF" export "20261206T000000Z-0001" --db "$V2" -o "$WORK/v2-export.json"
	check "v2: the export keeps verdict, note and unmeasured device" \
		test "$(jq -S '.runs[0] | .verdicts, .notes, (.unmeasured | map(with_entries(select(.value != null))))' "$WORK/v2-export.json")" = \
		"$(jq -S "$AS_NOW | .verdicts, .notes, .unmeasured" "$WORK/verdict-run.json")"
fi

# ---- and --check tells a damaged file ----
cp "$K" "$WORK/damaged.db"
dd if=/dev/urandom of="$WORK/damaged.db" bs=4096 seek=100 count=3 conv=notrunc 2>/dev/null
expect_status 1 "history --check on a damaged file" "$USBPERF" history --check --db "$WORK/damaged.db" -F json
jq_check "$WORK/out" '.database.ok == false and (.database.integrity | test("Page|malformed"))' \
	"the damage is named"
finish
